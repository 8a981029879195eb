/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LTD_STATE_H
#define LTD_STATE_H

#include "policy/policy.h"

/*
 * Create the persistent state the policy binds that does not exist yet
 * (mounts with a LTD_STATE_* mark), then the seeds that are missing,
 * under the real home, following no link.  The only files ltd-native ever
 * creates on the host.
 */
int ltd_state_create(const struct ltd_policy *p, struct ltd_err *err);

#endif
