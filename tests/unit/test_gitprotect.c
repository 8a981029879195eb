// SPDX-License-Identifier: GPL-2.0-or-later
/* What git executes from or is configured by, found in a real temp repo. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy/policy.h"

static struct ltd_policy p;
static char dir[] = "/tmp/ltd-git.XXXXXX";

static void put(const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

static void setup(void)
{
	char path[256];

	cr_assert_not_null(mkdtemp(dir));
	ltd_policy_init(&p);
	p.project = strdup(dir);
	snprintf(path, sizeof(path), "%s/.git/hooks", dir);
	cr_assert_eq(system(NULL) != 0, 1);
	mkdir(strcat(strcpy(path, dir), "/.git"), 0755);
	mkdir(strcat(strcpy(path, dir), "/.git/hooks"), 0755);
	mkdir(strcat(strcpy(path, dir), "/scripts"), 0755);
}

static void teardown(void)
{
	char cmd[64];

	ltd_policy_free(&p);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	(void)!system(cmd);
	strcpy(dir, "/tmp/ltd-git.XXXXXX");
}

TestSuite(gitprotect, .init = setup, .fini = teardown);

static bool has(const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s%s", dir, rel);
	for (size_t i = 0; i < p.n_protected; i++)
		if (strcmp(p.protected[i], path) == 0)
			return true;
	return false;
}

Test(gitprotect, fixed_paths_with_git_first)
{
	struct ltd_err err = {0};
	char git[256];

	cr_assert_eq(ltd_git_protected(&p, &err), 0);
	snprintf(git, sizeof(git), "%s/.git", dir);
	cr_assert_str_eq(p.protected[0], git, ".git comes first (pinned)");
	cr_assert(has("/.git/config"));
	cr_assert(has("/.git/hooks"));
	cr_assert(has("/.git/commondir"), "commondir redirects git");
	cr_assert(has("/.git/modules"), "submodules have configs and hooks");
	cr_assert(has("/.git/worktrees"));
	cr_assert(has("/.claude/settings.json"),
		  "Claude Code runs the hooks of a project's settings");
	cr_assert(has("/.claude/settings.local.json"));
	cr_assert(has("/.mcp.json"));
}

Test(gitprotect, config_keys_inside_the_project)
{
	struct ltd_err err = {0};

	put(".git/config", "[core]\n"
			   "\tbare = false\n"
			   "\thooksPath = .githooks\n"
			   "\tfsmonitor = \"scripts/fsmon.sh\"\n"
			   "[include]\n"
			   "\tpath = ../shared.gitconfig\n"
			   "[includeIf \"gitdir:~/work/\"]\n"
			   "\tpath = /etc/outside.gitconfig\n");
	cr_assert_eq(ltd_git_protected(&p, &err), 0);
	cr_assert(has("/.githooks"), "core.hooksPath, even before it exists");
	cr_assert(has("/scripts/fsmon.sh"), "core.fsmonitor as a path");
	cr_assert(has("/shared.gitconfig"), "include.path, from .git");
	for (size_t i = 0; i < p.n_protected; i++)
		cr_assert_null(strstr(p.protected[i], "/etc/outside"),
			       "outside the project is not ours");
}

Test(gitprotect, escapes_by_dotdot_are_ignored)
{
	struct ltd_err err = {0};
	size_t before;

	put(".git/config", "[core]\n\thooksPath = ../../../etc/missing-x\n");
	cr_assert_eq(ltd_git_protected(&p, &err), 0);
	before = p.n_protected;
	cr_assert_eq(before, 9, "only the fixed paths: %zu", before);
}

Test(gitprotect, linked_hooks_protect_their_targets)
{
	struct ltd_err err = {0};
	char link[256];

	put("scripts/pre-commit", "#!/bin/sh\n");
	snprintf(link, sizeof(link), "%s/.git/hooks/pre-commit", dir);
	cr_assert_eq(symlink("../../scripts/pre-commit", link), 0);
	cr_assert_eq(ltd_git_protected(&p, &err), 0);
	cr_assert(has("/scripts/pre-commit"));
}

Test(gitprotect, no_git_directory)
{
	struct ltd_err err = {0};
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s/.git", dir);
	cr_assert_eq(system(cmd), 0);
	cr_assert_eq(ltd_git_protected(&p, &err), 0);
	cr_assert_eq(p.n_protected, 9, "the fixed paths, watched at exit");
}
