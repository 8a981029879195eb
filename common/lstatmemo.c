// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What lstat said of a path, asked once per pass: the gate and the link
 * check walk many paths that share their first components (~/.config ten
 * times, ~/.local seven; the project's .git seven, .claude five), and the
 * gate asks about some sixty names in the home directory, which one
 * listing answers (~4 system calls instead of ~45).  A memo lives for one
 * pass (one gate call, one link check), so its answers are no older than
 * those the pass gave before; the cage opens every path again without
 * following links (runtime/mounts.c).
 */
#include "common/lstatmemo.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"

/* What one getdents64 call may return: a directory that needs more is
 * not listed (a big home is cheaper to lstat name by name). */
#define LIST_MAX (32 * 1024)

static void list(struct ltd_lstat_memo *m)
{
	_cleanup_close_ int fd = open(
		m->list_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	char *buf = fd < 0 ? NULL : malloc(LIST_MAX);
	ssize_t n = buf ? getdents64(fd, buf, LIST_MAX) : -1;
	char more[512];

	m->listed = -1;
	/* All of it in one call, or nothing learnt. */
	if (n < 0 || getdents64(fd, more, sizeof(more)) != 0) {
		free(buf);
		return;
	}
	m->list = buf;
	m->list_len = (size_t)n;
	m->listed = 1;
}

/* @name's state from the listing; -1 when the listing cannot say. */
static int from_list(const struct ltd_lstat_memo *m, const char *name)
{
	for (size_t off = 0; off < m->list_len;) {
		const struct dirent64 *d =
			(const struct dirent64 *)(m->list + off);

		if (strcmp(d->d_name, name) == 0) {
			if (d->d_type == DT_UNKNOWN)
				return -1; /* the file system does not say */
			return d->d_type == DT_LNK ? LTD_LSTAT_LINK
						   : LTD_LSTAT_OTHER;
		}
		off += d->d_reclen;
	}
	return LTD_LSTAT_MISSING;
}

/* @path directly in m->list_dir: its name, else NULL. */
static const char *in_list_dir(const struct ltd_lstat_memo *m, const char *path)
{
	size_t n = m->list_dir ? strlen(m->list_dir) : 0;

	if (!n || strncmp(path, m->list_dir, n) != 0 || path[n] != '/' ||
	    !path[n + 1] || strchr(path + n + 1, '/'))
		return NULL;
	return path + n + 1;
}

int ltd_lstat_memo(struct ltd_lstat_memo *m, const char *path)
{
	const char *name = in_list_dir(m, path);
	struct stat st;
	int state = -1;

	for (size_t i = 0; i < m->n; i++)
		if (strcmp(m->e[i].path, path) == 0)
			return m->e[i].state;
	if (name && m->listed == 0)
		list(m);
	if (name && m->listed == 1)
		state = from_list(m, name);
	if (state >= 0)
		return state;
	if (lstat(path, &st) < 0)
		state = LTD_LSTAT_MISSING;
	else if (S_ISLNK(st.st_mode))
		state = LTD_LSTAT_LINK;
	else
		state = LTD_LSTAT_OTHER;
	if (m->n < LTD_LSTAT_MEMO_MAX && (m->e[m->n].path = strdup(path)))
		m->e[m->n++].state = state;
	return state;
}

void ltd_lstat_memo_free(struct ltd_lstat_memo *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->e[i].path);
	m->n = 0;
	free(m->list);
	m->list = NULL;
	m->list_len = 0;
	m->listed = 0;
}
