// SPDX-License-Identifier: GPL-2.0-or-later
#include "runtime/dnsproc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/close_range.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/spawn.h"
#include "common/text.h"
#include "dnsd/dnswire.h"
#include "netfilter/nft.h"
#include "netfilter/ruleset.h"
#include "policy/domains.h"

/* How long the launcher waits for the summary at the end. */
#define FINISH_MS     2000  /* in all */
#define SUMMARY_MAX   16384 /* 32 names of 253 bytes and the text around */
#define N_HELPER_FDS  5	    /* config, ctl, UDP, TCP, audit */
#define HIGH_FD_FLOOR 64
#define SPAWN_STACK   (64 * 1024) /* the child's frames: small */

int ltd_dnsproc_path(const char *self, int which, char *buf, size_t size)
{
	const char *slash = strrchr(self, '/'), *up;
	int n;

	if (self[0] != '/' || !slash)
		return -EINVAL;
	if (which == 0) {
		n = snprintf(buf, size, "%.*s/%s", (int)(slash - self), self,
			     LTD_DNSH_NAME);
	} else if (which == 1) {
		/* @self is resolved (/proc/self/exe): its directory's parent
		 * is the text before the directory's last slash ("" for /). */
		for (up = slash; up > self && up[-1] != '/'; up--)
			;
		up = up > self ? up - 1 : self;
		n = snprintf(buf, size, "%.*s/%s/%s", (int)(up - self), self,
			     LTD_DNSPROC_LIBEXEC, LTD_DNSH_NAME);
	} else {
		return -ENOENT;
	}
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static int write_config(const struct ltd_dnsd_config *cfg, struct ltd_err *err)
{
	_cleanup_free_ uint8_t *blob = NULL;
	_cleanup_close_ int fd = -1;
	size_t len = 0, off = 0;
	int ret = ltd_dnsw_encode(cfg, &blob, &len, err);

	if (ret < 0)
		return ret;
	fd = memfd_create("ltd-dnsd-config", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return ltd_err_sys(err, "DNS filter: memfd_create");
	while (off < len) {
		ssize_t n = write(fd, blob + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return ltd_err_sys(err,
					   "DNS filter: its configuration");
		off += (size_t)n;
	}
	/* Nothing can change it between here and the helper's read. */
	if (fcntl(fd, F_ADD_SEALS,
		  F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) < 0)
		return ltd_err_sys(err,
				   "DNS filter: sealing its configuration");
	return ltd_steal_fd(&fd);
}

/*
 * The helper's stderr: /dev/null.  The user's terminal, even write-only,
 * would let a helper taken over through a parser bug write escape
 * sequences to it; what the helper has to say reaches the launcher over
 * its control socket (the summary), and its death is reported by the
 * launcher.
 */
static int open_stderr(void)
{
	return open("/dev/null", O_WRONLY | O_CLOEXEC);
}

/*
 * The helper runs as the user, holding the cage's DNS sockets and asking
 * for addresses to open: it, and the directory it is found in, must be
 * root's or the user's, and writable by no one else.
 */
static int check_owner(const struct stat *st, const char *what,
		       const char *path, struct ltd_err *err)
{
	if (st->st_uid != 0 && st->st_uid != getuid())
		return ltd_err_set(err, EACCES,
				   "%s '%s' is owned by uid %u, neither root "
				   "nor you: ltd-native does not run it",
				   what, path, (unsigned)st->st_uid);
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return ltd_err_set(err, EACCES,
				   "%s '%s' is writable by others than its "
				   "owner (mode %04o): ltd-native does not "
				   "run it (chmod go-w '%s')",
				   what, path, (unsigned)(st->st_mode & 07777),
				   path);
	return 0;
}

/* @path opened O_PATH once it is an executable file that neither it nor
 * its directory lets anyone but the user or root write; -ENOENT (and @err)
 * when there is nothing at @path. */
static int open_checked(const char *path, struct ltd_err *err)
{
	_cleanup_close_ int fd = -1;
	char dir[PATH_MAX];
	struct stat st;
	int ret;

	/* Opened now, executed by descriptor later: what runs is what was
	 * checked before clone, whatever happens to the path. */
	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return ltd_err_sys(err, "the DNS filter's helper '%s'", path);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || !(st.st_mode & 0111))
		return ltd_err_set(err, EACCES,
				   "the DNS filter's helper '%s' is not an "
				   "executable file",
				   path);
	ret = check_owner(&st, "the DNS filter's helper", path, err);
	if (ret < 0)
		return ret;
	/* Its directory too: whoever may write there may swap the helper
	 * before the next run. */
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	if (stat(dir[0] ? dir : "/", &st) < 0)
		return ltd_err_sys(err,
				   "the DNS filter's helper's directory "
				   "'%s'",
				   dir);
	ret = check_owner(&st, "the directory of the DNS filter's helper",
			  dir[0] ? dir : "/", err);
	if (ret < 0)
		return ret;
	return ltd_steal_fd(&fd);
}

/*
 * The first place that holds a helper is the one: a helper there that
 * fails the checks stops the run rather than letting the next place
 * answer (docs/decisions/0106-helper-beside-then-libexec.md).
 */
int ltd_dnsproc_find(char *path, size_t size, struct ltd_err *err)
{
	char self[PATH_MAX], first[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int ret = -ENOENT;

	if (n < 0)
		return ltd_err_sys(err, "DNS filter: /proc/self/exe");
	self[n] = '\0';
	first[0] = '\0';
	for (int which = 0; ret == -ENOENT && which < 2; which++) {
		ret = ltd_dnsproc_path(self, which, path, size);
		if (ret < 0)
			return ltd_err_set(err, -ret,
					   "DNS filter: no helper path for "
					   "'%s'",
					   self);
		if (which == 0)
			snprintf(first, sizeof(first), "%s", path);
		ret = open_checked(path, err);
	}
	if (ret == -ENOENT)
		return ltd_err_set(err, ENOENT,
				   "the DNS filter's helper is neither at '%s' "
				   "nor at '%s' (allowlist mode runs it; make "
				   "install puts it in "
				   "PREFIX/" LTD_DNSPROC_LIBEXEC ")",
				   first, path);
	return ret;
}

int ltd_dnsproc_prepare(struct ltd_dnsproc *h,
			const struct ltd_dnsd_config *cfg, struct ltd_err *err)
{
	char path[PATH_MAX];
	int ret = ltd_dnsproc_find(path, sizeof(path), err);

	if (ret < 0)
		return ret;
	h->exe = ret;
	h->err = open_stderr();
	if (h->err < 0)
		return ltd_err_sys(err, "DNS filter: its stderr");
	ret = write_config(cfg, err);
	if (ret < 0)
		return ret;
	h->config = ret;
	h->cfg = cfg;
	return 0;
}

/* What the child needs, on the launcher's stack. */
struct spawn_arg {
	const struct ltd_dnsproc *h;
	pid_t parent;
	int ctl;
	const int *fds; /* UDP, TCP */
	int audit_fd;
};

/* In the child, sharing the launcher's memory until it execs
 * (common/spawn.h): only async-signal-safe calls, its own descriptor table
 * and signal handlers. */
static int child(void *arg)
{
	const struct spawn_arg *a = arg;
	const struct ltd_dnsproc *h = a->h;
	int ctl = a->ctl, audit_fd = a->audit_fd;
	const int *fds = a->fds;
	pid_t parent = a->parent;
	int src[N_HELPER_FDS] = {h->config, ctl, fds[0], fds[1], audit_fd};
	char *argv[] = {LTD_DNSH_NAME, NULL}, *envp[] = {NULL};
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	struct sigaction dfl = {.sa_handler = SIG_DFL},
			 ign = {.sa_handler = SIG_IGN};
	int exe = fcntl(h->exe, F_DUPFD_CLOEXEC, HIGH_FD_FLOOR);
	sigset_t none;

	/* The launcher blocks signals for its signalfd and ignores some;
	 * the helper starts from the defaults. */
	for (int s = 1; s < NSIG; s++)
		sigaction(s, &dfl, NULL);
	/* A launcher that has gone away is seen on the control socket, not
	 * died of. */
	sigaction(SIGPIPE, &ign, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* A session of its own: what the terminal sends the launcher's
	 * process group (Ctrl-C, Ctrl-\, Ctrl-Z, a hang-up) is not for the
	 * helper, and a helper it killed would end the run. */
	if (setsid() < 0)
		_exit(127);
	/* It dies with the launcher, also a SIGKILLed one. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(127);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
	}
	if (h->err < 0 || dup2(h->err, STDERR_FILENO) < 0)
		_exit(127);
	/* Out of the way of the fixed numbers first (the helper's own
	 * descriptor too), then into them. */
	if (exe < 0)
		_exit(127);
	for (int i = 0; i < N_HELPER_FDS; i++)
		if (src[i] >= 0 && (src[i] = fcntl(src[i], F_DUPFD_CLOEXEC,
						   HIGH_FD_FLOOR)) < 0)
			_exit(127);
	for (int i = 0; i < N_HELPER_FDS; i++)
		if (src[i] >= 0 && dup2(src[i], LTD_DNSH_FD_CONFIG + i) < 0)
			_exit(127);
	/* Everything else closes at exec (the helper's own descriptor is
	 * needed until then; an ELF file runs from a close-on-exec one).
	 * Fail closed: a kernel without it (before 5.11) would hand the
	 * helper whatever the launcher holds. */
	if (syscall(SYS_close_range,
		    LTD_DNSH_FD_CONFIG + N_HELPER_FDS - (audit_fd < 0), ~0U,
		    CLOSE_RANGE_CLOEXEC) < 0)
		_exit(127);
	syscall(SYS_execveat, exe, "", argv, envp, AT_EMPTY_PATH);
	return 127;
}

int ltd_dnsproc_start(struct ltd_dnsproc *h, const int fds[3], int audit_fd,
		      struct ltd_err *err)
{
	int sv[2];
	pid_t parent = getpid(), pid;

	if (h->exe < 0 || h->config < 0 || h->pid > 0)
		return ltd_err_set(err, EINVAL, "DNS filter: not prepared");
	/* The netfilter socket stays here: the launcher opens what the
	 * helper learns (ltd_dnsproc_readable). */
	h->nl = fcntl(fds[2], F_DUPFD_CLOEXEC, 3);
	if (h->nl < 0)
		return ltd_err_sys(err, "DNS filter: its netfilter socket");
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return ltd_err_sys(err, "DNS filter: socketpair");
	pid = ltd_spawn_shared(child,
			       &(struct spawn_arg){.h = h,
						   .parent = parent,
						   .ctl = sv[1],
						   .fds = fds,
						   .audit_fd = audit_fd},
			       0, SPAWN_STACK, NULL, err);
	close(sv[1]);
	if (pid < 0) {
		close(sv[0]);
		return ltd_err_prefix(err, "DNS filter");
	}
	fcntl(sv[0], F_SETFL, O_NONBLOCK);
	h->ctl = sv[0];
	h->pid = pid;
	close(h->config);
	close(h->err);
	h->config = h->err = -1;
	return 0;
}

/* How the helper ended, if it has within about a second: its socket
 * closing comes before its exit is reported, a little before on an idle
 * machine, longer on a busy one. */
static void describe_end(pid_t pid, char *buf, size_t size)
{
	int st = 0, tries = 100;
	pid_t r;

	buf[0] = '\0';
	while ((r = waitpid(pid, &st, WNOHANG)) == 0 && tries-- > 0)
		usleep(10000);
	if (r != pid)
		return;
	if (WIFSIGNALED(st))
		snprintf(buf, size, " (killed by signal %d)", WTERMSIG(st));
	else if (WIFEXITED(st))
		snprintf(buf, size, " (exit status %d)", WEXITSTATUS(st));
}

/*
 * The broker: open @r's addresses in the cage's firewall if our own
 * allowlist admits its name, on our entry's ports, for our clamp of its
 * TTLs.  The helper's word is taken for nothing else.
 */
static char broker(struct ltd_dnsproc *h, const struct ltd_dnsh_learn *r)
{
	struct ltd_nft_learned l[LTD_DNSH_MAX_ADDRS];
	uint16_t ports[LTD_DOMAIN_MAX_PORTS];
	char name[LTD_DOMAIN_MAX];
	struct ltd_nft_batch b = {0};
	struct ltd_err e = {0};
	size_t n_ports = 0, added = 0, n = 0;
	int ret;

	memcpy(name, r->name, sizeof(name));
	name[sizeof(name) - 1] = '\0';
	if (!h->cfg || h->nl < 0 || r->n > LTD_DNSH_MAX_ADDRS ||
	    h->learned + r->n > LTD_DNSPROC_MAX_LEARNED ||
	    !ltd_domains_match(h->cfg->domains, name, ports, &n_ports))
		return LTD_DNSH_REFUSED;
	for (uint32_t i = 0; i < r->n; i++) {
		if (r->a[i].family != AF_INET && r->a[i].family != AF_INET6)
			return LTD_DNSH_REFUSED;
		/* The metadata service, this host, the cage's own plan:
		 * never through an answer (--allow-cidr still can). */
		if (ltd_cidr_addr_special((int)r->a[i].family, r->a[i].addr))
			continue;
		l[n++] = (struct ltd_nft_learned){
			.family = (int)r->a[i].family,
			.ports = ports,
			.n_ports = n_ports,
			.timeout_s = ltd_dns_ttl_clamp(r->a[i].ttl,
						       h->cfg->ttl_floor,
						       h->cfg->ttl_ceiling),
		};
		memcpy(l[n - 1].addr, r->a[i].addr, 16);
	}
	if (!n)
		return LTD_DNSH_REFUSED;
	h->learned += n;
	ret = ltd_nft_build_learned(l, n, h->cfg->static_dests,
				    h->cfg->n_static, &b, &added, &e);
	if (!ret && added)
		ret = ltd_nft_send(h->nl, &b, &e);
	ltd_nft_batch_free(&b);
	if (ret < 0 && !h->warned && !h->cfg->quiet)
		ltd_err_print(&e);
	if (ret < 0)
		h->warned = true;
	return ret < 0 ? LTD_DNSH_REFUSED : LTD_DNSH_OPENED;
}

/* Send @ack, with @fd (-1: none), without waiting. */
static bool answer(int ctl, char ack, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = {0};
	struct iovec iov = {&ack, 1};
	struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};
	struct cmsghdr *cm;

	if (fd >= 0) {
		mh.msg_control = cbuf;
		mh.msg_controllen = sizeof(cbuf);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	}
	return sendmsg(ctl, &mh, MSG_DONTWAIT | MSG_NOSIGNAL) == 1;
}

/*
 * A socket to the configured upstream and nowhere else, for the helper,
 * which may not open one: non-blocking, so that the connect of a TCP one
 * does not hold the launcher's loop (the helper sees it complete).  -1
 * when there is no upstream or the kernel says no.
 */
static int upstream_socket(const struct ltd_dnsproc *h, char kind)
{
	const struct ltd_dnsd_config *cfg = h->cfg;
	int fd;

	if (!cfg || cfg->upstream_len == 0 ||
	    (cfg->upstream.ss_family != AF_INET &&
	     cfg->upstream.ss_family != AF_INET6))
		return -1;
	fd = socket(cfg->upstream.ss_family,
		    (kind == LTD_DNSH_TCP ? SOCK_STREAM : SOCK_DGRAM) |
			    SOCK_NONBLOCK | SOCK_CLOEXEC,
		    0);
	if (fd < 0)
		return -1;
	if (connect(fd, (const struct sockaddr *)&cfg->upstream,
		    cfg->upstream_len) < 0 &&
	    errno != EINPROGRESS) {
		close(fd);
		return -1;
	}
	return fd;
}

/* An answer the helper has not read yet: the helper waits for each before
 * it asks again, so one that asks anyway has left the protocol, and would
 * have the launcher's queue hold sockets without bound.  (A Unix socket's
 * SIOCOUTQ counts what its peer has not consumed.) */
static bool unread_answer(int ctl)
{
	int queued = 0;

	return ioctl(ctl, SIOCOUTQ, &queued) < 0 || queued > 0;
}

/* What has arrived, whole messages only: false on a byte the protocol
 * does not have. */
static bool take_messages(struct ltd_dnsproc *h)
{
	while (h->in_len > 0) {
		struct ltd_dnsh_learn r;
		size_t used = 1;
		char ack;

		if (h->in[0] == LTD_DNSH_READY && !h->ready) {
			h->ready = true;
		} else if (h->in[0] == LTD_DNSH_LEARN && h->ready) {
			if (h->in_len < 1 + sizeof(r))
				return true; /* the rest is on its way */
			memcpy(&r, h->in + 1, sizeof(r));
			used += sizeof(r);
			if (unread_answer(h->ctl))
				return false;
			ack = broker(h, &r);
			/* The helper waits for it: one at a time. */
			if (!answer(h->ctl, ack, -1))
				return false;
		} else if (h->in[0] == LTD_DNSH_SOCKET && h->ready) {
			int fd;
			bool sent;

			if (h->in_len < 2)
				return true;
			used = 2;
			if ((h->in[1] != LTD_DNSH_UDP &&
			     h->in[1] != LTD_DNSH_TCP) ||
			    unread_answer(h->ctl))
				return false;
			fd = upstream_socket(h, (char)h->in[1]);
			sent = answer(h->ctl,
				      fd >= 0 ? LTD_DNSH_OPENED
					      : LTD_DNSH_REFUSED,
				      fd);
			/* The helper's now, or no one's. */
			if (fd >= 0)
				close(fd);
			if (!sent)
				return false;
		} else {
			return false;
		}
		memmove(h->in, h->in + used, h->in_len - used);
		h->in_len -= used;
	}
	return true;
}

int ltd_dnsproc_readable(struct ltd_dnsproc *h, struct ltd_err *err)
{
	char how[64];
	ssize_t n = read(h->ctl, h->in + h->in_len, sizeof(h->in) - h->in_len);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n > 0) {
		h->in_len += (size_t)n;
		if (take_messages(h))
			return 0;
	}
	/* An end nobody asked for, or a byte the protocol does not have. */
	describe_end(h->pid, how, sizeof(how));
	if (how[0])
		h->pid = 0;
	return ltd_err_set(err, EPIPE,
			   "the DNS filter (%s) ended unexpectedly%s: the "
			   "cage's name lookups would go unanswered",
			   LTD_DNSH_NAME, how);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The helper's text, line by line, as text only: it comes from a process
 * that parses what the cage sends, and must not reach the terminal as
 * escape sequences. */
static void print_summary(char *buf, size_t len, FILE *out)
{
	size_t start = 0;

	for (size_t i = 0; i < len; i++)
		if (buf[i] == '\0')
			buf[i] = '\x01'; /* shown, not an end */
	while (start < len) {
		char *nl = memchr(buf + start, '\n', len - start);
		size_t end = nl ? (size_t)(nl - buf) : len;

		buf[end] = '\0';
		ltd_fput_shown(out, buf + start);
		fputc('\n', out);
		start = end + 1;
	}
}

void ltd_dnsproc_finish(struct ltd_dnsproc *h, FILE *out)
{
	char buf[SUMMARY_MAX + 1];
	size_t len = 0;
	int64_t deadline;

	if (h->pid <= 0 || h->ctl < 0)
		return;
	shutdown(h->ctl, SHUT_WR);
	/* What the loop read of a request not yet whole. */
	memcpy(buf, h->in, h->in_len);
	len = h->in_len;
	h->in_len = 0;
	/* One deadline for the whole summary: a helper that trickles bytes
	 * does not hold the launcher. */
	deadline = now_ms() + FINISH_MS;
	while (len < SUMMARY_MAX) {
		struct pollfd p = {.fd = h->ctl, .events = POLLIN};
		int64_t left = deadline - now_ms();
		ssize_t n;

		if (left <= 0 || poll(&p, 1, (int)left) <= 0)
			break;
		n = read(h->ctl, buf + len, SUMMARY_MAX - len);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	/* The readiness byte, if the loop never read it, and requests the
	 * cage, gone, no longer needs: the summary follows them. */
	for (;;) {
		size_t skip = 0;

		if (!h->ready && len > 0 && buf[0] == LTD_DNSH_READY)
			skip = 1;
		else if (h->ready && len > sizeof(struct ltd_dnsh_learn) &&
			 buf[0] == LTD_DNSH_LEARN)
			skip = 1 + sizeof(struct ltd_dnsh_learn);
		else if (h->ready && len >= 2 && buf[0] == LTD_DNSH_SOCKET &&
			 (buf[1] == LTD_DNSH_UDP || buf[1] == LTD_DNSH_TCP))
			skip = 2;
		if (!skip)
			break;
		h->ready = true;
		memmove(buf, buf + skip, len - skip);
		len -= skip;
	}
	print_summary(buf, len, out);
	/* Killed either way: one that closed its end but lives on would
	 * hold the launcher in waitpid (signals are blocked for the
	 * signalfd). */
	kill(h->pid, SIGKILL);
	waitpid(h->pid, NULL, 0);
	h->pid = 0;
}

void ltd_dnsproc_stop(struct ltd_dnsproc *h)
{
	if (h->pid > 0) {
		kill(h->pid, SIGKILL);
		waitpid(h->pid, NULL, 0);
		h->pid = 0;
	}
	if (h->exe >= 0)
		close(h->exe);
	if (h->config >= 0)
		close(h->config);
	if (h->err >= 0)
		close(h->err);
	if (h->ctl >= 0)
		close(h->ctl);
	if (h->nl >= 0)
		close(h->nl);
	h->exe = h->config = h->err = h->ctl = h->nl = -1;
}
