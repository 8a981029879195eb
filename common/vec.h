/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Growing arrays, written once: one more element at the end of an array
 * of @n, and a vector of strings.
 */
#ifndef LTD_COMMON_VEC_H
#define LTD_COMMON_VEC_H

#include <stddef.h>

/*
 * Make room for element @n of the array at *@v (elements of @size): the
 * new element, zeroed (the caller fills it, then counts it), or NULL when
 * out of memory (*@v is then unchanged).
 */
void *ltd_vec_grow(void **v, size_t n, size_t size);

/* ltd_vec_grow() typed by the array: `m = ltd_vec_push(&p->mounts,
 * p->n_mounts)`. */
#define ltd_vec_push(arr, n)                                                   \
	((__typeof__(*(arr)))ltd_vec_grow((void **)(arr), (n), sizeof(**(arr))))

/* Append a copy of @s to the string vector *@v of *@n: 0 or -ENOMEM
 * (nothing appended). */
int ltd_strv_push(char ***v, size_t *n, const char *s);

/* Free the first @n strings of @v and @v itself. */
void ltd_strv_free(char **v, size_t n);

#endif
