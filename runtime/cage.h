/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cage: its init (pid 1 of the new pid namespace) and the command it
 * starts.  Everything here runs after clone(); everything it needs was
 * built and checked by the launcher before.
 */
#ifndef LTD_CAGE_H
#define LTD_CAGE_H

#include <stdbool.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "common/error.h"
#include "common/steps.h"
#include "policy/policy.h"
#include "runtime/mounts.h"
#include "runtime/netns.h"

struct ltd_bpf;
struct ltd_landlock;
struct ltd_limits_plan;
struct ltd_nft_batch;

/* What init tells the launcher over the setup socket, one per datagram. */
enum ltd_msg_type {
	LTD_MSG_SETUP_ERROR = 1, /* a setup step failed: exit 125 */
	LTD_MSG_EXEC_ERROR,	 /* execve failed: 126 or 127 */
	LTD_MSG_STARTED,	 /* the command runs; value = its pid in cage */
	LTD_MSG_EXITED,		 /* value = the command's wait status */
	LTD_MSG_NET_READY,	 /* launcher -> init: pasta serves the cage */
	LTD_MSG_DNS_FDS,	 /* SCM_RIGHTS: DNS UDP, DNS TCP, netfilter,
				    NFLOG (LTD_DNS_FDS) */
	LTD_MSG_NS_FDS,		 /* SCM_RIGHTS: the LTD_NS_* namespaces of
				    init, then its root (for exec, ids) */
	LTD_MSG_PTY,		 /* SCM_RIGHTS: the command's pty master */
	LTD_MSG_CMD_EXITED,	 /* --keep-running: the first command ended
				    (value = wait status); the cage goes on */
};

/* Most descriptors one message carries. */
#define LTD_MSG_MAX_FDS 8

#define LTD_DNS_FDS 4

/* LTD_MSG_DNS_FDS value: the fourth descriptor is a stand-in, no NFLOG. */
#define LTD_NFLOG_OFF 1

struct ltd_msg {
	int type;
	int value;
	struct ltd_err err;
};

/* Everything the cage needs, prepared by the launcher before clone(). */
struct ltd_cage {
	const struct ltd_policy *policy;
	const struct ltd_plan *plan;
	const struct ltd_bpf *seccomp;	     /* NULL: no filter */
	const struct ltd_landlock *landlock; /* from the plan; abi 0: none */
	const struct ltd_nft_batch *nft;     /* NULL: no network (none mode) */
	const struct ltd_nft_batch *nft_plain; /* the same, no NFLOG */
	bool nflog_off; /* the kernel took only the plain batch */
	const struct ltd_limits_plan *limits; /* rlimits unless in a cgroup */
	char **envp;
	int sock;	      /* init's end of the setup socket */
	int launcher_pidfd;   /* to notice a launcher that died before us */
	char **launcher_argv; /* wiped: /proc/1/cmdline would show it */
	bool send_ns;	      /* hand the namespaces to the launcher */
	bool want_pty;	      /* the command gets a pty of the cage's own */
	int outputs[2];	      /* its fd 1, 2: relay pipes, or -1: ours */
	struct winsize ws;    /* its first size */
	bool keep_running;    /* the cage outlives the first command */
	bool ns_made;	      /* allowlist: cloned into the user and network
				 namespaces made before it, id maps written
				 (runtime/cagens.c) */

	/* state while init builds the cage */
	struct ltd_mount_state mnt;
	bool net_helper;      /* --network none, 2+ CPUs: netns.c's helper */
	struct ltd_netns net; /* its state */
	int exec_pipe[2];     /* command -> init: why execve failed */
	int pty_slave;	      /* the command's terminal, -1 for none */
	pid_t cmd_pid;
};

/* The ordered setup steps, exported so tests and --explain can list them. */
extern const struct ltd_step ltd_init_steps[];
extern const struct ltd_step ltd_command_steps[];

/* Run as pid 1 of the cage; never returns. */
__attribute__((noreturn)) void ltd_cage_init(struct ltd_cage *c);

/*
 * In a forked child: run ltd_command_steps and execvp c->policy->argv with
 * c->envp; on failure write the error to c->exec_pipe[1] and _exit(127).
 * Shared by the first command (init's child) and `exec`.
 */
__attribute__((noreturn)) void ltd_cage_command_main(struct ltd_cage *c);

/* In the parent: close our end of the pipe's write side, wait for execve
 * (0) or the error the child wrote. */
int ltd_cage_wait_exec(struct ltd_cage *c, struct ltd_err *err);

/* The system-call filter the policy's @filter (enum ltd_syscall_filter)
 * names: NULL only for LTD_FILTER_OFF; any value it does not know is the
 * enforcing filter (fails closed). */
const struct ltd_bpf *ltd_cage_filter(int filter);

/* Send one message with up to LTD_MSG_MAX_FDS descriptors. */
int ltd_msg_send_fds(int sock, int type, int value, const int *fds, size_t n);

/* The descriptors a received message carried: at most @max into @fds (the
 * rest closed); returns how many. */
size_t ltd_msg_take_fds(struct msghdr *mh, int *fds, size_t max);

#endif
