// SPDX-License-Identifier: GPL-2.0-or-later
#include "policy/domains.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/vec.h"
#include "policy/cidr.h"

/*
 * The baked-in list: what an agent needs to install packages and fetch
 * code (the seed document's npm, PyPI, GitHub... kept short).  Anything
 * else is one --allow-domain away.
 */
static const char *const defaults[] = {
	/* npm */
	"registry.npmjs.org",
	/* PyPI */
	"pypi.org",
	"files.pythonhosted.org",
	/* GitHub: the site, its API and raw content, its registry */
	"github.com",
	"*.github.com",
	"*.githubusercontent.com",
	"ghcr.io",
	/* crates.io */
	"crates.io",
	"index.crates.io",
	"static.crates.io",
	/* the Go module proxy and checksum database */
	"proxy.golang.org",
	"sum.golang.org",
	/* Docker Hub */
	"registry-1.docker.io",
	"auth.docker.io",
	"production.cloudflare.docker.com",
};

static bool label_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
	       c == '_';
}

/* Lower-cased @s into @d->name, checked label by label. */
static int parse_name(const char *s, size_t len, const char *source,
		      struct ltd_domain *d, struct ltd_err *err)
{
	size_t label = 0;

	if (len >= 2 && s[0] == '*' && s[1] == '.') {
		d->wildcard = true;
		s += 2;
		len -= 2;
	}
	if (len > 0 && s[len - 1] == '.')
		len--; /* "github.com." is github.com */
	if (len == 0 || len > LTD_DOMAIN_MAX - 1)
		goto bad;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c == '.') {
			if (label == 0)
				goto bad;
			label = 0;
		} else if (label_char(c) && ++label <= 63) {
			;
		} else {
			goto bad;
		}
		d->name[i] = c;
	}
	if (label == 0)
		goto bad;
	d->name[len] = '\0';
	return 0;
bad:
	return ltd_err_set(err, EINVAL,
			   "%s: '%.*s' is not a domain name (letters, digits, "
			   "'-', '_' in labels of 1-63; '*.' only in front)",
			   source, (int)(len > 300 ? 300 : len), s);
}

int ltd_domain_parse(const char *s, const char *source, struct ltd_domain *d,
		     struct ltd_err *err)
{
	static const uint16_t def_ports[] = LTD_DOMAIN_DEFAULT_PORTS;
	const char *colon = strchr(s, ':');
	struct ltd_net_ports r[LTD_DOMAIN_MAX_PORTS];
	size_t n;
	int ret;

	memset(d, 0, sizeof(*d));
	snprintf(d->source, sizeof(d->source), "%s", source);
	ret = parse_name(s, colon ? (size_t)(colon - s) : strlen(s), source, d,
			 err);
	if (ret < 0)
		return ret;
	if (!colon) {
		d->n_ports = sizeof(def_ports) / sizeof(def_ports[0]);
		memcpy(d->ports, def_ports, sizeof(def_ports));
		return 0;
	}
	ret = ltd_cidr_ports_parse(colon + 1, source, r, LTD_DOMAIN_MAX_PORTS,
				   &n, err);
	if (ret < 0)
		return ret;
	for (size_t i = 0; i < n; i++) {
		/* An address learned from DNS becomes one set element per
		 * port: single ports never overlap another entry's. */
		if (r[i].lo != r[i].hi)
			return ltd_err_set(err, EINVAL,
					   "%s: '%s': a domain takes single "
					   "ports (80,443), not ranges",
					   source, s);
		d->ports[d->n_ports++] = r[i].lo;
	}
	return 0;
}

int ltd_domains_add(struct ltd_domains *l, const char *s, const char *source,
		    struct ltd_err *err)
{
	struct ltd_domain d, *v;
	int ret;

	ret = ltd_domain_parse(s, source, &d, err);
	if (ret < 0)
		return ret;
	v = ltd_vec_push(&l->v, l->n);
	if (!v)
		return ltd_err_set(err, ENOMEM, "out of memory");
	*v = d;
	l->n++;
	return 0;
}

int ltd_domains_add_defaults(struct ltd_domains *l, struct ltd_err *err)
{
	for (size_t i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++) {
		int ret = ltd_domains_add(l, defaults[i], "built-in", err);

		if (ret < 0)
			return ret;
	}
	return 0;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

int ltd_domains_parse_text(struct ltd_domains *l, const char *text,
			   const char *path, struct ltd_err *err)
{
	const char *p = text;
	unsigned int lineno = 0;

	while (*p) {
		const char *eol = strchrnul(p, '\n');
		const char *end = memchr(p, '#', (size_t)(eol - p));
		char line[512], source[LTD_DOMAIN_SOURCE_MAX];
		size_t len;
		int ret;

		lineno++;
		if (!end)
			end = eol;
		while (p < end && is_space(*p))
			p++;
		while (end > p && is_space(end[-1]))
			end--;
		len = (size_t)(end - p);
		snprintf(source, sizeof(source), "%s:%u", path, lineno);
		if (len >= sizeof(line))
			return ltd_err_set(err, EINVAL, "%s: line too long",
					   source);
		if (len > 0) {
			memcpy(line, p, len);
			line[len] = '\0';
			ret = ltd_domains_add(l, line, source, err);
			if (ret < 0)
				return ret;
		}
		p = *eol ? eol + 1 : eol;
	}
	return 0;
}

#define FILE_MAX (1 << 20)

int ltd_domains_load_file(struct ltd_domains *l, const char *path,
			  bool optional, struct ltd_err *err)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	struct stat st;

	if (fd < 0 && optional && errno == ENOENT)
		return 0;
	if (fd < 0)
		return ltd_err_sys(err, "allowed domains: '%s'", path);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return ltd_err_set(err, EINVAL,
				   "allowed domains: '%s' is not a file", path);
	text = malloc(FILE_MAX + 1);
	if (!text)
		return ltd_err_set(err, ENOMEM, "out of memory");
	for (;;) {
		ssize_t n = read(fd, text + len, FILE_MAX - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return ltd_err_sys(err, "allowed domains: read '%s'",
					   path);
		if (n == 0)
			break;
		len += (size_t)n;
		if (len == FILE_MAX)
			return ltd_err_set(err, EFBIG,
					   "allowed domains: '%s' is larger "
					   "than 1 MiB",
					   path);
	}
	text[len] = '\0';
	if (strlen(text) != len)
		return ltd_err_set(err, EINVAL,
				   "allowed domains: '%s' holds a NUL byte",
				   path);
	return ltd_domains_parse_text(l, text, path, err);
}

void ltd_domains_free(struct ltd_domains *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/* @name (lower case, no final dot) is what @d admits. */
static bool domain_matches(const struct ltd_domain *d, const char *name)
{
	size_t n = strlen(name), m = strlen(d->name);

	if (!d->wildcard)
		return n == m && memcmp(name, d->name, n) == 0;
	/* Below it: "x.NAME", at a label boundary, never NAME itself. */
	return n > m + 1 && name[n - m - 1] == '.' &&
	       memcmp(name + n - m, d->name, m) == 0;
}

const struct ltd_domain *ltd_domains_match(const struct ltd_domains *l,
					   const char *name, uint16_t *ports,
					   size_t *n_ports)
{
	const struct ltd_domain *first = NULL;

	*n_ports = 0;
	for (size_t i = 0; i < l->n; i++) {
		const struct ltd_domain *d = &l->v[i];

		if (!domain_matches(d, name))
			continue;
		if (!first)
			first = d;
		for (size_t j = 0; j < d->n_ports; j++) {
			bool seen = false;

			for (size_t k = 0; k < *n_ports; k++)
				seen |= ports[k] == d->ports[j];
			if (!seen && *n_ports < LTD_DOMAIN_MAX_PORTS)
				ports[(*n_ports)++] = d->ports[j];
		}
	}
	return first;
}

uint32_t ltd_dns_ttl_clamp(uint32_t ttl, uint32_t floor, uint32_t ceiling)
{
	if (ttl < floor)
		return floor;
	return ttl > ceiling ? ceiling : ttl;
}
