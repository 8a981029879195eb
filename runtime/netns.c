// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --network none: the cage's network namespace, made beside init rather
 * than by clone3.  Creating one costs ~300 us here (setup_net: lo, sysctl
 * tables, proc entries), most of clone3's time and all of it on the start's
 * critical path; made by a helper while init builds the mounts, it costs
 * the start almost nothing on a second CPU.  With one CPU to run on, the
 * fork would only add to the start: the launcher then keeps CLONE_NEWNET
 * in clone3 (runtime/run.c).  Init joins it before anything
 * else runs in the cage, checks that it did, and hands the cage's
 * namespaces (this one included) to the launcher only after that.
 *
 * The helper is a fork of init, not a thread: init comes from a raw
 * clone3, and glibc's idea of the calling thread is still the launcher's.
 * It is forked after init became non-dumpable (the mm's flag is copied),
 * holds nothing but copies of init's descriptors, and is gone before the
 * mounts are done.
 */
#include "runtime/netns.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sched.h>
#include <string.h>
#include <sys/ioctl.h>
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

/* The helper: a new network namespace with lo up, its descriptor to init
 * (or why not), and gone. */
__attribute__((noreturn)) static void helper(int sock)
{
	struct ltd_err err = {0};
	int fd = -1, ns = -1;

	if (unshare(CLONE_NEWNET) < 0)
		ltd_err_sys(&err, "new network namespace");
	else if (ltd_netns_lo_up(&err) == 0) {
		/* The namespace of a socket made in it: no /proc needed. */
		fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		ns = fd < 0 ? -1 : ioctl(fd, SIOCGSKNS);
		if (ns < 0)
			ltd_err_sys(&err, "open the new network namespace");
	}
	if (ns >= 0)
		ltd_msg_send_fds(sock, LTD_MSG_NETNS, 0, &ns, 1);
	else
		(void)!send(
			sock,
			&(struct ltd_msg){.type = LTD_MSG_NETNS, .err = err},
			sizeof(struct ltd_msg), MSG_NOSIGNAL);
	_exit(0);
}

int ltd_netns_start(struct ltd_netns *n, struct ltd_err *err)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return ltd_err_sys(err, "socketpair");
	n->helper = fork();
	if (n->helper < 0) {
		close(sv[0]);
		close(sv[1]);
		return ltd_err_sys(err, "start the network namespace's helper");
	}
	if (n->helper == 0) {
		close(sv[0]);
		helper(sv[1]);
	}
	close(sv[1]);
	n->sock = sv[0];
	return 0;
}

/* The helper's word: the namespace's descriptor, or its error. */
static int receive(struct ltd_netns *n, struct ltd_err *err)
{
	char ctl[CMSG_SPACE(LTD_MSG_MAX_FDS * sizeof(int))];
	struct ltd_msg m = {0};
	struct iovec iov = {&m, sizeof(m)};
	struct msghdr mh = {.msg_iov = &iov,
			    .msg_iovlen = 1,
			    .msg_control = ctl,
			    .msg_controllen = sizeof(ctl)};
	int fds[LTD_MSG_MAX_FDS];
	size_t n_fds;
	ssize_t len;

	do
		len = recvmsg(n->sock, &mh, MSG_CMSG_CLOEXEC);
	while (len < 0 && errno == EINTR);
	n_fds = len > 0 ? ltd_msg_take_fds(&mh, fds, LTD_MSG_MAX_FDS) : 0;
	if (len == (ssize_t)sizeof(m) && m.type == LTD_MSG_NETNS &&
	    n_fds == 1 && !m.err.code)
		return fds[0];
	while (n_fds > 0)
		close(fds[--n_fds]);
	if (len == (ssize_t)sizeof(m) && m.type == LTD_MSG_NETNS &&
	    m.err.code) {
		*err = m.err;
		err->msg[sizeof(err->msg) - 1] = '\0';
		return -err->code;
	}
	return ltd_err_set(err, EIO,
			   "the network namespace's helper ended without "
			   "a word");
}

int ltd_netns_join(struct ltd_netns *n, struct ltd_err *err)
{
	_cleanup_close_ int ns = -1;
	struct stat before, after, want;
	int ret;

	ns = receive(n, err);
	ltd_closep(&n->sock);
	n->sock = -1;
	/* It exits after its word (its exit unmaps a copy of init: not
	 * waited for here, while the mounts are made; ltd_netns_reap()
	 * before the command starts). */
	n->ended = n->helper;
	n->helper = -1;
	if (ns < 0)
		return ns;
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
	if (n->ended > 0)
		while (waitpid(n->ended, NULL, 0) < 0 && errno == EINTR)
			;
	n->ended = -1;
}
