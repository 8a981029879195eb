// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Landlock, the executor: the command opens each path of the ruleset that
 * ltd_landlock_build() derived from the mount plan, adds its rule, and
 * restricts itself.  Runs after the mounts (the paths are the cage's) and
 * after no_new_privs, before seccomp (whose filter refuses these calls).
 */
#include "confine/landlock.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/cleanup.h"

#ifndef LANDLOCK_RULE_NET_PORT
#define LANDLOCK_RULE_NET_PORT 2
#endif

/* struct landlock_ruleset_attr as of ABI 6; older kernels get a prefix. */
struct ltd_ruleset_attr {
	__u64 handled_access_fs;
	__u64 handled_access_net;
	__u64 scoped;
};

/* struct landlock_net_port_attr (ABI 4), absent from older headers. */
struct ltd_net_port_attr {
	__u64 allowed_access;
	__u64 port;
} __attribute__((packed));

int ltd_landlock_abi(void)
{
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0,
			   LANDLOCK_CREATE_RULESET_VERSION);

	return abi < 0 ? 0 : (int)abi;
}

/*
 * One path rule.  The path is opened without following any link (every
 * destination of the plan is a real directory or file of the cage), as an
 * O_PATH descriptor: opening needs no right that Landlock could refuse.
 * As a directory first (most rules are): then no fstat is needed to know
 * it is one, a system call less a rule.
 */
static int add_path_rule(int ruleset, const struct ltd_ll_rule *r,
			 struct ltd_err *err)
{
	struct open_how how = {
		.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	struct landlock_path_beneath_attr pb = {.allowed_access = r->access};
	_cleanup_close_ int fd = -1;

	fd = (int)syscall(SYS_openat2, AT_FDCWD, r->path, &how, sizeof(how));
	if (fd < 0 && errno == ENOTDIR) {
		/* A file takes only the rights that apply to files. */
		how.flags &= ~(__u64)O_DIRECTORY;
		pb.allowed_access &= LTD_LL_FS_FILE;
		fd = (int)syscall(SYS_openat2, AT_FDCWD, r->path, &how,
				  sizeof(how));
	}
	if (fd < 0 && errno == ENOENT && r->optional)
		return 0;
	if (fd < 0)
		return ltd_err_sys(err, "landlock: %s '%s'", r->why, r->path);
	if (!pb.allowed_access)
		return 0;
	pb.parent_fd = fd;
	if (syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH,
		    &pb, 0) < 0)
		return ltd_err_sys(err, "landlock_add_rule %s '%s'", r->why,
				   r->path);
	return 0;
}

int ltd_landlock_confine(const struct ltd_landlock *ll, struct ltd_err *err)
{
	struct ltd_ruleset_attr attr = {
		.handled_access_fs = ll->handled_fs,
		.handled_access_net = ll->handled_net,
		.scoped = ll->scoped,
	};
	_cleanup_close_ int ruleset = -1;
	size_t size = ll->abi >= 6   ? sizeof(attr)
		      : ll->abi >= 4 ? 2 * sizeof(__u64)
				     : sizeof(__u64);
	int ret;

	if (ll->abi <= 0)
		return 0;
	ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
	if (ruleset < 0)
		return ltd_err_sys(err, "landlock_create_ruleset (ABI %d)",
				   ll->abi);
	for (size_t i = 0; i < ll->n_rules; i++) {
		ret = add_path_rule(ruleset, &ll->rules[i], err);
		if (ret < 0)
			return ret;
	}
	for (size_t i = 0; i < ll->n_ports; i++) {
		struct ltd_net_port_attr np = {
			.allowed_access = LTD_LL_NET_CONNECT_TCP,
			.port = ll->ports[i],
		};

		if (syscall(SYS_landlock_add_rule, ruleset,
			    LANDLOCK_RULE_NET_PORT, &np, 0) < 0)
			return ltd_err_sys(err, "landlock_add_rule port %u",
					   ll->ports[i]);
	}
	for (size_t i = 0; i < ll->n_bind_ports; i++) {
		struct ltd_net_port_attr np = {
			.allowed_access = LTD_LL_NET_BIND_TCP,
			.port = ll->bind_ports[i],
		};

		if (syscall(SYS_landlock_add_rule, ruleset,
			    LANDLOCK_RULE_NET_PORT, &np, 0) < 0)
			return ltd_err_sys(err,
					   "landlock_add_rule bind port %u",
					   ll->bind_ports[i]);
	}
	if (syscall(SYS_landlock_restrict_self, ruleset, 0) < 0)
		return ltd_err_sys(err, "landlock_restrict_self");
	return 0;
}

void ltd_landlock_free(struct ltd_landlock *ll)
{
	for (size_t i = 0; i < ll->n_rules; i++)
		free(ll->rules[i].path);
	free(ll->rules);
	*ll = (struct ltd_landlock){0};
}
