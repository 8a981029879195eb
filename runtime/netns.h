/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --network none: the cage's network namespace, made by a helper beside
 * init (runtime/netns.c). */
#ifndef LTD_NETNS_H
#define LTD_NETNS_H

#include <sys/types.h>

#include "common/error.h"

struct ltd_netns {
	pid_t helper; /* -1: none running */
	void *stack;  /* its stack (and guard page), NULL */
	/* The helper's word, read once it has been reaped: */
	int ns;		    /* the namespace (in init's descriptor table) */
	struct ltd_err err; /* or why not */
};

/* Bring lo up in the caller's network namespace. */
int ltd_netns_lo_up(struct ltd_err *err);

/* Start the helper (sharing init's memory and descriptors): a new network
 * namespace, lo up, its fd left in @n. */
int ltd_netns_start(struct ltd_netns *n, struct ltd_err *err);

/* Reap the helper, enter its namespace and check that init is in it (and
 * no longer in the one it started in). */
int ltd_netns_join(struct ltd_netns *n, struct ltd_err *err);

/* Reap a helper still there (network-join failed or never ran) and free
 * its stack: before the command starts, so that it never counts against
 * the cage's process limit. */
void ltd_netns_reap(struct ltd_netns *n);

#endif
