// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * netfilter/nflog.c: the decoder of refused packets (the cage's bytes:
 * IPv4, IPv6 with extension headers, TCP/UDP/ICMP, truncated, fragmented
 * and malformed input), the NFLOG message parser (messages built as the
 * kernel builds them), the counting, the exit summary and the audit lines.
 */
#include <criterion/criterion.h>

#include <arpa/inet.h>
#include <errno.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nfnetlink_log.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <jansson.h>
#include <libmnl/libmnl.h>

#include "netfilter/nflog.h"
#include "netfilter/pasta.h"

/* An IPv4 header (20 bytes, no options) to @dst, then @l4 bytes. */
static size_t ip4(uint8_t *buf, const char *dst, uint8_t proto,
		  const uint8_t *l4, size_t l4len)
{
	size_t tot = 20 + l4len;

	memset(buf, 0, 20);
	buf[0] = 0x45;
	buf[2] = (uint8_t)(tot >> 8);
	buf[3] = (uint8_t)tot;
	buf[8] = 64;
	buf[9] = proto;
	inet_pton(AF_INET, "198.18.93.2", buf + 12);
	inet_pton(AF_INET, dst, buf + 16);
	memcpy(buf + 20, l4, l4len);
	return tot;
}

/* An IPv6 header to @dst with next header @nh, then @rest bytes. */
static size_t ip6(uint8_t *buf, const char *dst, uint8_t nh,
		  const uint8_t *rest, size_t len)
{
	memset(buf, 0, 40);
	buf[0] = 0x60;
	buf[4] = (uint8_t)(len >> 8);
	buf[5] = (uint8_t)len;
	buf[6] = nh;
	buf[7] = 64;
	inet_pton(AF_INET6, "fd4c:7464:6e61::2", buf + 8);
	inet_pton(AF_INET6, dst, buf + 24);
	memcpy(buf + 40, rest, len);
	return 40 + len;
}

/* TCP/UDP header start: source port 40000, destination @port. */
static void ports(uint8_t *l4, uint16_t port)
{
	l4[0] = 0x9c, l4[1] = 0x40;
	l4[2] = (uint8_t)(port >> 8), l4[3] = (uint8_t)port;
}

static char *fmt(const struct ltd_nflog_dest *d)
{
	static char buf[128];

	ltd_nflog_dest_format(d, buf, sizeof(buf));
	return buf;
}

Test(nflog, ipv4_tcp_udp_icmp)
{
	uint8_t pkt[128], l4[20] = {0};
	struct ltd_nflog_dest d;
	size_t n;

	ports(l4, 443);
	n = ip4(pkt, "10.1.2.3", IPPROTO_TCP, l4, 20);
	cr_assert_eq(ltd_nflog_decode(pkt, n, &d), 0);
	cr_assert_eq(d.family, AF_INET);
	cr_assert(d.has_port);
	cr_assert_eq(d.port, 443);
	cr_assert_str_eq(fmt(&d), "10.1.2.3:443/tcp");

	ports(l4, 53);
	n = ip4(pkt, "10.1.2.3", IPPROTO_UDP, l4, 8);
	cr_assert_eq(ltd_nflog_decode(pkt, n, &d), 0);
	cr_assert_str_eq(fmt(&d), "10.1.2.3:53/udp");

	memset(l4, 0, sizeof(l4));
	l4[0] = 8; /* echo request: no port, whatever its bytes say */
	n = ip4(pkt, "10.1.2.3", IPPROTO_ICMP, l4, 8);
	cr_assert_eq(ltd_nflog_decode(pkt, n, &d), 0);
	cr_assert_not(d.has_port);
	cr_assert_str_eq(fmt(&d), "10.1.2.3/icmp");

	n = ip4(pkt, "10.1.2.3", 47, l4, 8);
	cr_assert_eq(ltd_nflog_decode(pkt, n, &d), 0);
	cr_assert_str_eq(fmt(&d), "10.1.2.3/gre");
	n = ip4(pkt, "10.1.2.3", 253, l4, 8);
	cr_assert_eq(ltd_nflog_decode(pkt, n, &d), 0);
	cr_assert_str_eq(fmt(&d), "10.1.2.3/proto 253");
}

Test(nflog, ipv4_options_and_fragments)
{
	uint8_t pkt[128] = {0}, l4[8] = {0};
	struct ltd_nflog_dest d;
	size_t n;

	/* IHL 6: four bytes of options before the TCP header. */
	ports(l4, 8080);
	n = ip4(pkt, "10.1.2.3", IPPROTO_TCP, l4, 8);
	memmove(pkt + 24, pkt + 20, 8);
	memset(pkt + 20, 1, 4); /* NOPs */
	pkt[0] = 0x46;
	pkt[3] = (uint8_t)(n + 4);
	cr_assert_eq(ltd_nflog_decode(pkt, n + 4, &d), 0);
	cr_assert(d.has_port);
	cr_assert_eq(d.port, 8080);

	/* A later fragment: the bytes after the header are not a header. */
	n = ip4(pkt, "10.1.2.3", IPPROTO_UDP, l4, 8);
	pkt[6] = 0x00, pkt[7] = 0xb9; /* offset 185 * 8 */
	cr_assert_eq(ltd_nflog_decode(pkt, n, &d), 0);
	cr_assert_not(d.has_port);
	cr_assert_str_eq(fmt(&d), "10.1.2.3/udp");
	/* The first fragment (MF set, offset 0) has it. */
	pkt[6] = 0x20, pkt[7] = 0;
	cr_assert_eq(ltd_nflog_decode(pkt, n, &d), 0);
	cr_assert(d.has_port);
}

Test(nflog, ipv4_truncated_and_malformed)
{
	uint8_t pkt[128] = {0}, l4[8] = {0};
	struct ltd_nflog_dest d;
	size_t n;

	ports(l4, 443);
	n = ip4(pkt, "10.1.2.3", IPPROTO_TCP, l4, 8);
	/* Every length shorter than the header: no address, an error. */
	for (size_t k = 0; k < 20; k++)
		cr_assert_eq(ltd_nflog_decode(pkt, k, &d), -EINVAL, "%zu", k);
	cr_assert_eq(ltd_nflog_decode(NULL, 0, &d), -EINVAL);
	/* The address but not the whole port: address only. */
	for (size_t k = 20; k < 24; k++) {
		cr_assert_eq(ltd_nflog_decode(pkt, k, &d), 0);
		cr_assert_not(d.has_port, "%zu", k);
		cr_assert_str_eq(fmt(&d), "10.1.2.3/tcp");
	}
	cr_assert_eq(ltd_nflog_decode(pkt, 24, &d), 0);
	cr_assert(d.has_port);
	/* A total length that stops before the port: no port read past it. */
	pkt[3] = 22;
	cr_assert_eq(ltd_nflog_decode(pkt, n, &d), 0);
	cr_assert_not(d.has_port);
	/* A total length shorter than the header. */
	pkt[3] = 10;
	cr_assert_eq(ltd_nflog_decode(pkt, n, &d), 0);
	cr_assert_not(d.has_port);
	pkt[3] = (uint8_t)n;
	/* IHL below 5, or past the copy. */
	pkt[0] = 0x44;
	cr_assert_eq(ltd_nflog_decode(pkt, n, &d), -EINVAL);
	pkt[0] = 0x4f; /* 60 bytes of header, 28 copied */
	cr_assert_eq(ltd_nflog_decode(pkt, n, &d), 0);
	cr_assert_not(d.has_port);
	/* Neither version 4 nor 6. */
	pkt[0] = 0x55;
	cr_assert_eq(ltd_nflog_decode(pkt, n, &d), -EINVAL);
	pkt[0] = 0x05;
	cr_assert_eq(ltd_nflog_decode(pkt, n, &d), -EINVAL);
}

Test(nflog, ipv6_tcp_udp_icmpv6)
{
	uint8_t pkt[128], l4[20] = {0};
	struct ltd_nflog_dest d;
	size_t n;

	ports(l4, 80);
	n = ip6(pkt, "fd00::1", IPPROTO_TCP, l4, 20);
	cr_assert_eq(ltd_nflog_decode(pkt, n, &d), 0);
	cr_assert_eq(d.family, AF_INET6);
	cr_assert_str_eq(fmt(&d), "[fd00::1]:80/tcp");

	ports(l4, 4242);
	n = ip6(pkt, "fd00::1", IPPROTO_UDP, l4, 8);
	cr_assert_eq(ltd_nflog_decode(pkt, n, &d), 0);
	cr_assert_str_eq(fmt(&d), "[fd00::1]:4242/udp");

	n = ip6(pkt, "fd00::1", IPPROTO_ICMPV6, l4, 8);
	cr_assert_eq(ltd_nflog_decode(pkt, n, &d), 0);
	cr_assert_not(d.has_port);
	cr_assert_str_eq(fmt(&d), "[fd00::1]/icmpv6");
}

Test(nflog, ipv6_extension_headers)
{
	uint8_t pkt[200], rest[64] = {0};
	struct ltd_nflog_dest d;
	size_t n;

	/* Hop-by-hop (8 bytes), destination options (16), then UDP. */
	rest[0] = IPPROTO_DSTOPTS, rest[1] = 0;
	rest[8] = IPPROTO_UDP, rest[9] = 1;
	ports(rest + 24, 5353);
	n = ip6(pkt, "fd00::2", IPPROTO_HOPOPTS, rest, 32);
	cr_assert_eq(ltd_nflog_decode(pkt, n, &d), 0);
	cr_assert_str_eq(fmt(&d), "[fd00::2]:5353/udp");

	/* A first fragment carries the header... */
	memset(rest, 0, sizeof(rest));
	rest[0] = IPPROTO_TCP;
	ports(rest + 8, 22);
	n = ip6(pkt, "fd00::2", IPPROTO_FRAGMENT, rest, 28);
	cr_assert_eq(ltd_nflog_decode(pkt, n, &d), 0);
	cr_assert_str_eq(fmt(&d), "[fd00::2]:22/tcp");
	/* ...a later one does not. */
	pkt[40 + 2] = 0x05, pkt[40 + 3] = 0xa8;
	cr_assert_eq(ltd_nflog_decode(pkt, n, &d), 0);
	cr_assert_str_eq(fmt(&d), "[fd00::2]/tcp");

	/* AH: length in 4-byte units, plus 2. */
	memset(rest, 0, sizeof(rest));
	rest[0] = IPPROTO_TCP, rest[1] = 4; /* 24 bytes */
	ports(rest + 24, 993);
	n = ip6(pkt, "fd00::2", IPPROTO_AH, rest, 44);
	cr_assert_eq(ltd_nflog_decode(pkt, n, &d), 0);
	cr_assert_str_eq(fmt(&d), "[fd00::2]:993/tcp");
}

Test(nflog, ipv6_truncated_and_malformed)
{
	uint8_t pkt[256] = {0}, rest[200] = {0};
	struct ltd_nflog_dest d;
	size_t n;

	ports(rest, 443);
	n = ip6(pkt, "fd00::3", IPPROTO_TCP, rest, 20);
	for (size_t k = 0; k < 40; k++)
		cr_assert_eq(ltd_nflog_decode(pkt, k, &d), -EINVAL, "%zu", k);
	for (size_t k = 40; k < 44; k++) {
		cr_assert_eq(ltd_nflog_decode(pkt, k, &d), 0);
		cr_assert_not(d.has_port, "%zu", k);
		cr_assert_str_eq(fmt(&d), "[fd00::3]/tcp");
	}
	/* A payload length that ends before the port. */
	pkt[5] = 2;
	cr_assert_eq(ltd_nflog_decode(pkt, n, &d), 0);
	cr_assert_not(d.has_port);

	/* An extension header whose length runs past the copy. */
	rest[0] = IPPROTO_TCP, rest[1] = 255;
	n = ip6(pkt, "fd00::3", IPPROTO_DSTOPTS, rest, 60);
	cr_assert_eq(ltd_nflog_decode(pkt, n, &d), 0);
	cr_assert_not(d.has_port);
	/* Cut inside the extension header itself. */
	cr_assert_eq(ltd_nflog_decode(pkt, 44, &d), 0);
	cr_assert_not(d.has_port);
	cr_assert_str_eq(fmt(&d), "[fd00::3]/proto 60");

	/* A chain longer than the decoder follows: no port, no loop. */
	memset(rest, 0, sizeof(rest));
	for (int i = 0; i < 20; i++)
		rest[i * 8] = IPPROTO_DSTOPTS;
	n = ip6(pkt, "fd00::3", IPPROTO_DSTOPTS, rest, 160);
	cr_assert_eq(ltd_nflog_decode(pkt, n, &d), 0);
	cr_assert_not(d.has_port);
	cr_assert_eq(d.proto, IPPROTO_DSTOPTS);

	/* Every prefix of every byte pattern decodes without reading past
	 * its end (run under ASan by `make fuzz`'s build flags if wanted). */
	for (int seed = 0; seed < 64; seed++) {
		uint8_t junk[96];

		srand((unsigned)seed);
		for (size_t i = 0; i < sizeof(junk); i++)
			junk[i] = (uint8_t)rand();
		junk[0] = (uint8_t)((seed & 1 ? 0x60 : 0x40) | (junk[0] & 0xf));
		for (size_t k = 0; k <= sizeof(junk); k++) {
			uint8_t *copy = malloc(k ? k : 1);

			memcpy(copy, junk, k);
			(void)ltd_nflog_decode(copy, k, &d);
			free(copy);
		}
	}
}

Test(nflog, housekeeping)
{
	struct ltd_nflog_dest d = {.family = AF_INET6};

	inet_pton(AF_INET6, "ff02::16", d.addr);
	cr_assert(ltd_nflog_dest_is_housekeeping(&d));
	inet_pton(AF_INET6, "fd00::1", d.addr);
	cr_assert_not(ltd_nflog_dest_is_housekeeping(&d));
	d.family = AF_INET;
	inet_pton(AF_INET, "224.0.0.22", d.addr);
	cr_assert(ltd_nflog_dest_is_housekeeping(&d));
	inet_pton(AF_INET, "255.255.255.255", d.addr);
	cr_assert(ltd_nflog_dest_is_housekeeping(&d));
	inet_pton(AF_INET, "10.1.2.3", d.addr);
	cr_assert_not(ltd_nflog_dest_is_housekeeping(&d));
}

/* An NFULNL_MSG_PACKET as the kernel sends it, appended at @buf + *off. */
static void nflog_msg(char *buf, size_t *off, const char *prefix,
		      const uint8_t *pkt, size_t len)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf + *off);
	struct nfgenmsg *nfg;
	struct nfulnl_msg_packet_hdr ph = {.hw_protocol = htons(0x0800),
					   .hook = 3};

	nlh->nlmsg_type = (NFNL_SUBSYS_ULOG << 8) | NFULNL_MSG_PACKET;
	nfg = mnl_nlmsg_put_extra_header(nlh, sizeof(*nfg));
	nfg->nfgen_family = AF_INET;
	nfg->res_id = htons(LTD_NFLOG_GROUP);
	mnl_attr_put(nlh, NFULA_PACKET_HDR, sizeof(ph), &ph);
	if (prefix)
		mnl_attr_put_strz(nlh, NFULA_PREFIX, prefix);
	if (pkt)
		mnl_attr_put(nlh, NFULA_PAYLOAD, len, pkt);
	*off += NLMSG_ALIGN(nlh->nlmsg_len);
}

static char *summary(const struct ltd_nflog *l)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert_not_null(f);
	ltd_nflog_summary(l, f);
	fclose(f);
	return text;
}

Test(nflog, feed_count_and_summary)
{
	static char buf[16384];
	uint8_t pkt[128], l4[20] = {0}, p6[128];
	struct ltd_nflog_config cfg = {0};
	struct ltd_nflog l;
	size_t off = 0, n, n6;
	char *text;

	ltd_nflog_init(&l, &cfg);
	ports(l4, 443);
	n = ip4(pkt, "10.1.2.3", IPPROTO_TCP, l4, 20);
	ports(l4, 80);
	n6 = ip6(p6, "fd00::1", IPPROTO_TCP, l4, 20);
	for (int i = 0; i < 3; i++)
		nflog_msg(buf, &off, LTD_NFLOG_PREFIX, pkt, n);
	nflog_msg(buf, &off, LTD_NFLOG_PREFIX, p6, n6);
	nflog_msg(buf, &off, "someone else", pkt, n);	 /* not ours */
	nflog_msg(buf, &off, NULL, pkt, n);		 /* no prefix */
	nflog_msg(buf, &off, LTD_NFLOG_PREFIX, NULL, 0); /* no payload */
	nflog_msg(buf, &off, LTD_NFLOG_PREFIX, pkt, 7);	 /* malformed */
	n = ip6(pkt, "ff02::16", IPPROTO_ICMPV6, l4, 8);
	nflog_msg(buf, &off, LTD_NFLOG_PREFIX, pkt, n); /* MLD: ignored */
	ltd_nflog_feed(&l, buf, off);
	cr_assert_eq(l.total, 4);
	cr_assert_eq(l.n_dests, 2);
	cr_assert_eq(l.malformed, 2);

	text = summary(&l);
	cr_assert_str_eq(text,
			 "ltd-native: firewall: refused 4 connection attempts "
			 "to destinations outside the allowlist: "
			 "10.1.2.3:443/tcp (x3), [fd00::1]:80/tcp\n"
			 "ltd-native: allow a destination with --allow-cidr "
			 "ADDR[/LEN][:PORTS], or its name with --allow-domain "
			 "NAME[:PORTS]\n");
	free(text);

	/* Quiet: nothing. */
	l.cfg.quiet = true;
	text = summary(&l);
	cr_assert_str_eq(text, "");
	free(text);
}

/* A port of the host (the gateway, host.ltd.internal) refused: the way
 * to allow it is --allow-host-port, which the summary says. */
Test(nflog, the_host_refused_names_allow_host_port)
{
	static char buf[4096];
	uint8_t pkt[128], l4[20] = {0};
	struct ltd_nflog_config cfg = {0};
	struct ltd_nflog_dest d = {.family = AF_INET6};
	struct ltd_nflog l;
	size_t off = 0, n;
	char *text;

	inet_pton(AF_INET6, LTD_NET_GW6, d.addr);
	cr_assert(ltd_nflog_dest_is_host(&d));
	inet_pton(AF_INET6, "fd00::1", d.addr);
	cr_assert_not(ltd_nflog_dest_is_host(&d));
	ltd_nflog_init(&l, &cfg);
	ports(l4, 8080);
	n = ip4(pkt, LTD_NET_GW4, IPPROTO_TCP, l4, 20);
	nflog_msg(buf, &off, LTD_NFLOG_PREFIX, pkt, n);
	ltd_nflog_feed(&l, buf, off);
	text = summary(&l);
	cr_assert(strstr(text, "ltd-native: " LTD_NET_GW4
			       " is this host (host.ltd.internal): allow a "
			       "port of it with --allow-host-port PORT\n"),
		  "%s", text);
	free(text);
}

Test(nflog, feed_truncated_messages)
{
	static char buf[4096];
	uint8_t pkt[64], l4[8] = {0};
	struct ltd_nflog_config cfg = {0};
	struct ltd_nflog l;
	size_t off = 0, n;

	ltd_nflog_init(&l, &cfg);
	ports(l4, 443);
	n = ip4(pkt, "10.1.2.3", IPPROTO_TCP, l4, 8);
	nflog_msg(buf, &off, LTD_NFLOG_PREFIX, pkt, n);
	/* Every cut of the datagram: never a read past it, at most one. */
	for (size_t k = 0; k <= off; k++) {
		char *copy = malloc(k ? k : 1);

		memcpy(copy, buf, k);
		ltd_nflog_feed(&l, copy, k);
		free(copy);
	}
	cr_assert_eq(l.total, 1);
	cr_assert_eq(l.n_dests, 1);
}

Test(nflog, summary_bounded)
{
	struct ltd_nflog_config cfg = {0};
	struct ltd_nflog l;
	static char buf[65536];
	uint8_t pkt[64], l4[8] = {0};
	size_t off = 0, n;
	char *text, dst[32];

	ltd_nflog_init(&l, &cfg);
	for (int i = 0; i < LTD_NFLOG_MAX_DESTS + 5; i++) {
		snprintf(dst, sizeof(dst), "10.0.%d.%d", i / 200, i % 200 + 1);
		ports(l4, 443);
		n = ip4(pkt, dst, IPPROTO_TCP, l4, 8);
		nflog_msg(buf, &off, LTD_NFLOG_PREFIX, pkt, n);
	}
	ltd_nflog_feed(&l, buf, off);
	cr_assert_eq(l.n_dests, LTD_NFLOG_MAX_DESTS);
	cr_assert_eq(l.unlisted, 5);
	cr_assert_eq(l.total, LTD_NFLOG_MAX_DESTS + 5);
	text = summary(&l);
	cr_assert(
		strstr(text, "allowlist: 10.0.0.1:443/tcp, 10.0.0.2:443/tcp,"),
		"%s", text);
	cr_assert(strstr(text, ", 10.0.0.8:443/tcp, and 29 more to other "
			       "destinations\n"),
		  "%s", text);
	cr_assert_null(strstr(text, "10.0.0.9:"), "%s", text);
	free(text);
	/* The most refused first. */
	off = 0;
	n = ip4(pkt, "10.0.0.30", IPPROTO_TCP, l4, 8);
	nflog_msg(buf, &off, LTD_NFLOG_PREFIX, pkt, n);
	nflog_msg(buf, &off, LTD_NFLOG_PREFIX, pkt, n);
	ltd_nflog_feed(&l, buf, off);
	text = summary(&l);
	cr_assert(strstr(text, "allowlist: 10.0.0.30:443/tcp (x3), "
			       "10.0.0.1:443/tcp, "),
		  "%s", text);
	cr_assert(strstr(text, "and 29 more to"), "%s", text);
	free(text);

	/* Nothing refused: nothing said. */
	ltd_nflog_init(&l, &cfg);
	text = summary(&l);
	cr_assert_str_eq(text, "");
	free(text);
	/* The log overflowed: said, even with nothing counted. */
	l.lost = true;
	text = summary(&l);
	cr_assert(strstr(text, "log overflowed"), "%s", text);
	free(text);
}

Test(nflog, audit_first_and_totals)
{
	static char buf[8192];
	uint8_t pkt[64], l4[8] = {0};
	struct ltd_nflog l;
	char *text = NULL, *line, *save = NULL;
	size_t len = 0, off = 0, n;
	FILE *f = open_memstream(&text, &len);
	struct ltd_nflog_config cfg = {.audit = f};
	int lines = 0;

	ltd_nflog_init(&l, &cfg);
	ports(l4, 53);
	n = ip4(pkt, "10.1.2.3", IPPROTO_UDP, l4, 8);
	for (int i = 0; i < 50; i++)
		nflog_msg(buf, &off, LTD_NFLOG_PREFIX, pkt, n);
	ltd_nflog_feed(&l, buf, off);
	ltd_nflog_audit_totals(&l);
	fclose(f);
	/* 50 packets, two lines: the first, and the count. */
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), lines++) {
		json_error_t je;
		json_t *o = json_loads(line, 0, &je);

		cr_assert_not_null(o, "%s: %s", line, je.text);
		cr_assert_str_eq(
			json_string_value(json_object_get(o, "address")),
			"10.1.2.3");
		cr_assert_eq(json_integer_value(json_object_get(o, "port")),
			     53);
		cr_assert_str_eq(
			json_string_value(json_object_get(o, "protocol")),
			"udp");
		cr_assert_str_eq(
			json_string_value(json_object_get(o, "verdict")),
			"refused");
		cr_assert(json_is_null(json_object_get(o, "rule")));
		cr_assert(json_is_string(json_object_get(o, "time")));
		cr_assert_str_eq(json_string_value(json_object_get(o, "event")),
				 lines == 0 ? "connection"
					    : "connection-count");
		if (lines == 1)
			cr_assert_eq(
				json_integer_value(json_object_get(o, "count")),
				50);
		json_decref(o);
	}
	cr_assert_eq(lines, 2);
	free(text);
}
