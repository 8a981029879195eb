/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Refused destinations, read through NFLOG.  The firewall's two refusing
 * rules (netfilter/ruleset.h) log each packet they refuse to group
 * LTD_NFLOG_GROUP of the cage's network namespace.  Init binds a
 * NETLINK_NETFILTER socket to that group while it holds CAP_NET_ADMIN (step
 * "dns-sockets", with the DNS filter's sockets) and hands it to the
 * launcher, which reads the first LTD_NFLOG_COPY_RANGE bytes of each
 * refused packet in its supervise loop.  The command cannot bind the group
 * itself: seccomp refuses it NETLINK_NETFILTER sockets.
 *
 * The packet bytes are the cage's: the decoder bounds-checks every read
 * and treats anything it cannot follow as "address only" or malformed.
 * Memory is bounded (LTD_NFLOG_MAX_DESTS destinations, the rest counted),
 * and so is the audit log: one line at a destination's first refusal and
 * one with its count at exit, whatever the number of packets.
 */
#ifndef LTD_NET_NFLOG_H
#define LTD_NET_NFLOG_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"

#define LTD_NFLOG_GROUP	 1
#define LTD_NFLOG_PREFIX "ltd-refused"
/* IPv6 (40) + a few extension headers + the ports: enough for the
 * destination of anything the cage's stack sends. */
#define LTD_NFLOG_COPY_RANGE 128
#define LTD_NFLOG_MAX_DESTS  32
/* Destinations the exit summary names (the most refused); the audit log
 * has them all. */
#define LTD_NFLOG_SHOW 8
/* recv() calls per wake-up: a flood cannot starve signal relaying. */
#define LTD_NFLOG_BATCH 64

/* Where one refused packet was going. */
struct ltd_nflog_dest {
	int family; /* AF_INET or AF_INET6 */
	uint8_t addr[16];
	uint8_t proto; /* IPPROTO_*, after IPv6 extension headers */
	bool has_port;
	uint16_t port; /* host byte order; valid with has_port */
};

/*
 * Decode @len bytes of a packet, from its network header.  0 with @d
 * filled (has_port false when the transport header is missing, truncated,
 * or the packet is a later fragment); -EINVAL when not even the
 * destination address can be read.
 */
int ltd_nflog_decode(const uint8_t *pkt, size_t len, struct ltd_nflog_dest *d);

/* True for destinations the kernel talks to on its own (multicast,
 * broadcast): MLD reports, router solicitations.  Not reported. */
bool ltd_nflog_dest_is_housekeeping(const struct ltd_nflog_dest *d);
/* Whether @d is the host as the cage sees it (the gateway: a host port,
 * which --allow-host-port allows, never --allow-cidr). */
bool ltd_nflog_dest_is_host(const struct ltd_nflog_dest *d);

/* "10.1.2.3:443/tcp", "[fd00::1]:80/tcp", "10.1.2.3/icmp". */
void ltd_nflog_dest_format(const struct ltd_nflog_dest *d, char *buf,
			   size_t size);

struct ltd_nflog_config {
	FILE *audit; /* JSON lines, or NULL */
	bool quiet;
};

struct ltd_nflog {
	struct ltd_nflog_config cfg;
	int fd; /* -1 until init hands it over */
	struct {
		struct ltd_nflog_dest dest;
		unsigned long count;
	} dests[LTD_NFLOG_MAX_DESTS];
	size_t n_dests;
	unsigned long total;	 /* refused packets reported */
	unsigned long unlisted;	 /* of those, beyond the table */
	unsigned long malformed; /* messages or packets not decoded */
	bool lost;		 /* the socket overflowed (ENOBUFS) */
};

/*
 * In the cage's network namespace, with CAP_NET_ADMIN there: a
 * NETLINK_NETFILTER socket bound to LTD_NFLOG_GROUP, copying
 * LTD_NFLOG_COPY_RANGE bytes of each packet, one message per packet.
 */
int ltd_nflog_open(struct ltd_err *err);

void ltd_nflog_init(struct ltd_nflog *l, const struct ltd_nflog_config *cfg);

/* Take the socket of ltd_nflog_open() (non-blocking from here). */
void ltd_nflog_attach(struct ltd_nflog *l, int fd);

/* Count the refused packets in @len bytes of netlink messages (what one
 * recv() on the socket returned); audit each new destination. */
void ltd_nflog_feed(struct ltd_nflog *l, const void *buf, size_t len);

/* The socket is readable: read at most LTD_NFLOG_BATCH datagrams. */
void ltd_nflog_read(struct ltd_nflog *l);

/* Everything queued (at exit, after the command ended). */
void ltd_nflog_drain(struct ltd_nflog *l);

/* The refused destinations, on @out (nothing when none, or quiet). */
void ltd_nflog_summary(const struct ltd_nflog *l, FILE *out);

/* One audit line per destination with its count (at exit). */
void ltd_nflog_audit_totals(const struct ltd_nflog *l);

void ltd_nflog_close(struct ltd_nflog *l);

#endif
