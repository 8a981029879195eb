/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal to netfilter/: the batch being built, message by message, each
 * remembered with what it creates (so that an error the kernel acks can be
 * named).  ruleset.c builds the firewall's table, chains, sets and rules;
 * elements.c the sets' elements, at start and as DNS answers open them.
 */
#ifndef LTD_NETFILTER_BUILDER_H
#define LTD_NETFILTER_BUILDER_H

#include <stdbool.h>
#include <stdint.h>

#include <libnftnl/chain.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <libnftnl/table.h>
#include <linux/netlink.h>

#include "netfilter/ruleset.h"

/* nft's type ids, for the set key types (nft's datatype.h). */
#define TYPE_IPADDR	  7
#define TYPE_IP6ADDR	  8
#define TYPE_INET_PROTO	  12
#define TYPE_INET_SERVICE 13
#define TYPE_BITS	  6 /* a concatenation packs ids 6 bits apart */

/* The loopback device is ifindex 1 in every network namespace. */
#define LOOPBACK_IFINDEX 1

/* Room for one message; elements are sent one destination per message. */
#define MSG_ROOM 16384

enum { SET4_ID = 1, SET6_ID, HOST_PORTS_ID, PUBLISHED_ID };

static inline void nft_table_freep(struct nftnl_table **p)
{
	if (*p)
		nftnl_table_free(*p);
}

static inline void nft_chain_freep(struct nftnl_chain **p)
{
	if (*p)
		nftnl_chain_free(*p);
}

static inline void nft_set_freep(struct nftnl_set **p)
{
	if (*p)
		nftnl_set_free(*p);
}

static inline void nft_rule_freep(struct nftnl_rule **p)
{
	if (*p)
		nftnl_rule_free(*p);
}

#define _cleanup_table_ __attribute__((cleanup(nft_table_freep)))
#define _cleanup_chain_ __attribute__((cleanup(nft_chain_freep)))
#define _cleanup_set_	__attribute__((cleanup(nft_set_freep)))
#define _cleanup_rule_	__attribute__((cleanup(nft_rule_freep)))

/* The batch being built. */
struct builder {
	struct ltd_nft_batch *b;
	size_t cap, objs_cap;
	size_t zeroed; /* the buffer's first @zeroed bytes are written */
	uint32_t seq;
	const struct ltd_nft_spec *spec;
};

/* "out of memory building the firewall"; -ENOMEM. */
int ltd_nftb_oom(struct ltd_err *err);
/* Room for one more message at the end of the buffer. */
bool ltd_nftb_reserve(struct builder *bl);
/* Start a message that asks for an acknowledgement. */
struct nlmsghdr *ltd_nftb_msg_begin(struct builder *bl, uint16_t type,
				    uint16_t flags);
/* Account for a finished message and remember what it creates. */
int ltd_nftb_msg_end(struct builder *bl, struct nlmsghdr *nlh,
		     struct ltd_err *err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The batch's first (@begin) or last message. */
int ltd_nftb_edge(struct builder *bl, bool begin, struct ltd_err *err);
/* A set of our table, by name and batch id. */
struct nftnl_set *ltd_nftb_set_new(const char *name, uint32_t id);
/* The allow sets' elements from the spec's static destinations. */
int ltd_nftb_add_elems(struct builder *bl, struct ltd_err *err);

#endif
