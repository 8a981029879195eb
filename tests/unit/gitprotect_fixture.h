/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The git-protection tests' fixture, in this header only (each test file
 * its own copy of the state): setup() makes a project in dir with
 * .git/hooks, scripts/ and home/ (HOME, the global config's place);
 * teardown() frees p and prot and removes dir.
 */
#ifndef LTD_TEST_GITPROTECT_FIXTURE_H
#define LTD_TEST_GITPROTECT_FIXTURE_H

#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/policy.h"
#include "protect/protected.h"
#include "tests/common/fixture.h"

static struct ltd_policy p;
static struct ltd_protected prot;
static char dir[32];

static inline void put(const char *rel, const char *text)
{
	fx_put(dir, rel, text);
}

static inline void setup(void)
{
	char path[256];

	fx_tmpdir(dir, sizeof(dir), "git");
	ltd_policy_init(&p);
	p.project = strdup(dir);
	cr_assert_eq(system(NULL) != 0, 1);
	fx_mkdir(dir, ".git", 0755);
	fx_mkdir(dir, ".git/hooks", 0755);
	fx_mkdir(dir, "scripts", 0755);
	fx_mkdir(dir, "home", 0755);
	/* The global and system configs are read too: this test's own. */
	fx_path(path, sizeof(path), dir, "home");
	setenv("HOME", path, 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	unsetenv("GIT_CONFIG_GLOBAL");
	unsetenv("XDG_CONFIG_HOME");
}

static inline void teardown(void)
{
	ltd_policy_free(&p);
	ltd_protected_free(&prot);
	fx_rm_rf(dir);
}

static inline bool has(const char *rel)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s%s", dir, rel);
	for (size_t i = 0; i < prot.n; i++)
		if (strcmp(prot.paths[i], path) == 0)
			return true;
	return false;
}

/* A git directory in dir/@rel, as git init makes one: HEAD a symbolic
 * ref, objects/ and refs/ (what git's is_git_directory() looks for). */
static inline void make_gitdir(const char *rel)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd),
		 "mkdir -p %s/%s/objects %s/%s/refs/heads %s/%s/hooks", dir,
		 rel, dir, rel, dir, rel);
	cr_assert_eq(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s/HEAD", rel);
	put(cmd, "ref: refs/heads/main\n");
}

static inline void project_at(const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	ltd_policy_free(&p);
	ltd_protected_free(&prot);
	ltd_policy_init(&p);
	p.project = strdup(path);
}

/* A work tree at dir/repo with @config, and a directory repo/tools. */
static inline void work_tree_with_tools(const char *config)
{
	char cmd[300];

	make_gitdir("repo/.git");
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/repo/tools", dir);
	cr_assert_eq(system(cmd), 0);
	put("repo/.git/config", config);
}

#endif
