// SPDX-License-Identifier: GPL-2.0-or-later
#include "runtime/cagens.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/spawn.h"

/* The maker's frames: ltd_err_sys's formatting the deepest. */
#define MAKER_STACK (64 * 1024)
/* The joiner's stack is init's for the whole run (its copy of it): a
 * main thread's usual room; pages it never touches cost nothing. */
#define INIT_STACK (8 * 1024 * 1024)

struct make_arg {
	struct ltd_cagens *ns;
	uid_t uid;
	gid_t gid;
	struct ltd_err err;
};

static int write_file(const char *path, const char *text, struct ltd_err *err)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t len = (ssize_t)strlen(text), n = -1;

	if (fd >= 0) {
		n = write(fd, text, (size_t)len);
		close(fd);
	}
	if (n != len)
		return ltd_err_sys(err, "write %s", path);
	return 0;
}

/* In a new user and network namespace, in the launcher's memory and
 * descriptor table: the maps, then both namespaces opened. */
static int maker(void *arg)
{
	struct make_arg *a = arg;
	char map[64];

	/* Unprivileged: one id each, mapped to itself, and no setgroups so
	 * a group cannot be dropped to get past a deny-by-group rule. */
	if (write_file("/proc/self/setgroups", "deny", &a->err) < 0)
		return 1;
	snprintf(map, sizeof(map), "%u %u 1\n", (unsigned)a->uid,
		 (unsigned)a->uid);
	if (write_file("/proc/self/uid_map", map, &a->err) < 0)
		return 1;
	snprintf(map, sizeof(map), "%u %u 1\n", (unsigned)a->gid,
		 (unsigned)a->gid);
	if (write_file("/proc/self/gid_map", map, &a->err) < 0)
		return 1;
	a->ns->user = open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC);
	if (a->ns->user < 0)
		return ltd_err_sys(&a->err, "open the cage's user namespace"),
		       1;
	a->ns->net = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (a->ns->net < 0)
		return ltd_err_sys(&a->err,
				   "open the cage's network namespace"),
		       1;
	return 0;
}

void ltd_cagens_userns_hint(struct ltd_err *err)
{
	size_t n = strlen(err->msg);

	snprintf(err->msg + n, sizeof(err->msg) - n,
		 "; are unprivileged user namespaces enabled? (try 'sysctl "
		 "kernel.unprivileged_userns_clone' and AppArmor's "
		 "kernel.apparmor_restrict_unprivileged_userns; 'ltd-native "
		 "doctor' checks them)");
}

int ltd_cagens_make(struct ltd_cagens *ns, uid_t uid, gid_t gid,
		    struct ltd_err *err)
{
	struct make_arg a = {.ns = ns, .uid = uid, .gid = gid};
	pid_t pid;
	int status;

	ns->user = ns->net = -1;
	pid = ltd_spawn_shared(maker, &a,
			       CLONE_FILES | CLONE_NEWUSER | CLONE_NEWNET,
			       MAKER_STACK, NULL, err);
	if (pid < 0) {
		int ret = ltd_err_prefix(err, "cannot create the cage's "
					      "namespaces");

		if (err->code == EPERM || err->code == ENOSPC)
			ltd_cagens_userns_hint(err);
		return ret;
	}
	status = ltd_spawn_reap(pid);
	if (status == 0 && ns->user >= 0 && ns->net >= 0)
		return 0;
	ltd_cagens_close(ns);
	if (a.err.code) {
		*err = a.err;
		return ltd_err_prefix(err, "the cage's namespaces");
	}
	return ltd_err_set(err, EIO,
			   "the cage's namespaces: their maker ended "
			   "without a word (wait status %#x)",
			   status);
}

struct join_arg {
	const struct ltd_cagens *ns;
	struct clone_args *args;
	void (*child)(void *);
	void *arg;
	sigset_t mask; /* the caller's */
	pid_t pid;
	struct ltd_err err;
};

/* Whether this process is in the namespace @fd refers to (@self: its
 * /proc/self/ns/ entry). */
static bool is_in(int fd, const char *self)
{
	struct stat want, now;

	return fstat(fd, &want) == 0 && stat(self, &now) == 0 &&
	       want.st_ino == now.st_ino && want.st_dev == now.st_dev;
}

/* In the launcher's memory and descriptor table: into the namespaces,
 * then init. */
static int joiner(void *arg)
{
	struct join_arg *a = arg;
	long pid;

	if (setns(a->ns->user, CLONE_NEWUSER) < 0)
		return ltd_err_sys(&a->err, "enter the cage's user namespace"),
		       1;
	if (setns(a->ns->net, CLONE_NEWNET) < 0)
		return ltd_err_sys(&a->err,
				   "enter the cage's network namespace"),
		       1;
	/* Fail closed: init is never made in the host's network namespace
	 * (it would install the firewall there, and pasta would serve an
	 * empty one). */
	if (!is_in(a->ns->user, "/proc/self/ns/user") ||
	    !is_in(a->ns->net, "/proc/self/ns/net"))
		return ltd_err_set(&a->err, EPERM,
				   "not in the cage's own user and network "
				   "namespaces after entering them"),
		       1;
	sigprocmask(SIG_SETMASK, &a->mask, NULL);
	pid = syscall(SYS_clone3, a->args, sizeof(*a->args));
	if (pid == 0) {
		a->child(a->arg);
		_exit(127);
	}
	if (pid < 0)
		return ltd_err_sys(&a->err, "clone3"), 1;
	a->pid = (pid_t)pid;
	return 0;
}

pid_t ltd_cagens_clone(const struct ltd_cagens *ns, struct clone_args *args,
		       void (*child)(void *), void *arg, struct ltd_err *err)
{
	struct join_arg a = {
		.ns = ns, .args = args, .child = child, .arg = arg, .pid = -1};
	pid_t pid;
	int status;

	if (ns->user < 0 || ns->net < 0)
		return ltd_err_set(err, EBADF,
				   "the cage's namespaces are not "
				   "made");
	/* Init is the launcher's child, not the joiner's (which is gone
	 * before the launcher goes on); its exit signal is the joiner's. */
	args->flags |= CLONE_PARENT;
	args->exit_signal = 0;
	pid = ltd_spawn_shared(joiner, &a, CLONE_FILES, INIT_STACK, &a.mask,
			       err);
	if (pid < 0)
		return pid;
	status = ltd_spawn_reap(pid);
	if (status == 0 && a.pid > 0)
		return a.pid;
	if (a.err.code) {
		*err = a.err;
		return -err->code;
	}
	return ltd_err_set(err, EIO,
			   "the cage's init: its maker ended without a word "
			   "(wait status %#x)",
			   status);
}

void ltd_cagens_close(struct ltd_cagens *ns)
{
	ltd_closep(&ns->user);
	ltd_closep(&ns->net);
	ns->user = ns->net = -1;
}
