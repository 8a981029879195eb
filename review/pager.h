/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A pager for long output on a terminal, as git uses one. */
#ifndef LTD_REVIEW_PAGER_H
#define LTD_REVIEW_PAGER_H

#include <sys/types.h>

/*
 * When stdout is a terminal: start the pager ($LTD_PAGER, else $PAGER,
 * else less; LESS=FRX unless set: it quits when the text fits and keeps
 * colours) with stdout going to it.  Returns its pid, or -1 for none
 * (not a terminal, "cat" or an empty pager, or it could not start).
 */
pid_t ltd_pager_start(void);

/* Flush and close stdout, then wait for the pager (@pid, -1: none). */
void ltd_pager_end(pid_t pid);

#endif
