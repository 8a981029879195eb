/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cage's system-call filter.
 *
 * Compile before clone, indeed before the binary exists: ltd_seccomp_build()
 * turns the profile into a BPF program with libseccomp; cli/seccomp-gen.c runs
 * it at build time and writes the programs into the binary, where
 * ltd_seccomp_program() finds them.  The cage only calls ltd_seccomp_load()
 * on that blob, as the very last step before execve (after capabilities are
 * dropped and no_new_privs is set), so nothing that can fail for a fixable
 * reason happens inside the cage, and no run pays for compiling.
 *
 * The profile is an allowlist for x86_64 only; see docs/seccomp.md.
 */
#ifndef LTD_SECCOMP_H
#define LTD_SECCOMP_H

#include <linux/filter.h>

#include "common/error.h"

/* The programs: the cage's (its values are the policy's enum
 * ltd_syscall_filter), and ltd-dnsd's own. */
enum ltd_seccomp_mode {
	LTD_SECCOMP_ENFORCE = 0, /* refuse what the profile refuses */
	LTD_SECCOMP_LOG,	 /* same profile, log instead of refusing */
	LTD_SECCOMP_OFF,	 /* no filter (--unsafe-no-seccomp) */
	LTD_SECCOMP_DNSD,	 /* ltd-dnsd's own, not the cage's */
};

/* A classic BPF program, owned by the struct; len 0 means "no filter". */
struct ltd_bpf {
	struct sock_filter *insns;
	unsigned short len;
};

/* Free @bpf's instructions and reset it to the empty program. */
void ltd_bpf_free(struct ltd_bpf *bpf);

/*
 * Build the profile for @mode and export it as BPF into @out (which the
 * caller frees with ltd_bpf_free()).  Pure: makes no syscall that changes
 * the calling process.  LTD_SECCOMP_OFF yields out->len == 0.
 */
int ltd_seccomp_build(enum ltd_seccomp_mode mode, struct ltd_bpf *out,
		      struct ltd_err *err);

/*
 * The program for @mode compiled into this binary at build time (the same
 * bytes ltd_seccomp_build() gives; a unit test checks it), or NULL for
 * LTD_SECCOMP_OFF.  Never freed.
 */
const struct ltd_bpf *ltd_seccomp_program(enum ltd_seccomp_mode mode);

/*
 * Write libseccomp's readable pseudo-filter code for the same profile to
 * @fd (the golden file, `policy show`).  Note: libseccomp's PFC does not
 * print the x32 check that its BPF contains; see docs/seccomp.md.
 */
int ltd_seccomp_export_pfc(enum ltd_seccomp_mode mode, int fd,
			   struct ltd_err *err);

/*
 * Install @bpf on the calling thread.  Call it last, just before execve,
 * with no_new_privs already set.  A program of length 0 is a no-op.
 */
int ltd_seccomp_load(const struct ltd_bpf *bpf, struct ltd_err *err);

#endif
