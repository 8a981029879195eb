// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one place where ltd-native creates something on the host: the
 * persistent state that the policy model names (session transcripts, the
 * auth directory, ~/.claude for --trusted), when it is missing, so that
 * what the cage writes there survives the run.  Directories 0700, files
 * 0600, each component opened without following links from the real home.
 */
#include "runtime/state.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/cleanup.h"

static int open_dir_beneath(int dirfd, const char *name)
{
	struct open_how how = {
		.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS,
	};

	return (int)syscall(SYS_openat2, dirfd, name, &how, sizeof(how));
}

static int create_one(const char *home, const struct ltd_user_mount *m,
		      struct ltd_err *err)
{
	_cleanup_close_ int dirfd = -1;
	char rel[4096], *comp, *slash;
	size_t n = strlen(home);
	struct stat st;

	if (lstat(m->src, &st) == 0 || errno != ENOENT)
		return 0; /* there (validation checked it) */
	if (strncmp(m->src, home, n) != 0 || m->src[n] != '/' ||
	    strlen(m->src + n + 1) >= sizeof(rel))
		return ltd_err_set(err, EINVAL, "%s: '%s' is not in the home",
				   m->flag, m->src);
	strcpy(rel, m->src + n + 1);
	dirfd = open(home, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return ltd_err_sys(err, "%s: '%s'", m->flag, home);
	for (comp = rel; (slash = strchr(comp, '/')); comp = slash + 1) {
		int fd;

		*slash = '\0';
		if (mkdirat(dirfd, comp, 0700) < 0 && errno != EEXIST)
			return ltd_err_sys(err, "%s: create '%s'", m->flag,
					   m->src);
		fd = open_dir_beneath(dirfd, comp);
		if (fd < 0)
			return ltd_err_sys(err, "%s: '%s' (component '%s')",
					   m->flag, m->src, comp);
		ltd_closep(&dirfd);
		dirfd = fd;
	}
	if (m->state == LTD_STATE_DIR) {
		if (mkdirat(dirfd, comp, 0700) < 0 && errno != EEXIST)
			return ltd_err_sys(err, "%s: create '%s'", m->flag,
					   m->src);
	} else {
		_cleanup_close_ int fd = openat(dirfd, comp,
						O_WRONLY | O_CREAT | O_EXCL |
							O_NOFOLLOW | O_CLOEXEC,
						0600);

		if (fd < 0 && errno != EEXIST)
			return ltd_err_sys(err, "%s: create '%s'", m->flag,
					   m->src);
	}
	return 0;
}

int ltd_state_create(const struct ltd_policy *p, struct ltd_err *err)
{
	for (size_t i = 0; i < p->n_mounts; i++) {
		int ret;

		if (!p->mounts[i].state || !p->host_home)
			continue;
		ret = create_one(p->host_home, &p->mounts[i], err);
		if (ret < 0)
			return ret;
	}
	return 0;
}
