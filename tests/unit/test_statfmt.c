// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * review/statfmt.c: diff NAME --stat's lines as git diff --stat lays out
 * its own.  The expected texts are git 2.39's for the same counts (the
 * same files edited in a git repository, `git diff --stat`, COLUMNS set
 * or not a terminal).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "review/statfmt.h"

#define LONG_NAME                                                              \
	"some/quite/long/directory/name/that/goes/on/and/on/"                  \
	"file-with-long-name.txt"

/* ltd_statfmt()'s text for @f[@n] in @width columns (no colours). */
static char *fmt(const struct ltd_statf *f, size_t n, unsigned width)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	cr_assert(m);
	ltd_statfmt(m, f, n, width, false);
	cr_assert_eq(fclose(m), 0);
	return buf;
}

#define expect_fmt(f, width, want)                                             \
	do {                                                                   \
		char *got_ = fmt(f, sizeof(f) / sizeof(f[0]), width);          \
		cr_expect_str_eq(got_, want, "in %u columns:\n%s\nnot\n%s",    \
				 (unsigned)(width), got_, want);               \
		free(got_);                                                    \
	} while (0)

/* Names padded to one width, counts right-aligned; a name too long for
 * the width cut to "..." and its end, from a '/'. */
Test(statfmt, names_and_counts_aligned_as_git)
{
	static const struct ltd_statf f[] = {
		{"a.txt", 1, 0, 0},
		{"big.txt", 0, 120, 0},
		{"m.sh", 1, 0, 0},
		{LONG_NAME, 1, 0, 0},
	};

	expect_fmt(
		f, 80,
		" a.txt                                              |   1 +\n"
		" big.txt                                            | 120 "
		"---------------------\n"
		" m.sh                                               |   1 +\n"
		" .../that/goes/on/and/on/file-with-long-name.txt    |   1 +\n"
		" 4 files changed, 3 insertions(+), 120 deletions(-)\n");
	expect_fmt(f, 50,
		   " a.txt                            |   1 +\n"
		   " big.txt                          | 120 ---------\n"
		   " m.sh                             |   1 +\n"
		   " .../on/file-with-long-name.txt   |   1 +\n"
		   " 4 files changed, 3 insertions(+), 120 deletions(-)\n");
}

/* The largest change gets the whole width left, the others in
 * proportion, at least one '+' and one '-' for any of either. */
Test(statfmt, bars_scaled_to_the_width)
{
	static const struct ltd_statf f[] = {
		{"mix.txt", 400, 100, 0},
		{"tens.txt", 1000, 0, 0},
		{"tiny.txt", 1, 1, 0},
	};

	expect_fmt(
		f, 80,
		" mix.txt  |  500 ++++++++++++++++++++++++-------\n"
		" tens.txt | 1000 "
		"++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++"
		"++\n"
		" tiny.txt |    2 +-\n"
		" 3 files changed, 1401 insertions(+), 101 deletions(-)\n");
	expect_fmt(f, 40,
		   " mix.txt  |  500 ++++++++---\n"
		   " tens.txt | 1000 ++++++++++++++++++++++\n"
		   " tiny.txt |    2 +-\n"
		   " 3 files changed, 1401 insertions(+), 101 deletions(-)\n");
}

/* Small counts are drawn as they are, whatever the width. */
Test(statfmt, small_counts_unscaled)
{
	static const struct ltd_statf f[] = {
		{"x", 3, 2, 0},
		{"y", 12, 0, 0},
	};

	expect_fmt(f, 200,
		   " x |  5 +++--\n"
		   " y | 12 ++++++++++++\n"
		   " 2 files changed, 15 insertions(+), 2 deletions(-)\n");
}

/* "Bin" sits in the counts' column, three wide as git has it. */
Test(statfmt, binary_in_the_counts_column)
{
	static const struct ltd_statf f[] = {
		{"a.txt", 1, 0, 0},
		{"bin.dat", 0, 0, LTD_STATF_BINARY},
	};

	expect_fmt(f, 80,
		   " a.txt   |   1 +\n"
		   " bin.dat | Bin\n"
		   " 2 files changed, 1 insertion(+)\n");
}

/* git's totals: a count of none is left out when the other is not. */
Test(statfmt, totals_in_gits_words)
{
	static const struct ltd_statf ins[] = {{"a", 1, 0, 0}};
	static const struct ltd_statf del[] = {{"a", 0, 2, 0}};
	static const struct ltd_statf both[] = {{"a", 1, 1, 0}};
	static const struct ltd_statf bin[] = {{"b", 0, 0, LTD_STATF_BINARY}};
	static const struct ltd_statf many[] = {{"a", 2, 0, 0}, {"b", 0, 3, 0}};
	char *none;

	expect_fmt(ins, 80, " a | 1 +\n 1 file changed, 1 insertion(+)\n");
	expect_fmt(del, 80, " a | 2 --\n 1 file changed, 2 deletions(-)\n");
	expect_fmt(
		both, 80,
		" a | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n");
	expect_fmt(bin, 80,
		   " b | Bin\n"
		   " 1 file changed, 0 insertions(+), 0 deletions(-)\n");
	expect_fmt(many, 80,
		   " a | 2 ++\n b | 3 ---\n"
		   " 2 files changed, 2 insertions(+), 3 deletions(-)\n");
	none = fmt(NULL, 0, 80);
	cr_expect_str_eq(none, " 0 files changed\n");
	free(none);
}

/* A name the cage chose is shown safely, and padded by what is shown. */
Test(statfmt, names_shown_safely)
{
	static const struct ltd_statf f[] = {
		{"a\033[2Jb", 1, 0, 0},
		{"abcdefg", 1, 0, 0},
	};

	expect_fmt(f, 80,
		   " a?[2Jb  | 1 +\n"
		   " abcdefg | 1 +\n"
		   " 2 files changed, 2 insertions(+)\n");
}

/* A mode change is marked whether the content changed too or not. */
Test(statfmt, mode_marked_with_content_too)
{
	static const struct ltd_statf f[] = {
		{"both.sh", 1, 0, LTD_STATF_MODE},
		{"mode.sh", 0, 0, LTD_STATF_MODE},
		{"bin", 0, 0, LTD_STATF_BINARY | LTD_STATF_MODE},
		{"text", 2, 1, 0},
	};

	expect_fmt(f, 80,
		   " both.sh |   1 + (mode)\n"
		   " mode.sh |   0 (mode)\n"
		   " bin     | Bin (mode)\n"
		   " text    |   3 ++-\n"
		   " 4 files changed, 3 insertions(+), 1 deletion(-), "
		   "3 mode changes\n");
}

/* The marks after the bars are kept within the width: the bars give
 * way to them. */
Test(statfmt, marks_within_the_width)
{
	static const struct ltd_statf f[] = {
		{"big.c", 900, 100, LTD_STATF_MODE | LTD_STATF_CONFLICT},
		{"small.c", 10, 0, 0},
	};
	char *got = fmt(f, 2, 80), *line = got, *nl;

	for (; (nl = strchr(line, '\n')) && strncmp(line, " 2 files", 8);
	     line = nl + 1)
		cr_expect(nl - line < 80, "%.*s: %d columns", (int)(nl - line),
			  line, (int)(nl - line));
	cr_expect(strstr(got, "-- (mode) (conflict)\n"), "%s", got);
	free(got);
}

#define NEVER LTD_STATF_NEVER

/* What never lands has no counts and is not among the files changed;
 * git's own bookkeeping of a .git (its index, HEAD, objects, refs, logs)
 * is one line for that .git, the rest of it (config, hooks) by name. */
Test(statfmt, never_lands_git_own_in_one_line)
{
	static const struct ltd_statf f[] = {
		{".git/COMMIT_EDITMSG", 0, 0, NEVER},
		{".git/config", 0, 0, NEVER},
		{".git/hooks/pre-commit", 0, 0, NEVER},
		{".git/index", 0, 0, NEVER | LTD_STATF_BINARY},
		{".git/logs/HEAD", 0, 0, NEVER},
		{".git/objects/3e/757656cf36eca53338e520d134963a44f793f8", 0, 0,
		 NEVER},
		{".git/objects/ab/cdef0123456789abcdef0123456789abcdef01", 0, 0,
		 NEVER},
		{".git/refs/heads/main", 0, 0, NEVER},
		{"a.txt", 1, 0, 0},
		{"sub/.git/HEAD", 0, 0, NEVER},
	};

	expect_fmt(f, 80,
		   " .git/                 | never lands: git's own index, "
		   "COMMIT_EDITMSG, objects/ (2 files), refs/ (1 file), logs/ "
		   "(1 file)\n"
		   " .git/config           | never lands\n"
		   " .git/hooks/pre-commit | never lands\n"
		   " a.txt                 | 1 +\n"
		   " sub/.git/             | never lands: git's own HEAD\n"
		   " 1 file changed, 1 insertion(+)\n");
}

/* Only git's own names, right below a .git, are put together: anything
 * else keeps its name (a lock, a look-alike, a .git within a .git). */
Test(statfmt, never_lands_others_by_name)
{
	static const struct ltd_statf f[] = {
		{".git/index.lock", 0, 0, NEVER},
		{".git/objects", 0, 0, NEVER},
		{".git/objects/.git/hooks/x", 0, 0, NEVER},
		{".git/objects/.git/index", 0, 0, NEVER},
		{".git/refsx/y", 0, 0, NEVER},
		{"fifo", 0, 0, NEVER | LTD_STATF_MODE},
		{"x.git/index", 0, 0, NEVER},
	};

	expect_fmt(f, 80,
		   " .git/index.lock           | never lands\n"
		   " .git/objects              | never lands\n"
		   " .git/objects/.git/hooks/x | never lands\n"
		   " .git/objects/.git/        | never lands: git's own index\n"
		   " .git/refsx/y              | never lands\n"
		   " fifo                      | never lands\n"
		   " x.git/index               | never lands\n"
		   " 0 files changed\n");
}

/* What apply holds back unless --include-protected is marked so. */
Test(statfmt, held_back_marked)
{
	static const struct ltd_statf f[] = {
		{".vscode/tasks.json", 1, 0, LTD_STATF_HELD},
		{"a", 2, 0, 0},
	};

	expect_fmt(f, 80,
		   " .vscode/tasks.json | 1 + (held back)\n"
		   " a                  | 2 ++\n"
		   " 2 files changed, 3 insertions(+)\n");
}

/* A newline in a name is a '?' too, in a whole name, a cut one and a
 * .git's part of one: no line of the cage's making. */
Test(statfmt, newline_in_a_name_shown_safely)
{
	static const struct ltd_statf f[] = {
		{"a\nb", 1, 0, 0},
		{"x\n y/.git/index", 0, 0, NEVER},
		{"dir\n/" LONG_NAME "\n", 1, 0, 0},
	};
	char *got = fmt(f, 3, 40);

	cr_expect_str_eq(got,
			 " a?b                              | 1 +\n"
			 " x? y/.git/                       | never lands: "
			 "git's own index\n"
			 " .../on/file-with-long-name.txt?  | 1 +\n"
			 " 2 files changed, 2 insertions(+)\n");
	free(got);
}
