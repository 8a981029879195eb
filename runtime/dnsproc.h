/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The DNS filter as a process of its own: ltd-dnsd (cli/ltd-dnsd.c),
 * installed beside ltd-native or in ../libexec/ltd-native/ from it.  The
 * launcher links neither ldns nor libcrypto (they cost every start ~0.3 ms of
 * relocations, see docs/decisions/0072-ltd-dnsd-process.md), and the untrusted
 * DNS parsing runs outside the launcher, in a process with no filesystem.
 *
 * Before clone: find the helper beside the launcher's own resolved
 * executable, else in ../libexec/ltd-native/ from its directory (never
 * through PATH), and write its configuration into a sealed memfd.  When init
 * hands the DNS sockets over: start it with them. At the end: ask it for its
 * summary (the refused names) and wait for it.
 *
 * The protocol between the two: dnsd/proto.h.
 */
#ifndef LTD_RUNTIME_DNSPROC_H
#define LTD_RUNTIME_DNSPROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "common/error.h"
#include "dnsd/dnsd.h"
#include "dnsd/proto.h"

struct ltd_dnsproc {
	int exe;    /* O_PATH of the helper, -1 */
	int config; /* sealed memfd, -1 */
	int err;    /* the helper's stderr: never readable, -1 */
	int ctl;    /* our end of the control socket, -1 */
	int nl;	    /* the cage's NETLINK_NETFILTER socket, -1 */
	pid_t pid;  /* 0: not running */
	bool ready; /* it said 'R' */
	bool warned;
	size_t learned; /* addresses opened so far (LTD_DNSPROC_MAX_LEARNED) */
	const struct ltd_dnsd_config *cfg; /* the run's, for the broker */
	size_t in_len;
	uint8_t in[1 + sizeof(struct ltd_dnsh_learn)];
};

/* Addresses one run's answers may open: a helper taken over cannot fill
 * the kernel's sets. */
#define LTD_DNSPROC_MAX_LEARNED 4096

#define LTD_DNSPROC_INIT                                                       \
	{                                                                      \
		.exe = -1, .config = -1, .err = -1, .ctl = -1, .nl = -1        \
	}

/* Where make install puts the helper, relative to PREFIX. */
#define LTD_DNSPROC_LIBEXEC "libexec/ltd-native"

/* Pure: the helper's place number @which for the launcher at @self,
 * resolved: 0 beside it ("/a/bin/ltd-native" gives "/a/bin/ltd-dnsd"),
 * 1 in ../libexec/ltd-native/ ("/a/libexec/ltd-native/ltd-dnsd");
 * -ENOENT past the last, -ENAMETOOLONG, or -EINVAL (not absolute). */
int ltd_dnsproc_path(const char *self, int which, char *buf, size_t size);

/* The helper at the first of those places that holds one, its path into
 * @path: opened O_PATH (the descriptor returned) once it is an executable
 * file that neither it nor its directory lets anyone but the user or root
 * write; a negative errno and @err naming the path otherwise (a helper
 * that fails the checks stops the search). */
int ltd_dnsproc_find(char *path, size_t size, struct ltd_err *err);

/* Before clone: open the helper and write @cfg for it. */
int ltd_dnsproc_prepare(struct ltd_dnsproc *h,
			const struct ltd_dnsd_config *cfg, struct ltd_err *err);

/* Start it with init's sockets (UDP, TCP for the helper; netfilter kept
 * here for the broker; the caller closes its copies) and @audit_fd (-1:
 * none). */
int ltd_dnsproc_start(struct ltd_dnsproc *h, const int fds[3], int audit_fd,
		      struct ltd_err *err);

/* The control socket polled readable: answers the helper's requests; 0
 * while the helper serves, a negative errno with @err filled once it has
 * ended without being asked or sent what the protocol does not have. */
int ltd_dnsproc_readable(struct ltd_dnsproc *h, struct ltd_err *err);

/* Ask for the summary, copy it to @out, wait for the helper (bounded). */
void ltd_dnsproc_finish(struct ltd_dnsproc *h, FILE *out);

/* Kill a helper still running, wait for it, close everything. */
void ltd_dnsproc_stop(struct ltd_dnsproc *h);

#endif
