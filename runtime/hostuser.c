// SPDX-License-Identifier: GPL-2.0-or-later
#include "runtime/hostuser.h"

#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const struct ltd_host_user *ltd_host_user(void)
{
	static struct ltd_host_user u;
	static bool done;
	struct passwd *pw;
	struct group *gr;

	if (done)
		return &u;
	u = (struct ltd_host_user){.uid = getuid(), .gid = getgid()};
	pw = getpwuid(u.uid);
	if (pw) {
		u.name = strdup(pw->pw_name);
		u.home = strdup(pw->pw_dir);
		u.shell = strdup(pw->pw_shell);
		u.shell_runs = u.shell && access(u.shell, X_OK) == 0;
	}
	gr = getgrgid(u.gid);
	if (gr)
		u.group = strdup(gr->gr_name);
	/* Out of memory: a field stays NULL, as for a user without one. */
	done = true;
	return &u;
}
