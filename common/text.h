/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Text from the user's tree, git's configuration or the cage, shown safely:
 * a name must not forge a line of ltd-native's output, send an escape
 * sequence to a terminal, or display as another name.
 */
#ifndef LTD_COMMON_TEXT_H
#define LTD_COMMON_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * The UTF-8 character at @s, of at most @len bytes: its length when it is
 * well formed and displays as it is; minus its length when it is well
 * formed but a control (below 0x20, DEL, the C1 controls U+0080..U+009F),
 * a bidi control (U+202A..U+202E, U+2066..U+2069) or a zero-width one
 * (U+200B..U+200F, U+061C, U+FEFF); 0 when the byte at @s starts no
 * well-formed sequence (or @len is 0).  Unless 0, the code point is stored
 * in *@cp when @cp is not NULL.
 */
int ltd_utf8_char(const char *s, size_t len, uint32_t *cp);

/*
 * Write @s to @out with each character ltd_utf8_char() finds no text
 * (a control, bidi or zero-width character) and each byte that is not
 * well-formed UTF-8 shown as '?': a name from the user's tree or git's
 * configuration must not forge a line of ltd-native's output, send an
 * escape sequence to a terminal, or display as another name.
 */
void ltd_fput_shown(FILE *out, const char *s);

/* The @len bytes at @buf, lines of text, shown as ltd_fput_shown() shows
 * them but for their newlines, which are kept (a NUL is shown as '?'). */
void ltd_fwrite_shown(FILE *out, const char *buf, size_t len);

/* "ltd-native: warning: MSG" on stderr, @msg shown as ltd_fput_shown()
 * shows it (warnings name paths from the project and its settings). */
void ltd_warn(const char *msg);

/* When @out is a terminal: undo what the command's last output could have
 * left set to hide what ltd-native says next (an open escape string,
 * hidden or same-colour text, another character set).  Invisible. */
void ltd_term_plain(FILE *out);

/* One line to stderr in one write: @prefix, then @a (and ": " @b) shown
 * as ltd_fput_shown() shows them. */
void ltd_line_shown(const char *prefix, const char *a, const char *b);

#endif
