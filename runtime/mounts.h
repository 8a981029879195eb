/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Executes a mount plan inside the cage's mount namespace.  Mounts are made
 * by file descriptor (open_tree, fsmount, move_mount) and mount points are
 * resolved inside the new root, so no path of the host is ever written.
 */
#ifndef LTD_MOUNTS_H
#define LTD_MOUNTS_H

#include "runtime/mountplan.h"

struct ltd_mount_state {
	int *src_fds; /* detached copies of each entry's host source, or -1 */
	int rootfd;   /* the new root tmpfs, attached */
	int mask_dir; /* the first empty read-only tmpfs over a masked
			 directory; later ones are copies of it (-1 before) */
};

/* Stop mount events from propagating back to the host. */
int ltd_mounts_make_private(struct ltd_err *err);

/* Clone every host source while host paths are still visible. */
int ltd_mounts_open_sources(const struct ltd_plan *plan,
			    struct ltd_mount_state *st, struct ltd_err *err);

/* A fresh tmpfs that becomes "/" (the plan's root_size), attached where no
 * source lives now. */
int ltd_mounts_make_root(const struct ltd_plan *plan,
			 struct ltd_mount_state *st, struct ltd_err *err);

int ltd_mounts_apply(const struct ltd_plan *plan, struct ltd_mount_state *st,
		     struct ltd_err *err);

/* pivot_root into the new root and detach the host's root entirely. */
int ltd_mounts_pivot(struct ltd_mount_state *st, struct ltd_err *err);

#endif
