/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Allowed network destinations: an address block and, optionally, the
 * ports on it.  Pure parsing and formatting, no syscalls; the policy keeps
 * these and netfilter/ruleset.c turns them into set elements.
 */
#ifndef LTD_NET_CIDR_H
#define LTD_NET_CIDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

#define LTD_NET_MAX_PORTS 16

struct ltd_net_ports {
	uint16_t lo, hi; /* inclusive, host byte order */
};

/*
 * CIDR[:PORTS].  Without ports every protocol and port of the block is
 * allowed; with ports, TCP and UDP to those ports only.
 */
struct ltd_net_dest {
	int family;		/* AF_INET or AF_INET6 */
	unsigned char addr[16]; /* network byte order, host bits zero */
	unsigned int prefix;	/* 0..32 or 0..128 */
	size_t n_ports;		/* 0: any protocol, any port */
	struct ltd_net_ports ports[LTD_NET_MAX_PORTS];
	uint8_t only_proto; /* with ports: 0 for TCP and UDP, or one
			       IPPROTO_* (the resolver: UDP only) */
};

/*
 * Parse "CIDR[:PORTS]" as --allow-cidr takes it:
 *   10.0.0.0/8   192.0.2.7:443   192.0.2.0/24:80,443,8000-8100
 *   fd00::/64    fd00::/64:443   [fd00::7]:443   fd00::7
 * An IPv6 address with ports needs a prefix or brackets.  Host bits must
 * be zero.  @flag names the option in messages.
 */
int ltd_cidr_dest_parse(const char *s, const char *flag, struct ltd_net_dest *d,
			struct ltd_err *err);

/* Parse a port list "80,443,8000-8100" into @ports (at most @max). */
int ltd_cidr_ports_parse(const char *s, const char *flag,
			 struct ltd_net_ports *ports, size_t max, size_t *n,
			 struct ltd_err *err);

/* "10.0.0.0/8:80,443" (the canonical form; brackets never needed). */
void ltd_cidr_dest_format(const struct ltd_net_dest *d, char *buf, size_t size);

/*
 * Pure: an address no DNS answer may open — this host or "any"
 * (0.0.0.0/8, 127.0.0.0/8, ::, ::1), link-local (169.254.0.0/16, the cloud
 * metadata services; fe80::/10), multicast and reserved (224.0.0.0/3,
 * ff00::/8), IPv4-mapped (::ffff:0:0/96), and the cage's own address plan
 * (198.18.0.0/15, fd4c:7464:6e61::/48).  Private ranges are not special:
 * an internal registry may answer there.
 */
bool ltd_cidr_addr_special(int family, const unsigned char addr[16]);

#endif
