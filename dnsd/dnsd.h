/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The DNS filter the launcher serves (DESIGN.md section 4).  The cage's
 * /etc/resolv.conf names LTD_DNS_ADDR4; init binds UDP and TCP port 53
 * there in the cage's network namespace, opens a NETLINK_NETFILTER socket
 * there while it still holds CAP_NET_ADMIN, and hands all three to the
 * launcher (SCM_RIGHTS).  The launcher never enters the cage.
 *
 * For each query: a name outside the allowlist is answered NXDOMAIN at once
 * and never leaves the launcher (the host's names, with a host port
 * allowed, are answered as /etc/hosts has them); an allowed one goes to the
 * upstream resolver (UDP for UDP, TCP for TCP, so truncated answers work the
 * usual way); the A/AAAA addresses of the answer go into the cage's allow sets
 * with the entry's ports and a clamped TTL, the kernel's ack is read, and
 * only then is the answer relayed.
 *
 * Event-driven: the supervise loop polls the fds this module lists, so
 * signals are still relayed while a lookup is in flight.
 */
#ifndef LTD_NET_DNSD_H
#define LTD_NET_DNSD_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

#include "common/error.h"
#include "policy/cidr.h"
#include "policy/domains.h"

/* The resolver inside the cage: on its loopback, so it exists before pasta
 * has configured eth0, and no packet to it ever leaves the namespace. */
#define LTD_DNS_ADDR4 "127.0.0.53"
#define LTD_DNS_PORT  53

#define LTD_DNSD_MAX_PENDING 64
#define LTD_DNSD_MAX_CONNS   16
#define LTD_DNSD_MAX_REFUSED 32
#define LTD_DNSD_TIMEOUT_MS  5000
/* A TCP client with no lookup of its own and nothing sent in this long is
 * closed; when every slot is taken, the longest idle one gives way. */
#define LTD_DNSD_IDLE_MS     10000
#define LTD_DNSD_MAX_POLLFDS (2 + LTD_DNSD_MAX_CONNS + LTD_DNSD_MAX_PENDING)

struct ltd_dnsd_config {
	const struct ltd_domains *domains;
	const struct ltd_net_dest *static_dests; /* --allow-cidr */
	size_t n_static;
	struct sockaddr_storage upstream;
	socklen_t upstream_len; /* 0: no upstream; allowed names SERVFAIL */
	uint32_t ttl_floor, ttl_ceiling;
	FILE *audit; /* JSON lines, or NULL */
	bool quiet;
	bool host_names; /* a host port is allowed: LTD_DNS_HOST_NAMES */
};

struct ltd_dnsd_pending;
struct ltd_dnsd_conn;
struct ltd_nft_learned;

/* Opens the addresses an answer for @name learned; 0 once they are open. */
typedef int (*ltd_dnsd_learn_fn)(void *ctx, const char *name,
				 const struct ltd_nft_learned *l, size_t n,
				 struct ltd_err *err);

/* A non-blocking socket connected to the upstream (TCP: the connect may
 * be in progress), or a negative errno. */
typedef int (*ltd_dnsd_upstream_fn)(void *ctx, bool tcp, struct ltd_err *err);

struct ltd_dnsd {
	struct ltd_dnsd_config cfg;
	int udp, tcp;			  /* -1 until attached */
	struct ltd_dnsd_conn *conns;	  /* LTD_DNSD_MAX_CONNS */
	struct ltd_dnsd_pending *pending; /* LTD_DNSD_MAX_PENDING */
	struct {
		int kind, idx;
	} map[LTD_DNSD_MAX_POLLFDS];
	size_t n_map;
	struct {
		char name[LTD_DOMAIN_MAX];
		unsigned int count;
	} refused[LTD_DNSD_MAX_REFUSED];
	size_t n_refused;
	unsigned long total_refused, total_forwarded, nft_errors;
	/* Lookups the upstream left unanswered for LTD_DNSD_TIMEOUT_MS (the
	 * cage got SERVFAIL): said at exit, naming the upstream. */
	unsigned long upstream_timeouts;
	bool host_refused; /* the host's name, with no host port allowed */
	/* Required: learned addresses go there (the launcher, which holds
	 * the netfilter socket); upstream sockets come from there (the
	 * launcher opens them; the helper may not). */
	ltd_dnsd_learn_fn learn;
	void *learn_ctx;
	ltd_dnsd_upstream_fn upstream_socket;
	void *upstream_ctx;
};

/* Parse "ADDR[:PORT]", "[V6]:PORT" or a bare IPv6 address (port 53). */
int ltd_dns_upstream_parse(const char *s, struct sockaddr_storage *ss,
			   socklen_t *len, struct ltd_err *err);

/* The first nameserver of a resolv.conf; -ENOENT when it names none. */
int ltd_dns_upstream_from_resolv(const char *path, struct sockaddr_storage *ss,
				 socklen_t *len, struct ltd_err *err);

/*
 * In the cage's network namespace, with CAP_NET_ADMIN and
 * CAP_NET_BIND_SERVICE there: fds[0] UDP and fds[1] TCP (listening) on
 * LTD_DNS_ADDR4:53, fds[2] a NETLINK_NETFILTER socket.
 */
int ltd_dns_open_sockets(int fds[3], struct ltd_err *err);

int ltd_dnsd_init(struct ltd_dnsd *d, const struct ltd_dnsd_config *cfg,
		  struct ltd_err *err);

/* Take the cage's UDP and TCP sockets (ltd_dns_open_sockets()'s first
 * two; its netfilter socket stays with the launcher). */
void ltd_dnsd_attach(struct ltd_dnsd *d, const int fds[2]);

/* Fill up to @max pollfds; returns how many. */
size_t ltd_dnsd_pollfds(struct ltd_dnsd *d, struct pollfd *pfd, size_t max);

/* Handle what poll() reported on the fds of the last ltd_dnsd_pollfds(),
 * and time out lookups that waited too long. */
void ltd_dnsd_dispatch(struct ltd_dnsd *d, const struct pollfd *pfd, size_t n);

/* Milliseconds until the next lookup times out, or -1. */
int ltd_dnsd_timeout(const struct ltd_dnsd *d);

/* What the user should know at exit, on @out (nothing when there is
 * nothing to say, or quiet): the lookups the upstream did not answer,
 * naming it; the refused names. */
void ltd_dnsd_summary(const struct ltd_dnsd *d, FILE *out);

void ltd_dnsd_close(struct ltd_dnsd *d);

#endif
