// SPDX-License-Identifier: GPL-2.0-or-later
#include "runtime/testhooks.h"

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

/* LTD_TEST_HOOKS_VAR (policy/option.h, which is not the runtime's). */
#define HOOKS_VAR "LTD_NATIVE_TEST_HOOKS"
#define STOP_VAR  "LTD_NATIVE_TEST_STOP_AT"
#define TRIM_VAR  "LTD_NATIVE_TEST_TRIM_MS"

static bool read_env;
static char stop_at[128]; /* "" when off */
static int trim_ms = -1;  /* -1 when off */

static void env_once(void)
{
	const char *on = getenv(HOOKS_VAR), *at = getenv(STOP_VAR);
	const char *trim = getenv(TRIM_VAR);

	if (read_env)
		return;
	read_env = true;
	if (!on || strcmp(on, "1") != 0)
		return;
	if (at)
		snprintf(stop_at, sizeof(stop_at), "%s", at);
	if (trim && trim[0] >= '0' && trim[0] <= '9')
		trim_ms = (int)strtol(trim, NULL, 10) & 0xfffffff;
}

int ltd_test_trim_ms(void)
{
	env_once();
	return trim_ms;
}

void ltd_test_stop_at(const char *table, const char *step)
{
	size_t n = strlen(table);

	env_once();
	if (!stop_at[0] || strncmp(stop_at, table, n) != 0 ||
	    stop_at[n] != ':' || strcmp(stop_at + n + 1, step) != 0)
		return;
	prctl(PR_SET_NAME, "ltd-stopped");
	/* A pid namespace's init ignores the signals it sends itself;
	 * SIGKILL from outside (its parent-death signal) still ends it. */
	if (getpid() == 1)
		for (;;)
			pause();
	raise(SIGSTOP);
}

void ltd_test_before_launch(const char *step)
{
	ltd_test_stop_at("launcher", step);
}

void ltd_test_before_init(const char *step)
{
	ltd_test_stop_at("init", step);
}

void ltd_test_before_command(const char *step)
{
	ltd_test_stop_at("command", step);
}
