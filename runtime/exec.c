// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `ltd-native exec NAME [--] CMD...`: run CMD as a process of a running
 * named cage.
 *
 * The launcher of NAME hands over init's namespaces and root (over its
 * control socket, to the user's own processes only).  We turn
 * non-dumpable first, join the namespaces with setns() (user first: it
 * gives the capabilities the others need), take the cage's root with
 * fchdir + chroot, and fork: only a child enters the cage's pid
 * namespace.  The child runs the command's own steps (the same table as
 * the first command: session, terminal, signals, chdir, fds, caps,
 * no_new_privs, Landlock with the first command's ruleset, seccomp) and
 * execs CMD.  We stay outside the
 * pid namespace, relay the terminal (or the output to it) and signals, and
 * return CMD's status.
 *
 * While the child joins, the cage can see its pid in /proc, and nothing
 * else: it is non-dumpable (its /proc files, exe included, belong to the
 * host's root; it cannot be ptraced) and its memory's user namespace is
 * the host's, so nothing in the cage has the capability that would pass
 * that check.  This binary is never exec'd from inside (CVE-2019-5736);
 * after execve the process is CMD, with the environment of the cage.
 */
#include "runtime/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/signals.h"
#include "common/text.h"
#include "confine/landlock.h"
#include "confine/seccomp.h"
#include "runtime/cage.h"
#include "runtime/lifecycle.h"
#include "runtime/limits.h"
#include "runtime/outputs.h"
#include "runtime/pty.h"
#include "runtime/registry.h"
#include "runtime/relay.h"
#include "runtime/run.h"

struct joined {
	struct ltd_exec_info info;
	char *env;
	char **envp;
	char *ll_bytes;
	struct ltd_landlock ll; /* the first command's ruleset */
	int fds[LTD_EXEC_FDS_MAX];
};

static void joined_free(struct joined *j)
{
	for (int i = 0; i < LTD_EXEC_FDS_MAX; i++)
		if (j->fds[i] >= 0)
			close(j->fds[i]);
	free(j->envp);
	free(j->env);
	free(j->ll_bytes);
	ltd_landlock_free(&j->ll);
}

/* "K=V\0K=V\0" -> a NULL-terminated vector into the same bytes. */
static char **split_env(char *env, size_t len)
{
	size_t n = 0, k = 0;
	char **v;

	for (size_t i = 0; i < len; i++)
		n += env[i] == '\0';
	v = calloc(n + 1, sizeof(char *));
	for (size_t i = 0; v && i < len; i += strlen(env + i) + 1)
		v[k++] = env + i;
	return v;
}

/* Find NAME, check its launcher is the process the entry names, get the
 * cage from it. */
static int find_cage(const char *name, struct joined *j, struct ltd_err *err)
{
	_cleanup_close_ int dir = -1, lpidfd = -1;
	struct ltd_entry e;
	int ret;

	dir = ltd_registry_open(err);
	if (dir < 0)
		return dir;
	ret = ltd_registry_load(dir, name, &e, err);
	if (ret < 0)
		return ret;
	lpidfd = ltd_pidfd_verified(e.launcher_pid, e.launcher_start);
	if (lpidfd < 0)
		return ltd_err_set(err, ESRCH,
				   "no cage named '%s' is running "
				   "(its launcher is gone)",
				   name);
	ret = ltd_life_request(dir, name, e.launcher_pid, &j->info, &j->env,
			       &j->ll_bytes, j->fds, err);
	if (ret < 0)
		return ret;
	ret = ltd_ll_unpack(&j->info, j->ll_bytes, &j->ll);
	if (ret < 0)
		return ltd_err_set(err, -ret,
				   "the launcher of '%s' sent a "
				   "malformed Landlock ruleset",
				   name);
	j->envp = split_env(j->env, j->info.env_len);
	return j->envp ? 0 : ltd_err_set(err, ENOMEM, "out of memory");
}

static uint64_t ns_id(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 ? (uint64_t)st.st_ino : 0;
}

/* setns into each namespace that is not already ours, user first; then
 * the cage's root.  (Joining the mount namespace already moves us to its
 * root, the pivoted one; the explicit chroot to the fd init opened after
 * pivot_root makes that independent of how the kernel picks it.) */
static int join(const struct joined *j, struct ltd_err *err)
{
	char path[32];

	for (int i = 0; i < LTD_NS_COUNT; i++) {
		_cleanup_close_ int own = -1;

		snprintf(path, sizeof(path), "/proc/self/ns/%s",
			 ltd_ns_names[i]);
		own = open(path, O_RDONLY | O_CLOEXEC);
		/* --network host: the cage's net namespace is ours. */
		if (own >= 0 && ns_id(own) == ns_id(j->fds[i]))
			continue;
		if (setns(j->fds[i], ltd_ns_types[i]) < 0)
			return ltd_err_sys(err, "join the cage's %s namespace",
					   ltd_ns_names[i]);
	}
	if (fchdir(j->fds[LTD_NS_COUNT]) < 0 || chroot(".") < 0 ||
	    chdir("/") < 0)
		return ltd_err_sys(err, "enter the cage's root");
	return 0;
}

/* The child, in the cage's pid namespace: tied to us, the cage's rlimits,
 * the output relay's pipes if any, then the command's steps. */
__attribute__((noreturn)) static void
child_main(struct ltd_cage *c, const struct joined *j, int parent_pidfd)
{
	struct ltd_limits_plan pl = {.rlimit_data = j->info.rlimit_data,
				     .rlimit_nproc = j->info.rlimit_nproc};
	struct pollfd pfd = {.fd = parent_pidfd, .events = POLLIN};
	struct ltd_err err = {0};

	close(c->exec_pipe[0]);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || poll(&pfd, 1, 0) != 0)
		_exit(LTD_EXIT_RUNTIME);
	if (ltd_limits_apply_rlimits(&pl, &err) < 0) {
		ltd_err_step(&err, "rlimits");
		(void)!write(c->exec_pipe[1], &err, sizeof(err));
		_exit(LTD_EXIT_RUNTIME);
	}
	if (ltd_outputs_attach(c->outputs, &err) < 0) {
		ltd_err_step(&err, "outputs");
		(void)!write(c->exec_pipe[1], &err, sizeof(err));
		_exit(LTD_EXIT_RUNTIME);
	}
	ltd_cage_command_main(c);
}

static pid_t spawn(struct ltd_cage *c, const struct joined *j, int *pidfd,
		   struct ltd_err *err)
{
	_cleanup_close_ int self = pidfd_open(getpid(), 0);
	struct clone_args args = {
		.flags = CLONE_PIDFD,
		.pidfd = (__u64)(uintptr_t)pidfd,
		.exit_signal = SIGCHLD,
	};
	long pid;

	if (self < 0)
		return ltd_err_sys(err, "pidfd_open");
	/* Into the cage's cgroup, where it has one: its limits hold for
	 * this process too. */
	if (j->info.has_cgroup) {
		args.flags |= CLONE_INTO_CGROUP;
		args.cgroup = (__u64)j->fds[LTD_NS_COUNT + 1];
	}
	if (pipe2(c->exec_pipe, O_CLOEXEC) < 0)
		return ltd_err_sys(err, "pipe");
	pid = syscall(SYS_clone3, &args, sizeof(args));
	if (pid < 0) {
		close(c->exec_pipe[0]);
		close(c->exec_pipe[1]);
		return ltd_err_sys(err, "fork into the cage");
	}
	if (pid == 0)
		child_main(c, j, self);
	return (pid_t)pid;
}

/* Relay signals and the terminal (or what goes to it) until the command
 * ends, then what it left in the pipes. */
static int wait_command(int pidfd, struct ltd_relay *r, struct ltd_outputs *o,
			struct ltd_err *err)
{
	_cleanup_close_ int sfd = ltd_signals_fd(err);
	struct pollfd pfd[2 + LTD_RELAY_POLLFDS + LTD_OUTPUTS_POLLFDS];
	siginfo_t si = {0};

	if (sfd < 0)
		return sfd;
	for (;;) {
		struct signalfd_siginfo ssi;

		pfd[0] = (struct pollfd){.fd = sfd, .events = POLLIN};
		pfd[1] = (struct pollfd){.fd = pidfd, .events = POLLIN};
		/* Fixed places; an unused entry is -1, which poll skips. */
		ltd_relay_pollfds(r, &pfd[2]);
		ltd_outputs_pollfds(o, &pfd[2 + LTD_RELAY_POLLFDS]);
		if (poll(pfd, sizeof(pfd) / sizeof(pfd[0]), -1) < 0) {
			if (errno == EINTR)
				continue;
			return ltd_err_sys(err, "poll");
		}
		ltd_relay_dispatch(r, &pfd[2], LTD_RELAY_POLLFDS);
		ltd_outputs_dispatch(o, &pfd[2 + LTD_RELAY_POLLFDS],
				     LTD_OUTPUTS_POLLFDS);
		if (pfd[0].revents &&
		    read(sfd, &ssi, sizeof(ssi)) == (ssize_t)sizeof(ssi) &&
		    ssi.ssi_signo != SIGCHLD) {
			if (ssi.ssi_signo == SIGWINCH && r->master >= 0)
				ltd_relay_winch(r);
			else
				pidfd_send_signal(pidfd, (int)ssi.ssi_signo,
						  NULL, 0);
		}
		if (pfd[1].revents)
			break;
	}
	if (waitid(P_PIDFD, (id_t)pidfd, &si, WEXITED) < 0)
		return ltd_err_sys(err, "wait for the command");
	ltd_outputs_finish(o);
	ltd_relay_finish(r);
	return si.si_code == CLD_EXITED ? si.si_status : 128 + si.si_status;
}

int ltd_exec(const char *name, char **argv, int *status, struct ltd_err *err)
{
	struct joined j = {.fds = {-1, -1, -1, -1, -1, -1, -1, -1, -1}};
	struct ltd_policy pol = {0};
	struct ltd_relay relay = {.master = -1};
	struct ltd_outputs outs = LTD_OUTPUTS_INIT;
	struct ltd_cage c = {.pty_slave = -1, .outputs = {-1, -1}};
	struct winsize ws = {0};
	_cleanup_close_ int pidfd = -1;
	int master = -1, ret;

	/* Before anything of the cage is near us. */
	if (prctl(PR_SET_DUMPABLE, 0) < 0) {
		ret = ltd_err_sys(err, "PR_SET_DUMPABLE");
		goto out;
	}
	ret = find_cage(name, &j, err);
	outs.allow_clipboard = j.info.allow_clipboard;
	if (!ret && ltd_pty_wanted())
		ioctl(STDIN_FILENO, TIOCGWINSZ, &ws);
	else if (!ret)
		ret = ltd_outputs_prepare(&outs, err);
	if (!ret)
		ret = ltd_signals_block(err);
	if (!ret)
		ret = join(&j, err);
	/* The terminal comes from the cage's own devpts, as the first
	 * command's did. */
	if (!ret && ltd_pty_wanted())
		/* A devpts of its own: the agent must not read what a user
		 * types into an exec session (ttyname() finds no path). */
		ret = ltd_pty_open(&master, &c.pty_slave, &ws, true, err);
	if (ret < 0)
		goto out;
	pol.chdir = j.info.cwd;
	pol.project = j.info.cwd;
	pol.argv = argv;
	c.policy = &pol;
	c.seccomp = ltd_cage_filter(j.info.seccomp);
	c.landlock = &j.ll;
	c.envp = j.envp;
	c.outputs[0] = outs.cmd[0];
	c.outputs[1] = outs.cmd[1];
	ret = spawn(&c, &j, &pidfd, err);
	if (c.pty_slave >= 0)
		close(c.pty_slave);
	ltd_outputs_cloned(&outs);
	if (ret < 0)
		goto out;
	ret = ltd_cage_wait_exec(&c, err);
	if (ret < 0) {
		waitid(P_PIDFD, (id_t)pidfd, &(siginfo_t){0}, WEXITED);
		goto out;
	}
	if (master >= 0)
		ltd_relay_start(&relay, master, j.info.allow_clipboard);
	ret = wait_command(pidfd, &relay, &outs, err);
	ltd_relay_finish(&relay);
	if (relay.filter.dropped + ltd_outputs_dropped(&outs)) {
		ltd_term_plain(stderr);
		ltd_termfilter_report(stderr,
				      relay.filter.dropped +
					      ltd_outputs_dropped(&outs));
	}
	if (ret >= 0) {
		*status = ret;
		ret = 0;
	}
out:
	if (master >= 0 && relay.master < 0)
		close(master);
	ltd_outputs_finish(&outs);
	joined_free(&j);
	return ret;
}
