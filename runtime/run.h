/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `ltd-native run`, as the CLI drives it: resolve (check the policy against
 * the host, probe what the decisions need, let the policy decide), then
 * run with the policy read-only, then turn the result into words and an
 * exit status (the CLI's job).
 */
#ifndef LTD_RUN_H
#define LTD_RUN_H

#include <stdbool.h>

#include "netfilter/pasta.h"
#include "policy/policy.h"
#include "protect/protected.h"
#include "runtime/limits.h"
#include "runtime/mountplan.h"
#include "runtime/standing.h"

/* Exit statuses, as documented in README.md. */
#define LTD_EXIT_RUNTIME     125 /* an error of ltd-native itself */
#define LTD_EXIT_CANNOT_EXEC 126
#define LTD_EXIT_NOT_FOUND   127

/*
 * Check @p against the host before anything exists, in the order each
 * part needs: the policy (policy/), the project's protection (protect/,
 * into @prot, emptied first), the binds, and the protection of the binds.
 * `run` and `policy show`.
 */
int ltd_run_check(struct ltd_policy *p, struct ltd_protected *prot,
		  struct ltd_err *err);

/* What the launcher found on the host for one run (ltd_run_resolve()):
 * kept for the run itself. */
struct ltd_run_host {
	struct ltd_cg_facts cg;	  /* the cgroup tree we are in */
	struct ltd_pasta pasta;	  /* allowlist mode: found, not yet built */
	struct ltd_pinned pinned; /* --rootfs: its top level and /etc */
	int rootfs_lock;	  /* --rootfs: the entry, held shared; -1 */
	char pasta_why[LTD_ERR_MSG_MAX];
	struct ltd_acks acks; /* the standing warnings acknowledged */
	/* What git, Claude Code and ltd-native run from the project, kept
	 * read-only (protect/): the mount plan and the post-run checks. */
	struct ltd_protected protected;
};

#define LTD_RUN_HOST_INIT                                                      \
	{                                                                      \
		.pasta = {.ready_fd = -1}, .rootfs_lock = -1                   \
	}

/*
 * Everything before the policy is final: ltd_run_check(), then the host's
 * facts (the cgroup tree, pasta, a pinned root filesystem, the standing
 * warnings the user acknowledged) into @h, then ltd_policy_decide(), then
 * whether each --publish host port can be listened on.  Reads the host;
 * changes nothing on it.
 */
int ltd_run_resolve(struct ltd_policy *p, struct ltd_run_host *h,
		    struct ltd_err *err);
/* pasta stopped, the rootfs lock released; the memory, as
 * ltd_launch_end()'s, left to the launcher's exit (decision 0132). */
void ltd_run_host_end(struct ltd_run_host *h);

/* How a run ended. */
struct ltd_run_result {
	enum ltd_run_end {
		LTD_RUN_EXITED,	     /* the command ended; @status */
		LTD_RUN_KILLED,	     /* the cage was killed from outside:
					init's wait @status; the first
					command's if @cmd_exited */
		LTD_RUN_EXEC_FAILED, /* the command could not run: @err */
		LTD_RUN_FAILED,	     /* set-up failed: @err */
	} end;
	int status; /* a wait status */
	bool cmd_exited;
	int cmd_status;
	bool in_cage; /* LTD_RUN_FAILED inside the cage: the host refused
			 something everything checked before clone allowed */
	struct ltd_err err;
};

/*
 * Run @p's command in a cage: build everything that can fail, clone the
 * cage, supervise it, report what the post-run checks find.  @h is what
 * ltd_run_resolve() found; @launcher_argv is main()'s argv, which the
 * cage's init wipes from its copy of the launcher's memory.  Fills @res;
 * prints nothing of its own about the outcome (the CLI does).
 */
/* The exit walk's index directory, for the project and the user's
 * writable binds: -1 where the walk keeps none (a review run with no bind
 * of its own, git's protection off) or it cannot be made.  Opened before
 * the run: init closes it with every other descriptor at its start. */
int ltd_run_walk_dir(const struct ltd_policy *p);

/* Before a project's first run (and a writable bind's), the exit walk's
 * index made in @index, quietly (protect/reposprime.c): the walk at the
 * run's end then tells what was there from what the command made, as at
 * any later run. */
void ltd_run_prime_walks(const struct ltd_policy *p, int index);

void ltd_run(const struct ltd_policy *p, struct ltd_run_host *h,
	     char **launcher_argv, struct ltd_run_result *res);

#endif
