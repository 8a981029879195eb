// SPDX-License-Identifier: GPL-2.0-or-later
#include "tests/common/dnsq.h"

#include <criterion/criterion.h>

uint8_t *fx_query_wire(const char *name, ldns_rr_type t, uint16_t id,
		       size_t *len)
{
	ldns_rdf *dn = ldns_dname_new_frm_str(name);
	ldns_pkt *q;
	uint8_t *wire = NULL;

	cr_assert_not_null(dn, "%s", name);
	q = ldns_pkt_query_new(dn, t, LDNS_RR_CLASS_IN, LDNS_RD);
	cr_assert_not_null(q);
	ldns_pkt_set_id(q, id);
	cr_assert_eq(ldns_pkt2wire(&wire, q, len), LDNS_STATUS_OK);
	ldns_pkt_free(q);
	return wire;
}
