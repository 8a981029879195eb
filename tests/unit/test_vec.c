// SPDX-License-Identifier: GPL-2.0-or-later
/* Growing arrays (common/vec.c): each element pushed is zeroed and kept,
 * the room doubles, and an array allocated to its exact size elsewhere
 * still grows safely (the room is what malloc says the block has). */
#include <criterion/criterion.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

struct item {
	uint64_t a, b, c;
};

Test(vec, push_keeps_and_zeroes)
{
	struct item *v = NULL;
	size_t n = 0;

	for (size_t i = 0; i < 5000; i++) {
		struct item *it = ltd_vec_push(&v, n);

		cr_assert_not_null(it);
		cr_assert(it->a == 0 && it->b == 0 && it->c == 0);
		it->a = i;
		it->c = ~i;
		n++;
		/* Room for twice as many once past a power of two: the
		 * doubling (one realloc a push leaves no room). */
		if (i == 1024)
			cr_assert_geq(malloc_usable_size(v), 2048 * sizeof(*v));
	}
	for (size_t i = 0; i < n; i++)
		cr_assert(v[i].a == i && v[i].c == ~i, "element %zu", i);
	free(v);
}

Test(vec, grows_an_exact_allocation)
{
	size_t n = 3;
	struct item *v = calloc(n, sizeof(*v));
	struct item *it;

	cr_assert_not_null(v);
	v[2].b = 7;
	it = ltd_vec_push(&v, n);
	cr_assert_not_null(it);
	cr_assert_geq(malloc_usable_size(v), (n + 1) * sizeof(*v));
	cr_assert_eq(v[2].b, 7);
	cr_assert_eq(it->b, 0);
	free(v);
}

Test(vec, strv)
{
	char **v = NULL;
	size_t n = 0;

	for (int i = 0; i < 100; i++) {
		char s[8];

		snprintf(s, sizeof(s), "s%d", i);
		cr_assert_eq(ltd_strv_push(&v, &n, s), 0);
	}
	cr_assert_eq(n, 100);
	cr_assert_str_eq(v[0], "s0");
	cr_assert_str_eq(v[99], "s99");
	ltd_strv_free(v, n);
}
