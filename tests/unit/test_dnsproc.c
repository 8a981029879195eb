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
