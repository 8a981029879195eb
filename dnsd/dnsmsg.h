/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * DNS messages for the filter, through ldns: the decision on a query from
 * the cage (the untrusted side: every byte goes through ldns's parser, and
 * only what ldns understood is forwarded, re-serialized), and the
 * addresses an upstream answer gives for the name asked (following CNAME
 * chains inside the answer).  Pure: buffers in, buffers out; the fuzz
 * target (fuzz/dns_query.c) drives ltd_dns_query_decide().
 */
#ifndef LTD_NET_DNSMSG_H
#define LTD_NET_DNSMSG_H

#include <stddef.h>
#include <stdint.h>

#include "policy/domains.h"

enum ltd_dns_verdict {
	LTD_DNS_DROP = 0, /* not a DNS query ldns can read: no answer */
	LTD_DNS_REFUSE,	  /* refused: answered at once (NXDOMAIN for a name
			     outside the allowlist), never forwarded */
	LTD_DNS_FORWARD,  /* allowed: send wire to the upstream */
	LTD_DNS_LOCAL,	  /* the host's names: answered here, not a refusal */
};

/* What the filter answers itself (ltd_dns_query_decide()'s @flags). */
enum {
	/* The host is reachable (a host port is allowed): its names
	 * (netfilter/pasta.h: LTD_NET_HOST_NAME*) are answered with the
	 * gateway's IPv4 address, as the cage's /etc/hosts has them, and NODATA
	 * for any other type. Without it they are refused like any name outside
	 * the allowlist. Either way they never go upstream. */
	LTD_DNS_HOST_NAMES = 1 << 0,
};

struct ltd_dns_query {
	enum ltd_dns_verdict verdict;
	char name[LTD_DOMAIN_MAX]; /* lower case, no final dot; "" if none */
	uint16_t qtype;
	uint16_t id;		       /* the client's */
	const char *why;	       /* for a refusal or a drop */
	const struct ltd_domain *rule; /* the entry that admitted it */
	uint16_t ports[LTD_DOMAIN_MAX_PORTS];
	size_t n_ports;
	uint8_t *wire; /* REFUSE, LOCAL: the reply; FORWARD: the query
			  (malloc) */
	size_t len;
};

/*
 * Decide on the query in @buf.  A name outside the allowlist is answered
 * NXDOMAIN, whatever the type (docs/decisions/0108-dns-nxdomain-outside-
 * allowlist.md); another class than IN, REFUSED; another opcode, NOTIMP;
 * other than one question, FORMERR.  A forwarded query carries
 * @upstream_id instead of the client's id.  @flags: LTD_DNS_*.  Returns 0
 * (see q->verdict) or -ENOMEM.  Free q->wire with free().
 */
int ltd_dns_query_decide(const struct ltd_domains *l, unsigned flags,
			 const uint8_t *buf, size_t len, uint16_t upstream_id,
			 struct ltd_dns_query *q);

/* A SERVFAIL reply, with id @id, to the query in @buf (a forwarded one). */
int ltd_dns_servfail(const uint8_t *buf, size_t len, uint16_t id, uint8_t **out,
		     size_t *out_len);

struct ltd_dns_addr {
	int family; /* AF_INET or AF_INET6 */
	uint8_t addr[16];
	uint32_t ttl; /* as the answer gives it */
};

/*
 * Every record's TTL in the message @buf lowered to at most @ceiling, in
 * place (EDNS's OPT record, whose TTL field holds flags, is left alone):
 * a client then caches an address no longer than the firewall keeps it
 * open.  -EBADMSG for a message that does not hold together (nothing is
 * to be relayed then).
 */
int ltd_dns_cap_ttls(uint8_t *buf, size_t len, uint32_t ceiling);

/*
 * The A and AAAA records of the answer in @buf for @name: owned by @name
 * or by a name that a CNAME chain in the answer leads to from it.  The
 * answer must carry @id, be a response, and ask @name.  At most @max.
 * Returns the rcode (>= 0), or -EBADMSG for an answer to something else.
 */
int ltd_dns_answer_addrs(const uint8_t *buf, size_t len, uint16_t id,
			 const char *name, struct ltd_dns_addr *out, size_t max,
			 size_t *n);

/* "A", "AAAA", "TYPE65"... into @buf. */
const char *ltd_dns_type_str(uint16_t type, char *buf, size_t size);

#endif
