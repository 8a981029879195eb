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
	/* Missing: a default run goes on without network (it falls back
	 * to --network none, with a warning), not stops. */
	bool fallback;
	/* Required only by a default run that has its network. */
	bool network;
};

/* What a default run does on this host. */
enum ltd_doctor_verdict {
	LTD_DOCTOR_WORKS,
	LTD_DOCTOR_NO_NETWORK, /* works, with --network none */
	LTD_DOCTOR_FAILS,
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
 * output's first line and what keeps it from opening /dev/net/tun (""
 * when nothing: ltd_pasta_tun_says(), the words of the run's warning). */
void ltd_doctor_pasta(const char *path, const char *version,
		      const char *tun_problem, struct ltd_check *c);

/* Pure: what a default run does, from the checks: it stops where a
 * required one is missing, unless that one is needed only for the
 * network and the network is off anyway (a missing fallback one). */
enum ltd_doctor_verdict ltd_doctor_verdict(const struct ltd_check *c, size_t n);

/* Pure: exit status 0 when a default run works (with or without its
 * network), 1 when it stops. */
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
