// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Leave the cage's processes with no capability in any set: bounding,
 * ambient, inheritable, permitted, effective.  The securebits are locked
 * first so that no later execve (even of a uid-0 binary) can give any back.
 */
#include "confine/caps.h"

#include <errno.h>
#include <linux/securebits.h>
#include <sys/capability.h>
#include <sys/prctl.h>

int ltd_caps_clear(struct ltd_err *err)
{
	/* One capset(2) with every set empty: cap_init() + cap_set_proc()
	 * allocate (in the command, a fresh heap page of init's: a page
	 * fault before execve) and ask capget() for the version first. */
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct none[_LINUX_CAPABILITY_U32S_3] = {{0}};

	if (capset(&hdr, none) < 0)
		return ltd_err_sys(err, "clear capability sets");
	return 0;
}

int ltd_caps_drop_all(struct ltd_err *err)
{
	/* Needs CAP_SETPCAP, so before the capsets are cleared. */
	if (cap_set_secbits(
		    SECBIT_NOROOT | SECBIT_NOROOT_LOCKED |
		    SECBIT_NO_SETUID_FIXUP | SECBIT_NO_SETUID_FIXUP_LOCKED |
		    SECBIT_KEEP_CAPS_LOCKED | SECBIT_NO_CAP_AMBIENT_RAISE |
		    SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED) < 0)
		return ltd_err_sys(err, "lock securebits");
	for (cap_value_t cap = 0; cap < cap_max_bits(); cap++)
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0)
			return ltd_err_sys(err, "drop bounding capability %d",
					   cap);
	/* One call (libcap's cap_reset_ambient() first asks about each
	 * capability: 41 more system calls for the same result). */
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0)
		return ltd_err_sys(err, "clear ambient capabilities");
	return ltd_caps_clear(err);
}
