// SPDX-License-Identifier: GPL-2.0-or-later
/* A git directory that becomes one only in a later run (its HEAD put
 * back): the hooks were made in the earlier run, which said nothing of
 * them, so the later run judges that git directory whole as new
 * (decision 0159). */
#include <time.h>

#include "repoindex_fixture.h"

TestSuite(gitnew, .init = setup, .fini = teardown);

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

static void hook(const char *rel)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && mkdir -p '%s/.git/hooks' && printf '#!/bin/sh\\n' "
		 "> '%s/.git/hooks/pre-commit' && chmod +x "
		 "'%s/.git/hooks/pre-commit'",
		 proj, rel, rel, rel);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
}

/* Run N: a repository with a hook, its HEAD moved aside (not a git
 * directory to the walk); run N+1 puts HEAD back. */
static void head_put_back(bool use)
{
	struct timespec t;
	char *r;

	sh("cd '%s' && mkdir -p a", proj);
	free(report_since(run_starts(), &lim, use));
	t = run_starts();
	plant("y");
	hook("y");
	sh("cd '%s' && mv y/.git/HEAD y/.git/HEAD.x", proj);
	r = report_since(t, &lim, use);
	cr_assert_not_null(r);
	cr_assert_null(strstr(r, "pre-commit"), "%s", r);
	free(r);
	t = run_starts();
	sh("cd '%s' && mv y/.git/HEAD.x y/.git/HEAD", proj);
	r = report_since(t, &lim, use);
	cr_assert_not_null(r);
	cr_assert_not_null(strstr(r, "y/.git/hooks/pre-commit"), "%s", r);
	free(r);
}

Test(gitnew, a_git_directory_made_whole_in_a_later_run_is_new_with_index)
{
	head_put_back(true);
}

Test(gitnew, a_git_directory_made_whole_in_a_later_run_is_new_no_index)
{
	head_put_back(false);
}
