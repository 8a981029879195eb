// SPDX-License-Identifier: GPL-2.0-or-later
/* A git directory that becomes one only in a later run (its HEAD put
 * back), or whose hooks an earlier run hid from the walk (mode 000): the
 * hooks were made in the earlier run, which said nothing of them, so the
 * later run judges that git directory whole as new (decision 0159). */
#include <sched.h>
#include <sys/mount.h>
#include <sys/wait.h>
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

/* Run N: a repository whose hooks directory is hidden (not root: mode
 * 000, said: cannot look in it; root: a mount over it, which the walk
 * does not cross); run N+1 shows it: its hook, made in run N, is said.
 * 0: said; 1: not said; 2: the test could not be set up. */
static int hooks_hidden_then_shown(void)
{
	char hooks[PATH_MAX];
	struct timespec t;
	char *r;
	int said;

	t = run_starts();
	plant("y");
	hook("y");
	fx_path(hooks, sizeof(hooks), proj, "y/.git/hooks");
	if (geteuid() != 0
		    ? chmod(hooks, 0) < 0
		    : unshare(CLONE_NEWNS) < 0 ||
			      mount(NULL, "/", NULL, MS_REC | MS_PRIVATE,
				    NULL) < 0 ||
			      mount("tmpfs", hooks, "tmpfs", 0, NULL) < 0)
		return 2;
	r = report_since(t, &lim, true);
	if (!r || strstr(r, "pre-commit"))
		return 2;
	free(r);
	if (geteuid() != 0 ? chmod(hooks, 0755) < 0 : umount(hooks) < 0)
		return 2;
	r = report_since(run_starts(), &lim, true);
	if (!r)
		return 2;
	said = strstr(r, "y/.git/hooks/pre-commit") != NULL;
	free(r);
	return said ? 0 : 1;
}

Test(gitnew, hooks_hidden_then_shown_are_new)
{
	int status;
	pid_t pid;

	sh("cd '%s' && mkdir -p a", proj);
	free(report_since(run_starts(), &lim, true));
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0)
		_exit(hooks_hidden_then_shown());
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "status %d (1: not said)", status);
}
