// SPDX-License-Identifier: GPL-2.0-or-later
#include "runtime/pty.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/cleanup.h"

#ifndef TIOCGPTPEER
#define TIOCGPTPEER _IO('T', 0x41)
#endif

bool ltd_pty_wanted(void)
{
	return isatty(STDIN_FILENO);
}

int ltd_pty_open(int *master, int *slave, const struct winsize *ws,
		 struct ltd_err *err)
{
	_cleanup_close_ int m =
		open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);
	int unlock = 0, s;

	if (m < 0)
		return ltd_err_sys(err, "open /dev/ptmx");
	if (ioctl(m, TIOCSPTLCK, &unlock) < 0)
		return ltd_err_sys(err, "unlock the pty");
	s = ioctl(m, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (s < 0)
		return ltd_err_sys(err, "open the pty's terminal");
	if (ws && ws->ws_row && ioctl(m, TIOCSWINSZ, ws) < 0) {
		close(s);
		return ltd_err_sys(err, "set the pty's size");
	}
	*slave = s;
	*master = ltd_steal_fd(&m);
	return 0;
}

int ltd_pty_attach(int slave, struct ltd_err *err)
{
	/* Before seccomp (which refuses TIOCSTI but not this) and after
	 * setsid(): a session leader without a terminal takes this one. */
	if (ioctl(slave, TIOCSCTTY, 0) < 0)
		return ltd_err_sys(err, "TIOCSCTTY");
	for (int fd = 0; fd < 3; fd++)
		if (dup2(slave, fd) < 0)
			return ltd_err_sys(err, "dup2 the terminal");
	if (slave > 2)
		close(slave);
	return 0;
}

void ltd_relay_start(struct ltd_relay *r, int master)
{
	struct termios raw;
	struct winsize ws;

	*r = (struct ltd_relay){.master = master, .master_open = true};
	fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
	if (ioctl(STDIN_FILENO, TIOCGWINSZ, &ws) == 0)
		ioctl(master, TIOCSWINSZ, &ws);
	/* A launcher in the background (`ltd-native run ... &`) must not
	 * take the terminal from the shell: it relays output only. */
	if (tcgetpgrp(STDIN_FILENO) != getpgrp() ||
	    tcgetattr(STDIN_FILENO, &r->saved) < 0)
		return;
	raw = r->saved;
	cfmakeraw(&raw);
	if (tcsetattr(STDIN_FILENO, TCSADRAIN, &raw) == 0) {
		r->raw = true;
		r->in_open = true;
	}
}

size_t ltd_relay_pollfds(struct ltd_relay *r, struct pollfd *pfd)
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
static bool copy_out(struct ltd_relay *r)
{
	char buf[LTD_RELAY_BUF];

	for (;;) {
		ssize_t n = read(r->master, buf, sizeof(buf));

		if (n > 0) {
			write_all(STDOUT_FILENO, buf, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		/* EIO: every holder of the inner terminal closed it. */
		return n < 0 && errno == EAGAIN;
	}
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

void ltd_relay_dispatch(struct ltd_relay *r, const struct pollfd *pfd, size_t n)
{
	if (n < LTD_RELAY_POLLFDS || r->master < 0)
		return;
	if (pfd[0].fd >= 0 && pfd[0].revents) {
		ssize_t k = read(STDIN_FILENO, r->buf, sizeof(r->buf));

		if (k > 0) {
			r->len = (size_t)k;
			r->off = 0;
		} else if (k == 0 || errno != EINTR) {
			r->in_open = false; /* the outer terminal hung up */
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
	if (r->master >= 0) {
		if (r->master_open)
			copy_out(r);
		close(r->master);
		r->master = -1;
	}
	if (r->raw) {
		tcsetattr(STDIN_FILENO, TCSADRAIN, &r->saved);
		r->raw = false;
	}
}
