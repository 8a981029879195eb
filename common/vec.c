// SPDX-License-Identifier: GPL-2.0-or-later
#include "common/vec.h"

#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void *ltd_vec_grow(void **v, size_t n, size_t size)
{
	char *a = *v;

	/* Room for 2n elements must not wrap, whatever @size. */
	if (n >= SIZE_MAX / size / 2 - 1)
		return NULL;
	/* Doubling: one realloc (and copy) a push made plans of ~130
	 * entries copy ~0.7 MB and scatter the heap over pages that the
	 * launcher and init then both hold.  The room is what malloc says
	 * the block has, so an array allocated any other way grows safely
	 * too. */
	if (!a || malloc_usable_size(a) / size < n + 1) {
		size_t cap = n < 4 ? 4 : n * 2;

		a = reallocarray(*v, cap, size);
		if (!a)
			return NULL;
	}
	*v = a;
	memset(a + n * size, 0, size);
	return a + n * size;
}

int ltd_strv_push(char ***v, size_t *n, const char *s)
{
	char *copy = strdup(s);
	char **slot;

	if (!copy)
		return -ENOMEM;
	slot = ltd_vec_push(v, *n);
	if (!slot) {
		free(copy);
		return -ENOMEM;
	}
	*slot = copy;
	(*n)++;
	return 0;
}

void ltd_strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
