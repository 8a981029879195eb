// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * runtime/dnsproc.c's end of a run against a stand-in helper (a forked
 * child on the control socket): what a compromised ltd-dnsd writes as its
 * summary reaches the terminal only as text, and it cannot hold the
 * launcher past one deadline.
 */
#include <criterion/criterion.h>

#include <arpa/inet.h>
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "policy/domains.h"
#include "runtime/dnsproc.h"

typedef void (*helper_fn)(int fd);

/* A running stand-in for ltd-dnsd, already "ready". */
static struct ltd_dnsproc fake_helper(helper_fn fn)
{
	struct ltd_dnsproc h = LTD_DNSPROC_INIT;
	int sv[2];
	pid_t pid;

	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		close(sv[0]);
		signal(SIGPIPE, SIG_IGN);
		fn(sv[1]);
		_exit(0);
	}
	close(sv[1]);
	h.ctl = sv[0];
	h.pid = pid;
	h.ready = true;
	return h;
}

static void write_all(int fd, const char *s)
{
	size_t len = strlen(s), off = 0;

	while (off < len) {
		ssize_t n = write(fd, s + off, len - off);

		if (n <= 0)
			_exit(1);
		off += (size_t)n;
	}
}

/* Waits for the launcher's shutdown, then writes terminal controls. */
static void escapes(int fd)
{
	char c;

	while (read(fd, &c, 1) > 0)
		;
	write_all(fd, "ltd-native: DNS: refused 1 query: a\x1b]0;owned\x07z\n"
		      "second \x1b[2J\x9b"
		      "31m line\r\n"
		      "no newline at the end");
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

Test(dnsproc, summary_reaches_the_terminal_as_text_only)
{
	struct ltd_dnsproc h = fake_helper(escapes);
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	cr_assert_not_null(out);
	ltd_dnsproc_finish(&h, out);
	ltd_dnsproc_stop(&h);
	fclose(out);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		cr_expect(c == '\n' || (c >= 0x20 && c != 0x7f && c < 0x80),
			  "byte 0x%02x at %zu reached the output: %s", c, i,
			  text);
	}
	cr_expect_not_null(strstr(text, "refused 1 query: a?]0;owned?z\n"),
			   "%s", text);
	cr_expect_not_null(strstr(text, "second ?[2J?31m line?\n"), "%s", text);
	cr_expect_not_null(strstr(text, "no newline at the end\n"), "%s", text);
	free(text);
}

/* Never ends: a byte every 100 ms, whatever the launcher says. */
static void trickle(int fd)
{
	for (;;) {
		write_all(fd, "x");
		usleep(100000);
	}
}

/* Closes its end, then lives on: the launcher must not wait for it. */
static void closes_and_stays(int fd)
{
	char c;

	while (read(fd, &c, 1) > 0)
		;
	close(fd);
	for (;;)
		pause();
}

Test(dnsproc, a_helper_that_closes_and_stays_cannot_hold_the_launcher,
     .timeout = 15)
{
	struct ltd_dnsproc h = fake_helper(closes_and_stays);
	FILE *out = fopen("/dev/null", "w");

	cr_assert_not_null(out);
	/* Without the kill, finish waits for it forever: the test's own
	 * timeout fails it.  No time is asserted here. */
	ltd_dnsproc_finish(&h, out);
	fclose(out);
	cr_expect_eq(h.pid, 0, "the helper was killed and waited for");
	ltd_dnsproc_stop(&h);
}

Test(dnsproc, a_trickling_helper_cannot_hold_the_launcher, .timeout = 15)
{
	struct ltd_dnsproc h = fake_helper(trickle);
	FILE *out = fopen("/dev/null", "w");
	double t0 = now_s(), took;

	cr_assert_not_null(out);
	ltd_dnsproc_finish(&h, out);
	took = now_s() - t0;
	fclose(out);
	/* Without the deadline finish never returns: the test's own
	 * timeout (15 s) fails it.  No time is asserted here. */
	cr_expect_eq(h.pid, 0, "the helper was waited for");
	(void)took;
	ltd_dnsproc_stop(&h);
}

/* ---- the broker: the launcher opens only what its allowlist admits --- */

struct broker_rig {
	struct ltd_dnsproc h;
	struct ltd_domains domains;
	struct ltd_dnsd_config cfg;
	int helper; /* the helper's end of the control socket */
	int kernel; /* the far end of the stand-in netfilter socket */
};

static void broker_rig(struct broker_rig *r)
{
	struct ltd_err err = {0};
	int sv[2], nl[2];

	memset(r, 0, sizeof(*r));
	r->h = (struct ltd_dnsproc)LTD_DNSPROC_INIT;
	cr_assert_eq(ltd_domains_add(&r->domains, "ok.test:443", "cli", &err),
		     0);
	r->cfg = (struct ltd_dnsd_config){.domains = &r->domains,
					  .ttl_floor = 5,
					  .ttl_ceiling = 3600,
					  .quiet = true};
	cr_assert_eq(socketpair(AF_UNIX,
				SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0,
				sv),
		     0);
	cr_assert_eq(socketpair(AF_UNIX,
				SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0,
				nl),
		     0);
	r->h.ctl = sv[0];
	r->helper = sv[1];
	r->h.nl = nl[0];
	r->kernel = nl[1];
	r->h.cfg = &r->cfg;
	r->h.ready = true;
}

/* Send one request as the helper would; the launcher's one-byte answer. */
static char ask(struct broker_rig *r, const struct ltd_dnsh_learn *l)
{
	uint8_t msg[1 + sizeof(*l)];
	struct ltd_err err = {0};
	char ack = 0;

	msg[0] = LTD_DNSH_LEARN;
	memcpy(msg + 1, l, sizeof(*l));
	cr_assert_eq(write(r->helper, msg, sizeof(msg)), (ssize_t)sizeof(msg));
	cr_assert_eq(ltd_dnsproc_readable(&r->h, &err), 0, "%s", err.msg);
	cr_assert_eq(read(r->helper, &ack, 1), 1);
	return ack;
}

static struct ltd_dnsh_learn one_addr(const char *name, uint32_t family)
{
	struct ltd_dnsh_learn l;

	memset(&l, 0, sizeof(l));
	snprintf(l.name, sizeof(l.name), "%s", name);
	l.n = 1;
	l.a[0].family = family;
	l.a[0].ttl = 60;
	l.a[0].addr[0] = 192;
	l.a[0].addr[1] = 0;
	l.a[0].addr[2] = 2;
	l.a[0].addr[3] = 1;
	return l;
}

static bool kernel_got_something(const struct broker_rig *r)
{
	char b[1];

	return recv(r->kernel, b, sizeof(b), MSG_DONTWAIT) >= 0;
}

/* An allowed name's answer may point at the cloud's metadata service or
 * the host itself (DNS rebinding, or a helper taken over): those are never
 * opened; the rest of the answer is. */
Test(dnsproc, broker_opens_no_special_address)
{
	static const uint8_t special[][4] = {
		{169, 254, 169, 254}, {127, 0, 0, 1},	    {0, 0, 0, 0},
		{224, 0, 0, 251},     {255, 255, 255, 255}, {198, 18, 93, 1},
	};
	struct broker_rig r;
	struct ltd_dnsh_learn l = one_addr("ok.test", AF_INET);

	broker_rig(&r);
	l.n = sizeof(special) / sizeof(special[0]);
	for (size_t i = 0; i < l.n; i++) {
		l.a[i] = l.a[0];
		memcpy(l.a[i].addr, special[i], 4);
	}
	cr_expect_eq(ask(&r, &l), LTD_DNSH_REFUSED, "nothing to open");
	cr_expect(!kernel_got_something(&r), "a batch reached netfilter");
	memset(l.a[0].addr, 0, 16);
	l.a[0].family = AF_INET6;
	l.a[0].addr[0] = 0xfe; /* fe80::1 */
	l.a[0].addr[1] = 0x80;
	l.a[0].addr[15] = 1;
	l.n = 1;
	cr_expect_eq(ask(&r, &l), LTD_DNSH_REFUSED, "link-local v6");
	memset(l.a[0].addr, 0, 16);
	l.a[0].addr[10] = l.a[0].addr[11] = 0xff; /* ::ffff:127.0.0.1 */
	l.a[0].addr[12] = 127;
	l.a[0].addr[15] = 1;
	cr_expect_eq(ask(&r, &l), LTD_DNSH_REFUSED, "v4-mapped");
	cr_expect(!kernel_got_something(&r), "a batch reached netfilter");
	ltd_dnsproc_stop(&r.h);
	ltd_domains_free(&r.domains);
}

/* A run learns a bounded number of addresses (a helper taken over could
 * otherwise fill the kernel's sets). */
Test(dnsproc, broker_learns_a_bounded_number_of_addresses)
{
	struct broker_rig r;
	struct ltd_dnsh_learn l = one_addr("ok.test", AF_INET);

	broker_rig(&r);
	r.h.learned = LTD_DNSPROC_MAX_LEARNED;
	cr_expect_eq(ask(&r, &l), LTD_DNSH_REFUSED);
	cr_expect(!kernel_got_something(&r), "past the bound: nothing sent");
	r.h.learned = 0;
	ask(&r, &l);
	cr_expect_eq(r.h.learned, 1, "below it, the address is taken on");
	ltd_dnsproc_stop(&r.h);
	ltd_domains_free(&r.domains);
}

Test(dnsproc, broker_refuses_a_name_outside_its_allowlist)
{
	struct broker_rig r;
	struct ltd_dnsh_learn l = one_addr("evil.test", AF_INET);

	broker_rig(&r);
	cr_expect_eq(ask(&r, &l), LTD_DNSH_REFUSED);
	l = one_addr("ok.test.evil.test", AF_INET);
	cr_expect_eq(ask(&r, &l), LTD_DNSH_REFUSED);
	cr_expect(!kernel_got_something(&r), "a batch reached netfilter");
	ltd_dnsproc_stop(&r.h);
	ltd_domains_free(&r.domains);
}

Test(dnsproc, broker_refuses_what_is_not_an_address)
{
	struct broker_rig r;
	struct ltd_dnsh_learn l = one_addr("ok.test", AF_UNIX);

	broker_rig(&r);
	cr_expect_eq(ask(&r, &l), LTD_DNSH_REFUSED);
	l = one_addr("ok.test", AF_INET);
	l.n = LTD_DNSH_MAX_ADDRS + 1;
	cr_expect_eq(ask(&r, &l), LTD_DNSH_REFUSED);
	cr_expect(!kernel_got_something(&r), "a batch reached netfilter");
	ltd_dnsproc_stop(&r.h);
	ltd_domains_free(&r.domains);
}

Test(dnsproc, a_byte_outside_the_protocol_ends_the_helper)
{
	struct broker_rig r;
	struct ltd_err err = {0};

	broker_rig(&r);
	cr_assert_eq(write(r.helper, "X", 1), 1);
	cr_expect_lt(ltd_dnsproc_readable(&r.h, &err), 0);
	ltd_dnsproc_stop(&r.h);
	ltd_domains_free(&r.domains);
}

/* ---- upstream sockets: the launcher opens them, the helper may not --- */

/* An upstream on the loopback (a UDP socket and a TCP listener on one
 * port), put in the rig's configuration. */
static void rig_upstream(struct broker_rig *r, int *udp, int *tcp)
{
	struct sockaddr_in a = {.sin_family = AF_INET};
	socklen_t len = sizeof(a);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	*tcp = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	cr_assert_geq(*tcp, 0);
	cr_assert_eq(bind(*tcp, (struct sockaddr *)&a, sizeof(a)), 0);
	cr_assert_eq(listen(*tcp, 4), 0);
	cr_assert_eq(getsockname(*tcp, (struct sockaddr *)&a, &len), 0);
	*udp = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	cr_assert_geq(*udp, 0);
	cr_assert_eq(bind(*udp, (struct sockaddr *)&a, sizeof(a)), 0);
	memcpy(&r->cfg.upstream, &a, sizeof(a));
	r->cfg.upstream_len = sizeof(a);
}

/* Ask for a socket of @kind as the helper would: the answer byte, and the
 * descriptors that came with it (-1: none; a second one fails the test). */
static char ask_socket(struct broker_rig *r, char kind, int *fd)
{
	const char req[2] = {LTD_DNSH_SOCKET, kind};
	char cbuf[CMSG_SPACE(4 * sizeof(int))], ack = 0;
	struct iovec iov = {&ack, 1};
	struct msghdr mh = {.msg_iov = &iov,
			    .msg_iovlen = 1,
			    .msg_control = cbuf,
			    .msg_controllen = sizeof(cbuf)};
	struct ltd_err err = {0};
	size_t n = 0;

	*fd = -1;
	cr_assert_eq(write(r->helper, req, 2), 2);
	cr_assert_eq(ltd_dnsproc_readable(&r->h, &err), 0, "%s", err.msg);
	cr_assert_eq(recvmsg(r->helper, &mh, MSG_CMSG_CLOEXEC), 1);
	cr_assert(!(mh.msg_flags & MSG_CTRUNC));
	for (struct cmsghdr *cm = CMSG_FIRSTHDR(&mh); cm;
	     cm = CMSG_NXTHDR(&mh, cm)) {
		cr_assert_eq(cm->cmsg_level, SOL_SOCKET);
		cr_assert_eq(cm->cmsg_type, SCM_RIGHTS);
		n += (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		memcpy(fd, CMSG_DATA(cm), sizeof(int));
	}
	cr_assert_leq(n, 1, "%zu descriptors with one answer", n);
	/* Nothing else follows the answer. */
	cr_assert_lt(recv(r->helper, cbuf, 1, MSG_DONTWAIT), 0);
	return ack;
}

static void expect_peer_is_upstream(const struct broker_rig *r, int fd,
				    int type)
{
	struct sockaddr_in peer;
	socklen_t len = sizeof(peer);
	int t = 0;
	socklen_t tl = sizeof(t);

	cr_assert_eq(getsockopt(fd, SOL_SOCKET, SO_TYPE, &t, &tl), 0);
	cr_expect_eq(t, type);
	cr_expect(fcntl(fd, F_GETFL) & O_NONBLOCK, "a blocking socket");
	cr_assert_eq(getpeername(fd, (struct sockaddr *)&peer, &len), 0);
	cr_expect_eq(memcmp(&peer, &r->cfg.upstream, sizeof(peer)), 0,
		     "connected elsewhere than the upstream");
}

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	cr_assert_not_null(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

Test(dnsproc, the_launcher_hands_over_sockets_to_the_upstream_only)
{
	struct broker_rig r;
	int up_udp, up_tcp, fd, client, before;
	struct pollfd p;
	char b[4];

	broker_rig(&r);
	rig_upstream(&r, &up_udp, &up_tcp);
	before = open_fds();

	cr_assert_eq(ask_socket(&r, LTD_DNSH_UDP, &fd), LTD_DNSH_OPENED);
	cr_assert_geq(fd, 0, "no descriptor with the answer");
	expect_peer_is_upstream(&r, fd, SOCK_DGRAM);
	cr_assert_eq(send(fd, "q", 1, 0), 1);
	cr_expect_eq(recv(up_udp, b, sizeof(b), 0), 1);
	close(fd);

	/* TCP: the connect may still be in progress; it lands on the
	 * upstream's listener. */
	cr_assert_eq(ask_socket(&r, LTD_DNSH_TCP, &fd), LTD_DNSH_OPENED);
	cr_assert_geq(fd, 0, "no descriptor with the answer");
	p = (struct pollfd){.fd = fd, .events = POLLOUT};
	cr_assert_eq(poll(&p, 1, 5000), 1);
	expect_peer_is_upstream(&r, fd, SOCK_STREAM);
	client = accept(up_tcp, NULL, NULL);
	cr_expect_geq(client, 0, "the upstream saw no connection");
	close(client);
	close(fd);

	/* The launcher kept no copy. */
	cr_expect_eq(open_fds(), before, "%d descriptors before, %d after",
		     before, open_fds());
	ltd_dnsproc_stop(&r.h);
	close(up_udp);
	close(up_tcp);
	ltd_domains_free(&r.domains);
}

Test(dnsproc, no_upstream_no_socket)
{
	struct broker_rig r;
	int fd;

	broker_rig(&r);
	cr_expect_eq(ask_socket(&r, LTD_DNSH_UDP, &fd), LTD_DNSH_REFUSED);
	cr_expect_eq(fd, -1, "a descriptor came with a refusal");
	ltd_dnsproc_stop(&r.h);
	ltd_domains_free(&r.domains);
}

Test(dnsproc, a_socket_request_outside_the_protocol_ends_the_helper)
{
	struct broker_rig r;
	struct ltd_err err = {0};
	const char bad[2] = {LTD_DNSH_SOCKET, 'R'};
	const char two[4] = {LTD_DNSH_SOCKET, LTD_DNSH_UDP, LTD_DNSH_SOCKET,
			     LTD_DNSH_UDP};
	int up_udp, up_tcp;

	/* A kind that is neither UDP nor TCP. */
	broker_rig(&r);
	cr_assert_eq(write(r.helper, bad, 2), 2);
	cr_expect_lt(ltd_dnsproc_readable(&r.h, &err), 0);
	ltd_dnsproc_stop(&r.h);
	ltd_domains_free(&r.domains);

	/* Asking again before reading the answer: sockets would pile up in
	 * the queue. */
	broker_rig(&r);
	rig_upstream(&r, &up_udp, &up_tcp);
	cr_assert_eq(write(r.helper, two, 4), 4);
	cr_expect_lt(ltd_dnsproc_readable(&r.h, &err), 0);
	ltd_dnsproc_stop(&r.h);
	close(up_udp);
	close(up_tcp);
	ltd_domains_free(&r.domains);
}

/* Where the helper is looked for: beside the resolved launcher (the build
 * tree, the tests' copies), then in ../libexec/ltd-native/ (make install,
 * the Debian package). */
Test(dnsproc, the_helper_is_looked_for_beside_then_in_libexec)
{
	char buf[64];

	cr_assert_eq(
		ltd_dnsproc_path("/usr/bin/ltd-native", 0, buf, sizeof(buf)),
		0);
	cr_expect_str_eq(buf, "/usr/bin/ltd-dnsd");
	cr_assert_eq(
		ltd_dnsproc_path("/usr/bin/ltd-native", 1, buf, sizeof(buf)),
		0);
	cr_expect_str_eq(buf, "/usr/libexec/ltd-native/ltd-dnsd");
	cr_assert_eq(
		ltd_dnsproc_path("/opt/x/bin/ltd-native", 1, buf, sizeof(buf)),
		0);
	cr_expect_str_eq(buf, "/opt/x/libexec/ltd-native/ltd-dnsd");
	/* A launcher one level below / or at / itself: the parent of / is /. */
	cr_assert_eq(ltd_dnsproc_path("/bin/ltd-native", 1, buf, sizeof(buf)),
		     0);
	cr_expect_str_eq(buf, "/libexec/ltd-native/ltd-dnsd");
	cr_assert_eq(ltd_dnsproc_path("/ltd-native", 0, buf, sizeof(buf)), 0);
	cr_expect_str_eq(buf, "/ltd-dnsd");
	cr_assert_eq(ltd_dnsproc_path("/ltd-native", 1, buf, sizeof(buf)), 0);
	cr_expect_str_eq(buf, "/libexec/ltd-native/ltd-dnsd");
	/* There is no third place, and no relative launcher. */
	cr_expect_eq(
		ltd_dnsproc_path("/usr/bin/ltd-native", 2, buf, sizeof(buf)),
		-ENOENT);
	cr_expect_eq(ltd_dnsproc_path("bin/ltd-native", 0, buf, sizeof(buf)),
		     -EINVAL);
	/* Too long for the buffer: refused, not cut. */
	cr_expect_eq(ltd_dnsproc_path("/usr/bin/ltd-native", 1, buf, 20),
		     -ENAMETOOLONG);
	cr_expect_eq(ltd_dnsproc_path("/usr/bin/ltd-native", 0, buf, 17),
		     -ENAMETOOLONG);
}
