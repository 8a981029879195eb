/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Landlock, the second wall behind the mount plan.
 *
 The ruleset is built before clone() from the mount plan and the policy
 * (runtime/landlock_rules.h: which rights are handled, one (path, rights)
 * rule per mount the command may use, the TCP ports it may connect to);
 * the command's "landlock" step, pasta's child and ltd-dnsd open each path
 * (O_PATH, no link followed) and restrict themselves with
 * ltd_landlock_confine().
 *
 * Landlock grants add up down the tree: a rule cannot take away what a
 * rule on an ancestor grants.  Read-only places inside writable ones (the
 * protected paths in the project, a --ro-bind under a --bind) therefore
 * stay read-only by their read-only mounts alone; see
 * docs/decisions/0021-landlock-rules-from-mount-plan.md.
 */
#ifndef LTD_LANDLOCK_H
#define LTD_LANDLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* Filesystem rights, as the kernel numbers them (ABI 1-5). */
#define LTD_LL_FS_EXECUTE     (1ULL << 0)
#define LTD_LL_FS_WRITE_FILE  (1ULL << 1)
#define LTD_LL_FS_READ_FILE   (1ULL << 2)
#define LTD_LL_FS_READ_DIR    (1ULL << 3)
#define LTD_LL_FS_REMOVE_DIR  (1ULL << 4)
#define LTD_LL_FS_REMOVE_FILE (1ULL << 5)
#define LTD_LL_FS_MAKE_CHAR   (1ULL << 6)
#define LTD_LL_FS_MAKE_DIR    (1ULL << 7)
#define LTD_LL_FS_MAKE_REG    (1ULL << 8)
#define LTD_LL_FS_MAKE_SOCK   (1ULL << 9)
#define LTD_LL_FS_MAKE_FIFO   (1ULL << 10)
#define LTD_LL_FS_MAKE_BLOCK  (1ULL << 11)
#define LTD_LL_FS_MAKE_SYM    (1ULL << 12)
#define LTD_LL_FS_REFER	      (1ULL << 13) /* ABI 2 */
#define LTD_LL_FS_TRUNCATE    (1ULL << 14) /* ABI 3 */
#define LTD_LL_FS_IOCTL_DEV   (1ULL << 15) /* ABI 5 */

/* The rights a rule on a file (not a directory) may carry. */
#define LTD_LL_FS_FILE                                                         \
	(LTD_LL_FS_EXECUTE | LTD_LL_FS_WRITE_FILE | LTD_LL_FS_READ_FILE |      \
	 LTD_LL_FS_TRUNCATE | LTD_LL_FS_IOCTL_DEV)

/* The classes of access a mount gives (before masking by the ABI). */
#define LTD_LL_READ                                                            \
	(LTD_LL_FS_EXECUTE | LTD_LL_FS_READ_FILE | LTD_LL_FS_READ_DIR)
/* Everything but making device nodes (no workload needs to; a rootless
 * cage cannot use them anyway). */
#define LTD_LL_WRITE                                                           \
	(((LTD_LL_FS_IOCTL_DEV << 1) - 1) &                                    \
	 ~(LTD_LL_FS_MAKE_CHAR | LTD_LL_FS_MAKE_BLOCK))
/* Device nodes and terminals: read, write, their ioctls. */
#define LTD_LL_DEVICE                                                          \
	(LTD_LL_FS_READ_FILE | LTD_LL_FS_WRITE_FILE | LTD_LL_FS_TRUNCATE |     \
	 LTD_LL_FS_IOCTL_DEV)
/* The cage's procfs: read, and write what procfs lets be written. */
#define LTD_LL_PROC                                                            \
	(LTD_LL_FS_READ_FILE | LTD_LL_FS_WRITE_FILE | LTD_LL_FS_TRUNCATE |     \
	 LTD_LL_FS_READ_DIR)

#define LTD_LL_NET_BIND_TCP	   (1ULL << 0) /* ABI 4 */
#define LTD_LL_NET_CONNECT_TCP	   (1ULL << 1) /* ABI 4 */
#define LTD_LL_SCOPE_ABSTRACT_UNIX (1ULL << 0) /* ABI 6 */
#define LTD_LL_SCOPE_SIGNAL	   (1ULL << 1) /* ABI 6 */

/* The lowest ABI --require-landlock accepts: from 3 every way of changing
 * a file's content (write, truncate) is a handled right. */
#define LTD_LL_MIN_REQUIRED_ABI 3
/* TCP port rules (--restrict-tcp-ports). */
#define LTD_LL_NET_ABI 4

struct ltd_ll_rule {
	char *path;	 /* absolute, inside the cage */
	uint64_t access; /* LTD_LL_FS_*, masked by the ABI; a file's rule
			    keeps only LTD_LL_FS_FILE (the executor) */
	bool optional;	 /* a missing path is skipped */
	const char *why; /* the plan entry's origin */
};

#define LTD_LL_MAX_PORTS      1024
#define LTD_LL_MAX_BIND_PORTS 64

struct ltd_landlock {
	int abi; /* 0: no Landlock, nothing to do */
	uint64_t handled_fs;
	uint64_t handled_net; /* 0 unless --restrict-tcp-ports (or pasta's) */
	uint64_t scoped;
	struct ltd_ll_rule *rules;
	size_t n_rules;
	uint16_t ports[LTD_LL_MAX_PORTS]; /* TCP connect allowed, sorted */
	size_t n_ports;
	uint16_t bind_ports[LTD_LL_MAX_BIND_PORTS]; /* TCP bind allowed */
	size_t n_bind_ports;
};

/* The kernel's Landlock ABI version, 0 when Landlock is unavailable. */
int ltd_landlock_abi(void);

/* Free @ll's rules. */
void ltd_landlock_free(struct ltd_landlock *ll);

/* Confine the calling thread (no_new_privs set) to @ll's rules. */
int ltd_landlock_confine(const struct ltd_landlock *ll, struct ltd_err *err);

#endif
