// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * runtime/cagens.c: allowlist's namespaces made before init, and init
 * cloned into them.  Each test runs in a forked child (Criterion's workers
 * are threads; a user namespace needs a single-threaded process), which
 * exits 0 when it holds, SKIP without unprivileged user namespaces, and
 * another status naming the first check that failed.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/spawn.h"
#include "runtime/cagens.h"

#define SKIP 77

static int in_child(int (*body)(void))
{
	pid_t pid = fork();
	int status;

	cr_assert_geq(pid, 0);
	if (pid == 0)
		_exit(body());
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status), "the test's child died (%#x)", status);
	if (WEXITSTATUS(status) == SKIP)
		cr_skip_test("no unprivileged user namespaces here");
	return WEXITSTATUS(status);
}

static bool same_ns(int fd, const char *path)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && stat(path, &b) == 0 &&
	       a.st_ino == b.st_ino && a.st_dev == b.st_dev;
}

/* The namespaces ltd_cagens_clone()'s child runs in, and what it is. */
static const struct ltd_cagens *seen;

__attribute__((noreturn)) static void init_child(void *arg)
{
	char map[64] = "";
	int fd = open("/proc/self/uid_map", O_RDONLY | O_CLOEXEC);
	char want[64];

	(void)arg;
	snprintf(want, sizeof(want), "%u", (unsigned)getuid());
	if (fd < 0 || read(fd, map, sizeof(map) - 1) <= 0)
		_exit(10);
	/* The user's own id, mapped to itself, and nothing else. */
	if (strstr(map, want) == NULL ||
	    strchr(map, '\n') != strrchr(map, '\n'))
		_exit(11);
	if (!same_ns(seen->user, "/proc/self/ns/user"))
		_exit(12);
	if (!same_ns(seen->net, "/proc/self/ns/net"))
		_exit(13);
	/* pid 1 of a pid namespace of its own (its parent is outside). */
	if (getpid() != 1 || getppid() != 0)
		_exit(14);
	_exit(0);
}

static int clone_into(void)
{
	struct ltd_cagens ns = LTD_CAGENS_INIT;
	struct ltd_err err = {0};
	int pidfd = -1, status;
	struct clone_args args = {
		.flags = CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWUTS |
			 CLONE_NEWIPC | CLONE_PIDFD,
		.pidfd = (__u64)(uintptr_t)&pidfd,
		.exit_signal = SIGCHLD,
	};
	pid_t pid;

	if (ltd_cagens_make(&ns, getuid(), getgid(), &err) < 0)
		return err.code == EPERM || err.code == ENOSPC ? SKIP : 1;
	/* Made, and not the namespaces this process is in. */
	if (ns.user < 0 || ns.net < 0 || same_ns(ns.net, "/proc/self/ns/net") ||
	    same_ns(ns.user, "/proc/self/ns/user"))
		return 2;
	seen = &ns;
	pid = ltd_cagens_clone(&ns, &args, init_child, NULL, &err);
	if (pid <= 0)
		return 3;
	if (pidfd < 0)
		return 4;
	/* Our child, not the joiner's: waitpid reaps it here. */
	if (waitpid(pid, &status, 0) != pid)
		return 5;
	if (!WIFEXITED(status))
		return 6;
	/* The joiner was reaped too: no child is left. */
	if (waitpid(-1, NULL, WNOHANG) != -1 || errno != ECHILD)
		return 7;
	ltd_cagens_close(&ns);
	return WEXITSTATUS(status) ? 20 + WEXITSTATUS(status) : 0;
}

Test(cagens, init_in_the_namespaces_made_before_it)
{
	cr_assert_eq(in_child(clone_into), 0);
}

__attribute__((noreturn)) static void never(void *arg)
{
	(void)arg;
	_exit(99);
}

/* Fail closed: a namespace that cannot be entered makes no init at all
 * (never one in the host's network namespace). */
static int refuses_what_it_cannot_join(void)
{
	struct ltd_cagens ns = LTD_CAGENS_INIT;
	struct ltd_err err = {0};
	struct clone_args args = {.flags = CLONE_NEWPID,
				  .exit_signal = SIGCHLD};
	int net;

	if (ltd_cagens_clone(&ns, &args, never, NULL, &err) != -EBADF)
		return 1;
	if (ltd_cagens_make(&ns, getuid(), getgid(), &err) < 0)
		return err.code == EPERM || err.code == ENOSPC ? SKIP : 2;
	/* Not a namespace: setns refuses it. */
	net = ns.net;
	ns.net = open("/dev/null", O_RDONLY | O_CLOEXEC);
	err = (struct ltd_err){0};
	if (ltd_cagens_clone(&ns, &args, never, NULL, &err) >= 0)
		return 3;
	if (!strstr(err.msg, "network namespace"))
		return 4;
	if (waitpid(-1, NULL, WNOHANG) != -1 || errno != ECHILD)
		return 5;
	close(net);
	ltd_cagens_close(&ns);
	return 0;
}

Test(cagens, refuses_what_it_cannot_join)
{
	cr_assert_eq(in_child(refuses_what_it_cannot_join), 0);
}

/* common/spawn.h: the child runs in our memory, and we wait for it. */
static int set_it(void *arg)
{
	*(int *)arg = 42;
	return 3;
}

Test(spawn, shares_memory_and_is_reaped)
{
	struct ltd_err err = {0};
	int value = 0;
	pid_t pid = ltd_spawn_shared(set_it, &value, 0, 16384, NULL, &err);

	cr_assert_gt(pid, 0, "%s", err.msg);
	cr_assert_eq(value, 42, "the child wrote to our memory");
	cr_assert_eq(ltd_spawn_reap(pid), 3 << 8, "its exit status");
}
