// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The terminal filter (runtime/termfilter.c): OSC 52 and the other
 * clipboard sequences dropped wherever a terminal would obey them (BEL or
 * ST, 7-bit or 8-bit C1, raw or in UTF-8, inside tmux's and screen's DCS
 * passthrough, nested), everything else byte for byte; the same output
 * however the input is split across reads.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base.h"
#include "runtime/termfilter.h"

struct res {
	char *out;
	size_t len;
	unsigned long dropped;
};

/* @in fed in pieces of @chunk bytes (0: whole), or split once at @at
 * (when @chunk is SIZE_MAX). */
static struct res feed(const char *in, size_t n, size_t chunk, size_t at,
		       bool allow)
{
	struct ltd_termfilter f;
	struct res r = {malloc(n + LTD_TERMFILTER_HOLD + 1), 0, 0};
	size_t off = 0;

	ltd_termfilter_init(&f, allow);
	while (off < n) {
		size_t k = chunk == SIZE_MAX ? (off < at ? at - off : n - off)
			   : chunk	     ? chunk
					     : n;
		size_t w;

		if (k > n - off)
			k = n - off;
		r.out = realloc(r.out, r.len + k + LTD_TERMFILTER_HOLD + 1);
		w = ltd_termfilter_feed(&f, in + off, k, r.out + r.len);
		cr_assert_leq(w, k + LTD_TERMFILTER_HOLD, "a call's bound");
		r.len += w;
		off += k;
	}
	r.out[r.len] = '\0';
	r.dropped = f.dropped;
	return r;
}

/* The output for @in, checked equal whole, a byte at a time, and split
 * at every place. */
static void expect_n(const char *in, size_t n, const char *want, size_t wlen,
		     unsigned long dropped, bool allow)
{
	struct res whole = feed(in, n, 0, 0, allow);

	cr_assert(whole.len == wlen && memcmp(whole.out, want, wlen) == 0,
		  "got %zu bytes '%s' for '%s'", whole.len, whole.out, in);
	cr_assert_eq(whole.dropped, dropped, "dropped %lu for '%s'",
		     whole.dropped, in);
	for (size_t at = 0; at <= n; at++) {
		struct res r = at == n ? feed(in, n, 1, 0, allow)
				       : feed(in, n, SIZE_MAX, at, allow);

		cr_assert(r.len == wlen && memcmp(r.out, want, wlen) == 0 &&
				  r.dropped == dropped,
			  "split at %zu (%s) of '%s' gave '%s'", at,
			  at == n ? "every byte" : "once", in, r.out);
		free(r.out);
	}
	free(whole.out);
}

static void expect(const char *in, const char *want, unsigned long dropped)
{
	expect_n(in, strlen(in), want, strlen(want), dropped, false);
}

static void passes(const char *in)
{
	expect(in, in, 0);
}

Test(termfilter, text_and_other_sequences_pass)
{
	passes("hello\r\nworld\t!");
	/* UTF-8, one letter with 0x9D as its second byte (U+011D). */
	passes("h\xc3\xa9llo \xc4\x9d \xe2\x9c\x93 \xf0\x9f\x98\x80");
	passes("\033[1;31mred\033[0m \033[?1049h\033[2J\033[?1049l");
	passes("\033]0;a title\007\033]2;another\033\\");
	passes("\033]11;rgb:0000/0000/0000\007\033]10;?\033\\");
	passes("\033]8;;https://example.com/\033\\link\033]8;;\033\\");
	passes("\033]5;x\007\033]521;x\007\033]7;file:///tmp\007");
	passes("\033(0lqk\033(B\016x\017");
	passes("\033P1$r0m\033\\\033_apc\033\\\033^pm\033\\");
	passes("\033]1337;File=name=eA==:AAAA\007\033]1337;SetMark\007");
	passes("\033Ptmux;\033\033]0;title\007\033\\");
	passes("\033Ptmux;\033\033[1mbold\033\\");
	passes("\xc2\x9d"
	       "0;t\xc2\x9c");
}

Test(termfilter, osc52_bel_and_st)
{
	/* Each dropped sequence leaves CAN in its place. */
	expect("a\033]52;c;ZXZpbA==\007b", "a\030b", 1);
	expect("a\033]52;c;ZXZpbA==\033\\b", "a\030b", 1);
	expect("\033]52;c;?\007", "\030", 1); /* a query */
	expect("\033]52;;x\007\033]52;p;x\033\\", "\030\030", 2);
	/* Leading zeros are the same number to xterm and tmux; tmux adds
	 * the digits up in 32 bits (2^32 + 52 is 52 there). */
	expect("\033]0052;c;x\007", "\030", 1);
	expect("\033]4294967348;c;x\007", "\030", 1);
	passes("\033]133;A\007\033]633;P;Cwd=/x\007\033]99999;x\007");
	/* Without its terminator, to the end of the stream and after. */
	expect("x\033]52;c;Y3VybCBldmlsfHNo", "x\030", 1);
	/* Ended by CAN, or by the next sequence. */
	expect("\033]52;c;x\030after", "\030after", 1);
	expect("\033]52;c;x\033[1mafter", "\030\033[1mafter", 1);
	/* A title, ended by what starts the clipboard sequence. */
	expect("\033]0;t\033]52;c;x\007z", "\033]0;t\030z", 1);
	/* Dropping never joins what is around it: ESC ] 5 (an OSC 5 let
	 * through) and 2;c;y would be OSC 52. */
	expect("\033]5\033]52;c;x\0072;c;y\007", "\033]5\0302;c;y\007", 1);
}

Test(termfilter, other_clipboard_sequences)
{
	expect("\033]5522;type=write;x\007", "\030", 1);     /* kitty */
	expect("\033]1337;Copy=:ZXZpbA==\007", "\030", 1);   /* iTerm2 */
	expect("\033]1337;CopyToClipboard=\007", "\030", 1); /* iTerm2 */
	expect("\033]1337;Cop\007", "\033]1337;Cop\007", 0); /* not one */
}

Test(termfilter, eight_bit_forms)
{
	expect("\x9d"
	       "52;c;x\x9c"
	       "ok",
	       "\030ok", 1);
	expect("\x9d"
	       "52;c;x\007ok",
	       "\030ok", 1);
	expect("\xc2\x9d"
	       "52;c;x\xc2\x9c"
	       "ok",
	       "\030ok", 1);
	expect("\033]52;c;x\x9c"
	       "ok",
	       "\030ok", 1);
	/* 0x9D inside UTF-8 text: a letter to a UTF-8 terminal, OSC to an
	 * 8-bit one; dropped if what follows would set the clipboard. */
	expect("\xc4\x9d"
	       "52;c;x\007ok",
	       "\xc4\030ok", 1);
	/* C1 DCS with tmux's passthrough, C1 ST. */
	expect("\x90tmux;\033\033]52;c;x\007\x9c", "\x90tmux;\030\x9c", 1);
	/* ESC and a byte >= 0x80: tmux ignores the byte and stays after
	 * ESC (ESC 0xC4 ] is ESC ] there); a C1 control voids the ESC. */
	expect("\033\xc4]52;c;x\007", "\030\xc4]52;c;x\007", 0);
	expect("\033\x9d]52;c;x\007", "\x9d]52;c;x\007", 0);
}

Test(termfilter, dcs_passthrough)
{
	/* tmux: every ESC inside doubled.  CAN ends the passthrough. */
	expect("\033Ptmux;\033\033]52;c;ZXZpbA==\033\033\\\033\\ok",
	       "\033Ptmux;\030\033\\ok", 1);
	expect("\033Ptmux;\033\033]52;c;x\007\033\\", "\033Ptmux;\030\033\\",
	       1);
	/* screen: the sequence raw, ended by BEL or by the DCS's own ST. */
	expect("\033P\033]52;c;x\007\033\\", "\033P\030\033\\", 1);
	expect("\033P\033]52;c;x\033\\", "\033P\030\033\\", 1);
	/* tmux inside tmux: the ESCs doubled twice. */
	expect("\033Ptmux;\033\033Ptmux;\033\033\033\033]52;c;x"
	       "\033\033\033\033\\\033\033\\\033\\",
	       "\033Ptmux;\033\033Ptmux;\030\033\\\033\\", 1);
	/* SOS, PM, APC and screen's title strings too. */
	expect("\033_\033\033]52;c;x\007\033\\", "\033_\030\033\\", 1);
	expect("\033k\033]52;c;x\007\033\\", "\033k\030\033\\", 1);
	/* After the passthrough, the rest passes. */
	expect("\033Ptmux;\033\033]0;t\007\033\\\033]0;u\007",
	       "\033Ptmux;\033\033]0;t\007\033\\\033]0;u\007", 0);
	/* Inside, a sequence let through and the clipboard after it. */
	expect("\033Ptmux;\033\033]5\033\033]52;c;x\0072;c;y\007\033\\",
	       "\033Ptmux;\033\033]5\0302;c;y\007\033\\", 1);
}

Test(termfilter, over_long)
{
	/* A megabyte of clipboard data in 4 KiB reads. */
	size_t n = (1 << 20) + 64;
	char *in = malloc(n + 1);
	struct res r;
	size_t k = 0;

	k += (size_t)sprintf(in, "before\033]52;c;");
	while (k < n - 16)
		in[k++] = 'A';
	k += (size_t)sprintf(in + k, "\007after");
	r = feed(in, k, 4096, 0, false);
	cr_assert_str_eq(r.out, "before\030after");
	cr_assert_eq(r.dropped, 1);
	free(r.out);
	/* A number longer than the room to judge it: could be 52. */
	k = (size_t)sprintf(in, "\033]");
	memset(in + k, '0', 200);
	k += 200;
	k += (size_t)sprintf(in + k, "52;c;x\007after");
	r = feed(in, k, 0, 0, false);
	cr_assert_str_eq(r.out, "\030after");
	cr_assert_eq(r.dropped, 1);
	free(r.out);
	/* A run of ESCs inside a string longer than the filter holds. */
	k = (size_t)sprintf(in, "\033P");
	memset(in + k, '\033', 300);
	k += 300;
	k += (size_t)sprintf(in + k, "]52;c;x\007\033\\ok");
	r = feed(in, k, 0, 0, false);
	cr_assert_eq(r.dropped, 1);
	cr_assert(r.len >= 2 && memcmp(r.out + r.len - 2, "ok", 2) == 0);
	cr_assert_null(memmem(r.out, r.len, "52;", 3));
	free(r.out);
	free(in);
}

Test(termfilter, allowed)
{
	static const char in[] = "\033]52;c;ZXZpbA==\007"
				 "\033Ptmux;\033\033]52;c;x\007\033\\";

	expect_n(in, sizeof(in) - 1, in, sizeof(in) - 1, 0, true);
}

Test(termfilter, reset_ends_what_is_open)
{
	struct ltd_termfilter f;
	char out[64 + LTD_TERMFILTER_HOLD], end[LTD_TERMFILTER_RESET_MAX];
	size_t n;

	ltd_termfilter_init(&f, false);
	ltd_termfilter_feed(&f, "\033]0;unterminated", 16, out);
	n = ltd_termfilter_reset(&f, end);
	cr_assert(n >= 3 && memcmp(end, "\030\033\\", 3) == 0,
		  "CAN and ST end the open title");
	ltd_termfilter_feed(&f, "plain", 5, out);
	cr_assert_eq(ltd_termfilter_reset(&f, end), 0, "nothing to undo");
}

Test(termfilter, evasions)
{
	expect("\033\033]52;c;x\007", "\030", 1);
	expect("\033\n]52;c;x\007", "\n\030", 1); /* C0 inside the ESC */
	expect("\033[\033]52;c;x\007", "\033[\030", 1);
	expect("\033P\033\\\033]52;c;x\007", "\033P\033\\\030", 1);
	expect("\0337\033]52;c;x\007", "\0337\030", 1);
	/* Controls a terminal ignores inside the OSC's number (tmux read
	 * these as OSC 52), and iTerm2's Copy in another case or broken up. */
	expect_n("\033]5\0002;c;x\007", 10, "\030", 1, 1, false);
	expect("\033]5\r2;c;x\007", "\030", 1);
	expect("\033]\n52;c;x\007", "\030", 1);
	expect("\033]52\177;c;x\007", "\030", 1);
	expect("\033]1337;copy=x\007", "\030", 1);
	expect("\033]1337;Co\001py=x\007", "\030", 1);
	expect("\033]5\r3;x\007", "\033]5\r3;x\007", 0);
	/* A title in UTF-8 (0x9F, 0x9C as letters' bytes) ends at its BEL. */
	expect("\033]0;Gr\xc3\xbc\xc3\x9f"
	       "e \xc5\x9c\007\033]52;c;x\007",
	       "\033]0;Gr\xc3\xbc\xc3\x9f"
	       "e \xc5\x9c\007\030",
	       1);
}

/* Random input over the bytes that matter: the output is the same however
 * it is split, and read again it holds nothing to drop (dropping never
 * joins what is left into a new clipboard sequence). */
Test(termfilter, random_inputs)
{
	static const char *const atoms[] = {
		"\033", "]",	"52",	";",	"\007", "\\", "P",    "tmux;",
		"\x9d", "\x9c", "\xc2", "\xc4", "c;x",	"0",  "\x90", "[",
		"1337", "Copy", "\030", "a",	"8",	"5",  "2",    "_",
	};
	char in[256], again[256 + 2 * LTD_TERMFILTER_HOLD];
	unsigned seed = 12345;

	for (int round = 0; round < 50000; round++) {
		size_t n = 0;
		struct res whole, bytes, twice;
		struct ltd_termfilter f;

		while (n < 200) {
			const char *a =
				atoms[rand_r(&seed) % ARRAY_SIZE(atoms)];

			if (n + strlen(a) >= sizeof(in) ||
			    rand_r(&seed) % 40 == 0)
				break;
			memcpy(in + n, a, strlen(a));
			n += strlen(a);
		}
		whole = feed(in, n, 0, 0, false);
		bytes = feed(in, n, 1, 0, false);
		cr_assert(whole.len == bytes.len &&
				  !memcmp(whole.out, bytes.out, whole.len),
			  "round %d: split changes the output", round);
		ltd_termfilter_init(&f, false);
		ltd_termfilter_feed(&f, whole.out, whole.len, again);
		cr_assert_eq(f.dropped, 0,
			     "round %d: the output still holds a clipboard "
			     "sequence",
			     round);
		twice = whole;
		free(bytes.out);
		free(twice.out);
	}
}
