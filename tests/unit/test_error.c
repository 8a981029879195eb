// SPDX-License-Identifier: GPL-2.0-or-later
/* What ltd-native prints of names it did not choose (paths from the
 * project's tree, its git config, policy values): no control byte reaches
 * the terminal, UTF-8 text does. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/error.h"

static char *shown(const char *s)
{
	static char buf[256];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	cr_assert(f);
	ltd_fput_shown(f, s);
	fclose(f);
	return buf;
}

Test(error, control_bytes_are_shown_as_question_marks)
{
	cr_assert_str_eq(shown("a\nb\x1b[2Jc\x7f"), "a?b?[2Jc?");
}

Test(error, c1_controls_and_invalid_utf8_are_shown_as_question_marks)
{
	cr_assert_str_eq(shown("x\xc2\x9b"
			       "31m"),
			 "x?31m", "U+009B (CSI)");
	cr_assert_str_eq(shown("x\x9b"
			       "31m"),
			 "x?31m", "a lone C1 byte");
	cr_assert_str_eq(shown("\xe2\x82"), "??", "a cut sequence");
	cr_assert_str_eq(shown("\xc0\xaf"), "??", "an overlong '/'");
	cr_assert_str_eq(shown("\xed\xa0\x80"), "???", "a surrogate");
}

Test(error, utf8_text_is_shown_as_it_is)
{
	cr_assert_str_eq(shown("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\x92"),
			 "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\x92");
}

Test(error, the_error_line_is_shown_too)
{
	struct ltd_err err = {0};
	char buf[256] = {0};
	int fds[2];
	ssize_t n;

	cr_assert_eq(pipe(fds), 0);
	ltd_err_set(&err, 22, "--bind: '%s' is odd", "/p/\x1b]0;pwned\a");
	fflush(stderr);
	int saved = dup(2);
	dup2(fds[1], 2);
	ltd_err_print(&err);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fds[1]);
	n = read(fds[0], buf, sizeof(buf) - 1);
	close(fds[0]);
	cr_assert_gt(n, 0);
	cr_assert_str_eq(buf, "ltd-native: --bind: '/p/?]0;pwned?' is odd\n");
}
