/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Between the launcher (runtime/dnsproc.c) and ltd-dnsd (cli/ltd-dnsd.c):
 * the helper's fixed descriptors and the messages on its control socket.
 * Both ends come from one build.
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
#ifndef LTD_DNSD_PROTO_H
#define LTD_DNSD_PROTO_H

#include <stdint.h>

#include "policy/domains.h"

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

#endif
