// SPDX-License-Identifier: GPL-2.0-or-later
#include "netfilter/nft.h"

#include <errno.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netlink.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <libmnl/libmnl.h>

#include "common/cleanup.h"

int ltd_nft_socket(struct ltd_err *err)
{
	_cleanup_close_ int fd =
		socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_NETFILTER);
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK};
	int one = 1;

	if (fd < 0)
		return ltd_err_sys(err, "firewall: netlink socket");
	/* Short acks (no copy of the request), with the kernel's reason. */
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return ltd_err_sys(err, "firewall: bind netlink socket");
	return ltd_steal_fd(&fd);
}

static const char *ext_ack_msg(const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *attr;
	size_t off = sizeof(*e);

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return NULL;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += mnl_nlmsg_get_payload_len(&e->msg);
	mnl_attr_for_each_payload((const void *)((const char *)e + off),
				  mnl_nlmsg_get_payload_len(nlh) - off)
	{
		if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG &&
		    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
			return mnl_attr_get_str(attr);
	}
	return NULL;
}

/* Record one ack; the first error wins and names its object. */
static void on_ack(const struct ltd_nft_batch *b, const struct nlmsghdr *nlh,
		   bool *acked, int *ret, struct ltd_err *err)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	const struct ltd_nft_obj *o = ltd_nft_batch_obj(b, nlh->nlmsg_seq);
	const char *why;

	if (o)
		acked[o - b->objs] = true;
	if (e->error == 0 || *ret < 0)
		return;
	why = ext_ack_msg(nlh);
	if (o)
		*ret = ltd_err_set(err, -e->error, "firewall: %s: %s%s%s",
				   o->what, strerror(-e->error),
				   why ? ": " : "", why ? why : "");
	else if (nlh->nlmsg_seq == b->seq_begin)
		*ret = ltd_err_set(err, -e->error,
				   "firewall: the kernel refused the batch: "
				   "%s (is nf_tables available?)",
				   strerror(-e->error));
	else
		*ret = ltd_err_set(err, -e->error,
				   "firewall: error for unknown message %u: %s",
				   nlh->nlmsg_seq, strerror(-e->error));
}

/*
 * nfnetlink processes a batch inside sendmsg(): by the time it returns,
 * every ack is queued (on failure too: the kernel reports each message's
 * fate, then aborts the whole batch).  Read until each message is acked.
 */
static int read_acks(int fd, const struct ltd_nft_batch *b, bool *acked,
		     struct ltd_err *err)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	size_t missing;
	int ret = 0;

	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)buf;
		int len = (int)n;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n < 0)
			return ltd_err_sys(err, "firewall: read acks");
		for (; mnl_nlmsg_ok(nlh, len); nlh = mnl_nlmsg_next(nlh, &len))
			if (nlh->nlmsg_type == NLMSG_ERROR)
				on_ack(b, nlh, acked, &ret, err);
	}
	if (ret < 0)
		return ret;
	missing = 0;
	for (size_t i = 0; i < b->n_objs; i++)
		if (!acked[i] && missing++ == 0)
			ret = ltd_err_set(err, EPROTO,
					  "firewall: no acknowledgement for "
					  "%s",
					  b->objs[i].what);
	return ret;
}

int ltd_nft_send(int fd, const struct ltd_nft_batch *b, struct ltd_err *err)
{
	_cleanup_close_ int own = -1;
	_cleanup_free_ bool *acked = calloc(b->n_objs + 1, sizeof(bool));
	struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
	int size = (int)b->len + 4096;
	ssize_t n;

	if (!acked)
		return ltd_err_set(err, ENOMEM, "out of memory");
	if (fd < 0) {
		own = ltd_nft_socket(err);
		if (own < 0)
			return own;
		fd = own;
	}
	/* The whole batch goes in one datagram; acks must all fit too. */
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
	size = (int)(b->n_objs * 256) + 65536;
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	do
		n = sendto(fd, b->buf, b->len, 0, (struct sockaddr *)&kernel,
			   sizeof(kernel));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return ltd_err_sys(err, "firewall: send the batch");
	if ((size_t)n != b->len)
		return ltd_err_set(err, EIO, "firewall: short send");
	return read_acks(fd, b, acked, err);
}
