// SPDX-License-Identifier: GPL-2.0-or-later
#include "policy/publish.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "common/vec.h"

static int port_of(const char *s, size_t len, uint16_t *port)
{
	unsigned long v = 0;

	if (len == 0 || len > 5)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	if (v == 0 || v > 65535)
		return -EINVAL;
	*port = (uint16_t)v;
	return 0;
}

/* ADDR, without brackets: IPv4, "localhost", or IPv6 when @v6. */
static int addr_of(const char *s, size_t len, bool v6, struct ltd_publish *p)
{
	char a[INET6_ADDRSTRLEN];

	if (len == 0 || len >= sizeof(a))
		return -EINVAL;
	memcpy(a, s, len);
	a[len] = '\0';
	if (!v6 && strcmp(a, "localhost") == 0)
		snprintf(a, sizeof(a), "127.0.0.1");
	p->family = v6 ? AF_INET6 : AF_INET;
	return inet_pton(p->family, a, p->addr) == 1 ? 0 : -EINVAL;
}

int ltd_publish_parse(const char *s, const char *flag, struct ltd_publish *p,
		      struct ltd_err *err)
{
	size_t len = strlen(s), alen;
	const char *c2, *c1;
	int ret;

	memset(p, 0, sizeof(*p));
	if (len > 4 && strcmp(s + len - 4, "/udp") == 0)
		return ltd_err_set(err, EINVAL,
				   "%s: '%s': only TCP is published", flag, s);
	if (len > 4 && strcmp(s + len - 4, "/tcp") == 0)
		len -= 4;
	/* From the right: CAGE_PORT, HOST_PORT, then what is left is the
	 * address (a bracketed IPv6 one holds colons of its own). */
	c2 = memrchr(s, ':', len);
	c1 = c2 ? memrchr(s, ':', (size_t)(c2 - s)) : NULL;
	if (!c2 ||
	    port_of(c2 + 1, len - (size_t)(c2 + 1 - s), &p->cage_port) < 0)
		goto bad;
	if (!c1) {
		p->family = AF_INET;
		inet_pton(AF_INET, "127.0.0.1", p->addr);
		if (port_of(s, (size_t)(c2 - s), &p->host_port) < 0)
			goto bad;
		return 0;
	}
	if (port_of(c1 + 1, (size_t)(c2 - c1 - 1), &p->host_port) < 0)
		goto bad;
	alen = (size_t)(c1 - s);
	if (alen > 2 && s[0] == '[' && s[alen - 1] == ']')
		ret = addr_of(s + 1, alen - 2, true, p);
	else
		ret = addr_of(s, alen, false, p);
	if (ret < 0)
		return ltd_err_set(err, EINVAL,
				   "%s: '%.*s' is not an address (IPv4, "
				   "localhost, or IPv6 in brackets: "
				   "[::1]:8080:80)",
				   flag, (int)alen, s);
	return 0;
bad:
	return ltd_err_set(err, EINVAL,
			   "%s: '%s' is not [ADDR:]HOST_PORT:CAGE_PORT (e.g. "
			   "8080:80, 127.0.0.1:8080:80, [::1]:8080:80)",
			   flag, s);
}

void ltd_publish_host(const struct ltd_publish *p, char *buf, size_t size)
{
	char a[INET6_ADDRSTRLEN];

	inet_ntop(p->family, p->addr, a, sizeof(a));
	snprintf(buf, size, p->family == AF_INET6 ? "[%s]" : "%s", a);
}

void ltd_publish_format(const struct ltd_publish *p, char *buf, size_t size)
{
	char h[INET6_ADDRSTRLEN + 2];

	ltd_publish_host(p, h, sizeof(h));
	snprintf(buf, size, "%s:%u:%u", h, p->host_port, p->cage_port);
}

bool ltd_publish_loopback(const struct ltd_publish *p)
{
	static const unsigned char v6_lo[16] = {[15] = 1};

	return p->family == AF_INET ? p->addr[0] == 127
				    : memcmp(p->addr, v6_lo, 16) == 0;
}

int ltd_publish_add(struct ltd_publish **list, size_t *n,
		    const struct ltd_publish *p, const char *flag,
		    struct ltd_err *err)
{
	struct ltd_publish *v;
	char text[64];

	for (size_t i = 0; i < *n; i++) {
		const struct ltd_publish *q = &(*list)[i];

		/* pasta forwards a port once, whatever its address. */
		if (q->host_port == p->host_port) {
			ltd_publish_format(q, text, sizeof(text));
			return ltd_err_set(err, EINVAL,
					   "%s: host port %u is published "
					   "already (%s)",
					   flag, p->host_port, text);
		}
	}
	if (*n >= LTD_PUBLISH_MAX)
		return ltd_err_set(err, E2BIG, "%s: at most %d ports", flag,
				   LTD_PUBLISH_MAX);
	v = ltd_vec_push(list, *n);
	if (!v)
		return ltd_err_set(err, ENOMEM, "out of memory");
	*v = *p;
	(*n)++;
	return 0;
}
