/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_repos_agent_sweep.c's and test_repos_agent_cmds.c's own: a project
 * and an index directory made for each test, the exit walk over them as
 * run.c makes it, and the previous run's walk that made the index.
 */
#ifndef LTD_TEST_AGENTSWEEP_FIXTURE_H
#define LTD_TEST_AGENTSWEEP_FIXTURE_H

#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "protect/repos.h"
#include "tests/common/fixture.h"

static char dir[64], proj[128], idx[128];
/* The previous run's walk, which made the index: nothing new to it. */
static const struct timespec none = {4102444800, 0};
/* A racy margin of 50 ms: a tree made RIPE_US before a walk is trusted. */
static const struct ltd_repos_limits lim = {LTD_REPOS_MAX_DEPTH,
					    LTD_REPOS_MAX_DIRS, 50000000};
#define RIPE_US 80000

static inline void setup(void)
{
	fx_tmpdir(dir, sizeof(dir), "agentsweep");
	fx_path(proj, sizeof(proj), dir, "proj");
	fx_path(idx, sizeof(idx), dir, "idx");
	fx_mkdir(dir, "proj", 0755);
	fx_mkdir(dir, "idx", 0700);
}

static inline void teardown(void)
{
	fx_rm_rf(dir);
}

static inline void put(const char *rel, const char *text)
{
	fx_mkdirs(proj, rel);
	fx_put(proj, rel, text);
}

static inline struct timespec mark(void)
{
	struct timespec t;

	usleep(20000);
	clock_gettime(CLOCK_REALTIME_COARSE, &t);
	usleep(20000);
	return t;
}

/* The walk of the project as run.c makes it, with the index in idx/. */
static inline char *walk(struct timespec since)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	int fd = open(idx, O_PATH | O_DIRECTORY | O_CLOEXEC);

	cr_assert_not_null(out);
	cr_assert_geq(fd, 0);
	ltd_repos_report(out, proj,
			 LTD_REPOS_SKIP_ROOT_GIT | LTD_REPOS_SKIP_ROOT_AGENT,
			 since, &lim, fd);
	fclose(out);
	close(fd);
	return text;
}

/* The previous run: its walk leaves the index of the tree as it is. */
static inline void indexed(void)
{
	usleep(RIPE_US);
	free(walk(none));
}

static inline void assert_in(const char *r, const char *s)
{
	cr_assert_not_null(strstr(r, s), "'%s' not in: %s", s, r);
}

#endif
