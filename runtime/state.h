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

/*
 * The directory where the planted-repository walk keeps its indexes
 * (protect/repoindex.h): ~/.local/state/ltd-native/walk under the real
 * home, made 0700 where missing, each component opened without following
 * a link; an O_PATH descriptor, or -1 when there is none to use: no home,
 * not the user's own, or where the cage could write (in the project or a
 * bind: the gate refuses binding it, this makes sure).
 */
int ltd_state_walk_dir(const struct ltd_policy *p);

#endif
