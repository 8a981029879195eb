/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pasta (Debian package passt): user-mode networking for the cage's network
 * namespace, started by the launcher as soon as the namespace exists, before
 * init, so that its start-up (~190 ms here: its packet buffers, ~30 MB,
 * faulted in) overlaps with everything else the launcher and the cage do.
 *
 * Hardened: no port forwarding in either direction (-t/-u/-T/-U none; with
 * pasta's defaults 127.0.0.1 inside would reach the host's loopback) but
 * the TCP ports --publish names, host to cage only (-t ADDR/HOST:CAGE), the
 * gateway mapping to the host's loopback only when a host port is allowed
 * (and then nftables admits only those ports), and our own address plan
 * with a gateway address that no real host uses.
 *
 * Walled: pasta makes the cage's TCP connections on the host, so it runs
 * under a Landlock ruleset (ltd_landlock_build_egress) that lets it
 * connect only to the ports the network policy allows — a second wall
 * behind the cage's nftables, at the only way out.  It joins the cage's
 * user and network namespaces by descriptor (--userns/--netns
 * /proc/self/fd/N), made before init (runtime/cagens.c) so that its
 * start-up begins before the cage's.
 *
 * Readiness: pasta writes its pid file once the namespace is configured
 * (addresses, routes, link up) and before it serves.  We give it
 * -P /proc/self/fd/3 with fd 3 the write end of a pipe: the first bytes on
 * the read end mean "ready"; end of file without them means it died.
 */
#ifndef LTD_NET_PASTA_H
#define LTD_NET_PASTA_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "common/error.h"
#include "confine/landlock.h"
#include "policy/publish.h"

/* The cage's address plan.  198.18.0.0/15 is reserved for benchmarking
 * (RFC 2544) and never routed; the ULA prefix is ours (RFC 4193). */
#define LTD_NET_ADDR4	"198.18.93.2"
#define LTD_NET_PREFIX4 "24"
#define LTD_NET_GW4	"198.18.93.1"
#define LTD_NET_ADDR6	"fd4c:7464:6e61::2"
#define LTD_NET_GW6	"fd4c:7464:6e61::1"
/* The host, as the cage names it (with a host port allowed): GW4 in the
 * cage's /etc/hosts, and the DNS filter answers for them the same way. */
#define LTD_NET_HOST_NAME	 "host.ltd.internal"
#define LTD_NET_HOST_NAME_DOCKER "host.docker.internal"

#define LTD_PASTA_MAX_ARGS (48 + 2 * LTD_PUBLISH_MAX)

struct ltd_pasta {
	char path[64];
	char exe[96]; /* what is exec'd: @path, or its AVX2 build */
	char *argv[LTD_PASTA_MAX_ARGS]; /* static strings, or in @spec */
	char spec[LTD_PUBLISH_MAX][64]; /* -t ADDR/HOST_PORT:CAGE_PORT */
	pid_t pid;			/* 0: not running */
	int ready_fd;			/* read end; -1 when closed */
	struct ltd_landlock wall;	/* abi 0: no wall (see above) */
};

/*
 * Find pasta and check that it can work here (the binary, /dev/net/tun).
 * -ENOENT: pasta is missing or cannot run; @err says why.
 */
int ltd_pasta_find(struct ltd_pasta *pa, struct ltd_err *err);

/* The binary alone (a fixed place, never PATH): 0 and pa->path, or
 * -ENOENT. */
int ltd_pasta_locate(struct ltd_pasta *pa, struct ltd_err *err);

/*
 * Pure: why pasta cannot open the tun device, from its stat (@mode 0: it
 * is missing; @owner its uid) and the errno of opening it read-write (0:
 * it opens).  Names the device and its mode; "" when it opens.
 */
void ltd_pasta_tun_says(unsigned mode, unsigned owner, int open_errno,
			char *out, size_t size);

/* The same for this host's /dev/net/tun: 0 when pasta can open it, else
 * -ENOENT with @out saying why. */
int ltd_pasta_tun_check(char *out, size_t size);

/*
 * Build the argument vector and pick the program to exec (@pa->exe: pasta,
 * or the AVX2 build pasta would exec itself).  @map_gw: map the gateway
 * address to the host's loopback (only when host ports are allowed).
 * @pub: the ports to forward into the cage (--publish).
 */
int ltd_pasta_build(struct ltd_pasta *pa, bool map_gw,
		    const struct ltd_publish *pub, size_t n_pub,
		    struct ltd_err *err);

/*
 * Each published host address and port can be listened on now (pasta,
 * which listens later, says nothing when it cannot): in use, a port below
 * the unprivileged ones, an address not of this host are errors naming
 * --publish.  Before clone; a port taken in the moment between this and
 * pasta's start goes unserved.
 */
int ltd_pasta_check_publish(const struct ltd_publish *pub, size_t n,
			    struct ltd_err *err);

/*
 * Start pasta attached to the user and network namespaces @userns and
 * @netns (descriptors; it joins them by /proc/self/fd/N: a Landlock domain
 * may not open another process's /proc/PID/ns files), confined by
 * pa->wall.  It dies with us (PR_SET_PDEATHSIG before exec).  Started as
 * posix_spawn() starts a program (common/spawn.h): no copy of the
 * launcher's page tables.  pa->ready_fd becomes readable when it is ready
 * or dead: then call ltd_pasta_ready().
 */
int ltd_pasta_spawn(struct ltd_pasta *pa, int userns, int netns,
		    struct ltd_err *err);

/* After ready_fd polled readable: 0 if pasta is serving, else an error
 * (it exited; its own message is on stderr).  Closes ready_fd. */
int ltd_pasta_ready(struct ltd_pasta *pa, struct ltd_err *err);

/* Kill pasta, not waiting: once the cage is gone nothing needs it, and its
 * exit (unmapping ~30 MB it touched) runs beside what the launcher still
 * does.  ltd_pasta_stop() reaps it. */
void ltd_pasta_kill(struct ltd_pasta *pa);

/* End pasta (it does not exit with the namespace's last process), reaped;
 * free its wall. */
void ltd_pasta_stop(struct ltd_pasta *pa);

#endif
