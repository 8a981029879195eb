// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The runtime side of the filter: the programs compiled at build time
 * (cli/seccomp-gen.c writes them into the binary) and the loader.  No
 * libseccomp here: compiling the profile costs ~2 ms, more than a third of
 * a cage's start-up, and can fail; doing it when the binary is built makes
 * a run pay for neither.
 */
#include "confine/seccomp.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Written by cli/seccomp-gen.c into build/gen/seccomp_blobs.c. */
extern const struct ltd_bpf ltd_seccomp_blob_enforce;
extern const struct ltd_bpf ltd_seccomp_blob_log;
extern const struct ltd_bpf ltd_seccomp_blob_dnsd;

const struct ltd_bpf *ltd_seccomp_program(enum ltd_seccomp_mode mode)
{
	switch (mode) {
	case LTD_SECCOMP_ENFORCE:
		return &ltd_seccomp_blob_enforce;
	case LTD_SECCOMP_LOG:
		return &ltd_seccomp_blob_log;
	case LTD_SECCOMP_DNSD:
		return &ltd_seccomp_blob_dnsd;
	default:
		return NULL;
	}
}

int ltd_seccomp_load(const struct ltd_bpf *bpf, struct ltd_err *err)
{
	struct sock_fprog prog = {
		.len = bpf->len,
		.filter = bpf->insns,
	};

	if (bpf->len == 0)
		return 0;
	/*
	 * No flags: no TSYNC (the cage is single-threaded here, right before
	 * execve) and no SPEC_ALLOW (keep the kernel's default speculation
	 * mitigations for filtered tasks).
	 */
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) == 0)
		return 0;
	/* seccomp(2) arrived in 3.17; prctl() does the same on older ones. */
	if (errno == ENOSYS &&
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) == 0)
		return 0;
	if (errno == EACCES)
		return ltd_err_sys(err, "seccomp: cannot load the filter "
					"(no_new_privs must be set first)");
	return ltd_err_sys(err, "seccomp: cannot load the filter");
}
