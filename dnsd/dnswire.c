// SPDX-License-Identifier: GPL-2.0-or-later
#include "dnsd/dnswire.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int ltd_dnsw_encode(const struct ltd_dnsd_config *cfg, uint8_t **blob,
		    size_t *len, struct ltd_err *err)
{
	size_t nd = cfg->domains ? cfg->domains->n : 0;
	struct ltd_dnsw_head h = {
		.magic = LTD_DNSW_MAGIC,
		.version = LTD_DNSW_VERSION,
		.size_head = sizeof(h),
		.size_domain = sizeof(struct ltd_domain),
		.size_dest = sizeof(struct ltd_net_dest),
		.ttl_floor = cfg->ttl_floor,
		.ttl_ceiling = cfg->ttl_ceiling,
		.upstream_len = (uint32_t)cfg->upstream_len,
		.n_domains = nd,
		.n_static = cfg->n_static,
		.upstream = cfg->upstream,
		.quiet = cfg->quiet,
		.audit = cfg->audit != NULL,
		.host_names = cfg->host_names,
	};
	size_t sd = nd * sizeof(struct ltd_domain);
	size_t ss = cfg->n_static * sizeof(struct ltd_net_dest);
	uint8_t *b;

	if (nd > LTD_DNSW_MAX_ENTRIES || cfg->n_static > LTD_DNSW_MAX_ENTRIES)
		return ltd_err_set(err, E2BIG, "DNS filter: too many entries");
	b = malloc(sizeof(h) + sd + ss);
	if (!b)
		return ltd_err_set(err, ENOMEM, "out of memory");
	memcpy(b, &h, sizeof(h));
	if (sd)
		memcpy(b + sizeof(h), cfg->domains->v, sd);
	if (ss)
		memcpy(b + sizeof(h) + sd, cfg->static_dests, ss);
	*blob = b;
	*len = sizeof(h) + sd + ss;
	return 0;
}

static bool domain_ok(const struct ltd_domain *d)
{
	return memchr(d->name, '\0', sizeof(d->name)) &&
	       memchr(d->source, '\0', sizeof(d->source)) &&
	       d->n_ports <= LTD_DOMAIN_MAX_PORTS;
}

static bool dest_ok(const struct ltd_net_dest *d)
{
	return (d->family == AF_INET || d->family == AF_INET6) &&
	       d->prefix <= (d->family == AF_INET ? 32u : 128u) &&
	       d->n_ports <= LTD_NET_MAX_PORTS;
}

int ltd_dnsw_decode(const uint8_t *blob, size_t len,
		    struct ltd_dnsd_config *cfg, struct ltd_domains *domains,
		    bool *audit, struct ltd_err *err)
{
	struct ltd_dnsw_head h;
	size_t sd, ss;
	struct ltd_net_dest *dests = NULL;

	memset(cfg, 0, sizeof(*cfg));
	memset(domains, 0, sizeof(*domains));
	if (len < sizeof(h))
		goto bad;
	memcpy(&h, blob, sizeof(h));
	if (h.magic != LTD_DNSW_MAGIC || h.version != LTD_DNSW_VERSION ||
	    h.size_head != sizeof(h) ||
	    h.size_domain != sizeof(struct ltd_domain) ||
	    h.size_dest != sizeof(struct ltd_net_dest))
		return ltd_err_set(err, EPROTO,
				   "DNS filter: the configuration comes from "
				   "another build of ltd-native");
	if (h.n_domains > LTD_DNSW_MAX_ENTRIES ||
	    h.n_static > LTD_DNSW_MAX_ENTRIES ||
	    h.upstream_len > sizeof(h.upstream))
		goto bad;
	sd = h.n_domains * sizeof(struct ltd_domain);
	ss = h.n_static * sizeof(struct ltd_net_dest);
	if (len != sizeof(h) + sd + ss)
		goto bad;
	domains->v = sd ? malloc(sd) : NULL;
	dests = ss ? malloc(ss) : NULL;
	if ((sd && !domains->v) || (ss && !dests)) {
		free(domains->v);
		free(dests);
		domains->v = NULL;
		return ltd_err_set(err, ENOMEM, "out of memory");
	}
	if (sd)
		memcpy(domains->v, blob + sizeof(h), sd);
	if (ss)
		memcpy(dests, blob + sizeof(h) + sd, ss);
	domains->n = h.n_domains;
	for (size_t i = 0; i < h.n_domains; i++)
		if (!domain_ok(&domains->v[i]))
			goto bad_free;
	for (size_t i = 0; i < h.n_static; i++)
		if (!dest_ok(&dests[i]))
			goto bad_free;
	*cfg = (struct ltd_dnsd_config){
		.domains = domains,
		.static_dests = dests,
		.n_static = h.n_static,
		.upstream = h.upstream,
		.upstream_len = h.upstream_len,
		.ttl_floor = h.ttl_floor,
		.ttl_ceiling = h.ttl_ceiling,
		.quiet = h.quiet != 0,
		.host_names = h.host_names != 0,
	};
	*audit = h.audit != 0;
	return 0;
bad_free:
	free(domains->v);
	free(dests);
	memset(domains, 0, sizeof(*domains));
bad:
	return ltd_err_set(err, EPROTO,
			   "DNS filter: a damaged configuration (%zu bytes)",
			   len);
}

void ltd_dnsw_free(struct ltd_dnsd_config *cfg, struct ltd_domains *domains)
{
	free((void *)cfg->static_dests);
	free(domains->v);
	memset(cfg, 0, sizeof(*cfg));
	memset(domains, 0, sizeof(*domains));
}
