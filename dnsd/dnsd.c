// SPDX-License-Identifier: GPL-2.0-or-later
#include "dnsd/dnsd.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <ldns/ldns.h>

#include "common/cleanup.h"
#include "dnsd/dnsmsg.h"
#include "netfilter/audit.h"
#include "netfilter/pasta.h"
#include "netfilter/ruleset.h"

#define MSG_MAX	  65535
#define ADDRS_MAX 64 /* addresses one answer may open */

enum { K_UDP = 1, K_TCP, K_CONN, K_PEND };

/* A TCP client in the cage: length-prefixed messages. */
struct ltd_dnsd_conn {
	int fd; /* -1: free */
	unsigned int gen;
	int64_t last; /* when it last sent or was answered */
	size_t len;
	uint8_t buf[2 + MSG_MAX];
};

/* A query at the upstream. */
struct ltd_dnsd_pending {
	int fd; /* upstream socket; -1: free */
	bool tcp, connected;
	int64_t deadline;
	/* the client */
	struct sockaddr_storage client;
	socklen_t client_len;
	int conn;
	unsigned int conn_gen;
	uint16_t client_id, up_id;
	/* the question */
	char name[LTD_DOMAIN_MAX];
	uint16_t qtype;
	uint16_t ports[LTD_DOMAIN_MAX_PORTS];
	size_t n_ports;
	const char *rule;
	/* the query to send (TCP: with its length) and the answer so far */
	uint8_t *out;
	size_t out_len, out_off;
	uint8_t *in;
	size_t in_len;
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- audit and summary ------------------------------------------------- */

static void audit(struct ltd_dnsd *d, json_t *o)
{
	ltd_audit_emit(d->cfg.audit, o);
}

static void audit_query(struct ltd_dnsd *d, const struct ltd_dns_query *q,
			const char *verdict)
{
	char type[16];
	json_t *o;

	if (!d->cfg.audit)
		return;
	o = json_object();
	if (!o)
		return;
	json_object_set_new(o, "event", json_string("dns"));
	json_object_set_new(o, "name", json_string(q->name));
	json_object_set_new(
		o, "type",
		json_string(ltd_dns_type_str(q->qtype, type, sizeof(type))));
	json_object_set_new(o, "verdict", json_string(verdict));
	json_object_set_new(o, "rule",
			    q->rule ? json_string(q->rule->source)
				    : json_null());
	if (q->why)
		json_object_set_new(o, "reason", json_string(q->why));
	audit(d, o);
}

static void note_refused(struct ltd_dnsd *d, const char *name)
{
	d->total_refused++;
	if (strcmp(name, LTD_NET_HOST_NAME) == 0 ||
	    strcmp(name, LTD_NET_HOST_NAME_DOCKER) == 0)
		d->host_refused = true;
	for (size_t i = 0; i < d->n_refused; i++)
		if (strcmp(d->refused[i].name, name) == 0) {
			d->refused[i].count++;
			return;
		}
	if (d->n_refused < LTD_DNSD_MAX_REFUSED) {
		snprintf(d->refused[d->n_refused].name, LTD_DOMAIN_MAX, "%s",
			 name);
		d->refused[d->n_refused++].count = 1;
	}
}

/* An upstream that never answers leaves the cage with SERVFAILs and
 * nothing else to go on: the exit report says which upstream it was. */
static void upstream_summary(const struct ltd_dnsd *d, FILE *out)
{
	const struct sockaddr_storage *ss = &d->cfg.upstream;
	char addr[INET6_ADDRSTRLEN] = "?";
	unsigned port = 0;

	if (!d->upstream_timeouts)
		return;
	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *s4 = (const void *)ss;

		inet_ntop(AF_INET, &s4->sin_addr, addr, sizeof(addr));
		port = ntohs(s4->sin_port);
	} else if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const void *)ss;

		inet_ntop(AF_INET6, &s6->sin6_addr, addr, sizeof(addr));
		port = ntohs(s6->sin6_port);
	}
	fprintf(out,
		"ltd-native: DNS: the upstream %s%s%s:%u did not answer %lu "
		"quer%s (each waited %d s; the cage got SERVFAIL): check "
		"--dns-upstream (default: the first nameserver of the "
		"host's /etc/resolv.conf)\n",
		ss->ss_family == AF_INET6 ? "[" : "", addr,
		ss->ss_family == AF_INET6 ? "]" : "", port,
		d->upstream_timeouts, d->upstream_timeouts == 1 ? "y" : "ies",
		LTD_DNSD_TIMEOUT_MS / 1000);
}

void ltd_dnsd_summary(const struct ltd_dnsd *d, FILE *out)
{
	if (d->cfg.quiet)
		return;
	upstream_summary(d, out);
	if (d->total_refused == 0)
		return;
	fprintf(out,
		"ltd-native: DNS: refused %lu quer%s for names outside "
		"the allowlist:",
		d->total_refused, d->total_refused == 1 ? "y" : "ies");
	for (size_t i = 0; i < d->n_refused; i++) {
		fprintf(out, "%s %s", i ? "," : "",
			d->refused[i].name[0] ? d->refused[i].name
					      : "(not a host name)");
		if (d->refused[i].count > 1)
			fprintf(out, " (x%u)", d->refused[i].count);
	}
	fprintf(out, "%s\n",
		d->n_refused == LTD_DNSD_MAX_REFUSED ? ", ..." : "");
	fprintf(out, "ltd-native: allow a name with --allow-domain NAME or a "
		     "line in ~/.config/ltd-native/allowed-domains.txt\n");
	if (d->host_refused)
		fprintf(out, "ltd-native: " LTD_NET_HOST_NAME " is the host: "
			     "--allow-host-port PORT opens one of its ports "
			     "(and the name)\n");
	if (d->nft_errors)
		fprintf(out,
			"ltd-native: DNS: %lu answer%s could not open "
			"their addresses in the firewall\n",
			d->nft_errors, d->nft_errors == 1 ? "" : "s");
}

/* ---- replies ----------------------------------------------------------- */

static void conn_close(struct ltd_dnsd_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->len = 0;
	c->gen++;
}

/* Send @wire to the client: a datagram, or a framed message on @conn. */
static void reply(struct ltd_dnsd *d, const struct sockaddr_storage *to,
		  socklen_t to_len, int conn, unsigned int gen,
		  const uint8_t *wire, size_t len)
{
	if (conn < 0) {
		(void)!sendto(d->udp, wire, len, MSG_DONTWAIT | MSG_NOSIGNAL,
			      (const struct sockaddr *)to, to_len);
		return;
	}
	struct ltd_dnsd_conn *c = &d->conns[conn];
	uint8_t *msg;
	bool sent;

	if (c->fd < 0 || c->gen != gen)
		return; /* the client went away */
	/* One send() of the framed message: ltd-dnsd's filter allows
	 * sendmsg on the cage's UDP socket only. */
	msg = malloc(len + 2);
	if (msg) {
		msg[0] = (uint8_t)(len >> 8);
		msg[1] = (uint8_t)len;
		memcpy(msg + 2, wire, len);
	}
	/* Answers are small next to a socket buffer: a client that does
	 * not read loses its connection rather than stalling us. */
	sent = msg && send(c->fd, msg, len + 2, MSG_DONTWAIT | MSG_NOSIGNAL) ==
			      (ssize_t)(len + 2);
	free(msg);
	if (!sent)
		conn_close(c);
	else
		c->last = now_ms();
}

/* A lookup at the upstream is still to answer on connection @i. */
static bool conn_waiting(const struct ltd_dnsd *d, int i)
{
	for (size_t k = 0; k < LTD_DNSD_MAX_PENDING; k++) {
		const struct ltd_dnsd_pending *p = &d->pending[k];

		if ((p->fd >= 0 || p->out) && p->tcp && p->conn == i &&
		    p->conn_gen == d->conns[i].gen)
			return true;
	}
	return false;
}

/* ---- lookups at the upstream ------------------------------------------- */

static void pending_free(struct ltd_dnsd_pending *p)
{
	if (p->fd >= 0)
		close(p->fd);
	free(p->out);
	free(p->in);
	memset(p, 0, sizeof(*p));
	p->fd = -1;
}

static void pending_servfail(struct ltd_dnsd *d, struct ltd_dnsd_pending *p)
{
	uint8_t *wire = NULL;
	size_t len = 0, off = p->tcp ? 2 : 0;

	if (ltd_dns_servfail(p->out + off, p->out_len - off, p->client_id,
			     &wire, &len) == 0)
		reply(d, &p->client, p->client_len, p->tcp ? p->conn : -1,
		      p->conn_gen, wire, len);
	free(wire);
}

static void audit_addr(struct ltd_dnsd *d, const struct ltd_dnsd_pending *p,
		       const struct ltd_dns_addr *a, uint32_t timeout,
		       const char *verdict)
{
	char text[INET6_ADDRSTRLEN];
	json_t *o, *ports;

	if (!d->cfg.audit)
		return;
	o = json_object();
	ports = json_array();
	if (!o || !ports) {
		json_decref(o);
		json_decref(ports);
		return;
	}
	inet_ntop(a->family, a->addr, text, sizeof(text));
	for (size_t i = 0; i < p->n_ports; i++)
		json_array_append_new(ports, json_integer(p->ports[i]));
	json_object_set_new(o, "event", json_string("address"));
	json_object_set_new(o, "name", json_string(p->name));
	json_object_set_new(o, "address", json_string(text));
	json_object_set_new(o, "ports", ports);
	json_object_set_new(o, "ttl", json_integer(a->ttl));
	json_object_set_new(o, "timeout", json_integer(timeout));
	json_object_set_new(o, "verdict", json_string(verdict));
	json_object_set_new(o, "rule", json_string(p->rule));
	audit(d, o);
}

/*
 * The answer is in: open its addresses, wait for the kernel's ack, then
 * relay it.  An answer that does not parse as the answer to our question
 * is not relayed (UDP: we keep waiting for the real one until the
 * deadline).  Returns true when the lookup is over.
 */
static bool pending_answer(struct ltd_dnsd *d, struct ltd_dnsd_pending *p,
			   uint8_t *ans, size_t len)
{
	struct ltd_dns_addr addrs[ADDRS_MAX];
	struct ltd_nft_learned l[ADDRS_MAX];
	struct ltd_err err = {0};
	size_t n = 0;
	int rcode, ret;

	rcode = ltd_dns_answer_addrs(ans, len, p->up_id, p->name, addrs,
				     ADDRS_MAX, &n);
	if (rcode < 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		l[i] = (struct ltd_nft_learned){
			.family = addrs[i].family,
			.ports = p->ports,
			.n_ports = p->n_ports,
			.timeout_s = ltd_dns_ttl_clamp(addrs[i].ttl,
						       d->cfg.ttl_floor,
						       d->cfg.ttl_ceiling),
		};
		memcpy(l[i].addr, addrs[i].addr, 16);
	}
	/* The launcher opens them: it holds the netfilter socket. */
	ret = n ? d->learn(d->learn_ctx, p->name, l, n, &err) : 0;
	for (size_t i = 0; i < n; i++)
		audit_addr(d, p, &addrs[i], l[i].timeout_s,
			   ret < 0 ? "error" : "allowed");
	if (ret < 0) {
		/* The addresses are not open: say so to the client rather
		 * than hand it an answer that cannot connect. */
		d->nft_errors++; /* the launcher says why itself */
		pending_servfail(d, p);
		return true;
	}
	/* Cached no longer than the firewall keeps the addresses open. */
	if (ltd_dns_cap_ttls(ans, len, d->cfg.ttl_ceiling) < 0) {
		pending_servfail(d, p);
		return true;
	}
	ldns_write_uint16(ans, p->client_id);
	reply(d, &p->client, p->client_len, p->tcp ? p->conn : -1, p->conn_gen,
	      ans, len);
	return true;
}

static int pending_start(struct ltd_dnsd *d, struct ltd_dnsd_pending *p)
{
	struct ltd_err err = {0};
	int fd;

	/* Connected already, by the launcher: the helper may not. */
	fd = d->upstream_socket(d->upstream_ctx, p->tcp, &err);
	if (fd < 0)
		return fd;
	p->fd = fd;
	p->deadline = now_ms() + LTD_DNSD_TIMEOUT_MS;
	if (!p->tcp) {
		if (send(fd, p->out, p->out_len, MSG_NOSIGNAL) !=
		    (ssize_t)p->out_len)
			return -EIO;
		p->connected = true;
	}
	return 0;
}

/* The upstream socket is ready.  True when the lookup is over. */
static bool pending_io(struct ltd_dnsd *d, struct ltd_dnsd_pending *p,
		       short revents)
{
	ssize_t n;

	if (!p->tcp) {
		uint8_t buf[MSG_MAX];

		n = recv(p->fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0)
			return errno != EAGAIN && errno != EINTR;
		return pending_answer(d, p, buf, (size_t)n);
	}
	if (revents & POLLOUT && p->out_off < p->out_len) {
		n = send(p->fd, p->out + p->out_off, p->out_len - p->out_off,
			 MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n < 0)
			return errno != EAGAIN && errno != EINTR;
		p->out_off += (size_t)n;
		p->connected = true;
	}
	if (!(revents & (POLLIN | POLLHUP | POLLERR)))
		return false;
	if (!p->in && !(p->in = malloc(2 + MSG_MAX)))
		return true;
	n = recv(p->fd, p->in + p->in_len, 2 + MSG_MAX - p->in_len,
		 MSG_DONTWAIT);
	if (n < 0)
		return errno != EAGAIN && errno != EINTR;
	if (n == 0)
		return true; /* closed before a whole answer */
	p->in_len += (size_t)n;
	if (p->in_len >= 2) {
		size_t want = (size_t)p->in[0] << 8 | p->in[1];

		if (p->in_len >= 2 + want)
			return pending_answer(d, p, p->in + 2, want) || true;
	}
	return false;
}

/* ---- queries from the cage ---------------------------------------------- */

static void query(struct ltd_dnsd *d, const uint8_t *buf, size_t len,
		  const struct sockaddr_storage *from, socklen_t from_len,
		  int conn)
{
	struct ltd_dns_query q;
	struct ltd_dnsd_pending *p = NULL;
	unsigned int gen = conn >= 0 ? d->conns[conn].gen : 0;
	uint16_t up_id = 0;

	(void)!getrandom(&up_id, sizeof(up_id), GRND_NONBLOCK);
	if (ltd_dns_query_decide(d->cfg.domains,
				 d->cfg.host_names ? LTD_DNS_HOST_NAMES : 0,
				 buf, len, up_id, &q) < 0)
		return;
	if (q.verdict == LTD_DNS_DROP) {
		audit_query(d, &q, "dropped");
		return;
	}
	if (q.verdict == LTD_DNS_REFUSE || q.verdict == LTD_DNS_LOCAL) {
		/* The host's own names, answered here, are no refusal: a
		 * client's AAAA lookup of host.ltd.internal is not noise to
		 * report. */
		if (q.verdict == LTD_DNS_REFUSE)
			note_refused(d, q.name);
		audit_query(d, &q,
			    q.verdict == LTD_DNS_REFUSE ? "refused" : "local");
		reply(d, from, from_len, conn, gen, q.wire, q.len);
		free(q.wire);
		return;
	}
	d->total_forwarded++;
	for (size_t i = 0; i < LTD_DNSD_MAX_PENDING && !p; i++)
		if (d->pending[i].fd < 0 && !d->pending[i].out)
			p = &d->pending[i];
	if (!p || d->cfg.upstream_len == 0) {
		uint8_t *wire = NULL;
		size_t wlen = 0;

		audit_query(d, &q, p ? "no upstream" : "too many lookups");
		if (ltd_dns_servfail(q.wire, q.len, q.id, &wire, &wlen) == 0)
			reply(d, from, from_len, conn, gen, wire, wlen);
		free(wire);
		free(q.wire);
		return;
	}
	audit_query(d, &q, "forwarded");
	p->tcp = conn >= 0;
	p->conn = conn;
	p->conn_gen = gen;
	if (from)
		p->client = *from;
	p->client_len = from_len;
	p->client_id = q.id;
	p->up_id = up_id;
	memcpy(p->name, q.name, sizeof(p->name));
	p->qtype = q.qtype;
	memcpy(p->ports, q.ports, sizeof(p->ports));
	p->n_ports = q.n_ports;
	p->rule = q.rule->source;
	if (p->tcp) {
		p->out = malloc(q.len + 2);
		if (p->out) {
			p->out[0] = (uint8_t)(q.len >> 8);
			p->out[1] = (uint8_t)q.len;
			memcpy(p->out + 2, q.wire, q.len);
			p->out_len = q.len + 2;
		}
		free(q.wire);
	} else {
		p->out = q.wire;
		p->out_len = q.len;
	}
	if (!p->out || pending_start(d, p) < 0) {
		if (p->out)
			pending_servfail(d, p);
		pending_free(p);
	}
}

static void udp_readable(struct ltd_dnsd *d)
{
	uint8_t buf[MSG_MAX];

	/* A bounded batch per wake-up: signals are relayed in between. */
	for (int i = 0; i < 32; i++) {
		struct sockaddr_storage from;
		socklen_t from_len = sizeof(from);
		ssize_t n = recvfrom(d->udp, buf, sizeof(buf), MSG_DONTWAIT,
				     (struct sockaddr *)&from, &from_len);

		if (n < 0)
			return;
		query(d, buf, (size_t)n, &from, from_len, -1);
	}
}

static void tcp_accept(struct ltd_dnsd *d)
{
	int fd = accept4(d->tcp, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

	int slot = -1;

	if (fd < 0)
		return;
	for (int i = 0; i < LTD_DNSD_MAX_CONNS && slot < 0; i++)
		if (d->conns[i].fd < 0)
			slot = i;
	/* All taken: the one idle longest gives way, so that clients that
	 * connect and say nothing cannot keep every later one out. */
	for (int i = 0; i < LTD_DNSD_MAX_CONNS && slot < 0; i++)
		if (!conn_waiting(d, i) &&
		    (slot < 0 || d->conns[i].last < d->conns[slot].last))
			slot = i;
	if (slot < 0) {
		close(fd); /* all are waiting for answers: the client retries */
		return;
	}
	conn_close(&d->conns[slot]);
	d->conns[slot].fd = fd;
	d->conns[slot].len = 0;
	d->conns[slot].last = now_ms();
}

static void conn_readable(struct ltd_dnsd *d, int i)
{
	struct ltd_dnsd_conn *c = &d->conns[i];
	ssize_t n = recv(c->fd, c->buf + c->len, sizeof(c->buf) - c->len,
			 MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		conn_close(c);
		return;
	}
	c->last = now_ms();
	c->len += (size_t)n;
	while (c->fd >= 0 && c->len >= 2) {
		size_t want = (size_t)c->buf[0] << 8 | c->buf[1];

		if (c->len < 2 + want)
			return;
		query(d, c->buf + 2, want, NULL, 0, i);
		if (c->fd < 0)
			return;
		memmove(c->buf, c->buf + 2 + want, c->len - 2 - want);
		c->len -= 2 + want;
	}
}

/* ---- the loop's side --------------------------------------------------- */

int ltd_dnsd_init(struct ltd_dnsd *d, const struct ltd_dnsd_config *cfg,
		  struct ltd_err *err)
{
	memset(d, 0, sizeof(*d));
	d->cfg = *cfg;
	d->udp = d->tcp = -1;
	d->conns = calloc(LTD_DNSD_MAX_CONNS, sizeof(*d->conns));
	d->pending = calloc(LTD_DNSD_MAX_PENDING, sizeof(*d->pending));
	if (!d->conns || !d->pending) {
		ltd_dnsd_close(d);
		return ltd_err_set(err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < LTD_DNSD_MAX_CONNS; i++)
		d->conns[i].fd = -1;
	for (size_t i = 0; i < LTD_DNSD_MAX_PENDING; i++)
		d->pending[i].fd = -1;
	return 0;
}

void ltd_dnsd_attach(struct ltd_dnsd *d, const int fds[2])
{
	for (int i = 0; i < 2; i++)
		if (fds[i] >= 0)
			fcntl(fds[i], F_SETFL,
			      fcntl(fds[i], F_GETFL) | O_NONBLOCK);
	if (d->udp >= 0)
		close(d->udp);
	if (d->tcp >= 0)
		close(d->tcp);
	d->udp = fds[0];
	d->tcp = fds[1];
}

size_t ltd_dnsd_pollfds(struct ltd_dnsd *d, struct pollfd *pfd, size_t max)
{
	size_t n = 0;

#define ADD(f, ev, k, i)                                                       \
	do {                                                                   \
		if (n < max) {                                                 \
			pfd[n] = (struct pollfd){.fd = (f), .events = (ev)};   \
			d->map[n].kind = (k);                                  \
			d->map[n].idx = (i);                                   \
			n++;                                                   \
		}                                                              \
	} while (0)
	if (d->udp < 0)
		return d->n_map = 0;
	ADD(d->udp, POLLIN, K_UDP, 0);
	ADD(d->tcp, POLLIN, K_TCP, 0);
	for (int i = 0; i < LTD_DNSD_MAX_CONNS; i++)
		if (d->conns[i].fd >= 0)
			ADD(d->conns[i].fd, POLLIN, K_CONN, i);
	for (int i = 0; i < LTD_DNSD_MAX_PENDING; i++) {
		struct ltd_dnsd_pending *p = &d->pending[i];

		if (p->fd >= 0)
			ADD(p->fd,
			    (short)(POLLIN |
				    (p->tcp && p->out_off < p->out_len ? POLLOUT
								       : 0)),
			    K_PEND, i);
	}
#undef ADD
	d->n_map = n;
	return n;
}

void ltd_dnsd_dispatch(struct ltd_dnsd *d, const struct pollfd *pfd, size_t n)
{
	int64_t now = now_ms();

	for (size_t i = 0; i < n && i < d->n_map; i++) {
		int idx = d->map[i].idx;

		if (!pfd[i].revents)
			continue;
		switch (d->map[i].kind) {
		case K_UDP:
			udp_readable(d);
			break;
		case K_TCP:
			tcp_accept(d);
			break;
		case K_CONN:
			conn_readable(d, idx);
			break;
		case K_PEND:
			if (d->pending[idx].fd >= 0 &&
			    pending_io(d, &d->pending[idx], pfd[i].revents))
				pending_free(&d->pending[idx]);
			break;
		}
	}
	for (size_t i = 0; i < LTD_DNSD_MAX_PENDING; i++) {
		struct ltd_dnsd_pending *p = &d->pending[i];

		if (p->fd >= 0 && p->deadline <= now) {
			d->upstream_timeouts++;
			pending_servfail(d, p);
			pending_free(p);
		}
	}
	for (int i = 0; i < LTD_DNSD_MAX_CONNS; i++)
		if (d->conns[i].fd >= 0 &&
		    d->conns[i].last + LTD_DNSD_IDLE_MS <= now &&
		    !conn_waiting(d, i))
			conn_close(&d->conns[i]);
}

int ltd_dnsd_timeout(const struct ltd_dnsd *d)
{
	int64_t next = -1, now = now_ms();

	for (size_t i = 0; d->pending && i < LTD_DNSD_MAX_PENDING; i++) {
		const struct ltd_dnsd_pending *p = &d->pending[i];

		if (p->fd >= 0 && (next < 0 || p->deadline < next))
			next = p->deadline;
	}
	for (size_t i = 0; d->conns && i < LTD_DNSD_MAX_CONNS; i++) {
		int64_t idle = d->conns[i].last + LTD_DNSD_IDLE_MS;

		/* One waiting for a lookup is seen again at its deadline. */
		if (d->conns[i].fd >= 0 && !conn_waiting(d, (int)i) &&
		    (next < 0 || idle < next))
			next = idle;
	}
	if (next < 0)
		return -1;
	return next <= now ? 0 : (int)(next - now);
}

void ltd_dnsd_close(struct ltd_dnsd *d)
{
	for (size_t i = 0; d->conns && i < LTD_DNSD_MAX_CONNS; i++)
		conn_close(&d->conns[i]);
	for (size_t i = 0; d->pending && i < LTD_DNSD_MAX_PENDING; i++)
		if (d->pending[i].fd >= 0 || d->pending[i].out)
			pending_free(&d->pending[i]);
	free(d->conns);
	free(d->pending);
	d->conns = NULL;
	d->pending = NULL;
	if (d->udp >= 0)
		close(d->udp);
	if (d->tcp >= 0)
		close(d->tcp);
	d->udp = d->tcp = -1;
}
