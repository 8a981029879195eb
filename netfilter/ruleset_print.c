// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Printing a batch as `nft --debug=netlink` does, by parsing its messages
 * back with libnftnl: for the golden tests and for reading a batch, not for
 * the runtime's path.  Kept apart from the builder (netfilter/ruleset.c).
 */
#include "netfilter/ruleset.h"

#include <errno.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <libnftnl/chain.h>
#include <libnftnl/expr.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <libnftnl/table.h>

#include "common/cleanup.h"

static int oom(struct ltd_err *err)
{
	return ltd_err_set(err, ENOMEM, "out of memory");
}

/*
 * libnftnl numbers the element nests it builds 1, 2, 3... (the kernel
 * ignores the type) but its parser wants NFTA_LIST_ELEM (1) in each: renumber
 * a copy so that a message with several elements parses back.
 */
static void elems_renumber(struct nlmsghdr *nlh)
{
	struct nlattr *list, *e;

	mnl_attr_for_each(list, nlh, sizeof(struct nfgenmsg))
	{
		if (mnl_attr_get_type(list) != NFTA_SET_ELEM_LIST_ELEMENTS)
			continue;
		mnl_attr_for_each_nested(e, list) e->nla_type =
			(uint16_t)((e->nla_type & ~NLA_TYPE_MASK) |
				   NFTA_LIST_ELEM);
	}
}

static int print_table(const struct nlmsghdr *nlh, char *buf, size_t size)
{
	struct nftnl_table *t = nftnl_table_alloc();
	int ret = -EINVAL;

	if (t && nftnl_table_nlmsg_parse(nlh, t) == 0) {
		nftnl_table_snprintf(buf, size, t, NFTNL_OUTPUT_DEFAULT, 0);
		ret = 0;
	}
	if (t)
		nftnl_table_free(t);
	return ret;
}

static int print_chain(const struct nlmsghdr *nlh, char *buf, size_t size)
{
	struct nftnl_chain *c = nftnl_chain_alloc();
	int ret = -EINVAL;

	if (c && nftnl_chain_nlmsg_parse(nlh, c) == 0) {
		nftnl_chain_snprintf(buf, size, c, NFTNL_OUTPUT_DEFAULT, 0);
		ret = 0;
	}
	if (c)
		nftnl_chain_free(c);
	return ret;
}

static int print_set(const struct nlmsghdr *nlh, bool elems, char *buf,
		     size_t size)
{
	struct nftnl_set *s = nftnl_set_alloc();
	int ret = -EINVAL, n;

	if (s && (elems ? nftnl_set_elems_nlmsg_parse(nlh, s)
			: nftnl_set_nlmsg_parse(nlh, s)) == 0) {
		n = nftnl_set_snprintf(buf, size, s, NFTNL_OUTPUT_DEFAULT, 0);
		/* The default output omits the key; show it. */
		if (!elems && n >= 0 && (size_t)n < size)
			snprintf(buf + n, size - (size_t)n,
				 "\n  flags %#x key type %#x len %u id %u",
				 nftnl_set_get_u32(s, NFTNL_SET_FLAGS),
				 nftnl_set_get_u32(s, NFTNL_SET_KEY_TYPE),
				 nftnl_set_get_u32(s, NFTNL_SET_KEY_LEN),
				 nftnl_set_get_u32(s, NFTNL_SET_ID));
		ret = 0;
	}
	if (s)
		nftnl_set_free(s);
	return ret;
}

static int print_rule(const struct nlmsghdr *nlh, char *buf, size_t size)
{
	struct nftnl_rule *r = nftnl_rule_alloc();
	int ret = -EINVAL;

	if (r && nftnl_rule_nlmsg_parse(nlh, r) == 0) {
		nftnl_rule_snprintf(buf, size, r, NFTNL_OUTPUT_DEFAULT, 0);
		ret = 0;
	}
	if (r)
		nftnl_rule_free(r);
	return ret;
}

static int print_msg(const struct nlmsghdr *orig, FILE *out, char *buf,
		     size_t size)
{
	_cleanup_free_ struct nlmsghdr *nlh = malloc(orig->nlmsg_len);
	uint16_t type = NFNL_MSG_TYPE(orig->nlmsg_type);
	int ret = -EINVAL;

	if (!nlh)
		return -ENOMEM;
	memcpy(nlh, orig, orig->nlmsg_len);
	if (type == NFT_MSG_NEWSETELEM)
		elems_renumber(nlh);
	if (nlh->nlmsg_type == NFNL_MSG_BATCH_BEGIN ||
	    nlh->nlmsg_type == NFNL_MSG_BATCH_END) {
		fprintf(out, "# seq %u: batch %s\n", nlh->nlmsg_seq,
			nlh->nlmsg_type == NFNL_MSG_BATCH_BEGIN ? "begin"
								: "end");
		return 0;
	}
	fprintf(out, "# seq %u, flags %#x\n", nlh->nlmsg_seq, nlh->nlmsg_flags);
	buf[0] = '\0';
	if (type == NFT_MSG_NEWTABLE)
		ret = print_table(nlh, buf, size);
	else if (type == NFT_MSG_NEWCHAIN)
		ret = print_chain(nlh, buf, size);
	else if (type == NFT_MSG_NEWSET || type == NFT_MSG_NEWSETELEM)
		ret = print_set(nlh, type == NFT_MSG_NEWSETELEM, buf, size);
	else if (type == NFT_MSG_NEWRULE)
		ret = print_rule(nlh, buf, size);
	if (ret == 0)
		fprintf(out, "%s\n", buf);
	return ret;
}

int ltd_nft_batch_print(const struct ltd_nft_batch *b, FILE *out,
			struct ltd_err *err)
{
	_cleanup_free_ char *buf = malloc(65536);
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)b->buf;
	int len = (int)b->len;

	if (!buf)
		return oom(err);
	for (; mnl_nlmsg_ok(nlh, len); nlh = mnl_nlmsg_next(nlh, &len))
		if (print_msg(nlh, out, buf, 65536) < 0)
			return ltd_err_set(err, EINVAL,
					   "message seq %u does not parse back",
					   nlh->nlmsg_seq);
	if (len != 0)
		return ltd_err_set(err, EINVAL, "%d stray bytes in the batch",
				   len);
	return 0;
}
