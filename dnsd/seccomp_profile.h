/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ltd-dnsd's own system-call profile, compiled at build time beside the
 * cage's (cli/seccomp-gen.c) and loaded by the helper as
 * LTD_SECCOMP_DNSD.
 */
#ifndef LTD_DNSD_SECCOMP_PROFILE_H
#define LTD_DNSD_SECCOMP_PROFILE_H

#include "confine/profile.h"

/* The profile as BPF into @out (ltd_bpf_free()). */
int ltd_dnsd_seccomp_build(struct ltd_bpf *out, struct ltd_err *err);

#endif
