// SPDX-License-Identifier: GPL-2.0-or-later
#include "netfilter/nflog.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nfnetlink_log.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <jansson.h>
#include <libmnl/libmnl.h>

#include "common/cleanup.h"
#include "netfilter/audit.h"
#include "netfilter/pasta.h"

#define NFLOG_PACKET ((NFNL_SUBSYS_ULOG << 8) | NFULNL_MSG_PACKET)
#define NFLOG_CONFIG ((NFNL_SUBSYS_ULOG << 8) | NFULNL_MSG_CONFIG)
#define RECV_BUF     65536
#define DRAIN_MAX    4096 /* datagrams read at exit, at most */
#define IPV6_EXT_MAX 8	  /* extension headers followed, at most */

/* ---- the packet decoder (the cage's bytes) ----------------------------- */

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static bool proto_has_ports(uint8_t proto)
{
	switch (proto) {
	case IPPROTO_TCP:
	case IPPROTO_UDP:
	case IPPROTO_UDPLITE:
	case IPPROTO_SCTP:
	case IPPROTO_DCCP:
		return true;
	default:
		return false;
	}
}

/* The destination port at @off, if the transport header is within @end. */
static void read_port(const uint8_t *pkt, size_t off, size_t end,
		      struct ltd_nflog_dest *d)
{
	if (proto_has_ports(d->proto) && off <= end && end - off >= 4) {
		d->port = be16(pkt + off + 2);
		d->has_port = true;
	}
}

static int decode4(const uint8_t *pkt, size_t len, struct ltd_nflog_dest *d)
{
	size_t ihl, tot, end;

	if (len < 20)
		return -EINVAL;
	ihl = (size_t)(pkt[0] & 0x0f) * 4;
	if (ihl < 20)
		return -EINVAL;
	d->family = AF_INET;
	memcpy(d->addr, pkt + 16, 4);
	d->proto = pkt[9];
	tot = be16(pkt + 2);
	/* The copy is cut at LTD_NFLOG_COPY_RANGE; the datagram may be
	 * shorter than the copy says only if it lies. */
	end = tot < len ? tot : len;
	/* A later fragment has no transport header. */
	if (be16(pkt + 6) & 0x1fff)
		return 0;
	if (tot < ihl)
		return 0;
	read_port(pkt, ihl, end, d);
	return 0;
}

static bool ipv6_ext(uint8_t nh)
{
	return nh == IPPROTO_HOPOPTS || nh == IPPROTO_ROUTING ||
	       nh == IPPROTO_DSTOPTS || nh == IPPROTO_FRAGMENT ||
	       nh == IPPROTO_AH;
}

static int decode6(const uint8_t *pkt, size_t len, struct ltd_nflog_dest *d)
{
	size_t plen, end, off = 40;
	uint8_t nh;

	if (len < 40)
		return -EINVAL;
	d->family = AF_INET6;
	memcpy(d->addr, pkt + 24, 16);
	plen = be16(pkt + 4);
	/* Payload length 0: a jumbogram (hop-by-hop option); the copy's
	 * length is the only bound then. */
	end = plen && 40 + plen < len ? 40 + plen : len;
	nh = pkt[6];
	for (int i = 0; i < IPV6_EXT_MAX && ipv6_ext(nh); i++) {
		size_t hl;

		if (off > end || end - off < 8) {
			d->proto = nh; /* cut short: no transport header */
			return 0;
		}
		if (nh == IPPROTO_FRAGMENT) {
			if (be16(pkt + off + 2) & 0xfff8) {
				d->proto = pkt[off]; /* a later fragment */
				return 0;
			}
			hl = 8;
		} else if (nh == IPPROTO_AH) {
			hl = ((size_t)pkt[off + 1] + 2) * 4;
		} else {
			hl = ((size_t)pkt[off + 1] + 1) * 8;
		}
		nh = pkt[off];
		off += hl;
	}
	d->proto = nh;
	if (!ipv6_ext(nh))
		read_port(pkt, off, end, d);
	return 0;
}

int ltd_nflog_decode(const uint8_t *pkt, size_t len, struct ltd_nflog_dest *d)
{
	memset(d, 0, sizeof(*d));
	if (!pkt || len < 1)
		return -EINVAL;
	switch (pkt[0] >> 4) {
	case 4:
		return decode4(pkt, len, d);
	case 6:
		return decode6(pkt, len, d);
	default:
		return -EINVAL;
	}
}

bool ltd_nflog_dest_is_housekeeping(const struct ltd_nflog_dest *d)
{
	if (d->family == AF_INET)
		return d->addr[0] >= 224; /* multicast, reserved, broadcast */
	return d->addr[0] == 0xff;	  /* IPv6 multicast */
}

bool ltd_nflog_dest_is_host(const struct ltd_nflog_dest *d)
{
	uint8_t gw[16];

	if (inet_pton(d->family,
		      d->family == AF_INET ? LTD_NET_GW4 : LTD_NET_GW6,
		      gw) != 1)
		return false;
	return memcmp(d->addr, gw, d->family == AF_INET ? 4 : 16) == 0;
}

/* "tcp", "udp", "icmp", "icmpv6", ... or "proto N" into @buf. */
static const char *proto_name(uint8_t proto, char *buf, size_t size)
{
	static const struct {
		uint8_t proto;
		const char *name;
	} names[] = {
		{IPPROTO_TCP, "tcp"},	{IPPROTO_UDP, "udp"},
		{IPPROTO_ICMP, "icmp"}, {IPPROTO_ICMPV6, "icmpv6"},
		{IPPROTO_SCTP, "sctp"}, {IPPROTO_UDPLITE, "udplite"},
		{IPPROTO_DCCP, "dccp"}, {IPPROTO_GRE, "gre"},
		{IPPROTO_ESP, "esp"},	{IPPROTO_AH, "ah"},
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].proto == proto)
			return names[i].name;
	snprintf(buf, size, "proto %u", proto);
	return buf;
}

void ltd_nflog_dest_format(const struct ltd_nflog_dest *d, char *buf,
			   size_t size)
{
	char addr[INET6_ADDRSTRLEN], port[8] = "", pn[16];
	bool v6 = d->family == AF_INET6;

	if (!inet_ntop(v6 ? AF_INET6 : AF_INET, d->addr, addr, sizeof(addr)))
		snprintf(addr, sizeof(addr), "?");
	if (d->has_port)
		snprintf(port, sizeof(port), ":%u", d->port);
	snprintf(buf, size, "%s%s%s%s/%s", v6 ? "[" : "", addr, v6 ? "]" : "",
		 port, proto_name(d->proto, pn, sizeof(pn)));
}

/* ---- the socket init opens -------------------------------------------- */

int ltd_nflog_open(struct ltd_err *err)
{
	_cleanup_close_ int fd =
		socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_NETFILTER);
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK};
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nfulnl_msg_config_cmd cmd = {.command = NFULNL_CFG_CMD_BIND};
	struct nfulnl_msg_config_mode mode = {
		.copy_range = htonl(LTD_NFLOG_COPY_RANGE),
		.copy_mode = NFULNL_COPY_PACKET,
	};
	struct nlmsghdr *nlh;
	struct nfgenmsg *nfg;
	ssize_t n;

	if (fd < 0)
		return ltd_err_sys(err, "NFLOG: netlink socket");
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return ltd_err_sys(err, "NFLOG: bind netlink socket");
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = NFLOG_CONFIG;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = 1;
	nfg = mnl_nlmsg_put_extra_header(nlh, sizeof(*nfg));
	nfg->nfgen_family = AF_UNSPEC;
	nfg->version = NFNETLINK_V0;
	nfg->res_id = htons(LTD_NFLOG_GROUP);
	/* Bind the group, copy the headers only, and send each packet at
	 * once (the default batches up to 100 for up to a second). */
	mnl_attr_put(nlh, NFULA_CFG_CMD, sizeof(cmd), &cmd);
	mnl_attr_put(nlh, NFULA_CFG_MODE, sizeof(mode), &mode);
	mnl_attr_put_u32(nlh, NFULA_CFG_QTHRESH, htonl(1));
	do
		n = send(fd, nlh, nlh->nlmsg_len, 0);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)nlh->nlmsg_len)
		return ltd_err_sys(err, "NFLOG: send the configuration");
	do
		n = recv(fd, buf, sizeof(buf), 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return ltd_err_sys(err, "NFLOG: read the acknowledgement");
	if (mnl_cb_run(buf, (size_t)n, 1, 0, NULL, NULL) < 0)
		return ltd_err_sys(err, "NFLOG: bind group %d",
				   LTD_NFLOG_GROUP);
	return ltd_steal_fd(&fd);
}

/* ---- counting ---------------------------------------------------------- */

void ltd_nflog_init(struct ltd_nflog *l, const struct ltd_nflog_config *cfg)
{
	memset(l, 0, sizeof(*l));
	l->cfg = *cfg;
	l->fd = -1;
}

void ltd_nflog_attach(struct ltd_nflog *l, int fd)
{
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	if (l->fd >= 0)
		close(l->fd);
	l->fd = fd;
}

static bool dest_eq(const struct ltd_nflog_dest *a,
		    const struct ltd_nflog_dest *b)
{
	return a->family == b->family && a->proto == b->proto &&
	       a->has_port == b->has_port && a->port == b->port &&
	       memcmp(a->addr, b->addr, a->family == AF_INET6 ? 16 : 4) == 0;
}

/* "address", "port", "protocol" of @d into a new audit object. */
static json_t *audit_dest(const char *event, const struct ltd_nflog_dest *d)
{
	char addr[INET6_ADDRSTRLEN], pn[16];
	json_t *o = json_object();

	if (!o)
		return NULL;
	json_object_set_new(o, "event", json_string(event));
	if (d) {
		if (!inet_ntop(d->family, d->addr, addr, sizeof(addr)))
			snprintf(addr, sizeof(addr), "?");
		json_object_set_new(o, "address", json_string(addr));
		json_object_set_new(o, "port",
				    d->has_port ? json_integer(d->port)
						: json_null());
		json_object_set_new(
			o, "protocol",
			json_string(proto_name(d->proto, pn, sizeof(pn))));
	} else {
		json_object_set_new(o, "address", json_null());
	}
	json_object_set_new(o, "verdict", json_string("refused"));
	json_object_set_new(o, "rule", json_null());
	return o;
}

static void note(struct ltd_nflog *l, const struct ltd_nflog_dest *d)
{
	l->total++;
	for (size_t i = 0; i < l->n_dests; i++)
		if (dest_eq(&l->dests[i].dest, d)) {
			l->dests[i].count++;
			return;
		}
	if (l->n_dests == LTD_NFLOG_MAX_DESTS) {
		l->unlisted++;
		return;
	}
	l->dests[l->n_dests].dest = *d;
	l->dests[l->n_dests++].count = 1;
	if (l->cfg.audit)
		ltd_audit_emit(l->cfg.audit, audit_dest("connection", d));
}

static int attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (mnl_attr_type_valid(attr, NFULA_MAX) > 0)
		tb[type] = attr;
	return MNL_CB_OK;
}

/* One NFULNL_MSG_PACKET. */
static void packet(struct ltd_nflog *l, const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[NFULA_MAX + 1] = {0};
	struct ltd_nflog_dest d;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(struct nfgenmsg) ||
	    mnl_attr_parse(nlh, sizeof(struct nfgenmsg), attr_cb, tb) < 0) {
		l->malformed++;
		return;
	}
	/* Only our rules' refusals. */
	if (!tb[NFULA_PREFIX] ||
	    mnl_attr_validate(tb[NFULA_PREFIX], MNL_TYPE_NUL_STRING) < 0 ||
	    strcmp(mnl_attr_get_str(tb[NFULA_PREFIX]), LTD_NFLOG_PREFIX) != 0)
		return;
	if (!tb[NFULA_PAYLOAD] ||
	    ltd_nflog_decode(mnl_attr_get_payload(tb[NFULA_PAYLOAD]),
			     mnl_attr_get_payload_len(tb[NFULA_PAYLOAD]),
			     &d) < 0) {
		l->malformed++;
		return;
	}
	if (!ltd_nflog_dest_is_housekeeping(&d))
		note(l, &d);
}

void ltd_nflog_feed(struct ltd_nflog *l, const void *buf, size_t len)
{
	const struct nlmsghdr *nlh = buf;
	int left = len > RECV_BUF ? RECV_BUF : (int)len;

	for (; mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left))
		if (nlh->nlmsg_type == NFLOG_PACKET)
			packet(l, nlh);
}

/* Read one datagram: 1 read, 0 nothing (more) to read. */
static int read_one(struct ltd_nflog *l, uint8_t *buf)
{
	for (;;) {
		ssize_t n = recv(l->fd, buf, RECV_BUF, MSG_DONTWAIT);

		if (n > 0) {
			ltd_nflog_feed(l, buf, (size_t)n);
			return 1;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == ENOBUFS) {
			l->lost = true; /* the kernel dropped some */
			continue;
		}
		return 0;
	}
}

void ltd_nflog_read(struct ltd_nflog *l)
{
	uint8_t buf[RECV_BUF];

	for (int i = 0; l->fd >= 0 && i < LTD_NFLOG_BATCH; i++)
		if (!read_one(l, buf))
			return;
}

void ltd_nflog_drain(struct ltd_nflog *l)
{
	uint8_t buf[RECV_BUF];

	for (int i = 0; l->fd >= 0 && i < DRAIN_MAX; i++)
		if (!read_one(l, buf))
			return;
}

/* ---- at exit ------------------------------------------------------------ */

void ltd_nflog_summary(const struct ltd_nflog *l, FILE *out)
{
	char text[INET6_ADDRSTRLEN + 32];
	size_t order[LTD_NFLOG_MAX_DESTS], shown;
	unsigned long rest;

	if (l->cfg.quiet || (l->total == 0 && !l->lost))
		return;
	if (l->total) {
		/* The most refused first (ties: the first refused first). */
		for (size_t i = 0; i < l->n_dests; i++) {
			size_t j = i;

			for (; j > 0 &&
			       l->dests[order[j - 1]].count < l->dests[i].count;
			     j--)
				order[j] = order[j - 1];
			order[j] = i;
		}
		shown = l->n_dests < LTD_NFLOG_SHOW ? l->n_dests
						    : LTD_NFLOG_SHOW;
		rest = l->total;
		fprintf(out,
			"ltd-native: firewall: refused %lu connection "
			"attempt%s to destinations outside the "
			"allowlist:",
			l->total, l->total == 1 ? "" : "s");
		for (size_t i = 0; i < shown; i++) {
			const struct ltd_nflog_dest *d =
				&l->dests[order[i]].dest;
			unsigned long count = l->dests[order[i]].count;

			ltd_nflog_dest_format(d, text, sizeof(text));
			fprintf(out, "%s %s", i ? "," : "", text);
			if (count > 1)
				fprintf(out, " (x%lu)", count);
			rest -= count;
		}
		if (rest)
			fprintf(out, ", and %lu more to other destinations%s",
				rest,
				l->cfg.audit ? " (see the audit log)" : "");
		fprintf(out, "\nltd-native: allow a destination with "
			     "--allow-cidr ADDR[/LEN][:PORTS], or its name "
			     "with --allow-domain NAME[:PORTS]\n");
		for (size_t i = 0; i < shown; i++)
			if (ltd_nflog_dest_is_host(&l->dests[order[i]].dest)) {
				fprintf(out,
					"ltd-native: %s is this host "
					"(host.ltd.internal): allow a port "
					"of it with --allow-host-port PORT\n",
					l->dests[order[i]].dest.family ==
							AF_INET
						? LTD_NET_GW4
						: LTD_NET_GW6);
				break;
			}
	}
	if (l->lost)
		fprintf(out, "ltd-native: firewall: more refusals than could "
			     "be counted (the log overflowed)\n");
}

void ltd_nflog_audit_totals(const struct ltd_nflog *l)
{
	json_t *o;

	if (!l->cfg.audit)
		return;
	for (size_t i = 0; i < l->n_dests; i++) {
		o = audit_dest("connection-count", &l->dests[i].dest);
		if (o)
			json_object_set_new(
				o, "count",
				json_integer((json_int_t)l->dests[i].count));
		ltd_audit_emit(l->cfg.audit, o);
	}
	if (l->unlisted || l->lost) {
		o = audit_dest("connection-count", NULL);
		if (o) {
			json_object_set_new(
				o, "count",
				json_integer((json_int_t)l->unlisted));
			json_object_set_new(
				o, "reason",
				json_string(l->lost ? "more destinations than "
						      "listed; the log "
						      "overflowed"
						    : "more destinations than "
						      "listed"));
		}
		ltd_audit_emit(l->cfg.audit, o);
	}
}

void ltd_nflog_close(struct ltd_nflog *l)
{
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
}
