// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The launcher: everything a user can get wrong is checked and everything
 * that can be built is built here, before clone() (compile before clone).
 * Then it starts the cage's init in new namespaces, relays signals to it,
 * and turns what init reports into an exit status.  It never enters the
 * cage.
 */
#include "runtime/run.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/pidfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/signals.h"
#include "common/text.h"
#include "confine/landlock.h"
#include "confine/seccomp.h"
#include "dnsd/dnsd.h"
#include "netfilter/audit.h"
#include "netfilter/nflog.h"
#include "netfilter/pasta.h"
#include "netfilter/ruleset.h"
#include "protect/protect.h"
#include "protect/protected.h"
#include "protect/repos.h"
#include "runtime/cage.h"
#include "runtime/dnsproc.h"
#include "runtime/landlock_rules.h"
#include "runtime/lifecycle.h"
#include "runtime/limits.h"
#include "runtime/mountplan.h"
#include "runtime/outputs.h"
#include "runtime/pty.h"
#include "runtime/rootfs.h"
#include "runtime/state.h"

extern char **environ;

#define LTD_CLONE_FLAGS                                                        \
	(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC |           \
	 CLONE_NEWUTS | CLONE_NEWCGROUP | CLONE_NEWNET)

/* What the launcher learns from init. */
struct outcome {
	int type; /* last message type, 0 for none */
	int value;
	struct ltd_err err;
	bool started;
	bool cmd_exited; /* --keep-running: the first command's status */
	int cmd_status;
	int init_status; /* init ended without a word: how */
};

/*
 * --network none: the network namespace is made beside init's mounts by a
 * helper (runtime/netns.c) when the launcher may run on a second CPU; on
 * one, that would only add a fork, and clone3 makes it as before.
 */
static bool net_helper_pays(const struct ltd_policy *p)
{
	cpu_set_t cpus;

	return p->network == LTD_NET_NONE &&
	       sched_getaffinity(0, sizeof(cpus), &cpus) == 0 &&
	       CPU_COUNT(&cpus) >= 2;
}

/* Into the cage's cgroup (@cgroup_fd >= 0) from the start: nothing of the
 * cage ever runs outside its limits.  With CLONE_NEWCGROUP the kernel roots
 * the new cgroup namespace there too. */
static pid_t clone_init(const struct ltd_policy *p, bool net_helper, int *pidfd,
			int cgroup_fd, struct ltd_err *err)
{
	struct clone_args args = {
		/* --network host (gated): the host's network namespace;
		 * the helper's: made later. */
		.flags = (LTD_CLONE_FLAGS | CLONE_PIDFD) &
			 ~(p->network == LTD_NET_HOST || net_helper
				   ? CLONE_NEWNET
				   : 0ULL),
		.pidfd = (__u64)(uintptr_t)pidfd,
		.exit_signal = SIGCHLD,
	};

	if (cgroup_fd >= 0) {
		args.flags |= CLONE_INTO_CGROUP;
		args.cgroup = (__u64)cgroup_fd;
	}
	long pid = syscall(SYS_clone3, &args, sizeof(args));

	if (pid < 0) {
		int ret = ltd_err_sys(err, "cannot create the cage's "
					   "namespaces (clone3)");
		if (errno == EPERM || errno == ENOSPC)
			snprintf(err->msg + strlen(err->msg),
				 sizeof(err->msg) - strlen(err->msg),
				 "; are unprivileged user namespaces enabled? "
				 "(try 'sysctl kernel.unprivileged_userns_clone"
				 "' and AppArmor's "
				 "kernel.apparmor_restrict_unprivileged_userns;"
				 " 'ltd-native doctor' checks them)");
		return ret;
	}
	return (pid_t)pid;
}

/* One message from init, with the descriptors it may carry. */
static ssize_t recv_msg(int sock, struct ltd_msg *m, int fds[LTD_MSG_MAX_FDS],
			size_t *n_fds)
{
	char ctl[CMSG_SPACE(LTD_MSG_MAX_FDS * sizeof(int))];
	struct iovec iov = {m, sizeof(*m)};
	struct msghdr mh = {.msg_iov = &iov,
			    .msg_iovlen = 1,
			    .msg_control = ctl,
			    .msg_controllen = sizeof(ctl)};
	ssize_t n = recvmsg(sock, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);

	*n_fds = n > 0 ? ltd_msg_take_fds(&mh, fds, LTD_MSG_MAX_FDS) : 0;
	return n;
}

static void close_fds(const int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		close(fds[i]);
}

struct netside {
	struct ltd_dnsproc *dns;
	struct ltd_nflog *nflog;
	int audit_fd;	 /* -1: no --audit-log */
	bool dns_failed; /* the filter could not start: the run ends */
};

/* Read what init sent; false once the socket is closed. */
static bool read_msgs(int sock, struct outcome *out, struct netside *net,
		      struct ltd_life *life)
{
	int fds[LTD_MSG_MAX_FDS];
	struct ltd_msg m;
	size_t n_fds;
	ssize_t n;

	while ((n = recv_msg(sock, &m, fds, &n_fds)) == (ssize_t)sizeof(m)) {
		switch (m.type) {
		case LTD_MSG_DNS_FDS:
			if (n_fds != LTD_DNS_FDS || !net) {
				close_fds(fds, n_fds);
				continue;
			}
			/* The helper gets the DNS sockets; we keep none. */
			if (ltd_dnsproc_start(net->dns, fds, net->audit_fd,
					      &out->err) < 0) {
				close_fds(fds, n_fds);
				out->type = LTD_MSG_SETUP_ERROR;
				net->dns_failed = true;
				return true;
			}
			close_fds(fds, 3);
			if (m.value == LTD_NFLOG_OFF) {
				close(fds[3]); /* a stand-in */
				fprintf(stderr,
					"ltd-native: warning: NFLOG is not "
					"available here: refused connections "
					"will not be reported (refused names "
					"still are)\n");
			} else {
				ltd_nflog_attach(net->nflog, fds[3]);
			}
			continue;
		case LTD_MSG_NS_FDS:
			ltd_life_ns(life, fds, n_fds);
			continue;
		case LTD_MSG_PTY:
			if (n_fds == 1)
				ltd_life_pty(life, fds[0]);
			else
				close_fds(fds, n_fds);
			continue;
		case LTD_MSG_STARTED:
			out->started = true;
			ltd_life_started(life, m.value,
					 n_fds == 1 ? fds[0] : -1);
			if (n_fds > 1)
				close_fds(fds, n_fds);
			continue;
		case LTD_MSG_CMD_EXITED:
			out->cmd_status = m.value;
			out->cmd_exited = true;
			ltd_life_cmd_exited(life, m.value);
			continue;
		}
		close_fds(fds, n_fds);
		out->type = m.type;
		out->value = m.value;
		out->err = m.err;
		out->err.msg[sizeof(out->err.msg) - 1] = '\0';
		out->err.step[sizeof(out->err.step) - 1] = '\0';
	}
	return n != 0;
}

/*
 * Relay signals to init until it reports the command's end (by then init
 * has killed and reaped the rest of the cage) or dies; collect what it
 * says.  Init's own exit, which tears the namespaces down, is not waited
 * for: it dies with the launcher in any case.
 */
static int supervise(pid_t init, int init_pidfd, int sock, struct ltd_pasta *pa,
		     struct netside *net, struct ltd_life *life,
		     struct outcome *out, struct ltd_err *err)
{
	_cleanup_close_ int sfd = ltd_signals_fd(err);
	enum { N = 6 + LTD_LIFE_POLLFDS };
	struct pollfd pfd[N] = {
		{.fd = sfd, .events = POLLIN},
		{.fd = sock, .events = POLLIN},
		{.fd = init_pidfd, .events = POLLIN},
		{.fd = pa ? pa->ready_fd : -1, .events = POLLIN},
		{.fd = -1, .events = POLLIN}, /* NFLOG, once init sent it */
		{.fd = -1, .events = POLLIN}, /* the DNS filter, once started */
	};
	int status, ret;

	if (sfd < 0)
		return sfd;
	for (;;) {
		struct signalfd_siginfo si;
		/* The lifecycle's fds (exec's control socket, the pty)
		 * follow ours. */
		size_t n_life = ltd_life_pollfds(life, &pfd[6]);

		pfd[4].fd = net ? net->nflog->fd : -1;
		pfd[5].fd = net ? net->dns->ctl : -1;
		if (poll(pfd, N, -1) < 0) {
			if (errno == EINTR)
				continue;
			return ltd_err_sys(err, "poll");
		}
		if (pfd[4].revents)
			ltd_nflog_read(net->nflog);
		/* A filter that died would leave the cage's lookups
		 * unanswered: the run ends (fail closed, and said). */
		if (pfd[5].revents) {
			ret = ltd_dnsproc_readable(net->dns, err);
			if (ret < 0) {
				kill(init, SIGKILL);
				return ret;
			}
		}
		ltd_life_dispatch(life, &pfd[6], n_life);
		if (pfd[0].revents &&
		    read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si) &&
		    si.ssi_signo != SIGCHLD) {
			/* With a pty of its own the command hears of a new
			 * size from its terminal, as on any terminal. */
			if (si.ssi_signo == SIGWINCH && ltd_life_has_pty(life))
				ltd_life_winch(life);
			else
				kill(init, (int)si.ssi_signo);
		}
		if (pfd[3].revents) {
			struct ltd_msg m = {.type = LTD_MSG_NET_READY};

			pfd[3].fd = -1;
			ret = ltd_pasta_ready(pa, err);
			if (ret < 0) {
				kill(init, SIGKILL);
				return ret;
			}
			(void)!send(sock, &m, sizeof(m), MSG_NOSIGNAL);
		}
		if (pfd[1].revents && !read_msgs(sock, out, net, life))
			pfd[1].fd = -1; /* closed: stop polling it */
		/* No filter, no lookups: the cage does not run without it. */
		if (net && net->dns_failed) {
			kill(init, SIGKILL);
			return 0;
		}
		if (out->type != 0 && out->type != LTD_MSG_STARTED)
			return 0;
		if (pfd[2].revents)
			break;
	}
	/* Init died without a final word: say how. */
	if (waitpid(init, &status, 0) < 0)
		return ltd_err_sys(err, "wait for the cage");
	read_msgs(sock, out, net, life);
	if (out->type == 0 && WIFSIGNALED(status) && out->started) {
		/* `ltd-native kill` after its grace period, or anyone with
		 * the right to signal it: the cage is gone, say so. */
		out->init_status = status;
		return 0;
	}
	if (out->type == 0)
		return ltd_err_set(err, EIO,
				   "the cage's init ended without a word "
				   "(wait status %#x)",
				   status);
	return 0;
}

static int wait_status_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return LTD_EXIT_RUNTIME;
}

static int exit_status(const struct outcome *out)
{
	if (out->type == 0 && out->init_status) {
		fprintf(stderr,
			"ltd-native: the cage was killed (signal "
			"%d)\n",
			WTERMSIG(out->init_status));
		return out->cmd_exited ? wait_status_code(out->cmd_status)
				       : 128 + WTERMSIG(out->init_status);
	}
	switch (out->type) {
	case LTD_MSG_EXITED:
		return wait_status_code(out->value);
	case LTD_MSG_EXEC_ERROR:
		ltd_err_print(&out->err);
		return out->err.code == ENOENT ? LTD_EXIT_NOT_FOUND
					       : LTD_EXIT_CANNOT_EXEC;
	default:
		/* Everything a user can fix was checked before clone: what
		 * fails in the cage is the host refusing something. */
		ltd_err_print(&out->err);
		if (strcmp(out->err.step, "chdir") != 0)
			fprintf(stderr, "ltd-native: 'ltd-native doctor' "
					"checks what this host supports\n");
		return LTD_EXIT_RUNTIME;
	}
}

/*
 * Allowlist mode: pasta must be there, and the firewall batch is built now.
 * A run that did not ask for networking falls back to none with a warning.
 */
static int prepare_network(struct ltd_policy *p, struct ltd_pasta *pa,
			   struct ltd_nft_batch nft[2], struct ltd_err *err)
{
	struct ltd_nft_spec spec = {
		.host_ports = p->host_ports,
		.n_host_ports = p->n_host_ports,
	};
	_cleanup_free_ struct ltd_net_dest *dests = NULL;
	struct ltd_err why = {0};
	int ret;

	if (p->network != LTD_NET_ALLOWLIST)
		return 0;
	ret = ltd_pasta_find(pa, &why);
	if (ret < 0 && (p->network_set || p->n_allow || p->n_host_ports))
		return ltd_err_set(err, -ret, "--network allowlist: %s",
				   why.msg);
	if (ret < 0) {
		char msg[LTD_ERR_MSG_MAX + 32];

		snprintf(msg, sizeof(msg), "%s; running with --network none",
			 why.msg);
		ltd_warn(msg);
		p->network = LTD_NET_NONE;
		return 0;
	}
	ret = ltd_pasta_build(pa, p->n_host_ports > 0, err);
	if (ret < 0)
		return ret;
	/* The user's blocks only: the cage's resolver is on its loopback
	 * (the DNS filter), and nothing admits pasta's.  A test's holes
	 * (--test-firewall-hole) are the firewall's, not pasta's wall's. */
	spec.dests = p->allow;
	spec.n_dests = p->n_allow;
	if (p->n_fw_holes) {
		dests = calloc(p->n_allow + p->n_fw_holes, sizeof(*dests));
		if (!dests)
			return ltd_err_set(err, ENOMEM, "out of memory");
		memcpy(dests, p->allow, p->n_allow * sizeof(*dests));
		memcpy(dests + p->n_allow, p->fw_holes,
		       p->n_fw_holes * sizeof(*dests));
		spec.dests = dests;
		spec.n_dests = p->n_allow + p->n_fw_holes;
	}
	inet_pton(AF_INET, LTD_NET_GW4, &spec.gw4);
	inet_pton(AF_INET6, LTD_NET_GW6, &spec.gw6);
	ret = ltd_nft_build(&spec, &nft[0], err);
	/* The same without logging, for a kernel without NFLOG: the
	 * firewall matters, the report of its refusals does not. */
	spec.no_log = true;
	return ret < 0 ? ret : ltd_nft_build(&spec, &nft[1], err);
}

/*
 * The domain allowlist, read once, before the command runs: what the
 * command line gave, the per-run files (--allow-domains-file and
 * LTD_ALLOW_DOMAINS_FILE, by the real paths validation judged: none the
 * cage can write), the machine-local files, the built-in list.
 */
static int load_domains(struct ltd_policy *p, struct ltd_err *err)
{
	static const char *const local[] = {LTD_LOCAL_DOMAIN_FILES};
	char path[4096];
	int ret = 0;

	for (size_t i = 0; !ret && i < p->n_domain_files; i++)
		ret = ltd_domains_load_file(&p->domains, p->domain_files[i],
					    false, err);
	for (size_t i = 0; !ret && i < 2; i++) {
		snprintf(path, sizeof(path), "%s%s", p->id.home, local[i]);
		ret = ltd_domains_load_file(&p->domains, path, true, err);
	}
	if (!ret && !p->no_default_domains)
		ret = ltd_domains_add_defaults(&p->domains, err);
	return ret;
}

/*
 * LTD_DNS_MIN_TTL: for tests and debugging, a lower floor (seconds) for
 * the time an address stays open, so that expiry can be seen in seconds.
 * It can only shorten what the cage is allowed, never lengthen it.
 */
static uint32_t ttl_floor(void)
{
	const char *s = getenv("LTD_DNS_MIN_TTL");
	char *end;
	unsigned long v;

	if (!s || !*s)
		return LTD_DNS_TTL_FLOOR;
	v = strtoul(s, &end, 10);
	if (*end || v < 1 || v > LTD_DNS_TTL_FLOOR)
		return LTD_DNS_TTL_FLOOR;
	return (uint32_t)v;
}

static int prepare_dns(struct ltd_policy *p, struct ltd_dnsd_config *cfg,
		       struct ltd_err *err)
{
	int ret, fd;

	if (p->network != LTD_NET_ALLOWLIST)
		return 0;
	ret = load_domains(p, err);
	if (ret < 0)
		return ret;
	*cfg = (struct ltd_dnsd_config){
		.domains = &p->domains,
		.static_dests = p->allow,
		.n_static = p->n_allow,
		.ttl_floor = ttl_floor(),
		.ttl_ceiling = LTD_DNS_TTL_CEILING,
		.quiet = p->quiet,
	};
	if (p->dns_upstream)
		ret = ltd_dns_upstream_parse(p->dns_upstream, &cfg->upstream,
					     &cfg->upstream_len, err);
	else if (p->domains.n > 0) {
		struct ltd_err why = {0};

		/* No upstream: allowed names fail (SERVFAIL), the rest of
		 * the cage works. */
		if (ltd_dns_upstream_from_resolv("/etc/resolv.conf",
						 &cfg->upstream,
						 &cfg->upstream_len, &why) < 0)
			ltd_warn(why.msg);
	}
	if (ret < 0)
		return ret;
	if (p->audit_log) {
		struct stat st;

		/* No link followed (one planted in the project would aim the
		 * log at any file), no FIFO waited on: a regular file. */
		fd = open(p->audit_log,
			  O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY |
				  O_NOFOLLOW | O_NONBLOCK,
			  0600);
		if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
			close(fd);
			fd = -1;
			errno = EINVAL;
		}
		if (fd < 0 || !(cfg->audit = fdopen(fd, "a"))) {
			ret = ltd_err_sys(err, "--audit-log '%s'",
					  p->audit_log);
			if (fd >= 0)
				close(fd);
			return ret;
		}
	}
	return 0;
}

/* Cgroup or rlimits, from what the host delegates; an explicit limit it
 * cannot enforce is an error here, before clone. */
static int prepare_limits(const struct ltd_policy *p, struct ltd_cg_facts *f,
			  struct ltd_limits_plan *pl, struct ltd_err *err)
{
	int ret = ltd_cgroup_probe(f, err);

	return ret < 0 ? ret : ltd_limits_decide(p, f, pl, err);
}

/* Landlock's ruleset from the plan, or the reason the run cannot have it
 * (--require-landlock, --restrict-tcp-ports); and pasta's wall. */
static int prepare_landlock(const struct ltd_policy *p,
			    const struct ltd_plan *plan,
			    struct ltd_landlock *ll, struct ltd_pasta *pa,
			    struct ltd_err *err)
{
	char warning[LTD_ERR_MSG_MAX];
	int abi = ltd_landlock_abi();
	int ret = ltd_landlock_decide(p, abi, warning, sizeof(warning), err);

	if (ret < 0)
		return ret;
	if (warning[0])
		ltd_warn(warning);
	ret = ltd_landlock_build(plan, p, abi, ll, err);
	if (!ret)
		ret = ltd_landlock_build_egress(p, abi, &pa->wall, warning,
						sizeof(warning), err);
	if (!ret && warning[0] && !p->quiet)
		ltd_warn(warning);
	return ret;
}

int ltd_run_check(struct ltd_policy *p, struct ltd_err *err)
{
	int ret = ltd_policy_validate(p, err);

	if (!ret)
		ret = ltd_protect_project(p, err);
	if (!ret)
		ret = ltd_policy_validate_binds(p, err);
	if (!ret)
		ret = ltd_protect_binds(p, err);
	return ret;
}

/* Everything that can fail for a reason the user can fix, before clone. */
static int prepare(struct ltd_policy *p, struct ltd_plan *plan,
		   struct ltd_pasta *pa, struct ltd_nft_batch nft[2],
		   struct ltd_dnsd_config *dns, struct ltd_cg_facts *cgf,
		   struct ltd_limits_plan *limits, char ***envp,
		   int *rootfs_lock, struct ltd_err *err)
{
	struct ltd_hostfs host = {0};
	struct ltd_pinned pinned = {0};
	int ret;

	ret = ltd_run_check(p, err);
	/* Before anything is created on the host: an explicit limit that
	 * cannot be enforced stops the run here. */
	if (!ret)
		ret = prepare_limits(p, cgf, limits, err);
	/* The persistent state the policy names, where it is missing: the
	 * only thing ltd-native creates on the host. */
	if (!ret)
		ret = ltd_state_create(p, err);
	/* Before the plan: a fallback to none changes /etc/resolv.conf. */
	if (!ret)
		ret = prepare_network(p, pa, nft, err);
	if (!ret)
		ret = prepare_dns(p, dns, err);
	if (!ret)
		ret = ltd_hostfs_probe(&host, err);
	/* A pinned rootfs replaces what the host's root would give. */
	if (!ret && p->rootfs) {
		host.pinned = &pinned;
		ret = ltd_rootfs_load(p, &pinned, rootfs_lock, err);
	}
	if (!ret)
		ret = ltd_plan_build(p, &host, plan, err);
	ltd_hostfs_free(&host);
	ltd_pinned_free(&pinned);
	if (!ret)
		ret = ltd_plan_check_host(plan, err);
	if (!ret) {
		*envp = ltd_env_build(p, environ, err);
		if (!*envp)
			ret = -ENOMEM;
	}
	return ret;
}

/* The audit log's first line of a run: the project and every risk the
 * user waived for it (DESIGN: a waived risk is logged). */
static void audit_start(FILE *audit, const struct ltd_policy *p)
{
	json_t *o, *w;

	if (!audit || !(o = json_object()))
		return;
	w = json_array();
	for (size_t i = 0; w && i < p->n_waived; i++)
		json_array_append_new(w, json_string(p->waived[i]));
	json_object_set_new(o, "event", json_string("start"));
	json_object_set_new(o, "project", json_string(p->project));
	if (w)
		json_object_set_new(o, "waived", w);
	ltd_audit_emit(audit, o);
}

/* Init killed (with what is left in its namespace) and reaped, by its
 * pidfd (the pid may be another process's once reaped); *@init is -1
 * after. */
static void cage_gone(int pidfd, pid_t *init)
{
	siginfo_t si;

	if (*init <= 0)
		return;
	if (pidfd >= 0) {
		syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
		waitid(P_PIDFD, (id_t)pidfd, &si, WEXITED);
	} else {
		kill(*init, SIGKILL);
		waitpid(*init, NULL, 0);
	}
	*init = -1;
}

/* Git repositories the command planted or changed where it could write:
 * the project, and each directory the user bound writable (the tiers'
 * own state binds are ltd-native's choice of place, not the user's). */
static void report_repos(FILE *out, const struct ltd_policy *p,
			 bool root_was_gitdir, struct timespec since)
{
	struct stat st;

	ltd_repos_report(out, p->project,
			 LTD_REPOS_SKIP_ROOT_GIT |
				 (root_was_gitdir ? LTD_REPOS_SKIP_ROOT : 0),
			 since, NULL);
	for (size_t i = 0; i < p->n_mounts; i++) {
		const struct ltd_user_mount *m = &p->mounts[i];

		if (m->kind == LTD_UM_BIND && !m->derived && m->src &&
		    stat(m->src, &st) == 0 && S_ISDIR(st.st_mode))
			ltd_repos_report(out, m->src, 0, since, NULL);
	}
}

int ltd_run(struct ltd_policy *p, char **launcher_argv)
{
	struct ltd_err err = {0};
	struct ltd_plan plan = {0};
	struct outcome out = {0};
	struct ltd_pasta pasta = {.ready_fd = -1};
	struct ltd_nft_batch nft[2] = {{0}, {0}}; /* logging, plain */
	struct ltd_dnsd_config dns_cfg = {0};
	struct ltd_dnsproc dns = LTD_DNSPROC_INIT;
	struct ltd_nflog nflog = {.fd = -1};
	struct netside net = {&dns, &nflog, -1, false};
	bool dns_on = false;
	struct ltd_cg_facts cgf = {0};
	struct ltd_limits_plan limits = {0};
	struct ltd_cgroup cg = {.fd = -1};
	struct ltd_life life = {.reg_dir = -1,
				.reg_fd = -1,
				.ctl_fd = -1,
				.cgroup_fd = -1,
				.relay = {.master = -1},
				.outs = LTD_OUTPUTS_INIT};
	struct winsize ws = {0};
	bool want_pty = ltd_pty_wanted();
	_cleanup_close_ int self_pidfd = -1, init_pidfd = -1;
	/* --rootfs: the entry's shared lock, held until the launcher exits
	 * (close-on-exec; init closes its copy in step close-fds). */
	_cleanup_close_ int rootfs_lock = -1;
	int sv[2] = {-1, -1};
	char **envp = NULL;
	_cleanup_free_ struct ltd_protected_id *protected_before = NULL;
	struct timespec started = {0};
	bool root_was_gitdir = false;
	_cleanup_free_ char *report_text = NULL;
	size_t report_len = 0;
	FILE *report;
	struct ltd_landlock ll = {0};
	pid_t init = -1;
	bool net_helper;
	char warning[LTD_ERR_MSG_MAX + LTD_CG_PATH_MAX];
	int ret;

	ret = prepare(p, &plan, &pasta, nft, &dns_cfg, &cgf, &limits, &envp,
		      &rootfs_lock, &err);
	if (!ret)
		ret = prepare_landlock(p, &plan, &ll, &pasta, &err);
	for (size_t i = 0; !ret && i < p->n_waived; i++)
		ltd_warn(p->waived[i]);
	if (!ret)
		audit_start(dns_cfg.audit, p);
	for (size_t i = 0; !ret && i < p->n_warnings; i++)
		ltd_warn(p->warnings[i]);
	if (!ret && limits.cgroup) {
		ret = ltd_cgroup_create(cgf.dir, &limits, getpid(), &cg, &err);
		if (ret < 0)
			snprintf(err.msg + strlen(err.msg),
				 sizeof(err.msg) - strlen(err.msg),
				 " (see 'ltd-native doctor')");
	}
	if (!ret && ltd_limits_warning(p, &limits, warning, sizeof(warning)))
		ltd_warn(warning);
	if (!ret && p->network == LTD_NET_ALLOWLIST) {
		struct ltd_nflog_config nc = {.audit = dns_cfg.audit,
					      .quiet = p->quiet};

		/* The helper is found and configured before clone: a
		 * missing one stops the run here. */
		ret = ltd_dnsproc_prepare(&dns, &dns_cfg, &err);
		dns_on = ret == 0;
		net.audit_fd = dns_cfg.audit ? fileno(dns_cfg.audit) : -1;
		ltd_nflog_init(&nflog, &nc);
	}
	/* A name is claimed before the cage exists: a second cage of the
	 * same name stops here. */
	if (!ret)
		ret = ltd_life_prepare(&life, p, envp, &limits, &ll, &err);
	if (want_pty)
		ioctl(STDIN_FILENO, TIOCGWINSZ, &ws);
	else if (!ret)
		ret = ltd_outputs_prepare(&life.outs, &err);
	if (!ret &&
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		ret = ltd_err_sys(&err, "socketpair");
	if (!ret && (self_pidfd = pidfd_open(getpid(), 0)) < 0)
		ret = ltd_err_sys(&err, "pidfd_open");
	if (!ret)
		ret = ltd_signals_block(&err);
	if (ret < 0)
		goto out;
	protected_before = ltd_protected_ids(p);
	root_was_gitdir = p->protect_git && ltd_git_is_dir(p->project);
	/* Coarse, as the ctimes the repository walk compares with it. */
	clock_gettime(CLOCK_REALTIME_COARSE, &started);

	net_helper = net_helper_pays(p);
	init = clone_init(p, net_helper, &init_pidfd, cg.fd, &err);
	if (init < 0) {
		ret = init;
		goto out;
	}
	if (init == 0) {
		struct ltd_cage c = {
			.policy = p,
			.plan = &plan,
			.seccomp = ltd_cage_filter(p->seccomp),
			.landlock = &ll,
			.nft = p->network == LTD_NET_ALLOWLIST ? &nft[0] : NULL,
			.nft_plain = &nft[1],
			.limits = &limits,
			.envp = envp,
			.sock = sv[1],
			.launcher_pidfd = self_pidfd,
			.launcher_argv = launcher_argv,
			.send_ns =
				p->name || p->status_fd >= 0 || p->info_fd >= 0,
			.want_pty = want_pty,
			.outputs = {life.outs.cmd[0], life.outs.cmd[1]},
			.ws = ws,
			.keep_running = p->keep_running,
			.net_helper = net_helper,
		};

		close(sv[0]);
		ltd_cage_init(&c);
	}
	close(sv[1]);
	sv[1] = -1;
	ltd_life_cloned(&life, init, cg.fd);
	/* Right after clone: pasta comes up while init builds the cage. */
	if (p->network == LTD_NET_ALLOWLIST) {
		ret = ltd_pasta_spawn(&pasta, init, &err);
		if (ret < 0) {
			kill(init, SIGKILL);
			goto out;
		}
	}
	ret = supervise(init, init_pidfd, sv[0],
			p->network == LTD_NET_ALLOWLIST ? &pasta : NULL,
			dns_on ? &net : NULL, &life, &out, &err);
	/* First the terminal back, then anything else we have to say. */
	if (!ret && out.type == LTD_MSG_EXITED)
		ltd_life_ended(&life, out.value);
	else if (!ret && out.init_status)
		ltd_life_ended(&life, out.init_status);
	ltd_life_finish(&life);
	/* What follows reads what the cage wrote: nothing in it may still
	 * run.  After EXITED, init has killed and reaped all its children
	 * (its own exit costs ~0.2 ms, not waited for then).  Processes
	 * joined from outside (`exec` into a named cage, or through the
	 * namespaces a launcher got by --info-fd/--json-status-fd) are not
	 * its children: only init's own exit, which waits for every task of
	 * the pid namespace, says they are gone.  So on those runs, and on
	 * any other way here, init is killed and reaped now.  What follows
	 * is gathered, then said in plain text (the command's last output
	 * may have left the terminal hiding what comes next). */
	if (ret || out.type != LTD_MSG_EXITED || p->name || p->status_fd >= 0 ||
	    p->info_fd >= 0)
		cage_gone(init_pidfd, &init);
	report = open_memstream(&report_text, &report_len);
	if (!report)
		report = stderr;
	if (protected_before) {
		_cleanup_free_ struct ltd_protected_id *after =
			ltd_protected_ids(p);

		ltd_protected_quarantine(report, p, protected_before, after);
		ltd_protected_report(report, p, protected_before, after);
	}
	if (p->protect_git)
		report_repos(report, p, root_was_gitdir, started);
	if (dns_on) {
		/* The command has ended: what it was refused is queued. */
		ltd_nflog_drain(&nflog);
		ltd_dnsproc_finish(&dns, report);
		ltd_nflog_summary(&nflog, report);
		ltd_nflog_audit_totals(&nflog);
	}
	if (report != stderr && fclose(report) == 0 && report_len) {
		ltd_term_plain(stderr);
		fwrite(report_text, 1, report_len, stderr);
	}
out:
	ltd_life_finish(&life);
	/* pasta does not end with the namespace's last process. */
	ltd_pasta_stop(&pasta);
	/* The cgroup can go only once init has: here (and only here) the
	 * launcher waits for it. */
	if (cg.cage[0]) {
		cage_gone(init_pidfd, &init);
		ltd_cgroup_destroy(&cg, getpid());
	}
	ltd_nft_batch_free(&nft[0]);
	ltd_nft_batch_free(&nft[1]);
	ltd_dnsproc_stop(&dns);
	ltd_nflog_close(&nflog);
	if (dns_cfg.audit)
		fclose(dns_cfg.audit);
	if (sv[0] >= 0)
		close(sv[0]);
	if (sv[1] >= 0)
		close(sv[1]);
	ltd_plan_free(&plan);
	ltd_landlock_free(&ll);
	ltd_env_free(envp);
	if (ret < 0) {
		ltd_term_plain(stderr);
		ltd_err_print(&err);
		return LTD_EXIT_RUNTIME;
	}
	return exit_status(&out);
}
