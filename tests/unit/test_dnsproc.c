// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * runtime/dnsproc.c's end of a run against a stand-in helper (a forked
 * child on the control socket): what a compromised ltd-dnsd writes as its
 * summary reaches the terminal only as text, and it cannot hold the
 * launcher past one deadline.
 */
#include <criterion/criterion.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "netfilter/domains.h"
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
