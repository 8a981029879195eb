/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small things every folder uses. */
#ifndef LTD_COMMON_BASE_H
#define LTD_COMMON_BASE_H

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A function a long-lived process runs while it waits (the launcher's and
 * init's loops): these are kept together in the text, so that once the
 * set-up's pages are given back (runtime/memtrim.h) a wait faults back one
 * window of code (the kernel maps 64 KB around a fault), not one per
 * function.  The linker puts .text.hot.* together (its default script). */
#define LTD_WAIT_CODE __attribute__((section(".text.hot.ltd_wait")))

#endif
