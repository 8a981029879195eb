/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The mount table as /proc/self/mountinfo gives it: each mount's id, its
 * parent's, its filesystem (major:minor), the directory of that filesystem
 * it shows (its root) and where (its mount point).  A bind mount shows a
 * directory under another name: its root says which.
 */
#ifndef LTD_COMMON_MOUNTINFO_H
#define LTD_COMMON_MOUNTINFO_H

#include <stddef.h>

struct ltd_mount_ent {
	int id, parent;
	unsigned major, minor;
	char *root; /* in its filesystem, from "/"; or what the kernel
		     * shows for a namespace file bound there ("net:[N]") */
	char *mnt;  /* where it is mounted */
};

struct ltd_mountinfo {
	struct ltd_mount_ent *v;
	size_t n;
};

/* Undo mountinfo's octal escapes (\040 for a space) of the @len bytes at
 * @s into @out: -ENAMETOOLONG when @size is too small. */
int ltd_mountinfo_unescape(const char *s, size_t len, char *out, size_t size);

/* Pure: the table in @text (mountinfo's format) into @mi; a line that
 * does not parse is -EINVAL, nothing kept. */
int ltd_mountinfo_parse(const char *text, struct ltd_mountinfo *mi);

/* /proc/self/mountinfo, parsed. */
int ltd_mountinfo_read(struct ltd_mountinfo *mi);

const struct ltd_mount_ent *ltd_mountinfo_find(const struct ltd_mountinfo *mi,
					       int id);

/*
 * The names under which the directories above mount @id's root in its
 * filesystem are seen through the other mounts of that filesystem: a bind
 * mount that shows fs:/srv/ws/proj at ~/proj hides fs:/srv/ws and fs:/srv,
 * which a mount of fs:/ at / names /srv/ws and /srv.  Each name is given
 * to @fn with the id of the mount it lies on (the caller checks that
 * nothing covers it there); then the same for the mount @id lies on, and
 * so on up to the root.  Pure; @fn returning nonzero stops, and that is
 * returned.
 */
int ltd_mountinfo_aliases_above(const struct ltd_mountinfo *mi, int id,
				int (*fn)(const char *alias, int on, void *ctx),
				void *ctx);

void ltd_mountinfo_free(struct ltd_mountinfo *mi);

#endif
