// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The launcher's side of the DNS filter's process: what it prints of the
 * helper's summary.  The helper answers the cage's queries; whatever it
 * sends back, the launcher prints it as ltd_fput_shown() shows text.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "runtime/dnsproc.h"

/* A stand-in helper on a socket pair: says it is ready, then @text once
 * the launcher shuts its side. */
static void summary_of(const char *text, size_t len, char *out, size_t size)
{
	struct ltd_dnsproc h = LTD_DNSPROC_INIT;
	int sv[2];
	FILE *f;
	pid_t pid;

	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		char c;

		close(sv[0]);
		if (write(sv[1], "R", 1) != 1 || read(sv[1], &c, 1) != 0 ||
		    write(sv[1], text, len) != (ssize_t)len)
			_exit(1);
		_exit(0);
	}
	close(sv[1]);
	h.ctl = sv[0];
	h.pid = pid;
	memset(out, 0, size);
	f = fmemopen(out, size - 1, "w");
	cr_assert_not_null(f);
	ltd_dnsproc_finish(&h, f);
	fclose(f);
	close(sv[0]);
}

Test(dnsproc, the_summary_is_shown_as_text)
{
	static const char text[] = "ltd-native: DNS: refused 1 query: "
				   "a\x1b]0;title\x07-\xe2\x80\xae"
				   "x.test\x9b"
				   "2J\n"
				   "ltd-native: allow a name\r\n";
	char out[512];

	summary_of(text, sizeof(text) - 1, out, sizeof(out));
	cr_assert_str_eq(
		out, "ltd-native: DNS: refused 1 query: a?]0;title?-?x.test?"
		     "2J\n"
		     "ltd-native: allow a name?\n");
}

Test(dnsproc, a_plain_summary_is_printed_as_it_is)
{
	static const char text[] = "ltd-native: DNS: refused 2 queries for "
				   "names outside the allowlist: "
				   "caf\xc3\xa9.test (x2)\n";
	char out[512];

	summary_of(text, sizeof(text) - 1, out, sizeof(out));
	cr_assert_str_eq(out, text);
}
