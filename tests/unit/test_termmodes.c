// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The exit reset (runtime/termmodes.c, through the terminal filter): what
 * the command turned on in the terminal is undone, and nothing else,
 * however its output was split across reads.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/termfilter.h"

/* The reset after @in, fed whole and split at every place: all equal. */
static void undoes(const char *in, const char *want)
{
	size_t n = strlen(in);
	char out[512 + LTD_TERMFILTER_HOLD], end[LTD_TERMFILTER_RESET_MAX + 1];

	for (size_t at = 0; at <= n; at++) {
		struct ltd_termfilter f;
		size_t k;

		ltd_termfilter_init(&f, false);
		ltd_termfilter_feed(&f, in, at, out);
		ltd_termfilter_feed(&f, in + at, n - at, out);
		k = ltd_termfilter_reset(&f, end);
		end[k] = '\0';
		cr_assert_str_eq(end, want, "after '%s' split at %zu", in, at);
		cr_assert_eq(ltd_termfilter_reset(&f, end), 0,
			     "a second reset has nothing to undo");
	}
}

Test(termmodes, nothing_turned_on_nothing_undone)
{
	undoes("hello\r\n", "");
	undoes("\033[1;31mred\033[0m", "");
	undoes("\033[?1049h\033[2J\033[?1049l", ""); /* left it itself */
	undoes("\033[?25l\033[?25h", "");
	undoes("\033[?7l\033[?7h", "");
	undoes("\033]11;?\007\033]10;?\033\\", ""); /* colour queries */
	undoes("\033]8;;https://x/\033\\link\033]8;;\033\\", "");
	undoes("\033(0lqk\033(B\016x\017", "");
	undoes("\033[5;20r\033[r", "");
	undoes("\033[>1u\033[<u", "");
	undoes("\033[>4;2m\033[>4m", "");
	undoes("\033]0;a title\007", "");
}

Test(termmodes, what_was_turned_on_is_undone)
{
	undoes("\033[?1049h", "\033[?1049l");
	undoes("\033[?47h", "\033[?47l");
	undoes("\033[?25l", "\033[?25h");
	undoes("\033[?7l", "\033[?7h");
	undoes("\033[?1000;1006h", "\033[?1000l\033[?1006l");
	undoes("\033[?2004h", "\033[?2004l");
	undoes("\033[?1004h\033[?2026h", "\033[?1004l\033[?2026l");
	undoes("\033[?1h\033=", "\033[?1l\033>");
	undoes("\033[4h", "\033[4l");
	undoes("\033[>1u\033[>5u\033[<u\033[>3u", "\033[<2u");
	undoes("\033[=5;1u", "\033[=0;1u");
	undoes("\033[>4;2m", "\033[>4m");
	undoes("\033[5 q", "\033[0 q");
	undoes("\033]11;rgb:0000/0000/0000\007", "\033]111\033\\");
	undoes("\033]4;1;#ff0000\033\\", "\033]104\033\\");
	undoes("\033]8;;https://evil.example/\033\\click", "\033]8;;\033\\");
	undoes("\033[31m", "\033[0m");
	undoes("\033[38;5;0m", "\033[0m"); /* colour 0, not a reset */
	undoes("\033[38:2::0:0:0m", "\033[0m");
	undoes("\033[1;0m", "");
	undoes("\033(0", "\033(B");
	undoes("\016", "\017");
	undoes("\033[2;10r", "\0337\033[r\0338");
	/* 8-bit CSI, raw and in UTF-8. */
	undoes("\x9b?1049h", "\033[?1049l");
	undoes("\xc2\x9b?25l", "\033[?25h");
}

Test(termmodes, order_and_resets)
{
	/* The alternate screen is left first: the rest is undone on the
	 * main screen; an open hyperlink is closed before anything. */
	undoes("\033[?25l\033[?1049h\033]8;;x\033\\",
	       "\033]8;;\033\\\033[?1049l\033[?25h");
	/* RIS puts everything back; DECSTR what it resets. */
	undoes("\033[?1049h\033[?25l\033c", "");
	undoes("\033[?25l\033[4h\033=\033[31m\033[!p", "");
	/* An open sequence is ended first. */
	undoes("\033[?1049h\033]0;unterminated", "\030\033\\\033[?1049l");
}
