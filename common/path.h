/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Paths by their text: no filesystem access. */
#ifndef LTD_COMMON_PATH_H
#define LTD_COMMON_PATH_H

#include <stdbool.h>
#include <stddef.h>

/* @path is @dir or below it ("/" holds every absolute path). */
bool ltd_path_is_under(const char *path, const char *dir);

/*
 * What of @path lies below @dir: the rest after "@dir/", or NULL when
 * @path does not begin so (@dir itself is not below itself).  By the text
 * as written, unlike ltd_path_is_under(): "/" is not special (only what
 * begins "//" is below it).  For the places in the project.
 */
const char *ltd_path_below(const char *path, const char *dir);

/* @p is absolute and normal: no ".", ".." or empty component, no
 * trailing '/' ("/" itself is normal). */
bool ltd_path_is_normal(const char *p);

/* Resolve ".", ".." and "//" in an absolute path, in place, by the text. */
void ltd_path_normalize(char *path);

/*
 * @a "/" @b into @buf of @size, one '/' between them whatever either
 * brings; 0, or -ENAMETOOLONG (nothing truncated is ever used: @buf is
 * then "").
 */
int ltd_path_join(char *buf, size_t size, const char *a, const char *b);

/*
 * printf into @buf of @size: 0, or -ENAMETOOLONG when it did not fit
 * (@buf is then ""), so that no path is used cut short.
 */
int ltd_path_fmt(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
