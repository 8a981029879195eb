// SPDX-License-Identifier: GPL-2.0-or-later
/* What ltd-native prints of names it did not choose (paths from the
 * project's tree, its git config, policy values): no control byte reaches
 * the terminal, UTF-8 text does. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "common/text.h"

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

/* A bidi control reorders what follows it and a zero-width character
 * hides between letters: "/tmp/\u202Egpj.sh" would display as
 * "/tmp/hs.jpg".  Each is shown as '?', so a path displays as what it is. */
Test(error, bidi_and_zero_width_characters_are_shown_as_question_marks)
{
	cr_assert_str_eq(shown("/tmp/\xe2\x80\xae"
			       "gpj.sh"),
			 "/tmp/?gpj.sh", "U+202E (right-to-left override)");
	cr_assert_str_eq(shown("a\xe2\x80\xaa"
			       "b\xe2\x80\xac"
			       "c\xe2\x80\xad"),
			 "a?b?c?", "U+202A, U+202C, U+202D");
	cr_assert_str_eq(shown("a\xe2\x81\xa6"
			       "b\xe2\x81\xa9"),
			 "a?b?", "U+2066, U+2069 (isolates)");
	cr_assert_str_eq(shown("a\xe2\x80\x8b"
			       "b\xe2\x80\x8f"),
			 "a?b?", "U+200B (zero width space), U+200F (RLM)");
	cr_assert_str_eq(shown("a\xd8\x9c"
			       "b"),
			 "a?b", "U+061C (Arabic letter mark)");
	cr_assert_str_eq(shown("\xef\xbb\xbf"
			       "x"),
			 "?x", "U+FEFF (zero width no-break space)");
	/* Also hiding or hidden: soft hyphen, Mongolian vowel separator,
	 * line and paragraph separators, word joiner and invisible
	 * operators, variation selectors, tag characters, Hangul fillers. */
	cr_assert_str_eq(shown("a\xc2\xad"
			       "b\xe1\xa0\x8e"
			       "c\xe2\x80\xa8"
			       "d\xe2\x80\xa9"
			       "e\xe2\x81\xa0"
			       "f\xe2\x81\xa4"
			       "g\xef\xb8\x8f"
			       "h\xf3\xa0\x80\x81"
			       "i\xf3\xa0\x81\xbf"
			       "j\xe1\x85\x9f"
			       "k\xe3\x85\xa4"
			       "l\xef\xbe\xa0"
			       "m"),
			 "a?b?c?d?e?f?g?h?i?j?k?l?m");
	/* Their neighbours are text. */
	cr_assert_str_eq(shown("\xe2\x80\x8a|\xe2\x80\x90|\xe2\x80\xa7|"
			       "\xe2\x80\xaf|\xe2\x81\xa5|\xe2\x81\xaa|"
			       "\xd8\x9b|\xef\xbb\xbe|\xc2\xac|\xef\xb8\x90"),
			 "\xe2\x80\x8a|\xe2\x80\x90|\xe2\x80\xa7|"
			 "\xe2\x80\xaf|\xe2\x81\xa5|\xe2\x81\xaa|"
			 "\xd8\x9b|\xef\xbb\xbe|\xc2\xac|\xef\xb8\x90");
}

/* The one classification policy files are checked with too. */
Test(error, utf8_char_classifies_one_character)
{
	uint32_t cp = 0;

	cr_assert_eq(ltd_utf8_char("a", 1, &cp), 1);
	cr_assert_eq(cp, 'a');
	cr_assert_eq(ltd_utf8_char("\xc3\xa9x", 3, &cp), 2);
	cr_assert_eq(cp, 0xe9);
	cr_assert_eq(ltd_utf8_char("\n", 1, &cp), -1, "a control");
	cr_assert_eq(cp, '\n');
	cr_assert_eq(ltd_utf8_char("\xc2\x9b", 2, &cp), -2, "a C1 control");
	cr_assert_eq(cp, 0x9b);
	cr_assert_eq(ltd_utf8_char("\xe2\x80\xae", 3, &cp), -3, "bidi");
	cr_assert_eq(cp, 0x202e);
	cr_assert_eq(ltd_utf8_char("\x9b", 1, &cp), 0, "a lone C1 byte");
	cr_assert_eq(ltd_utf8_char("\xe2\x80\xae", 2, &cp), 0,
		     "a sequence cut by the end of the text");
	cr_assert_eq(ltd_utf8_char("\xf4\x90\x80\x80", 4, &cp), 0,
		     "beyond U+10FFFF");
	cr_assert_eq(ltd_utf8_char("", 0, &cp), 0, "nothing");
	cr_assert_eq(ltd_utf8_char("\xc3\xa9", 2, NULL), 2);
}

/* Text of many lines (a policy file, the DNS helper's summary): its
 * newlines kept, all else as ltd_fput_shown() shows it. */
Test(error, lines_are_shown_with_their_newlines)
{
	static const char text[] = "a\x1b[2J\nb\0c\xe2\x80\xae\r\n\n\xc3\xa9";
	char buf[64] = {0};
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	cr_assert(f);
	ltd_fwrite_shown(f, text, sizeof(text) - 1);
	fclose(f);
	cr_assert_str_eq(buf, "a?[2J\nb?c??\n\n\xc3\xa9");
}
