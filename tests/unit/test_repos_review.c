// SPDX-License-Identifier: GPL-2.0-or-later
/* Git repositories planted in a project under --review: the exit walk
 * reads only the upper directory, and judges each repository there by
 * what the upper and the project below it hold together, as the cage saw
 * them.  The fixture is test_repos.c's; the project is the lower. */
#include "repos_fixture.h"

TestSuite(repos_review, .init = setup, .fini = teardown);

static char upper[128];

/* @rel in the upper, as put() makes it in the project. */
static void up(const char *rel, const char *text)
{
	char p[1024];

	snprintf(p, sizeof(p), "../upper/%s", rel);
	put(p, text);
}

static char *report_upper(struct timespec since)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	cr_assert_not_null(out);
	snprintf(upper, sizeof(upper), "%s/upper", dir);
	ltd_repos_report_upper(out, upper, proj, LTD_REPOS_SKIP_ROOT_GIT, since,
			       NULL);
	fclose(out);
	cr_assert_null(strstr(text, upper), "the upper's own path: %s", text);
	return text;
}

/* A hook the command plants under a relative core.hooksPath in a work
 * tree whose .git (a linked worktree's file, a nested repository's
 * directory) and configuration are the project's, unchanged: only the
 * hook is in the upper.  And a worktree's config.worktree the upper does
 * not hold, its git directory's other files it does: read from the
 * project (the attacker's review of decision 0156). */
Test(repos_review, hooks_of_a_work_tree_below_the_upper_are_judged)
{
	struct timespec mid;
	char *r;

	gitdir("lib/.git");
	put("lib/.git/config", "[core]\n\thooksPath = .husky/_\n"
			       "[extensions]\n\tworktreeConfig = true\n");
	worktree("lib/.git", "wt", "wt");
	worktree("lib/.git", "own", "own");
	put("lib/.git/worktrees/own/config.worktree",
	    "[core]\n\thooksPath = .own\n");
	gitdir("n/.git");
	put("n/.git/config", "[core]\n\thooksPath = .husky/_\n");
	mid = mark();
	up("wt/.husky/_/pre-commit", "#!/bin/sh\ntouch PWNED\n");
	up("n/.husky/_/pre-commit", "#!/bin/sh\ntouch PWNED\n");
	up("n/src/main.c", "int main;\n");
	up("own/.git", "gitdir: ../lib/.git/worktrees/own\n");
	up("lib/.git/worktrees/own/ORIG_HEAD", "0\n");
	up("own/.own/pre-commit", "#!/bin/sh\ntouch PWNED\n");
	r = report_upper(mid);
	assert_said(r, "wt/.husky/_/pre-commit");
	assert_said(r, "n/.husky/_/pre-commit");
	assert_said(r, "own/.own/pre-commit");
	cr_assert_null(strstr(r, "main.c"), "%s", r);
	free(r);
	/* A config the command changed in the main repository, the upper
	 * holding its worktree's git directory but not its HEAD: said once
	 * (its worktree's commondir names it; the walk judges it itself). */
	up("lib/.git/config", "[core]\n\tfsmonitor = touch PWNED\n");
	r = report_upper(mid);
	assert_said(r, "lib/.git/config");
	cr_assert_null(strstr(strstr(r, "/proj/lib/.git/config: ") + 1,
			      "/proj/lib/.git/config: "),
		       "%s", r);
	free(r);
}

/* A file an unchanged nested repository's configuration (the project's)
 * names for git to run, rewritten in the upper: said. */
Test(repos_review, a_file_a_configuration_below_runs_is_judged)
{
	struct timespec mid;
	char *r;

	gitdir("vendor/lib/.git");
	put("vendor/lib/.git/config", "[core]\n\tfsmonitor = ./tool.sh\n"
				      "[alias]\n\tx = !sh ./old.sh\n");
	put("vendor/lib/tool.sh", "exit 1\n");
	put("vendor/lib/old.sh", "exit 1\n");
	mid = mark();
	up("vendor/lib/tool.sh", "#!/bin/sh\ntouch PWNED\n");
	r = report_upper(mid);
	assert_said(r, "vendor/lib/tool.sh");
	assert_lines(r, 1);
	free(r);
}
