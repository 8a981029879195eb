// SPDX-License-Identifier: GPL-2.0-or-later
#include "runtime/pty.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/text.h"

#ifndef TIOCGPTPEER
#define TIOCGPTPEER _IO('T', 0x41)
#endif

bool ltd_pty_wanted(void)
{
	return isatty(STDIN_FILENO);
}

/*
 * The master of a pty from a devpts instance of its own, mounted nowhere:
 * no path in the cage leads to its terminal, so no other process of the
 * cage can open it (the cage's /dev/pts is shared by all its processes: an
 * agent could read what a user types into an `exec` session).  Needs
 * CAP_SYS_ADMIN in the cage's user namespace (init before it drops it;
 * exec right after it joins).
 */
static int private_ptmx(struct ltd_err *err)
{
	_cleanup_close_ int fsfd = fsopen("devpts", FSOPEN_CLOEXEC);
	_cleanup_close_ int mfd = -1;
	int m;

	if (fsfd < 0)
		return ltd_err_sys(err, "fsopen devpts");
	if (fsconfig(fsfd, FSCONFIG_SET_STRING, "ptmxmode", "0600", 0) < 0 ||
	    fsconfig(fsfd, FSCONFIG_SET_STRING, "mode", "0600", 0) < 0 ||
	    fsconfig(fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return ltd_err_sys(err, "create a devpts instance");
	mfd = fsmount(fsfd, FSMOUNT_CLOEXEC,
		      MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC);
	if (mfd < 0)
		return ltd_err_sys(err, "mount a devpts instance");
	m = openat(mfd, "ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (m < 0)
		return ltd_err_sys(err, "open ptmx");
	return m;
}

int ltd_pty_open(int *master, int *slave, const struct winsize *ws,
		 bool private, struct ltd_err *err)
{
	_cleanup_close_ int m =
		private ? private_ptmx(err)
			: open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);
	int unlock = 0, s;

	if (m < 0 && !private)
		return ltd_err_sys(err, "open /dev/ptmx");
	if (m < 0)
		return m;
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
