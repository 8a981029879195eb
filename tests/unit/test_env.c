// SPDX-License-Identifier: GPL-2.0-or-later
/* The command's environment: cleared but for a short passthrough list. */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "policy/env.h"
#include "policy/policy.h"

static const char *get(char **envp, const char *key)
{
	size_t n = strlen(key);

	for (; envp && *envp; envp++)
		if (strncmp(*envp, key, n) == 0 && (*envp)[n] == '=')
			return *envp + n + 1;
	return NULL;
}

static struct ltd_policy p;

static void setup(void)
{
	ltd_policy_init(&p);
	p.id = (struct ltd_identity){.uid = 1000,
				     .gid = 1000,
				     .user = strdup("u"),
				     .group = strdup("u"),
				     .home = strdup("/home/u"),
				     .shell = strdup("/bin/sh")};
}

static void teardown(void)
{
	ltd_policy_free(&p);
}

TestSuite(env, .init = setup, .fini = teardown);

Test(env, passthrough_only)
{
	char *host[] = {"TERM=xterm",
			"LANG=C.UTF-8",
			"LC_ALL=C",
			"COLORTERM=truecolor",
			"TZ=UTC",
			"ANTHROPIC_API_KEY=sk-secret",
			"SSH_AUTH_SOCK=/x",
			"LD_PRELOAD=/evil.so",
			"PATH=/home/u/bin",
			"HOME=/x",
			"LC_=odd",
			"TERMX=no",
			NULL};
	struct ltd_err err = {0};
	char **envp = ltd_env_build(&p, host, &err);

	cr_assert_not_null(envp);
	cr_assert_str_eq(get(envp, "TERM"), "xterm");
	cr_assert_str_eq(get(envp, "LANG"), "C.UTF-8");
	cr_assert_str_eq(get(envp, "LC_ALL"), "C");
	cr_assert_str_eq(get(envp, "COLORTERM"), "truecolor");
	cr_assert_str_eq(get(envp, "TZ"), "UTC");
	cr_assert_null(get(envp, "ANTHROPIC_API_KEY"));
	cr_assert_null(get(envp, "SSH_AUTH_SOCK"));
	cr_assert_null(get(envp, "LD_PRELOAD"));
	cr_assert_null(get(envp, "TERMX"));
	cr_assert_str_neq(get(envp, "PATH"), "/home/u/bin");
	cr_assert_str_eq(get(envp, "HOME"), "/home/u");
	cr_assert_str_eq(get(envp, "USER"), "u");
	cr_assert_str_eq(get(envp, "SHELL"), "/bin/sh");
	ltd_env_free(envp);
}

Test(env, setenv_then_unsetenv_in_order)
{
	char *host[] = {"TERM=xterm", NULL};
	struct ltd_env_op ops[] = {
		{.key = strdup("A"), .val = strdup("1")},
		{.key = strdup("TERM"), .val = NULL},
		{.key = strdup("A"), .val = strdup("2")},
		{.key = strdup("HOME"), .val = strdup("/elsewhere")},
	};
	struct ltd_err err = {0};
	char **envp;

	p.env = malloc(sizeof(ops));
	memcpy(p.env, ops, sizeof(ops));
	p.n_env = 4;
	envp = ltd_env_build(&p, host, &err);
	cr_assert_str_eq(get(envp, "A"), "2");
	cr_assert_null(get(envp, "TERM"));
	cr_assert_str_eq(get(envp, "HOME"), "/elsewhere");
	size_t count = 0;
	for (char **e = envp; *e; e++)
		count += strncmp(*e, "A=", 2) == 0;
	cr_assert_eq(count, 1, "a variable appears once");
	ltd_env_free(envp);
}

Test(env, empty_host)
{
	struct ltd_err err = {0};
	char **envp = ltd_env_build(&p, NULL, &err);

	cr_assert_not_null(envp);
	cr_assert_not_null(get(envp, "PATH"));
	ltd_env_free(envp);
}

/* The resolver's links come first on the PATH; an adapter's variables
 * after the seam's, before --setenv. */
Test(env, command_links_and_adapter_variables)
{
	struct ltd_err err = {0};
	char **envp;

	p.cmd_links = true;
	cr_assert_eq(ltd_policy_set_env(&p, "DISABLE_AUTOUPDATER", "1",
					"agent claude", &err),
		     0);
	cr_assert_eq(ltd_policy_set_env(&p, "GEMINI_CLI_NO_RELAUNCH", "true",
					"agent gemini", &err),
		     0);
	p.env = calloc(1, sizeof(*p.env));
	p.env[0] = (struct ltd_env_op){strdup("GEMINI_CLI_NO_RELAUNCH"),
				       strdup("no")};
	p.n_env = 1;
	envp = ltd_env_build(&p, NULL, &err);
	cr_assert_not_null(envp);
	cr_assert_str_eq(get(envp, "PATH"), LTD_CMD_DIR ":" LTD_CAGE_PATH);
	cr_assert_str_eq(get(envp, "DISABLE_AUTOUPDATER"), "1");
	cr_assert_str_eq(get(envp, "GEMINI_CLI_NO_RELAUNCH"), "no");
	ltd_env_free(envp);
	p.cmd_links = false;
	envp = ltd_env_build(&p, NULL, &err);
	cr_assert_str_eq(get(envp, "PATH"), LTD_CAGE_PATH);
	ltd_env_free(envp);
}
