// SPDX-License-Identifier: GPL-2.0-or-later
#include "runtime/termmodes.h"

#include <stdarg.h>
#include <stdio.h>

#include "common/base.h"

/* DEC private modes followed, and whether each is on by default; undone
 * in this order.  Origin mode first: turning it off homes the cursor,
 * which on the alternate screen does no harm (left on the main screen,
 * the cursor goes home: no way around it).  Then the alternate screens:
 * the rest is undone on the main screen. */
static const struct {
	uint16_t mode;
	bool on;
} dec_modes[] = {
	{6, false},    {1049, false}, {1047, false}, {47, false},
	{1, false},    {5, false},    {7, true},     {9, false},
	{25, true},    {66, false},   {69, false},   {1000, false},
	{1001, false}, {1002, false}, {1003, false}, {1004, false},
	{1005, false}, {1006, false}, {1007, false}, {1015, false},
	{1016, false}, {2004, false}, {2026, false}, {2031, false},
	{2048, false},
};
_Static_assert(ARRAY_SIZE(dec_modes) <= 32, "one bit each");

/* ANSI modes followed (all off by default): keyboard lock, insert,
 * new-line. */
static const uint16_t ansi_modes[] = {2, 4, 20};

/* OSCs whose payload sets a colour (4: the palette; 10, 11, 12: the
 * foreground, background, cursor) and the OSC that resets each. */
static const uint16_t colour_osc[] = {4, 10, 11, 12};
static const uint16_t colour_reset[] = {104, 110, 111, 112};

/* --- what the command turns on ------------------------------------------ */

static void dec_mode(struct ltd_term_modes *m, unsigned mode, bool set)
{
	for (size_t i = 0; i < ARRAY_SIZE(dec_modes); i++) {
		if (dec_modes[i].mode != mode)
			continue;
		if (set != dec_modes[i].on)
			m->dec |= 1u << i;
		else
			m->dec &= ~(1u << i);
	}
}

static void ansi_mode(struct ltd_term_modes *m, unsigned mode, bool set)
{
	for (size_t i = 0; i < ARRAY_SIZE(ansi_modes); i++)
		if (ansi_modes[i] == mode)
			m->ansi = (uint8_t)(set ? m->ansi | 1u << i
						: m->ansi & ~(1u << i));
}

/* SGR: attributes are on after it unless it ends in a reset.  The
 * colour forms 38/48/58;5;N and ;2;R;G;B carry numbers that are not
 * attributes. */
static bool sgr_leaves_on(const struct ltd_term_csi *c)
{
	bool on = false;

	for (unsigned i = 0; i < c->n_params; i++) {
		unsigned p = c->params[i];

		if (c->sub & (1u << i)) {
			on = true;
		} else if ((p == 38 || p == 48 || p == 58) &&
			   i + 1 < c->n_params) {
			i += c->params[i + 1] == 5 ? 2 : 4;
			on = true;
		} else {
			on = p != 0;
		}
	}
	return on;
}

/* DECSTR: a soft reset puts these back. */
static void soft_reset(struct ltd_term_modes *m)
{
	dec_mode(m, 1, false);
	dec_mode(m, 6, false);
	dec_mode(m, 25, true);
	ansi_mode(m, 4, false);
	m->keypad = m->sgr = m->g0 = m->shifted = m->margins = false;
}

static void csi_private(struct ltd_term_modes *m, const struct ltd_term_csi *c,
			unsigned char fin)
{
	unsigned n = c->n_params, p0 = n ? c->params[0] : 0;

	switch (c->priv) {
	case '?':
		for (unsigned i = 0; (fin == 'h' || fin == 'l') && i < n; i++)
			dec_mode(m, c->params[i], fin == 'h');
		break;
	case '>': /* kitty's keyboard push; xterm's modifyOtherKeys */
		if (fin == 'u' && m->kitty_push < UINT16_MAX)
			m->kitty_push++;
		else if ((fin == 'm' || fin == 'n') && p0 == 4)
			m->modify_keys = fin == 'm' && n >= 2 && c->params[1];
		break;
	case '<': /* kitty's pop: that many, 1 by default */
		if (fin == 'u') {
			unsigned k = p0 ? p0 : 1;

			m->kitty_push =
				(uint16_t)(m->kitty_push > k ? m->kitty_push - k
							     : 0);
		}
		break;
	case '=':
		if (fin == 'u')
			m->kitty_set = true;
		break;
	}
}

void ltd_term_modes_csi(struct ltd_term_modes *m, const struct ltd_term_csi *c,
			unsigned char fin)
{
	unsigned n = c->n_params;

	if (c->inter == ' ' && fin == 'q' && !c->priv)
		m->cursor_style = n && c->params[0];
	else if (c->inter == '!' && fin == 'p' && !c->priv)
		soft_reset(m);
	else if (c->inter)
		return;
	else if (c->priv)
		csi_private(m, c, fin);
	else if (fin == 'h' || fin == 'l')
		for (unsigned i = 0; i < n; i++)
			ansi_mode(m, c->params[i], fin == 'h');
	else if (fin == 'm')
		m->sgr = sgr_leaves_on(c);
	else if (fin == 'r')
		m->margins = n >= 2 ? c->params[0] > 1 || c->params[1]
				    : n && c->params[0] > 1;
}

void ltd_term_modes_esc(struct ltd_term_modes *m, unsigned char inter,
			unsigned char fin)
{
	if (inter == '(')
		m->g0 = fin != 'B';
	else if (inter)
		return;
	else if (fin == '=' || fin == '>')
		m->keypad = fin == '=';
	else if (fin == 'c') /* RIS: the terminal back to its defaults */
		*m = (struct ltd_term_modes){0};
}

void ltd_term_modes_shift(struct ltd_term_modes *m, bool shifted)
{
	m->shifted = shifted;
}

void ltd_term_modes_osc(struct ltd_term_modes *m, uint32_t osc, bool colour,
			bool link)
{
	for (size_t i = 0; i < ARRAY_SIZE(colour_osc); i++) {
		if (osc == colour_osc[i] && colour)
			m->colours |= (uint8_t)(1u << i);
		if (osc == colour_reset[i])
			m->colours &= (uint8_t) ~(1u << i);
	}
	if (osc == 8)
		m->hyperlink = link;
}

/* Appended to @out (@size in all) if it fits whole. */
struct buf {
	char *out;
	size_t at, size;
};

static void addf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void addf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->at >= b->size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->out + b->at, b->size - b->at, fmt, ap);
	va_end(ap);
	if (n > 0 && b->at + (size_t)n < b->size)
		b->at += (size_t)n;
	else
		b->out[b->at] = '\0';
}

size_t ltd_term_modes_undo(const struct ltd_term_modes *m, char *out,
			   size_t size)
{
	struct buf b = {out, 0, size};

	if (m->hyperlink)
		addf(&b, "%s", "\033]8;;\033\\");
	for (size_t i = 0; i < ARRAY_SIZE(dec_modes); i++)
		if (m->dec & (1u << i))
			addf(&b, "\033[?%u%c", dec_modes[i].mode,
			     dec_modes[i].on ? 'h' : 'l');
	for (size_t i = 0; i < ARRAY_SIZE(ansi_modes); i++)
		if (m->ansi & (1u << i))
			addf(&b, "\033[%ul", ansi_modes[i]);
	if (m->kitty_push)
		addf(&b, "\033[<%uu", m->kitty_push);
	if (m->kitty_set)
		addf(&b, "%s", "\033[=0;1u");
	if (m->modify_keys)
		addf(&b, "%s", "\033[>4m");
	if (m->keypad)
		addf(&b, "%s", "\033>");
	if (m->cursor_style)
		addf(&b, "%s", "\033[0 q");
	for (size_t i = 0; i < ARRAY_SIZE(colour_osc); i++)
		if (m->colours & (1u << i))
			addf(&b, "\033]%u\033\\", colour_reset[i]);
	/* DECSTBM homes the cursor: saved and restored around it. */
	if (m->margins)
		addf(&b, "%s", "\0337\033[r\0338");
	if (m->g0)
		addf(&b, "%s", "\033(B");
	if (m->shifted)
		addf(&b, "%s", "\017");
	if (m->sgr)
		addf(&b, "%s", "\033[0m");
	return b.at;
}
