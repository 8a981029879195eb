// SPDX-License-Identifier: GPL-2.0-or-later
#include "runtime/relay.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "common/base.h"
#include "common/cleanup.h"
#include "common/text.h"

void ltd_relay_start(struct ltd_relay *r, int master, bool allow_clipboard)
{
	struct termios raw;
	struct winsize ws;

	*r = (struct ltd_relay){.master = master, .master_open = true};
	/* Bytes to a pipe or a file are never touched. */
	r->filter_on = isatty(STDOUT_FILENO);
	ltd_termfilter_init(&r->filter, allow_clipboard);
	fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
	r->buf = malloc(LTD_RELAY_BUF);
	if (ioctl(STDIN_FILENO, TIOCGWINSZ, &ws) == 0)
		ioctl(master, TIOCSWINSZ, &ws);
	/* A launcher in the background (`ltd-native run ... &`) must not
	 * take the terminal from the shell: it relays output only. */
	if (!r->buf || tcgetpgrp(STDIN_FILENO) != getpgrp() ||
	    tcgetattr(STDIN_FILENO, &r->saved) < 0)
		return;
	raw = r->saved;
	cfmakeraw(&raw);
	if (tcsetattr(STDIN_FILENO, TCSADRAIN, &raw) == 0) {
		r->raw = true;
		r->in_open = true;
	}
}

LTD_WAIT_CODE size_t ltd_relay_pollfds(struct ltd_relay *r, struct pollfd *pfd)
{
	pfd[0] = (struct pollfd){.fd = -1};
	pfd[1] = (struct pollfd){.fd = -1};
	if (r->master < 0)
		return 0;
	if (r->in_open && r->len == 0)
		pfd[0] = (struct pollfd){.fd = STDIN_FILENO, .events = POLLIN};
	if (r->master_open)
		pfd[1] = (struct pollfd){
			.fd = r->master,
			.events = POLLIN | (r->len ? POLLOUT : 0),
		};
	return LTD_RELAY_POLLFDS;
}

static void write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return; /* the outer terminal is gone: drop it */
		p += w;
		n -= (size_t)w;
	}
}

/* Inner terminal -> stdout, until it would block.  False at its end. */
/*
 * At most @rounds buffers per call: a command that floods its terminal
 * must not keep the launcher from reading the user's keys (Ctrl-C among
 * them) or serving anything else.  Returns false once the inner terminal
 * is gone.
 */
static bool copy_out_some(struct ltd_relay *r, unsigned rounds)
{
	char buf[LTD_RELAY_BUF], out[LTD_RELAY_BUF + LTD_TERMFILTER_HOLD];

	while (rounds--) {
		ssize_t n = read(r->master, buf, sizeof(buf));

		if (n > 0 && r->filter_on)
			write_all(STDOUT_FILENO, out,
				  ltd_termfilter_feed(&r->filter, buf,
						      (size_t)n, out));
		else if (n > 0)
			write_all(STDOUT_FILENO, buf, (size_t)n);
		if (n > 0)
			continue;
		if (n < 0 && errno == EINTR)
			continue;
		/* EIO: every holder of the inner terminal closed it. */
		return n < 0 && errno == EAGAIN;
	}
	return true; /* more to read: the next round */
}

static bool copy_out(struct ltd_relay *r)
{
	return copy_out_some(r, 4);
}

static void flush_in(struct ltd_relay *r)
{
	while (r->off < r->len) {
		ssize_t n = write(r->master, r->buf + r->off, r->len - r->off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			r->off = r->len;
			break;
		}
		r->off += (size_t)n;
	}
	r->off = r->len = 0;
}

/*
 * The user's terminal is gone (its reads end: EOF, EIO, a hang-up): the
 * command's terminal is hung up as a real one's would be.  Closing the
 * master is what the kernel turns into a hang-up of the pty: SIGHUP and
 * SIGCONT to the session leader (the command, whose shell passes SIGHUP
 * on to its jobs), end of file on its reads, EIO on its writes.  Then the
 * usual end: when the command has gone, so has the cage.  Nothing else
 * would end it: a launcher under runuser or su gets no SIGHUP of its own
 * (they block it while they wait), and an unnamed cage has no name for
 * `ltd-native kill`.
 */
static void hang_up(struct ltd_relay *r)
{
	r->in_open = false;
	r->len = r->off = 0;
	if (r->master >= 0)
		close(r->master);
	r->master = -1;
	r->master_open = false;
	/* Said where it can still be read (stderr redirected to a file). */
	ltd_warn("your terminal went away: the command's terminal was hung "
		 "up (SIGHUP)");
}

void ltd_relay_dispatch(struct ltd_relay *r, const struct pollfd *pfd, size_t n)
{
	if (n < LTD_RELAY_POLLFDS || r->master < 0)
		return;
	if (pfd[0].fd >= 0 && pfd[0].revents) {
		ssize_t k = read(STDIN_FILENO, r->buf, LTD_RELAY_BUF);

		if (k > 0) {
			r->len = (size_t)k;
			r->off = 0;
		} else if (k == 0 || (errno != EINTR && errno != EAGAIN)) {
			hang_up(r);
			return;
		}
	}
	if (pfd[1].fd >= 0 && (pfd[1].revents & (POLLIN | POLLHUP | POLLERR)) &&
	    !copy_out(r))
		r->master_open = false;
	if (r->len && r->master_open)
		flush_in(r);
}

void ltd_relay_winch(struct ltd_relay *r)
{
	struct winsize ws;

	if (r->master >= 0 && ioctl(STDIN_FILENO, TIOCGWINSZ, &ws) == 0)
		ioctl(r->master, TIOCSWINSZ, &ws);
}

void ltd_relay_finish(struct ltd_relay *r)
{
	char reset[LTD_TERMFILTER_RESET_MAX];

	if (r->master >= 0) {
		/* What the command wrote last, within reason. */
		if (r->master_open)
			copy_out_some(r, 64);
		close(r->master);
		r->master = -1;
	}
	/* What the command switched on in the user's terminal (alternate
	 * screen, mouse reports, bracketed paste, a hidden cursor...) is
	 * switched off, and nothing else: leaving an alternate screen it had
	 * left itself would restore a stale cursor and draw over its last
	 * lines.  A second call finds nothing left to undo. */
	if (r->filter_on)
		write_all(STDOUT_FILENO, reset,
			  ltd_termfilter_reset(&r->filter, reset));
	if (r->raw) {
		/* Answers to its queries still on the way are dropped rather
		 * than typed into the host shell. */
		tcsetattr(STDIN_FILENO, TCSADRAIN, &r->saved);
		tcflush(STDIN_FILENO, TCIFLUSH);
		r->raw = false;
	}
	free(r->buf);
	r->buf = NULL;
	r->len = r->off = 0;
}
