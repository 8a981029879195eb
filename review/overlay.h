/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The overlay a review run gives the cage in the project's place: the
 * project below, read-only; the review's upper directory above.  Rootless
 * overlayfs (Linux 5.11 or later, `userxattr`), made by the cage's init in
 * its own user and mount namespaces and attached by fd.
 */
#ifndef LTD_REVIEW_OVERLAY_H
#define LTD_REVIEW_OVERLAY_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

#include "common/error.h"

enum { LTD_LAYER_LOWER, LTD_LAYER_UPPER, LTD_LAYER_WORK, LTD_LAYERS };

/* The layers as the launcher resolved them, before clone. */
struct ltd_review_layers {
	char path[LTD_LAYERS][PATH_MAX]; /* absolute, no link on the way */
	dev_t dev[LTD_LAYERS];
	ino_t ino[LTD_LAYERS];
};

/*
 * Fill @l for @project and the review directory @dir: open each layer
 * without following a link and record what it is.  The launcher, before
 * clone.
 */
int ltd_overlay_layers(struct ltd_review_layers *l, const char *project,
		       const char *dir, struct ltd_err *err);

/*
 * In the cage's init, in its mount namespace, host paths still visible:
 * open each layer by its path without following a link, check that it is
 * still the directory the launcher found (a layer opened before clone
 * cannot be used: overlayfs takes layers only from the caller's own mount
 * namespace), and make the overlay.  Returns the detached mount's fd
 * (nosuid, nodev), to be attached at the project's path.
 */
int ltd_overlay_make(const struct ltd_review_layers *l, struct ltd_err *err);

/*
 * `doctor`: in a forked child with new user and mount namespaces, mount a
 * rootless overlay with its upper and work directories in @dir (on the
 * filesystem reviews are kept on).  0, or a -errno with @err saying why.
 */
int ltd_overlay_probe(const char *dir, struct ltd_err *err);

#endif
