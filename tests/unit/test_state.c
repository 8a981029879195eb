// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The launcher's host writes (runtime/state.c): a seed is written when
 * missing, never over a file that is there, and never through a link.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy/policy.h"
#include "runtime/state.h"
#include "tests/common/fixture.h"

static char home[64];
static struct ltd_policy p;
static struct ltd_err err;

static void setup(void)
{
	fx_tmpdir(home, sizeof(home), "state");
	ltd_policy_init(&p);
	p.host_home = strdup(home);
	memset(&err, 0, sizeof(err));
}

static void teardown(void)
{
	ltd_policy_free(&p);
	fx_rm_rf(home);
}

TestSuite(state, .init = setup, .fini = teardown);

static char *slurp(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void seed_at(const char *rel, const char *text)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", home, rel);
	cr_assert_eq(
		ltd_policy_add_seed(&p, path, text, strlen(text), "test", &err),
		0);
}

Test(state, seed_written_when_missing)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "%s/.claude", home);
	mkdir(path, 0700);
	seed_at(".claude/.claude.json", "{\"a\": 1}");
	cr_assert_eq(ltd_state_create(&p, &err), 0, "%s", err.msg);
	snprintf(path, sizeof(path), "%s/.claude/.claude.json", home);
	cr_assert_str_eq(slurp(path), "{\"a\": 1}");
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0600);
}

Test(state, seed_never_over_a_file)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/.claude", home);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/.claude/.claude.json", home);
	f = fopen(path, "w");
	fputs("mine", f);
	fclose(f);
	seed_at(".claude/.claude.json", "{}");
	cr_assert_eq(ltd_state_create(&p, &err), 0, "%s", err.msg);
	cr_assert_str_eq(slurp(path), "mine");
}

/* A link where the seed goes, or on the way to it: nothing is written
 * where it points. */
Test(state, seed_never_through_a_link)
{
	char path[256], target[256];

	snprintf(target, sizeof(target), "%s/elsewhere", home);
	mkdir(target, 0700);
	snprintf(path, sizeof(path), "%s/.claude", home);
	cr_assert_eq(symlink(target, path), 0);
	seed_at(".claude/.claude.json", "{}");
	cr_assert_neq(ltd_state_create(&p, &err), 0);
	snprintf(path, sizeof(path), "%s/elsewhere/.claude.json", home);
	cr_assert_eq(access(path, F_OK), -1);
}

Test(state, seed_not_over_a_dangling_link)
{
	char path[256], target[256];

	snprintf(target, sizeof(target), "%s/planted", home);
	snprintf(path, sizeof(path), "%s/.claude.json", home);
	cr_assert_eq(symlink(target, path), 0);
	seed_at(".claude.json", "{}");
	cr_assert_eq(ltd_state_create(&p, &err), 0, "%s", err.msg);
	cr_assert_eq(access(target, F_OK), -1);
}
