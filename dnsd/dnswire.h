/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The DNS filter's configuration as the launcher hands it to ltd-dnsd
 * (cli/ltd-dnsd.c): one flat blob in a sealed memfd.  Both
 * executables are built from the same tree, so the blob is the structs as
 * they are in memory, framed by a header that names their sizes; a blob
 * from another build is refused, never misread.  Pure: tests feed it
 * buffers.
 *
 *   header | n_domains x struct ltd_domain | n_static x struct ltd_net_dest
 */
#ifndef LTD_NET_DNSWIRE_H
#define LTD_NET_DNSWIRE_H

#include <stddef.h>
#include <stdint.h>

#include "dnsd/dnsd.h"

#define LTD_DNSW_MAGIC	 0x6c74646e /* "ltdn" */
#define LTD_DNSW_VERSION 2
/* Far above any real list; bounds what a damaged blob could ask for. */
#define LTD_DNSW_MAX_ENTRIES 100000

struct ltd_dnsw_head {
	uint32_t magic, version;
	uint32_t size_head, size_domain, size_dest;
	uint32_t ttl_floor, ttl_ceiling;
	uint32_t upstream_len;
	uint64_t n_domains, n_static;
	struct sockaddr_storage upstream;
	uint8_t quiet, audit, host_names;
};

/* @cfg (its audit FILE only as "there is one") into a malloc'd blob. */
int ltd_dnsw_encode(const struct ltd_dnsd_config *cfg, uint8_t **blob,
		    size_t *len, struct ltd_err *err);

/*
 * The blob back into @cfg, whose domains point into @domains and whose
 * static destinations are malloc'd (free with ltd_dnsw_free()).  @audit
 * says whether the launcher passed an audit log.  Refuses a blob of
 * another build or of the wrong length, and entries that are not
 * NUL-terminated or exceed their arrays.
 */
int ltd_dnsw_decode(const uint8_t *blob, size_t len,
		    struct ltd_dnsd_config *cfg, struct ltd_domains *domains,
		    bool *audit, struct ltd_err *err);

void ltd_dnsw_free(struct ltd_dnsd_config *cfg, struct ltd_domains *domains);

#endif
