/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The profiles as libseccomp contexts: for the build-time generator
 * (cli/seccomp-gen.c), ltd-dnsd's profile and the tests. */
#ifndef LTD_SECCOMP_PROFILE_H
#define LTD_SECCOMP_PROFILE_H

#include <seccomp.h>

#include "confine/seccomp.h"

static inline void ltd_seccomp_releasep(scmp_filter_ctx *ctx)
{
	if (*ctx)
		seccomp_release(*ctx);
}

#define _cleanup_seccomp_ __attribute__((cleanup(ltd_seccomp_releasep)))

/* Build the whole profile for @mode (not OFF) into a new context. */
int ltd_seccomp_profile_new(enum ltd_seccomp_mode mode, scmp_filter_ctx *out,
			    struct ltd_err *err);

/* Export @ctx as BPF into @out (ltd_bpf_free()). */
int ltd_seccomp_export_bpf(scmp_filter_ctx ctx, struct ltd_bpf *out,
			   struct ltd_err *err);

#endif
