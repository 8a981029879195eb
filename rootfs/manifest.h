/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The manifest of a pinned root filesystem: one line per file, in the
 * order of a depth-first walk with each directory's names sorted bytewise,
 * after a header line.  A line is six space-separated fields:
 *
 *	TYPE MODE UID:GID SIZE HASH-OR-TARGET PATH
 *
 * TYPE is d (directory), f (regular file) or l (symbolic link); MODE the
 * image's permission bits in octal (0777 for links); UID:GID the image's
 * owner; SIZE the byte count of a file ("-" otherwise); the fifth field a
 * file's SHA-256 in hex, a link's target, or "-" for a directory; PATH
 * absolute inside the image ("/" for its root).  Bytes <= 0x20, >= 0x7f and
 * '%' in a path or target are written %XX, so a field never holds a space.
 *
 * The entry's digest is the SHA-256 of the manifest's bytes.  Pure code:
 * no system calls.
 */
#ifndef LTD_MANIFEST_H
#define LTD_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/error.h"
#include "common/names.h"
#include "common/sha256.h"

#define LTD_MANIFEST_HEADER "ltd-rootfs manifest 1\n"

struct ltd_mf_entry {
	char type;     /* 'd', 'f' or 'l' */
	unsigned mode; /* the image's bits, 07777 */
	unsigned uid, gid;
	uint64_t size;		    /* 'f' */
	char hash[LTD_HEX_LEN + 1]; /* 'f' */
	char *path;		    /* "/", "/usr/bin/env" */
	char *target;		    /* 'l' */
};

struct ltd_manifest {
	struct ltd_mf_entry *e;
	size_t n;
};

/* One line, '\n'-terminated, malloc'd; NULL when out of memory. */
char *ltd_manifest_format(const struct ltd_mf_entry *e);

/* Parse a whole manifest (header included).  Errors name the line. */
int ltd_manifest_parse(const char *buf, size_t len, struct ltd_manifest *m,
		       struct ltd_err *err);
void ltd_manifest_free(struct ltd_manifest *m);
void ltd_manifest_entry_free(struct ltd_mf_entry *e);

/* The entry with @path, or NULL (linear: for the few look-ups a run does). */
const struct ltd_mf_entry *ltd_manifest_find(const struct ltd_manifest *m,
					     const char *path);

/*
 * The mode a file has on disk in the store: the image's read and execute
 * bits, no write, set-id or sticky bits, and always readable (and, for a
 * directory, searchable) by its owner, the user who imported it.
 */
mode_t ltd_manifest_disk_mode(char type, unsigned mode);

/* %XX-escape @in (see above); malloc'd. */
char *ltd_manifest_escape(const char *in);
/* Undo ltd_manifest_escape() in place; -EINVAL for a malformed escape or NUL.
 */
int ltd_manifest_unescape(char *s);

#endif
