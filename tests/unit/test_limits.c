// SPDX-License-Identifier: GPL-2.0-or-later
/* The resource flags: sizes, CPU counts, pids, defaults. */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "policy/limits.h"
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

TestSuite(limits, .init = setup, .fini = teardown);

#define PARSE(...)                                                             \
	({                                                                     \
		char *args[] = {__VA_ARGS__};                                  \
		ltd_policy_parse_run(&p, sizeof(args) / sizeof(args[0]), args, \
				     &err);                                    \
	})

Test(limits, sizes)
{
	uint64_t v;

	cr_assert_eq(ltd_limits_parse_size("0", &v), 0);
	cr_assert_eq(v, 0);
	cr_assert_eq(ltd_limits_parse_size("1234", &v), 0);
	cr_assert_eq(v, 1234);
	cr_assert_eq(ltd_limits_parse_size("4k", &v), 0);
	cr_assert_eq(v, 4096);
	cr_assert_eq(ltd_limits_parse_size("512m", &v), 0);
	cr_assert_eq(v, 512ULL << 20);
	cr_assert_eq(ltd_limits_parse_size("4G", &v), 0);
	cr_assert_eq(v, 4ULL << 30);
	cr_assert_eq(ltd_limits_parse_size("4gb", &v), 0);
	cr_assert_eq(v, 4ULL << 30);
	cr_assert_eq(ltd_limits_parse_size("2t", &v), 0);
	cr_assert_eq(v, 2ULL << 40);
}

Test(limits, bad_sizes)
{
	uint64_t v = 7;
	const char *bad[] = {"",     "g",  "-1",  "+1",	  " 1",	 "1 ",
			     "1.5g", "1x", "1gg", "0x10", "1kbb"};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_eq(ltd_limits_parse_size(bad[i], &v), -EINVAL, "'%s'",
			     bad[i]);
	cr_assert_eq(ltd_limits_parse_size("99999999999999999999", &v),
		     -ERANGE);
	cr_assert_eq(ltd_limits_parse_size("17179869184g", &v), -ERANGE);
	cr_assert_eq(v, 7, "untouched on error");
}

Test(limits, cpus)
{
	unsigned m;

	cr_assert_eq(ltd_limits_parse_cpus("2", &m), 0);
	cr_assert_eq(m, 2000);
	cr_assert_eq(ltd_limits_parse_cpus("0.5", &m), 0);
	cr_assert_eq(m, 500);
	cr_assert_eq(ltd_limits_parse_cpus("1.25", &m), 0);
	cr_assert_eq(m, 1250);
	cr_assert_eq(ltd_limits_parse_cpus("0.001", &m), 0);
	cr_assert_eq(m, 1);
	cr_assert_eq(ltd_limits_parse_cpus("1.", &m), -EINVAL);
	cr_assert_eq(ltd_limits_parse_cpus(".5", &m), -EINVAL);
	cr_assert_eq(ltd_limits_parse_cpus("0.0001", &m), -EINVAL);
	cr_assert_eq(ltd_limits_parse_cpus("1e3", &m), -EINVAL);
	cr_assert_eq(ltd_limits_parse_cpus("-1", &m), -EINVAL);
}

Test(limits, defaults_are_the_seeds)
{
	cr_assert_eq(PARSE("--", "true"), 0);
	cr_assert_eq(p.memory_bytes, 4ULL << 30);
	cr_assert_eq(p.cpus_milli, 4000);
	cr_assert_eq(p.pids_limit, 512);
	cr_assert_eq(p.limits_explicit, 0);
	cr_assert_not(p.allow_unenforced_limits);
}

Test(limits, flags)
{
	cr_assert_eq(PARSE("--memory", "1g", "--cpus", "1.5", "--pids-limit",
			   "64", "--allow-unenforced-limits", "--", "true"),
		     0);
	cr_assert_eq(p.memory_bytes, 1ULL << 30);
	cr_assert_eq(p.cpus_milli, 1500);
	cr_assert_eq(p.pids_limit, 64);
	cr_assert_eq(p.limits_explicit,
		     LTD_LIMIT_MEMORY | LTD_LIMIT_CPUS | LTD_LIMIT_PIDS);
	cr_assert(p.allow_unenforced_limits);
}

Test(limits, bad_flags_are_named)
{
	cr_assert_eq(PARSE("--memory", "lots", "--", "true"), -EINVAL);
	cr_assert(strstr(err.msg, "--memory: 'lots'"), "%s", err.msg);
	cr_assert_eq(PARSE("--memory", "1m", "--", "true"), -EINVAL);
	cr_assert(strstr(err.msg, "below 16m"), "%s", err.msg);
	cr_assert_eq(PARSE("--cpus", "0.001", "--", "true"), -EINVAL);
	cr_assert(strstr(err.msg, "--cpus"), "%s", err.msg);
	cr_assert_eq(PARSE("--pids-limit", "1", "--", "true"), -EINVAL);
	cr_assert(strstr(err.msg, "--pids-limit"), "%s", err.msg);
	cr_assert_eq(PARSE("--pids-limit", "1k", "--", "true"), -EINVAL);
	cr_assert_eq(PARSE("--pids-limit", "5000000", "--", "true"), -EINVAL);
}
