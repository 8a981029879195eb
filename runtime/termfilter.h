/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the cage writes to the user's terminal, read as the terminal
 * would read it, a byte at a time, across reads (a sequence may be split
 * anywhere).  Two jobs, both from the one parse:
 *
 * - The clipboard: OSC 52 (write the clipboard; with "?" as data, ask the
 *   terminal to type the clipboard into the cage), kitty's OSC 5522 and
 *   iTerm2's OSC 1337 Copy... are dropped unless the policy allows them
 *   (--allow-clipboard), and counted.  Also inside a DCS, SOS, PM or APC
 *   string (tmux's `ESC P tmux; ... ESC \` passthrough with its doubled
 *   ESCs, screen's raw one), also in their 8-bit C1 forms (a raw byte
 *   outside UTF-8 text, or C1 encoded as UTF-8), also introduced by a bare
 *   0x9D inside UTF-8 text (an 8-bit terminal reads it as OSC).  Where
 *   terminals disagree (xterm ends a DCS at any ESC, tmux only at ST; tmux
 *   ignores a byte >= 0x80 after ESC and stays there), every place that
 *   could start an OSC is judged as one, and an ESC followed by such a
 *   byte becomes CAN.  An OSC number longer than the room to hold it is
 *   dropped: it could be 52 with leading zeros.  A dropped sequence
 *   leaves CAN in its place, which ends whatever the terminal may still
 *   be inside: what is left never joins into a new sequence.  Titles,
 *   colours and everything else pass unchanged.
 *
 * - What the command turned on (runtime/termmodes.h): at the end,
 *   ltd_termfilter_reset() gives the bytes that undo that, and nothing
 *   else: a command that left the alternate screen itself gets no second
 *   ESC[?1049l (which would restore a stale saved cursor and draw over
 *   its last lines).
 *
 * Pure: no I/O.  The relays (runtime/pty.c, runtime/outputs.c) run their
 * output through it only when that output is a terminal: bytes to a pipe
 * or a file are never touched.
 */
#ifndef LTD_TERMFILTER_H
#define LTD_TERMFILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "runtime/termmodes.h"

/* Bytes a call may write beyond what it was given (held bytes let go). */
#define LTD_TERMFILTER_HOLD 160
/* Room for ltd_termfilter_reset()'s bytes. */
#define LTD_TERMFILTER_RESET_MAX 512

struct ltd_termfilter {
	bool allow_clipboard;
	unsigned long dropped; /* clipboard sequences dropped */
	struct ltd_term_modes modes;
	/* The parse. */
	uint8_t state;
	bool c2;	   /* a 0xC2 held: C1 in UTF-8, or a letter's lead */
	bool esc;	   /* an ESC held inside an OSC */
	uint8_t utf8_left; /* continuation bytes expected */
	unsigned run;	   /* ESCs held inside a string */
	/* The OSC: its number, while held; what its payload showed. */
	uint8_t ret;	/* the state a head that passes goes on in */
	bool long_head; /* more digits than the room to hold them */
	bool peeking;	/* holding "Copy"'s room of OSC 1337's payload */
	bool sep;	/* the ';' after the number passed */
	bool link_semi; /* OSC 8: the ';' after its params passed */
	uint8_t digits; /* significant digits of the number */
	uint8_t peek;	/* payload bytes held */
	char peeked[4]; /* those bytes, C0 left out */
	uint8_t seen;	/* 1: a colour spec, 2: a hyperlink's URI */
	uint32_t osc;	/* the number */
	struct ltd_term_csi csi; /* a CSI sequence's, as it comes */
	uint8_t esc_inter;	 /* an ESC sequence's first intermediate */
	size_t n_pend;
	unsigned char pend[LTD_TERMFILTER_HOLD];
};

void ltd_termfilter_init(struct ltd_termfilter *f, bool allow_clipboard);

/*
 * Filter @n bytes of @in into @out, which has room for @n +
 * LTD_TERMFILTER_HOLD bytes; returns how many were written.  What cannot
 * be judged yet (an OSC's number still coming) is held until a later call.
 */
size_t ltd_termfilter_feed(struct ltd_termfilter *f, const void *in, size_t n,
			   void *out);

/*
 * The end of the stream: the bytes (at most LTD_TERMFILTER_RESET_MAX) that
 * end a sequence left open and undo what the command turned on, into
 * @out; returns their length.  Bytes still held are dropped.  The filter
 * then starts afresh (modes cleared, the count kept).
 */
size_t ltd_termfilter_reset(struct ltd_termfilter *f, char *out);

/* What the terminal filters dropped (@dropped sequences), said on @out;
 * nothing when none. */
void ltd_termfilter_report(FILE *out, unsigned long dropped);

#endif
