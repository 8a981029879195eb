// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What lstat said of a path, asked once per pass: the gate and the link
 * check walk many paths that share their first components (~/.config ten
 * times, ~/.local seven; the project's .git seven, .claude five).  A memo
 * lives for one pass (one gate call, one link check), so its answers are
 * no older than those the pass gave before; the cage opens every path
 * again without following links (runtime/mounts.c).
 */
#include "policy/policy.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int ltd_lstat_memo(struct ltd_lstat_memo *m, const char *path)
{
	struct stat st;
	int state;

	for (size_t i = 0; i < m->n; i++)
		if (strcmp(m->e[i].path, path) == 0)
			return m->e[i].state;
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
}
