// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The DNS filter's plumbing that the launcher and init need: the upstream
 * address and the sockets in the cage.  No DNS parsing here: the launcher
 * links this, and the filter itself (dnsd.c, ldns) lives in ltd-dnsd.
 */
#include "dnsd/dnsd.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "netfilter/nft.h"

/* ---- upstream address -------------------------------------------------- */

int ltd_dns_upstream_parse(const char *s, struct sockaddr_storage *ss,
			   socklen_t *len, struct ltd_err *err)
{
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;
	char host[INET6_ADDRSTRLEN + 2];
	const char *port = NULL, *colon = strrchr(s, ':');
	unsigned long p = LTD_DNS_PORT;
	size_t hl;

	memset(ss, 0, sizeof(*ss));
	if (s[0] == '[') {
		const char *close = strchr(s, ']');

		if (!close || (close[1] && close[1] != ':'))
			goto bad;
		hl = (size_t)(close - s - 1);
		s++;
		port = close[1] ? close + 2 : NULL;
	} else if (colon && strchr(s, ':') == colon) {
		hl = (size_t)(colon - s); /* one colon: IPv4:PORT */
		port = colon + 1;
	} else {
		hl = strlen(s); /* none, or a bare IPv6 address */
	}
	if (hl == 0 || hl >= sizeof(host))
		goto bad;
	memcpy(host, s, hl);
	host[hl] = '\0';
	if (port) {
		char *end;

		errno = 0;
		p = strtoul(port, &end, 10);
		if (errno || *end || !*port || p == 0 || p > 65535)
			goto bad;
	}
	if (inet_pton(AF_INET, host, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons((uint16_t)p);
		*len = sizeof(*s4);
		return 0;
	}
	if (inet_pton(AF_INET6, host, &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((uint16_t)p);
		*len = sizeof(*s6);
		return 0;
	}
bad:
	return ltd_err_set(err, EINVAL,
			   "--dns-upstream: '%s' is not ADDR[:PORT] "
			   "(e.g. 192.0.2.53, 127.0.0.1:5353, [fd00::53]:53)",
			   s);
}

int ltd_dns_upstream_from_resolv(const char *path, struct sockaddr_storage *ss,
				 socklen_t *len, struct ltd_err *err)
{
	FILE *f = fopen(path, "re");
	char line[512], addr[128];
	int ret = -ENOENT;

	if (!f)
		return ltd_err_sys(err, "DNS upstream: %s", path);
	while (ret == -ENOENT && fgets(line, sizeof(line), f)) {
		char *pct;

		if (sscanf(line, " nameserver %127s", addr) != 1)
			continue;
		pct = strchr(addr, '%'); /* fe80::1%eth0: scope dropped */
		if (pct)
			*pct = '\0';
		if (strchr(addr, ':')) {
			char b[140];

			snprintf(b, sizeof(b), "[%s]", addr);
			ret = ltd_dns_upstream_parse(b, ss, len, err);
		} else {
			ret = ltd_dns_upstream_parse(addr, ss, len, err);
		}
	}
	fclose(f);
	if (ret == -ENOENT)
		return ltd_err_set(err, ENOENT,
				   "DNS upstream: %s names no "
				   "nameserver (use --dns-upstream)",
				   path);
	return ret;
}

/* ---- the sockets init opens --------------------------------------------- */

int ltd_dns_open_sockets(int fds[3], struct ltd_err *err)
{
	struct sockaddr_in sa = {.sin_family = AF_INET,
				 .sin_port = htons(LTD_DNS_PORT)};
	_cleanup_close_ int udp = -1, tcp = -1, nl = -1;
	int ret;

	inet_pton(AF_INET, LTD_DNS_ADDR4, &sa.sin_addr);
	udp = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (udp < 0 || bind(udp, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return ltd_err_sys(err, "DNS: UDP socket on %s:53",
				   LTD_DNS_ADDR4);
	tcp = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (tcp < 0 || bind(tcp, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(tcp, 16) < 0)
		return ltd_err_sys(err, "DNS: TCP socket on %s:53",
				   LTD_DNS_ADDR4);
	ret = nl = ltd_nft_socket(err);
	if (ret < 0)
		return ret;
	fds[0] = ltd_steal_fd(&udp);
	fds[1] = ltd_steal_fd(&tcp);
	fds[2] = ltd_steal_fd(&nl);
	return 0;
}
