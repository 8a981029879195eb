/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --publish [ADDR:]HOST_PORT:CAGE_PORT: a TCP server of the cage's served
 * on the host, at ADDR (127.0.0.1 unless given; another address than
 * loopback needs --unsafe-publish-external).  pasta listens there and
 * forwards each connection into the cage (netfilter/pasta.c): from the
 * host's loopback to the same family's loopback in the cage.  Pure
 * parsing and formatting.  See docs/decisions/0111-publish-through-pasta.md.
 */
#ifndef LTD_POLICY_PUBLISH_H
#define LTD_POLICY_PUBLISH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

#define LTD_PUBLISH_MAX 32

struct ltd_publish {
	int family;		/* AF_INET or AF_INET6: the host's side */
	unsigned char addr[16]; /* network byte order */
	uint16_t host_port;	/* where pasta listens on the host */
	uint16_t cage_port;	/* the cage's server, on its loopback */
};

/*
 * Parse "[ADDR:]HOST_PORT:CAGE_PORT[/tcp]", ADDR an IPv4 address,
 * "localhost" (127.0.0.1) or a bracketed IPv6 one ("[::1]:8080:80").
 * @flag names the option in messages.
 */
int ltd_publish_parse(const char *s, const char *flag, struct ltd_publish *p,
		      struct ltd_err *err);

/* "127.0.0.1:8080:80", "[::1]:8080:80". */
void ltd_publish_format(const struct ltd_publish *p, char *buf, size_t size);

/* Where on the host: "127.0.0.1", "[::1]" (no port). */
void ltd_publish_host(const struct ltd_publish *p, char *buf, size_t size);

/* The host's side is loopback (127.0.0.0/8, ::1). */
bool ltd_publish_loopback(const struct ltd_publish *p);

/* Append @p to @list (@n entries), refusing a host address and port
 * already published and more than LTD_PUBLISH_MAX. */
int ltd_publish_add(struct ltd_publish **list, size_t *n,
		    const struct ltd_publish *p, const char *flag,
		    struct ltd_err *err);

#endif
