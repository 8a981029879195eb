/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What only the set-up needed, given back once the cage has lived a while
 * (decision 0140): the launcher and init then wait, and a wait touches a
 * few pages of the ~1 MB of code, tables and stack a start went through.
 * Each process calls it for itself, from its wait loop.
 */
#ifndef LTD_RUNTIME_MEMTRIM_H
#define LTD_RUNTIME_MEMTRIM_H

#include <stdbool.h>

/* How long after the command's start (ms) the launcher and init trim: a
 * run as short as `/bin/true` never pays for it.  A test sets it with
 * LTD_NATIVE_TEST_TRIM_MS (runtime/testhooks.h). */
#define LTD_TRIM_AFTER_MS 1000

/*
 * Drop this process's pages that are copies of nothing it wrote, so that
 * they come back from the page cache if ever touched again: the clean,
 * never-writable segments (code, read-only data, relocation tables) of the
 * program and of its libraries, the stack below the caller's frame, and
 * the heap's free memory (malloc_trim).  Never a page the process wrote:
 * the relocated RELRO, .data, .bss and the heap's live data stay as they
 * are.  Whatever runs after sees the same memory: it is best effort, and
 * says nothing when a part of it cannot be done.
 */
void ltd_mem_trim(void);

/* A wait loop's trim: started when the loop begins, taken when due. */
struct ltd_trim {
	long long due_ms; /* CLOCK_MONOTONIC */
	bool done;
};

void ltd_trim_start(struct ltd_trim *t);

/* poll()'s timeout: the ms left until the trim is due, -1 once done. */
int ltd_trim_timeout(const struct ltd_trim *t);

/* The trim, if it is due and not yet taken: after each poll(). */
void ltd_trim_if_due(struct ltd_trim *t);

#endif
