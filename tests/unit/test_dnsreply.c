// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The DNS filter's own answers (dnsd/dnsmsg.c): NXDOMAIN for a name
 * outside the allowlist, for every type, well-formed
 * (docs/decisions/0108-dns-nxdomain-outside-allowlist.md); the other
 * rcodes; the host's names answered as /etc/hosts has them
 * (docs/decisions/0109-dns-host-names-answered-here.md).  Queries are
 * built with ldns, as a client would send them.
 */
#include <criterion/criterion.h>

#include <arpa/inet.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <ldns/ldns.h>

#include "dnsd/dnsmsg.h"
#include "policy/domains.h"
#include "tests/common/dnsq.h"

static struct ltd_domains list(const char *const *entries)
{
	struct ltd_domains l = {0};
	struct ltd_err err = {0};

	for (; *entries; entries++)
		cr_assert_eq(ltd_domains_add(&l, *entries, "test", &err), 0,
			     "%s: %s", *entries, err.msg);
	return l;
}

static const char *const query_list[] = {"ok.test", "*.cdn.test:8443", NULL};

static ldns_pkt *parse_pkt(const uint8_t *wire, size_t len)
{
	ldns_pkt *p = NULL;

	cr_assert_eq(ldns_wire2pkt(&p, wire, len), LDNS_STATUS_OK);
	return p;
}

/* @rr's owner is @name, letter case and all. */
static bool owner_is(const ldns_rr *rr, const char *name)
{
	ldns_rdf *want = ldns_dname_new_frm_str(name);
	bool same =
		want &&
		ldns_rdf_size(want) == ldns_rdf_size(ldns_rr_owner(rr)) &&
		memcmp(ldns_rdf_data(want), ldns_rdf_data(ldns_rr_owner(rr)),
		       ldns_rdf_size(want)) == 0;

	ldns_rdf_deep_free(want);
	return same;
}

/* A query as a client builds it, with a type, class, RD, CD and EDNS of
 * the test's choosing. */
static uint8_t *query_wire_ex(const char *name, ldns_rr_type t, ldns_rr_class c,
			      uint16_t id, bool rd, bool cd, bool edns,
			      size_t *len)
{
	ldns_rdf *dn = ldns_dname_new_frm_str(name);
	ldns_pkt *q;
	uint8_t *wire = NULL;

	cr_assert_not_null(dn, "%s", name);
	q = ldns_pkt_query_new(dn, t, c, rd ? LDNS_RD : 0);
	cr_assert_not_null(q);
	ldns_pkt_set_id(q, id);
	ldns_pkt_set_cd(q, cd);
	if (edns)
		ldns_pkt_set_edns_udp_size(q, 4096);
	cr_assert_eq(ldns_pkt2wire(&wire, q, len), LDNS_STATUS_OK);
	ldns_pkt_free(q);
	return wire;
}

/*
 * A name outside the allowlist: NXDOMAIN, for every type, at once (glibc
 * turns REFUSED into EAI_AGAIN and clients retry; NXDOMAIN is EAI_NONAME:
 * docs/decisions/0108-dns-nxdomain-outside-allowlist.md).  Well-formed:
 * the client's id, QR, the opcode, RD and CD as asked, RA, the question
 * echoed, nothing in the answer or authority sections.
 */
Test(reply, outside_is_nxdomain_for_every_type)
{
	static const ldns_rr_type types[] = {
		LDNS_RR_TYPE_A,	  LDNS_RR_TYPE_AAAA,  LDNS_RR_TYPE_MX,
		LDNS_RR_TYPE_TXT, LDNS_RR_TYPE_HTTPS, LDNS_RR_TYPE_ANY,
		LDNS_RR_TYPE_SOA, LDNS_RR_TYPE_NS,
	};
	struct ltd_domains l = list(query_list);

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		bool rd = i % 2 == 0, cd = i % 3 == 0;
		struct ltd_dns_query q;
		size_t len;
		uint8_t *w =
			query_wire_ex("Cdn.Test.", types[i], LDNS_RR_CLASS_IN,
				      (uint16_t)(77 + i), rd, cd, false, &len);
		ldns_pkt *r;
		ldns_rr *qr;

		cr_assert_eq(ltd_dns_query_decide(&l, 0, w, len, 1, &q), 0);
		cr_assert_eq(q.verdict, LTD_DNS_REFUSE, "type %d", types[i]);
		cr_assert_str_eq(q.name, "cdn.test");
		cr_assert_str_eq(q.why, "not in the allowlist");
		r = parse_pkt(q.wire, q.len);
		cr_assert_eq(ldns_pkt_id(r), 77 + i, "the client's own id");
		cr_assert(ldns_pkt_qr(r));
		cr_assert_eq(ldns_pkt_get_opcode(r), LDNS_PACKET_QUERY);
		cr_assert_eq(ldns_pkt_get_rcode(r), LDNS_RCODE_NXDOMAIN,
			     "type %d: rcode %d", types[i],
			     ldns_pkt_get_rcode(r));
		cr_assert_eq(ldns_pkt_rd(r), rd, "RD as asked");
		cr_assert_eq(ldns_pkt_cd(r), cd, "CD as asked");
		cr_assert(ldns_pkt_ra(r), "a recursive resolver's answer");
		cr_assert_not(ldns_pkt_aa(r));
		cr_assert_not(ldns_pkt_tc(r));
		cr_assert_eq(ldns_pkt_qdcount(r), 1, "the question is echoed");
		qr = ldns_rr_list_rr(ldns_pkt_question(r), 0);
		cr_assert_eq(ldns_rr_get_type(qr), types[i]);
		cr_assert_eq(ldns_rr_get_class(qr), LDNS_RR_CLASS_IN);
		cr_assert(owner_is(qr, "Cdn.Test."), "as asked");
		cr_assert_eq(ldns_pkt_ancount(r) + ldns_pkt_nscount(r) +
				     ldns_pkt_arcount(r),
			     0, "no SOA: nothing to cache a denial by");
		cr_assert_not(ldns_pkt_edns(r), "no EDNS unless asked");
		ldns_pkt_free(r);
		free(q.wire);
		free(w);
	}
	ltd_domains_free(&l);
}

/* A query with EDNS gets an EDNS record back: our buffer size, no DO. */
Test(reply, edns_is_echoed_on_a_refusal)
{
	struct ltd_domains l = list(query_list);
	struct ltd_dns_query q;
	size_t len;
	uint8_t *w =
		query_wire_ex("evil.test.", LDNS_RR_TYPE_A, LDNS_RR_CLASS_IN, 9,
			      true, false, true, &len);
	ldns_pkt *r;

	cr_assert_eq(ltd_dns_query_decide(&l, 0, w, len, 1, &q), 0);
	r = parse_pkt(q.wire, q.len);
	cr_assert_eq(ldns_pkt_get_rcode(r), LDNS_RCODE_NXDOMAIN);
	cr_assert(ldns_pkt_edns(r));
	cr_assert_eq(ldns_pkt_edns_udp_size(r), 1232);
	cr_assert_not(ldns_pkt_edns_do(r));
	ldns_pkt_free(r);
	free(q.wire);
	free(w);
	ltd_domains_free(&l);
}

/* Another class than IN is no host lookup: REFUSED, still counted. */
Test(reply, another_class_is_refused)
{
	struct ltd_domains l = list(query_list);
	struct ltd_dns_query q;
	size_t len;
	uint8_t *w =
		query_wire_ex("ok.test.", LDNS_RR_TYPE_TXT, LDNS_RR_CLASS_CH, 3,
			      true, false, false, &len);
	ldns_pkt *r;

	cr_assert_eq(ltd_dns_query_decide(&l, 0, w, len, 1, &q), 0);
	cr_assert_eq(q.verdict, LTD_DNS_REFUSE, "an allowed name, not IN");
	cr_assert_str_eq(q.why, "not class IN");
	r = parse_pkt(q.wire, q.len);
	cr_assert_eq(ldns_pkt_get_rcode(r), LDNS_RCODE_REFUSED);
	ldns_pkt_free(r);
	free(q.wire);
	free(w);
	ltd_domains_free(&l);
}

/* Not one question: FORMERR, and NOTIMP for another opcode, as before. */
Test(reply, malformed_questions_keep_their_rcodes)
{
	struct ltd_domains l = list(query_list);
	struct ltd_dns_query q;
	size_t len;
	uint8_t *w = fx_query_wire("ok.test.", LDNS_RR_TYPE_A, 5, &len);
	ldns_pkt *p = parse_pkt(w, len), *r;
	uint8_t *w2 = NULL;

	ldns_pkt_set_opcode(p, LDNS_PACKET_STATUS);
	cr_assert_eq(ldns_pkt2wire(&w2, p, &len), LDNS_STATUS_OK);
	cr_assert_eq(ltd_dns_query_decide(&l, 0, w2, len, 1, &q), 0);
	cr_assert_eq(q.verdict, LTD_DNS_REFUSE);
	r = parse_pkt(q.wire, q.len);
	cr_assert_eq(ldns_pkt_get_rcode(r), LDNS_RCODE_NOTIMPL);
	ldns_pkt_free(r);
	free(q.wire);
	free(w2);
	w2 = NULL;
	ldns_pkt_set_opcode(p, LDNS_PACKET_QUERY);
	ldns_pkt_push_rr(
		p, LDNS_SECTION_QUESTION,
		ldns_rr_clone(ldns_rr_list_rr(ldns_pkt_question(p), 0)));
	cr_assert_eq(ldns_pkt2wire(&w2, p, &len), LDNS_STATUS_OK);
	cr_assert_eq(ltd_dns_query_decide(&l, 0, w2, len, 1, &q), 0);
	r = parse_pkt(q.wire, q.len);
	cr_assert_eq(ldns_pkt_get_rcode(r), LDNS_RCODE_FORMERR);
	ldns_pkt_free(r);
	free(q.wire);
	free(w2);
	ldns_pkt_free(p);
	free(w);
	ltd_domains_free(&l);
}

/*
 * The host's names, with a host port allowed: A is the gateway, as the
 * cage's /etc/hosts says; AAAA (and any other type) has no data: NOERROR
 * with an empty answer, not a refusal.  Never forwarded, even when an
 * allowlist entry would admit them.
 */
/* ltd_dns_query_decide on a query for @name of @type: its verdict must be
 * @want; the answer made here, parsed (NULL when it is forwarded). */
static ldns_pkt *decide(const struct ltd_domains *l, unsigned flags,
			const char *name, ldns_rr_type type, uint16_t id,
			enum ltd_dns_verdict want)
{
	struct ltd_dns_query q;
	size_t len;
	uint8_t *w = fx_query_wire(name, type, id, &len);
	ldns_pkt *r = NULL;

	cr_assert_eq(ltd_dns_query_decide(l, flags, w, len, 1, &q), 0);
	cr_assert_eq(q.verdict, want, "%s", name);
	if (want != LTD_DNS_FORWARD)
		r = parse_pkt(q.wire, q.len);
	free(q.wire);
	free(w);
	return r;
}

Test(reply, host_names_are_answered_here)
{
	static const char *const wide[] = {"*.internal", "ok.test", NULL};
	struct ltd_domains l = list(wide);
	static const char *const names[] = {"host.ltd.internal.",
					    "HOST.docker.internal."};

	for (size_t i = 0; i < 2; i++) {
		ldns_pkt *r;
		ldns_rr *a;
		char text[INET_ADDRSTRLEN];

		r = decide(&l, LTD_DNS_HOST_NAMES, names[i], LDNS_RR_TYPE_A, 11,
			   LTD_DNS_LOCAL);
		cr_assert_eq(ldns_pkt_id(r), 11);
		cr_assert_eq(ldns_pkt_get_rcode(r), LDNS_RCODE_NOERROR);
		cr_assert(ldns_pkt_aa(r));
		cr_assert_eq(ldns_pkt_ancount(r), 1);
		a = ldns_rr_list_rr(ldns_pkt_answer(r), 0);
		cr_assert_eq(ldns_rr_get_type(a), LDNS_RR_TYPE_A);
		cr_assert(owner_is(a, names[i]), "the owner is the name asked");
		inet_ntop(AF_INET, ldns_rdf_data(ldns_rr_rdf(a, 0)), text,
			  sizeof(text));
		cr_assert_str_eq(text, "198.18.93.1", "the gateway");
		ldns_pkt_free(r);

		r = decide(&l, LTD_DNS_HOST_NAMES, names[i], LDNS_RR_TYPE_AAAA,
			   12, LTD_DNS_LOCAL);
		cr_assert_eq(ldns_pkt_get_rcode(r), LDNS_RCODE_NOERROR,
			     "AAAA: no data, not NXDOMAIN (the name exists)");
		cr_assert_eq(ldns_pkt_ancount(r), 0);
		cr_assert_eq(ldns_pkt_qdcount(r), 1);
		ldns_pkt_free(r);

		r = decide(&l, LTD_DNS_HOST_NAMES, names[i], LDNS_RR_TYPE_HTTPS,
			   13, LTD_DNS_LOCAL);
		cr_assert_eq(ldns_pkt_get_rcode(r), LDNS_RCODE_NOERROR);
		cr_assert_eq(ldns_pkt_ancount(r), 0);
		ldns_pkt_free(r);

		/* No host port: refused like any other name, not
		 * forwarded though "*.internal" would admit it. */
		r = decide(&l, 0, names[i], LDNS_RR_TYPE_A, 14, LTD_DNS_REFUSE);
		cr_assert_eq(ldns_pkt_get_rcode(r), LDNS_RCODE_NXDOMAIN);
		ldns_pkt_free(r);
	}
	/* Only those two names: another one below .internal is the
	 * allowlist's to decide. */
	decide(&l, LTD_DNS_HOST_NAMES, "other.ltd.internal.", LDNS_RR_TYPE_A,
	       15, LTD_DNS_FORWARD);
	ltd_domains_free(&l);
}
