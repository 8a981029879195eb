// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A .git's own bookkeeping in one line (ltd_change_lines_*, the run's
 * summary, review NAME, apply, status): the .git's directory is a name the
 * cage chose, shown as every other path is (ltd_fput_shown), never its
 * raw bytes: an escape sequence in it would reach the user's terminal.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "review/changes.h"

Test(change_lines, a_git_s_directory_name_is_shown_safely)
{
	static const char why[] = "a .git's own files";
	struct ltd_change c[2] = {
		{.path = "x\033]2;pwned\a\033[2J/.git/objects/ab/cd",
		 .kind = LTD_CH_ADD,
		 .flags = LTD_CHF_REFUSED,
		 .mode = S_IFREG | 0444,
		 .why = why},
		{.path = "x\033]2;pwned\a\033[2J/.git/index",
		 .kind = LTD_CH_ADD,
		 .flags = LTD_CHF_REFUSED,
		 .mode = S_IFREG | 0644,
		 .why = why},
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	struct ltd_change_lines l = {.out = m, .indent = "  "};

	cr_assert_not_null(m);
	for (size_t i = 0; i < 2; i++)
		ltd_change_lines_add(&l, &c[i]);
	ltd_change_lines_end(&l);
	fclose(m);
	cr_assert(strstr(buf, "git's own"), "%s", buf);
	for (size_t i = 0; i < len; i++)
		cr_assert(buf[i] == '\n' || ((unsigned char)buf[i] >= 0x20 &&
					     (unsigned char)buf[i] != 0x7f),
			  "raw control byte 0x%02x at %zu in: %s",
			  (unsigned char)buf[i], i, buf);
	free(buf);
}
