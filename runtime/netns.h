/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --network none: the cage's network namespace, made by a helper beside
 * init (runtime/netns.c). */
#ifndef LTD_NETNS_H
#define LTD_NETNS_H

#include <sys/types.h>

#include "common/error.h"

struct ltd_netns {
	pid_t helper; /* -1: none running */
	int sock;     /* init's end of the helper's socket, -1 */
	pid_t ended;  /* the helper once it has answered: to reap, -1 */
};

/* Bring lo up in the caller's network namespace. */
int ltd_netns_lo_up(struct ltd_err *err);

/* Fork the helper: a new network namespace, lo up, its fd sent back. */
int ltd_netns_start(struct ltd_netns *n, struct ltd_err *err);

/* Wait for the helper's namespace, enter it and check that init is in it
 * (and no longer in the one it started in). */
int ltd_netns_join(struct ltd_netns *n, struct ltd_err *err);

/* Reap the helper that answered (it exits right after): before the command
 * starts, so that it never counts against the cage's process limit. */
void ltd_netns_reap(struct ltd_netns *n);

#endif
