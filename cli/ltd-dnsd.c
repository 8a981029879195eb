// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ltd-dnsd: the DNS filter (dnsd/dnsd.h) as a process of its own,
 * started by the launcher (runtime/dnsproc.h) with its descriptors at
 * fixed numbers and an empty environment.  It confines itself before it
 * reads a single query: no new privileges, not dumpable, a bound on its
 * descriptors, Landlock with no filesystem access at all and (ABI 4) no
 * TCP connection or bind, then a seccomp filter of the few calls it makes
 * (no socket, no connect: the launcher hands it each upstream socket,
 * connected).  Not meant to be run by hand.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "common/text.h"
#include "confine/landlock.h"
#include "confine/seccomp.h"
#include "dnsd/dnsd.h"
#include "dnsd/dnswire.h"
#include "dnsd/proto.h"
#include "netfilter/ruleset.h"

#define CONFIG_MAX (64u << 20)
#define NOFILE_MAX                                                             \
	(LTD_DNSH_FD_AUDIT + 1 + LTD_DNSD_MAX_CONNS + LTD_DNSD_MAX_PENDING + 8)

static char audit_buf[1 << 16];

static int read_config(uint8_t **blob, size_t *len, struct ltd_err *err)
{
	struct stat st;
	size_t off = 0;
	uint8_t *b;

	if (fstat(LTD_DNSH_FD_CONFIG, &st) < 0 || st.st_size < 0 ||
	    (size_t)st.st_size > CONFIG_MAX)
		return ltd_err_sys(err, "its configuration (fd %d)",
				   LTD_DNSH_FD_CONFIG);
	b = malloc((size_t)st.st_size + 1);
	if (!b)
		return ltd_err_set(err, ENOMEM, "out of memory");
	while (off < (size_t)st.st_size) {
		ssize_t n = pread(LTD_DNSH_FD_CONFIG, b + off,
				  (size_t)st.st_size - off, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			free(b);
			return ltd_err_sys(err, "reading its configuration");
		}
		off += (size_t)n;
	}
	close(LTD_DNSH_FD_CONFIG);
	*blob = b;
	*len = off;
	return 0;
}

/* Every filesystem right the kernel's ABI knows, handled and granted
 * nowhere. */
static uint64_t all_fs_rights(int abi)
{
	uint64_t top = abi >= 5	  ? LTD_LL_FS_IOCTL_DEV
		       : abi >= 3 ? LTD_LL_FS_TRUNCATE
		       : abi >= 2 ? LTD_LL_FS_REFER
				  : LTD_LL_FS_MAKE_SYM;

	return (top << 1) - 1;
}

static int confine(struct ltd_err *err)
{
	struct ltd_landlock ll = {.abi = ltd_landlock_abi()};
	/* What it holds (fds 0-7), its TCP clients and upstream sockets, and
	 * room: the sockets the launcher hands it stop there.  The filter
	 * keeps it from raising the limit. */
	const struct rlimit fds = {NOFILE_MAX, NOFILE_MAX};
	int ret;

	if (prctl(PR_SET_DUMPABLE, 0) < 0 ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return ltd_err_sys(err, "prctl");
	if (setrlimit(RLIMIT_NOFILE, &fds) < 0)
		return ltd_err_sys(err, "setrlimit(RLIMIT_NOFILE)");
	/* Without Landlock (an old kernel) the helper still runs: the
	 * launcher it replaces had no confinement at all. */
	if (ll.abi > 0) {
		ll.handled_fs = all_fs_rights(ll.abi);
		if (ll.abi >= LTD_LL_NET_ABI) {
			/* Its TCP sockets come connected. */
			ll.handled_net =
				LTD_LL_NET_BIND_TCP | LTD_LL_NET_CONNECT_TCP;
		}
		if (ll.abi >= 6)
			ll.scoped = LTD_LL_SCOPE_ABSTRACT_UNIX |
				    LTD_LL_SCOPE_SIGNAL;
		if (ll.abi > 6)
			ll.abi = 6; /* the largest attr we know */
	}
	ret = ltd_landlock_confine(&ll, err);
	/* Last: its filter refuses what Landlock's set-up calls. */
	if (!ret)
		ret = ltd_seccomp_load(ltd_seccomp_program(LTD_SECCOMP_DNSD),
				       err);
	return ret;
}

/* The summary the launcher prints at exit, written to the control
 * socket. */
static void send_summary(const struct ltd_dnsd *d)
{
	char *text = NULL;
	size_t len = 0, off = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	ltd_dnsd_summary(d, f);
	if (fclose(f) != 0)
		return;
	while (off < len) {
		ssize_t n = write(LTD_DNSH_FD_CTL, text + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	free(text);
}

/* The launcher holds the cage's netfilter socket: ask it to open the
 * addresses, and wait for its word (it re-checks the name against its
 * own allowlist). */
static int learn(void *ctx, const char *name, const struct ltd_nft_learned *l,
		 size_t n, struct ltd_err *err)
{
	static uint8_t msg[1 + sizeof(struct ltd_dnsh_learn)];
	struct ltd_dnsh_learn r;
	struct pollfd p = {.fd = LTD_DNSH_FD_CTL, .events = POLLIN};
	size_t off = 0;
	char ack = 0;

	(void)ctx;
	memset(&r, 0, sizeof(r));
	snprintf(r.name, sizeof(r.name), "%s", name);
	r.n = (uint32_t)(n < LTD_DNSH_MAX_ADDRS ? n : LTD_DNSH_MAX_ADDRS);
	for (uint32_t i = 0; i < r.n; i++) {
		r.a[i].family = (uint32_t)l[i].family;
		r.a[i].ttl = l[i].timeout_s;
		memcpy(r.a[i].addr, l[i].addr, 16);
	}
	msg[0] = LTD_DNSH_LEARN;
	memcpy(msg + 1, &r, sizeof(r));
	while (off < sizeof(msg)) {
		ssize_t w =
			write(LTD_DNSH_FD_CTL, msg + off, sizeof(msg) - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return ltd_err_sys(err, "the launcher's socket");
		off += (size_t)w;
	}
	while (poll(&p, 1, LTD_DNSD_TIMEOUT_MS) < 0 && errno == EINTR)
		;
	if (!(p.revents & POLLIN) || read(LTD_DNSH_FD_CTL, &ack, 1) != 1)
		return ltd_err_set(err, EIO, "the launcher did not answer");
	return ack == LTD_DNSH_OPENED
		       ? 0
		       : ltd_err_set(err, EACCES,
				     "the launcher did not open the addresses");
}

/* Ask the launcher for a socket to the upstream: it opens and connects it
 * (this process may do neither), and passes it over the control socket. */
static int upstream_socket(void *ctx, bool tcp, struct ltd_err *err)
{
	const char req[2] = {LTD_DNSH_SOCKET,
			     tcp ? LTD_DNSH_TCP : LTD_DNSH_UDP};
	struct pollfd p = {.fd = LTD_DNSH_FD_CTL, .events = POLLIN};
	char cbuf[CMSG_SPACE(sizeof(int))], ack = 0;
	struct iovec iov = {&ack, 1};
	struct msghdr mh = {.msg_iov = &iov,
			    .msg_iovlen = 1,
			    .msg_control = cbuf,
			    .msg_controllen = sizeof(cbuf)};
	struct cmsghdr *cm;
	int fd = -1;

	(void)ctx;
	if (write(LTD_DNSH_FD_CTL, req, 2) != 2)
		return ltd_err_sys(err, "the launcher's socket");
	while (poll(&p, 1, LTD_DNSD_TIMEOUT_MS) < 0 && errno == EINTR)
		;
	if (!(p.revents & POLLIN) ||
	    recvmsg(LTD_DNSH_FD_CTL, &mh, MSG_CMSG_CLOEXEC) != 1)
		return ltd_err_set(err, EIO, "the launcher did not answer");
	cm = CMSG_FIRSTHDR(&mh);
	if (cm && cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS &&
	    cm->cmsg_len == CMSG_LEN(sizeof(int)))
		memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	if (ack != LTD_DNSH_OPENED || fd < 0 || (mh.msg_flags & MSG_CTRUNC)) {
		if (fd >= 0)
			close(fd);
		return ltd_err_set(err, EIO, "no socket to the upstream");
	}
	return fd;
}

static int serve(struct ltd_dnsd *d, struct ltd_err *err)
{
	struct pollfd pfd[1 + LTD_DNSD_MAX_POLLFDS];
	const char ready = LTD_DNSH_READY;

	if (write(LTD_DNSH_FD_CTL, &ready, 1) != 1)
		return ltd_err_sys(err, "the launcher's socket");
	for (;;) {
		size_t n = ltd_dnsd_pollfds(d, &pfd[1], LTD_DNSD_MAX_POLLFDS);
		char c;

		pfd[0] = (struct pollfd){.fd = LTD_DNSH_FD_CTL,
					 .events = POLLIN};
		if (poll(pfd, 1 + n, ltd_dnsd_timeout(d)) < 0) {
			if (errno == EINTR)
				continue;
			return ltd_err_sys(err, "poll");
		}
		ltd_dnsd_dispatch(d, &pfd[1], n);
		/* The launcher shut its side: the cage is gone. */
		if (pfd[0].revents && read(LTD_DNSH_FD_CTL, &c, 1) <= 0)
			return 0;
	}
}

int main(int argc, char **argv)
{
	struct ltd_err err = {0};
	struct ltd_dnsd_config cfg;
	struct ltd_domains domains;
	struct ltd_dnsd d = {.udp = -1, .tcp = -1};
	const int fds[2] = {LTD_DNSH_FD_UDP, LTD_DNSH_FD_TCP};
	uint8_t *blob = NULL;
	size_t len = 0;
	bool audit = false;
	int ret;

	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "%s: started by ltd-native, not by hand\n",
			LTD_DNSH_NAME);
		return 2;
	}
	ret = read_config(&blob, &len, &err);
	if (!ret)
		ret = ltd_dnsw_decode(blob, len, &cfg, &domains, &audit, &err);
	free(blob);
	if (!ret && audit && !(cfg.audit = fdopen(LTD_DNSH_FD_AUDIT, "a")))
		ret = ltd_err_sys(&err, "the audit log");
	/* What the audit log's first line would open, now, while there is
	 * a filesystem: jansson seeds its hash tables from /dev/urandom,
	 * glibc's gmtime_r reads the zone once. */
	if (!ret && audit) {
		json_object_seed(0);
		tzset();
		/* A buffer of its own: stdio would fstat the log at the first
		 * line (newfstatat, which the filter refuses: it takes a
		 * path).  Flushed at every line; larger than any line. */
		setvbuf(cfg.audit, audit_buf, _IOFBF, sizeof(audit_buf));
	}
	/* The sockets made non-blocking while fcntl may still set flags. */
	if (!ret)
		ret = ltd_dnsd_init(&d, &cfg, &err);
	if (!ret) {
		ltd_dnsd_attach(&d, fds);
		d.learn = learn;
		d.upstream_socket = upstream_socket;
	}
	if (!ret)
		ret = confine(&err);
	if (!ret)
		ret = serve(&d, &err);
	if (ret < 0) {
		fputs("ltd-native: DNS filter: ", stderr);
		ltd_fput_shown(stderr, err.msg);
		fputc('\n', stderr);
		return 1;
	}
	send_summary(&d);
	return 0;
}
