/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The executor for netfilter/ruleset.c's batch: one sendmsg on a
 * NETLINK_NETFILTER socket in the caller's network namespace (the cage's
 * init, which holds CAP_NET_ADMIN there), then every acknowledgement read
 * and an error mapped back to the table, chain, set or rule that caused it.
 */
#ifndef LTD_NET_NFT_H
#define LTD_NET_NFT_H

#include "common/error.h"
#include "netfilter/ruleset.h"

/*
 * Send @b on @fd (a NETLINK_NETFILTER socket, or -1 to open and close one
 * here).  The batch is atomic: on error nothing of it is installed.
 */
int ltd_nft_send(int fd, const struct ltd_nft_batch *b, struct ltd_err *err);

/* A NETLINK_NETFILTER socket, close-on-exec, with extended acks. */
int ltd_nft_socket(struct ltd_err *err);

#endif
