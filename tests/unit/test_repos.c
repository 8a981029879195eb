// SPDX-License-Identifier: GPL-2.0-or-later
/* Git repositories planted in a project: the report at exit, on a real
 * temp tree.  @since 0 takes every file as changed during the run, a
 * time far ahead takes none. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "protect/repos.h"

static char dir[] = "/tmp/ltd-repos.XXXXXX";
/* The project's own: the root and its .git are not judged. */
static bool root_protected = true;
static char proj[256];

static const struct timespec all = {0, 0}, none = {4102444800, 0};

static void setup(void)
{
	cr_assert_not_null(mkdtemp(dir));
	root_protected = true;
	snprintf(proj, sizeof(proj), "%s/proj", dir);
	cr_assert_eq(mkdir(proj, 0755), 0);
}

static void teardown(void)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	(void)!system(cmd);
	strcpy(dir, "/tmp/ltd-repos.XXXXXX");
}

TestSuite(repos, .init = setup, .fini = teardown);

/* mkdir -p of @rel's directories under the project, then @rel as a file
 * with @text (NULL: a directory). */
static void put(const char *rel, const char *text)
{
	char path[512], *s;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", proj, rel);
	for (s = path + strlen(proj) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
	if (!text) {
		cr_assert(mkdir(path, 0755) == 0 || errno == EEXIST, "%s",
			  path);
		return;
	}
	f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

/* A time between what was written before and what is written after:
 * the coarse clock's ticks apart (the ctimes come from it). */
static struct timespec mark(void)
{
	struct timespec t;

	usleep(20000);
	clock_gettime(CLOCK_REALTIME_COARSE, &t);
	usleep(20000);
	return t;
}

/* `rm -rf` of @path. */
static void rm_rf(const char *path)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
}

/* What `git init` makes, under @rel (a .git or a bare repository). */
static void gitdir(const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/HEAD", rel);
	put(p, "ref: refs/heads/main\n");
	snprintf(p, sizeof(p), "%s/objects/info", rel);
	put(p, NULL);
	snprintf(p, sizeof(p), "%s/refs/heads", rel);
	put(p, NULL);
	snprintf(p, sizeof(p), "%s/config", rel);
	put(p, "[core]\n\trepositoryformatversion = 0\n\tbare = false\n"
	       "\tfilemode = true\n\tlogallrefupdates = true\n");
	snprintf(p, sizeof(p), "%s/hooks/pre-commit.sample", rel);
	put(p, "#!/bin/sh\nexit 0\n");
	snprintf(p, sizeof(p), "%s/description", rel);
	put(p, "Unnamed repository\n");
}

/* The report without an index, and with the one in idx/ (made by the
 * reports before it in the test, or none yet): the index may change
 * what is read, never what is said. */
static char *report_lim(struct timespec since,
			const struct ltd_repos_limits *lim)
{
	char *text[2] = {NULL, NULL}, idx[300];
	size_t len[2] = {0, 0};
	unsigned skip = root_protected
				? LTD_REPOS_SKIP_ROOT | LTD_REPOS_SKIP_ROOT_GIT
				: 0;
	int fd;

	snprintf(idx, sizeof(idx), "%s/idx", dir);
	cr_assert(mkdir(idx, 0700) == 0 || errno == EEXIST);
	fd = open(idx, O_PATH | O_DIRECTORY | O_CLOEXEC);
	cr_assert_geq(fd, 0);
	for (int i = 0; i < 2; i++) {
		FILE *out = open_memstream(&text[i], &len[i]);

		cr_assert_not_null(out);
		ltd_repos_report(out, proj, skip, since, lim, i ? fd : -1);
		fclose(out);
	}
	close(fd);
	cr_assert_str_eq(text[1], text[0], "with the index:\n%s\nwithout:\n%s",
			 text[1], text[0]);
	free(text[1]);
	return text[0];
}

static char *report(struct timespec since)
{
	return report_lim(since, NULL);
}

static void assert_silent(struct timespec since)
{
	char *r = report(since);

	cr_assert_str_empty(r, "unexpected: %s", r);
	free(r);
}

/* One line each, every one a warning, @n of them. */
static void assert_lines(const char *r, int n)
{
	int lines = 0;

	for (const char *s = r; *s; s = strchr(s, '\n') + 1) {
		cr_assert(!strncmp(s, "ltd-native: warning: ", 21), "%s", r);
		cr_assert_not_null(strchr(s, '\n'), "%s", r);
		lines++;
	}
	cr_assert_eq(lines, n, "%d lines, want %d: %s", lines, n, r);
}

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
	rm_rf(path);
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

/* ---- a review's attacks ------------------------------------------------ */

/* git asks only that objects and refs be reachable: a link, or refs an
 * executable file, still make a git directory. */
Test(repos, objects_and_refs_of_any_type_make_a_git_directory)
{
	char path[512];
	char *r;

	gitdir("a/.git");
	put("a/.git/config", "[core]\n\tfsmonitor = ./x\n");
	snprintf(path, sizeof(path), "%s/a/.git/objects", proj);
	rm_rf(path);
	cr_assert_eq(symlink("o", path), 0);
	gitdir("b/.git");
	put("b/.git/config", "[core]\n\tfsmonitor = ./x\n");
	snprintf(path, sizeof(path), "%s/b/.git/refs", proj);
	rm_rf(path);
	put("b/.git/refs", "x");
	r = report(all);
	assert_lines(r, 2);
	cr_assert_not_null(strstr(r, "/proj/a/.git/config"), "%s", r);
	cr_assert_not_null(strstr(r, "/proj/b/.git/config"), "%s", r);
	free(r);
}

/* Planted over two runs: a config written while the directory was no git
 * directory yet (no HEAD), made one by the second run.  The second run's
 * change is to HEAD; the config, older, must be read then. */
Test(repos, a_config_older_than_the_run_is_read_when_the_repository_changed)
{
	struct timespec mid;
	char *r;

	gitdir("b/.git");
	put("b/.git/config", "[core]\n\tfsmonitor = ./x\n");
	put("old/.git/config", "[core]\n\tfsmonitor = ./x\n");
	put("old/.git/HEAD", "ref: refs/heads/main\n");
	put("old/.git/refs/x", "");
	put("old/.git/objects/x", "");
	mid = mark();
	put("b/.git/HEAD", "ref: refs/heads/main\n");
	r = report(mid);
	assert_lines(r, 1);
	cr_assert_not_null(strstr(r, "/proj/b/.git/config"), "%s", r);
	cr_assert_not_null(strstr(r, "core.fsmonitor"), "%s", r);
	free(r);
}

/* What a config includes is configuration too. */
Test(repos, an_included_file_that_changed_is_read)
{
	struct timespec mid;
	char *r;

	gitdir("n/.git");
	put("n/.git/config", "[include]\n\tpath = ../../shared.cfg\n");
	put("shared.cfg", "[user]\n\tname = x\n");
	mid = mark();
	put("shared.cfg", "[core]\n\tpager = sh ./p\n");
	r = report(mid);
	assert_lines(r, 1);
	cr_assert_not_null(strstr(r, "core.pager"), "%s", r);
	free(r);
}

/* A hook that is a link into the project, whose target changed; and a
 * core.hooksPath directory of the repository's whose hook changed. */
Test(repos, hooks_reached_through_a_link_or_a_hooks_path_are_judged)
{
	struct timespec mid;
	char path[512];
	char *r;

	gitdir("n/.git");
	put("scripts/post-checkout", "#!/bin/sh\n");
	snprintf(path, sizeof(path), "%s/n/.git/hooks/post-checkout", proj);
	cr_assert_eq(symlink("../../../scripts/post-checkout", path), 0);
	gitdir("m/.git");
	put("m/.git/config", "[core]\n\thooksPath = .husky\n");
	put("m/.husky/pre-commit", "#!/bin/sh\n");
	mid = mark();
	put("scripts/post-checkout", "#!/bin/sh\ntouch /tmp/x\n");
	put("m/.husky/pre-commit", "#!/bin/sh\ntouch /tmp/y\n");
	r = report(mid);
	cr_assert_not_null(strstr(r, "/proj/n/.git/hooks/post-checkout"), "%s",
			   r);
	cr_assert_not_null(strstr(r, "/proj/m/.husky/pre-commit"), "%s", r);
	assert_lines(r, 2);
	free(r);
}

/* git's helpers and transports that run a program of the project's. */
Test(repos, helpers_and_transports_are_keys_that_run)
{
	const char *keys[][2] = {
		{"[credential]\n\thelper = h/run\n", "credential.helper"},
		{"[remote \"o\"]\n\tvcs = h/run\n", "vcs"},
		{"[remote \"o\"]\n\turl = ext::sh -c touch% x\n", "url"},
		{"[url \"ext::sh -c x\"]\n\tinsteadOf = https://\n",
		 "insteadOf"},
		{"[protocol \"ext\"]\n\tallow = always\n", "allow"},
		{"[protocol]\n\tallow = always\n", "allow"},
	};
	char rel[64], *r;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		snprintf(rel, sizeof(rel), "r%zu/.git", i);
		gitdir(rel);
		snprintf(rel, sizeof(rel), "r%zu/.git/config", i);
		put(rel, keys[i][0]);
	}
	r = report(all);
	assert_lines(r, sizeof(keys) / sizeof(keys[0]));
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		cr_assert_not_null(strstr(r, keys[i][1]), "%s: %s", keys[i][1],
				   r);
	free(r);
	/* A helper by name runs git-credential-NAME from PATH: not said. */
	gitdir("plain/.git");
	put("plain/.git/config",
	    "[credential]\n\thelper = store\n[remote \"o\"]\n\turl = "
	    "https://example.invalid/x\n");
	r = report(all);
	cr_assert_null(strstr(r, "/proj/plain/"), "%s", r);
	free(r);
}

/* A .git file read as git reads it: the whole file but its trailing line
 * ends; a path through a link; a target that is missing. */
Test(repos, a_git_file_is_read_as_git_reads_it)
{
	char path[512], dir2[512];
	char *r;

	/* "gitdir: a\n/../../.." with a directory named "a\n". */
	put("x/a\n/keep", "");
	put("x/.git", "gitdir: a\n/../../../outside\n");
	/* Through a link: l -> elsewhere, "gitdir: l/..". */
	snprintf(dir2, sizeof(dir2), "%s/elsewhere/info", dir);
	cr_assert_eq(system(strcat(strcpy((char[600]){0}, "mkdir -p "), dir2)),
		     0);
	put("y/keep", "");
	snprintf(path, sizeof(path), "%s/y/l", proj);
	cr_assert_eq(symlink(dir2, path), 0);
	put("y/.git", "gitdir: l/..\n");
	put("z/.git", "gitdir: ../nothing-here\n");
	r = report(all);
	cr_assert_not_null(strstr(r, "/proj/x/.git"), "%s", r);
	cr_assert_not_null(strstr(r, "/proj/y/.git"), "%s", r);
	cr_assert_not_null(strstr(r, "/proj/z/.git"), "%s", r);
	assert_lines(r, 3);
	free(r);
}

/* The user's own directory the command made unlistable is said on every
 * run, not only the one that made it so. */
Test(repos, an_unreadable_directory_of_the_users_is_said_every_run)
{
	char path[512];
	char *r;

	put("c/sub/x", "");
	snprintf(path, sizeof(path), "%s/c", proj);
	cr_assert_eq(chmod(path, 0300), 0);
	if (access(path, R_OK) == 0) {
		chmod(path, 0755);
		cr_skip_test("running with CAP_DAC_OVERRIDE: nothing is "
			     "unreadable");
	}
	r = report(none);
	chmod(path, 0755);
	assert_lines(r, 1);
	cr_assert_not_null(strstr(r, "/proj/c:"), "%s", r);
	free(r);
}

/* The project made a git directory during the run: judged unless it was
 * one when the run started (then it was protected). */
Test(repos, a_root_made_a_git_directory_is_judged)
{
	char *r;

	root_protected = false;
	gitdir(".");
	put("config", "[core]\n\tfsmonitor = ./x\n");
	r = report(all);
	assert_lines(r, 1);
	cr_assert_not_null(strstr(r, "/proj/config"), "%s", r);
	free(r);
}

/* A flood of hooks cannot scroll the rest away. */
Test(repos, warnings_are_capped)
{
	char rel[64], *r;

	gitdir("f/.git");
	for (int i = 0; i < 500; i++) {
		snprintf(rel, sizeof(rel), "f/.git/hooks/h%03d", i);
		put(rel, "#!/bin/sh\n");
	}
	gitdir("g/.git");
	put("g/.git/config", "[core]\n\tfsmonitor = ./x\n");
	r = report(all);
	cr_assert_not_null(strstr(r, "/proj/g/.git/config"), "%s", r);
	cr_assert_not_null(strstr(r, "more"), "%s", r);
	cr_assert_lt(strlen(r), 20000, "%zu bytes", strlen(r));
	free(r);
}

/* ---- the second review's ---------------------------------------------- */

/* hooks/ a link to a directory in the project (ln -s ../githooks): the
 * hooks there are judged. */
Test(repos, hooks_behind_a_hooks_link_are_judged)
{
	struct timespec mid;
	char path[512];
	char *r;

	gitdir("t/.git");
	snprintf(path, sizeof(path), "%s/t/.git/hooks", proj);
	rm_rf(path);
	cr_assert_eq(symlink("../githooks", path), 0);
	put("t/githooks/pre-commit", "#!/bin/sh\n");
	mid = mark();
	put("t/githooks/pre-commit", "#!/bin/sh\ntouch /tmp/x\n");
	r = report(mid);
	assert_lines(r, 1);
	cr_assert_not_null(strstr(r, "/proj/t/githooks/pre-commit"), "%s", r);
	free(r);
}

/* What git follows through a link ltd-native will not follow: said on
 * every run (the link may be the command's). */
Test(repos, hooks_hooks_paths_and_includes_through_a_link_are_said)
{
	char path[512];
	char *r;

	/* A hook link whose target's directory is now a link. */
	gitdir("a/.git");
	put("a/evil/pre-commit", "#!/bin/sh\n");
	snprintf(path, sizeof(path), "%s/a/scripts", proj);
	cr_assert_eq(symlink("evil", path), 0);
	snprintf(path, sizeof(path), "%s/a/.git/hooks/pre-commit", proj);
	cr_assert_eq(symlink("../../scripts/pre-commit", path), 0);
	/* A hooks path that is a link. */
	gitdir("b/.git");
	put("b/.git/config", "[core]\n\thooksPath = .githooks\n");
	put("b/evil/pre-commit", "#!/bin/sh\n");
	snprintf(path, sizeof(path), "%s/b/.githooks", proj);
	cr_assert_eq(symlink("evil", path), 0);
	/* An include that is a link. */
	gitdir("c/.git");
	put("c/.git/config", "[include]\n\tpath = ../shared.cfg\n");
	put("c/evil.cfg", "[core]\n\tfsmonitor = ./x\n");
	snprintf(path, sizeof(path), "%s/c/shared.cfg", proj);
	cr_assert_eq(symlink("evil.cfg", path), 0);
	r = report(none);
	cr_assert_not_null(strstr(r, "/proj/a/.git/hooks/pre-commit"), "%s", r);
	cr_assert_not_null(strstr(r, "/proj/b/.githooks"), "%s", r);
	cr_assert_not_null(strstr(r, "/proj/c/.git/config"), "%s", r);
	assert_lines(r, 3);
	free(r);
}

/* husky: core.hooksPath .husky/_ runs the scripts in .husky. */
Test(repos, huskys_scripts_are_judged)
{
	struct timespec mid;
	char *r;

	gitdir("h/.git");
	put("h/.git/config", "[core]\n\thooksPath = .husky/_\n");
	put("h/.husky/_/pre-commit", "#!/bin/sh\n. \"$(dirname \"$0\")/h\"\n");
	put("h/.husky/pre-commit", "npm test\n");
	mid = mark();
	put("h/.husky/pre-commit", "touch /tmp/x\n");
	r = report(mid);
	assert_lines(r, 1);
	cr_assert_not_null(strstr(r, "/proj/h/.husky/pre-commit"), "%s", r);
	free(r);
}

/* --review: only the upper directory is walked, shown as the project, and
 * a repository is told by what the upper and the project hold together:
 * the cage changed one file of the user's repository (its config, a
 * hook), or made a whole one. */
Test(repos, review_upper_walked_as_the_project)
{
	char upper[64], p[1024], *text = NULL;
	size_t len = 0;
	FILE *out;

	gitdir("mine/.git"); /* the user's, in the project (lower) */
	snprintf(upper, sizeof(upper), "%s/upper", dir);
	snprintf(p, sizeof(p), "mkdir -p %s/mine/.git/hooks %s/new", upper,
		 upper);
	cr_assert_eq(system(p), 0);
	/* git as a hook's environment would not run it (git rebase --exec
	 * exports GIT_DIR: git init would then write the enclosing
	 * repository's config). */
	snprintf(p, sizeof(p),
		 "printf '[core]\\n\\tfsmonitor = ./x\\n' > %s/mine/.git/config"
		 " && printf '#!/bin/sh\\n' > %s/mine/.git/hooks/post-checkout"
		 " && cd %s/new && unset GIT_DIR GIT_WORK_TREE GIT_COMMON_DIR"
		 " GIT_INDEX_FILE && git init -q . && git config alias.x '!y'",
		 upper, upper, upper);
	cr_assert_eq(system(p), 0);
	out = open_memstream(&text, &len);
	ltd_repos_report_upper(out, upper, proj, LTD_REPOS_SKIP_ROOT_GIT, all,
			       NULL);
	fclose(out);
	snprintf(p, sizeof(p), "%s/mine/.git/config: ", proj);
	cr_assert_not_null(strstr(text, p), "%s", text);
	cr_assert_not_null(strstr(text, "core.fsmonitor"), "%s", text);
	snprintf(p, sizeof(p), "%s/mine/.git/hooks/post-checkout", proj);
	cr_assert_not_null(strstr(text, p), "%s", text);
	snprintf(p, sizeof(p), "%s/new/.git/config: ", proj);
	cr_assert_not_null(strstr(text, p), "%s", text);
	cr_assert_null(strstr(text, upper), "the upper's own path: %s", text);
	free(text);
}
