/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LTD_RUN_H
#define LTD_RUN_H

#include "policy/policy.h"

/* Exit statuses, as documented in README.md. */
#define LTD_EXIT_RUNTIME     125 /* an error of ltd-native itself */
#define LTD_EXIT_CANNOT_EXEC 126
#define LTD_EXIT_NOT_FOUND   127

/*
 * Check @p against the host before anything exists, in the order each
 * part needs: the policy (policy/), the project's protection (protect/),
 * the binds, and the protection of the binds.  `run` and `policy show`.
 */
int ltd_run_check(struct ltd_policy *p, struct ltd_err *err);

/*
 * `ltd-native run`: validate @p, build everything that can fail, clone the
 * cage, supervise it.  Returns the process exit status to use: the
 * command's own, 128+N for signal N, or one of the LTD_EXIT_* codes (with
 * the error printed).  @launcher_argv is main()'s argv, which the cage's
 * init wipes from its copy of the launcher's memory.
 */
int ltd_run(struct ltd_policy *p, char **launcher_argv);

#endif
