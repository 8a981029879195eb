/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal to seccomp/: the profile as a libseccomp context. */
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

/* ltd-dnsd's profile (LTD_SECCOMP_DNSD), dnsd/profile.c. */
int ltd_seccomp_dnsd_profile_new(scmp_filter_ctx *out, struct ltd_err *err);

#endif
