/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A child that runs in our memory until it execs or exits, as
 * posix_spawn() starts a program: clone(CLONE_VM | CLONE_VFORK) on a stack
 * of its own, with every signal blocked around it.  No copy of the
 * caller's page tables, no copy-on-write fault in the caller for each page
 * it writes afterwards, no unmapping of a copy at the child's exit: on the
 * paravirtualised VMs this project is measured on, where each page-table
 * change costs a hypercall, a fork of the launcher costs ~2-3 ms and this
 * ~0.1 ms.
 *
 * The caller is suspended until the child has called execve or exited, so
 * nothing of ours runs beside it.  The child may touch only its own stack
 * and what the caller handed it; it may not return from a function the
 * caller is in (it has a stack of its own: it cannot), and it shares the
 * caller's errno (glibc's, thread-local: the child is no thread glibc
 * knows), which the caller must not read after the call.  It starts with
 * every signal blocked; @ltd_spawn_mask is the caller's mask for it to
 * restore.
 */
#ifndef LTD_SPAWN_H
#define LTD_SPAWN_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

#include "common/error.h"

/* What a child of ltd_spawn_shared() runs; its return value is its exit
 * status. */
typedef int (*ltd_spawn_fn)(void *arg);

/*
 * Run @fn(@arg) in a child made by clone(CLONE_VM | CLONE_VFORK | @flags |
 * SIGCHLD) on a fresh stack of @stack_size bytes above a guard page
 * (MAP_NORESERVE: untouched pages cost nothing).  @flags may add
 * CLONE_FILES and namespace flags.  Returns the child's pid (to be reaped
 * with waitpid) once it has exec'd or exited, or -errno with @err set.
 * @mask, if not NULL, receives the signal mask the caller had, which the
 * child can restore.
 */
pid_t ltd_spawn_shared(ltd_spawn_fn fn, void *arg, unsigned long flags,
		       size_t stack_size, sigset_t *mask, struct ltd_err *err);

/* Wait for a child of ltd_spawn_shared() to be gone; its wait status, or
 * -errno. */
int ltd_spawn_reap(pid_t pid);

#endif
