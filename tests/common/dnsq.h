/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A DNS query on the wire, for the unit tests of the DNS filter. */
#ifndef LTD_TESTS_DNSQ_H
#define LTD_TESTS_DNSQ_H

#include <stddef.h>
#include <stdint.h>

#include <ldns/ldns.h>

/* A query for @name of type @t with @id and RD; *@len its length. */
uint8_t *fx_query_wire(const char *name, ldns_rr_type t, uint16_t id,
		       size_t *len);

#endif
