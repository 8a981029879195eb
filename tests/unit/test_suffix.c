// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Wildcards over a public suffix (policy/suffix.c): "*.com" and "*.co.uk"
 * open every site under them and are refused, naming the suffix and where
 * the entry came from; the list's private section (github.io,
 * githubusercontent.com) and ordinary wildcards pass.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "policy/option.h"

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

TestSuite(suffix, .init = setup, .fini = teardown);

static int check_one(const char *entry, const char *source)
{
	size_t from = p.domains.n;

	cr_assert_eq(ltd_domains_add(&p.domains, entry, source, &err), 0, "%s",
		     err.msg);
	return ltd_policy_check_wildcards(&p, from, &err);
}

Test(suffix, wildcard_over_icann_suffix_refused)
{
	cr_assert_eq(check_one("*.com", "--allow-domain"), -EPERM);
	cr_assert(strstr(err.msg, "--allow-domain: '*.com'"), "%s", err.msg);
	cr_assert(strstr(err.msg, "public suffix 'com'"), "%s", err.msg);
	cr_assert(strstr(err.msg, "--unsafe-wildcard-public-suffix"), "%s",
		  err.msg);
	cr_assert_eq(check_one("*.co.uk:443", "--allow-domain"), -EPERM);
	cr_assert(strstr(err.msg, "public suffix 'co.uk'"), "%s", err.msg);
	/* A suffix by a wildcard rule of the list (*.ck), and an IDN TLD in
	 * its ASCII form. */
	cr_assert_eq(check_one("*.foo.ck", "x"), -EPERM, "%s", err.msg);
	cr_assert_eq(check_one("*.XN--P1AI.", "x"), -EPERM, "%s", err.msg);
}

Test(suffix, file_entry_named_by_file_and_line)
{
	size_t from = p.domains.n;

	cr_assert_eq(ltd_domains_parse_text(&p.domains,
					    "pypi.org\n# comment\n*.co.uk\n",
					    "/tmp/d.txt", &err),
		     0);
	cr_assert_eq(ltd_policy_check_wildcards(&p, from, &err), -EPERM);
	cr_assert(strstr(err.msg, "/tmp/d.txt:3: '*.co.uk'"), "%s", err.msg);
}

Test(suffix, others_pass)
{
	/* Private section: the built-in list needs *.githubusercontent.com. */
	cr_assert_eq(check_one("*.githubusercontent.com", "x"), 0, "%s",
		     err.msg);
	cr_assert_eq(check_one("*.github.io", "x"), 0, "%s", err.msg);
	cr_assert_eq(check_one("*.example.com", "x"), 0, "%s", err.msg);
	cr_assert_eq(check_one("*.bbc.co.uk", "x"), 0, "%s", err.msg);
	/* A name that is a suffix, not a wildcard over it: that name only. */
	cr_assert_eq(check_one("com", "x"), 0, "%s", err.msg);
	/* Not in the list: a test's or a site's own top level. */
	cr_assert_eq(check_one("*.wild.test", "x"), 0, "%s", err.msg);
	cr_assert_eq(check_one("*.test", "x"), 0, "%s", err.msg);
	cr_assert_eq(p.n_waived, 0);
}

Test(suffix, defaults_pass)
{
	cr_assert_eq(ltd_domains_add_defaults(&p.domains, &err), 0);
	cr_assert_eq(ltd_policy_check_wildcards(&p, 0, &err), 0, "%s", err.msg);
}

Test(suffix, only_from_the_index_given)
{
	cr_assert_eq(ltd_domains_add(&p.domains, "*.com", "x", &err), 0);
	cr_assert_eq(ltd_policy_check_wildcards(&p, 1, &err), 0,
		     "entries before @from are not judged again");
}

Test(suffix, unsafe_flag_lets_it_through_and_says_so)
{
	p.unsafe |= LTD_UNSAFE_PUBLIC_SUFFIX;
	cr_assert_eq(check_one("*.com", "--allow-domain"), 0, "%s", err.msg);
	cr_assert_eq(p.n_waived, 1);
	cr_assert(strstr(p.waived[0], "--unsafe-wildcard-public-suffix") &&
			  strstr(p.waived[0], "'*.com'"),
		  "%s", p.waived[0]);
	cr_assert_str_eq(ltd_unsafe_flag(LTD_UNSAFE_PUBLIC_SUFFIX),
			 "unsafe-wildcard-public-suffix");
}
