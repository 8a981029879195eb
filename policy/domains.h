/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The domain allowlist: entries, their sources, the matcher and the TTL
 * clamp.  Pure (the file loader reads one file and nothing else), so the
 * launcher fills it before clone() and the unit tests feed it text.
 *
 * An entry is a name or a wildcard, optionally with ports:
 *   github.com            the name itself, TCP and UDP ports 80 and 443
 *   *.githubusercontent.com   any name below it (not the bare name, and
 *                         not evilgithubusercontent.com), ports 80,443
 *   github.com:22,443     the name, those ports only
 * Names are compared in lower case without a trailing dot.  Labels are
 * letters, digits, '-' and '_' (what registries and code hosts use); a
 * query for any other byte is refused, so "a\.github.com" (one label with
 * a dot in it) can never pass for a subdomain.
 */
#ifndef LTD_NET_DOMAINS_H
#define LTD_NET_DOMAINS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

#define LTD_DOMAIN_MAX	      254 /* 253 characters and the NUL */
#define LTD_DOMAIN_MAX_PORTS  16
#define LTD_DOMAIN_SOURCE_MAX 160

/* Ports of an entry given without any. */
#define LTD_DOMAIN_DEFAULT_PORTS                                               \
	{                                                                      \
		80, 443                                                        \
	}

/*
 * TTL clamp (seconds) for the addresses an answer opens.  Floor: CDNs
 * answer with TTLs of 0-20 s, and a client that connects a moment after
 * the answer (or retries once) must still get through.  Ceiling: an
 * address stays open at most an hour after the last lookup, so an address
 * a name no longer uses closes soon (CDN rotation) even when the zone
 * says a day.
 */
#define LTD_DNS_TTL_FLOOR   30
#define LTD_DNS_TTL_CEILING 3600

struct ltd_domain {
	char name[LTD_DOMAIN_MAX]; /* lower case, no "*." and no final dot */
	bool wildcard;		   /* "*.name": names below it only */
	size_t n_ports;
	uint16_t ports[LTD_DOMAIN_MAX_PORTS];
	char source[LTD_DOMAIN_SOURCE_MAX]; /* "built-in", "FILE:LINE"... */
};

struct ltd_domains {
	struct ltd_domain *v;
	size_t n;
};

/* Parse one entry "NAME[:PORTS]"; @source names it in errors. */
int ltd_domain_parse(const char *s, const char *source, struct ltd_domain *d,
		     struct ltd_err *err);

/* Parse and append one entry. */
int ltd_domains_add(struct ltd_domains *l, const char *s, const char *source,
		    struct ltd_err *err);

/* Append the baked-in list (package registries and code hosts). */
int ltd_domains_add_defaults(struct ltd_domains *l, struct ltd_err *err);

/*
 * Parse a file's text: one entry per line, '#' starts a comment, blank
 * lines ignored.  An error names "@path:LINE".
 */
int ltd_domains_parse_text(struct ltd_domains *l, const char *text,
			   const char *path, struct ltd_err *err);

/* Read @path and parse it.  @optional: a missing file is not an error. */
int ltd_domains_load_file(struct ltd_domains *l, const char *path,
			  bool optional, struct ltd_err *err);

void ltd_domains_free(struct ltd_domains *l);

/*
 * The first entry that admits @name, or NULL.  @ports (room for
 * LTD_DOMAIN_MAX_PORTS) receives the union of the ports of every entry
 * that admits it.
 */
const struct ltd_domain *ltd_domains_match(const struct ltd_domains *l,
					   const char *name, uint16_t *ports,
					   size_t *n_ports);

/* @ttl clamped to [@floor, @ceiling]. */
uint32_t ltd_dns_ttl_clamp(uint32_t ttl, uint32_t floor, uint32_t ceiling);

#endif
