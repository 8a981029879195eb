// SPDX-License-Identifier: GPL-2.0-or-later
#include "common/spawn.h"

#include <errno.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

pid_t ltd_spawn_shared(ltd_spawn_fn fn, void *arg, unsigned long flags,
		       size_t stack_size, sigset_t *mask, struct ltd_err *err)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	sigset_t all, old;
	char *stack;
	pid_t pid;
	int e;

	stack_size = (stack_size + page - 1) & ~(page - 1);
	stack = mmap(NULL, stack_size + page, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK | MAP_NORESERVE,
		     -1, 0);
	if (stack == MAP_FAILED)
		return ltd_err_sys(err, "a stack for a child");
	if (mprotect(stack, page, PROT_NONE) < 0) {
		e = ltd_err_sys(err, "a guard page for a child");
		munmap(stack, stack_size + page);
		return e;
	}
	/* No handler of ours may run on the child's stack in our memory
	 * before it has set up its own signals. */
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	if (mask)
		*mask = old;
	pid = clone(fn, stack + page + stack_size,
		    (int)(CLONE_VM | CLONE_VFORK | flags | SIGCHLD), arg);
	e = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	/* The child has exec'd or exited: its stack is no one's now (a
	 * process it cloned without CLONE_VM has a copy of its own). */
	munmap(stack, stack_size + page);
	if (pid < 0) {
		errno = e;
		return ltd_err_sys(err, "clone");
	}
	return pid;
}

int ltd_spawn_reap(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return status;
}
