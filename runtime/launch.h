/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The launcher's set-up as a table of named steps (ltd_launch_steps), run
 * in order by common/steps.h's loop on one state struct; then it
 * supervises the cage (runtime/supervise.c) and reports.  Internal to
 * runtime/ (run.c drives it); exported for the tests of its order.
 */
#ifndef LTD_RUNTIME_LAUNCH_H
#define LTD_RUNTIME_LAUNCH_H

#include <stdbool.h>
#include <sys/ioctl.h>
#include <time.h>

#include "common/steps.h"
#include "confine/landlock.h"
#include "dnsd/dnsd.h"
#include "netfilter/nflog.h"
#include "netfilter/ruleset.h"
#include "protect/agentinstr.h"
#include "protect/protected.h"
#include "review/run.h"
#include "runtime/cagens.h"
#include "runtime/dnsproc.h"
#include "runtime/lifecycle.h"
#include "runtime/limits.h"
#include "runtime/mountplan.h"
#include "runtime/run.h"

/* What the launcher learns from init. */
struct ltd_outcome {
	int type; /* last message type, 0 for none */
	int value;
	struct ltd_err err;
	bool started;
	bool cmd_exited; /* --keep-running: the first command's status */
	int cmd_status;
	int init_status; /* init ended without a word: how */
};

/* The DNS filter's side of the run (allowlist mode). */
struct ltd_launch_net {
	struct ltd_dnsproc *dns;
	struct ltd_nflog *nflog;
	int audit_fd;	 /* -1: no --audit-log */
	bool dns_failed; /* the filter could not start: the run ends */
};

struct ltd_launch {
	const struct ltd_policy *p;
	struct ltd_run_host *host; /* what ltd_run_resolve() found */
	char **launcher_argv;

	struct ltd_limits_plan limits;
	struct ltd_cagens ns; /* allowlist: made before init, for pasta */
	/* --review (NULL without): ~20 KB of paths, which the launch's
	 * state on the stack held for every run, written whole by
	 * LTD_LAUNCH_INIT and kept for the whole wait. */
	struct ltd_review_run *review;
	struct ltd_cgroup cg;
	struct ltd_nft_batch nft[2]; /* logging, plain */
	struct ltd_dnsd_config dns_cfg;
	struct ltd_dnsproc dns;
	struct ltd_nflog nflog;
	struct ltd_launch_net net;
	bool dns_on; /* the helper is configured: it starts with the cage */
	struct ltd_plan plan;
	char **envp;
	struct ltd_landlock ll;
	struct ltd_life life;
	bool want_pty;
	struct winsize ws;
	int sv[2];	/* init's report socket: ours, init's */
	int self_pidfd; /* init dies with it */

	/* What the post-run checks compare with. */
	struct ltd_protected_id *protected_before;
	struct ltd_agentinstr *instr_before; /* protect/agentinstr.h */
	bool root_was_gitdir;
	struct timespec started;
	int walk_dir; /* the exit walk's index directory, or -1 */

	bool net_helper;
	bool pasta_ready;    /* allowlist: pasta said so */
	bool net_ready_sent; /* ... and the DNS filter: init was told */
	pid_t init;
	int init_pidfd;
	struct ltd_outcome out;
};

#define LTD_LAUNCH_INIT(pol, h, argv)                                          \
	{                                                                      \
		.p = (pol), .host = (h), .launcher_argv = (argv),              \
		.ns = LTD_CAGENS_INIT, .cg = {.fd = -1},                       \
		.dns = LTD_DNSPROC_INIT, .nflog = {.fd = -1},                  \
		.net = {.audit_fd = -1},                                       \
		.life = {.reg_dir = -1,                                        \
			 .reg_fd = -1,                                         \
			 .ctl_fd = -1,                                         \
			 .cgroup_fd = -1,                                      \
			 .relay = {.master = -1},                              \
			 .outs = LTD_OUTPUTS_INIT},                            \
		.sv = {-1, -1}, .self_pidfd = -1, .init = -1,                  \
		.init_pidfd = -1, .walk_dir = -1,                              \
	}

/* Everything before the command can run, in order: each step one line of
 * "why".  Allowlist: pasta starts early ("network"); the last clones
 * init. */
extern const struct ltd_step ltd_launch_steps[];

/*
 * Relay signals to init until it reports the command's end (by then init
 * has killed and reaped the rest of the cage) or dies; collect what it
 * says into @l->out.
 */
int ltd_launch_supervise(struct ltd_launch *l, struct ltd_err *err);

/* Init killed (with what is left in its namespace) and reaped, by its
 * pidfd; @l->init is -1 after. */
void ltd_launch_cage_gone(struct ltd_launch *l);
/* Init killed, not waited for: it ends beside what the launcher does
 * next; ltd_launch_cage_gone() reaps it. */
void ltd_launch_cage_kill(struct ltd_launch *l);

/* What the launch holds on the host, released: pasta, the cgroup (the
 * cage gone first), the DNS filter, descriptors and locks.  Its memory is
 * not freed: the launcher exits right after, and freeing would write to
 * pages it shares with init, copied on write then (decision 0132). */
void ltd_launch_end(struct ltd_launch *l);

#endif
