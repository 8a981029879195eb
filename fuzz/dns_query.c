// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the DNS filter's untrusted input: every datagram
 * (or TCP message) the cage sends to its resolver goes through
 * ltd_dns_query_decide().  The answer side is fed the same bytes too
 * (an upstream is trusted less than it seems).  Checks beyond "no crash,
 * no leak, no out-of-bounds access" (ASan + UBSan):
 *   - a forwarded query was admitted by the allowlist, and what goes
 *     upstream parses as exactly one question for that same name;
 *   - a refusal parses and carries the client's id, and answers nothing;
 *     so does a local answer, but for the host's names' A record.
 *
 *   make fuzz            # with the other targets; corpus in build/
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ldns/ldns.h>

#include "dnsd/dnsmsg.h"
#include "policy/domains.h"

static struct ltd_domains list;

static void setup(void)
{
	struct ltd_err err = {0};

	if (list.n)
		return;
	if (ltd_domains_add(&list, "ok.test", "fuzz", &err) < 0 ||
	    ltd_domains_add(&list, "*.wild.test:22,443", "fuzz", &err) < 0 ||
	    ltd_domains_add_defaults(&list, &err) < 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ltd_dns_query q;
	struct ltd_dns_addr addrs[8];
	uint16_t ports[LTD_DOMAIN_MAX_PORTS];
	size_t n, np;
	ldns_pkt *p = NULL;

	setup();
	/* The host's names answered here on every other input. */
	if (ltd_dns_query_decide(&list, size % 2 ? LTD_DNS_HOST_NAMES : 0, data,
				 size, 0x4242, &q) < 0)
		return 0;
	if (q.verdict == LTD_DNS_FORWARD) {
		if (!ltd_domains_match(&list, q.name, ports, &np))
			abort(); /* forwarded a name the list does not admit */
		if (ldns_wire2pkt(&p, q.wire, q.len) != LDNS_STATUS_OK ||
		    ldns_pkt_id(p) != 0x4242 || ldns_pkt_qdcount(p) != 1 ||
		    ldns_pkt_ancount(p) || ldns_pkt_nscount(p))
			abort();
		/* The question upstream is the name we matched. */
		if (ltd_dns_answer_addrs(q.wire, q.len, 0x4242, q.name, addrs,
					 8, &n) != -EBADMSG)
			abort(); /* not a response: must be rejected */
		ldns_pkt_free(p);
	} else if (q.verdict == LTD_DNS_REFUSE || q.verdict == LTD_DNS_LOCAL) {
		if (ldns_wire2pkt(&p, q.wire, q.len) != LDNS_STATUS_OK ||
		    ldns_pkt_id(p) != q.id || !ldns_pkt_qr(p))
			abort();
		/* An answer only for the host's names, and only when asked. */
		if (ldns_pkt_ancount(p) &&
		    (q.verdict != LTD_DNS_LOCAL || !(size % 2)))
			abort();
		ldns_pkt_free(p);
	} else if (q.wire) {
		abort(); /* a drop answers nothing */
	}
	free(q.wire);
	/* The same bytes as an answer for a name of ours. */
	ltd_dns_answer_addrs(data, size,
			     size >= 2 ? (uint16_t)(data[0] << 8 | data[1]) : 0,
			     "ok.test", addrs, 8, &n);
	if (n > 8)
		abort();
	/* And its TTLs capped in place, as the filter relays it: within the
	 * message (ASan), and once is enough (capping again changes nothing;
	 * a compression pointer into a TTL may make the result unparseable,
	 * which a client then refuses: nothing is opened by it). */
	{
		uint8_t *once = malloc(size ? size : 1);
		uint8_t *twice = malloc(size ? size : 1);

		if (once && twice) {
			memcpy(once, data, size);
			if (ltd_dns_cap_ttls(once, size, 3600) == 0) {
				memcpy(twice, once, size);
				if (ltd_dns_cap_ttls(twice, size, 3600) != 0 ||
				    memcmp(once, twice, size) != 0)
					abort();
			}
		}
		free(once);
		free(twice);
	}
	return 0;
}
