// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ltd-dnsd's own profile (dnsd/proto.h): the DNS filter parses what
 * the cage sends, so after it has read its configuration it may only do
 * what serving DNS takes: read and write the descriptors it holds (fcntl
 * only to read flags, or to set close-on-exec: O_NONBLOCK is set before
 * the filter; F_SETOWN/F_SETSIG could signal any process of the user,
 * F_SETFL take O_APPEND off the shared audit log), accept
 * TCP clients, poll, the clock, random ids, memory.  No open, no exec,
 * no fork, no signals to others, no ptrace; a foreign ABI kills it.
 *
 * It runs in the host's network namespace, so it opens no socket and
 * connects nothing: the launcher hands it each upstream socket already
 * connected (dnsd/proto.h).  A destination may be named only on the
 * cage's UDP socket (its replies, which stay in the cage's namespace):
 * sendto with an address on any other descriptor, and sendmsg on any
 * other (seccomp cannot read msg_name), get ENOSYS; and the cage's socket
 * cannot be closed (its number reused).  Unlisted calls get
 * ENOSYS too, as in the cage's profile.
 */
#include "dnsd/seccomp_profile.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>

#include "common/base.h"
#include "common/cleanup.h"
#include "dnsd/proto.h"

static const int dnsd_allowed[] = {
	/* its descriptors */
	SCMP_SYS(read),
	SCMP_SYS(write),
	SCMP_SYS(readv),
	SCMP_SYS(writev),
	SCMP_SYS(fstat), /* a descriptor only; newfstatat takes a path */
	SCMP_SYS(lseek),
	SCMP_SYS(poll),
	SCMP_SYS(ppoll),
	/* sockets it holds (sendto and sendmsg: below) */
	SCMP_SYS(recvfrom),
	SCMP_SYS(recvmsg),
	SCMP_SYS(accept4),
	SCMP_SYS(accept),
	SCMP_SYS(shutdown),
	SCMP_SYS(setsockopt),
	SCMP_SYS(getsockopt),
	SCMP_SYS(getsockname),
	SCMP_SYS(getpeername),
	/* time, ids, memory, the end */
	SCMP_SYS(clock_gettime),
	SCMP_SYS(gettimeofday),
	SCMP_SYS(time),
	SCMP_SYS(getrandom),
	SCMP_SYS(getpid),
	SCMP_SYS(brk),
	SCMP_SYS(mmap),
	SCMP_SYS(munmap),
	SCMP_SYS(mremap),
	SCMP_SYS(madvise),
	SCMP_SYS(futex),
	SCMP_SYS(rt_sigreturn),
	SCMP_SYS(rt_sigprocmask),
	SCMP_SYS(restart_syscall),
	SCMP_SYS(exit),
	SCMP_SYS(exit_group),
};

static int add(scmp_filter_ctx ctx, uint32_t action, int nr, unsigned int n,
	       const struct scmp_arg_cmp *cmp, struct ltd_err *err)
{
	int ret = seccomp_rule_add_array(ctx, action, nr, n, cmp);

	return ret < 0 ? ltd_err_set(err, -ret,
				     "seccomp: ltd-dnsd profile, syscall %d: "
				     "rule refused",
				     nr)
		       : 0;
}

static int profile_new(scmp_filter_ctx *out, struct ltd_err *err)
{
	_cleanup_seccomp_ scmp_filter_ctx ctx =
		seccomp_init(SCMP_ACT_ERRNO(ENOSYS));
	/* The descriptor is an int: its low 32 bits only. */
	const struct scmp_arg_cmp cage_fd =
		SCMP_CMP(0, SCMP_CMP_MASKED_EQ, 0xffffffffULL, LTD_DNSH_FD_UDP);
	const struct scmp_arg_cmp no_dest = SCMP_CMP(4, SCMP_CMP_EQ, 0);
	const int fcntl_cmds[] = {F_GETFL, F_GETFD, F_SETFD};
	int ret = 0;

	if (!ctx)
		return ltd_err_set(err, ENOMEM,
				   "seccomp: cannot create a filter context");
	if (seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
			     SCMP_ACT_KILL_PROCESS) < 0 ||
	    seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0) < 0)
		return ltd_err_set(err, EINVAL,
				   "seccomp: cannot set the ltd-dnsd "
				   "profile's attributes");
	for (size_t i = 0; !ret && i < ARRAY_SIZE(dnsd_allowed); i++)
		ret = add(ctx, SCMP_ACT_ALLOW, dnsd_allowed[i], 0, NULL, err);
	/* close() of any descriptor but the cage's socket: were it closed,
	 * the next upstream socket the launcher hands over would take its
	 * number, and a destination may be named on that number.  seccomp
	 * has no "not equal" under a mask (the kernel reads an unsigned
	 * int): allowed when any one of the low 32 bits differs from
	 * LTD_DNSH_FD_UDP's. */
	for (int b = 0; !ret && b < 32; b++) {
		const struct scmp_arg_cmp differs =
			SCMP_CMP(0, SCMP_CMP_MASKED_EQ, 1ULL << b,
				 ~(uint64_t)LTD_DNSH_FD_UDP & (1ULL << b));

		ret = add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(close), 1, &differs,
			  err);
	}
	/* send() (no address) anywhere; an address on the cage's socket. */
	if (!ret)
		ret = add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(sendto), 1, &no_dest,
			  err);
	if (!ret)
		ret = add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(sendto), 1, &cage_fd,
			  err);
	if (!ret)
		ret = add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(sendmsg), 1, &cage_fd,
			  err);
	for (size_t i = 0; !ret && i < ARRAY_SIZE(fcntl_cmds); i++) {
		/* The command is an int too. */
		struct scmp_arg_cmp c = SCMP_CMP(1, SCMP_CMP_MASKED_EQ,
						 0xffffffffULL, fcntl_cmds[i]);

		ret = add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(fcntl), 1, &c, err);
	}
	if (ret < 0)
		return ret;
	*out = ltd_steal_ptr(&ctx);
	return 0;
}

int ltd_dnsd_seccomp_build(struct ltd_bpf *out, struct ltd_err *err)
{
	_cleanup_seccomp_ scmp_filter_ctx ctx = NULL;
	int ret = profile_new(&ctx, err);

	return ret < 0 ? ret : ltd_seccomp_export_bpf(ctx, out, err);
}
