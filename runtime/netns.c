// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --network none: the cage's network namespace, made beside init rather
 * than by clone3.  Creating one costs ~300 us here (setup_net: lo, sysctl
 * tables, proc entries), most of clone3's time and all of it on the start's
 * critical path; made by a helper while init builds the mounts, it costs
 * the start almost nothing on a second CPU.  With one CPU to run on, the
 * helper would only add to the start: the launcher then keeps CLONE_NEWNET
 * in clone3 (runtime/run.c).  Init joins it before anything
 * else runs in the cage, checks that it did, and hands the cage's
 * namespaces (this one included) to the launcher only after that.
 *
 * The helper starts as posix_spawn() starts a program (CLONE_VM), and
 * shares init's descriptor table too (CLONE_FILES): no copy of init's page
 * tables, no copy-on-write fault in init for every page it writes while
 * the helper lives, no unmapping of a copy at its exit.  On this kind of
 * machine (a paravirtualised guest, where every page-table change costs a
 * hypercall) the fork it replaces was init's dearest step but one.  Being
 * init's memory, the helper touches only its own stack and struct
 * ltd_netns, which init reads once it has reaped it; it allocates nothing.
 * It shares init's errno (glibc's, thread-local, and the helper is no
 * thread glibc knows): it sets it only when a system call of its fails,
 * and then the run ends at network-join whatever init made of it.  The
 * mm's non-dumpable flag is init's own.
 * docs/decisions/0113-network-helper-shares-init-memory.md
 */
#include "runtime/netns.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sched.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "runtime/cage.h"

int ltd_netns_lo_up(struct ltd_err *err)
{
	_cleanup_close_ int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	struct ifreq ifr = {.ifr_name = "lo"};

	if (fd < 0 || ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		return ltd_err_sys(err, "get lo flags");
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
		return ltd_err_sys(err, "bring lo up");
	return 0;
}

/* The helper: a new network namespace with lo up, its descriptor (in the
 * table it shares with init) or why not in @arg, and gone. */
static int helper(void *arg)
{
	struct ltd_netns *n = arg;
	int fd = -1;

	if (unshare(CLONE_NEWNET) < 0) {
		ltd_err_sys(&n->err, "new network namespace");
	} else if (ltd_netns_lo_up(&n->err) == 0) {
		/* The namespace of a socket made in it: no /proc needed. */
		fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		n->ns = fd < 0 ? -1 : ioctl(fd, SIOCGSKNS);
		if (n->ns < 0)
			ltd_err_sys(&n->err, "open the new network namespace");
		if (fd >= 0)
			close(fd);
	}
	return 0;
}

/* Room for the helper's frames (ltd_err_sys's formatting the deepest),
 * above a guard page. */
#define HELPER_STACK (64 * 1024)

int ltd_netns_start(struct ltd_netns *n, struct ltd_err *err)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	n->ns = -1;
	n->err = (struct ltd_err){0};
	n->stack = mmap(NULL, HELPER_STACK + page, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (n->stack == MAP_FAILED) {
		n->stack = NULL;
		return ltd_err_sys(err, "stack for the network namespace's "
					"helper");
	}
	if (mprotect(n->stack, page, PROT_NONE) < 0)
		return ltd_err_sys(err, "guard page");
	n->helper = clone(helper, (char *)n->stack + page + HELPER_STACK,
			  CLONE_VM | CLONE_FILES | SIGCHLD, n);
	if (n->helper < 0)
		return ltd_err_sys(err, "start the network namespace's helper");
	return 0;
}

/* Wait for the helper's end: its word is in @n then. */
static int reap(struct ltd_netns *n)
{
	pid_t pid = n->helper;
	int status;

	n->helper = -1;
	while (waitpid(pid, &status, __WCLONE | __WALL) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
}

int ltd_netns_join(struct ltd_netns *n, struct ltd_err *err)
{
	_cleanup_close_ int ns = -1;
	struct stat before, after, want;
	int ret;

	/* It exits right after its word, cheaply (nothing of its own to
	 * unmap): waited for here. */
	ret = reap(n);
	ns = n->ns;
	n->ns = -1;
	if (ret < 0)
		return ltd_err_set(err, EIO,
				   "the network namespace's helper ended "
				   "without a word");
	if (ns < 0 && !n->err.code)
		return ltd_err_set(err, EIO,
				   "the network namespace's helper gave no "
				   "namespace");
	if (ns < 0) {
		*err = n->err;
		err->msg[sizeof(err->msg) - 1] = '\0';
		return -err->code;
	}
	if (stat("/proc/self/ns/net", &before) < 0 || fstat(ns, &want) < 0)
		return ltd_err_sys(err, "look at the network namespaces");
	if (setns(ns, CLONE_NEWNET) < 0)
		return ltd_err_sys(err, "enter the cage's network namespace");
	/* Fail closed: the command must never start in the host's. */
	ret = stat("/proc/self/ns/net", &after);
	if (ret < 0 || after.st_ino != want.st_ino ||
	    after.st_dev != want.st_dev || after.st_ino == before.st_ino)
		return ltd_err_set(err, EPERM,
				   "init is not in the cage's own network "
				   "namespace");
	return 0;
}

void ltd_netns_reap(struct ltd_netns *n)
{
	if (n->helper > 0)
		reap(n);
	if (n->stack)
		munmap(n->stack, HELPER_STACK + (size_t)sysconf(_SC_PAGESIZE));
	n->stack = NULL;
}
