// SPDX-License-Identifier: GPL-2.0-or-later
#include "dnsd/dnsmsg.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <arpa/inet.h>
#include <ldns/ldns.h>

#include "common/cleanup.h"
#include "netfilter/pasta.h"

#define CHAIN_MAX 16 /* names a CNAME chain may pass through */
/* The EDNS buffer size our own answers offer: small, and no fragments. */
#define EDNS_SIZE 1232

static inline void pkt_freep(ldns_pkt **p)
{
	if (*p)
		ldns_pkt_free(*p);
}

#define _cleanup_pkt_ __attribute__((cleanup(pkt_freep)))

/*
 * A domain name (an rdf that ldns has already checked) as lower-case
 * text without the final dot.  False for a byte outside letters, digits,
 * '-' and '_': such a name can match no allowlist entry, and text with
 * escapes ("a\.b") could be mistaken for more labels than it has.
 */
static bool dname_text(const ldns_rdf *rdf, char *out, size_t size)
{
	const uint8_t *p;
	size_t len, o = 0;

	if (!rdf || ldns_rdf_get_type(rdf) != LDNS_RDF_TYPE_DNAME)
		return false;
	p = ldns_rdf_data(rdf);
	len = ldns_rdf_size(rdf);
	for (size_t i = 0; i < len;) {
		size_t l = p[i++];

		if (l == 0)
			break;
		if (l > 63 || i + l > len || o + l + 2 > size)
			return false;
		if (o)
			out[o++] = '.';
		for (size_t j = 0; j < l; j++) {
			char c = (char)p[i + j];

			if (c >= 'A' && c <= 'Z')
				c = (char)(c - 'A' + 'a');
			if (!((c >= 'a' && c <= 'z') ||
			      (c >= '0' && c <= '9') || c == '-' || c == '_'))
				return false;
			out[o++] = c;
		}
		i += l;
	}
	out[o] = '\0';
	return true;
}

/*
 * A reply to @q with @rcode: its id @id, opcode, question (when it has
 * one), RD and CD as asked, RA (the filter recurses for the names it
 * forwards), and an EDNS record when the query had one (our buffer size,
 * no DNSSEC: nothing we answer ourselves is signed).  No authority
 * section: see docs/decisions/0108-dns-nxdomain-outside-allowlist.md on
 * why an NXDOMAIN carries no SOA.  @answer, if not NULL, is added to the
 * answer section (taken over, also on failure).
 */
static int make_reply(const ldns_pkt *q, uint8_t rcode, uint16_t id,
		      ldns_rr *answer, uint8_t **wire, size_t *len)
{
	_cleanup_pkt_ ldns_pkt *r = ldns_pkt_new();
	ldns_rr_list *qs = ldns_pkt_question(q);

	if (!r) {
		ldns_rr_free(answer);
		return -ENOMEM;
	}
	ldns_pkt_set_id(r, id);
	ldns_pkt_set_qr(r, true);
	ldns_pkt_set_opcode(r, ldns_pkt_get_opcode(q));
	ldns_pkt_set_rd(r, ldns_pkt_rd(q));
	ldns_pkt_set_cd(r, ldns_pkt_cd(q));
	ldns_pkt_set_ra(r, true);
	ldns_pkt_set_rcode(r, rcode);
	if (ldns_rr_list_rr_count(qs) == 1) {
		ldns_rr *rr = ldns_rr_clone(ldns_rr_list_rr(qs, 0));

		if (!rr || !ldns_pkt_push_rr(r, LDNS_SECTION_QUESTION, rr)) {
			ldns_rr_free(rr);
			ldns_rr_free(answer);
			return -ENOMEM;
		}
	}
	if (answer) {
		/* Ours to say: the host's names are the cage's own. */
		ldns_pkt_set_aa(r, true);
		if (!ldns_pkt_push_rr(r, LDNS_SECTION_ANSWER, answer)) {
			ldns_rr_free(answer);
			return -ENOMEM;
		}
	}
	if (ldns_pkt_edns(q))
		ldns_pkt_set_edns_udp_size(r, EDNS_SIZE);
	return ldns_pkt2wire(wire, r, len) == LDNS_STATUS_OK ? 0 : -ENOMEM;
}

static bool is_host_name(const char *name)
{
	return strcmp(name, LTD_NET_HOST_NAME) == 0 ||
	       strcmp(name, LTD_NET_HOST_NAME_DOCKER) == 0;
}

/*
 * The host's names, answered as the cage's /etc/hosts has them: A is the
 * gateway (the host's loopback, at the allowed host ports), any other
 * type has no data (NOERROR, no answer: a client asking for AAAA goes on
 * with the A it got from /etc/hosts, instead of counting a refusal).
 */
static int make_host_answer(const ldns_pkt *q, const ldns_rr *question,
			    uint16_t id, uint8_t **wire, size_t *len)
{
	ldns_rr *a = NULL;
	ldns_rdf *owner, *addr;
	struct in_addr gw;

	if (ldns_rr_get_type(question) == LDNS_RR_TYPE_A) {
		inet_pton(AF_INET, LTD_NET_GW4, &gw);
		/* ldns_rr_new_frm_type() would hold an empty rdata slot. */
		a = ldns_rr_new();
		/* The owner as asked: a client may have mixed its case. */
		owner = ldns_rdf_clone(ldns_rr_owner(question));
		addr = ldns_rdf_new_frm_data(LDNS_RDF_TYPE_A, sizeof(gw), &gw);
		if (!a || !owner || !addr) {
			ldns_rr_free(a);
			ldns_rdf_deep_free(owner);
			ldns_rdf_deep_free(addr);
			return -ENOMEM;
		}
		ldns_rr_set_owner(a, owner);
		ldns_rr_set_type(a, LDNS_RR_TYPE_A);
		ldns_rr_set_class(a, LDNS_RR_CLASS_IN);
		ldns_rr_set_ttl(a, LTD_DNS_TTL_CEILING);
		if (!ldns_rr_push_rdf(a, addr)) {
			ldns_rdf_deep_free(addr);
			ldns_rr_free(a);
			return -ENOMEM;
		}
	}
	return make_reply(q, LDNS_RCODE_NOERROR, id, a, wire, len);
}

/*
 * The query the upstream gets: the one question, the RD and CD bits, the
 * EDNS buffer size and DO bit, and nothing else of what the cage sent
 * (no other sections, no EDNS options: nothing to carry data out in).
 */
static int make_forward(const ldns_pkt *q, uint16_t id, uint8_t **wire,
			size_t *len)
{
	_cleanup_pkt_ ldns_pkt *f = ldns_pkt_new();
	ldns_rr *rr;

	if (!f)
		return -ENOMEM;
	ldns_pkt_set_id(f, id);
	ldns_pkt_set_opcode(f, LDNS_PACKET_QUERY);
	ldns_pkt_set_rd(f, ldns_pkt_rd(q));
	ldns_pkt_set_cd(f, ldns_pkt_cd(q));
	rr = ldns_rr_clone(ldns_rr_list_rr(ldns_pkt_question(q), 0));
	if (!rr || !ldns_pkt_push_rr(f, LDNS_SECTION_QUESTION, rr)) {
		ldns_rr_free(rr);
		return -ENOMEM;
	}
	if (ldns_pkt_edns(q)) {
		uint16_t size = ldns_pkt_edns_udp_size(q);

		ldns_pkt_set_edns_udp_size(f, size < 512 ? 512 : size);
		ldns_pkt_set_edns_do(f, ldns_pkt_edns_do(q));
	}
	return ldns_pkt2wire(wire, f, len) == LDNS_STATUS_OK ? 0 : -ENOMEM;
}

/* Past the name at @off: its labels, or a compression pointer (which ends
 * it, and must point back into the message before the name).  0 when it
 * runs out of the message. */
static size_t skip_name(const uint8_t *buf, size_t len, size_t off)
{
	size_t start = off;

	while (off < len) {
		uint8_t l = buf[off];

		if ((l & 0xc0) == 0xc0) {
			size_t to;

			if (off + 2 > len)
				return 0;
			to = (size_t)(l & 0x3f) << 8 | buf[off + 1];
			return to < start ? off + 2 : 0;
		}
		if (l & 0xc0)
			return 0;
		off += 1 + (size_t)l;
		if (!l)
			return off <= len ? off : 0;
	}
	return 0;
}

/*
 * Walk the message's sections as the header counts them: every name,
 * fixed field and rdata inside @len.  With @ceiling, lower each record's
 * TTL to it in place (but OPT's, whose TTL field is EDNS flags); without
 * (a query to parse), refuse TSIG.  -EBADMSG for a message that does not
 * hold together.
 */
static int walk(uint8_t *buf, size_t len, const uint32_t *ceiling)
{
	size_t off = 12, qd, rr;

	if (len < 12)
		return -EBADMSG;
	qd = (size_t)buf[4] << 8 | buf[5];
	rr = ((size_t)buf[6] << 8 | buf[7]) + ((size_t)buf[8] << 8 | buf[9]) +
	     ((size_t)buf[10] << 8 | buf[11]);
	for (size_t i = 0; i < qd; i++) {
		off = skip_name(buf, len, off);
		if (!off || off + 4 > len)
			return -EBADMSG;
		off += 4;
	}
	for (size_t i = 0; i < rr; i++) {
		uint16_t type, rdlen;
		uint32_t ttl;

		off = skip_name(buf, len, off);
		if (!off || off + 10 > len)
			return -EBADMSG;
		type = (uint16_t)(buf[off] << 8 | buf[off + 1]);
		ttl = (uint32_t)buf[off + 4] << 24 |
		      (uint32_t)buf[off + 5] << 16 |
		      (uint32_t)buf[off + 6] << 8 | buf[off + 7];
		rdlen = (uint16_t)(buf[off + 8] << 8 | buf[off + 9]);
		/* A query from the cage signs nothing. */
		if (!ceiling && type == LDNS_RR_TYPE_TSIG)
			return -EBADMSG;
		if (ceiling && type != LDNS_RR_TYPE_OPT && ttl > *ceiling) {
			buf[off + 4] = (uint8_t)(*ceiling >> 24);
			buf[off + 5] = (uint8_t)(*ceiling >> 16);
			buf[off + 6] = (uint8_t)(*ceiling >> 8);
			buf[off + 7] = (uint8_t)*ceiling;
		}
		off += 10 + (size_t)rdlen;
		if (off > len)
			return -EBADMSG;
	}
	return 0;
}

int ltd_dns_cap_ttls(uint8_t *buf, size_t len, uint32_t ceiling)
{
	return walk(buf, len, &ceiling);
}

/* The offset of the answer section (past the question walk() checked). */
static size_t answer_start(const uint8_t *buf, size_t len)
{
	size_t off = 12, qd = (size_t)buf[4] << 8 | buf[5];

	for (size_t i = 0; i < qd; i++)
		off = skip_name(buf, len, off) + 4;
	return off;
}

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/*
 * The EDNS record of a message walk() has passed, found as each record's
 * rdlen frames it: the requester's buffer size (its class) and its flags
 * (its TTL, DO among them).  False when the additional section has none.
 */
static bool find_opt(const uint8_t *buf, size_t len, uint16_t *size,
		     bool *dnssec_ok)
{
	size_t off = answer_start(buf, len);
	size_t before = (size_t)rd16(buf + 6) + rd16(buf + 8);
	size_t n = before + rd16(buf + 10);

	for (size_t i = 0; i < n; i++) {
		size_t pos = skip_name(buf, len, off);

		if (i >= before && rd16(buf + pos) == LDNS_RR_TYPE_OPT) {
			*size = rd16(buf + pos + 2);
			*dnssec_ok = buf[pos + 6] & 0x80;
			return true;
		}
		off = pos + 10 + rd16(buf + pos + 8);
	}
	return false;
}

/*
 * A message that holds together (walk()), as ldns reads its header and
 * question, and nothing after them.  ldns reads a record's rdata by its
 * type's fields, not by its rdlen: a record longer than its fields (an A
 * of 5 bytes) puts it out of step with the message, and what it then
 * takes for a second TSIG record leaks the first (73 bytes a message,
 * found by the fuzz target; a section cut short leaked as well).  The
 * records after the question are read here, framed as the cage's
 * resolver frames them: the EDNS record by find_opt(), the answers by
 * next_rec().
 */
static ldns_status parse(ldns_pkt **p, const uint8_t *buf, size_t len)
{
	_cleanup_free_ uint8_t *head = NULL;
	uint16_t size;
	bool dnssec_ok;
	ldns_status s;
	size_t end;

	if (walk((uint8_t *)buf, len, NULL) < 0)
		return LDNS_STATUS_PACKET_OVERFLOW;
	end = answer_start(buf, len);
	head = malloc(end);
	if (!head)
		return LDNS_STATUS_MEM_ERR;
	memcpy(head, buf, end);
	memset(head + 6, 0, 6); /* no answer, authority or additional */
	s = ldns_wire2pkt(p, head, end);
	if (s == LDNS_STATUS_OK && find_opt(buf, len, &size, &dnssec_ok)) {
		/* Below 512 is 512 (RFC 6891), and a size says "EDNS". */
		ldns_pkt_set_edns_udp_size(*p, size < 512 ? 512 : size);
		ldns_pkt_set_edns_do(*p, dnssec_ok);
	}
	return s;
}

int ltd_dns_query_decide(const struct ltd_domains *l, unsigned flags,
			 const uint8_t *buf, size_t len, uint16_t upstream_id,
			 struct ltd_dns_query *q)
{
	_cleanup_pkt_ ldns_pkt *p = NULL;
	const ldns_rr *rr = NULL;
	uint8_t rcode = LDNS_RCODE_NXDOMAIN;

	memset(q, 0, sizeof(*q));
	if (len > 65535 || parse(&p, buf, len) != LDNS_STATUS_OK) {
		q->why = "malformed";
		return 0;
	}
	q->id = ldns_pkt_id(p);
	if (ldns_pkt_qr(p)) {
		q->why = "not a query";
		return 0;
	}
	q->verdict = LTD_DNS_REFUSE;
	if (ldns_pkt_get_opcode(p) != LDNS_PACKET_QUERY) {
		q->why = "not a standard query";
		rcode = LDNS_RCODE_NOTIMPL;
	} else if (ldns_rr_list_rr_count(ldns_pkt_question(p)) != 1) {
		q->why = "not one question";
		rcode = LDNS_RCODE_FORMERR;
	} else {
		rr = ldns_rr_list_rr(ldns_pkt_question(p), 0);
		q->qtype = (uint16_t)ldns_rr_get_type(rr);
		if (!dname_text(ldns_rr_owner(rr), q->name, sizeof(q->name))) {
			q->name[0] = '\0';
			q->why = "not a host name";
		} else if (ldns_rr_get_class(rr) != LDNS_RR_CLASS_IN) {
			/* A name of another class (CHAOS's version.bind) is
			 * not a lookup of a host: "will not" is the truth. */
			q->why = "not class IN";
			rcode = LDNS_RCODE_REFUSED;
		} else if (is_host_name(q->name)) {
			/* Never upstream: the host is the cage's to name. */
			if (flags & LTD_DNS_HOST_NAMES) {
				q->verdict = LTD_DNS_LOCAL;
				return make_host_answer(p, rr, q->id, &q->wire,
							&q->len);
			}
			q->why = "the host (no host port is allowed)";
		} else {
			q->rule = ltd_domains_match(l, q->name, q->ports,
						    &q->n_ports);
			q->why = q->rule ? NULL : "not in the allowlist";
		}
	}
	if (q->rule) {
		q->verdict = LTD_DNS_FORWARD;
		return make_forward(p, upstream_id, &q->wire, &q->len);
	}
	return make_reply(p, rcode, q->id, NULL, &q->wire, &q->len);
}

int ltd_dns_servfail(const uint8_t *buf, size_t len, uint16_t id, uint8_t **out,
		     size_t *out_len)
{
	_cleanup_pkt_ ldns_pkt *p = NULL;

	if (parse(&p, buf, len) != LDNS_STATUS_OK)
		return -EINVAL;
	return make_reply(p, LDNS_RCODE_SERVFAIL, id, NULL, out, out_len);
}

static bool in_chain(char names[][LTD_DOMAIN_MAX], size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], s) == 0)
			return true;
	return false;
}

/* One resource record as the wire frames it: its rdata is the @rdlen
 * bytes at @rd, whatever its type's fields say. */
struct rec {
	char owner[LTD_DOMAIN_MAX];
	bool owner_ok;
	uint16_t type, class;
	uint32_t ttl;
	size_t rd, rdlen;
};

/* The name at *@pos as text (dname_text), *@pos moved past it. */
static bool wire_name(const uint8_t *buf, size_t len, size_t *pos, char *out,
		      size_t size)
{
	ldns_rdf *rdf = NULL;
	bool ok;

	if (ldns_wire2dname(&rdf, buf, len, pos) != LDNS_STATUS_OK)
		return false;
	ok = dname_text(rdf, out, size);
	ldns_rdf_deep_free(rdf);
	return ok;
}

/* The record at *@off (a message walk() has passed), *@off past it. */
static void next_rec(const uint8_t *buf, size_t len, size_t *off, struct rec *r)
{
	size_t pos = *off;

	r->owner_ok = wire_name(buf, len, &pos, r->owner, sizeof(r->owner));
	pos = skip_name(buf, len, *off);
	r->type = (uint16_t)(buf[pos] << 8 | buf[pos + 1]);
	r->class = (uint16_t)(buf[pos + 2] << 8 | buf[pos + 3]);
	r->ttl = (uint32_t)buf[pos + 4] << 24 | (uint32_t)buf[pos + 5] << 16 |
		 (uint32_t)buf[pos + 6] << 8 | buf[pos + 7];
	r->rdlen = (size_t)buf[pos + 8] << 8 | buf[pos + 9];
	r->rd = pos + 10;
	*off = r->rd + r->rdlen;
}

/* A CNAME's target, when its rdata is exactly one name. */
static bool cname_target(const uint8_t *buf, const struct rec *r, char *out,
			 size_t size)
{
	size_t pos = r->rd;

	return r->type == LDNS_RR_TYPE_CNAME &&
	       wire_name(buf, r->rd + r->rdlen, &pos, out, size) &&
	       pos == r->rd + r->rdlen;
}

/* The names the CNAME chain from names[0] passes through, in whatever
 * order its records come. */
static size_t chain(const uint8_t *buf, size_t len, size_t ancount,
		    char names[][LTD_DOMAIN_MAX])
{
	size_t n_names = 1;
	bool grew = true;

	while (grew && n_names < CHAIN_MAX) {
		size_t off = answer_start(buf, len);

		grew = false;
		for (size_t i = 0; i < ancount && n_names < CHAIN_MAX; i++) {
			struct rec r;

			next_rec(buf, len, &off, &r);
			if (!r.owner_ok || !in_chain(names, n_names, r.owner) ||
			    !cname_target(buf, &r, names[n_names],
					  sizeof(names[0])) ||
			    in_chain(names, n_names, names[n_names]))
				continue;
			n_names++;
			grew = true;
		}
	}
	return n_names;
}

/*
 * The records are read as the cage's resolver reads them, each framed by
 * its rdlen: ldns's parser reads a record's fields and goes on from where
 * they end, so rdata longer than its fields (a CNAME's name followed by
 * bytes that frame an A record) showed it records the cage never sees,
 * with TTLs capping had not lowered (found by the fuzz target).
 */
int ltd_dns_answer_addrs(const uint8_t *buf, size_t len, uint16_t id,
			 const char *name, struct ltd_dns_addr *out, size_t max,
			 size_t *n)
{
	_cleanup_pkt_ ldns_pkt *p = NULL;
	char names[CHAIN_MAX][LTD_DOMAIN_MAX], owner[LTD_DOMAIN_MAX];
	size_t ancount, n_names, off;

	*n = 0;
	if (parse(&p, buf, len) != LDNS_STATUS_OK || ldns_pkt_id(p) != id ||
	    !ldns_pkt_qr(p) ||
	    ldns_rr_list_rr_count(ldns_pkt_question(p)) != 1 ||
	    !dname_text(ldns_rr_owner(ldns_rr_list_rr(ldns_pkt_question(p), 0)),
			owner, sizeof(owner)) ||
	    strcmp(owner, name) != 0)
		return -EBADMSG;
	snprintf(names[0], sizeof(names[0]), "%s", name);
	ancount = (size_t)buf[6] << 8 | buf[7];
	n_names = chain(buf, len, ancount, names);
	off = answer_start(buf, len);
	for (size_t i = 0; i < ancount && *n < max; i++) {
		struct ltd_dns_addr *a = &out[*n];
		struct rec r;

		next_rec(buf, len, &off, &r);
		if ((r.type != LDNS_RR_TYPE_A && r.type != LDNS_RR_TYPE_AAAA) ||
		    r.class != LDNS_RR_CLASS_IN || !r.owner_ok ||
		    !in_chain(names, n_names, r.owner) ||
		    r.rdlen != (r.type == LDNS_RR_TYPE_A ? 4u : 16u))
			continue;
		a->family = r.type == LDNS_RR_TYPE_A ? AF_INET : AF_INET6;
		memcpy(a->addr, buf + r.rd, r.rdlen);
		a->ttl = r.ttl;
		(*n)++;
	}
	return (int)ldns_pkt_get_rcode(p);
}

const char *ltd_dns_type_str(uint16_t type, char *buf, size_t size)
{
	char *s = ldns_rr_type2str((ldns_rr_type)type);

	snprintf(buf, size, "%s", s ? s : "?");
	free(s);
	return buf;
}
