/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The egress firewall as one nftables batch, built in memory with libnftnl
 * from a small spec.  Pure: no sockets, no syscalls beyond malloc, so the
 * launcher builds it before clone() and a unit test prints it.
 *
 * Layout (inet family: one rule set for IPv4 and IPv6, no v6 hole):
 *
 *   table inet ltd
 *     set allow4  ipv4_addr . inet_proto . inet_service  interval, timeout
 *     set allow6  ipv6_addr . inet_proto . inet_service  interval, timeout
 *     set host_ports  inet_service      (only with allowed host ports)
 *     set published  inet_service       (only with ports published beyond
 *                                        the host's loopback)
 *     chain output  hook output, policy drop
 *       oif lo accept
 *       ct state established,related accept
 *       icmpv6 type 135-136 accept                  (NDP: reach the gateway)
 *       ip daddr GW4 tcp dport @host_ports accept    (only with host ports)
 *       ip6 daddr GW6 tcp dport @host_ports accept   (only with host ports)
 *       ip daddr != GW4 ip daddr . meta l4proto . th dport @allow4 accept
 *       ip6 daddr != GW6 ip6 daddr . meta l4proto . th dport @allow6 accept
 *       meta l4proto tcp log group 1 prefix "ltd-refused" reject with tcp reset
 *       log group 1 prefix "ltd-refused" reject with icmpx admin-prohibited
 *     chain input  hook input, policy drop
 *       iif lo accept
 *       ct state established,related accept
 *       icmpv6 type 135-136 accept
 *       meta l4proto tcp th dport @published accept   (only with them)
 *
 * One element per (block, protocol, port range): "10.0.0.0/8 . tcp .
 * 443-443"; a block allowed without ports is "block . 0-255 . 0-65535".
 * The sets carry the timeout flag so that the DNS filter (issue 5) can add
 * "address . proto . ports" elements with a TTL while the cage runs, through
 * a netfilter socket opened inside the cage's network namespace.
 *
 * The gateway is excluded from the allow sets: pasta maps it to the host's
 * loopback, so a CIDR the user allows (even 0.0.0.0/0) must never open
 * every port of the host's loopback; only the host_ports rules reach it.
 * (A block that contains the host's own addresses does reach services the
 * host binds to all interfaces: allow such blocks knowingly.)
 *
 * The two refusing rules log each packet they refuse to NFLOG group
 * LTD_NFLOG_GROUP first: the launcher reads them (netfilter/nflog.h) for
 * the exit summary and the audit log.  The input chain's drops are not
 * logged: they are packets that others send, not the cage's refusals.
 *
 * The input chain admits only what answers the cage's own traffic: pasta
 * forwards into the cage any datagram sent to a host port the cage sent
 * from, and without it such a first packet would make the cage's replies
 * "established".
 */
#ifndef LTD_NET_RULESET_H
#define LTD_NET_RULESET_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "policy/cidr.h"

#define LTD_NFT_TABLE	   "ltd"
#define LTD_NFT_CHAIN	   "output"
#define LTD_NFT_CHAIN_IN   "input"
#define LTD_NFT_SET4	   "allow4"
#define LTD_NFT_SET6	   "allow6"
#define LTD_NFT_HOST_PORTS "host_ports"
#define LTD_NFT_PUBLISHED  "published"

/* What the firewall admits.  The runtime fills it from the policy. */
struct ltd_nft_spec {
	const struct ltd_net_dest *dests; /* --allow-cidr, and the resolver */
	size_t n_dests;
	struct in_addr gw4; /* pasta's gateway: the host, at host_ports */
	struct in6_addr gw6;
	const uint16_t *host_ports; /* TCP, on the gateway addresses */
	size_t n_host_ports;
	/* The cage's TCP ports pasta forwards in through its tap (--publish
	 * beyond loopback; from the host's loopback they come over lo). */
	const uint16_t *published;
	size_t n_published;
	bool no_log; /* refusals not logged to NFLOG (a kernel without it) */
};

/* What one message of the batch creates, to name it in an error. */
struct ltd_nft_obj {
	uint32_t seq;
	char what[112];
};

/* The serialized batch, between NFNL_MSG_BATCH_BEGIN and _END. */
struct ltd_nft_batch {
	char *buf;
	size_t len;
	struct ltd_nft_obj *objs; /* every message that asks for an ack */
	size_t n_objs;
	uint32_t seq_begin; /* seq of BATCH_BEGIN; BATCH_END is the last */
	uint32_t seq_end;
};

/* Build the batch for @spec into @b (ltd_nft_batch_free()). */
int ltd_nft_build(const struct ltd_nft_spec *spec, struct ltd_nft_batch *b,
		  struct ltd_err *err);

void ltd_nft_batch_free(struct ltd_nft_batch *b);

/* The object that the message with @seq creates, or NULL. */
const struct ltd_nft_obj *ltd_nft_batch_obj(const struct ltd_nft_batch *b,
					    uint32_t seq);

/*
 * An address the DNS filter learned for an allowed name: TCP and UDP to
 * each of @ports, for @timeout_s seconds.
 */
struct ltd_nft_learned {
	int family; /* AF_INET or AF_INET6 */
	unsigned char addr[16];
	const uint16_t *ports;
	size_t n_ports;
	uint32_t timeout_s;
};

/*
 * A batch adding @l's elements (one point "addr . proto . port" each, with
 * its timeout) to allow4/allow6.  An element already there gets the new
 * timeout (Linux >= 6.10 updates it; older kernels keep the old one).
 * Points that one of @dests (the static --allow-cidr elements) covers are
 * left out: the kernel refuses a point inside an interval.  @n_added (may
 * be NULL) is the number of elements in the batch; with none, the batch
 * is empty (len 0) and need not be sent.
 */
int ltd_nft_build_learned(const struct ltd_nft_learned *l, size_t n,
			  const struct ltd_net_dest *dests, size_t n_dests,
			  struct ltd_nft_batch *b, size_t *n_added,
			  struct ltd_err *err);

/*
 * Parse the serialized batch back with libnftnl and print every object as
 * nftnl_*_snprintf() does (rules as `nft --debug=netlink` shows them).
 * For golden tests: it checks the bytes that will be sent, not our structs.
 */
int ltd_nft_batch_print(const struct ltd_nft_batch *b, FILE *out,
			struct ltd_err *err);

#endif
