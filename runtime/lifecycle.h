/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The launcher's side of the lifecycle: the registry entry of a named
 * cage, the control socket that `exec` asks for the cage's namespaces,
 * the status events, the terminal relays (a pty's, or a terminal's on
 * stdout or stderr through a pipe).  run.c calls these at the points
 * of its own sequence (before clone, on each message from init, in its
 * poll loop, at the end); this file knows no order of its own.
 */
#ifndef LTD_LIFECYCLE_H
#define LTD_LIFECYCLE_H

#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "common/error.h"
#include "policy/policy.h"
#include "runtime/outputs.h"
#include "runtime/relay.h"
#include "runtime/registry.h"

struct ltd_landlock;
struct ltd_limits_plan;

/* What `exec` gets from the launcher, in one datagram: this header, the
 * environment ("K=V\0K=V\0..."), the Landlock ruleset the first command
 * got (ltd_ll_pack()).  The descriptors are the LTD_NS_* namespaces, the
 * cage's root, and the cage's cgroup if any. */
struct ltd_exec_info {
	int32_t seccomp; /* enum ltd_syscall_filter */
	int32_t has_cgroup;
	uint64_t rlimit_data; /* 0: none (the cage has a cgroup, or none) */
	uint64_t rlimit_nproc;
	int32_t n_fds;
	uint32_t env_len;
	/* struct ltd_landlock without its arrays; they follow the env */
	int32_t ll_abi;
	uint32_t ll_len;
	uint64_t ll_handled_fs, ll_handled_net, ll_scoped;
	uint32_t ll_n_rules, ll_n_ports;
	int32_t allow_clipboard; /* --allow-clipboard: exec's relay too */
	char cwd[PATH_MAX];
};

/* Pure: @ll's ports and rules as bytes (and its scalars into @info);
 * ltd_ll_unpack() turns them back into a ruleset (ltd_landlock_free()). */
int ltd_ll_pack(const struct ltd_landlock *ll, struct ltd_exec_info *info,
		char **buf);
int ltd_ll_unpack(const struct ltd_exec_info *info, const char *buf,
		  struct ltd_landlock *ll);

#define LTD_EXEC_FDS_MAX (LTD_NS_COUNT + 2)
#define LTD_EXEC_ENV_MAX (128 * 1024)

struct ltd_life {
	const struct ltd_policy *p;
	int reg_dir;		   /* the registry directory, -1 if not named */
	int reg_fd;		   /* our entry, locked while we live */
	int ctl_fd;		   /* listening control socket */
	int fds[LTD_NS_COUNT + 1]; /* from init: namespaces, root */
	size_t n_fds;
	int cgroup_fd; /* the cage's cgroup dir (not ours), or -1 */
	struct ltd_exec_info info;
	char *env;
	char *ll; /* ltd_ll_pack()'s bytes */
	struct ltd_entry entry;
	struct ltd_status_ids {
		pid_t cmd_host, cmd_cage;
	} ids;
	struct ltd_relay relay;
	struct ltd_outputs outs; /* without a pty (ltd_outputs_prepare()) */
	bool cmd_exited;	 /* the first command's end was reported */
};

/* Before clone: claim the name, bind the control socket, check the fds. */
int ltd_life_prepare(struct ltd_life *l, const struct ltd_policy *p,
		     char **envp, const struct ltd_limits_plan *limits,
		     const struct ltd_landlock *ll, struct ltd_err *err);

/* After clone: init's pid; the cage's cgroup directory fd (or -1).  The
 * output relay's write ends are the cage's alone from now on. */
void ltd_life_cloned(struct ltd_life *l, pid_t init, int cgroup_fd);

/* Messages from init, with the descriptors they carried (now ours). */
void ltd_life_ns(struct ltd_life *l, const int *fds, size_t n);
void ltd_life_pty(struct ltd_life *l, int master);
void ltd_life_started(struct ltd_life *l, pid_t cmd_in_cage, int pidfd);
void ltd_life_cmd_exited(struct ltd_life *l, int status);
void ltd_life_ended(struct ltd_life *l, int status);

/* Poll entries (the control socket, the relays) and their handling. */
#define LTD_LIFE_POLLFDS (1 + LTD_RELAY_POLLFDS + LTD_OUTPUTS_POLLFDS)
size_t ltd_life_pollfds(struct ltd_life *l, struct pollfd *pfd);
void ltd_life_dispatch(struct ltd_life *l, const struct pollfd *pfd, size_t n);

/* True if a terminal relay runs (SIGWINCH is then ours, not the cage's). */
bool ltd_life_has_pty(const struct ltd_life *l);
void ltd_life_winch(struct ltd_life *l);

/* At the end, whatever happened: the command's output relayed, the
 * terminal restored, the entry removed. */
void ltd_life_finish(struct ltd_life *l);

/* For the exit report: what the terminal relays dropped. */
void ltd_life_report(const struct ltd_life *l, FILE *out);

/*
 * `exec`'s side: ask the launcher of NAME (whose pid @launcher the caller
 * has verified) for the cage.  The peer must be that very process.
 */
int ltd_life_request(int reg_dir, const char *name, pid_t launcher,
		     struct ltd_exec_info *info, char **env, char **ll,
		     int fds[LTD_EXEC_FDS_MAX], struct ltd_err *err);

#endif
