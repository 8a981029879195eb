/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command's environment (policy/env.c). */
#ifndef LTD_POLICY_ENV_H
#define LTD_POLICY_ENV_H

#include "policy/policy.h"

/*
 * The command's environment, built from @host (the launcher's environ) by
 * the passthrough list and the policy.  NULL-terminated; ltd_env_free().
 */
char **ltd_env_build(const struct ltd_policy *p, char *const *host,
		     struct ltd_err *err);
void ltd_env_free(char **envp);

#endif
