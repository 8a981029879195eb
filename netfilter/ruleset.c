// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The egress firewall batch (layout and reasons in ruleset.h).  The
 * expressions are the ones `nft --debug=netlink` shows for the same rules
 * written in nft's language, so the golden file can be checked against nft.
 */
#include "netfilter/ruleset.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_conntrack_common.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <libmnl/libmnl.h>
#include <libnftnl/chain.h>
#include <libnftnl/expr.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <libnftnl/table.h>

#include "common/cleanup.h"
#include "netfilter/nflog.h"

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

enum { SET4_ID = 1, SET6_ID, HOST_PORTS_ID };

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
	uint32_t seq;
	const struct ltd_nft_spec *spec;
};

static int oom(struct ltd_err *err)
{
	return ltd_err_set(err, ENOMEM,
			   "out of memory building the "
			   "firewall");
}

/* Make room for one more message at the end of the buffer. */
static bool reserve(struct builder *bl)
{
	struct ltd_nft_batch *b = bl->b;

	if (b->len + MSG_ROOM > bl->cap) {
		size_t cap = bl->cap ? bl->cap * 2 : 4 * MSG_ROOM;
		char *p = realloc(b->buf, cap);

		if (!p)
			return false;
		/* Unused attribute padding must not leak heap bytes. */
		memset(p + bl->cap, 0, cap - bl->cap);
		b->buf = p;
		bl->cap = cap;
	}
	return true;
}

/* Start a message that asks for an acknowledgement. */
static struct nlmsghdr *msg_begin(struct builder *bl, uint16_t type,
				  uint16_t flags)
{
	if (!reserve(bl))
		return NULL;
	return nftnl_nlmsg_build_hdr(bl->b->buf + bl->b->len, type,
				     NFPROTO_INET, flags | NLM_F_ACK,
				     ++bl->seq);
}

/* Account for a finished message and remember what it creates. */
static int msg_end(struct builder *bl, struct nlmsghdr *nlh,
		   struct ltd_err *err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int msg_end(struct builder *bl, struct nlmsghdr *nlh,
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
			return oom(err);
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

static int add_table(struct builder *bl, struct ltd_err *err)
{
	_cleanup_table_ struct nftnl_table *t = nftnl_table_alloc();
	struct nlmsghdr *nlh;

	if (!t)
		return oom(err);
	nftnl_table_set_str(t, NFTNL_TABLE_NAME, LTD_NFT_TABLE);
	nftnl_table_set_u32(t, NFTNL_TABLE_FAMILY, NFPROTO_INET);
	/* EXCL: the namespace is new; a table already there is a bug. */
	nlh = msg_begin(bl, NFT_MSG_NEWTABLE, NLM_F_CREATE | NLM_F_EXCL);
	if (!nlh)
		return oom(err);
	nftnl_table_nlmsg_build_payload(nlh, t);
	return msg_end(bl, nlh, err, "table inet %s", LTD_NFT_TABLE);
}

static int add_chain(struct builder *bl, const char *name, uint32_t hook,
		     struct ltd_err *err)
{
	_cleanup_chain_ struct nftnl_chain *c = nftnl_chain_alloc();
	struct nlmsghdr *nlh;

	if (!c)
		return oom(err);
	nftnl_chain_set_str(c, NFTNL_CHAIN_TABLE, LTD_NFT_TABLE);
	nftnl_chain_set_str(c, NFTNL_CHAIN_NAME, name);
	nftnl_chain_set_u32(c, NFTNL_CHAIN_FAMILY, NFPROTO_INET);
	nftnl_chain_set_str(c, NFTNL_CHAIN_TYPE, "filter");
	nftnl_chain_set_u32(c, NFTNL_CHAIN_HOOKNUM, hook);
	nftnl_chain_set_s32(c, NFTNL_CHAIN_PRIO, 0);
	nftnl_chain_set_u32(c, NFTNL_CHAIN_POLICY, NF_DROP);
	nlh = msg_begin(bl, NFT_MSG_NEWCHAIN, NLM_F_CREATE);
	if (!nlh)
		return oom(err);
	nftnl_chain_nlmsg_build_payload(nlh, c);
	return msg_end(bl, nlh, err, "chain %s (policy drop)", name);
}

static struct nftnl_set *set_new(const char *name, uint32_t id)
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

/* addr . inet_proto . inet_service, ranges in every field, timeouts. */
static int add_allow_set(struct builder *bl, bool v6, struct ltd_err *err)
{
	const char *name = v6 ? LTD_NFT_SET6 : LTD_NFT_SET4;
	_cleanup_set_ struct nftnl_set *s =
		set_new(name, v6 ? SET6_ID : SET4_ID);
	uint8_t fields[3] = {v6 ? 16 : 4, 1, 2};
	uint32_t type = v6 ? TYPE_IP6ADDR : TYPE_IPADDR;
	struct nlmsghdr *nlh;

	if (!s)
		return oom(err);
	type = (type << TYPE_BITS | TYPE_INET_PROTO) << TYPE_BITS |
	       TYPE_INET_SERVICE;
	nftnl_set_set_u32(s, NFTNL_SET_FLAGS,
			  NFT_SET_INTERVAL | NFT_SET_TIMEOUT | NFT_SET_CONCAT);
	nftnl_set_set_u32(s, NFTNL_SET_KEY_TYPE, type);
	/* Each field takes a whole 32-bit register. */
	nftnl_set_set_u32(s, NFTNL_SET_KEY_LEN, v6 ? 24 : 12);
	nftnl_set_set_data(s, NFTNL_SET_DESC_CONCAT, fields, sizeof(fields));
	nlh = msg_begin(bl, NFT_MSG_NEWSET, NLM_F_CREATE);
	if (!nlh)
		return oom(err);
	nftnl_set_nlmsg_build_payload(nlh, s);
	return msg_end(bl, nlh, err, "set %s", name);
}

static int add_host_ports_set(struct builder *bl, struct ltd_err *err)
{
	_cleanup_set_ struct nftnl_set *s =
		set_new(LTD_NFT_HOST_PORTS, HOST_PORTS_ID);
	const struct ltd_nft_spec *sp = bl->spec;
	struct nlmsghdr *nlh;
	int ret;

	if (!s)
		return oom(err);
	nftnl_set_set_u32(s, NFTNL_SET_FLAGS, NFT_SET_CONSTANT);
	nftnl_set_set_u32(s, NFTNL_SET_KEY_TYPE, TYPE_INET_SERVICE);
	nftnl_set_set_u32(s, NFTNL_SET_KEY_LEN, 2);
	nlh = msg_begin(bl, NFT_MSG_NEWSET, NLM_F_CREATE);
	if (!nlh)
		return oom(err);
	nftnl_set_nlmsg_build_payload(nlh, s);
	ret = msg_end(bl, nlh, err, "set %s", LTD_NFT_HOST_PORTS);
	if (ret < 0)
		return ret;

	for (size_t i = 0; i < sp->n_host_ports; i++) {
		struct nftnl_set_elem *e = nftnl_set_elem_alloc();
		uint16_t port = htons(sp->host_ports[i]);

		if (!e)
			return oom(err);
		nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, &port, sizeof(port));
		nftnl_set_elem_add(s, e);
	}
	nlh = msg_begin(bl, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	if (!nlh)
		return oom(err);
	nftnl_set_elems_nlmsg_build_payload(nlh, s);
	return msg_end(bl, nlh, err, "set %s: the allowed host ports",
		       LTD_NFT_HOST_PORTS);
}

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
			ltd_net_dest_format(el[i].d, a, sizeof(a));
			ltd_net_dest_format(el[j].d, b, sizeof(b));
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
		return oom(err);
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
	_cleanup_set_ struct nftnl_set *s =
		set_new(name, d->family == AF_INET6 ? SET6_ID : SET4_ID);
	struct nlmsghdr *nlh;
	char text[96];
	size_t count = 0;

	if (!s)
		return oom(err);
	for (size_t i = 0; i < n; i++) {
		struct nftnl_set_elem *e;

		if (el[i].d != d || el[i].dropped)
			continue;
		e = nftnl_set_elem_alloc();
		if (!e)
			return oom(err);
		nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, el[i].start,
				   (uint32_t)key_len(d->family));
		nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY_END, el[i].end,
				   (uint32_t)key_len(d->family));
		nftnl_set_elem_add(s, e);
		count++;
	}
	if (count == 0)
		return 0;
	nlh = msg_begin(bl, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	if (!nlh)
		return oom(err);
	nftnl_set_elems_nlmsg_build_payload(nlh, s);
	ltd_net_dest_format(d, text, sizeof(text));
	return msg_end(bl, nlh, err, "set %s: elements for %s", name, text);
}

static int add_elems(struct builder *bl, struct ltd_err *err)
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

/* ---- rules --------------------------------------------------------- */

/* A rule under construction; an allocation failure sticks in @oom. */
struct rb {
	struct nftnl_rule *r;
	bool oom;
};

static struct nftnl_expr *rb_expr(struct rb *rb, const char *name)
{
	struct nftnl_expr *e = nftnl_expr_alloc(name);

	if (!e)
		rb->oom = true;
	else
		nftnl_rule_add_expr(rb->r, e);
	return e;
}

static void rb_meta(struct rb *rb, uint32_t key, uint32_t dreg)
{
	struct nftnl_expr *e = rb_expr(rb, "meta");

	if (e) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_META_KEY, key);
		nftnl_expr_set_u32(e, NFTNL_EXPR_META_DREG, dreg);
	}
}

static void rb_cmp(struct rb *rb, uint32_t sreg, uint32_t op, const void *data,
		   uint32_t len)
{
	struct nftnl_expr *e = rb_expr(rb, "cmp");

	if (e) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_CMP_SREG, sreg);
		nftnl_expr_set_u32(e, NFTNL_EXPR_CMP_OP, op);
		nftnl_expr_set(e, NFTNL_EXPR_CMP_DATA, data, len);
	}
}

static void rb_cmp8(struct rb *rb, uint32_t op, uint8_t v)
{
	rb_cmp(rb, NFT_REG_1, op, &v, sizeof(v));
}

static void rb_payload(struct rb *rb, uint32_t base, uint32_t off, uint32_t len,
		       uint32_t dreg)
{
	struct nftnl_expr *e = rb_expr(rb, "payload");

	if (e) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_BASE, base);
		nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_OFFSET, off);
		nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_LEN, len);
		nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_DREG, dreg);
	}
}

static void rb_lookup(struct rb *rb, uint32_t sreg, const char *set,
		      uint32_t id)
{
	struct nftnl_expr *e = rb_expr(rb, "lookup");

	if (e) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_SREG, sreg);
		nftnl_expr_set_str(e, NFTNL_EXPR_LOOKUP_SET, set);
		nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_SET_ID, id);
	}
}

static void rb_accept(struct rb *rb)
{
	struct nftnl_expr *e = rb_expr(rb, "immediate");

	if (e) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_DREG, NFT_REG_VERDICT);
		nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_VERDICT, NF_ACCEPT);
	}
}

/* log group LTD_NFLOG_GROUP prefix LTD_NFLOG_PREFIX: the launcher reads
 * these through the cage's NFLOG socket (netfilter/nflog.h). */
static void rb_log(struct rb *rb)
{
	struct nftnl_expr *e = rb_expr(rb, "log");

	if (e) {
		nftnl_expr_set_u16(e, NFTNL_EXPR_LOG_GROUP, LTD_NFLOG_GROUP);
		nftnl_expr_set_str(e, NFTNL_EXPR_LOG_PREFIX, LTD_NFLOG_PREFIX);
	}
}

static void rb_reject(struct rb *rb, uint32_t type, uint8_t code)
{
	struct nftnl_expr *e = rb_expr(rb, "reject");

	if (e) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_REJECT_TYPE, type);
		nftnl_expr_set_u8(e, NFTNL_EXPR_REJECT_CODE, code);
	}
}

/* meta nfproto ipv4|ipv6 */
static void rb_nfproto(struct rb *rb, bool v6)
{
	rb_meta(rb, NFT_META_NFPROTO, NFT_REG_1);
	rb_cmp8(rb, NFT_CMP_EQ, v6 ? NFPROTO_IPV6 : NFPROTO_IPV4);
}

/* ip daddr / ip6 daddr into reg 1 */
static void rb_daddr(struct rb *rb, bool v6)
{
	rb_payload(rb, NFT_PAYLOAD_NETWORK_HEADER, v6 ? 24 : 16, v6 ? 16 : 4,
		   NFT_REG_1);
}

static void rule_loopback(struct rb *rb)
{
	uint32_t lo = LOOPBACK_IFINDEX;

	rb_meta(rb, NFT_META_OIF, NFT_REG_1);
	rb_cmp(rb, NFT_REG_1, NFT_CMP_EQ, &lo, sizeof(lo));
	rb_accept(rb);
}

/* iif lo accept */
static void rule_loopback_in(struct rb *rb)
{
	uint32_t lo = LOOPBACK_IFINDEX;

	rb_meta(rb, NFT_META_IIF, NFT_REG_1);
	rb_cmp(rb, NFT_REG_1, NFT_CMP_EQ, &lo, sizeof(lo));
	rb_accept(rb);
}

static void rule_established(struct rb *rb)
{
	uint32_t mask = NF_CT_STATE_BIT(IP_CT_ESTABLISHED) |
			NF_CT_STATE_BIT(IP_CT_RELATED);
	uint32_t zero = 0;
	struct nftnl_expr *e;

	e = rb_expr(rb, "ct");
	if (e) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_CT_KEY, NFT_CT_STATE);
		nftnl_expr_set_u32(e, NFTNL_EXPR_CT_DREG, NFT_REG_1);
	}
	e = rb_expr(rb, "bitwise");
	if (e) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_SREG, NFT_REG_1);
		nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_DREG, NFT_REG_1);
		nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_LEN, sizeof(mask));
		nftnl_expr_set(e, NFTNL_EXPR_BITWISE_MASK, &mask, sizeof(mask));
		nftnl_expr_set(e, NFTNL_EXPR_BITWISE_XOR, &zero, sizeof(zero));
	}
	rb_cmp(rb, NFT_REG_1, NFT_CMP_NEQ, &zero, sizeof(zero));
	rb_accept(rb);
}

/* Neighbour solicitation and advertisement: without them IPv6 cannot
 * even resolve the gateway.  They reach pasta only, which answers them. */
static void rule_ndp(struct rb *rb)
{
	rb_nfproto(rb, true);
	rb_meta(rb, NFT_META_L4PROTO, NFT_REG_1);
	rb_cmp8(rb, NFT_CMP_EQ, IPPROTO_ICMPV6);
	rb_payload(rb, NFT_PAYLOAD_TRANSPORT_HEADER, 0, 1, NFT_REG_1);
	rb_cmp8(rb, NFT_CMP_GTE, 135); /* nd-neighbor-solicit */
	rb_cmp8(rb, NFT_CMP_LTE, 136); /* nd-neighbor-advert */
	rb_accept(rb);
}

static const void *gw_addr(const struct ltd_nft_spec *sp, bool v6)
{
	return v6 ? (const void *)&sp->gw6 : (const void *)&sp->gw4;
}

/* ip daddr GW tcp dport @host_ports accept */
static void rule_host_ports(struct rb *rb, const struct ltd_nft_spec *sp,
			    bool v6)
{
	rb_nfproto(rb, v6);
	rb_daddr(rb, v6);
	rb_cmp(rb, NFT_REG_1, NFT_CMP_EQ, gw_addr(sp, v6), v6 ? 16 : 4);
	rb_meta(rb, NFT_META_L4PROTO, NFT_REG_1);
	rb_cmp8(rb, NFT_CMP_EQ, IPPROTO_TCP);
	rb_payload(rb, NFT_PAYLOAD_TRANSPORT_HEADER, 2, 2, NFT_REG_1);
	rb_lookup(rb, NFT_REG_1, LTD_NFT_HOST_PORTS, HOST_PORTS_ID);
	rb_accept(rb);
}

/* ip daddr != GW ip daddr . meta l4proto . th dport @allowN accept */
static void rule_allow(struct rb *rb, const struct ltd_nft_spec *sp, bool v6)
{
	/* The concatenation takes consecutive 32-bit registers after the
	 * address: 4 bytes (reg 1 = reg32 00) or 16 (reg32 00-03). */
	uint32_t proto_reg = v6 ? NFT_REG32_04 : NFT_REG32_01;

	rb_nfproto(rb, v6);
	rb_daddr(rb, v6);
	rb_cmp(rb, NFT_REG_1, NFT_CMP_NEQ, gw_addr(sp, v6), v6 ? 16 : 4);
	rb_meta(rb, NFT_META_L4PROTO, proto_reg);
	/* th dport: for a protocol without ports this reads two bytes that
	 * only an any-port element (0-65535) matches, never a port list. */
	rb_payload(rb, NFT_PAYLOAD_TRANSPORT_HEADER, 2, 2, proto_reg + 1);
	rb_lookup(rb, NFT_REG_1, v6 ? LTD_NFT_SET6 : LTD_NFT_SET4,
		  v6 ? SET6_ID : SET4_ID);
	rb_accept(rb);
}

/* Refuse at once: a reset for TCP, admin-prohibited for the rest; each
 * refusal is logged to the launcher first (the exit summary). */
static void rule_reset_tcp(struct rb *rb, const struct ltd_nft_spec *sp,
			   bool v6)
{
	rb_meta(rb, NFT_META_L4PROTO, NFT_REG_1);
	rb_cmp8(rb, NFT_CMP_EQ, IPPROTO_TCP);
	if (!sp->no_log)
		rb_log(rb);
	rb_reject(rb, NFT_REJECT_TCP_RST, 0);
}

static void rule_reject_rest(struct rb *rb, const struct ltd_nft_spec *sp,
			     bool v6)
{
	if (!sp->no_log)
		rb_log(rb);
	rb_reject(rb, NFT_REJECT_ICMPX_UNREACH,
		  NFT_REJECT_ICMPX_ADMIN_PROHIBITED);
}

static int add_rule(struct builder *bl, const char *chain, const char *what,
		    void (*fill)(struct rb *rb, const struct ltd_nft_spec *sp,
				 bool v6),
		    bool v6, struct ltd_err *err)
{
	_cleanup_rule_ struct nftnl_rule *r = nftnl_rule_alloc();
	struct rb rb = {.r = r};
	struct nlmsghdr *nlh;

	if (!r)
		return oom(err);
	nftnl_rule_set_str(r, NFTNL_RULE_TABLE, LTD_NFT_TABLE);
	nftnl_rule_set_str(r, NFTNL_RULE_CHAIN, chain);
	nftnl_rule_set_u32(r, NFTNL_RULE_FAMILY, NFPROTO_INET);
	fill(&rb, bl->spec, v6);
	if (rb.oom)
		return oom(err);
	nlh = msg_begin(bl, NFT_MSG_NEWRULE, NLM_F_CREATE | NLM_F_APPEND);
	if (!nlh)
		return oom(err);
	nftnl_rule_nlmsg_build_payload(nlh, r);
	return msg_end(bl, nlh, err, "rule %zu (%s)", bl->b->n_objs, what);
}

/* Adapters: most rules need neither the spec nor the family. */
#define RULE0(fn)                                                              \
	static void fn##_r(struct rb *rb, const struct ltd_nft_spec *sp,       \
			   bool v6)                                            \
	{                                                                      \
		fn(rb);                                                        \
	}
RULE0(rule_loopback)
RULE0(rule_loopback_in)
RULE0(rule_established)
RULE0(rule_ndp)

static int add_output_rules(struct builder *bl, struct ltd_err *err)
{
	const char *out = LTD_NFT_CHAIN;
	bool hp = bl->spec->n_host_ports > 0;
	int ret;

	ret = add_rule(bl, out, "oif lo accept", rule_loopback_r, false, err);
	if (!ret)
		ret = add_rule(bl, out, "ct state established,related accept",
			       rule_established_r, false, err);
	if (!ret)
		ret = add_rule(bl, out, "icmpv6 neighbour discovery",
			       rule_ndp_r, false, err);
	if (!ret && hp)
		ret = add_rule(bl, out, "host ports, IPv4", rule_host_ports,
			       false, err);
	if (!ret && hp)
		ret = add_rule(bl, out, "host ports, IPv6", rule_host_ports,
			       true, err);
	if (!ret)
		ret = add_rule(bl, out, "allowed destinations, IPv4",
			       rule_allow, false, err);
	if (!ret)
		ret = add_rule(bl, out, "allowed destinations, IPv6",
			       rule_allow, true, err);
	if (!ret)
		ret = add_rule(bl, out, "tcp reset", rule_reset_tcp, false,
			       err);
	if (!ret)
		ret = add_rule(bl, out, "reject admin-prohibited",
			       rule_reject_rest, false, err);
	return ret;
}

/*
 * Nothing comes in that the cage did not start: pasta forwards to the cage
 * any datagram sent to a host port the cage once sent from, and a first
 * packet accepted here would make the cage's replies "established" (the
 * output chain's second rule) — a conversation with a host never allowed.
 */
static int add_input_rules(struct builder *bl, struct ltd_err *err)
{
	const char *in = LTD_NFT_CHAIN_IN;
	int ret;

	ret = add_rule(bl, in, "iif lo accept", rule_loopback_in_r, false, err);
	if (!ret)
		ret = add_rule(bl, in, "ct state established,related accept",
			       rule_established_r, false, err);
	if (!ret)
		ret = add_rule(bl, in, "icmpv6 neighbour discovery", rule_ndp_r,
			       false, err);
	return ret;
}

static int add_rules(struct builder *bl, struct ltd_err *err)
{
	int ret = add_output_rules(bl, err);

	return ret ? ret : add_input_rules(bl, err);
}

static int add_batch_edge(struct builder *bl, bool begin, struct ltd_err *err)
{
	struct ltd_nft_batch *b = bl->b;
	struct nlmsghdr *nlh;

	if (!reserve(bl))
		return oom(err);
	nlh = begin ? nftnl_batch_begin(b->buf + b->len, ++bl->seq)
		    : nftnl_batch_end(b->buf + b->len, ++bl->seq);
	if (begin)
		b->seq_begin = nlh->nlmsg_seq;
	else
		b->seq_end = nlh->nlmsg_seq;
	b->len += NLMSG_ALIGN(nlh->nlmsg_len);
	return 0;
}

int ltd_nft_build(const struct ltd_nft_spec *spec, struct ltd_nft_batch *b,
		  struct ltd_err *err)
{
	struct builder bl = {.b = b, .spec = spec};
	int ret;

	memset(b, 0, sizeof(*b));
	ret = add_batch_edge(&bl, true, err);
	if (!ret)
		ret = add_table(&bl, err);
	if (!ret)
		ret = add_chain(&bl, LTD_NFT_CHAIN, NF_INET_LOCAL_OUT, err);
	if (!ret)
		ret = add_chain(&bl, LTD_NFT_CHAIN_IN, NF_INET_LOCAL_IN, err);
	if (!ret)
		ret = add_allow_set(&bl, false, err);
	if (!ret)
		ret = add_allow_set(&bl, true, err);
	if (!ret && spec->n_host_ports)
		ret = add_host_ports_set(&bl, err);
	if (!ret)
		ret = add_elems(&bl, err);
	if (!ret)
		ret = add_rules(&bl, err);
	if (!ret)
		ret = add_batch_edge(&bl, false, err);
	if (ret < 0)
		ltd_nft_batch_free(b);
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
	nlh = msg_begin(bl, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	if (!nlh)
		return oom(err);
	nftnl_set_elems_nlmsg_build_payload(nlh, *s);
	ret = msg_end(bl, nlh, err, "set %s: addresses learned from DNS",
		      v6 ? LTD_NFT_SET6 : LTD_NFT_SET4);
	nftnl_set_free(*s);
	*s = learned_set(v6);
	*in_msg = 0;
	if (!ret && !*s)
		ret = oom(err);
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
		return oom(err);
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
				return oom(err);
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
	ret = add_batch_edge(&bl, true, err);
	if (!ret)
		ret = learned_elems(&bl, l, n, dests, n_dests, false, &count,
				    err);
	if (!ret)
		ret = learned_elems(&bl, l, n, dests, n_dests, true, &count,
				    err);
	if (!ret)
		ret = add_batch_edge(&bl, false, err);
	if (ret < 0 || count == 0)
		ltd_nft_batch_free(b);
	if (n_added)
		*n_added = ret < 0 ? 0 : count;
	return ret;
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
