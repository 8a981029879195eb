/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a command turned on in the terminal (runtime/termfilter.h reads
 * its output and calls these for each sequence that changes a mode), and
 * the bytes that undo exactly that.  Pure.
 *
 * Followed: the alternate screens (1049, 1047, 47), the cursor keys,
 * reverse video, origin mode, autowrap, the cursor's visibility, mouse
 * reporting and its encodings, focus events, alternate scroll, bracketed
 * paste, synchronized output, colour-scheme and resize reports, the
 * keyboard lock, insert and new-line modes, kitty's keyboard protocol
 * (pushes and sets), xterm's modifyOtherKeys, the application keypad,
 * the cursor style, the colours OSC 4/10/11/12 set, an open OSC 8
 * hyperlink, SGR attributes, the G0 and shifted G1 character sets, the
 * scroll region.  A full reset (RIS) clears them all, a soft one (DECSTR)
 * those it puts back.
 */
#ifndef LTD_TERMMODES_H
#define LTD_TERMMODES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ltd_term_modes {
	uint32_t dec;	     /* the DEC modes table's bits: off default */
	uint8_t ansi;	     /* KAM, IRM, LNM on */
	uint8_t colours;     /* OSC 4, 10, 11, 12 set */
	uint16_t kitty_push; /* kitty keyboard flags pushed, not popped */
	bool kitty_set, modify_keys, cursor_style, keypad, hyperlink, sgr,
		shifted, g0, margins;
};

/* A CSI sequence as parsed: its private marker, last intermediate and
 * ';'-separated parameters (saturating; bit i of @sub: parameter i has
 * ':' sub-parameters). */
struct ltd_term_csi {
	uint8_t priv, inter, n_params;
	uint16_t sub;
	uint16_t params[16];
};

void ltd_term_modes_csi(struct ltd_term_modes *m, const struct ltd_term_csi *c,
			unsigned char final);
/* ESC @inter (its first intermediate, or 0) @final. */
void ltd_term_modes_esc(struct ltd_term_modes *m, unsigned char inter,
			unsigned char final);
/* SO (0x0E) or SI (0x0F). */
void ltd_term_modes_shift(struct ltd_term_modes *m, bool shifted);
/* An OSC the terminal carried out: its number; @colour: its payload set
 * a colour (not only "?" queries); @link: OSC 8 with a URI. */
void ltd_term_modes_osc(struct ltd_term_modes *m, uint32_t osc, bool colour,
			bool link);

/* The bytes that undo @m (at most @size, which should be 512), the
 * alternate screen left first; returns their length. */
size_t ltd_term_modes_undo(const struct ltd_term_modes *m, char *out,
			   size_t size);

#endif
