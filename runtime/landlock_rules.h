/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What Landlock rules the policy and the mount plan give (pure builders;
 * confine/landlock.h applies them).
 */
#ifndef LTD_RUNTIME_LANDLOCK_RULES_H
#define LTD_RUNTIME_LANDLOCK_RULES_H

#include "confine/landlock.h"
#include "policy/policy.h"
#include "runtime/mountplan.h"

/*
 * Pure: what Landlock ABI @abi (from ltd_landlock_abi()) means for this
 * policy.  Returns 0 when the run may go on (with @warning filled, or ""),
 * or a negative errno with @err naming what is missing: --require-landlock
 * on a kernel below LTD_LL_MIN_REQUIRED_ABI, --restrict-tcp-ports below
 * LTD_LL_NET_ABI.
 */
int ltd_landlock_decide(const struct ltd_policy *p, int abi, char *warning,
			size_t size, struct ltd_err *err);

/*
 * Pure: the ruleset for @plan and @p on ABI @abi (0: an empty ruleset).
 * Errors name the flag (--restrict-tcp-ports with a block allowed on every
 * port).
 */
int ltd_landlock_build(const struct ltd_plan *plan, const struct ltd_policy *p,
		       int abi, struct ltd_landlock *ll, struct ltd_err *err);

/*
 * Pure: the wall pasta runs under (allowlist mode, ABI 4 and later).  pasta
 * makes the cage's TCP connections on the host, so it may connect only to
 * the ports the network policy allows: a second wall behind nftables at
 * the only way out, which the cage's own loopback never passes — and
 * bind no TCP port at all (it forwards nothing in).  No filesystem right
 * and no scope is handled.  @ll->abi stays 0 (no wall) below ABI 4 and
 * outside allowlist mode; where no port list can say the policy (a block
 * open on every port, more than LTD_LL_MAX_PORTS ports) only bind is
 * handled, and @note (of @size) says why, for the run to print ("" when
 * the wall is whole or absent for want of ABI 4).
 */
int ltd_landlock_build_egress(const struct ltd_policy *p, int abi,
			      struct ltd_landlock *ll, char *note, size_t size,
			      struct ltd_err *err);

#endif
