/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The store of pinned root filesystems, shared by ltd-rootfs and the
 * runtime:
 *
 *	$XDG_DATA_HOME/ltd-native/rootfs/	(default ~/.local/share/...)
 *	  entries/HEX/manifest	the sealed manifest; HEX is its SHA-256
 *	  entries/HEX/tree/	the files, read-only on disk
 *	  pins/NAME		"sha256:HEX\n"
 *	  tmp/			imports in progress
 *
 * Entries are written once, under a temporary name, and renamed into
 * place when sealed; pins are replaced by rename.
 *
 * Each entry's directory is also its lock (flock): every run holds it
 * shared for its whole life, and an entry is removed (or replaced) only
 * under it exclusively, so no entry goes from under a running cage.
 * The store's own lock (lock) serializes what changes pins and entries:
 * import's commit and rm.
 */
#ifndef LTD_STORE_H
#define LTD_STORE_H

#include <stdbool.h>

#include "rootfs/manifest.h"

struct ltd_store_entry {
	char hex[LTD_HEX_LEN + 1];
	char *dir;  /* real path of entries/HEX */
	char *tree; /* dir + "/tree" */
	struct ltd_manifest mf;
	long long sealed_ns; /* the manifest's ctime */
};

/* The store's path from the environment (not resolved, may not exist). */
int ltd_store_path(char **path, struct ltd_err *err);

/* Pure: a pin file's content, "sha256:HEX\n". */
int ltd_pin_parse(const char *buf, size_t len, char hex[LTD_HEX_LEN + 1],
		  struct ltd_err *err);

/* The digest @ref names: a digest as is, or the one NAME's pin records. */
int ltd_store_resolve(const char *store, const char *ref,
		      char hex[LTD_HEX_LEN + 1], struct ltd_err *err);

/*
 * Open entry @hex: its manifest must hash to @hex (else an error naming
 * both digests, on behalf of @ref).  Fills @e.
 */
int ltd_store_open(const char *store, const char *ref, const char *hex,
		   struct ltd_store_entry *e, struct ltd_err *err);

/*
 * The fast check before a run: every file of the manifest is there with
 * its type, mode and size, and none was changed (ctime) after the manifest
 * was sealed; no content is read.  A full re-hash is ltd_store_verify().
 */
int ltd_store_quick_check(const struct ltd_store_entry *e, struct ltd_err *err);

void ltd_store_entry_free(struct ltd_store_entry *e);

/*
 * The store-wide lock, taken exclusively, for import's commit (entry
 * check, rename, pin) and rm's whole decision and removal: rm cannot find
 * an entry unpinned while an import pins it.  @store/lock is created 0600
 * and opened without following a link; one that is not a regular file of
 * the user's is an error naming it.  Held by another, it is waited for,
 * said once on stderr.  The lock lasts as long as *@fd.
 */
int ltd_store_lock(const char *store, int *fd, struct ltd_err *err);

/*
 * Lock entry @hex, on behalf of @ref: @op is LOCK_SH (a run, which waits
 * while the entry is being removed) or LOCK_EX | LOCK_NB (its removal,
 * refused with -EBUSY while a run holds it).  *@fd is the entry
 * directory, open close-on-exec, locked; the lock lasts as long as that
 * descriptor.  -ENOENT (with the message a run gives) when there is no
 * such entry.
 */
int ltd_store_entry_lock(const char *store, const char *ref, const char *hex,
			 int op, int *fd, struct ltd_err *err);

#endif
