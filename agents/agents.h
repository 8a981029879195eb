/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The agents, as the user installed them: what the host gives the policy
 * for the command and each --agent (agents/resolve.h: where it is
 * installed), and for each agent the cage runs (agents/adapters.c: its
 * config written for the provider seam, its state kept per project, its
 * own sandbox off).  Reads the host for the policy; creates nothing.
 */
#ifndef LTD_AGENTS_H
#define LTD_AGENTS_H

#include "policy/policy.h"

/*
 * Add to @p what the command and the --agent names need: read-only binds
 * of their install trees, the links on the way, LTD_CMD_DIR's links,
 * each agent's generated files, copies, state and variables, the git
 * identity.  Run before the binds are validated (runtime's
 * ltd_run_check), so the gate judges every bind it adds.  A command not
 * found is -ENOENT with the step "exec" (exit 127).
 */
int ltd_agents_derive(struct ltd_policy *p, struct ltd_err *err);

#endif
