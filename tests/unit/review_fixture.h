/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The review tests' fixture (test_review.c, test_review_hooks.c), in this
 * header only: each test file has its own copy of the state.  setup()
 * makes an upper and a project side by side; read_changes() reads the
 * upper's changes against the project.
 */
#ifndef LTD_TEST_REVIEW_FIXTURE_H
#define LTD_TEST_REVIEW_FIXTURE_H

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "review/changes.h"

static char dir[] = "/tmp/ltd-review.XXXXXX";
static char up[256], pr[256];
static int upfd = -1, prfd = -1;
static struct ltd_changes ch;

static inline void setup(void)
{
	cr_assert_not_null(mkdtemp(dir));
	snprintf(up, sizeof(up), "%s/upper", dir);
	snprintf(pr, sizeof(pr), "%s/proj", dir);
	cr_assert_eq(mkdir(up, 0700), 0);
	cr_assert_eq(mkdir(pr, 0755), 0);
	ch = (struct ltd_changes){0};
}

static inline void teardown(void)
{
	char cmd[128];

	ltd_changes_free(&ch);
	if (upfd >= 0)
		close(upfd);
	if (prfd >= 0)
		close(prfd);
	upfd = prfd = -1;
	snprintf(cmd, sizeof(cmd), "chmod -R u+rwx %s; rm -rf %s", dir, dir);
	(void)!system(cmd);
	strcpy(dir, "/tmp/ltd-review.XXXXXX");
}

/* @rel under @root: a file with @text, or a directory (NULL). */
static inline void put(const char *root, const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
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

static inline void read_changes(void)
{
	struct ltd_err err = {0};

	upfd = open(up, O_RDONLY | O_DIRECTORY);
	prfd = open(pr, O_RDONLY | O_DIRECTORY);
	cr_assert(upfd >= 0 && prfd >= 0);
	cr_assert_eq(ltd_changes_read(upfd, prfd, &ch, &err), 0, "%s", err.msg);
}

static inline const struct ltd_change *get(const char *path)
{
	for (size_t i = 0; i < ch.n; i++)
		if (!strcmp(ch.v[i].path, path))
			return &ch.v[i];
	return NULL;
}

#endif
