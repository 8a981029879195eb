// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one place where ltd-native creates something on the host: the
 * persistent state that the policy model names (session transcripts, the
 * auth directory, ~/.claude for --trusted), when it is missing, so that
 * what the cage writes there survives the run; and the seeds, files a
 * live bind needs in place (policy.h: ltd_policy_add_seed).  Directories
 * 0700, files 0600, each component opened without following links from
 * the real home.
 */
#include "runtime/state.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "runtime/hostuser.h"

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
	if (m->state & LTD_STATE_DIR) {
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

/*
 * A seed: a file of the home written with its content when missing, its
 * directory opened beneath the home without following a link (a
 * directory missing is left to the binds above, which made it; else the
 * seed is not needed).  Written to a new file, never over one.
 */
static int seed_one(const char *home, const struct ltd_cage_file *f,
		    struct ltd_err *err)
{
	_cleanup_close_ int homefd = -1, dirfd = -1, fd = -1;
	char rel[4096], *slash;
	size_t n = strlen(home), done = 0;
	int ret;

	if (strncmp(f->dst, home, n) != 0 || f->dst[n] != '/' ||
	    strlen(f->dst + n + 1) >= sizeof(rel))
		return ltd_err_set(err, EINVAL, "%s: '%s' is not in the home",
				   f->why, f->dst);
	strcpy(rel, f->dst + n + 1);
	slash = strrchr(rel, '/');
	homefd = open(home, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (homefd < 0)
		return ltd_err_sys(err, "%s: '%s'", f->why, home);
	if (slash) {
		*slash = '\0';
		dirfd = open_dir_beneath(homefd, rel);
		if (dirfd < 0)
			return ltd_err_sys(err, "%s: '%s'", f->why, f->dst);
	}
	fd = openat(slash ? dirfd : homefd, slash ? slash + 1 : rel,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 && errno == EEXIST)
		return 0;
	if (fd < 0)
		return ltd_err_sys(err, "%s: create '%s'", f->why, f->dst);
	while (done < f->len) {
		ssize_t w = write(fd, f->content + done, f->len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			ret = ltd_err_sys(err, "%s: write '%s'", f->why,
					  f->dst);
			/* No half a file left behind. */
			unlinkat(slash ? dirfd : homefd,
				 slash ? slash + 1 : rel, 0);
			return ret;
		}
		done += (size_t)w;
	}
	return 0;
}

int ltd_state_create(const struct ltd_policy *p, struct ltd_err *err)
{
	int ret;

	if (!p->host_home)
		return 0;
	for (size_t i = 0; i < p->n_mounts; i++) {
		if (!p->mounts[i].state)
			continue;
		ret = create_one(p->host_home, &p->mounts[i], err);
		if (ret < 0)
			return ret;
	}
	for (size_t i = 0; i < p->n_seeds; i++) {
		ret = seed_one(p->host_home, &p->seeds[i], err);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* @path is @top or lies beneath it. */
static bool beneath(const char *path, const char *top)
{
	size_t n = strlen(top);

	while (n > 1 && top[n - 1] == '/')
		n--;
	return !strncmp(path, top, n) &&
	       (path[n] == '/' || path[n] == '\0' || (n == 1 && top[0] == '/'));
}

int ltd_state_walk_dir(const struct ltd_policy *p)
{
	static const char *const comps[] = {".local", "state", "ltd-native",
					    "walk"};
	const struct ltd_host_user *u = ltd_host_user();
	_cleanup_close_ int dir = -1;
	char link[64], real[PATH_MAX];
	struct stat st;
	ssize_t n;

	if (!u || !u->home || u->home[0] != '/' || !strcmp(u->home, "/"))
		return -1;
	dir = open(u->home, O_PATH | O_DIRECTORY | O_CLOEXEC);
	for (size_t i = 0; dir >= 0 && i < sizeof(comps) / sizeof(comps[0]);
	     i++) {
		int fd;

		if (mkdirat(dir, comps[i], 0700) < 0 && errno != EEXIST)
			return -1;
		fd = open_dir_beneath(dir, comps[i]);
		ltd_closep(&dir);
		dir = fd;
	}
	if (dir < 0 || fstat(dir, &st) < 0 || st.st_uid != geteuid() ||
	    (st.st_mode & 022))
		return -1;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", dir);
	n = readlink(link, real, sizeof(real) - 1);
	if (n <= 0 || real[0] != '/')
		return -1;
	real[n] = '\0';
	if (p->project && beneath(real, p->project))
		return -1;
	for (size_t i = 0; i < p->n_mounts; i++)
		if (p->mounts[i].src && beneath(real, p->mounts[i].src))
			return -1;
	return ltd_steal_fd(&dir);
}
