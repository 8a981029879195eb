// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The egress firewall batch (layout and reasons in ruleset.h).  The
 * expressions are the ones `nft --debug=netlink` shows for the same rules
 * written in nft's language, so the golden file can be checked against nft.
 */
#include "netfilter/builder.h"

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

static int add_table(struct builder *bl, struct ltd_err *err)
{
	_cleanup_table_ struct nftnl_table *t = nftnl_table_alloc();
	struct nlmsghdr *nlh;

	if (!t)
		return ltd_nftb_oom(err);
	nftnl_table_set_str(t, NFTNL_TABLE_NAME, LTD_NFT_TABLE);
	nftnl_table_set_u32(t, NFTNL_TABLE_FAMILY, NFPROTO_INET);
	/* EXCL: the namespace is new; a table already there is a bug. */
	nlh = ltd_nftb_msg_begin(bl, NFT_MSG_NEWTABLE,
				 NLM_F_CREATE | NLM_F_EXCL);
	if (!nlh)
		return ltd_nftb_oom(err);
	nftnl_table_nlmsg_build_payload(nlh, t);
	return ltd_nftb_msg_end(bl, nlh, err, "table inet %s", LTD_NFT_TABLE);
}

static int add_chain(struct builder *bl, const char *name, uint32_t hook,
		     struct ltd_err *err)
{
	_cleanup_chain_ struct nftnl_chain *c = nftnl_chain_alloc();
	struct nlmsghdr *nlh;

	if (!c)
		return ltd_nftb_oom(err);
	nftnl_chain_set_str(c, NFTNL_CHAIN_TABLE, LTD_NFT_TABLE);
	nftnl_chain_set_str(c, NFTNL_CHAIN_NAME, name);
	nftnl_chain_set_u32(c, NFTNL_CHAIN_FAMILY, NFPROTO_INET);
	nftnl_chain_set_str(c, NFTNL_CHAIN_TYPE, "filter");
	nftnl_chain_set_u32(c, NFTNL_CHAIN_HOOKNUM, hook);
	nftnl_chain_set_s32(c, NFTNL_CHAIN_PRIO, 0);
	nftnl_chain_set_u32(c, NFTNL_CHAIN_POLICY, NF_DROP);
	nlh = ltd_nftb_msg_begin(bl, NFT_MSG_NEWCHAIN, NLM_F_CREATE);
	if (!nlh)
		return ltd_nftb_oom(err);
	nftnl_chain_nlmsg_build_payload(nlh, c);
	return ltd_nftb_msg_end(bl, nlh, err, "chain %s (policy drop)", name);
}

/* addr . inet_proto . inet_service, ranges in every field, timeouts. */
static int add_allow_set(struct builder *bl, bool v6, struct ltd_err *err)
{
	const char *name = v6 ? LTD_NFT_SET6 : LTD_NFT_SET4;
	_cleanup_set_ struct nftnl_set *s =
		ltd_nftb_set_new(name, v6 ? SET6_ID : SET4_ID);
	uint8_t fields[3] = {v6 ? 16 : 4, 1, 2};
	uint32_t type = v6 ? TYPE_IP6ADDR : TYPE_IPADDR;
	struct nlmsghdr *nlh;

	if (!s)
		return ltd_nftb_oom(err);
	type = (type << TYPE_BITS | TYPE_INET_PROTO) << TYPE_BITS |
	       TYPE_INET_SERVICE;
	nftnl_set_set_u32(s, NFTNL_SET_FLAGS,
			  NFT_SET_INTERVAL | NFT_SET_TIMEOUT | NFT_SET_CONCAT);
	nftnl_set_set_u32(s, NFTNL_SET_KEY_TYPE, type);
	/* Each field takes a whole 32-bit register. */
	nftnl_set_set_u32(s, NFTNL_SET_KEY_LEN, v6 ? 24 : 12);
	nftnl_set_set_data(s, NFTNL_SET_DESC_CONCAT, fields, sizeof(fields));
	nlh = ltd_nftb_msg_begin(bl, NFT_MSG_NEWSET, NLM_F_CREATE);
	if (!nlh)
		return ltd_nftb_oom(err);
	nftnl_set_nlmsg_build_payload(nlh, s);
	return ltd_nftb_msg_end(bl, nlh, err, "set %s", name);
}

/* A constant set of TCP ports: @name holds @ports. */
static int add_port_set(struct builder *bl, const char *name, uint32_t id,
			const uint16_t *ports, size_t n, const char *what,
			struct ltd_err *err)
{
	_cleanup_set_ struct nftnl_set *s = ltd_nftb_set_new(name, id);
	struct nlmsghdr *nlh;
	int ret;

	if (!s)
		return ltd_nftb_oom(err);
	nftnl_set_set_u32(s, NFTNL_SET_FLAGS, NFT_SET_CONSTANT);
	nftnl_set_set_u32(s, NFTNL_SET_KEY_TYPE, TYPE_INET_SERVICE);
	nftnl_set_set_u32(s, NFTNL_SET_KEY_LEN, 2);
	nlh = ltd_nftb_msg_begin(bl, NFT_MSG_NEWSET, NLM_F_CREATE);
	if (!nlh)
		return ltd_nftb_oom(err);
	nftnl_set_nlmsg_build_payload(nlh, s);
	ret = ltd_nftb_msg_end(bl, nlh, err, "set %s", name);
	if (ret < 0)
		return ret;

	for (size_t i = 0; i < n; i++) {
		struct nftnl_set_elem *e = nftnl_set_elem_alloc();
		uint16_t port = htons(ports[i]);

		if (!e)
			return ltd_nftb_oom(err);
		nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, &port, sizeof(port));
		nftnl_set_elem_add(s, e);
	}
	nlh = ltd_nftb_msg_begin(bl, NFT_MSG_NEWSETELEM, NLM_F_CREATE);
	if (!nlh)
		return ltd_nftb_oom(err);
	nftnl_set_elems_nlmsg_build_payload(nlh, s);
	return ltd_nftb_msg_end(bl, nlh, err, "set %s: %s", name, what);
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

/* meta l4proto tcp th dport @published accept: a connection pasta
 * forwards in through its tap (--publish on another address than the
 * host's loopback; from the loopback it comes spliced, over lo). */
static void rule_published(struct rb *rb, const struct ltd_nft_spec *sp,
			   bool v6)
{
	rb_meta(rb, NFT_META_L4PROTO, NFT_REG_1);
	rb_cmp8(rb, NFT_CMP_EQ, IPPROTO_TCP);
	rb_payload(rb, NFT_PAYLOAD_TRANSPORT_HEADER, 2, 2, NFT_REG_1);
	rb_lookup(rb, NFT_REG_1, LTD_NFT_PUBLISHED, PUBLISHED_ID);
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
		return ltd_nftb_oom(err);
	nftnl_rule_set_str(r, NFTNL_RULE_TABLE, LTD_NFT_TABLE);
	nftnl_rule_set_str(r, NFTNL_RULE_CHAIN, chain);
	nftnl_rule_set_u32(r, NFTNL_RULE_FAMILY, NFPROTO_INET);
	fill(&rb, bl->spec, v6);
	if (rb.oom)
		return ltd_nftb_oom(err);
	nlh = ltd_nftb_msg_begin(bl, NFT_MSG_NEWRULE,
				 NLM_F_CREATE | NLM_F_APPEND);
	if (!nlh)
		return ltd_nftb_oom(err);
	nftnl_rule_nlmsg_build_payload(nlh, r);
	return ltd_nftb_msg_end(bl, nlh, err, "rule %zu (%s)", bl->b->n_objs,
				what);
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
 * Nothing comes in that the cage did not start, but connections to its
 * published ports: pasta forwards to the cage
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
	if (!ret && bl->spec->n_published)
		ret = add_rule(bl, in, "published ports", rule_published, false,
			       err);
	return ret;
}

static int add_rules(struct builder *bl, struct ltd_err *err)
{
	int ret = add_output_rules(bl, err);

	return ret ? ret : add_input_rules(bl, err);
}

int ltd_nft_build(const struct ltd_nft_spec *spec, struct ltd_nft_batch *b,
		  struct ltd_err *err)
{
	struct builder bl = {.b = b, .spec = spec};
	int ret;

	memset(b, 0, sizeof(*b));
	ret = ltd_nftb_edge(&bl, true, err);
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
		ret = add_port_set(&bl, LTD_NFT_HOST_PORTS, HOST_PORTS_ID,
				   spec->host_ports, spec->n_host_ports,
				   "the allowed host ports", err);
	if (!ret && spec->n_published)
		ret = add_port_set(&bl, LTD_NFT_PUBLISHED, PUBLISHED_ID,
				   spec->published, spec->n_published,
				   "the cage's published ports", err);
	if (!ret)
		ret = ltd_nftb_add_elems(&bl, err);
	if (!ret)
		ret = add_rules(&bl, err);
	if (!ret)
		ret = ltd_nftb_edge(&bl, false, err);
	if (ret < 0)
		ltd_nft_batch_free(b);
	return ret;
}
