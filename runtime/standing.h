/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A host's standing warnings: what a protection leaves out on this host
 * (no cgroup of the cage's own, an older Landlock ABI).  Each is said on
 * every run (DESIGN section 1) until the user acknowledges it once with
 * `ltd-native doctor --acknowledge`, and said again as soon as the facts
 * it rests on change.  `doctor` always says it.
 *
 * An acknowledgement is a line "KEY FACTS" in
 * ~/.config/ltd-native/acknowledged: the warning's key and the facts as
 * the probe words them ("cgroup not-delegated nproc-per-userns",
 * "landlock abi 3").  The gate refuses any bind of ~/.config/ltd-native
 * (its credential class), so the cage cannot acknowledge for the user;
 * the run judges the file like the machine-local policy
 * (policy/inputs.c).  See docs/decisions/0110-standing-warnings-
 * acknowledged.md.
 *
 * Warnings about what the command did (planted repositories, quarantined
 * files) and waived risks are not standing warnings: never silenced.
 */
#ifndef LTD_STANDING_H
#define LTD_STANDING_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "runtime/limits.h"

#define LTD_ACK_FILE	  "/.config/ltd-native/acknowledged" /* under home */
#define LTD_STANDING_KEY  16
#define LTD_STANDING_FACT 128
#define LTD_ACKS_MAX	  8

struct ltd_standing {
	char key[LTD_STANDING_KEY];    /* "cgroup", "landlock" */
	char facts[LTD_STANDING_FACT]; /* what it rests on, one line */
	char text[LTD_ERR_MSG_MAX + LTD_CG_PATH_MAX]; /* the warning */
};

/* What the user acknowledged, as read from the file. */
struct ltd_acks {
	size_t n;
	struct {
		char key[LTD_STANDING_KEY];
		char facts[LTD_STANDING_FACT];
	} v[LTD_ACKS_MAX];
};

/* Pure: @s from its parts (each cut to its field). */
void ltd_standing_set(struct ltd_standing *s, const char *key,
		      const char *facts, const char *text);

/* Pure: the acknowledgements in a file's @text ('#' lines are comments;
 * a line longer than its fields is no acknowledgement). */
void ltd_acks_parse(const char *text, size_t len, struct ltd_acks *a);

/* Pure: @a acknowledges @s, for the same facts. */
bool ltd_acks_cover(const struct ltd_acks *a, const struct ltd_standing *s);

/* Pure: the file's text for @s (malloc'd; NULL: out of memory). */
char *ltd_acks_text(const struct ltd_standing *s, size_t n);

/* Pure: the facts a cgroup warning rests on: why there is none, not where
 * (a terminal's systemd scope changes with each login), and how pids are
 * bounded instead. */
void ltd_standing_cgroup_facts(const struct ltd_cg_facts *f, char *buf,
			       size_t size);

/* The file under the user's home (from passwd: what the cage's $HOME
 * cannot change); -ENOENT without a home. */
int ltd_acks_path(char *buf, size_t size, struct ltd_err *err);

/* Read them; a missing file acknowledges nothing (0).  A file that is
 * not a regular file of the user's is refused. */
int ltd_acks_load(struct ltd_acks *a, struct ltd_err *err);

/* Replace the file with @s (creating ~/.config/ltd-native 0700 when
 * missing): what this host warns of now, and nothing older. */
int ltd_acks_store(const struct ltd_standing *s, size_t n, struct ltd_err *err);

/* Say @s on stderr (ltd_warn) unless @a acknowledges it. */
void ltd_standing_say(const struct ltd_acks *a, const struct ltd_standing *s);

#endif
