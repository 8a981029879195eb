/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_repoindex.c's and test_repoindex_kept.c's own: a project and an
 * index directory made for each test, the walk's report on them, and an
 * index file re-summed as its writer sums it.
 */
#ifndef LTD_TEST_REPOINDEX_FIXTURE_H
#define LTD_TEST_REPOINDEX_FIXTURE_H

#include <criterion/criterion.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/sha256.h"
#include "protect/repoindex.h"
#include "protect/repos.h"
#include "tests/common/fixture.h"

/* @buf's checksum made right again, as the file's writer makes it: the
 * SHA-256 (hex) of everything with the checksum field zeroed.  The field
 * follows magic (8), version and node size (4 each), dev, ino, n and
 * names_len (8 each). */
#define SUM_AT 48
static inline void resum(unsigned char *buf, size_t len)
{
	char hex[LTD_SHA256_HEX_LEN + 1];

	memset(buf + SUM_AT, 0, LTD_SHA256_HEX_LEN);
	ltd_sha256_hex(buf, len, hex);
	memcpy(buf + SUM_AT, hex, LTD_SHA256_HEX_LEN);
}

static char dir[128], proj[200], idx[200];
static const struct timespec all = {0, 0};
/* A racy margin of 50 ms (above the coarse clock's tick) for trees made
 * RIPE_US before they are walked, so that the index trusts them. */
static const struct ltd_repos_limits lim = {LTD_REPOS_MAX_DEPTH,
					    LTD_REPOS_MAX_DIRS, 50000000};
#define RIPE_US 80000

static inline void setup(void)
{
	fx_tmpdir(dir, sizeof(dir), "repoindex");
	fx_path(proj, sizeof(proj), dir, "proj");
	fx_path(idx, sizeof(idx), dir, "idx");
	fx_mkdir(dir, "proj", 0755);
	fx_mkdir(dir, "idx", 0700);
}

static inline void teardown(void)
{
	fx_rm_rf(dir);
}

/* The report of changes from @since on, with the index in idx/ (@use)
 * or none, under @l; NULL when it cannot be made.  No assertion: a
 * test's child process uses it too. */
static inline char *report_since(struct timespec since,
				 const struct ltd_repos_limits *l, bool use)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	int fd = open(idx, O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (!out || fd < 0)
		return NULL;
	ltd_repos_report(out, proj, 0, since, l, use ? fd : -1);
	fclose(out);
	close(fd);
	return text;
}

/* The report on the project with the index in idx/ (@use) or none. */
static inline char *report(bool use)
{
	char *text = report_since(all, &lim, use);

	cr_assert_not_null(text);
	return text;
}

__attribute__((format(printf, 1, 0))) static inline void sh(const char *fmt,
							    const char *arg)
{
	char cmd[1024];

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	snprintf(cmd, sizeof(cmd), fmt, arg, arg, arg);
#pragma GCC diagnostic pop
	cr_assert_eq(system(cmd), 0, "%s", cmd);
}

/* A repository whose configuration runs something, at @rel. */
static inline void plant(const char *rel)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && mkdir -p '%s/.git/objects' '%s/.git/refs' && "
		 "echo 'ref: refs/heads/main' > '%s/.git/HEAD' && "
		 "printf '[core]\\n\\tfsmonitor = touch ran\\n' > "
		 "'%s/.git/config'",
		 proj, rel, rel, rel, rel);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
}

/* The index file of the project, its path into @buf. */
static inline void index_file(char *buf, size_t size)
{
	char name[LTD_SHA256_HEX_LEN + 1];

	ltd_sha256_hex(proj, strlen(proj), name);
	fx_path(buf, size, idx, name);
}

static inline void assert_found(const char *r, const char *rel)
{
	char want[PATH_MAX];

	snprintf(want, sizeof(want), "%s/%s/.git/config", proj, rel);
	cr_assert_not_null(strstr(r, want), "want %s in: %s", want, r);
}

/* A deep tree, walked once: the index is written. */
static inline void indexed_tree(void)
{
	char file[400];
	struct stat st;
	char *r;

	sh("cd '%s' && mkdir -p n/a/b/c/d/e/f n/g/h m/x", proj);
	usleep(RIPE_US);
	r = report(true);
	cr_assert_str_empty(r, "%s", r);
	free(r);
	index_file(file, sizeof(file));
	cr_assert_eq(stat(file, &st), 0, "no index written");
	cr_assert(S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0600);
}

#endif
