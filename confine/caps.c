// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Leave the cage's processes with no capability in any set: bounding,
 * ambient, inheritable, permitted, effective.  The securebits are locked
 * first so that no later execve (even of a uid-0 binary) can give any back.
 */
#include "confine/caps.h"

#include <errno.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* How many capabilities the kernel's sets have room for: two 32-bit
 * words (_LINUX_CAPABILITY_U32S_3), numbers 0-63. */
#define CAP_SLOTS 64

int ltd_caps_clear(struct ltd_err *err)
{
	/* One capset(2) with every set empty: cap_init() + cap_set_proc()
	 * allocate (in the command, a fresh heap page of init's: a page
	 * fault before execve) and ask capget() for the version first. */
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct none[_LINUX_CAPABILITY_U32S_3] = {{0}};

	if (syscall(SYS_capset, &hdr, none) < 0)
		return ltd_err_sys(err, "clear capability sets");
	return 0;
}

int ltd_caps_drop_all(struct ltd_err *err)
{
	/* Needs CAP_SETPCAP, so before the capsets are cleared. */
	if (prctl(PR_SET_SECUREBITS,
		  SECBIT_NOROOT | SECBIT_NOROOT_LOCKED |
			  SECBIT_NO_SETUID_FIXUP |
			  SECBIT_NO_SETUID_FIXUP_LOCKED |
			  SECBIT_KEEP_CAPS_LOCKED |
			  SECBIT_NO_CAP_AMBIENT_RAISE |
			  SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED,
		  0, 0, 0) < 0)
		return ltd_err_sys(err, "lock securebits");
	/* Every capability this kernel knows, up to the first number it
	 * calls invalid (EINVAL: past /proc/sys/kernel/cap_last_cap, which
	 * the cage's /proc need not show); any other failure stops the run.
	 * No library for it: libcap's constructor asked the kernel the same
	 * with six prctl() at every start (decision 0141). */
	for (int cap = 0;; cap++) {
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == 0) {
			if (cap < CAP_SLOTS)
				continue;
			/* A number past the sets' room taken: a kernel
			 * this code does not know. */
			errno = E2BIG;
			return ltd_err_sys(err, "drop bounding capabilities");
		}
		/* Every kernel we run on knows CAP_AUDIT_READ (Linux 3.16). */
		if (errno == EINVAL && cap > CAP_AUDIT_READ)
			break;
		return ltd_err_sys(err, "drop bounding capability %d", cap);
	}
	/* One call (libcap's cap_reset_ambient() asked about each
	 * capability first: 41 more system calls for the same result). */
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0)
		return ltd_err_sys(err, "clear ambient capabilities");
	return ltd_caps_clear(err);
}
