// SPDX-License-Identifier: GPL-2.0-or-later
/* What one run hid from the walk (a directory it could not open, a tree
 * deeper than it looks) and a later run shows it: the files there were
 * made before the later run began, so "changed during the run" says
 * nothing of them.  The index remembers the directories the walk did not
 * look in, and what a later walk finds there is judged as new; so is a
 * directory the run moved into a place the index did not know it at. */
#include <errno.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <time.h>

#include "repoindex_fixture.h"

TestSuite(walkhidden, .init = setup, .fini = teardown);

static const struct ltd_repos_limits three = {3, LTD_REPOS_MAX_DIRS, 50000000};

/* A run's start: after what was written before (the coarse clock's
 * ticks apart, and ripe for the index). */
static struct timespec run_starts(void)
{
	struct timespec t;

	usleep(RIPE_US);
	clock_gettime(CLOCK_REALTIME_COARSE, &t);
	usleep(20000);
	return t;
}

static void assert_has(const char *r, const char *what)
{
	cr_assert_not_null(r);
	cr_assert_not_null(strstr(r, what), "want %s in: %s", what, r);
}

/* Run N plants a repository deeper than the walk looks (said: not looked
 * below); run N+1 looks deeper (a walk of larger limits, or the same
 * place no longer too deep): what is there is new to it. */
Test(walkhidden, a_repository_past_the_depth_limit_is_new_when_seen)
{
	struct timespec t;
	char *r;

	sh("cd '%s' && mkdir -p a/b", proj);
	free(report_since(run_starts(), &three, true));
	t = run_starts();
	plant("a/b/c/d/r");
	r = report_since(t, &three, true);
	assert_has(r, "did not look below");
	free(r);
	t = run_starts();
	r = report_since(t, &lim, true);
	assert_found(r, "a/b/c/d/r");
	free(r);
	/* Seen now: the next run says nothing more of it. */
	r = report_since(run_starts(), &lim, true);
	cr_assert_str_empty(r, "%s", r);
	free(r);
}

/* Run N+1 moves the deep repository up, within the walk's reach: it is
 * new at its place, and the run moved it there. */
Test(walkhidden, a_repository_moved_up_from_past_the_depth_limit_is_new)
{
	struct timespec t;
	char from[PATH_MAX], to[PATH_MAX];
	char *r;

	sh("cd '%s' && mkdir -p a/b", proj);
	free(report_since(run_starts(), &three, true));
	t = run_starts();
	plant("a/b/c/d/r");
	free(report_since(t, &three, true));
	t = run_starts();
	fx_path(from, sizeof(from), proj, "a/b/c/d/r");
	fx_path(to, sizeof(to), proj, "top");
	cr_assert_eq(rename(from, to), 0);
	r = report_since(t, &three, true);
	assert_found(r, "top");
	free(r);
}

/* Run N plants a repository in a directory of the user's and hides it
 * (not root: mode 000; root: a mount over it, which the walk does not
 * cross); run N+1 shows it again, the directory itself unchanged
 * otherwise.  0: said; 1: not said; 2: the test could not be set up. */
static int hidden_then_shown(void)
{
	char x[PATH_MAX];
	struct timespec t;
	char *r;
	int said;

	fx_path(x, sizeof(x), proj, "x");
	t = run_starts();
	plant("x/repo");
	if (geteuid() != 0 ? chmod(x, 0) < 0
			   : unshare(CLONE_NEWNS) < 0 ||
				     mount(NULL, "/", NULL, MS_REC | MS_PRIVATE,
					   NULL) < 0 ||
				     mount("tmpfs", x, "tmpfs", 0, NULL) < 0)
		return 2;
	free(report_since(t, &lim, true));
	if (geteuid() != 0 ? chmod(x, 0755) < 0 : umount(x) < 0)
		return 2;
	t = run_starts();
	r = report_since(t, &lim, true);
	if (!r)
		return 2;
	said = strstr(r, "/x/repo/.git/config") != NULL;
	free(r);
	return said ? 0 : 1;
}

Test(walkhidden, a_repository_in_a_directory_not_opened_is_new_when_seen)
{
	int status;
	pid_t pid;

	sh("cd '%s' && mkdir -p x/y", proj);
	free(report_since(run_starts(), &lim, true));
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0)
		_exit(hidden_then_shown());
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "status %d (1: not said)", status);
}

/* Without an index, a later walk cannot know what an earlier one did not
 * see: the walk that cannot look says that it keeps no index to tell. */
Test(walkhidden, without_an_index_the_walk_says_it_cannot_tell_later)
{
	char *r;

	plant("a/b/c/d/r");
	r = report_since(run_starts(), &three, false);
	assert_has(r, "did not look below");
	assert_has(r, "keeps no index");
	free(r);
	r = report_since(run_starts(), &three, true);
	cr_assert_null(strstr(r, "keeps no index"), "%s", r);
	free(r);
}

/* A walk stopped at its directory limit keeps what it did not look in
 * as not looked in: the next walk, under a larger limit, judges it as
 * new. */
Test(walkhidden, past_the_directory_limit_is_new_when_seen)
{
	struct ltd_repos_limits few = lim;
	struct timespec t;
	char *r, *r2;

	sh("cd '%s' && mkdir -p a b c", proj);
	free(report_since(run_starts(), &lim, true));
	t = run_starts();
	plant("c/r");
	plant("a/r");
	few.dirs = 2;
	r = report_since(t, &few, true);
	assert_has(r, "stopped after 2 directories");
	r2 = report_since(run_starts(), &lim, true);
	/* Each said by one run or the other, whichever the first reached
	 * (the order getdents gives). */
	for (int i = 0; i < 2; i++) {
		char want[PATH_MAX];

		snprintf(want, sizeof(want), "%s/%s/r/.git/config", proj,
			 i ? "c" : "a");
		cr_assert(strstr(r, want) || strstr(r2, want),
			  "%s not said: first %s then %s", want, r, r2);
	}
	free(r);
	free(r2);
}

/* Nothing was hidden from the walk that wrote the index: a directory the
 * user made between two runs (new to the index), which the run changed,
 * holds nothing the walk could not have seen: its old hook is the
 * user's, not said. */
Test(walkhidden,
     a_directory_new_to_the_index_is_not_new_when_nothing_was_hidden)
{
	char *r;

	sh("cd '%s' && mkdir -p a", proj);
	free(report_since(run_starts(), &lim, true));
	plant("u");
	sh("cd '%s' && printf '#!/bin/sh\\n' > u/.git/hooks-pre && mkdir -p "
	   "u/.git/hooks && mv u/.git/hooks-pre u/.git/hooks/pre-commit",
	   proj);
	{
		struct timespec t = run_starts();

		sh("cd '%s' && echo x > u/made-in-the-run", proj);
		r = report_since(t, &lim, true);
	}
	cr_assert_str_empty(r, "%s", r);
	free(r);
}
