/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The planted-repository tests' fixture (test_repos.c,
 * test_repos_attacks.c), in this header only: each test file has its own
 * copy of the state.  setup() makes a temporary project; report(since)
 * runs the exit walk over it.
 */
#ifndef LTD_TEST_REPOS_FIXTURE_H
#define LTD_TEST_REPOS_FIXTURE_H

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
#include "tests/common/fixture.h"

static char dir[64];
/* The project's own: the root and its .git are not judged. */
static bool root_protected = true;
static char proj[256];

static const struct timespec all = {0, 0}, none = {4102444800, 0};

static inline void setup(void)
{
	fx_tmpdir(dir, sizeof(dir), "repos");
	root_protected = true;
	snprintf(proj, sizeof(proj), "%s/proj", dir);
	cr_assert_eq(mkdir(proj, 0755), 0);
}

static inline void teardown(void)
{
	fx_rm_rf(dir);
}

/* mkdir -p of @rel's directories under the project, then @rel as a file
 * with @text (NULL: a directory). */
static inline void put(const char *rel, const char *text)
{
	char path[512];

	fx_mkdirs(proj, rel);
	if (text) {
		fx_put(proj, rel, text);
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", proj, rel);
	cr_assert(mkdir(path, 0755) == 0 || errno == EEXIST, "%s", path);
}

/* A time between what was written before and what is written after:
 * the coarse clock's ticks apart (the ctimes come from it). */
static inline struct timespec mark(void)
{
	struct timespec t;

	usleep(20000);
	clock_gettime(CLOCK_REALTIME_COARSE, &t);
	usleep(20000);
	return t;
}

/* What `git init` makes, under @rel (a .git or a bare repository). */
static inline void gitdir(const char *rel)
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

/* A linked worktree @id of the repository whose git directory is @git,
 * its work tree at @top: what `git worktree add` makes that git reads. */
static inline void worktree(const char *git, const char *id, const char *top)
{
	char p[256], text[600];

	snprintf(p, sizeof(p), "%s/worktrees/%s", git, id);
	gitdir(p);
	snprintf(p, sizeof(p), "%s/worktrees/%s/commondir", git, id);
	put(p, "../..\n");
	snprintf(p, sizeof(p), "%s/.git", top);
	snprintf(text, sizeof(text), "gitdir: %s/%s/worktrees/%s\n", proj, git,
		 id);
	put(p, text);
}

/* The line a walk without index says when it could not look somewhere
 * (it cannot tell later what was there: decision 0159), taken out. */
static inline void drop_no_index_line(char *text)
{
	char *at = strstr(text, "keeps no index of its walk here"), *end;

	if (!at)
		return;
	while (at > text && at[-1] != '\n')
		at--;
	end = strchr(at, '\n');
	end = end ? end + 1 : at + strlen(at);
	memmove(at, end, strlen(end) + 1);
}

/* The report without an index, and with the one in idx/ (made by the
 * reports before it in the test, or none yet): the index may change
 * what is read, never what is said (but the line above; and what an
 * index remembers a walk did not see: test_repoindex_hidden.c). */
static inline char *report_lim(struct timespec since,
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
	drop_no_index_line(text[0]);
	cr_assert_str_eq(text[1], text[0], "with the index:\n%s\nwithout:\n%s",
			 text[1], text[0]);
	free(text[1]);
	return text[0];
}

static inline char *report(struct timespec since)
{
	return report_lim(since, NULL);
}

static inline void assert_silent(struct timespec since)
{
	char *r = report(since);

	cr_assert_str_empty(r, "unexpected: %s", r);
	free(r);
}

/* @r says something of PROJECT/@rel (the project is named "proj"). */
static inline void assert_said(const char *r, const char *rel)
{
	char at[600];

	snprintf(at, sizeof(at), "/proj/%s: ", rel);
	cr_assert_not_null(strstr(r, at), "%s not said: %s", rel, r);
}

/* One line each, every one a warning, @n of them. */
static inline void assert_lines(const char *r, int n)
{
	int lines = 0;

	for (const char *s = r; *s; s = strchr(s, '\n') + 1) {
		cr_assert(!strncmp(s, "ltd-native: warning: ", 21), "%s", r);
		cr_assert_not_null(strchr(s, '\n'), "%s", r);
		lines++;
	}
	cr_assert_eq(lines, n, "%d lines, want %d: %s", lines, n, r);
}

#endif
