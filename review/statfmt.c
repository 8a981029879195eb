// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `diff NAME --stat`'s lines (see statfmt.h).  The layout is git's
 * (diff.c's show_stats(), git 2.39): the same widths, the same scaling,
 * so the two read alike side by side; the code is ours.
 */
#include "review/statfmt.h"

#include <string.h>

#include "common/text.h"

#define C_NEW  "\033[32m"
#define C_OLD  "\033[31m"
#define C_NOTE "\033[33m"
#define C_OFF  "\033[m"

/* A width past any terminal's: the sums below stay far from overflow. */
#define MAX_WIDTH 10000

/* The columns of one line's parts (git's names: name, number, graph). */
struct layout {
	long long name, number, graph;
	unsigned long long max_change;
};

static void color(FILE *out, bool on, const char *c)
{
	if (on)
		fputs(c, out);
}

/* The bytes of the character at @s as ltd_fput_shown() steps over them:
 * each step is one column shown (a character, or a '?'). */
static size_t shown_step(const char *s)
{
	int n = ltd_utf8_char(s, strlen(s), NULL);

	return n > 0 ? (size_t)n : n < 0 ? (size_t)-n : 1;
}

/* The columns ltd_fput_shown() takes for @s (a wide character counted
 * as one). */
static long long shown_width(const char *s)
{
	long long w = 0;

	for (; *s; s += shown_step(s))
		w++;
	return w;
}

static unsigned decimal_width(unsigned long long n)
{
	unsigned w = 1;

	for (; n >= 10; n /= 10)
		w++;
	return w;
}

static unsigned long long change(const struct ltd_statf *s)
{
	return (unsigned long long)s->add + s->del;
}

/* What is said of @s after its bars, or their columns when @out is NULL:
 * its mode changed (with its content or not), the host changed it (as
 * diff marks it: apply would refuse it). */
static long long marks(FILE *out, bool on, const struct ltd_statf *s)
{
	static const struct {
		unsigned flag;
		const char *text, *color;
	} mark[] = {
		{LTD_STATF_MODE, " (mode)", NULL},
		{LTD_STATF_CONFLICT, " (conflict)", C_NOTE},
	};
	long long w = 0;

	for (size_t i = 0; i < sizeof(mark) / sizeof(mark[0]); i++) {
		if (!(s->flags & mark[i].flag))
			continue;
		w += (long long)strlen(mark[i].text);
		if (!out)
			continue;
		if (mark[i].color)
			color(out, on, mark[i].color);
		fputs(mark[i].text, out);
		if (mark[i].color)
			color(out, on, C_OFF);
	}
	return w;
}

/*
 * git's widths: the name as long as the longest, the graph as long as
 * the largest change, and " | ", the number and an empty last column
 * around them (6 and the number); when that passes @width, the graph
 * gets at most 3/8 of it (6 at least) and the name what is left.  The
 * widest marks are taken from @width first.
 */
static void layout(const struct ltd_statf *f, size_t n, long long width,
		   struct layout *l)
{
	long long w = width, fixed, extra = 0;

	*l = (struct layout){0};
	for (size_t i = 0; i < n; i++) {
		long long len = shown_width(f[i].path);

		if (marks(NULL, false, &f[i]) > extra)
			extra = marks(NULL, false, &f[i]);
		if (len > l->name)
			l->name = len;
		if (f[i].flags & LTD_STATF_BINARY)
			l->number = 3; /* "Bin" */
		else if (change(&f[i]) > l->max_change)
			l->max_change = change(&f[i]);
	}
	if (decimal_width(l->max_change) > l->number)
		l->number = decimal_width(l->max_change);
	fixed = l->number + 6;
	w -= extra;
	if (w < 16 + fixed)
		w = 16 + fixed;
	l->graph = l->max_change > MAX_WIDTH ? MAX_WIDTH : l->max_change;
	if (l->name + fixed + l->graph <= w)
		return;
	if (l->graph > w * 3 / 8 - fixed)
		l->graph = w * 3 / 8 - fixed < 6 ? 6 : w * 3 / 8 - fixed;
	if (l->name > w - fixed - l->graph)
		l->name = w - fixed - l->graph;
	else
		l->graph = w - fixed - l->name;
}

/* @it of @max in @width columns, one at least for any: git's
 * scale_linear(). */
static long long scale(unsigned long long it, long long width,
		       unsigned long long max)
{
	return it ? 1 + (long long)(it * (unsigned long long)(width - 1) / max)
		  : 0;
}

/* " NAME |": @path in @width columns; one too long is cut to "..." and
 * its last columns, from their first '/' when there is one. */
static void put_name(FILE *out, const char *path, long long width)
{
	long long len = shown_width(path), keep = width;
	const char *s = path;

	fputc(' ', out);
	if (len > width) {
		keep = width > 3 ? width - 3 : 0;
		for (; len > keep; len--)
			s += shown_step(s);
		if (strchr(s, '/')) {
			s = strchr(s, '/');
			len = shown_width(s);
		}
		fputs("...", out);
	}
	ltd_fput_shown(out, s);
	fprintf(out, "%*s |", (int)(keep > len ? keep - len : 0), "");
}

static void bar(FILE *out, bool on, char c, long long n, const char *col)
{
	if (n <= 0)
		return;
	color(out, on, col);
	while (n--)
		fputc(c, out);
	color(out, on, C_OFF);
}

/* The count and its bars, scaled when the largest change is wider than
 * the graph (a change of any '+' and any '-' shows one of each). */
static void counts(FILE *out, bool on, const struct ltd_statf *s,
		   const struct layout *l)
{
	long long add = s->add, del = s->del, total;

	fprintf(out, " %*llu%s", (int)l->number, change(s),
		change(s) ? " " : "");
	if (l->graph <= (long long)l->max_change) {
		total = scale(change(s), l->graph, l->max_change);
		if (total < 2 && add && del)
			total = 2;
		if (add < del) {
			add = scale(s->add, l->graph, l->max_change);
			del = total - add;
		} else {
			del = scale(s->del, l->graph, l->max_change);
			add = total - del;
		}
	}
	bar(out, on, '+', add, C_NEW);
	bar(out, on, '-', del, C_OLD);
}

/* git's last line: a count of none is left out when the other is not;
 * then the mode changes, which git's --stat does not count. */
static void totals(FILE *out, size_t files, unsigned long long add,
		   unsigned long long del, unsigned modes)
{
	if (!files) {
		fputs(" 0 files changed\n", out);
		return;
	}
	fprintf(out, " %zu file%s changed", files, files == 1 ? "" : "s");
	if (add || !del)
		fprintf(out, ", %llu insertion%s(+)", add, add == 1 ? "" : "s");
	if (del || !add)
		fprintf(out, ", %llu deletion%s(-)", del, del == 1 ? "" : "s");
	if (modes)
		fprintf(out, ", %u mode change%s", modes,
			modes == 1 ? "" : "s");
	fputc('\n', out);
}

void ltd_statfmt(FILE *out, const struct ltd_statf *f, size_t n, unsigned width,
		 bool on)
{
	unsigned long long add = 0, del = 0;
	unsigned modes = 0;
	struct layout l;

	if (!width)
		width = LTD_STATFMT_WIDTH;
	layout(f, n, width > MAX_WIDTH ? MAX_WIDTH : width, &l);
	for (size_t i = 0; i < n; i++) {
		const struct ltd_statf *s = &f[i];

		modes += !!(s->flags & LTD_STATF_MODE);
		put_name(out, s->path, l.name);
		if (s->flags & LTD_STATF_BINARY)
			fprintf(out, " %*s", (int)l.number, "Bin");
		else
			counts(out, on, s, &l);
		marks(out, on, s);
		fputc('\n', out);
		add += s->add;
		del += s->del;
	}
	totals(out, n, add, del, modes);
}
