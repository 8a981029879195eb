/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What lstat said of a path, asked once per pass (the gate, the link
 * check): see common/lstatmemo.c.
 */
#ifndef LTD_COMMON_LSTATMEMO_H
#define LTD_COMMON_LSTATMEMO_H

#include <stddef.h>

/* lstat(@path), answered once per memo (one pass of the gate or of the
 * link check): LTD_LSTAT_MISSING (any failure), _LINK or _OTHER.  With
 * @list_dir set, the names directly in that directory are answered from
 * one listing of it, made at the first such question (a small directory
 * only; else each is lstat'ed). */
enum { LTD_LSTAT_MISSING, LTD_LSTAT_LINK, LTD_LSTAT_OTHER };
#define LTD_LSTAT_MEMO_MAX 64
struct ltd_lstat_memo {
	size_t n;
	struct {
		char *path;
		int state;
	} e[LTD_LSTAT_MEMO_MAX];
	const char *list_dir; /* set by the caller; not owned */
	int listed;	      /* 0 not yet, 1 listed, -1 could not */
	char *list;	      /* its getdents64 records */
	size_t list_len;
};
int ltd_lstat_memo(struct ltd_lstat_memo *m, const char *path);
void ltd_lstat_memo_free(struct ltd_lstat_memo *m);

#endif
