/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The DNS filter as a process of its own: ltd-dnsd (netfilter/dnsd_main.c),
 * installed beside ltd-native.  The launcher links neither ldns nor
 * libcrypto (they cost every start ~0.3 ms of relocations, see
 * docs/decisions/0072-ltd-dnsd-process.md), and the untrusted DNS parsing
 * runs outside the launcher, in a process with no filesystem.
 *
 * Before clone: find the helper beside the launcher's own resolved
 * executable (never through PATH) and write its configuration into a
 * sealed memfd.  When init hands the DNS sockets over: start it with them.
 * At the end: ask it for its summary (the refused names) and wait for it.
 *
 * The helper's descriptors, fixed: LTD_DNSH_FD_* below.  The control
 * socket carries one byte 'R' (confined and serving); then requests 'L'
 * (struct ltd_dnsh_learn: open these addresses of this name), each
 * answered by one byte 'A' (open) or 'E' (not); requests 'S' and 'U' or
 * 'T' (a UDP or TCP socket to the upstream), answered by 'A' carrying the
 * socket (SCM_RIGHTS; non-blocking, connected, a TCP connect perhaps in
 * progress) or 'E' with none; and at the end, after the launcher shuts
 * its side for writing, the summary text.
 *
 * The helper runs in the host's network namespace and may open no socket
 * and connect nothing (its seccomp profile): what it can reach outside the
 * cage is the upstream, on sockets the launcher opened.  It waits for
 * each answer before it asks again: a request while an answer is still
 * unread leaves the protocol (and would pile sockets up in the queue).
 *
 * The cage's netfilter socket stays with the launcher, a broker: it opens
 * an address only for a name its own allowlist admits, on the ports of
 * its own entry, for a clamped time.  A helper taken over can open
 * addresses for allowed names, but not touch the rest of the firewall.
 */
#ifndef LTD_RUNTIME_DNSPROC_H
#define LTD_RUNTIME_DNSPROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "netfilter/dnsd.h"
#include "runtime/error.h"

#define LTD_DNSH_NAME	   "ltd-dnsd"
#define LTD_DNSH_FD_CONFIG 3 /* the memfd, read once */
#define LTD_DNSH_FD_CTL	   4 /* AF_UNIX stream to the launcher */
#define LTD_DNSH_FD_UDP	   5
#define LTD_DNSH_FD_TCP	   6
#define LTD_DNSH_FD_AUDIT  7 /* only when the configuration says so */
#define LTD_DNSH_READY	   'R'
#define LTD_DNSH_LEARN	   'L'
#define LTD_DNSH_OPENED	   'A'
#define LTD_DNSH_REFUSED   'E'
#define LTD_DNSH_MAX_ADDRS 64
#define LTD_DNSH_SOCKET	   'S'
#define LTD_DNSH_UDP	   'U'
#define LTD_DNSH_TCP	   'T'

/* After 'L': the name asked (NUL-terminated) and the answer's addresses
 * with their TTLs.  Both ends come from one build. */
struct ltd_dnsh_learn {
	char name[LTD_DOMAIN_MAX];
	uint32_t n;
	struct {
		uint32_t family; /* AF_INET or AF_INET6 */
		uint32_t ttl;
		uint8_t addr[16];
	} a[LTD_DNSH_MAX_ADDRS];
};

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

/* Pure: the helper's path beside the launcher at @self ("/a/b/ltd-native"
 * gives "/a/b/ltd-dnsd"); -ENAMETOOLONG or -EINVAL (not absolute). */
int ltd_dnsproc_path(const char *self, char *buf, size_t size);

/* The helper beside the launcher, its path into @path: opened O_PATH
 * (the descriptor returned) once it is an executable file that neither it
 * nor its directory lets anyone but the user or root write; a negative
 * errno and @err naming the path otherwise. */
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
