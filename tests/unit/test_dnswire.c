// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The DNS filter's configuration as the launcher hands it to ltd-dnsd:
 * what goes in comes out, and a blob of another build, of the wrong
 * length or with an entry overrunning its array is refused.
 */
#include <criterion/criterion.h>

#include <stdlib.h>
#include <string.h>

#include "dnsd/dnswire.h"

static struct ltd_err err;

static void sample(struct ltd_dnsd_config *cfg, struct ltd_domains *l,
		   struct ltd_net_dest d[2])
{
	memset(l, 0, sizeof(*l));
	cr_assert_eq(ltd_domains_add(l, "github.com:22,443", "cli", &err), 0);
	cr_assert_eq(ltd_domains_add(l, "*.npmjs.org", "file:3", &err), 0);
	cr_assert_eq(ltd_cidr_dest_parse("192.0.2.0/24:443", "x", &d[0], &err),
		     0);
	cr_assert_eq(ltd_cidr_dest_parse("2001:db8::/32", "x", &d[1], &err), 0);
	*cfg = (struct ltd_dnsd_config){
		.domains = l,
		.static_dests = d,
		.n_static = 2,
		.ttl_floor = 5,
		.ttl_ceiling = 3600,
		.quiet = true,
		.host_names = true,
		.audit = stderr,
	};
	cr_assert_eq(ltd_dns_upstream_parse("127.0.0.1:5353", &cfg->upstream,
					    &cfg->upstream_len, &err),
		     0);
}

Test(dnswire, round_trip)
{
	struct ltd_dnsd_config cfg, back;
	struct ltd_domains l, lb;
	struct ltd_net_dest d[2];
	uint8_t *blob = NULL;
	size_t len = 0;
	bool audit = false;

	sample(&cfg, &l, d);
	cr_assert_eq(ltd_dnsw_encode(&cfg, &blob, &len, &err), 0);
	cr_assert_eq(ltd_dnsw_decode(blob, len, &back, &lb, &audit, &err), 0,
		     "%s", err.msg);
	cr_assert(audit);
	cr_assert_null(back.audit); /* the helper opens its own */
	cr_assert_eq(back.domains, &lb);
	cr_assert_eq(lb.n, 2);
	cr_assert_str_eq(lb.v[0].name, "github.com");
	cr_assert_eq(lb.v[0].n_ports, 2);
	cr_assert_eq(lb.v[0].ports[0], 22);
	cr_assert(lb.v[1].wildcard);
	cr_assert_str_eq(lb.v[1].source, "file:3");
	cr_assert_eq(back.n_static, 2);
	cr_assert_eq(memcmp(back.static_dests, d, sizeof(d)), 0);
	cr_assert_eq(back.upstream_len, cfg.upstream_len);
	cr_assert_eq(memcmp(&back.upstream, &cfg.upstream, cfg.upstream_len),
		     0);
	cr_assert_eq(back.ttl_floor, 5);
	cr_assert_eq(back.ttl_ceiling, 3600);
	cr_assert(back.quiet);
	cr_assert(back.host_names);
	ltd_dnsw_free(&back, &lb);
	free(blob);
	free(l.v);
}

Test(dnswire, empty_lists_and_no_audit)
{
	struct ltd_dnsd_config cfg = {.ttl_floor = 30}, back;
	struct ltd_domains lb;
	uint8_t *blob = NULL;
	size_t len = 0;
	bool audit = true;

	cr_assert_eq(ltd_dnsw_encode(&cfg, &blob, &len, &err), 0);
	cr_assert_eq(len, sizeof(struct ltd_dnsw_head));
	cr_assert_eq(ltd_dnsw_decode(blob, len, &back, &lb, &audit, &err), 0);
	cr_assert_not(audit);
	cr_assert_eq(lb.n, 0);
	cr_assert_eq(back.n_static, 0);
	cr_assert_eq(back.upstream_len, 0);
	ltd_dnsw_free(&back, &lb);
	free(blob);
}

Test(dnswire, damaged_or_foreign_blobs_are_refused)
{
	struct ltd_dnsd_config cfg, back;
	struct ltd_domains l, lb;
	struct ltd_net_dest d[2];
	struct ltd_dnsw_head *h;
	uint8_t *blob = NULL;
	size_t len = 0;
	bool audit;

	sample(&cfg, &l, d);
	cr_assert_eq(ltd_dnsw_encode(&cfg, &blob, &len, &err), 0);
	h = (struct ltd_dnsw_head *)blob;

	/* Truncated, too long, shorter than a header. */
	cr_assert_lt(ltd_dnsw_decode(blob, len - 1, &back, &lb, &audit, &err),
		     0);
	cr_assert_lt(ltd_dnsw_decode(blob, 10, &back, &lb, &audit, &err), 0);
	cr_assert_lt(ltd_dnsw_decode(blob, len + 1, &back, &lb, &audit, &err),
		     0);
	/* Another build: a struct of another size. */
	h->size_domain++;
	cr_assert_lt(ltd_dnsw_decode(blob, len, &back, &lb, &audit, &err), 0);
	cr_assert(strstr(err.msg, "another build"), "%s", err.msg);
	h->size_domain--;
	h->magic ^= 1;
	cr_assert_lt(ltd_dnsw_decode(blob, len, &back, &lb, &audit, &err), 0);
	h->magic ^= 1;
	/* A count that the length does not carry. */
	h->n_static = 3;
	cr_assert_lt(ltd_dnsw_decode(blob, len, &back, &lb, &audit, &err), 0);
	h->n_static = 2;
	h->upstream_len = sizeof(h->upstream) + 1;
	cr_assert_lt(ltd_dnsw_decode(blob, len, &back, &lb, &audit, &err), 0);
	h->upstream_len = (uint32_t)cfg.upstream_len;
	/* A name without its NUL; a port count past the array. */
	struct ltd_domain *dom = (struct ltd_domain *)(blob + sizeof(*h));

	memset(dom[0].name, 'a', sizeof(dom[0].name));
	cr_assert_lt(ltd_dnsw_decode(blob, len, &back, &lb, &audit, &err), 0);
	strcpy(dom[0].name, "github.com");
	dom[1].n_ports = LTD_DOMAIN_MAX_PORTS + 1;
	cr_assert_lt(ltd_dnsw_decode(blob, len, &back, &lb, &audit, &err), 0);
	dom[1].n_ports = 2;
	cr_assert_eq(ltd_dnsw_decode(blob, len, &back, &lb, &audit, &err), 0,
		     "%s", err.msg);
	ltd_dnsw_free(&back, &lb);
	free(blob);
	free(l.v);
}
