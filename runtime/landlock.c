// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Landlock, the second wall: the command may reach files only beneath the
 * cage's own root.  The mount namespace already shows nothing else, so what
 * this closes is every way around it: a descriptor inherited on stdin that
 * leads into the host (a redirected file, a directory), re-opened through
 * /proc/self/fd with new access rights, or any path the kernel resolves
 * outside the cage's tree.  Where the kernel also supports it (ABI 6),
 * signals and abstract unix sockets are scoped to the command's own domain.
 */
#include "runtime/landlock.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runtime/cleanup.h"

#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif
#define LTD_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define LTD_SCOPE_SIGNAL	       (1ULL << 1)

/* struct landlock_ruleset_attr as of ABI 6; older kernels get a prefix. */
struct ltd_ruleset_attr {
	__u64 handled_access_fs;
	__u64 handled_access_net;
	__u64 scoped;
};

/* Every filesystem right this ABI knows, so each one is checked. */
static __u64 fs_rights(int abi)
{
	__u64 r = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1; /* ABI 1 */

	if (abi >= 2)
		r |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		r |= LANDLOCK_ACCESS_FS_TRUNCATE;
	if (abi >= 5)
		r |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
	return r;
}

int ltd_landlock_abi(void)
{
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0,
			   LANDLOCK_CREATE_RULESET_VERSION);

	return abi < 0 ? 0 : (int)abi;
}

int ltd_landlock_confine(int abi, struct ltd_err *err)
{
	struct ltd_ruleset_attr attr = { .handled_access_fs = fs_rights(abi) };
	struct landlock_path_beneath_attr root = {
		.allowed_access = fs_rights(abi),
	};
	_cleanup_close_ int ruleset = -1, rootfd = -1;
	size_t size = abi >= 6	 ? sizeof(attr)
		      : abi >= 4 ? 2 * sizeof(__u64)
				 : sizeof(__u64);

	if (abi >= 6)
		attr.scoped = LTD_SCOPE_ABSTRACT_UNIX_SOCKET | LTD_SCOPE_SIGNAL;
	ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
	if (ruleset < 0)
		return ltd_err_sys(err, "landlock_create_ruleset (ABI %d)", abi);
	/* The cage's root: everything the mount plan put there, and only
	 * that.  Read-only mounts stay read-only; this adds "nowhere else". */
	root.parent_fd = rootfd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return ltd_err_sys(err, "open /");
	if (syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH,
		    &root, 0) < 0)
		return ltd_err_sys(err, "landlock_add_rule /");
	if (syscall(SYS_landlock_restrict_self, ruleset, 0) < 0)
		return ltd_err_sys(err, "landlock_restrict_self");
	return 0;
}
