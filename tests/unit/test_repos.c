// SPDX-License-Identifier: GPL-2.0-or-later
/* Git repositories planted in a project: the report at exit, on a real
 * temp tree.  @since 0 takes every file as changed during the run, a
 * time far ahead takes none. */
#include "repos_fixture.h"

TestSuite(repos, .init = setup, .fini = teardown);

Test(repos, an_empty_project_says_nothing)
{
	put("src/main.c", "int main(void) { return 0; }\n");
	assert_silent(all);
}

Test(repos, a_plain_git_init_runs_nothing)
{
	gitdir("sub/.git");
	gitdir("lib/x.git");
	assert_silent(all);
}

Test(repos, a_new_fsmonitor_is_said)
{
	char *r;

	gitdir("sub/.git");
	put("sub/.git/config",
	    "[core]\n\tfsmonitor = \"sh -c 'touch /tmp/x'\"\n");
	r = report(all);
	assert_lines(r, 1);
	cr_assert_not_null(strstr(r, "/proj/sub/.git/config"), "%s", r);
	cr_assert_not_null(strstr(r, "core.fsmonitor"), "%s", r);
	free(r);
}

Test(repos, a_config_from_before_the_run_is_not_said)
{
	gitdir("sub/.git");
	put("sub/.git/config", "[core]\n\tfsmonitor = ./x.sh\n");
	put("sub/.git/hooks/pre-commit", "#!/bin/sh\n");
	assert_silent(none);
}

Test(repos, a_boolean_fsmonitor_runs_nothing)
{
	gitdir("sub/.git");
	put("sub/.git/config", "[core]\n\tfsmonitor = true\n");
	assert_silent(all);
}

Test(repos, a_hook_is_said)
{
	char *r;

	gitdir("sub/.git");
	put("sub/.git/hooks/post-checkout", "#!/bin/sh\n");
	r = report(all);
	assert_lines(r, 1);
	cr_assert_not_null(strstr(r, "/proj/sub/.git/hooks/post-checkout"),
			   "%s", r);
	free(r);
}

Test(repos, a_bare_repository_with_an_alias_is_said)
{
	char *r;

	gitdir("vendor/lib.git");
	put("vendor/lib.git/config", "[alias]\n\tst = !sh ./evil\n");
	r = report(all);
	assert_lines(r, 1);
	cr_assert_not_null(strstr(r, "/proj/vendor/lib.git/config"), "%s", r);
	cr_assert_not_null(strstr(r, "alias.st"), "%s", r);
	free(r);
}

Test(repos, includes_and_hooks_paths_are_said)
{
	char *r;

	gitdir("a/.git");
	put("a/.git/config", "[include]\n\tpath = ../../../evil.cfg\n");
	gitdir("b/.git");
	put("b/.git/config", "[core]\n\thooksPath = ../hooks\n");
	r = report(all);
	assert_lines(r, 2);
	cr_assert_not_null(strstr(r, "include.path"), "%s", r);
	cr_assert_not_null(strstr(r, "core.hooksPath"), "%s", r);
	free(r);
}

Test(repos, config_worktree_is_read_too)
{
	char *r;

	gitdir("sub/.git");
	put("sub/.git/config.worktree", "[core]\n\tpager = ./p.sh\n");
	r = report(all);
	assert_lines(r, 1);
	cr_assert_not_null(strstr(r, "/proj/sub/.git/config.worktree"), "%s",
			   r);
	free(r);
}

Test(repos, the_projects_own_git_directory_is_not_judged_here)
{
	gitdir(".git");
	put(".git/config", "[core]\n\tfsmonitor = ./x.sh\n");
	put(".git/hooks/pre-commit", "#!/bin/sh\n");
	assert_silent(all);
}

Test(repos, a_project_that_is_a_bare_repository_is_not_judged_here)
{
	gitdir(".");
	put("config", "[core]\n\tfsmonitor = ./x.sh\n");
	assert_silent(all);
}

Test(repos, a_repository_hidden_in_the_projects_git_directory_is_said)
{
	char *r;

	gitdir(".git");
	gitdir(".git/evil");
	put(".git/evil/config", "[core]\n\tfsmonitor = ./x.sh\n");
	put("sub/.git", "gitdir: ../.git/evil\n");
	r = report(all);
	assert_lines(r, 1);
	cr_assert_not_null(strstr(r, "/proj/.git/evil/config"), "%s", r);
	free(r);
}

Test(repos, a_commondir_is_said)
{
	char *r;

	gitdir("sub/.git");
	put("sub/.git/commondir", "../../other\n");
	r = report(all);
	assert_lines(r, 1);
	cr_assert_not_null(strstr(r, "/proj/sub/.git/commondir"), "%s", r);
	free(r);
}

Test(repos, a_worktree_git_directory_needs_only_head_and_commondir)
{
	char *r;

	put("w/HEAD", "ref: refs/heads/main\n");
	put("w/commondir", "..\n");
	r = report(all);
	assert_lines(r, 1);
	cr_assert_not_null(strstr(r, "/proj/w/commondir"), "%s", r);
	free(r);
}

Test(repos, a_config_that_is_a_link_is_said_unread)
{
	char path[512];
	char *r;

	gitdir("sub/.git");
	snprintf(path, sizeof(path), "%s/sub/.git/config", proj);
	unlink(path);
	cr_assert_eq(symlink("/etc/passwd", path), 0);
	r = report(all);
	assert_lines(r, 1);
	cr_assert_not_null(strstr(r, "/proj/sub/.git/config"), "%s", r);
	cr_assert_not_null(strstr(r, "symbolic link"), "%s", r);
	free(r);
}

Test(repos, a_fifo_config_does_not_block_and_is_said)
{
	char path[512];
	char *r;

	gitdir("sub/.git");
	snprintf(path, sizeof(path), "%s/sub/.git/config", proj);
	unlink(path);
	cr_assert_eq(mkfifo(path, 0644), 0);
	r = report(all);
	assert_lines(r, 1);
	cr_assert_not_null(strstr(r, "/proj/sub/.git/config"), "%s", r);
	free(r);
}

Test(repos, a_hooks_link_is_said)
{
	char path[512];
	char *r;

	gitdir("sub/.git");
	snprintf(path, sizeof(path), "%s/sub/.git/hooks", proj);
	fx_rm_rf(path);
	cr_assert_eq(symlink("../../hookdir", path), 0);
	r = report(all);
	assert_lines(r, 1);
	cr_assert_not_null(strstr(r, "/proj/sub/.git/hooks"), "%s", r);
	free(r);
}

Test(repos, a_git_file_or_link_leading_out_of_the_project_is_said)
{
	char path[512];
	char *r;

	put("a/.git", "gitdir: /home/someone/repo/.git\n");
	snprintf(path, sizeof(path), "%s/b/.git", proj);
	put("b/x", "");
	cr_assert_eq(symlink("/home/someone/repo/.git", path), 0);
	put("c/.git", "gitdir: ../../outside\n");
	/* Nowhere yet: a link made later on its way could lead out. */
	put("d/.git", "gitdir: ../.git/modules/d\n");
	/* Into the root: the walk judges what is there. */
	gitdir(".git/modules/e");
	put("e/.git", "gitdir: ../.git/modules/e\n");
	r = report(all);
	assert_lines(r, 4);
	cr_assert_not_null(strstr(r, "/proj/a/.git"), "%s", r);
	cr_assert_not_null(strstr(r, "/proj/b/.git"), "%s", r);
	cr_assert_not_null(strstr(r, "/proj/c/.git"), "%s", r);
	cr_assert_not_null(strstr(r, "/proj/d/.git: "), "%s", r);
	cr_assert_null(strstr(r, "/proj/e/.git"), "%s", r);
	free(r);
}

Test(repos, links_to_directories_are_not_followed)
{
	char path[512], out[512];

	snprintf(out, sizeof(out), "%s/outside", dir);
	mkdir(out, 0755);
	strcat(out, "/.git");
	mkdir(out, 0755);
	snprintf(path, sizeof(path), "%s/HEAD", out);
	fclose(fopen(path, "w"));
	snprintf(path, sizeof(path), "%s/objects", out);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/refs", out);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/hooks", out);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/hooks/pre-commit", out);
	fclose(fopen(path, "w"));
	snprintf(path, sizeof(path), "%s/lnk", proj);
	snprintf(out, sizeof(out), "%s/outside", dir);
	cr_assert_eq(symlink(out, path), 0);
	assert_silent(all);
}

Test(repos, names_are_shown_without_control_characters)
{
	char *r;

	gitdir("x\033]0;owned\007/.git");
	put("x\033]0;owned\007/.git/hooks/pre-push", "#!/bin/sh\n");
	r = report(all);
	assert_lines(r, 1);
	cr_assert_null(strchr(r, '\033'), "%s", r);
	cr_assert_null(strchr(r, '\007'), "%s", r);
	free(r);
}

Test(repos, below_the_depth_limit_is_said_not_skipped)
{
	struct ltd_repos_limits lim = {.depth = 3, .dirs = 1000};
	char *r;

	gitdir("a/b/c/d/e/.git");
	put("a/b/c/d/e/.git/hooks/pre-commit", "#!/bin/sh\n");
	r = report_lim(all, &lim);
	assert_lines(r, 1);
	cr_assert_not_null(strstr(r, "/proj/a/b/c"), "%s", r);
	cr_assert_not_null(strstr(r, "deep"), "%s", r);
	cr_assert_null(strstr(r, "pre-commit"), "%s", r);
	free(r);
}

Test(repos, within_the_depth_limit_all_is_seen)
{
	/* a, b, .git, then hooks, objects, refs: four levels. */
	struct ltd_repos_limits lim = {.depth = 4, .dirs = 1000};
	char *r;

	gitdir("a/b/.git");
	rmdir(strcat(strcpy((char[600]){0}, proj), "/a/b/.git/objects/info"));
	rmdir(strcat(strcpy((char[600]){0}, proj), "/a/b/.git/refs/heads"));
	put("a/b/.git/hooks/pre-commit", "#!/bin/sh\n");
	r = report_lim(all, &lim);
	assert_lines(r, 1);
	cr_assert_not_null(strstr(r, "pre-commit"), "%s", r);
	free(r);
}

Test(repos, past_the_directory_limit_is_said)
{
	struct ltd_repos_limits lim = {.depth = 100, .dirs = 3};
	char *r;

	put("a/1/x", "");
	put("b/1/x", "");
	put("c/1/x", "");
	r = report_lim(all, &lim);
	assert_lines(r, 1);
	cr_assert_not_null(strstr(r, "3 directories"), "%s", r);
	free(r);
}

Test(repos, a_missing_root_says_so)
{
	char *r;

	rmdir(proj);
	r = report(all);
	assert_lines(r, 1);
	cr_assert_not_null(strstr(r, "/proj"), "%s", r);
	free(r);
}

/* A writable --bind's tree: nothing in it was protected before the run. */
Test(repos, an_unprotected_root_and_its_git_directory_are_judged)
{
	char *r;

	root_protected = false;
	gitdir(".git");
	put(".git/hooks/pre-commit", "#!/bin/sh\n");
	r = report(all);
	assert_lines(r, 1);
	cr_assert_not_null(strstr(r, "/proj/.git/hooks/pre-commit"), "%s", r);
	free(r);
	gitdir(".");
	put("config", "[core]\n\tfsmonitor = ./x.sh\n");
	r = report(all);
	assert_lines(r, 2);
	cr_assert_not_null(strstr(r, "/proj/config: "), "%s", r);
	free(r);
}
