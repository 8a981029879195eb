/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `ltd-native doctor`: what this host gives the runtime, one line each,
 * with what to do about what is missing.  Probes (doctor.c) fill checks;
 * the advice and the output are pure functions (tested).
 */
#ifndef LTD_DOCTOR_H
#define LTD_DOCTOR_H

#include <stdbool.h>
#include <stdio.h>

struct ltd_check {
	const char *name;
	bool required; /* a default run needs it */
	bool ok;
	char detail[1024];
	char fix[256]; /* "" when ok or nothing to do */
};

/* What the host says about user namespaces; -1 = no such sysctl. */
struct ltd_userns_facts {
	int unshare_errno; /* 0: unshare(CLONE_NEWUSER) worked */
	long unprivileged_userns_clone;
	long max_user_namespaces;
	long apparmor_restrict;
};

/* Pure: the user-namespace line, with the fix that fits the cause. */
void ltd_doctor_userns(const struct ltd_userns_facts *f, struct ltd_check *c);

/* Pure: the pasta line from its path ("" if absent), its --version
 * output's first line and /dev/net/tun's mode (0 if absent). */
void ltd_doctor_pasta(const char *path, const char *version, unsigned tun_mode,
		      struct ltd_check *c);

/* Pure: exit status 0 when every required check is ok. */
int ltd_doctor_status(const struct ltd_check *c, size_t n);

/* Pure: the report, as aligned lines or as one JSON object. */
void ltd_doctor_print(FILE *out, const struct ltd_check *c, size_t n,
		      bool json);

struct ltd_doctor_opts {
	bool json;
	bool acknowledge;      /* store the standing warnings as acknowledged */
	int test_landlock_abi; /* a test's lower ABI, or -1 (a test hook) */
};

/* The exit status when --acknowledge could not write its file. */
#define LTD_DOCTOR_ACK_FAILED 125

/*
 * `ltd-native doctor [--json] [--acknowledge]`: probe, print, then the
 * host's standing warnings (runtime/standing.h): which runs say, which
 * are acknowledged; --acknowledge records the current ones first.
 * Returns the exit status.
 */
int ltd_doctor(const struct ltd_doctor_opts *o);

#endif
