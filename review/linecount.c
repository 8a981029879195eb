// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * diff -u's '+' and '-' counts without diff(1) (see linecount.h).
 *
 * A shortest diff of a and b deletes len(a) - L lines and inserts
 * len(b) - L, L the length of a longest common subsequence of lines: any
 * shortest diff has those counts, whatever lines it picks.  L comes from
 * Myers' greedy search for the number of edits D (O((N+M)D) time, O(D)
 * space), on the lines between the common first and last ones.
 *
 * GNU diff finds a shortest diff of the lines it keeps, unless its search
 * passes its cost bound (not below 8192 edits: D is held far under it).
 * Before searching it sets aside lines of one file that have no equal in
 * the other (they are edits in any diff: harmless) and, in runs between
 * such lines, lines that have more than a few equals there (a blank line
 * among rewritten paragraphs): setting those aside can lose matches.  So
 * the lines it might set aside that way are taken out here too, and the
 * count is given only when L stays the same without them; else -EDOM and
 * diff(1) says.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "review/linecount.h"

/* GNU diff's least "many": a line with more equals in the other file may
 * be set aside (its threshold grows with the file's length). */
#define FEW_EQUALS 5

struct text {
	const char *buf;
	size_t len, n; /* bytes, lines */
	size_t *off;   /* line i is [off[i], off[i + 1]) */
	uint32_t *cls; /* line i's class: equal lines, equal classes */
};

struct classes {
	uint32_t *slot; /* class + 1 by hash, 0 free */
	size_t mask;
	const char **line; /* a line of each class */
	size_t *len;
	uint32_t n;
};

static void text_free(struct text *t)
{
	free(t->off);
	free(t->cls);
}

static int split(struct text *t, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *nl;
	size_t i = 0;

	t->buf = buf;
	t->len = len;
	t->n = 0;
	for (p = buf; p < end && (nl = memchr(p, '\n', end - p)); p = nl + 1)
		t->n++;
	t->n += p < end;
	if (t->n > LTD_LINECOUNT_MAX_LINES)
		return -EDOM;
	t->off = malloc((t->n + 1) * sizeof(*t->off));
	t->cls = malloc((t->n + 1) * sizeof(*t->cls));
	if (!t->off || !t->cls)
		return -ENOMEM;
	for (p = buf; p < end; p = nl ? nl + 1 : end) {
		nl = memchr(p, '\n', end - p);
		t->off[i++] = (size_t)(p - buf);
	}
	t->off[i] = len;
	return 0;
}

static uint64_t hash(const char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (n--)
		h = (h ^ (unsigned char)*p++) * 0x100000001b3ull;
	return h;
}

/* Past so many slots tried for one line, the lines were made to collide
 * (FNV-1a's low bits follow the input's): counted by diff(1) instead, not
 * in time quadratic in the lines (the attacker's review: 2^16 such lines
 * took 9.7 s).  A fair table at half load never comes near it. */
#define MAX_PROBES 128

/* The class of @p (@n bytes), a new one if no line so far equals it;
 * UINT32_MAX past MAX_PROBES. */
static uint32_t class_of(struct classes *c, const char *p, size_t n)
{
	size_t i = (size_t)hash(p, n) & c->mask;
	unsigned probes = 0;

	for (; c->slot[i]; i = (i + 1) & c->mask) {
		uint32_t k = c->slot[i] - 1;

		if (c->len[k] == n && !memcmp(c->line[k], p, n))
			return k;
		if (++probes > MAX_PROBES)
			return UINT32_MAX;
	}
	c->line[c->n] = p;
	c->len[c->n] = n;
	c->slot[i] = ++c->n;
	return c->n - 1;
}

static int classify(struct text t[2], uint32_t *n_classes)
{
	size_t lines = t[0].n + t[1].n, size = 16;
	struct classes c = {0};
	int ret = -ENOMEM;

	while (size < 2 * lines)
		size *= 2;
	c.mask = size - 1;
	c.slot = calloc(size, sizeof(*c.slot));
	c.line = malloc((lines + 1) * sizeof(*c.line));
	c.len = malloc((lines + 1) * sizeof(*c.len));
	if (c.slot && c.line && c.len) {
		ret = 0;
		for (int f = 0; f < 2 && !ret; f++)
			for (size_t i = 0; i < t[f].n && !ret; i++) {
				t[f].cls[i] =
					class_of(&c, t[f].buf + t[f].off[i],
						 t[f].off[i + 1] - t[f].off[i]);
				if (t[f].cls[i] == UINT32_MAX)
					ret = -EDOM;
			}
		*n_classes = c.n;
	}
	free(c.slot);
	free(c.line);
	free(c.len);
	return ret;
}

/* Myers' greedy search: the edits of a shortest diff of @x (@n) and @y
 * (@m), or -1 past LTD_LINECOUNT_MAX_EDITS or *@steps. */
static long edits(const uint32_t *x, long n, const uint32_t *y, long m,
		  long *steps)
{
	long dmax = n + m < LTD_LINECOUNT_MAX_EDITS ? n + m
						    : LTD_LINECOUNT_MAX_EDITS;
	_cleanup_free_ long *v = malloc((2 * dmax + 3) * sizeof(*v));
	long *V = v + dmax + 1; /* V[k]: furthest x on diagonal x - y = k */

	if (!v)
		return -1;
	for (long k = -dmax - 1; k <= dmax + 1; k++)
		V[k] = -1; /* not reached */
	for (long d = 0; d <= dmax; d++) {
		for (long k = -d; k <= d; k += 2) {
			long a = d ? -1 : 0, b;

			if (k < d && V[k + 1] >= 0 && V[k + 1] - k <= m)
				a = V[k + 1]; /* down: an insertion */
			if (k > -d && V[k - 1] >= 0 && V[k - 1] < n &&
			    V[k - 1] + 1 > a)
				a = V[k - 1] + 1; /* right: a deletion */
			if (a < 0) {
				V[k] = -1;
				continue;
			}
			b = a - k;
			while (a < n && b < m && x[a] == y[b])
				a++, b++, --*steps;
			V[k] = a;
			if (a == n && b == m)
				return d;
		}
		*steps -= d + 1;
		if (*steps < 0)
			return -1;
	}
	return -1;
}

struct middle {
	const struct text *t;
	size_t p, s;		     /* common first and last lines */
	long n[2];		     /* lines between them */
	uint32_t *whole[2], *mid[2]; /* lines of each class, by file */
};

/* Marks in @out the lines of @f's middle that GNU diff might set aside
 * though they have equals in the other file: lines with more than
 * FEW_EQUALS there, in a run of such lines and lines with no equal in
 * the other's middle, between two of the latter. */
static void risky(const struct middle *m, int f, char *out)
{
	const uint32_t *cls = m->t[f].cls + m->p;
	const uint32_t *whole = m->whole[1 - f], *mid = m->mid[1 - f];
	long i = 0, n = m->n[f];

	while (i < n) {
		long j = i, first = -1, last = -1;

		for (; j < n && (!mid[cls[j]] || whole[cls[j]] > FEW_EQUALS);
		     j++) {
			if (!mid[cls[j]]) {
				first = first < 0 ? j : first;
				last = j;
			}
		}
		for (long k = first + 1; first >= 0 && k < last; k++)
			out[k] = whole[cls[k]] > FEW_EQUALS;
		i = j > i ? j : i + 1;
	}
}

/* The middle of @f without the lines risky() marks. */
static long without_risky(const struct middle *m, int f, uint32_t *to)
{
	const uint32_t *cls = m->t[f].cls + m->p;
	_cleanup_free_ char *out = calloc(m->n[f] + 1, 1);
	long n = 0;

	if (!out)
		return -1;
	risky(m, f, out);
	for (long i = 0; i < m->n[f]; i++)
		if (!out[i])
			to[n++] = cls[i];
	return n;
}

/* 0 when the lines GNU diff might set aside with equals cannot change
 * the length of a longest common subsequence (@d edits), else -EDOM. */
static int kept(struct middle *m, uint32_t n_classes, long d, long *steps)
{
	_cleanup_free_ uint32_t *counts =
		calloc(4 * (size_t)n_classes + 4, sizeof(*counts));
	_cleanup_free_ uint32_t *x =
		malloc((m->n[0] + m->n[1] + 2) * sizeof(*x));
	uint32_t *y = x + m->n[0] + 1;
	long n, k, d2;

	if (!counts || !x)
		return -ENOMEM;
	for (int f = 0; f < 2; f++) {
		m->whole[f] = counts + (size_t)(2 * f) * n_classes;
		m->mid[f] = counts + (size_t)(2 * f + 1) * n_classes;
		for (size_t i = 0; i < m->t[f].n; i++)
			m->whole[f][m->t[f].cls[i]]++;
		for (long i = 0; i < m->n[f]; i++)
			m->mid[f][m->t[f].cls[m->p + i]]++;
	}
	n = without_risky(m, 0, x);
	k = without_risky(m, 1, y);
	if (n < 0 || k < 0)
		return -ENOMEM;
	if (n == m->n[0] && k == m->n[1])
		return 0;
	d2 = edits(x, n, y, k, steps);
	/* The same common lines: (n + k - d2) / 2 == (n0 + n1 - d) / 2. */
	return d2 >= 0 && n + k - d2 == m->n[0] + m->n[1] - d ? 0 : -EDOM;
}

static int count(const struct text t[2], uint32_t n_classes,
		 struct ltd_linecount *out)
{
	struct middle m = {.t = t};
	long d, common, steps = LTD_LINECOUNT_MAX_STEPS;
	int ret = 0;

	while (m.p < t[0].n && m.p < t[1].n && t[0].cls[m.p] == t[1].cls[m.p])
		m.p++;
	while (m.s < t[0].n - m.p && m.s < t[1].n - m.p &&
	       t[0].cls[t[0].n - 1 - m.s] == t[1].cls[t[1].n - 1 - m.s])
		m.s++;
	m.n[0] = (long)(t[0].n - m.p - m.s);
	m.n[1] = (long)(t[1].n - m.p - m.s);
	if (!m.n[0] || !m.n[1]) {
		d = m.n[0] + m.n[1]; /* no search: every line is an edit */
	} else {
		d = edits(t[0].cls + m.p, m.n[0], t[1].cls + m.p, m.n[1],
			  &steps);
		ret = d < 0 ? -EDOM : kept(&m, n_classes, d, &steps);
	}
	common = (m.n[0] + m.n[1] - d) / 2;
	out->del = (unsigned)(m.n[0] - common);
	out->add = (unsigned)(m.n[1] - common);
	return ret;
}

int ltd_linecount(const char *a, size_t na, const char *b, size_t nb,
		  struct ltd_linecount *out)
{
	struct text t[2] = {0};
	uint32_t n_classes = 0;
	int ret = -EDOM;

	if (na <= LTD_LINECOUNT_MAX_BYTES && nb <= LTD_LINECOUNT_MAX_BYTES)
		ret = split(&t[0], a, na);
	if (!ret)
		ret = split(&t[1], b, nb);
	if (!ret)
		ret = classify(t, &n_classes);
	if (!ret)
		ret = count(t, n_classes, out);
	text_free(&t[0]);
	text_free(&t[1]);
	return ret;
}
