// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Cage init: pid 1 of the new pid namespace.  It builds the cage from the
 * ordered steps below while it still holds capabilities in its own user
 * namespace, starts the command, drops its own privileges, and then only
 * forwards signals and reaps.  When it exits the kernel kills everything
 * left in the pid namespace, so nothing outlives the run.
 */
#include "runtime/cage.h"

#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/pidfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base.h"
#include "common/cleanup.h"
#include "common/signals.h"
#include "common/spawn.h"
#include "confine/caps.h"
#include "confine/landlock.h"
#include "confine/seccomp.h"
#include "dnsd/dnsd.h"
#include "netfilter/nflog.h"
#include "netfilter/nft.h"
#include "runtime/limits.h"
#include "runtime/memtrim.h"
#include "runtime/outputs.h"
#include "runtime/pty.h"
#include "runtime/registry.h"
#include "runtime/testhooks.h"

extern char **environ;

static void send_msg(int sock, int type, int value, const struct ltd_err *err)
{
	struct ltd_msg m = {.type = type, .value = value};

	if (err)
		m.err = *err;
	/* Best effort: a launcher that is gone takes us with it anyway. */
	(void)!send(sock, &m, sizeof(m), MSG_NOSIGNAL);
}

static int write_file(const char *path, const char *text, struct ltd_err *err)
{
	_cleanup_close_ int fd = open(path, O_WRONLY | O_CLOEXEC);
	size_t len = strlen(text);

	if (fd < 0 || write(fd, text, len) != (ssize_t)len)
		return ltd_err_sys(err, "write %s", path);
	return 0;
}

static int step_die_with_launcher(void *ctx, struct ltd_err *err)
{
	struct ltd_cage *c = ctx;
	struct pollfd pfd = {.fd = c->launcher_pidfd, .events = POLLIN};

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		return ltd_err_sys(err, "PR_SET_PDEATHSIG");
	/* The launcher may have died before the line above took effect. */
	if (poll(&pfd, 1, 0) != 0)
		return ltd_err_set(err, ESRCH, "the launcher is gone");
	ltd_closep(&c->launcher_pidfd);
	c->launcher_pidfd = -1;
	return 0;
}

static int step_non_dumpable(void *ctx, struct ltd_err *err)
{
	/* Allowlist too: pasta joins namespaces made before init
	 * (runtime/cagens.c), not init's /proc/PID/ns. */
	if (prctl(PR_SET_DUMPABLE, 0) < 0)
		return ltd_err_sys(err, "PR_SET_DUMPABLE");
	return 0;
}

/*
 * Init is a copy of the launcher: its memory still holds the launcher's
 * environment and arguments, which /proc/1/environ and /proc/1/cmdline
 * would show.  Non-dumpable hides environ; wipe both anyway.
 */
static int step_scrub_memory(void *ctx, struct ltd_err *err)
{
	struct ltd_cage *c = ctx;
	char **a = c->launcher_argv;
	size_t len;

	for (char **e = environ; e && *e; e++)
		explicit_bzero(*e, strlen(*e));
	environ = NULL;
	/* The kernel shows the argument area as it is now: from argv[0] to
	 * the end of the last argument, contiguous on the initial stack. */
	if (a && a[0]) {
		while (a[1])
			a++;
		len = (size_t)(a[0] + strlen(a[0]) - c->launcher_argv[0]);
		explicit_bzero(c->launcher_argv[0], len);
		snprintf(c->launcher_argv[0], len + 1, "ltd-init");
	}
	prctl(PR_SET_NAME, "ltd-init");
	return 0;
}

/* Close every descriptor above 2 but @keep (which is above 2). */
static int close_fds_but(int keep, struct ltd_err *err)
{
	if (keep > 3 && close_range(3, (unsigned)keep - 1, 0) < 0)
		return ltd_err_sys(err, "close_range");
	if (close_range((unsigned)keep + 1, ~0U, 0) < 0)
		return ltd_err_sys(err, "close_range");
	return 0;
}

static int step_outputs(void *ctx, struct ltd_err *err)
{
	struct ltd_cage *c = ctx;
	return ltd_outputs_attach(c->outputs, err);
}

static int step_close_fds(void *ctx, struct ltd_err *err)
{
	struct ltd_cage *c = ctx;
	return close_fds_but(c->sock, err);
}

static int step_id_maps(void *ctx, struct ltd_err *err)
{
	struct ltd_cage *c = ctx;
	const struct ltd_identity *id = &c->policy->id;
	char map[64];
	int ret;

	/* Allowlist: written by the namespaces' maker, in the same way. */
	if (c->ns_made)
		return 0;
	/* Unprivileged: one id each, mapped to itself, and no setgroups so
	 * a group cannot be dropped to get past a deny-by-group rule. */
	ret = write_file("/proc/self/setgroups", "deny", err);
	snprintf(map, sizeof(map), "%u %u 1\n", (unsigned)id->uid,
		 (unsigned)id->uid);
	if (!ret)
		ret = write_file("/proc/self/uid_map", map, err);
	snprintf(map, sizeof(map), "%u %u 1\n", (unsigned)id->gid,
		 (unsigned)id->gid);
	if (!ret)
		ret = write_file("/proc/self/gid_map", map, err);
	return ret;
}

/*
 * Without a cgroup of its own the cage gets rlimits, set here, inside its
 * user namespace: the kernel counts RLIMIT_NPROC per user namespace, so the
 * bound covers the cage's processes and not the user's others (set in the
 * launcher, before clone, it would count those too).
 */
static int step_rlimits(void *ctx, struct ltd_err *err)
{
	struct ltd_cage *c = ctx;
	if (!c->limits || c->limits->cgroup)
		return 0;
	return ltd_limits_apply_rlimits(c->limits, err);
}

static int step_new_session(void *ctx, struct ltd_err *err)
{
	if (setsid() < 0)
		return ltd_err_sys(err, "setsid");
	return 0;
}

static int step_hostname(void *ctx, struct ltd_err *err)
{
	struct ltd_cage *c = ctx;
	const char *h = c->policy->hostname ? c->policy->hostname
					    : LTD_DEFAULT_HOSTNAME;

	if (sethostname(h, strlen(h)) < 0)
		return ltd_err_sys(err, "sethostname");
	return 0;
}

/* --network none with a second CPU: the namespace comes from a helper,
 * made while the mounts are (runtime/netns.c); init is in the host's until
 * network-join. */
static int step_network_start(void *ctx, struct ltd_err *err)
{
	struct ltd_cage *c = ctx;
	return c->net_helper ? ltd_netns_start(&c->net, err) : 0;
}

static int step_network_join(void *ctx, struct ltd_err *err)
{
	struct ltd_cage *c = ctx;
	return c->net_helper ? ltd_netns_join(&c->net, err) : 0;
}

static int step_loopback(void *ctx, struct ltd_err *err)
{
	struct ltd_cage *c = ctx;
	/* --network host: the host's lo, which is not ours to touch; the
	 * helper's namespace: it brought its lo up. */
	if (c->policy->network == LTD_NET_HOST || c->net_helper)
		return 0;
	return ltd_netns_lo_up(err);
}

/* The egress firewall, one atomic batch, before any other process runs in
 * this namespace and before pasta can deliver a packet to it. */
static int step_firewall(void *ctx, struct ltd_err *err)
{
	struct ltd_cage *c = ctx;
	struct ltd_err first = {0};
	int ret;

	if (!c->nft)
		return 0;
	ret = ltd_nft_send(-1, c->nft, &first);
	if (ret == 0)
		return 0;
	/* A kernel without NFLOG refuses the log expressions: the same
	 * firewall without them, and no report of refused connections. */
	ret = ltd_nft_send(-1, c->nft_plain, err);
	if (ret < 0)
		return ret;
	c->nflog_off = true;
	return 0;
}

/*
 * The DNS filter's sockets and the NFLOG socket, opened here because only
 * init is in the cage's network namespace with CAP_NET_ADMIN (the
 * netfilter sockets keep the opener's credentials, so the launcher can add
 * set elements through one later; the other is bound to the group the
 * refusing rules log to) and CAP_NET_BIND_SERVICE (port 53).  The launcher
 * serves them; init keeps no copy.
 */
static int step_dns_sockets(void *ctx, struct ltd_err *err)
{
	struct ltd_cage *c = ctx;
	int fds[LTD_DNS_FDS], value = 0, ret;

	if (!c->nft)
		return 0;
	ret = ltd_dns_open_sockets(fds, err);
	if (ret < 0)
		return ret;
	fds[3] = c->nflog_off ? -1 : ltd_nflog_open(err);
	if (fds[3] < 0) {
		/* No NFLOG here: a stand-in descriptor, and the launcher
		 * is told to say so rather than listen. */
		*err = (struct ltd_err){0};
		value = LTD_NFLOG_OFF;
		fds[3] = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (fds[3] < 0) {
			ret = ltd_err_sys(err, "open /dev/null");
			for (int i = 0; i < 3; i++)
				close(fds[i]);
			return ret;
		}
	}
	ret = ltd_msg_send_fds(c->sock, LTD_MSG_DNS_FDS, value, fds,
			       LTD_DNS_FDS);
	for (int i = 0; i < LTD_DNS_FDS; i++)
		close(fds[i]);
	if (ret < 0) {
		errno = -ret;
		return ltd_err_sys(err, "hand the DNS and NFLOG sockets to "
					"the launcher");
	}
	return 0;
}

static int step_mount_private(void *ctx, struct ltd_err *err)
{
	return ltd_mounts_make_private(err);
}

static int step_open_sources(void *ctx, struct ltd_err *err)
{
	struct ltd_cage *c = ctx;
	return ltd_mounts_open_sources(c->plan, &c->mnt, err);
}

static int step_root_tmpfs(void *ctx, struct ltd_err *err)
{
	struct ltd_cage *c = ctx;
	return ltd_mounts_make_root(c->plan, &c->mnt, err);
}

static int step_mount_plan(void *ctx, struct ltd_err *err)
{
	struct ltd_cage *c = ctx;
	return ltd_mounts_apply(c->plan, &c->mnt, err);
}

static int step_pivot_root(void *ctx, struct ltd_err *err)
{
	struct ltd_cage *c = ctx;
	return ltd_mounts_pivot(&c->mnt, err);
}

/*
 * What the launcher needs to serve `exec` and report namespace ids: init's
 * namespaces and its root, opened here (a non-dumpable init's
 * /proc/PID/ns cannot be opened from outside, and should not be), and the
 * command's terminal, from the cage's own devpts.  The launcher holds
 * them; nothing in the cage can reach the launcher.
 */
static int step_handover(void *ctx, struct ltd_err *err)
{
	struct ltd_cage *c = ctx;
	int fds[LTD_NS_COUNT + 1], master = -1, ret = 0;
	char path[32];
	size_t n = 0;

	for (int i = 0; c->send_ns && i < LTD_NS_COUNT && !ret; i++) {
		snprintf(path, sizeof(path), "/proc/self/ns/%s",
			 ltd_ns_names[i]);
		fds[n] = open(path, O_RDONLY | O_CLOEXEC);
		if (fds[n] < 0)
			ret = ltd_err_sys(err, "open %s", path);
		else
			n++;
	}
	if (c->send_ns && !ret) {
		fds[n] = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (fds[n] < 0)
			ret = ltd_err_sys(err, "open /");
		else
			n++;
	}
	if (!ret && n &&
	    (ret = ltd_msg_send_fds(c->sock, LTD_MSG_NS_FDS, 0, fds, n)) < 0)
		ret = ltd_err_set(err, -ret,
				  "hand the namespaces to the "
				  "launcher");
	while (n > 0)
		close(fds[--n]);
	if (ret < 0 || !c->want_pty)
		return ret;
	/* The first command's terminal: the cage's own devpts (its own
	 * processes share its trust; `tty` and ttyname() work). */
	ret = ltd_pty_open(&master, &c->pty_slave, &c->ws, false, err);
	if (ret < 0)
		return ret;
	ret = ltd_msg_send_fds(c->sock, LTD_MSG_PTY, 0, &master, 1);
	close(master);
	if (ret < 0)
		return ltd_err_set(err, -ret,
				   "hand the terminal to the "
				   "launcher");
	return 0;
}

/* In order.  The launcher has checked everything a user can fix; a failure
 * here is the host refusing something, reported with the step's name. */
const struct ltd_step ltd_init_steps[] = {
	{"die-with-launcher", "a SIGKILLed launcher takes the cage with it",
	 step_die_with_launcher},
	{"scrub-memory", "the launcher's environment stays outside",
	 step_scrub_memory},
	{"outputs",
	 "stdout and stderr: the launcher's relay where either is a "
	 "terminal",
	 step_outputs},
	{"close-fds", "no inherited descriptor reaches the cage",
	 step_close_fds},
	{"id-maps",
	 "the invoking user's own uid/gid, setgroups denied; "
	 "while /proc/self is still ours to write",
	 step_id_maps},
	{"non-dumpable", "no /proc/1/exe, /proc/1/mem or ptrace from inside",
	 step_non_dumpable},
	{"rlimits",
	 "no delegated cgroup: memory per process, pids per user "
	 "namespace (the cage's own count)",
	 step_rlimits},
	{"new-session", "terminal signals reach the launcher only, once",
	 step_new_session},
	{"hostname", "a sandbox host name", step_hostname},
	{"network-start",
	 "--network none: a helper makes the namespace while the mounts are "
	 "made (a non-dumpable copy of init)",
	 step_network_start},
	{"loopback", "lo up in the new network namespace", step_loopback},
	{"firewall", "default-deny egress, while we still hold CAP_NET_ADMIN",
	 step_firewall},
	{"dns-sockets",
	 "the launcher's DNS filter serves the cage's "
	 "resolver and feeds its firewall, and reads its refusals (NFLOG), "
	 "from outside",
	 step_dns_sockets},
	{"mount-private", "no mount event propagates to the host",
	 step_mount_private},
	{"open-sources", "clone host sources while host paths are visible",
	 step_open_sources},
	{"root-tmpfs", "a fresh, empty root", step_root_tmpfs},
	{"mount-plan", "rootfs, /etc, /dev, /proc, /tmp, home, project, binds",
	 step_mount_plan},
	{"network-join",
	 "--network none: init enters the helper's namespace, and checks",
	 step_network_join},
	{"pivot-root", "enter the new root, detach the host's",
	 step_pivot_root},
	{"handover",
	 "namespaces for exec and the command's terminal (from "
	 "the cage's devpts) to the launcher",
	 step_handover},
	{NULL, NULL, NULL},
};

static int cmd_new_session(void *ctx, struct ltd_err *err)
{
	if (setsid() < 0)
		return ltd_err_sys(err, "setsid");
	return 0;
}

static int cmd_terminal(void *ctx, struct ltd_err *err)
{
	struct ltd_cage *c = ctx;
	return c->pty_slave >= 0 ? ltd_pty_attach(c->pty_slave, err) : 0;
}

static int cmd_signals(void *ctx, struct ltd_err *err)
{
	return ltd_signals_reset(err);
}

static int cmd_chdir(void *ctx, struct ltd_err *err)
{
	struct ltd_cage *c = ctx;
	const char *dir =
		c->policy->chdir ? c->policy->chdir : c->policy->project;

	if (chdir(dir) < 0)
		return ltd_err_sys(err, "--chdir '%s'", dir);
	return 0;
}

static int cmd_close_fds(void *ctx, struct ltd_err *err)
{
	struct ltd_cage *c = ctx;
	/* Only stdio and the close-on-exec error pipe remain. */
	return close_fds_but(c->exec_pipe[1], err);
}

static int cmd_drop_caps(void *ctx, struct ltd_err *err)
{
	return ltd_caps_drop_all(err);
}

static int cmd_no_new_privs(void *ctx, struct ltd_err *err)
{
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return ltd_err_sys(err, "PR_SET_NO_NEW_PRIVS");
	return 0;
}

static int cmd_landlock(void *ctx, struct ltd_err *err)
{
	struct ltd_cage *c = ctx;
	return ltd_landlock_confine(c->landlock, err);
}

static int cmd_seccomp(void *ctx, struct ltd_err *err)
{
	struct ltd_cage *c = ctx;
	return c->seccomp ? ltd_seccomp_load(c->seccomp, err) : 0;
}

/* The command's own steps, after fork from init.  Seccomp comes last: the
 * filter is the tightest, and every step before needs syscalls it denies. */
const struct ltd_step ltd_command_steps[] = {
	{"new-session", "the command leads a session with no terminal of ours",
	 cmd_new_session},
	{"terminal",
	 "a pty of the cage's own as controlling terminal and "
	 "stdio, before seccomp",
	 cmd_terminal},
	{"signals", "default dispositions, nothing blocked", cmd_signals},
	{"chdir", "start in the project or --chdir", cmd_chdir},
	{"close-fds", "every fd above 2 closed", cmd_close_fds},
	{"drop-caps", "every capability set empty, securebits locked",
	 cmd_drop_caps},
	{"no-new-privs", "no setuid or file capability gains",
	 cmd_no_new_privs},
	{"landlock",
	 "writes only where the mount plan grants them, no "
	 "file outside the cage even through an inherited "
	 "descriptor",
	 cmd_landlock},
	{"seccomp", "the syscall filter, last before execve", cmd_seccomp},
	{NULL, NULL, NULL},
};

__attribute__((noreturn)) void ltd_cage_command_main(struct ltd_cage *c)
{
	struct ltd_err err = {0};

	if (ltd_steps_run(ltd_command_steps, c, ltd_test_before_command,
			  &err) == 0) {
		environ = c->envp;
		execvp(c->policy->argv[0], c->policy->argv);
		ltd_err_sys(&err, "cannot execute '%s'", c->policy->argv[0]);
		ltd_err_step(&err, "exec");
	}
	(void)!write(c->exec_pipe[1], &err, sizeof(err));
	_exit(127);
}

/*
 * The command starts as posix_spawn() starts a program: in init's memory
 * (CLONE_VM) while init waits (CLONE_VFORK), until execve gives it its own.
 * A fork would copy init's page tables and fault every page it touches:
 * ~115 us of every start here.  What the steps change is per task (creds,
 * capabilities, no_new_privs, Landlock, seccomp, session) or in the
 * descriptor table (not shared: no CLONE_FILES); the one shared write is
 * environ, which init no longer reads.
 */

static int command_start(void *arg)
{
	struct ltd_cage *c = arg;

	close(c->exec_pipe[0]);
	ltd_cage_command_main(c);
}

/* Wait for execve: the pipe closes on success or carries the error. */
int ltd_cage_wait_exec(struct ltd_cage *c, struct ltd_err *err)
{
	ssize_t n;

	close(c->exec_pipe[1]);
	do
		n = read(c->exec_pipe[0], err, sizeof(*err));
	while (n < 0 && errno == EINTR);
	close(c->exec_pipe[0]);
	if (n == (ssize_t)sizeof(*err))
		return -err->code;
	return 0;
}

static int spawn_command(struct ltd_cage *c, struct ltd_err *err)
{
	size_t argc = 0;

	if (pipe2(c->exec_pipe, O_CLOEXEC) < 0)
		return ltd_err_sys(err, "pipe");
	/* Its stack is sized from argc too: execvp's no-#! fallback copies
	 * argv onto it.  It starts with every signal blocked; its step
	 * "signals" sets them as the command gets them. */
	while (c->policy->argv[argc])
		argc++;
	c->cmd_pid = ltd_spawn_shared(command_start, c, 0,
				      256 * 1024 + (argc + 8) * sizeof(char *),
				      NULL, err);
	if (c->cmd_pid < 0)
		return ltd_err_prefix(err, "start the command");
	/* Init keeps no handle on the command's terminal. */
	if (c->pty_slave >= 0)
		close(c->pty_slave);
	c->pty_slave = -1;
	return ltd_cage_wait_exec(c, err);
}

/*
 * The command is done: kill whatever it left behind and reap it all, so
 * that when the launcher hears the status no process of the cage is left.
 * (Init's own exit, which tears down the namespaces, needs no waiting for.)
 */
static void end_cage(void)
{
	kill(-1, SIGKILL);
	while (waitpid(-1, NULL, __WALL) > 0 || errno == EINTR)
		;
}

/*
 * --keep-running: the first command's end does not end the cage.  A
 * terminating signal (what `ltd-native kill` sends) goes to every process
 * of the cage, and the cage ends when init has no child left; `kill`
 * follows up with SIGKILL after its grace period.
 */
static bool ends_cage(int sig)
{
	return sig == SIGTERM || sig == SIGINT || sig == SIGHUP;
}

/* Forward signals to the command, reap everything, report its status. */
LTD_WAIT_CODE __attribute__((noreturn, noinline)) static void
supervise(struct ltd_cage *c, int sfd)
{
	struct signalfd_siginfo si;
	bool ending = false;
	struct pollfd idle = {.fd = sfd, .events = POLLIN};
	struct ltd_trim trim;
	int status, first = 0;

	ltd_trim_start(&trim);
	for (;;) {
		pid_t pid;

		/* Once the cage has lived a while, what only the set-up
		 * needed is given back (decision 0140). */
		if (!trim.done) {
			int ready = poll(&idle, 1, ltd_trim_timeout(&trim));

			if (ready == 0)
				ltd_trim_if_due(&trim);
			else if (ready < 0 && errno != EINTR)
				trim.done = true; /* never mind the trim */
			if (ready <= 0)
				continue;
		}
		if (read(sfd, &si, sizeof(si)) != sizeof(si)) {
			if (errno == EINTR)
				continue;
			_exit(1);
		}
		if (si.ssi_signo != SIGCHLD) {
			/* After it is reaped its pid may be someone else's. */
			if (c->cmd_pid > 0)
				kill(c->cmd_pid, (int)si.ssi_signo);
			if (c->keep_running && ends_cage((int)si.ssi_signo)) {
				ending = true;
				kill(-1, (int)si.ssi_signo);
			}
		}
		while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
			if (pid != c->cmd_pid)
				continue; /* an orphan, reaped */
			first = status;
			c->cmd_pid = -1;
			if (c->keep_running && !ending) {
				send_msg(c->sock, LTD_MSG_CMD_EXITED, status,
					 NULL);
				continue;
			}
			end_cage();
			send_msg(c->sock, LTD_MSG_EXITED, status, NULL);
			_exit(0);
		}
		if (ending && c->cmd_pid < 0 && pid < 0 && errno == ECHILD) {
			end_cage();
			send_msg(c->sock, LTD_MSG_EXITED, first, NULL);
			_exit(0);
		}
	}
}

/*
 * In allowlist mode the command starts only once the launcher says pasta
 * serves the namespace and the DNS filter answers: their start-ups overlap
 * with the steps above.
 */
static int wait_network(struct ltd_cage *c, struct ltd_err *err)
{
	struct ltd_msg m;
	ssize_t n;

	if (!c->nft)
		return 0;
	do
		n = recv(c->sock, &m, sizeof(m), 0);
	while (n < 0 && errno == EINTR);
	if (n == (ssize_t)sizeof(m) && m.type == LTD_MSG_NET_READY)
		return 0;
	if (n < 0)
		return ltd_err_sys(err, "wait for the network");
	return ltd_err_set(err, ENETDOWN,
			   "the launcher did not bring the "
			   "network up");
}

void ltd_cage_init(struct ltd_cage *c)
{
	struct ltd_err err = {0};
	int sfd, ret;

	c->mnt.rootfd = -1;
	c->mnt.mask_dir = -1;
	c->net = (struct ltd_netns){.helper = -1, .ns = -1};
	c->pty_slave = -1;
	ret = ltd_steps_run(ltd_init_steps, c, ltd_test_before_init, &err);
	if (ret < 0) {
		send_msg(c->sock, LTD_MSG_SETUP_ERROR, 0, &err);
		_exit(1);
	}
	ret = wait_network(c, &err);
	if (ret < 0) {
		ltd_err_step(&err, "network-ready");
		send_msg(c->sock, LTD_MSG_SETUP_ERROR, 0, &err);
		_exit(1);
	}
	/* Signals stay blocked (the launcher blocked them before clone) and
	 * are read here; the command resets them before execve. */
	sfd = ltd_signals_fd(&err);
	if (sfd < 0) {
		ltd_err_step(&err, "signalfd");
		send_msg(c->sock, LTD_MSG_SETUP_ERROR, 0, &err);
		_exit(1);
	}
	/* Nothing of ltd-native's may count against --pids-limit. */
	ltd_netns_reap(&c->net);
	ret = spawn_command(c, &err);
	if (ret < 0) {
		int type = strcmp(err.step, "exec") == 0 ? LTD_MSG_EXEC_ERROR
							 : LTD_MSG_SETUP_ERROR;

		send_msg(c->sock, type, 0, &err);
		_exit(1);
	}
	/* Init keeps nothing it could be tricked into using.  It never calls
	 * execve, so clearing its capability sets is enough. */
	if (ltd_caps_clear(&err) < 0) {
		ltd_err_step(&err, "init-drop-caps");
		kill(c->cmd_pid, SIGKILL);
		send_msg(c->sock, LTD_MSG_SETUP_ERROR, 0, &err);
		_exit(1);
	}
	/* With a pidfd of the command when the launcher has a reader for
	 * its host pid (the registry, --info-fd, --json-status-fd: those
	 * that get the namespaces too). */
	{
		int pidfd = c->send_ns ? pidfd_open(c->cmd_pid, 0) : -1;

		ltd_msg_send_fds(c->sock, LTD_MSG_STARTED, c->cmd_pid, &pidfd,
				 pidfd >= 0 ? 1 : 0);
		if (pidfd >= 0)
			close(pidfd);
	}
	supervise(c, sfd);
}

const struct ltd_bpf *ltd_cage_filter(int filter)
{
	if (filter == LTD_FILTER_OFF)
		return NULL;
	return ltd_seccomp_program(filter == LTD_FILTER_LOG
					   ? LTD_SECCOMP_LOG
					   : LTD_SECCOMP_ENFORCE);
}
