// SPDX-License-Identifier: GPL-2.0-or-later
#include "common/text.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * Characters that are no control but change how the text around them
 * displays: the bidi embeddings, overrides and isolates (U+202A..U+202E,
 * U+2066..U+2069) reorder it, the zero-width ones and marks (U+200B..U+200F,
 * U+061C, U+FEFF) hide in it.
 */
static bool invisible(uint32_t cp)
{
	return (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069) ||
	       (cp >= 0x200b && cp <= 0x200f) || cp == 0x061c || cp == 0xfeff ||
	       /* soft hyphen, Mongolian vowel separator, line and paragraph
		* separators, word joiner and invisible operators, variation
		* selectors, tags, Hangul fillers */
	       cp == 0x00ad || cp == 0x180e || cp == 0x2028 || cp == 0x2029 ||
	       (cp >= 0x2060 && cp <= 0x2064) ||
	       (cp >= 0xfe00 && cp <= 0xfe0f) ||
	       (cp >= 0xe0000 && cp <= 0xe007f) || cp == 0x115f ||
	       cp == 0x1160 || cp == 0x3164 || cp == 0xffa0;
}

int ltd_utf8_char(const char *str, size_t len, uint32_t *cpp)
{
	const unsigned char *s = (const unsigned char *)str;
	uint32_t cp;
	int n;

	if (len == 0)
		return 0;
	if (s[0] < 0x80) {
		if (cpp)
			*cpp = s[0];
		return s[0] >= 0x20 && s[0] != 0x7f ? 1 : -1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	if ((size_t)n > len)
		return 0;
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates, beyond Unicode. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	if (cpp)
		*cpp = cp;
	/* C1 controls: a terminal may read U+009B as CSI. */
	return cp < 0xa0 || invisible(cp) ? -n : n;
}

void ltd_warn(const char *msg)
{
	ltd_line_shown("ltd-native: warning: ", msg, NULL);
}

void ltd_term_plain(FILE *out)
{
	/* CAN and ST end a control sequence or string (an OSC title left
	 * open swallows all that follows); SI and ESC ( B bring back the
	 * ASCII set; SGR 0 ends hidden, blinking or same-colour text; the
	 * scroll region back to the whole screen (DECSTBM homes the cursor:
	 * saved and restored around it), autowrap back on. */
	static const char seq[] = "\030\033\\\017\033(B\033[0m"
				  "\0337\033[r\0338\033[?7h";

	if (isatty(fileno(out)))
		fwrite(seq, 1, sizeof(seq) - 1, out);
}

/* Runs of text that may be shown go out in one fwrite each (stderr is
 * unbuffered: a write a character cost 0.3 ms a warning). */
static void shown(FILE *out, const char *s, size_t len, bool lines)
{
	const char *run = s;

	while (len) {
		int n = ltd_utf8_char(s, len, NULL);
		size_t step = n > 0 ? (size_t)n : n < 0 ? (size_t)-n : 1;

		if (!(n > 0 || (lines && *s == '\n'))) {
			fwrite(run, 1, (size_t)(s - run), out);
			fputc('?', out);
			run = s + step;
		}
		s += step;
		len -= step;
	}
	fwrite(run, 1, (size_t)(s - run), out);
}

/* One line to stderr in one write: @prefix, then @a (and ": " @b) shown. */
void ltd_line_shown(const char *prefix, const char *a, const char *b)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m) {
		fputs(prefix, stderr);
		ltd_fput_shown(stderr, a);
		fputc('\n', stderr);
		return;
	}
	fputs(prefix, m);
	ltd_fput_shown(m, a);
	if (b) {
		fputs(": ", m);
		ltd_fput_shown(m, b);
	}
	fputc('\n', m);
	if (fclose(m) == 0)
		fwrite(buf, 1, len, stderr);
	free(buf);
}

void ltd_fput_shown(FILE *out, const char *s)
{
	shown(out, s, strlen(s), false);
}

void ltd_fwrite_shown(FILE *out, const char *buf, size_t len)
{
	shown(out, buf, len, true);
}
