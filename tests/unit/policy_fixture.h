/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The policy tests' fixture, in this header only (each test file its own
 * copy of the state): setup() makes dir/cfg (a config directory)
 * and dir/proj (a project with .ltd-native/), teardown() frees the policy
 * and removes the directory.
 */
#ifndef LTD_TEST_POLICY_FIXTURE_H
#define LTD_TEST_POLICY_FIXTURE_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "policy/option.h"
#include "runtime/hostuser.h"
#include "runtime/run.h"
#include "tests/common/fixture.h"

static struct ltd_policy p;
static struct ltd_protected prot;
static struct ltd_err err;
static char dir[64];
static char cfg[128], proj[128];
static struct ltd_opt_list l;

static inline void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

static inline void setup(void)
{
	char path[192];

	ltd_policy_init(&p);
	memset(&err, 0, sizeof(err));
	fx_tmpdir(dir, sizeof(dir), "policy");
	snprintf(cfg, sizeof(cfg), "%s/cfg", dir);
	snprintf(proj, sizeof(proj), "%s/proj", dir);
	mkdir(cfg, 0700);
	mkdir(proj, 0755);
	snprintf(path, sizeof(path), "%s/.ltd-native", proj);
	mkdir(path, 0755);
}

static inline void teardown(void)
{
	ltd_policy_free(&p);
	ltd_protected_free(&prot);
	fx_rm_rf(dir);
}

static inline int resolve_env(char **env, int argc, char **argv)
{
	struct ltd_policy_input in = {.user = ltd_host_user(),
				      .argc = argc,
				      .argv = argv,
				      .env = env,
				      .config_dir = cfg,
				      .cwd = proj};

	return ltd_policy_resolve(&p, &in, &err);
}

static inline int parse_text(const char *text, unsigned forbid)
{
	ltd_opts_free(&l);
	return ltd_opts_from_text(&l, text, strlen(text), "F", "/home/u",
				  forbid, &err);
}

static inline void fake_home(const char *home, const char *host_home)
{
	free(p.id.home);
	free(p.host_home);
	p.id.home = strdup(home);
	p.host_home = host_home ? strdup(host_home) : NULL;
	p.id.uid = 4242;
}

#define RESOLVE(...)                                                           \
	({                                                                     \
		char *args[] = {__VA_ARGS__};                                  \
		resolve_env(NULL, sizeof(args) / sizeof(args[0]), args);       \
	})

#endif
