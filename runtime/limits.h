/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Resource limits: a cgroup v2 subtree of the cage's own where the host
 * delegates one to the user, rlimits otherwise.
 *
 * Layers as elsewhere: pure functions (parse what the kernel says, decide
 * cgroup or rlimits from probed facts, compute the files' contents), an
 * executor that creates and removes the cage's cgroup under a directory it
 * is given (a real cgroupfs, or a fake tree in the tests), and the probe
 * that reads the host.  run.c and cage.c call them in order.
 */
#ifndef LTD_LIMITS_H
#define LTD_LIMITS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/error.h"
#include "policy/policy.h"

/* The controllers we need, as bits. */
enum {
	LTD_CTL_MEMORY = 1 << 0,
	LTD_CTL_CPU = 1 << 1,
	LTD_CTL_PIDS = 1 << 2,
	LTD_CTL_ALL = (1 << 3) - 1,
};

#define LTD_CG_PATH_MAX 512

/* What the host's cgroup v2 tree offers the launcher (ltd_cgroup_probe). */
struct ltd_cg_facts {
	bool v2;		   /* a cgroup2 mount, and we are in it */
	char dir[LTD_CG_PATH_MAX]; /* our own cgroup's directory */
	bool writable;		   /* dir, cgroup.procs, subtree_control */
	unsigned available;	   /* LTD_CTL_* in cgroup.controllers */
	unsigned enabled;	   /* LTD_CTL_* in cgroup.subtree_control */
	bool alone;		   /* cgroup.procs lists only the launcher */
	bool nproc_per_userns;	   /* RLIMIT_NPROC counted per user
				      namespace (Linux 5.14) */
};

/* What to do, decided before clone. */
struct ltd_limits_plan {
	bool cgroup;	 /* the cage gets a cgroup of its own */
	bool evacuate;	 /* move the launcher to a leaf first (the
			    no-internal-processes rule) */
	unsigned enable; /* controllers to add to our subtree_control */
	char missing[LTD_CG_PATH_MAX + 160]; /* !cgroup: why not */
	/* cgroup files */
	char memory_max[24];
	char cpu_max[32];
	char pids_max[16];
	/* rlimits (!cgroup); 0 = leave as is */
	uint64_t rlimit_data;
	uint64_t rlimit_nproc;
};

/* Pure: the controller bits named in a cgroup.controllers line. */
unsigned ltd_limits_parse_controllers(const char *text);

/* Pure: the cgroup v2 path in /proc/self/cgroup text ("0::/a/b"). */
int ltd_limits_parse_self(const char *text, char *path, size_t size);

/* Pure: the mount point of the first cgroup2 fs in mountinfo text. */
int ltd_limits_parse_mountinfo(const char *text, char *mnt, size_t size);

/* Pure: "max 100000"-style file contents for @p. */
void ltd_limits_values(const struct ltd_policy *p, struct ltd_limits_plan *pl);

/*
 * Pure: cgroup or rlimits, from @f.  An explicit --memory or --cpus that
 * only a cgroup can enforce is an error on a host without one, unless
 * --allow-unenforced-limits.
 */
int ltd_limits_decide(const struct ltd_policy *p, const struct ltd_cg_facts *f,
		      struct ltd_limits_plan *pl, struct ltd_err *err);

/* Pure: the one warning line for rlimit mode (no newline); false if none. */
bool ltd_limits_warning(const struct ltd_policy *p,
			const struct ltd_limits_plan *pl, char *buf,
			size_t size);

/* Pure: Linux @release ("6.1.0-13-amd64") is at least @major.@minor. */
bool ltd_limits_kernel_at_least(const char *release, unsigned major,
				unsigned minor);

/* Read the host: /proc/self/mountinfo, /proc/self/cgroup, our cgroup. */
int ltd_cgroup_probe(struct ltd_cg_facts *f, struct ltd_err *err);

/* Read the facts of one cgroup directory (@self: the launcher's pid). */
int ltd_cgroup_read_dir(const char *dir, pid_t self, struct ltd_cg_facts *f,
			struct ltd_err *err);

/* The cage's cgroup while it exists; set up by ltd_cgroup_create(). */
struct ltd_cgroup {
	int fd; /* the cage's cgroup dir: CLONE_INTO_CGROUP */
	char own[LTD_CG_PATH_MAX];  /* the launcher's original cgroup */
	char cage[LTD_CG_PATH_MAX]; /* own/ltd-PID */
	char leaf[LTD_CG_PATH_MAX]; /* own/ltd-PID.launcher, if evacuated */
	unsigned enabled;	    /* controllers we enabled in own */
};

/*
 * Under @own (our cgroup's directory), for launcher @self: evacuate if
 * asked, enable the controllers, create the cage's cgroup and write its
 * limits.  On failure, undoes what it did.
 */
int ltd_cgroup_create(const char *own, const struct ltd_limits_plan *pl,
		      pid_t self, struct ltd_cgroup *cg, struct ltd_err *err);

/* Kill what is left in the cage's cgroup and undo ltd_cgroup_create(). */
void ltd_cgroup_destroy(struct ltd_cgroup *cg, pid_t self);

/* In the cage (rlimit mode): set the rlimits of @pl on the caller. */
int ltd_limits_apply_rlimits(const struct ltd_limits_plan *pl,
			     struct ltd_err *err);

#endif
