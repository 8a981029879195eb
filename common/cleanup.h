/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Scope-bound cleanup for fds and heap memory.  Every variable declared with
 * one of these attributes must be initialised; hand ownership on with
 * ltd_steal_fd() / ltd_steal_ptr().
 */
#ifndef LTD_CLEANUP_H
#define LTD_CLEANUP_H

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

static inline void ltd_closep(int *fd)
{
	if (*fd >= 0) {
		int saved = errno;

		close(*fd);
		errno = saved;
	}
}

static inline void ltd_freep(void *p)
{
	free(*(void **)p);
}

#define _cleanup_close_ __attribute__((cleanup(ltd_closep)))
#define _cleanup_free_	__attribute__((cleanup(ltd_freep)))

static inline int ltd_steal_fd(int *fd)
{
	int ret = *fd;

	*fd = -1;
	return ret;
}

static inline void *ltd_steal_ptr(void *p)
{
	void *ret = *(void **)p;

	*(void **)p = NULL;
	return ret;
}

#endif
