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

#include "runtime/standing.h"

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

/*
 * Pure: what the pasta line says of its version.  @said is the first line
 * of `pasta --version` ("pasta 2024_01_01.abc"); a build that names none
 * says "pasta unknown version" (Debian 12's passt is built so): then the
 * version of the package that owns the binary, @pkg and @pkgver from dpkg
 * ("" where none does), and failing that why it is unknown.
 */
void ltd_doctor_pasta_version(const char *said, const char *pkg,
			      const char *pkgver, char *buf, size_t size);

/* Pure: whether @said (pasta's --version line) names no version. */
bool ltd_doctor_pasta_unversioned(const char *said);

/* Pure: what a default run does, from the checks: it stops where a
 * required one is missing, unless that one is needed only for the
 * network and the network is off anyway (a missing fallback one). */
enum ltd_doctor_verdict ltd_doctor_verdict(const struct ltd_check *c, size_t n);

/* Pure: exit status 0 when a default run works (with or without its
 * network), 1 when it stops. */
int ltd_doctor_status(const struct ltd_check *c, size_t n);

/* A standing warning as doctor reports it. */
struct ltd_doctor_warning {
	const char *check; /* the check it belongs to: "cgroup delegation" */
	const struct ltd_standing *s;
	bool acknowledged; /* runs no longer say it (doctor --acknowledge) */
};

/*
 * Pure: the report, as aligned lines or as one JSON object: the checks,
 * the verdict, then the standing warnings @w, said or acknowledged.  The
 * JSON object's keys are documented in docs/guide/doctor.md and
 * ltd-native(1); a change there is a change of interface.
 */
void ltd_doctor_print(FILE *out, const struct ltd_check *c, size_t n,
		      const struct ltd_doctor_warning *w, size_t nw, bool json);

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
