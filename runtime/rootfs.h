/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --rootfs in the launcher: find the store entry the pin names, check it
 * (the fast check: the manifest hashes to the pinned digest, and no file
 * changed since it was sealed), and describe its top level and /etc for
 * the mount plan.  Before clone: a missing or changed rootfs stops the run
 * with the digests expected and found, and nothing runs.
 *
 * *@lock is the entry's lock, held shared (close-on-exec): the caller
 * keeps it open for as long as the cage may use the entry.  *@has_shell
 * says whether the image holds the user's login shell (the policy then
 * decides: policy/decide.c).
 */
#ifndef LTD_RUNTIME_ROOTFS_H
#define LTD_RUNTIME_ROOTFS_H

#include "policy/policy.h"
#include "runtime/mountplan.h"

int ltd_rootfs_load(const struct ltd_policy *p, struct ltd_pinned *pin,
		    int *lock, bool *has_shell, struct ltd_err *err);
void ltd_pinned_free(struct ltd_pinned *pin);

#endif
