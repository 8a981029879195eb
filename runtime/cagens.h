/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Allowlist mode: the cage's user and network namespaces, made before init
 * so that pasta, whose start-up is most of a run's (~190 ms on the
 * reference VM, faulting in its packet buffers), starts as soon as the
 * policy is resolved instead of after the launcher's steps and clone3;
 * then init is cloned into them.  docs/decisions/0150-namespaces-before-init.md
 *
 * Both are made by children that run in the launcher's memory and
 * descriptor table until they exit (common/spawn.h): no copy of the
 * launcher's page tables.
 *
 * - ltd_cagens_make(): a child created in a new user and network
 *   namespace writes its id maps (the user's own uid and gid, setgroups
 *   denied: as init does for the other modes) and opens both namespaces
 *   into the shared table.
 * - ltd_cagens_clone(): a child joins them (setns), checks that it did,
 *   and calls clone3 for init, with the launcher as init's parent
 *   (CLONE_PARENT): the pid, mount, IPC, UTS and cgroup namespaces it makes
 *   belong to the cage's user namespace, as they did when clone3 made that
 *   one too.  Init runs on the child's stack (its copy of it).
 */
#ifndef LTD_RUNTIME_CAGENS_H
#define LTD_RUNTIME_CAGENS_H

#include <linux/sched.h>
#include <sys/types.h>

#include "common/error.h"

struct ltd_cagens {
	int user; /* the cage's user namespace; -1 before it exists */
	int net;  /* its network namespace; -1 */
};

#define LTD_CAGENS_INIT                                                        \
	{                                                                      \
		.user = -1, .net = -1                                          \
	}

/* Make the namespaces, mapping @uid and @gid to themselves. */
int ltd_cagens_make(struct ltd_cagens *ns, uid_t uid, gid_t gid,
		    struct ltd_err *err);

/*
 * clone3 with @args (no CLONE_NEWUSER, CLONE_NEWNET or exit signal: it
 * adds CLONE_PARENT) from within the namespaces.  In the new process
 * @child(@arg) runs and must not return; here its pid, or -errno.  The
 * signal mask it starts with is the caller's.
 */
pid_t ltd_cagens_clone(const struct ltd_cagens *ns, struct clone_args *args,
		       void (*child)(void *), void *arg, struct ltd_err *err);

/* The descriptors closed (init and pasta hold the namespaces by then). */
void ltd_cagens_close(struct ltd_cagens *ns);

/* The message for a user namespace the kernel refused to make (clone3 or
 * clone, errno EPERM or ENOSPC), appended to @err's. */
void ltd_cagens_userns_hint(struct ltd_err *err);

#endif
