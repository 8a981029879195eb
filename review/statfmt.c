// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `diff NAME --stat`'s lines (see statfmt.h).  The layout is git's
 * (diff.c's show_stats(), git 2.39): the same widths, the same scaling,
 * so the two read alike side by side; the code is ours.
 */
#include "review/statfmt.h"

#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "review/changes.h"

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

/* The bytes of the character at @s (of @len) as ltd_fput_shown() steps
 * over them: each step is one column shown (a character, or a '?'). */
static size_t shown_step(const char *s, size_t len)
{
	int n = ltd_utf8_char(s, len, NULL);

	return n > 0 ? (size_t)n : n < 0 ? (size_t)-n : 1;
}

/* The columns ltd_fput_shown() takes for @len bytes of @s (a wide
 * character counted as one). */
static long long shown_width(const char *s, size_t len)
{
	long long w = 0;

	for (size_t k = 0; k < len; k += shown_step(s + k, len - k))
		w++;
	return w;
}

/* @len bytes of @s as ltd_fput_shown() shows a name (a newline too as
 * '?'), one character at a time: a part of a name has no NUL to end it. */
static void put_shown(FILE *out, const char *s, size_t len)
{
	char c[8];

	for (size_t k = 0, step; k < len; k += step) {
		step = shown_step(s + k, len - k);
		memcpy(c, s + k, step);
		c[step] = '\0';
		ltd_fput_shown(out, c);
	}
}

/* The bytes of @s's name on its line: its .git's when it is git's own
 * bookkeeping and @group, else all of it. */
static size_t name_len(const struct ltd_statf *s, bool group)
{
	size_t row, len = group && (s->flags & LTD_STATF_NEVER)
				  ? ltd_change_git_own(s->path, &row)
				  : 0;

	return len ? len : strlen(s->path);
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
		{LTD_STATF_HELD, " (held back)", C_NOTE},
		{LTD_STATF_CONFLICT, " (conflict)", C_NOTE},
	};
	long long w = 0;

	if (s->flags & LTD_STATF_NEVER)
		return 0;
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
 * widest marks are taken from @width first.  What never lands has a name
 * (its .git's when @group puts it with git's own), no count.
 */
static void layout(const struct ltd_statf *f, size_t n, long long width,
		   bool group, struct layout *l)
{
	long long w = width, fixed, extra = 0;

	*l = (struct layout){0};
	for (size_t i = 0; i < n; i++) {
		long long len = shown_width(f[i].path, name_len(&f[i], group));

		if (marks(NULL, false, &f[i]) > extra)
			extra = marks(NULL, false, &f[i]);
		if (len > l->name)
			l->name = len;
		if (f[i].flags & LTD_STATF_NEVER)
			continue;
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

/* " NAME |": @bytes of @path in @width columns; one too long is cut to
 * "..." and its last columns, from their first '/' when there is one. */
static void put_name(FILE *out, const char *path, size_t bytes, long long width)
{
	long long len = shown_width(path, bytes), keep = width;
	const char *s = path, *end = path + bytes, *slash;

	fputc(' ', out);
	if (len > width) {
		keep = width > 3 ? width - 3 : 0;
		for (; len > keep; len--)
			s += shown_step(s, (size_t)(end - s));
		slash = memchr(s, '/', (size_t)(end - s));
		if (slash) {
			s = slash;
			len = shown_width(s, (size_t)(end - s));
		}
		fputs("...", out);
	}
	put_shown(out, s, (size_t)(end - s));
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

/* The one line of the .git whose path is @f[@i]'s first @glen bytes: what
 * of git's own bookkeeping changed there, each kind once.  Its changes
 * are together (a directory's are), so those of its run are marked
 * @done, to be said no more. */
static void git_own_line(FILE *out, bool on, const struct ltd_statf *f,
			 size_t n, size_t i, size_t glen, bool *done,
			 const struct layout *l)
{
	unsigned count[LTD_GIT_OWN_ROWS] = {0};
	const char *sep = " git's own ";
	size_t row;

	for (size_t j = i; j < n && !strncmp(f[j].path, f[i].path, glen); j++)
		if ((f[j].flags & LTD_STATF_NEVER) &&
		    ltd_change_git_own(f[j].path, &row) == glen) {
			done[j] = true;
			count[row]++;
		}
	put_name(out, f[i].path, glen, l->name);
	color(out, on, C_NOTE);
	fputs(" never lands:", out);
	for (size_t k = 0; k < LTD_GIT_OWN_ROWS; k++) {
		if (!count[k])
			continue;
		fprintf(out, "%s%s", sep, ltd_git_own_names[k]);
		if (strchr(ltd_git_own_names[k], '/'))
			fprintf(out, " (%u file%s)", count[k],
				count[k] == 1 ? "" : "s");
		sep = ", ";
	}
	color(out, on, C_OFF);
	fputc('\n', out);
}

/* @f[@i], which never lands: said so in place of counts, by name, or
 * with git's own bookkeeping of its .git (@done NULL: all by name). */
static void never_line(FILE *out, bool on, const struct ltd_statf *f, size_t n,
		       size_t i, bool *done, const struct layout *l)
{
	size_t row, glen = done ? ltd_change_git_own(f[i].path, &row) : 0;

	if (glen) {
		if (!done[i])
			git_own_line(out, on, f, n, i, glen, done, l);
		return;
	}
	put_name(out, f[i].path, strlen(f[i].path), l->name);
	color(out, on, C_NOTE);
	fputs(" never lands", out);
	color(out, on, C_OFF);
	fputc('\n', out);
}

void ltd_statfmt(FILE *out, const struct ltd_statf *f, size_t n, unsigned width,
		 bool on)
{
	unsigned long long add = 0, del = 0;
	unsigned modes = 0;
	size_t files = 0;
	/* Which of git's own are said; out of memory, each by its name. */
	bool *done = calloc(n ? n : 1, sizeof(*done));
	struct layout l;

	if (!width)
		width = LTD_STATFMT_WIDTH;
	layout(f, n, width > MAX_WIDTH ? MAX_WIDTH : width, done != NULL, &l);
	for (size_t i = 0; i < n; i++) {
		const struct ltd_statf *s = &f[i];

		if (s->flags & LTD_STATF_NEVER) {
			never_line(out, on, f, n, i, done, &l);
			continue;
		}
		files++;
		modes += !!(s->flags & LTD_STATF_MODE);
		put_name(out, s->path, strlen(s->path), l.name);
		if (s->flags & LTD_STATF_BINARY)
			fprintf(out, " %*s", (int)l.number, "Bin");
		else
			counts(out, on, s, &l);
		marks(out, on, s);
		fputc('\n', out);
		add += s->add;
		del += s->del;
	}
	totals(out, files, add, del, modes);
	free(done);
}
