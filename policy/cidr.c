// SPDX-License-Identifier: GPL-2.0-or-later
#include "policy/cidr.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

static int parse_port(const char *s, char **end, uint16_t *port)
{
	unsigned long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, end, 10);
	if (errno || v == 0 || v > 65535)
		return -EINVAL;
	*port = (uint16_t)v;
	return 0;
}

int ltd_cidr_ports_parse(const char *s, const char *flag,
			 struct ltd_net_ports *ports, size_t max, size_t *n,
			 struct ltd_err *err)
{
	const char *p = s;

	*n = 0;
	for (;;) {
		struct ltd_net_ports r;
		char *end;

		if (parse_port(p, &end, &r.lo) < 0)
			goto bad;
		r.hi = r.lo;
		if (*end == '-' && parse_port(end + 1, &end, &r.hi) < 0)
			goto bad;
		if (r.hi < r.lo)
			goto bad;
		if (*n == max)
			return ltd_err_set(err, E2BIG,
					   "%s: '%s': at most %zu port ranges",
					   flag, s, max);
		ports[(*n)++] = r;
		if (*end == '\0')
			return 0;
		if (*end != ',')
			goto bad;
		p = end + 1;
	}
bad:
	return ltd_err_set(err, EINVAL,
			   "%s: '%s' is not a port list (1-65535, e.g. "
			   "80,443,8000-8100)",
			   flag, s);
}

static int parse_prefix(const char *s, unsigned int max, unsigned int *out)
{
	unsigned long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

/* Split @s into address, prefix and ports text, in @buf. */
static int split(const char *s, char *buf, size_t size, char **addr,
		 char **prefix, char **ports)
{
	char *p;

	if (snprintf(buf, size, "%s", s) >= (int)size)
		return -ENAMETOOLONG;
	*addr = buf;
	*prefix = *ports = NULL;
	if (buf[0] == '[') {
		p = strchr(buf, ']');
		if (!p)
			return -EINVAL;
		*addr = buf + 1;
		*p++ = '\0';
	} else {
		/* A bare IPv6 address has colons of its own: its ports
		 * follow the prefix ("fd00::/64:443"), never the address. */
		p = strchr(buf, '/');
		if (!p && strchr(buf, ':') == strrchr(buf, ':'))
			p = strchr(buf, ':');
		if (!p)
			return 0;
	}
	if (*p == '/') {
		*p++ = '\0';
		*prefix = p;
		p = strchr(p, ':');
	}
	if (p && *p == ':') {
		*p++ = '\0';
		*ports = p;
	} else if (p && *p) {
		return -EINVAL;
	}
	return 0;
}

static bool host_bits_zero(const unsigned char *a, unsigned int bytes,
			   unsigned int prefix)
{
	for (unsigned int i = 0; i < bytes; i++) {
		unsigned int bits = prefix > i * 8 ? prefix - i * 8 : 0;
		unsigned char mask =
			bits >= 8 ? 0xff : (unsigned char)(0xff00 >> bits);

		if (a[i] & ~mask)
			return false;
	}
	return true;
}

int ltd_cidr_dest_parse(const char *s, const char *flag, struct ltd_net_dest *d,
			struct ltd_err *err)
{
	char buf[128], *addr, *prefix, *ports;
	unsigned int bytes, max;
	int ret;

	memset(d, 0, sizeof(*d));
	if (split(s, buf, sizeof(buf), &addr, &prefix, &ports) < 0)
		goto bad;
	if (inet_pton(AF_INET, addr, d->addr) == 1) {
		d->family = AF_INET;
		bytes = 4;
	} else if (inet_pton(AF_INET6, addr, d->addr) == 1) {
		d->family = AF_INET6;
		bytes = 16;
	} else {
		goto bad;
	}
	max = bytes * 8;
	d->prefix = max;
	if (prefix && parse_prefix(prefix, max, &d->prefix) < 0)
		goto bad;
	if (!host_bits_zero(d->addr, bytes, d->prefix))
		return ltd_err_set(err, EINVAL,
				   "%s: '%s' has host bits set beyond the "
				   "/%u prefix",
				   flag, s, d->prefix);
	if (ports) {
		ret = ltd_cidr_ports_parse(ports, flag, d->ports,
					   LTD_NET_MAX_PORTS, &d->n_ports, err);
		if (ret < 0)
			return ret;
	}
	return 0;
bad:
	return ltd_err_set(err, EINVAL,
			   "%s: '%s' is not CIDR[:PORTS] (e.g. 192.0.2.0/24, "
			   "192.0.2.7:443, fd00::/64:80,443 or [fd00::7]:443)",
			   flag, s);
}

void ltd_cidr_dest_format(const struct ltd_net_dest *d, char *buf, size_t size)
{
	char a[INET6_ADDRSTRLEN];
	size_t len;

	inet_ntop(d->family, d->addr, a, sizeof(a));
	len = (size_t)snprintf(buf, size, "%s/%u", a, d->prefix);
	for (size_t i = 0; i < d->n_ports && len < size; i++) {
		const struct ltd_net_ports *r = &d->ports[i];

		if (r->lo == r->hi)
			len += (size_t)snprintf(buf + len, size - len, "%c%u",
						i ? ',' : ':', r->lo);
		else
			len += (size_t)snprintf(buf + len, size - len,
						"%c%u-%u", i ? ',' : ':', r->lo,
						r->hi);
	}
}

bool ltd_cidr_addr_special(int family, const unsigned char a[16])
{
	static const unsigned char zero[16] = {0};

	if (family == AF_INET)
		return a[0] == 0 || a[0] == 127 || a[0] >= 224 ||
		       (a[0] == 169 && a[1] == 254) ||
		       (a[0] == 198 && (a[1] & 0xfe) == 18);
	if (family != AF_INET6)
		return true;
	if (!memcmp(a, zero, 15) && (a[15] == 0 || a[15] == 1))
		return true; /* ::, ::1 */
	if (!memcmp(a, zero, 10) && a[10] == 0xff && a[11] == 0xff)
		return true; /* ::ffff:a.b.c.d */
	return a[0] == 0xff || (a[0] == 0xfe && (a[1] & 0xc0) == 0x80) ||
	       (a[0] == 0xfd && a[1] == 0x4c && a[2] == 0x74 && a[3] == 0x64 &&
		a[4] == 0x6e && a[5] == 0x61);
}
