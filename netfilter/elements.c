// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The allow sets' elements: the static destinations (--allow-cidr) when
 * the firewall is built, and the addresses a DNS answer opens, later, in
 * batches of their own.
 */
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

#include "common/cleanup.h"

/* ---- set elements ------------------------------------------------- */

/* One element of an allow set: [start, end] in every field. */
struct elem {
	const struct ltd_net_dest *d;
	unsigned char start[24], end[24];
	bool dropped; /* covered by another element */
};

/* Field offsets and lengths in a key: address, protocol, port. */
static void key_fields(int family, size_t off[3], size_t len[3])
{
	size_t alen = family == AF_INET6 ? 16 : 4;

	off[0] = 0, len[0] = alen;
	off[1] = alen, len[1] = 1;
	off[2] = alen + 4, len[2] = 2;
}

static size_t key_len(int family)
{
	return family == AF_INET6 ? 24 : 12;
}

static void elem_fill(struct elem *e, const struct ltd_net_dest *d,
		      uint8_t proto_lo, uint8_t proto_hi, uint16_t port_lo,
		      uint16_t port_hi)
{
	size_t alen = d->family == AF_INET6 ? 16 : 4;
	uint16_t lo = htons(port_lo), hi = htons(port_hi);

	memset(e, 0, sizeof(*e));
	e->d = d;
	memcpy(e->start, d->addr, alen);
	memcpy(e->end, d->addr, alen);
	for (size_t i = 0; i < alen; i++) {
		unsigned int bits = d->prefix > i * 8 ? d->prefix - i * 8 : 0;

		if (bits < 8)
			e->end[i] |= (unsigned char)(0xff >> bits);
	}
	e->start[alen] = proto_lo;
	e->end[alen] = proto_hi;
	memcpy(&e->start[alen + 4], &lo, 2);
	memcpy(&e->end[alen + 4], &hi, 2);
}

/* @a contains the point @k (each field in its range); keys compare as
 * big-endian bytes field by field, as the kernel's pipapo set does. */
static bool elem_has_point(const struct elem *a, const unsigned char *k)
{
	size_t off[3], len[3];

	key_fields(a->d->family, off, len);
	for (int f = 0; f < 3; f++)
		if (memcmp(k + off[f], a->start + off[f], len[f]) < 0 ||
		    memcmp(k + off[f], a->end + off[f], len[f]) > 0)
			return false;
	return true;
}

static bool elem_covers(const struct elem *a, const struct elem *b)
{
	return elem_has_point(a, b->start) && elem_has_point(a, b->end);
}

/*
 * The kernel refuses an element whose first or last point lies inside
 * another one.  Drop elements that another covers (a redundant flag is
 * harmless); refuse partial overlaps before clone, naming both flags.
 */
static int elems_dedup(struct elem *el, size_t n, struct ltd_err *err)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < n; j++) {
			char a[96], b[96];

			if (i == j || el[i].dropped || el[j].dropped ||
			    el[i].d->family != el[j].d->family)
				continue;
			if (elem_covers(&el[i], &el[j])) {
				el[j].dropped = true;
				continue;
			}
			if (!elem_has_point(&el[i], el[j].start) &&
			    !elem_has_point(&el[i], el[j].end))
				continue;
			ltd_cidr_dest_format(el[i].d, a, sizeof(a));
			ltd_cidr_dest_format(el[j].d, b, sizeof(b));
			return ltd_err_set(err, EINVAL,
					   "--allow-cidr %s and %s overlap; "
					   "allow one block that covers both "
					   "or split them",
					   a, b);
		}
	}
	return 0;
}

/* The elements of every destination, in order. */
static int elems_collect(const struct ltd_nft_spec *sp, struct elem **out,
			 size_t *n, struct ltd_err *err)
{
	static const uint8_t protos[2] = {IPPROTO_TCP, IPPROTO_UDP};
	size_t max = 0;
	struct elem *el;

	for (size_t i = 0; i < sp->n_dests; i++)
		max += sp->dests[i].n_ports ? 2 * sp->dests[i].n_ports : 1;
	el = calloc(max ? max : 1, sizeof(*el));
	if (!el)
		return ltd_nftb_oom(err);
	*n = 0;
	for (size_t i = 0; i < sp->n_dests; i++) {
		const struct ltd_net_dest *d = &sp->dests[i];

		if (d->n_ports == 0)
			elem_fill(&el[(*n)++], d, 0, 255, 0, 65535);
		for (int p = 0; p < 2; p++)
			for (size_t r = 0;
			     r < d->n_ports &&
			     (!d->only_proto || d->only_proto == protos[p]);
			     r++)
				elem_fill(&el[(*n)++], d, protos[p], protos[p],
					  d->ports[r].lo, d->ports[r].hi);
	}
	*out = el;
	return elems_dedup(el, *n, err);
}

/* One message per destination, so an error names the flag at fault. */
static int add_dest_elems(struct builder *bl, const struct elem *el, size_t n,
			  const struct ltd_net_dest *d, struct ltd_err *err)
{
	const char *name = d->family == AF_INET6 ? LTD_NFT_SET6 : LTD_NFT_SET4;
	_cleanup_set_ struct nftnl_set *s = ltd_nftb_set_new(
		name, d->family == AF_INET6 ? SET6_ID : SET4_ID);
	struct nlmsghdr *nlh;
	char text[96];
	size_t count = 0;

	if (!s)
		return ltd_nftb_oom(err);
	for (size_t i = 0; i < n; i++) {
		struct nftnl_set_elem *e;

		if (el[i].d != d || el[i].dropped)
			continue;
		e = nftnl_set_elem_alloc();
		if (!e)
			return ltd_nftb_oom(err);
		nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, el[i].start,
				   (uint32_t)key_len(d->family));
		nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY_END, el[i].end,
				   (uint32_t)key_len(d->family));
		nftnl_set_elem_add(s, e);
		count++;
	}
	if (count == 0)
		return 0;
	nlh = ltd_nftb_msg_begin(bl, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	if (!nlh)
		return ltd_nftb_oom(err);
	nftnl_set_elems_nlmsg_build_payload(nlh, s);
	ltd_cidr_dest_format(d, text, sizeof(text));
	return ltd_nftb_msg_end(bl, nlh, err, "set %s: elements for %s", name,
				text);
}

int ltd_nftb_add_elems(struct builder *bl, struct ltd_err *err)
{
	const struct ltd_nft_spec *sp = bl->spec;
	_cleanup_free_ struct elem *el = NULL;
	size_t n = 0;
	int ret;

	ret = elems_collect(sp, &el, &n, err);
	for (size_t i = 0; !ret && i < sp->n_dests; i++)
		ret = add_dest_elems(bl, el, n, &sp->dests[i], err);
	return ret;
}

/* ---- elements learned from DNS --------------------------------------- */

/* Does @d (a static destination) contain the point @key of @family? */
static bool dest_covers(const struct ltd_net_dest *d, int family,
			const unsigned char *key)
{
	static const uint8_t protos[2] = {IPPROTO_TCP, IPPROTO_UDP};
	struct elem e;

	if (d->family != family)
		return false;
	if (d->n_ports == 0) {
		elem_fill(&e, d, 0, 255, 0, 65535);
		return elem_has_point(&e, key);
	}
	for (int p = 0; p < 2; p++)
		for (size_t r = 0; r < d->n_ports; r++) {
			if (d->only_proto && d->only_proto != protos[p])
				continue;
			elem_fill(&e, d, protos[p], protos[p], d->ports[r].lo,
				  d->ports[r].hi);
			if (elem_has_point(&e, key))
				return true;
		}
	return false;
}

/* Elements per message: each is under 100 bytes, a message gets MSG_ROOM. */
#define LEARNED_PER_MSG 64

static struct nftnl_set *learned_set(bool v6)
{
	struct nftnl_set *s = nftnl_set_alloc();

	if (!s)
		return NULL;
	nftnl_set_set_str(s, NFTNL_SET_TABLE, LTD_NFT_TABLE);
	nftnl_set_set_str(s, NFTNL_SET_NAME, v6 ? LTD_NFT_SET6 : LTD_NFT_SET4);
	nftnl_set_set_u32(s, NFTNL_SET_FAMILY, NFPROTO_INET);
	return s;
}

/* Close the message of @s's elements (if any) and start a new set. */
static int learned_flush(struct builder *bl, struct nftnl_set **s, bool v6,
			 size_t *in_msg, struct ltd_err *err)
{
	struct nlmsghdr *nlh;
	int ret;

	if (*in_msg == 0)
		return 0;
	/* No EXCL: an element already there is updated, not an error. */
	nlh = ltd_nftb_msg_begin(bl, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	if (!nlh)
		return ltd_nftb_oom(err);
	nftnl_set_elems_nlmsg_build_payload(nlh, *s);
	ret = ltd_nftb_msg_end(bl, nlh, err,
			       "set %s: addresses learned from DNS",
			       v6 ? LTD_NFT_SET6 : LTD_NFT_SET4);
	nftnl_set_free(*s);
	*s = learned_set(v6);
	*in_msg = 0;
	if (!ret && !*s)
		ret = ltd_nftb_oom(err);
	return ret;
}

static bool learned_covered(const struct ltd_net_dest *dests, size_t n_dests,
			    int family, const unsigned char *key)
{
	for (size_t d = 0; d < n_dests; d++)
		if (dest_covers(&dests[d], family, key))
			return true;
	return false;
}

static int learned_elems(struct builder *bl, const struct ltd_nft_learned *l,
			 size_t n, const struct ltd_net_dest *dests,
			 size_t n_dests, bool v6, size_t *count,
			 struct ltd_err *err)
{
	static const uint8_t protos[2] = {IPPROTO_TCP, IPPROTO_UDP};
	int family = v6 ? AF_INET6 : AF_INET;
	size_t alen = v6 ? 16 : 4, klen = key_len(family), in_msg = 0;
	_cleanup_set_ struct nftnl_set *s = learned_set(v6);
	int ret = 0;

	if (!s)
		return ltd_nftb_oom(err);
	for (size_t i = 0; i < n && !ret; i++) {
		if (l[i].family != family)
			continue;
		for (size_t k = 0; k < 2 * l[i].n_ports && !ret; k++) {
			unsigned char key[24] = {0};
			uint16_t port = htons(l[i].ports[k / 2]);
			struct nftnl_set_elem *e;

			memcpy(key, l[i].addr, alen);
			key[alen] = protos[k % 2];
			memcpy(&key[alen + 4], &port, 2);
			if (learned_covered(dests, n_dests, family, key))
				continue;
			e = nftnl_set_elem_alloc();
			if (!e)
				return ltd_nftb_oom(err);
			nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, key,
					   (uint32_t)klen);
			nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY_END, key,
					   (uint32_t)klen);
			nftnl_set_elem_set_u64(e, NFTNL_SET_ELEM_TIMEOUT,
					       (uint64_t)l[i].timeout_s * 1000);
			nftnl_set_elem_add(s, e);
			(*count)++;
			if (++in_msg == LEARNED_PER_MSG)
				ret = learned_flush(bl, &s, v6, &in_msg, err);
		}
	}
	if (!ret)
		ret = learned_flush(bl, &s, v6, &in_msg, err);
	return ret;
}

int ltd_nft_build_learned(const struct ltd_nft_learned *l, size_t n,
			  const struct ltd_net_dest *dests, size_t n_dests,
			  struct ltd_nft_batch *b, size_t *n_added,
			  struct ltd_err *err)
{
	struct builder bl = {.b = b};
	size_t count = 0;
	int ret;

	memset(b, 0, sizeof(*b));
	ret = ltd_nftb_edge(&bl, true, err);
	if (!ret)
		ret = learned_elems(&bl, l, n, dests, n_dests, false, &count,
				    err);
	if (!ret)
		ret = learned_elems(&bl, l, n, dests, n_dests, true, &count,
				    err);
	if (!ret)
		ret = ltd_nftb_edge(&bl, false, err);
	if (ret < 0 || count == 0)
		ltd_nft_batch_free(b);
	if (n_added)
		*n_added = ret < 0 ? 0 : count;
	return ret;
}
