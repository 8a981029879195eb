// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * review/linecount.c: diff -u's '+' and '-' counts without diff(1),
 * against known diffs (no last newline, CRLF, empty texts, rewritten
 * paragraphs) and against GNU diff itself on random texts made of few
 * distinct lines (the blank lines and braces its heuristics weigh).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "review/linecount.h"

static struct ltd_linecount lc(const char *a, const char *b)
{
	struct ltd_linecount c = {99, 99};

	cr_assert_eq(ltd_linecount(a, strlen(a), b, strlen(b), &c), 0,
		     "'%s' / '%s'", a, b);
	return c;
}

#define expect(a, b, add_, del_)                                               \
	do {                                                                   \
		struct ltd_linecount c_ = lc(a, b);                            \
		cr_expect(c_.add == (add_) && c_.del == (del_),                \
			  "%s: +%u -%u, not +%u -%u", #a " / " #b, c_.add,     \
			  c_.del, (unsigned)(add_), (unsigned)(del_));         \
	} while (0)

Test(linecount, known_diffs)
{
	expect("", "", 0, 0);
	expect("a\nb\n", "a\nb\n", 0, 0);
	expect("", "a\nb\n", 2, 0);
	expect("a\nb\n", "", 0, 2);
	expect("", "a", 1, 0); /* one line, no newline */
	expect("a\nb\nc\n", "a\nx\nc\n", 1, 1);
	expect("a\nb\nc\n", "a\nc\n", 0, 1);
	expect("a\nb\n", "a\nb\nc\n", 1, 0);
	expect("a\nb", "a\nb\n", 1, 1); /* "\ No newline": b differs */
	expect("a\nb", "a\nb", 0, 0);
	expect("a\nb", "a\nb\nc", 2, 1);
	expect("a\r\nb\r\n", "a\nb\n", 2, 2); /* CRLF: other bytes */
	expect("a\r\nb\r\n", "a\r\nc\r\n", 1, 1);
	expect("\n\n\n", "\n\n", 0, 1);
	expect("x\ny\nz\n", "z\ny\nx\n", 2, 2);
}

/* Two lines of a run of 30 new ones equal lines of the old text that
 * have many equals: GNU diff sets them aside (a longer diff than the
 * shortest); linecount says only diff(1) can count it. */
Test(linecount, what_gnu_diff_sets_aside_is_left_to_it)
{
	char a[4096] = "", b[4096] = "";
	struct ltd_linecount c;

	for (int i = 0; i < 30; i++) {
		snprintf(a + strlen(a), sizeof(a) - strlen(a), "old %d\n\n", i);
		snprintf(b + strlen(b), sizeof(b) - strlen(b), "new %d\n%s", i,
			 i == 9 || i == 19 ? "\n" : "");
	}
	cr_expect_eq(ltd_linecount(a, strlen(a), b, strlen(b), &c), -EDOM);
}

Test(linecount, bounds)
{
	size_t n = LTD_LINECOUNT_MAX_BYTES + 1;
	char *big = calloc(n, 1);
	struct ltd_linecount c;
	char *a = malloc(2 * 5000), *b = malloc(2 * 5000);

	cr_assert(big && a && b);
	cr_expect_eq(ltd_linecount(big, n, "", 0, &c), -EDOM);
	/* 5,000 lines against 5,000 others: past the edits it searches. */
	for (int i = 0; i < 5000; i++) {
		a[2 * i] = 'a', a[2 * i + 1] = '\n';
		b[2 * i] = 'b', b[2 * i + 1] = '\n';
	}
	a[0] = b[0] = 'x'; /* a line in common: a search is needed */
	cr_expect_eq(ltd_linecount(a, 10000, b, 10000, &c), -EDOM);
	/* All new: no search, any size within the bounds. */
	cr_expect_eq(ltd_linecount("", 0, b, 10000, &c), 0);
	cr_expect_eq(c.add, 5000);
	free(big);
	free(a);
	free(b);
}

/* GNU diff's count of @a against @b (files in @dir). */
static void gnu_diff(const char *dir, const char *a, const char *b,
		     struct ltd_linecount *c)
{
	char cmd[512], line[4096];
	FILE *p, *f;
	int skip = 2;

	for (int i = 0; i < 2; i++) {
		snprintf(cmd, sizeof(cmd), "%s/%c", dir, 'a' + i);
		f = fopen(cmd, "w");
		cr_assert(f);
		fputs(i ? b : a, f);
		fclose(f);
	}
	snprintf(cmd, sizeof(cmd), "diff -u --text %s/a %s/b", dir, dir);
	p = popen(cmd, "r");
	cr_assert(p);
	c->add = c->del = 0;
	while (fgets(line, sizeof(line), p)) {
		if (skip && (line[0] == '-' || line[0] == '+')) {
			skip--;
			continue;
		}
		skip = 0;
		c->add += line[0] == '+';
		c->del += line[0] == '-';
	}
	pclose(p);
}

static void random_text(char *buf, size_t cap, unsigned *seed)
{
	static const char *const pool[] = {"",	"",  "",	  "}",
					   "{", "a", "b",	  "c",
					   "d", "e", "return 0;", "x\r"};
	int n = rand_r(seed) % 40;

	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		const char *l = pool[rand_r(seed) % 12];
		char tmp[32];

		if (rand_r(seed) % 4 == 0)
			snprintf(tmp, sizeof(tmp), "u%d", rand_r(seed) % 50);
		strncat(buf, rand_r(seed) % 4 == 0 ? tmp : l,
			cap - strlen(buf) - 2);
		if (i < n - 1 || rand_r(seed) % 3)
			strcat(buf, "\n");
	}
}

/* Every count given equals GNU diff's; most are given. */
Test(linecount, as_gnu_diff_counts)
{
	char dir[] = "/tmp/ltd-linecount.XXXXXX", a[2048], b[2048];
	unsigned seed = 163, given = 0, runs = 150;

	if (system("diff --version >/dev/null 2>&1"))
		cr_skip_test("no diff(1)");
	cr_assert(mkdtemp(dir));
	for (unsigned i = 0; i < runs; i++) {
		struct ltd_linecount mine, gnu;

		random_text(a, sizeof(a), &seed);
		if (rand_r(&seed) % 2) {
			random_text(b, sizeof(b), &seed);
		} else { /* an edit of a: the usual case */
			strcpy(b, a);
			random_text(b + strlen(b) / 2,
				    sizeof(b) - strlen(b) / 2, &seed);
		}
		if (ltd_linecount(a, strlen(a), b, strlen(b), &mine))
			continue;
		given++;
		gnu_diff(dir, a, b, &gnu);
		cr_expect(mine.add == gnu.add && mine.del == gnu.del,
			  "+%u -%u, diff says +%u -%u:\n---\n%s\n+++\n%s",
			  mine.add, mine.del, gnu.add, gnu.del, a, b);
	}
	cr_expect_gt(given, runs * 3 / 4, "%u of %u given", given, runs);
	unlink(strcat(strcpy(a, dir), "/a"));
	unlink(strcat(strcpy(a, dir), "/b"));
	rmdir(dir);
}

/* FNV-1a's low bits of a state after a block of @n bytes from @h. */
static uint64_t fnv(uint64_t h, const unsigned char *p, size_t n)
{
	while (n--)
		h = (h ^ *p++) * 0x100000001b3ull;
	return h;
}

static int cmp_low(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a >> 32, y = *(const uint64_t *)b >> 32;

	return x < y ? -1 : x > y;
}

/*
 * The attacker's review: lines made to share the low bits of FNV-1a
 * (pairs of 4-byte blocks that collide from the same state, chained: 2^12
 * lines, one table slot) made the classes' table quadratic: 2^16 such
 * lines took 9.7 s.  Past so many probes a line, diff(1) is asked.
 */
Test(linecount, lines_made_to_collide_are_left_to_diff)
{
	enum { BLOCKS = 12, TRIES = 8192, LINE = BLOCKS * 4 + 1 };
	static uint64_t c[TRIES];
	unsigned char pair[BLOCKS][2][4];
	uint64_t h = 0xcbf29ce484222325ull, mask = (1ull << 24) - 1;
	struct ltd_linecount out;
	size_t n = (size_t)1 << BLOCKS;
	char *a = malloc(n * LINE), *b = malloc(n * LINE);

	srandom(7);
	cr_assert(a && b);
	for (int k = 0; k < BLOCKS; k++) {
		bool found = false;

		while (!found) {
			for (uint32_t i = 0; i < TRIES; i++) {
				uint32_t v = (uint32_t)random() | 0x40404040u;

				v &= 0x7e7e7e7eu; /* printable, no '\n' */
				c[i] = ((fnv(h, (unsigned char *)&v, 4) & mask)
					<< 32) |
				       v;
			}
			qsort(c, TRIES, sizeof(*c), cmp_low);
			for (uint32_t i = 1; i < TRIES && !found; i++)
				if (c[i] >> 32 == c[i - 1] >> 32 &&
				    (uint32_t)c[i] != (uint32_t)c[i - 1]) {
					uint32_t x = (uint32_t)c[i - 1],
						 y = (uint32_t)c[i];

					memcpy(pair[k][0], &x, 4);
					memcpy(pair[k][1], &y, 4);
					found = true;
				}
		}
		h = fnv(h, pair[k][0], 4);
	}
	for (size_t l = 0; l < n; l++) {
		for (int k = 0; k < BLOCKS; k++)
			memcpy(a + l * LINE + k * 4, pair[k][(l >> k) & 1], 4);
		a[l * LINE + LINE - 1] = '\n';
	}
	memcpy(b, a, n * LINE);
	b[0] ^= 1; /* one line differs */
	cr_assert_eq(ltd_linecount(a, n * LINE, b, n * LINE, &out), -EDOM);
	free(a);
	free(b);
}
