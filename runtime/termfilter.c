// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The terminal filter (runtime/termfilter.h): a state machine after the
 * DEC/ECMA-48 parser that xterm and tmux implement, fed a byte at a time.
 * Held bytes (an ESC not yet followed, an OSC whose number is still
 * coming, a 0xC2 that may start a C1 in UTF-8) wait in the filter across
 * calls; everything else goes straight out.
 */
#include "runtime/termfilter.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/base.h"

enum {
	S_GROUND,
	S_ESC,	     /* an ESC, held */
	S_ESC_INTER, /* ESC and intermediate bytes */
	S_CSI,
	S_OSC_HEAD, /* ESC ] and the number, held until judged */
	S_OSC_PASS,
	S_OSC_DROP,
	S_STR,	    /* DCS, SOS, PM, APC, screen's ESC k */
	S_STR_HEAD, /* an OSC inside such a string, held until judged */
	S_STR_DROP,
};

#define BEL 0x07
#define CAN 0x18
#define SUB 0x1a
#define ESC 0x1b

/* Held bytes: the OSC head (with the ESCs that introduced it inside a
 * string, at most RUN_IN_HEAD of them) and a run of ESCs inside a string
 * (at most RUN_MAX): with the two flags, within LTD_TERMFILTER_HOLD. */
#define PEND_MAX    80
#define RUN_MAX	    64
#define RUN_IN_HEAD 32
_Static_assert(PEND_MAX + RUN_MAX + 2 <= LTD_TERMFILTER_HOLD, "hold");

struct out {
	unsigned char *p;
	size_t n;
};

static void put(struct out *o, unsigned char b)
{
	o->p[o->n++] = b;
}

static void flush(struct ltd_termfilter *f, struct out *o)
{
	memcpy(o->p + o->n, f->pend, f->n_pend);
	o->n += f->n_pend;
	f->n_pend = 0;
}

static void hold(struct ltd_termfilter *f, unsigned char b)
{
	f->pend[f->n_pend++] = b;
}

static void put_run(struct out *o, unsigned run)
{
	while (run--)
		put(o, ESC);
}

void ltd_termfilter_init(struct ltd_termfilter *f, bool allow_clipboard)
{
	*f = (struct ltd_termfilter){.allow_clipboard = allow_clipboard};
}

/* An OSC's payload byte, as far as the reset cares: a colour spec (not a
 * "?" query), a hyperlink's URI (after its "params;"). */
static void osc_track(struct ltd_termfilter *f, unsigned char b)
{
	if (!f->sep) {
		f->sep = b == ';';
	} else if (f->osc == 8) {
		if (f->link_semi)
			f->seen |= 2;
		f->link_semi |= b == ';';
	} else if (!((b >= '0' && b <= '9') || b == ';' || b == '?')) {
		f->seen |= 1;
	}
}

/* An OSC that the terminal carries out. */
static void osc_end(struct ltd_termfilter *f)
{
	ltd_term_modes_osc(&f->modes, f->osc, f->seen & 1, f->seen & 2);
}

/* --- the clipboard -------------------------------------------------------- */

/* A head from here: @ret is where a head that passes goes on. */
static void head_start(struct ltd_termfilter *f, uint8_t state, uint8_t ret)
{
	f->state = state;
	f->ret = ret;
	f->long_head = f->peeking = f->sep = f->link_semi = false;
	f->digits = f->peek = f->seen = 0;
	f->osc = 0;
}

/* 52; kitty's 5522; iTerm2's 1337 whose payload starts with "Copy"
 * (Copy=, CopyToClipboard=). */
static bool clipboard(const struct ltd_termfilter *f)
{
	if (f->osc == 52 || f->osc == 5522 || f->long_head)
		return true;
	return f->osc == 1337 && f->peek == 4 &&
	       strncasecmp(f->peeked, "copy", 4) == 0;
}

/* The head is judged: dropped and counted, or let through.  The byte that
 * made it judged is then read again in the state this leaves. */
static void judge(struct ltd_termfilter *f, struct out *o)
{
	if (!f->allow_clipboard && clipboard(f)) {
		/* In its place CAN, which ends whatever the terminal may
		 * still be inside (a title, a string let through before it):
		 * without the dropped bytes that would run on into what
		 * follows (ESC ] 5, dropped, 2;c;... is OSC 52). */
		put(o, CAN);
		f->n_pend = 0;
		f->dropped++;
		f->state = f->state == S_STR_HEAD ? S_STR_DROP : S_OSC_DROP;
		return;
	}
	flush(f, o);
	f->state = f->ret;
}

/* A C0 control (or DEL) that a terminal ignores inside an OSC string:
 * tmux reads ESC ] 5 NUL 2 ; as OSC 52.  BEL ends the string, CAN and SUB
 * cancel it, ESC may begin ST: those are not ignored. */
static bool ignored_in_osc(unsigned char b)
{
	return (b < 0x20 && b != 0x07 && b != 0x18 && b != 0x1a && b != ESC) ||
	       b == 0x7f;
}

/* A byte of the head: held (true), or it is time to judge (false: the
 * byte is not taken).  The number's leading zeros count for nothing, as
 * xterm and tmux read it; more than 6 digits make a long head (dropped):
 * tmux adds them up in 32 bits, so 4294967348 is 52 there.  A control
 * the terminal ignores is held and counts for nothing either, in the
 * number or in OSC 1337's "Copy" (whose case iTerm2 may not mind). */
static bool head_byte(struct ltd_termfilter *f, unsigned char b)
{
	if (f->n_pend >= PEND_MAX) {
		f->long_head = !f->peeking;
		return false;
	}
	if (ignored_in_osc(b) && !(f->peeking && f->peek == 4)) {
		hold(f, b);
		return true;
	}
	if (f->peeking) {
		if (f->peek == 4)
			return false;
		hold(f, b);
		f->peeked[f->peek++] = (char)b;
		return true;
	}
	if (b >= '0' && b <= '9') {
		hold(f, b);
		if ((f->digits || b != '0') && ++f->digits > 6)
			f->long_head = true;
		else if (f->digits)
			f->osc = f->osc * 10 + (uint32_t)(b - '0');
		return true;
	}
	if (b == ';' && f->osc == 1337) {
		hold(f, b);
		f->peeking = true;
		return true;
	}
	return false;
}

/* --- the states ------------------------------------------------------------
 */

static void csi_start(struct ltd_termfilter *f)
{
	f->state = S_CSI;
	f->csi = (struct ltd_term_csi){0};
}

static void str_start(struct ltd_termfilter *f)
{
	f->state = S_STR;
	f->run = 0;
}

static void esc_start(struct ltd_termfilter *f)
{
	f->state = S_ESC;
	f->esc_inter = 0;
	f->n_pend = 0;
	hold(f, ESC);
}

static void byte(struct ltd_termfilter *f, struct out *o, unsigned char b);

/* A C1 control, raw (@two false) or as UTF-8 (0xC2 @b).  Outside a
 * string it does what ESC and its 7-bit form would; inside one, an OSC is
 * judged and ST ends it. */
static void c1(struct ltd_termfilter *f, struct out *o, unsigned char b,
	       bool two)
{
	bool drop = f->state == S_OSC_DROP || f->state == S_STR_DROP;

	if (f->state == S_OSC_HEAD || f->state == S_STR_HEAD) {
		judge(f, o);
		c1(f, o, b, two);
		return;
	}
	if (f->state == S_STR) {
		put_run(o, f->run);
		f->run = 0;
		if (b == 0x9d) {
			f->n_pend = 0;
			if (two)
				hold(f, 0xc2);
			hold(f, b);
			head_start(f, S_STR_HEAD, S_STR);
			return;
		}
		if (two)
			put(o, 0xc2);
		put(o, b);
		if (b == 0x9c)
			f->state = S_GROUND;
		return;
	}
	if (f->state == S_OSC_PASS && b == 0x9c)
		osc_end(f);
	/* A C1 control voids the ESC before it (tmux would stay in its
	 * escape state instead: it never sees that ESC). */
	if (f->state == S_ESC)
		f->n_pend = 0;
	f->esc = false;
	f->run = 0;
	f->utf8_left = 0;
	if (b == 0x9d) {
		f->n_pend = 0;
		if (two)
			hold(f, 0xc2);
		hold(f, b);
		head_start(f, S_OSC_HEAD, S_OSC_PASS);
		return;
	}
	f->state = S_GROUND;
	if (!(drop && b == 0x9c)) {
		if (two)
			put(o, 0xc2);
		put(o, b);
	}
	if (b == 0x9b)
		csi_start(f);
	else if (b == 0x90 || b == 0x98 || b == 0x9e || b == 0x9f)
		str_start(f);
}

static void ground(struct ltd_termfilter *f, struct out *o, unsigned char b)
{
	if (b == ESC)
		esc_start(f);
	else if (b == 0x0e || b == 0x0f)
		ltd_term_modes_shift(&f->modes, b == 0x0e);
	if (b != ESC)
		put(o, b);
}

static void escape(struct ltd_termfilter *f, struct out *o, unsigned char b)
{
	switch (b) {
	case ESC: /* a second ESC: the first one is void */
		return;
	case ']':
		hold(f, b);
		head_start(f, S_OSC_HEAD, S_OSC_PASS);
		return;
	case '[':
		flush(f, o);
		put(o, b);
		csi_start(f);
		return;
	case 'P': /* DCS */
	case 'X': /* SOS */
	case '^': /* PM */
	case '_': /* APC */
	case 'k': /* screen's title */
		flush(f, o);
		put(o, b);
		str_start(f);
		return;
	case CAN:
	case SUB:
		f->n_pend = 0;
		put(o, b);
		f->state = S_GROUND;
		return;
	}
	if (b < 0x20 || b == 0x7f) { /* done within the sequence */
		put(o, b);
		return;
	}
	if (b >= 0x80) {
		/* ESC and a byte >= 0x80 is no sequence in UTF-8; tmux
		 * ignores the byte and stays in its escape state (so ESC
		 * 0xC4 ] is ESC ] there), an 8-bit terminal reads 0xDD as
		 * ']'.  The ESC becomes CAN: nothing waits for what follows. */
		f->n_pend = 0;
		put(o, CAN);
		f->state = S_GROUND;
		ground(f, o, b);
		return;
	}
	flush(f, o);
	put(o, b);
	if (b < 0x30) {
		f->esc_inter = b;
		f->state = S_ESC_INTER;
		return;
	}
	ltd_term_modes_esc(&f->modes, 0, b);
	f->state = S_GROUND;
}

static void esc_inter(struct ltd_termfilter *f, struct out *o, unsigned char b)
{
	if (b == ESC) {
		esc_start(f);
	} else if (b >= 0x80) {
		f->state = S_GROUND;
		ground(f, o, b);
	} else {
		put(o, b);
		if (b >= 0x30 && b <= 0x7e)
			ltd_term_modes_esc(&f->modes, f->esc_inter, b);
		if ((b >= 0x30 && b <= 0x7e) || b == CAN || b == SUB)
			f->state = S_GROUND;
	}
}

static void csi_param(struct ltd_term_csi *c, unsigned char b)
{
	unsigned i = c->n_params ? c->n_params - 1u : 0;

	if (b >= '<' && b <= '?') {
		if (!c->n_params && !c->priv)
			c->priv = b;
		return;
	}
	if (!c->n_params)
		c->n_params = 1;
	if (b >= '0' && b <= '9') {
		unsigned v = c->params[i] * 10u + (b - '0');

		c->params[i] = (uint16_t)(v > UINT16_MAX ? UINT16_MAX : v);
	} else if (b == ':') {
		c->sub |= (uint16_t)(1u << i);
	} else if (b == ';' && c->n_params < ARRAY_SIZE(c->params)) {
		c->n_params++;
	}
}

static void csi(struct ltd_termfilter *f, struct out *o, unsigned char b)
{
	if (b == ESC) {
		esc_start(f);
		return;
	}
	if (b >= 0x80) {
		f->state = S_GROUND;
		ground(f, o, b);
		return;
	}
	put(o, b);
	if (b >= 0x30 && b <= 0x3f) {
		csi_param(&f->csi, b);
	} else if (b >= 0x20 && b <= 0x2f) {
		f->csi.inter = b;
	} else if (b >= 0x40 && b <= 0x7e) {
		ltd_term_modes_csi(&f->modes, &f->csi, b);
		f->state = S_GROUND;
	} else if (b == CAN || b == SUB) {
		f->state = S_GROUND;
	}
}

/* Inside an OSC that passes (@drop false) or is dropped.  Its end: BEL or
 * ST; an ESC before anything else ends it too (xterm starts a new
 * sequence there, tmux swallows one byte: both are judged as a new one). */
static void osc(struct ltd_termfilter *f, struct out *o, unsigned char b,
		bool drop)
{
	if (f->esc) {
		f->esc = false;
		if (!drop)
			osc_end(f);
		if (b == '\\') {
			if (!drop) {
				put(o, ESC);
				put(o, b);
			}
			f->state = S_GROUND;
			return;
		}
		esc_start(f);
		escape(f, o, b);
		return;
	}
	if (b == ESC) {
		f->esc = true;
		return;
	}
	if (!drop)
		put(o, b);
	if (b == BEL && !drop)
		osc_end(f);
	if (b == BEL || b == CAN || b == SUB)
		f->state = S_GROUND;
	else if (!drop)
		osc_track(f, b);
}

/* The ESCs held inside a string, and the byte after them: its end (one
 * ESC and '\'), an OSC to judge (any number of ESCs: tmux doubles each
 * level's), or more of the string. */
static void str_run(struct ltd_termfilter *f, struct out *o, unsigned char b)
{
	unsigned run = f->run;

	f->run = 0;
	if (b == '\\' && run == 1) {
		put(o, ESC);
		put(o, b);
		f->state = S_GROUND;
	} else if (b == ']') {
		if (run > RUN_IN_HEAD) {
			put_run(o, run - RUN_IN_HEAD);
			run = RUN_IN_HEAD;
		}
		f->n_pend = 0;
		while (run--)
			hold(f, ESC);
		hold(f, b);
		head_start(f, S_STR_HEAD, S_STR);
	} else {
		put_run(o, run);
		byte(f, o, b);
	}
}

static void str(struct ltd_termfilter *f, struct out *o, unsigned char b)
{
	if (b == ESC) {
		if (f->run == RUN_MAX)
			put(o, ESC);
		else
			f->run++;
		return;
	}
	if (f->run) {
		str_run(f, o, b);
		return;
	}
	put(o, b);
	if (b == CAN || b == SUB)
		f->state = S_GROUND;
}

/* An OSC inside a string, dropped (and the string ended with CAN): to
 * the OSC's BEL or ST (ESCs and '\'); one ESC and '\' is the string's own
 * end.  Then the terminal is back in its ground state, and so are we. */
static void str_drop(struct ltd_termfilter *f, struct out *o, unsigned char b)
{
	if (b == ESC) {
		f->run += f->run < RUN_MAX;
		return;
	}
	if (f->run) {
		unsigned run = f->run;

		f->run = 0;
		f->state = S_GROUND;
		if (b == '\\' && run > 1)
			return;
		/* Its own ST, or the OSC ended by ESC (xterm's reading). */
		esc_start(f);
		escape(f, o, b);
		return;
	}
	if (b == BEL || b == CAN || b == SUB)
		f->state = S_GROUND;
}

static void head(struct ltd_termfilter *f, struct out *o, unsigned char b)
{
	if (b != ESC && b != BEL && b != CAN && b != SUB && head_byte(f, b))
		return;
	judge(f, o);
	byte(f, o, b);
}

static void byte(struct ltd_termfilter *f, struct out *o, unsigned char b)
{
	switch (f->state) {
	case S_GROUND:
		ground(f, o, b);
		break;
	case S_ESC:
		escape(f, o, b);
		break;
	case S_ESC_INTER:
		esc_inter(f, o, b);
		break;
	case S_CSI:
		csi(f, o, b);
		break;
	case S_OSC_HEAD:
	case S_STR_HEAD:
		head(f, o, b);
		break;
	case S_OSC_PASS:
	case S_OSC_DROP:
		osc(f, o, b, f->state == S_OSC_DROP);
		break;
	case S_STR:
		str(f, o, b);
		break;
	case S_STR_DROP:
		str_drop(f, o, b);
		break;
	}
}

/* A byte 0x80-0x9F inside UTF-8 text (a letter's second byte, say) is
 * text, in the states where text is; elsewhere it is a C1 control.  To an
 * 8-bit terminal it is always C1: 0x9D there is an OSC, judged as one
 * (and if it passes, the text goes on). */
static bool text_state(const struct ltd_termfilter *f)
{
	return f->state == S_GROUND || f->state == S_OSC_PASS ||
	       f->state == S_STR;
}

static void high(struct ltd_termfilter *f, struct out *o, unsigned char b)
{
	bool text = text_state(f);

	if (text && f->utf8_left && (b & 0xc0) == 0x80) {
		f->utf8_left--;
		if (b != 0x9d) {
			byte(f, o, b);
			return;
		}
		if (f->state == S_STR)
			put_run(o, f->run);
		f->run = 0;
		f->n_pend = 0;
		hold(f, b);
		head_start(f, f->state == S_STR ? S_STR_HEAD : S_OSC_HEAD,
			   f->state);
		return;
	}
	f->utf8_left = !text			? 0
		       : b >= 0xc2 && b <= 0xdf ? 1
		       : b >= 0xe0 && b <= 0xef ? 2
		       : b >= 0xf0 && b <= 0xf4 ? 3
						: 0;
	if (b <= 0x9f)
		c1(f, o, b, false);
	else
		byte(f, o, b);
}

/* 0xC2 is held: with a byte 0x80-0x9F after it, the two are a C1 control
 * in UTF-8 (U+0080-U+009F, which xterm obeys as one). */
static void step(struct ltd_termfilter *f, struct out *o, unsigned char b)
{
	if (f->c2) {
		f->c2 = false;
		if (b >= 0x80 && b <= 0x9f) {
			f->utf8_left = 0;
			c1(f, o, b, true);
			return;
		}
		high(f, o, 0xc2);
	}
	if (b == 0xc2) {
		f->c2 = true;
	} else if (b >= 0x80) {
		high(f, o, b);
	} else {
		f->utf8_left = 0;
		byte(f, o, b);
	}
}

/* Plain text: passed as it is, a run at a time. */
static bool plain(unsigned char b)
{
	return b < 0x80 && b != ESC && b != 0x0e && b != 0x0f;
}

size_t ltd_termfilter_feed(struct ltd_termfilter *f, const void *in, size_t n,
			   void *out)
{
	const unsigned char *p = in;
	struct out o = {out, 0};
	size_t i = 0;

	while (i < n) {
		if (f->state == S_GROUND && !f->c2 && plain(p[i])) {
			size_t j = i;

			while (j < n && plain(p[j]))
				j++;
			memcpy(o.p + o.n, p + i, j - i);
			o.n += j - i;
			f->utf8_left = 0;
			i = j;
			continue;
		}
		step(f, &o, p[i++]);
	}
	return o.n;
}

size_t ltd_termfilter_reset(struct ltd_termfilter *f, char *out)
{
	static const char end[] = "\030\033\\";
	unsigned long dropped = f->dropped;
	size_t at = 0;

	/* A sequence left open would swallow what follows: CAN ends any,
	 * ST any string. */
	if (f->state != S_GROUND || f->c2 || f->esc) {
		memcpy(out, end, sizeof(end) - 1);
		at = sizeof(end) - 1;
	}
	at += ltd_term_modes_undo(&f->modes, out + at,
				  LTD_TERMFILTER_RESET_MAX - at);
	ltd_termfilter_init(f, f->allow_clipboard);
	f->dropped = dropped;
	return at;
}

void ltd_termfilter_report(FILE *out, unsigned long dropped)
{
	if (!dropped)
		return;
	fprintf(out,
		"ltd-native: warning: the command wrote %lu clipboard "
		"sequence%s (OSC 52) to your terminal: dropped, so it could "
		"neither set nor read your clipboard (--allow-clipboard lets "
		"them through)\n",
		dropped, dropped == 1 ? "" : "s");
}
