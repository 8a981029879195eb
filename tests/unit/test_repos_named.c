// SPDX-License-Identifier: GPL-2.0-or-later
/* Git repositories in a project: the files a nested repository's
 * configuration, unchanged, names for git to run (core.fsmonitor, a
 * filter, an alias "!..."), which the command rewrote.  The checks before
 * the run keep those of the project's own repository read-only; a nested
 * one's are found only by the exit walk.  The fixture is test_repos.c's. */
#include "repos_fixture.h"

TestSuite(repos_named, .init = setup, .fini = teardown);

/* A repository made before the run, its configuration naming scripts in
 * its work tree; the run rewrites them, not the configuration. */
Test(repos_named, a_file_an_unchanged_configuration_runs_is_said)
{
	struct timespec mid;
	char *r;

	gitdir("vendor/lib/.git");
	put("vendor/lib/.git/config",
	    "[core]\n\tfsmonitor = ./tool.sh\n"
	    "[filter \"x\"]\n\tsmudge = sh scripts/smudge.sh %f\n"
	    "[alias]\n\tst = !node tools/st.js\n"
	    "[core]\n\tpager = less\n");
	put("vendor/lib/tool.sh", "#!/bin/sh\nexit 1\n");
	put("vendor/lib/scripts/smudge.sh", "cat\n");
	put("vendor/lib/tools/st.js", "\n");
	put("vendor/lib/untouched.sh", "\n");
	free(report(all)); /* the index of the tree as it was */
	mid = mark();
	put("vendor/lib/tool.sh", "#!/bin/sh\ntouch PWNED\n");
	put("vendor/lib/scripts/smudge.sh", "touch PWNED\n");
	put("vendor/lib/tools/st.js", "require('fs').writeFileSync('PWNED')\n");
	put("vendor/lib/untouched.sh", "touch x\n");
	r = report(mid);
	assert_lines(r, 3);
	assert_said(r, "vendor/lib/tool.sh");
	assert_said(r, "vendor/lib/scripts/smudge.sh");
	assert_said(r, "vendor/lib/tools/st.js");
	cr_assert_not_null(strstr(r, "(core.fsmonitor)"), "%s", r);
	cr_assert_not_null(strstr(r, "(filter.x.smudge)"), "%s", r);
	cr_assert_null(strstr(r, "untouched"), "%s", r);
	free(r);
	/* Unchanged since: nothing. */
	assert_silent(mark());
}

/* What it names through a link: the link made by the command, or its
 * target changed; a link on the way, said on every run (what is behind
 * it cannot be judged); what lies out of the project, not the walk's. */
Test(repos_named, a_named_file_behind_a_link_is_judged)
{
	struct timespec mid;
	char path[512], to[512];
	char *r;

	gitdir("a/.git");
	put("a/.git/config", "[core]\n\tfsmonitor = bin/fsmon\n");
	put("a/real/fsmon", "#!/bin/sh\n");
	put("a/bin/x", "");
	snprintf(path, sizeof(path), "%s/a/bin/fsmon", proj);
	cr_assert_eq(symlink("../real/fsmon", path), 0);
	gitdir("b/.git");
	put("b/.git/config", "[core]\n\tsshCommand = sh /etc/profile x/y\n");
	gitdir("c/.git");
	put("c/.git/config", "[diff \"d\"]\n\ttextconv = tc/conv\n");
	put("c/elsewhere/conv", "");
	snprintf(path, sizeof(path), "%s/c/tc", proj);
	cr_assert_eq(symlink("elsewhere", path), 0);
	mid = mark();
	put("a/real/fsmon", "#!/bin/sh\ntouch PWNED\n");
	r = report(mid);
	assert_said(r, "a/bin/fsmon");
	assert_said(r, "c/tc/conv");
	cr_assert_null(strstr(r, "/proj/b"), "%s", r);
	assert_lines(r, 2);
	free(r);
	/* The link on the way is said again; the target, now old, not. */
	r = report(mark());
	assert_lines(r, 1);
	assert_said(r, "c/tc/conv");
	free(r);
	snprintf(to, sizeof(to), "%s/a/bin/fsmon", proj);
	cr_assert_eq(unlink(to), 0);
	mid = mark();
	cr_assert_eq(symlink("x", to), 0);
	r = report(mid);
	assert_said(r, "a/bin/fsmon");
	free(r);
}

/* Where git runs a repository's commands: the work tree's top, a bare
 * repository's git directory, core.worktree, and the top of each linked
 * worktree whose .git file names it. */
Test(repos_named, named_files_are_taken_from_each_work_tree)
{
	struct timespec mid;
	char *r;

	gitdir("bare.git");
	put("bare.git/config", "[core]\n\tbare = true\n"
			       "[alias]\n\tx = !sh ./x.sh\n");
	put("bare.git/x.sh", "");
	gitdir("main/.git");
	put("main/.git/config", "[filter \"f\"]\n\tclean = ./clean.sh\n");
	worktree("main/.git", "wt", "wt");
	put("wt/clean.sh", "");
	put("main/clean.sh", "");
	gitdir("mods/sub");
	put("mods/sub/config",
	    "[core]\n\tworktree = ../../subwt\n\tfsmonitor = ./f.sh\n");
	put("subwt/f.sh", "");
	mid = mark();
	put("bare.git/x.sh", "touch PWNED\n");
	put("wt/clean.sh", "touch PWNED\n");
	put("subwt/f.sh", "touch PWNED\n");
	r = report(mid);
	assert_said(r, "bare.git/x.sh");
	assert_said(r, "wt/clean.sh");
	assert_said(r, "subwt/f.sh");
	cr_assert_null(strstr(r, "main/clean.sh"), "%s", r);
	assert_lines(r, 3);
	free(r);
}
