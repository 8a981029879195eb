// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The launcher while the cage runs: it relays signals to init, serves the
 * DNS filter's helper and pasta's readiness, relays the terminal, and
 * collects what init reports.  It never enters the cage.
 */
#include "runtime/launch.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base.h"
#include "common/cleanup.h"
#include "common/signals.h"
#include "netfilter/pasta.h"
#include "runtime/cage.h"
#include "runtime/memtrim.h"
#include "runtime/testhooks.h"

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

/* The DNS sockets and the NFLOG socket from init: the helper gets the DNS
 * sockets, we keep none of them; false once the filter could not start. */
static bool take_dns_fds(const struct ltd_msg *m, int *fds, size_t n_fds,
			 struct ltd_outcome *out, struct ltd_launch_net *net)
{
	if (n_fds != LTD_DNS_FDS || !net) {
		close_fds(fds, n_fds);
		return true;
	}
	if (ltd_dnsproc_start(net->dns, fds, net->audit_fd, &out->err) < 0) {
		close_fds(fds, n_fds);
		out->type = LTD_MSG_SETUP_ERROR;
		net->dns_failed = true;
		return false;
	}
	close_fds(fds, 3);
	if (m->value == LTD_NFLOG_OFF) {
		close(fds[3]); /* a stand-in */
		fprintf(stderr, "ltd-native: warning: NFLOG is not available "
				"here: refused connections will not be "
				"reported (refused names still are)\n");
	} else {
		ltd_nflog_attach(net->nflog, fds[3]);
	}
	return true;
}

/* A message that is not the last word; false if it is. */
static bool take_progress(const struct ltd_msg *m, int *fds, size_t n_fds,
			  struct ltd_outcome *out, struct ltd_life *life)
{
	switch (m->type) {
	case LTD_MSG_NS_FDS:
		ltd_life_ns(life, fds, n_fds);
		return true;
	case LTD_MSG_PTY:
		if (n_fds == 1)
			ltd_life_pty(life, fds[0]);
		else
			close_fds(fds, n_fds);
		return true;
	case LTD_MSG_STARTED:
		out->started = true;
		ltd_test_stop_at("launcher", "started");
		ltd_life_started(life, m->value, n_fds == 1 ? fds[0] : -1);
		if (n_fds > 1)
			close_fds(fds, n_fds);
		return true;
	case LTD_MSG_CMD_EXITED:
		out->cmd_status = m->value;
		out->cmd_exited = true;
		ltd_life_cmd_exited(life, m->value);
		return true;
	}
	return false;
}

/* Read what init sent; false once the socket is closed. */
static bool read_msgs(int sock, struct ltd_outcome *out,
		      struct ltd_launch_net *net, struct ltd_life *life)
{
	int fds[LTD_MSG_MAX_FDS];
	struct ltd_msg m;
	size_t n_fds;
	ssize_t n;

	while ((n = recv_msg(sock, &m, fds, &n_fds)) == (ssize_t)sizeof(m)) {
		if (m.type == LTD_MSG_DNS_FDS) {
			if (!take_dns_fds(&m, fds, n_fds, out, net))
				return true;
			continue;
		}
		if (take_progress(&m, fds, n_fds, out, life))
			continue;
		close_fds(fds, n_fds);
		out->type = m.type;
		out->value = m.value;
		out->err = m.err;
		out->err.msg[sizeof(out->err.msg) - 1] = '\0';
		out->err.step[sizeof(out->err.step) - 1] = '\0';
	}
	return n != 0;
}

/* Init died without a final word: say how. */
static int init_died(struct ltd_launch *l, struct ltd_err *err)
{
	struct ltd_outcome *out = &l->out;
	int status;

	if (waitpid(l->init, &status, 0) < 0)
		return ltd_err_sys(err, "wait for the cage");
	l->init = -1;
	read_msgs(l->sv[0], out, l->dns_on ? &l->net : NULL, &l->life);
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

/* A signal for the cage: with a pty of its own the command hears of a
 * new size from its terminal, as on any terminal. */
LTD_WAIT_CODE static void relay_signal(struct ltd_launch *l, int sfd)
{
	struct signalfd_siginfo si;

	if (read(sfd, &si, sizeof(si)) != (ssize_t)sizeof(si) ||
	    si.ssi_signo == SIGCHLD)
		return;
	if (si.ssi_signo == SIGWINCH && ltd_life_has_pty(&l->life))
		ltd_life_winch(&l->life);
	else
		kill(l->init, (int)si.ssi_signo);
}

/*
 * Allowlist: the command may start once pasta serves the namespace and the
 * DNS filter has said it answers (init bound its sockets before; the
 * filter's start-up, like the cage's, is hidden behind pasta's).  Said to
 * init once.
 */
static void net_ready(struct ltd_launch *l, const struct ltd_launch_net *net)
{
	struct ltd_msg m = {.type = LTD_MSG_NET_READY};

	if (l->net_ready_sent || !l->pasta_ready || (net && !net->dns->ready))
		return;
	l->net_ready_sent = true;
	(void)!send(l->sv[0], &m, sizeof(m), MSG_NOSIGNAL);
}

enum { P_SIG, P_INIT_SOCK, P_INIT, P_PASTA, P_NFLOG, P_DNS, P_LIFE };

/* One turn of the loop's events; 1 to go on, 0 when the run has ended,
 * a negative errno to end it with @err. */
LTD_WAIT_CODE static int handle(struct ltd_launch *l, struct pollfd *pfd,
				size_t n_life, int sfd, struct ltd_err *err)
{
	struct ltd_launch_net *net = l->dns_on ? &l->net : NULL;
	int ret;

	if (pfd[P_NFLOG].revents)
		ltd_nflog_read(net->nflog);
	/* A filter that died would leave the cage's lookups unanswered: the
	 * run ends (fail closed, and said). */
	if (pfd[P_DNS].revents) {
		ret = ltd_dnsproc_readable(net->dns, err);
		if (ret < 0)
			return ret;
	}
	ltd_life_dispatch(&l->life, &pfd[P_LIFE], n_life);
	if (pfd[P_SIG].revents)
		relay_signal(l, sfd);
	if (pfd[P_PASTA].revents) {
		pfd[P_PASTA].fd = -1;
		ret = ltd_pasta_ready(&l->host->pasta, err);
		if (ret < 0)
			return ret;
		l->pasta_ready = true;
	}
	if (pfd[P_INIT_SOCK].revents &&
	    !read_msgs(l->sv[0], &l->out, net, &l->life))
		pfd[P_INIT_SOCK].fd = -1; /* closed: stop polling it */
	net_ready(l, net);
	/* No filter, no lookups: the cage does not run without it. */
	if (net && net->dns_failed)
		return 0;
	if (l->out.type != 0 && l->out.type != LTD_MSG_STARTED)
		return 0;
	return pfd[P_INIT].revents ? 2 : 1;
}

LTD_WAIT_CODE int ltd_launch_supervise(struct ltd_launch *l,
				       struct ltd_err *err)
{
	_cleanup_close_ int sfd = ltd_signals_fd(err);
	enum { N = P_LIFE + LTD_LIFE_POLLFDS };
	bool allowlist = l->p->network == LTD_NET_ALLOWLIST;
	struct pollfd pfd[N] = {
		[P_SIG] = {.fd = sfd, .events = POLLIN},
		[P_INIT_SOCK] = {.fd = l->sv[0], .events = POLLIN},
		[P_INIT] = {.fd = l->init_pidfd, .events = POLLIN},
		[P_PASTA] = {.fd = allowlist ? l->host->pasta.ready_fd : -1,
			     .events = POLLIN},
		[P_NFLOG] = {.fd = -1, .events = POLLIN},
		[P_DNS] = {.fd = -1, .events = POLLIN},
	};
	struct ltd_trim trim;
	int ret;

	if (sfd < 0)
		return sfd;
	ltd_trim_start(&trim);
	for (;;) {
		/* The lifecycle's fds (exec's control socket, the pty)
		 * follow ours. */
		size_t n_life = ltd_life_pollfds(&l->life, &pfd[P_LIFE]);

		pfd[P_NFLOG].fd = l->dns_on ? l->nflog.fd : -1;
		pfd[P_DNS].fd = l->dns_on ? l->dns.ctl : -1;
		ret = poll(pfd, N, ltd_trim_timeout(&trim));
		if (ret < 0) {
			if (errno == EINTR)
				continue;
			return ltd_err_sys(err, "poll");
		}
		if (ret == 0) {
			ltd_trim_if_due(&trim);
			continue;
		}
		ret = handle(l, pfd, n_life, sfd, err);
		if (ret < 0 || (ret == 0 && l->net.dns_failed))
			kill(l->init, SIGKILL);
		if (ret <= 0)
			return ret;
		if (ret == 2)
			return init_died(l, err);
	}
}

void ltd_launch_cage_kill(struct ltd_launch *l)
{
	if (l->init <= 0)
		return;
	if (l->init_pidfd >= 0)
		syscall(SYS_pidfd_send_signal, l->init_pidfd, SIGKILL, NULL, 0);
	else
		kill(l->init, SIGKILL);
}

void ltd_launch_cage_gone(struct ltd_launch *l)
{
	siginfo_t si;

	if (l->init <= 0)
		return;
	if (l->init_pidfd >= 0) {
		syscall(SYS_pidfd_send_signal, l->init_pidfd, SIGKILL, NULL, 0);
		waitid(P_PIDFD, (id_t)l->init_pidfd, &si, WEXITED);
	} else {
		kill(l->init, SIGKILL);
		waitpid(l->init, NULL, 0);
	}
	l->init = -1;
}
