// SPDX-License-Identifier: GPL-2.0-or-later
/* The batch being built: messages, their objects, the batch's edges. */
#include "netfilter/builder.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <libmnl/libmnl.h>
#include <libnftnl/set.h>

int ltd_nftb_oom(struct ltd_err *err)
{
	return ltd_err_set(err, ENOMEM,
			   "out of memory building the "
			   "firewall");
}

/* Make room for one more message at the end of the buffer. */
bool ltd_nftb_reserve(struct builder *bl)
{
	struct ltd_nft_batch *b = bl->b;
	size_t want = b->len + MSG_ROOM;

	if (want > bl->cap) {
		size_t cap = bl->cap ? bl->cap * 2 : 4 * MSG_ROOM;
		char *p = realloc(b->buf, cap);

		if (!p)
			return false;
		b->buf = p;
		bl->cap = cap;
	}
	/* Unused attribute padding must not leak heap bytes: the room the
	 * next message may use is zeroed, once.  Only that: the pages past
	 * it are never touched (two batches of a few kB each held 64 kB
	 * resident apiece, in the launcher and in init). */
	if (bl->zeroed < want) {
		memset(b->buf + bl->zeroed, 0, want - bl->zeroed);
		bl->zeroed = want;
	}
	return true;
}

/* Start a message that asks for an acknowledgement. */
struct nlmsghdr *ltd_nftb_msg_begin(struct builder *bl, uint16_t type,
				    uint16_t flags)
{
	if (!ltd_nftb_reserve(bl))
		return NULL;
	return nftnl_nlmsg_build_hdr(bl->b->buf + bl->b->len, type,
				     NFPROTO_INET, flags | NLM_F_ACK,
				     ++bl->seq);
}

int ltd_nftb_msg_end(struct builder *bl, struct nlmsghdr *nlh,
		     struct ltd_err *err, const char *fmt, ...)
{
	struct ltd_nft_batch *b = bl->b;
	va_list ap;

	if (nlh->nlmsg_len > MSG_ROOM)
		return ltd_err_set(err, E2BIG, "firewall message too large");
	b->len += NLMSG_ALIGN(nlh->nlmsg_len);
	if (b->n_objs == bl->objs_cap) {
		size_t cap = bl->objs_cap ? bl->objs_cap * 2 : 16;
		struct ltd_nft_obj *o = realloc(b->objs, cap * sizeof(*o));

		if (!o)
			return ltd_nftb_oom(err);
		b->objs = o;
		bl->objs_cap = cap;
	}
	b->objs[b->n_objs].seq = nlh->nlmsg_seq;
	va_start(ap, fmt);
	vsnprintf(b->objs[b->n_objs].what, sizeof(b->objs[0].what), fmt, ap);
	va_end(ap);
	b->n_objs++;
	return 0;
}

struct nftnl_set *ltd_nftb_set_new(const char *name, uint32_t id)
{
	struct nftnl_set *s = nftnl_set_alloc();

	if (!s)
		return NULL;
	nftnl_set_set_str(s, NFTNL_SET_TABLE, LTD_NFT_TABLE);
	nftnl_set_set_str(s, NFTNL_SET_NAME, name);
	nftnl_set_set_u32(s, NFTNL_SET_FAMILY, NFPROTO_INET);
	nftnl_set_set_u32(s, NFTNL_SET_ID, id);
	return s;
}

int ltd_nftb_edge(struct builder *bl, bool begin, struct ltd_err *err)
{
	struct ltd_nft_batch *b = bl->b;
	struct nlmsghdr *nlh;

	if (!ltd_nftb_reserve(bl))
		return ltd_nftb_oom(err);
	nlh = begin ? nftnl_batch_begin(b->buf + b->len, ++bl->seq)
		    : nftnl_batch_end(b->buf + b->len, ++bl->seq);
	if (begin)
		b->seq_begin = nlh->nlmsg_seq;
	else
		b->seq_end = nlh->nlmsg_seq;
	b->len += NLMSG_ALIGN(nlh->nlmsg_len);
	return 0;
}

void ltd_nft_batch_free(struct ltd_nft_batch *b)
{
	free(b->buf);
	free(b->objs);
	memset(b, 0, sizeof(*b));
}

const struct ltd_nft_obj *ltd_nft_batch_obj(const struct ltd_nft_batch *b,
					    uint32_t seq)
{
	for (size_t i = 0; i < b->n_objs; i++)
		if (b->objs[i].seq == seq)
			return &b->objs[i];
	return NULL;
}
