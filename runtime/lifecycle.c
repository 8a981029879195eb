// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The launcher's side of the lifecycle (see lifecycle.h).  The control
 * socket lives in the user's private registry directory and answers only
 * the user's own processes; what it hands out (init's namespaces and
 * root, the cage's cgroup) lets `exec` join the cage and nothing more.
 */
#include "runtime/lifecycle.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "common/base.h"
#include "common/cleanup.h"
#include "confine/landlock.h"
#include "runtime/cage.h"
#include "runtime/limits.h"
#include "runtime/status.h"

static const char *seccomp_name(enum ltd_syscall_filter m)
{
	return m == LTD_FILTER_ENFORCE ? "enforce"
	       : m == LTD_FILTER_LOG   ? "log"
				       : "off";
}

static int sock_addr(struct sockaddr_un *sa, int dir, const char *name)
{
	*sa = (struct sockaddr_un){.sun_family = AF_UNIX};
	/* Through the checked directory's fd: no path component can have
	 * been swapped since it was checked. */
	if ((size_t)snprintf(sa->sun_path, sizeof(sa->sun_path),
			     "/proc/self/fd/%d/%s.sock", dir,
			     name) >= sizeof(sa->sun_path))
		return -ENAMETOOLONG;
	return 0;
}

int ltd_ll_pack(const struct ltd_landlock *ll, struct ltd_exec_info *info,
		char **buf)
{
	size_t len = ll->n_ports * sizeof(uint16_t), off;
	char *b;

	for (size_t i = 0; i < ll->n_rules; i++)
		len += sizeof(uint64_t) + 1 + strlen(ll->rules[i].path) + 1;
	b = malloc(len + 1);
	if (!b)
		return -ENOMEM;
	memcpy(b, ll->ports, ll->n_ports * sizeof(uint16_t));
	off = ll->n_ports * sizeof(uint16_t);
	for (size_t i = 0; i < ll->n_rules; i++) {
		size_t n = strlen(ll->rules[i].path) + 1;

		memcpy(b + off, &ll->rules[i].access, sizeof(uint64_t));
		b[off + sizeof(uint64_t)] = ll->rules[i].optional;
		memcpy(b + off + sizeof(uint64_t) + 1, ll->rules[i].path, n);
		off += sizeof(uint64_t) + 1 + n;
	}
	info->ll_abi = ll->abi;
	info->ll_handled_fs = ll->handled_fs;
	info->ll_handled_net = ll->handled_net;
	info->ll_scoped = ll->scoped;
	info->ll_n_rules = (uint32_t)ll->n_rules;
	info->ll_n_ports = (uint32_t)ll->n_ports;
	info->ll_len = (uint32_t)len;
	*buf = b;
	return 0;
}

int ltd_ll_unpack(const struct ltd_exec_info *info, const char *buf,
		  struct ltd_landlock *ll)
{
	size_t len = info->ll_len, off;

	*ll = (struct ltd_landlock){
		.abi = info->ll_abi,
		.handled_fs = info->ll_handled_fs,
		.handled_net = info->ll_handled_net,
		.scoped = info->ll_scoped,
	};
	if (info->ll_n_ports > LTD_LL_MAX_PORTS ||
	    info->ll_n_ports * sizeof(uint16_t) > len)
		return -EPROTO;
	memcpy(ll->ports, buf, info->ll_n_ports * sizeof(uint16_t));
	ll->n_ports = info->ll_n_ports;
	off = info->ll_n_ports * sizeof(uint16_t);
	ll->rules = calloc(info->ll_n_rules + 1, sizeof(*ll->rules));
	if (!ll->rules)
		return -ENOMEM;
	for (uint32_t i = 0; i < info->ll_n_rules; i++) {
		struct ltd_ll_rule *r = &ll->rules[i];
		const char *path = buf + off + sizeof(uint64_t) + 1;
		size_t n;

		if (off + sizeof(uint64_t) + 2 > len)
			return -EPROTO;
		n = strnlen(path, len - off - sizeof(uint64_t) - 1);
		if (off + sizeof(uint64_t) + 1 + n >= len || path[0] != '/')
			return -EPROTO;
		memcpy(&r->access, buf + off, sizeof(uint64_t));
		r->optional = buf[off + sizeof(uint64_t)] != 0;
		r->why = "the cage's ruleset";
		r->path = strdup(path);
		if (!r->path)
			return -ENOMEM;
		ll->n_rules++;
		off += sizeof(uint64_t) + 1 + n + 1;
	}
	return off == len ? 0 : -EPROTO;
}

static int serialize_env(struct ltd_life *l, char **envp, struct ltd_err *err)
{
	size_t len = 0;

	for (char **e = envp; e && *e; e++)
		len += strlen(*e) + 1;
	if (len > LTD_EXEC_ENV_MAX)
		return ltd_err_set(err, E2BIG,
				   "the cage's environment is too "
				   "large for exec");
	l->env = malloc(len + 1);
	if (!l->env)
		return ltd_err_set(err, ENOMEM, "out of memory");
	len = 0;
	for (char **e = envp; e && *e; e++) {
		size_t n = strlen(*e) + 1;

		memcpy(l->env + len, *e, n);
		len += n;
	}
	l->info.env_len = (uint32_t)len;
	return 0;
}

static int listen_ctl(struct ltd_life *l, struct ltd_err *err)
{
	struct sockaddr_un sa;
	char file[LTD_NAME_MAX + 8];

	if (sock_addr(&sa, l->reg_dir, l->p->name) < 0)
		return ltd_err_set(err, ENAMETOOLONG, "control socket path");
	snprintf(file, sizeof(file), "%s.sock", l->p->name);
	unlinkat(l->reg_dir, file, 0); /* a dead launcher's */
	l->ctl_fd = socket(AF_UNIX,
			   SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (l->ctl_fd < 0 ||
	    bind(l->ctl_fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(l->ctl_fd, 8) < 0)
		return ltd_err_sys(err, "the control socket for exec");
	return 0;
}

int ltd_life_prepare(struct ltd_life *l, const struct ltd_policy *p,
		     char **envp, const struct ltd_limits_plan *limits,
		     const struct ltd_landlock *ll, struct ltd_err *err)
{
	struct ltd_entry *e = &l->entry;
	int ret;

	*l = (struct ltd_life){.p = p,
			       .reg_dir = -1,
			       .reg_fd = -1,
			       .ctl_fd = -1,
			       .cgroup_fd = -1,
			       .relay = {.master = -1},
			       .outs = LTD_OUTPUTS_INIT};
	/* Ours to write to; nothing else (pasta) inherits them. */
	if (p->status_fd >= 0)
		fcntl(p->status_fd, F_SETFD, FD_CLOEXEC);
	if (p->info_fd >= 0)
		fcntl(p->info_fd, F_SETFD, FD_CLOEXEC);
	if (!p->name)
		return 0;
	l->reg_dir = ret = ltd_registry_open(err);
	if (ret < 0)
		return ret;
	l->reg_fd = ret = ltd_registry_claim(l->reg_dir, p->name, err);
	if (ret < 0)
		return ret;
	*e = (struct ltd_entry){
		.launcher_pid = getpid(),
		.launcher_start = ltd_proc_starttime(getpid()),
		.started_at = (long long)time(NULL),
		.keep_running = p->keep_running,
		.waived = p->waived,
		.n_waived = p->n_waived,
	};
	snprintf(e->name, sizeof(e->name), "%s", p->name);
	snprintf(e->network, sizeof(e->network), "%s",
		 ltd_network_name(p->network));
	snprintf(e->seccomp, sizeof(e->seccomp), "%s",
		 seccomp_name(p->seccomp));
	snprintf(e->tier, sizeof(e->tier), "%s",
		 p->tier == LTD_TIER_TRUSTED ? "trusted" : "strict");
	snprintf(e->project, sizeof(e->project), "%s",
		 p->project ? p->project : "");
	ret = ltd_registry_update(l->reg_fd, e, err);
	if (!ret)
		ret = listen_ctl(l, err);
	if (ret < 0)
		return ret;
	l->outs.allow_clipboard = p->allow_clipboard;
	l->info = (struct ltd_exec_info){
		.seccomp = (int32_t)p->seccomp,
		.allow_clipboard = p->allow_clipboard,
		.rlimit_data = limits->cgroup ? 0 : limits->rlimit_data,
		.rlimit_nproc = limits->cgroup ? 0 : limits->rlimit_nproc,
	};
	snprintf(l->info.cwd, sizeof(l->info.cwd), "%s",
		 p->chdir ? p->chdir : p->project);
	/* exec's processes get the first command's very ruleset. */
	if (ltd_ll_pack(ll, &l->info, &l->ll) < 0)
		return ltd_err_set(err, ENOMEM, "out of memory");
	ret = serialize_env(l, envp, err);
	if (!ret && l->info.env_len + l->info.ll_len > LTD_EXEC_ENV_MAX)
		ret = ltd_err_set(err, E2BIG,
				  "the cage's environment and "
				  "Landlock rules are too large "
				  "for exec");
	return ret;
}

void ltd_life_cloned(struct ltd_life *l, pid_t init, int cgroup_fd)
{
	l->entry.init_pid = init;
	/* Only the registry's readers (exec, ps, kill) check it. */
	if (l->reg_fd >= 0)
		l->entry.init_start = ltd_proc_starttime(init);
	if (cgroup_fd >= 0)
		l->cgroup_fd = fcntl(cgroup_fd, F_DUPFD_CLOEXEC, 3);
	ltd_outputs_cloned(&l->outs);
}

void ltd_life_ns(struct ltd_life *l, const int *fds, size_t n)
{
	struct stat st;

	for (size_t i = 0; i < n; i++) {
		if (l->n_fds < LTD_NS_COUNT + 1 && n == LTD_NS_COUNT + 1) {
			l->fds[l->n_fds++] = fds[i];
			if (i < LTD_NS_COUNT && fstat(fds[i], &st) == 0)
				l->entry.ns[i] = (uint64_t)st.st_ino;
		} else {
			close(fds[i]);
		}
	}
}

void ltd_life_pty(struct ltd_life *l, int master)
{
	if (l->relay.master >= 0) {
		close(master);
		return;
	}
	ltd_relay_start(&l->relay, master, l->p->allow_clipboard);
}

/* The pid a pidfd stands for, as we see it (its fdinfo says). */
static pid_t pidfd_pid(int pidfd)
{
	char path[64], line[128];
	FILE *f;
	int pid = 0;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", pidfd);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Pid: %d", &pid) == 1)
			break;
	fclose(f);
	return pid > 0 ? pid : 0;
}

/* The events are built only for a reader: an unread one costs its JSON
 * (jansson reads /dev/urandom for its hash seed) and heap pages, which
 * after clone are copied on write. */
static bool status_read(const struct ltd_life *l)
{
	return l->p->status_fd >= 0;
}

static void status_event(struct ltd_life *l, char *text)
{
	ltd_status_write(l->p->status_fd, text);
}

void ltd_life_started(struct ltd_life *l, pid_t cmd_in_cage, int pidfd)
{
	struct ltd_err err = {0};
	struct ltd_status s = {
		.name = l->p->name,
		.cage_pid = l->entry.init_pid,
		.command_pid_in_cage = cmd_in_cage,
		.network = ltd_network_name(l->p->network),
		.waived = l->p->waived,
		.n_waived = l->p->n_waived,
		.published = l->p->publish,
		.n_published = l->p->n_publish,
	};

	/* The command's host pid is for the registry and the status
	 * readers only. */
	if (l->reg_fd < 0 && l->p->info_fd < 0 && !status_read(l)) {
		if (pidfd >= 0)
			close(pidfd);
		return;
	}
	if (pidfd >= 0) {
		l->entry.command_pid = pidfd_pid(pidfd);
		close(pidfd);
	}
	s.command_pid = l->entry.command_pid;
	memcpy(s.ns, l->entry.ns, sizeof(s.ns));
	if (l->p->info_fd >= 0) {
		ltd_status_write(l->p->info_fd, ltd_status_info(&s));
		close(l->p->info_fd);
	}
	if (status_read(l))
		status_event(l, ltd_status_started(&s));
	if (l->reg_fd >= 0 &&
	    ltd_registry_update(l->reg_fd, &l->entry, &err) < 0)
		ltd_err_print(&err);
}

void ltd_life_cmd_exited(struct ltd_life *l, int status)
{
	/* The terminal session ends with the first command; background
	 * processes of a --keep-running cage lose the terminal. */
	ltd_relay_finish(&l->relay);
	if (status_read(l))
		status_event(l, ltd_status_exited(status));
	l->cmd_exited = true;
}

void ltd_life_ended(struct ltd_life *l, int status)
{
	/* All the command wrote, before anything is said of its end. */
	ltd_outputs_finish(&l->outs);
	ltd_relay_finish(&l->relay);
	if (status_read(l))
		status_event(l, l->cmd_exited ? ltd_status_ended()
					      : ltd_status_exited(status));
}

bool ltd_life_has_pty(const struct ltd_life *l)
{
	return l->relay.master >= 0;
}

void ltd_life_winch(struct ltd_life *l)
{
	ltd_relay_winch(&l->relay);
}

LTD_WAIT_CODE size_t ltd_life_pollfds(struct ltd_life *l, struct pollfd *pfd)
{
	/* exec is served once the namespaces are in. */
	pfd[0] = (struct pollfd){.fd = l->n_fds ? l->ctl_fd : -1,
				 .events = POLLIN};
	ltd_relay_pollfds(&l->relay, &pfd[1]);
	ltd_outputs_pollfds(&l->outs, &pfd[1 + LTD_RELAY_POLLFDS]);
	return LTD_LIFE_POLLFDS;
}

/* One `exec` client: the user's own process gets the cage. */
static void serve(struct ltd_life *l, int c)
{
	struct ucred cr;
	socklen_t len = sizeof(cr);
	int fds[LTD_EXEC_FDS_MAX];
	size_t n = 0;
	char ctl[CMSG_SPACE(sizeof(fds))] = {0};
	struct iovec iov[3] = {
		{&l->info, sizeof(l->info)},
		{l->env, l->info.env_len},
		{l->ll, l->info.ll_len},
	};
	struct msghdr mh = {
		.msg_iov = iov, .msg_iovlen = 3, .msg_control = ctl};
	struct cmsghdr *cm;

	if (getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cr, &len) < 0 ||
	    cr.uid != getuid())
		return;
	for (size_t i = 0; i < l->n_fds; i++)
		fds[n++] = l->fds[i];
	if (l->cgroup_fd >= 0)
		fds[n++] = l->cgroup_fd;
	l->info.has_cgroup = l->cgroup_fd >= 0;
	l->info.n_fds = (int32_t)n;
	mh.msg_controllen = CMSG_SPACE(n * sizeof(int));
	cm = CMSG_FIRSTHDR(&mh);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(n * sizeof(int));
	memcpy(CMSG_DATA(cm), fds, n * sizeof(int));
	(void)!sendmsg(c, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
}

void ltd_life_dispatch(struct ltd_life *l, const struct pollfd *pfd, size_t n)
{
	if (n < LTD_LIFE_POLLFDS)
		return;
	if (pfd[0].fd >= 0 && pfd[0].revents) {
		int c;

		while ((c = accept4(l->ctl_fd, NULL, NULL,
				    SOCK_CLOEXEC | SOCK_NONBLOCK)) >= 0) {
			serve(l, c);
			close(c);
		}
	}
	ltd_relay_dispatch(&l->relay, &pfd[1], LTD_RELAY_POLLFDS);
	ltd_outputs_dispatch(&l->outs, &pfd[1 + LTD_RELAY_POLLFDS],
			     LTD_OUTPUTS_POLLFDS);
}

void ltd_life_report(const struct ltd_life *l, FILE *out)
{
	ltd_termfilter_report(out, l->relay.filter.dropped +
					   ltd_outputs_dropped(&l->outs));
}

void ltd_life_finish(struct ltd_life *l)
{
	ltd_outputs_finish(&l->outs);
	ltd_relay_finish(&l->relay);
	if (l->reg_fd >= 0) {
		ltd_registry_remove(l->reg_dir, l->p->name);
		close(l->reg_fd);
	}
	if (l->ctl_fd >= 0)
		close(l->ctl_fd);
	if (l->reg_dir >= 0)
		close(l->reg_dir);
	for (size_t i = 0; i < l->n_fds; i++)
		close(l->fds[i]);
	if (l->cgroup_fd >= 0)
		close(l->cgroup_fd);
	free(l->env);
	free(l->ll);
	l->ll = NULL;
	l->reg_fd = l->ctl_fd = l->reg_dir = l->cgroup_fd = -1;
	l->n_fds = 0;
	l->env = NULL;
}

int ltd_life_request(int reg_dir, const char *name, pid_t launcher,
		     struct ltd_exec_info *info, char **env, char **ll,
		     int fds[LTD_EXEC_FDS_MAX], struct ltd_err *err)
{
	_cleanup_close_ int s =
		socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	struct timeval tv = {.tv_sec = 10};
	struct sockaddr_un sa;
	struct ucred cr;
	socklen_t len = sizeof(cr);
	size_t size = sizeof(*info) + LTD_EXEC_ENV_MAX + 1;
	_cleanup_free_ char *buf = malloc(size);
	char ctl[CMSG_SPACE(LTD_EXEC_FDS_MAX * sizeof(int))];
	struct iovec iov = {buf, size};
	struct msghdr mh = {.msg_iov = &iov,
			    .msg_iovlen = 1,
			    .msg_control = ctl,
			    .msg_controllen = sizeof(ctl)};
	size_t n_fds = 0;
	ssize_t n;

	*env = *ll = NULL;
	for (int i = 0; i < LTD_EXEC_FDS_MAX; i++)
		fds[i] = -1;
	if (s < 0 || !buf || sock_addr(&sa, reg_dir, name) < 0)
		return ltd_err_sys(err, "the control socket of '%s'", name);
	if (connect(s, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return ltd_err_sys(err, "cannot reach the launcher of '%s'",
				   name);
	/* The socket is in our private directory, and still: the process
	 * behind it must be the launcher the registry names. */
	if (getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cr, &len) < 0 ||
	    cr.pid != launcher || cr.uid != getuid())
		return ltd_err_set(err, EPERM,
				   "the control socket of '%s' is "
				   "not its launcher's",
				   name);
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	n = recvmsg(s, &mh, MSG_CMSG_CLOEXEC);
	if (n > 0)
		n_fds = ltd_msg_take_fds(&mh, fds, LTD_EXEC_FDS_MAX);
	if (n < (ssize_t)sizeof(*info))
		return ltd_err_set(err, n < 0 ? errno : EAGAIN,
				   "the launcher of '%s' did not answer (is "
				   "the cage still starting?)",
				   name);
	memcpy(info, buf, sizeof(*info));
	info->cwd[sizeof(info->cwd) - 1] = '\0';
	if ((size_t)n != sizeof(*info) + info->env_len + info->ll_len ||
	    (size_t)info->n_fds != n_fds ||
	    n_fds < LTD_NS_COUNT + 1 + (info->has_cgroup ? 1 : 0))
		return ltd_err_set(err, EPROTO,
				   "the launcher of '%s' sent a "
				   "malformed answer",
				   name);
	*env = malloc(info->env_len + 1);
	*ll = malloc(info->ll_len + 1);
	if (!*env || !*ll)
		return ltd_err_set(err, ENOMEM, "out of memory");
	memcpy(*env, buf + sizeof(*info), info->env_len);
	(*env)[info->env_len] = '\0';
	memcpy(*ll, buf + sizeof(*info) + info->env_len, info->ll_len);
	return 0;
}
