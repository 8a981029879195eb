/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * git's configuration syntax, read as git reads it: a pure reader over a
 * buffer, so what ltd-native protects follows the keys git itself sees.
 */
#ifndef LTD_GITCONFIG_H
#define LTD_GITCONFIG_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Call @on_key for each "key = value" of the config text @text (@len
 * bytes): @section lowercased ("core", "include", "includeif.<cond>"),
 * @key as written, @val unquoted and unescaped (truncated past PATH_MAX).
 * Keys without a value (booleans) are skipped.  Returns the first nonzero
 * value @on_key returns, else 0; text git would refuse ends the reading.
 */
int ltd_gitconfig_parse(const char *text, size_t len,
			int (*on_key)(void *ctx, const char *section,
				      const char *key, const char *val),
			void *ctx);

/* What git's git_parse_maybe_bool() takes for a boolean ("", "yes", "off",
 * a number...). */
bool ltd_gitconfig_is_bool(const char *v);

/*
 * The command line git runs for @section.@key = @val (git-config(1): a
 * filter, a diff driver, core.editor, an alias "!...", a credential helper
 * given as a path...), or NULL when it runs none from that value.  A
 * program's path (no shell) is written to @buf quoted as one word.
 */
const char *ltd_gitconfig_command(const char *section, const char *key,
				  const char *val, char *buf, size_t size);

/* A path value as git expands it: "~/x" under $HOME (into @buf; "" when
 * too long), anything else as it is. */
const char *ltd_gitconfig_expand_home(const char *v, char *buf, size_t size);

#endif
