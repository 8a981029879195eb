// SPDX-License-Identifier: GPL-2.0-or-later
/* Parsing of every run flag, good and bad input. */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "policy/option.h"
#include "policy/policy.h"

static struct ltd_policy p;
static struct ltd_err err;

static void setup(void)
{
	ltd_policy_init(&p);
	memset(&err, 0, sizeof(err));
}

static void teardown(void)
{
	ltd_policy_free(&p);
}

TestSuite(options, .init = setup, .fini = teardown);

#define PARSE(...)                                                             \
	({                                                                     \
		char *args[] = {__VA_ARGS__};                                  \
		ltd_policy_parse_run(&p, sizeof(args) / sizeof(args[0]), args, \
				     &err);                                    \
	})

Test(options, defaults)
{
	cr_assert_eq(PARSE("--", "true"), 0);
	cr_assert_str_eq(p.argv[0], "true");
	cr_assert_null(p.argv[1]);
	cr_assert(p.protect_git);
	cr_assert_eq(p.network, LTD_NET_ALLOWLIST);
	cr_assert_eq(p.seccomp, LTD_FILTER_ENFORCE);
	cr_assert_null(p.project);
	cr_assert_eq(p.n_mounts, 0);
}

Test(options, command_args_are_copied_verbatim)
{
	cr_assert_eq(PARSE("--", "sh", "-c", "--bind x y", "--"), 0);
	cr_assert_str_eq(p.argv[0], "sh");
	cr_assert_str_eq(p.argv[2], "--bind x y");
	cr_assert_str_eq(p.argv[3], "--");
	cr_assert_null(p.argv[4]);
}

Test(options, project)
{
	cr_assert_eq(PARSE("--project", "/src/app", "--", "true"), 0);
	cr_assert_str_eq(p.project, "/src/app");
}

Test(options, binds_in_order)
{
	cr_assert_eq(PARSE("--ro-bind", "/a", "/b", "--bind", "/c", "/d",
			   "--tmpfs", "/e", "--", "true"),
		     0);
	cr_assert_eq(p.n_mounts, 3);
	cr_assert_eq(p.mounts[0].kind, LTD_UM_RO_BIND);
	cr_assert_str_eq(p.mounts[0].src, "/a");
	cr_assert_str_eq(p.mounts[0].dst, "/b");
	cr_assert_eq(p.mounts[1].kind, LTD_UM_BIND);
	cr_assert_str_eq(p.mounts[1].dst, "/d");
	cr_assert_eq(p.mounts[2].kind, LTD_UM_TMPFS);
	cr_assert_null(p.mounts[2].src);
	cr_assert_str_eq(p.mounts[2].dst, "/e");
}

Test(options, relative_destination_is_refused)
{
	cr_assert_lt(PARSE("--bind", "/a", "rel", "--", "true"), 0);
	cr_assert(strstr(err.msg, "--bind"));
	cr_assert(strstr(err.msg, "absolute"));
}

Test(options, relative_tmpfs_is_refused)
{
	cr_assert_lt(PARSE("--tmpfs", "tmp", "--", "true"), 0);
	cr_assert(strstr(err.msg, "--tmpfs"));
}

Test(options, setenv_and_unsetenv_in_order)
{
	cr_assert_eq(PARSE("--setenv", "A", "1", "--unsetenv", "A", "--setenv",
			   "B", "x=y", "--", "true"),
		     0);
	cr_assert_eq(p.n_env, 3);
	cr_assert_str_eq(p.env[0].val, "1");
	cr_assert_null(p.env[1].val);
	cr_assert_str_eq(p.env[2].key, "B");
	cr_assert_str_eq(p.env[2].val, "x=y");
}

Test(options, bad_variable_names)
{
	const char *bad[] = {"", "1A", "A=B", "A B", "A-B"};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ltd_policy_free(&p);
		ltd_policy_init(&p);
		cr_assert_lt(PARSE("--setenv", (char *)bad[i], "v", "--", "x"),
			     0, "accepted '%s'", bad[i]);
		cr_assert(strstr(err.msg, "--setenv"));
	}
	cr_assert_lt(PARSE("--unsetenv", "X=1", "--", "x"), 0);
	cr_assert(strstr(err.msg, "--unsetenv"));
}

Test(options, chdir)
{
	cr_assert_eq(PARSE("--chdir", "/tmp", "--", "true"), 0);
	cr_assert_str_eq(p.chdir, "/tmp");
	ltd_policy_free(&p);
	ltd_policy_init(&p);
	cr_assert_lt(PARSE("--chdir", "tmp", "--", "true"), 0);
	cr_assert(strstr(err.msg, "--chdir"));
}

Test(options, hostname)
{
	cr_assert_eq(PARSE("--hostname", "box-1.local", "--", "true"), 0);
	cr_assert_str_eq(p.hostname, "box-1.local");
}

Test(options, bad_hostnames)
{
	const char *bad[] = {"",
			     "-x",
			     "x-",
			     "a b",
			     "a/b",
			     "0123456789012345678901234567890123456789"
			     "012345678901234567890123"};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ltd_policy_free(&p);
		ltd_policy_init(&p);
		cr_assert_lt(PARSE("--hostname", (char *)bad[i], "--", "x"), 0,
			     "accepted '%s'", bad[i]);
		cr_assert(strstr(err.msg, "--hostname"));
	}
}

Test(options, network)
{
	cr_assert_eq(PARSE("--network", "none", "--", "true"), 0);
	cr_assert_eq(p.network, LTD_NET_NONE);
	cr_assert(p.network_set);
}

/* Parsed; refused by validation unless --unsafe-host-network. */
Test(options, network_host_and_bad)
{
	cr_assert_eq(PARSE("--network", "host", "--", "true"), 0);
	cr_assert_eq(p.network, LTD_NET_HOST);
	ltd_policy_free(&p);
	ltd_policy_init(&p);
	cr_assert_lt(PARSE("--network", "bogus", "--", "true"), 0);
	cr_assert(strstr(err.msg, "--network"));
	ltd_policy_free(&p);
	ltd_policy_init(&p);
	cr_assert_eq(PARSE("--network", "allowlist", "--", "true"), 0);
	cr_assert_eq(p.network, LTD_NET_ALLOWLIST);
	cr_assert(p.network_set);
}

Test(options, allow_cidr_and_host_port)
{
	cr_assert_eq(PARSE("--allow-cidr", "10.0.0.0/8:443", "--allow-cidr",
			   "fd00::/64", "--allow-host-port", "4000",
			   "--allow-host-port", "4000", "--", "true"),
		     0, "%s", err.msg);
	cr_assert_eq(p.n_allow, 2);
	cr_assert_eq(p.allow[0].ports[0].lo, 443);
	cr_assert_eq(p.n_host_ports, 1, "a repeated port counts once");
	cr_assert_eq(p.host_ports[0], 4000);
	ltd_policy_free(&p);
	ltd_policy_init(&p);
	cr_assert_lt(PARSE("--allow-cidr", "10.0.0.1/8", "--", "true"), 0);
	cr_assert(strstr(err.msg, "--allow-cidr"), "%s", err.msg);
	ltd_policy_free(&p);
	ltd_policy_init(&p);
	cr_assert_lt(PARSE("--allow-host-port", "80-90", "--", "true"), 0);
	cr_assert(strstr(err.msg, "--allow-host-port"), "%s", err.msg);
}

Test(options, unsafe_writable_git)
{
	cr_assert_eq(PARSE("--unsafe-writable-git", "--", "true"), 0);
	cr_assert_not(p.protect_git);
}

Test(options, allow_clipboard)
{
	cr_assert_eq(PARSE("--", "true"), 0);
	cr_assert_not(p.allow_clipboard, "dropped by default");
	ltd_policy_free(&p);
	ltd_policy_init(&p);
	cr_assert_eq(PARSE("--allow-clipboard", "--", "true"), 0);
	cr_assert(p.allow_clipboard);
}

Test(options, unknown_flag_is_named)
{
	cr_assert_eq(PARSE("--bogus", "--", "true"), -EINVAL);
	cr_assert(strstr(err.msg, "--bogus"));
}

Test(options, missing_separator)
{
	cr_assert_lt(PARSE("--project", "/x", "true"), 0);
	cr_assert(strstr(err.msg, "true"));
	ltd_policy_free(&p);
	ltd_policy_init(&p);
	cr_assert_lt(PARSE("--project", "/x"), 0);
	cr_assert(strstr(err.msg, "missing '--'"));
}

Test(options, empty_command)
{
	cr_assert_lt(PARSE("--"), 0);
	cr_assert(strstr(err.msg, "no command"));
}

Test(options, missing_argument)
{
	cr_assert_lt(PARSE("--bind", "/a"), 0);
	cr_assert(strstr(err.msg, "--bind needs 2 arguments"));
	ltd_policy_free(&p);
	ltd_policy_init(&p);
	cr_assert_lt(PARSE("--project"), 0);
	cr_assert(strstr(err.msg, "--project needs 1 argument"));
}

Test(options, short_flags_are_not_flags)
{
	cr_assert_lt(PARSE("-p", "/x", "--", "true"), 0);
	cr_assert(strstr(err.msg, "-p"));
}

Test(options, help_lists_every_flag)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const char *flags[] = {
		"--project DIR", "--ro-bind SRC DST",  "--bind SRC DST",
		"--tmpfs DST",	 "--setenv VAR VALUE", "--unsetenv VAR",
		"--chdir DIR",	 "--hostname NAME",    "--network MODE"};

	ltd_policy_print_help(f, 0);
	fclose(f);
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		cr_assert(strstr(buf, flags[i]), "help lacks %s", flags[i]);
	free(buf);
}

Test(options, seccomp_modes)
{
	cr_assert_eq(PARSE("--unsafe-seccomp-log", "--", "true"), 0, "%s",
		     err.msg);
	cr_assert_eq(p.seccomp, LTD_FILTER_LOG);
	ltd_policy_free(&p);
	ltd_policy_init(&p);
	cr_assert_eq(PARSE("--unsafe-no-seccomp", "--", "true"), 0);
	cr_assert_eq(p.seccomp, LTD_FILTER_OFF);
	ltd_policy_free(&p);
	ltd_policy_init(&p);
	cr_assert_lt(
		PARSE("--unsafe-seccomp-log", "--unsafe-no-seccomp", "--", "x"),
		0);
	cr_assert(strstr(err.msg, "--unsafe-no-seccomp"));
}

/* The filter in LOG mode refuses nothing: an opt-out like the others, under
 * their prefix.  The old spelling stops with the new one's name. */
Test(options, seccomp_log_is_an_unsafe_option)
{
	cr_assert_lt(PARSE("--seccomp-log", "--", "true"), 0);
	cr_assert(strstr(err.msg, "'--seccomp-log'") &&
			  strstr(err.msg, "--unsafe-seccomp-log"),
		  "%s", err.msg);
	cr_assert_eq(p.seccomp, LTD_FILTER_ENFORCE);
}

static char *help_text(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ltd_policy_print_help(f, 0);
	fclose(f);
	return buf;
}

Test(options, help_names_seccomp_log_as_unsafe)
{
	char *buf = help_text();

	cr_assert(strstr(buf, "  --unsafe-seccomp-log "), "%s", buf);
	cr_assert_null(strstr(buf, "  --seccomp-log"), "%s", buf);
	free(buf);
}

/* The test hooks (LTD_NATIVE_TEST_HOOKS) are not for users. */
Test(options, help_lists_no_test_hook)
{
	char *buf = help_text();

	cr_assert_null(strstr(buf, "--test-"), "%s", buf);
	cr_assert_null(strstr(buf, "test only"), "%s", buf);
	free(buf);
}

/* `ltd-native --complete-options`: the table as data for the man page and
 * the completions, one line of five tab-separated fields per option that
 * --help shows, in the table's order; test hooks left out. */
Test(options, the_table_as_data_has_every_option_once)
{
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0, n = 0, want = 0;
	FILE *f = open_memstream(&buf, &len);
	const struct ltd_option *o;

	cr_assert(f);
	ltd_policy_print_options(f);
	fclose(f);
	cr_expect(strstr(buf, "\n--network\t1\tMODE\tsummary\tallowlist "));
	cr_expect(strstr(buf, "\n--ro-bind\t2\tSRC DST\tlist,not-project\t"));
	for (size_t i = 0; (o = ltd_option_at(i)); i++)
		want += !(o->flags & LTD_OPT_TEST_HOOK);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), n++) {
		char name[128], *tab = strchr(line, '\t');
		int fields = 1;

		for (char *c = line; *c; c++)
			fields += *c == '\t';
		cr_expect_eq(fields, 5, "%s", line);
		cr_assert(tab && line[0] == '-' && line[1] == '-', "%s", line);
		snprintf(name, sizeof(name), "%.*s", (int)(tab - line - 2),
			 line + 2);
		o = ltd_option_find(name);
		cr_assert(o, "%s", name);
		cr_expect(!(o->flags & LTD_OPT_TEST_HOOK), "%s", name);
	}
	cr_expect_eq(n, want);
	free(buf);
}

/* `ltd-native --help` names the run options a newcomer reaches for, from
 * the same table (LTD_OPT_SUMMARY): --review among them, and no other. */
Test(options, summary_help_is_the_flagged_options)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ltd_policy_print_help(f, LTD_OPT_SUMMARY);
	fclose(f);
	cr_assert(strstr(buf, "  --review NAME "), "%s", buf);
	cr_assert(strstr(buf, "  --network MODE "), "%s", buf);
	cr_assert_null(strstr(buf, "  --unsafe-"), "%s", buf);
	cr_assert_null(strstr(buf, "  --info-fd"), "%s", buf);
	free(buf);
}
