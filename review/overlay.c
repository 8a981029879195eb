// SPDX-License-Identifier: GPL-2.0-or-later
#include "review/overlay.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/path.h"

static const char *const layer_names[LTD_LAYERS] = {
	"the project", "the review's upper", "the review's work"};

static int open_layer(const char *path)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};

	return (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));
}

int ltd_overlay_layers(struct ltd_review_layers *l, const char *project,
		       const char *dir, struct ltd_err *err)
{
	static const char *const sub[LTD_LAYERS] = {NULL, "upper", "work"};

	*l = (struct ltd_review_layers){0};
	for (int i = 0; i < LTD_LAYERS; i++) {
		_cleanup_close_ int fd = -1;
		struct stat st;
		int ret = i == LTD_LAYER_LOWER
				  ? ltd_path_fmt(l->path[i], PATH_MAX, "%s",
						 project)
				  : ltd_path_fmt(l->path[i], PATH_MAX, "%s/%s",
						 dir, sub[i]);

		if (ret < 0)
			return ltd_err_set(err, ENAMETOOLONG,
					   "--review: %s's path is too long",
					   layer_names[i]);
		fd = open_layer(l->path[i]);
		if (fd < 0 || fstat(fd, &st) < 0)
			return ltd_err_sys(err, "--review: %s '%s'",
					   layer_names[i], l->path[i]);
		l->dev[i] = st.st_dev;
		l->ino[i] = st.st_ino;
	}
	return 0;
}

/* One layer given to overlayfs: by fd (Linux 6.13 and later), else by
 * the fd's /proc magic link, which leads to exactly that directory. */
static int set_layer(int fsfd, const char *key, const char *legacy, int fd)
{
	char proc[32];

	if (fsconfig(fsfd, FSCONFIG_SET_FD, key, NULL, fd) == 0)
		return 0;
	if (errno != EINVAL)
		return -1;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	return fsconfig(fsfd, FSCONFIG_SET_STRING, legacy, proc, 0);
}

/* The kernel's own reason for a refusal, from the filesystem context's
 * log (its last error line, "e overlayfs: ..."), into @buf; "" when it
 * said none. */
static void kernel_reason(int fsfd, char *buf, size_t size)
{
	char line[256];
	ssize_t n;

	buf[0] = '\0';
	while ((n = read(fsfd, line, sizeof(line) - 1)) > 0) {
		line[n] = '\0';
		line[strcspn(line, "\n")] = '\0';
		if (n > 2 && line[0] == 'e' && line[1] == ' ')
			snprintf(buf, size, "%.*s", (int)size - 1, line + 2);
	}
}

/* @what refused: the kernel's reason when it gave one, else errno's. */
static int refused(int fsfd, struct ltd_err *err, const char *what)
{
	char why[200];
	int saved = errno;

	kernel_reason(fsfd, why, sizeof(why));
	errno = saved;
	if (!why[0])
		return ltd_err_sys(err, "--review: %s", what);
	return ltd_err_set(err, saved, "--review: %s: %s", what, why);
}

/* The overlay of @fds (lower, upper, work): a detached mount's fd.
 * @volatile_: no sync of the upper's filesystem, neither for the cage's
 * fsync nor at the unmount (a review run: decision 0145). */
static int make_overlay(const int fds[LTD_LAYERS], bool volatile_,
			struct ltd_err *err)
{
	static const char *const keys[LTD_LAYERS][2] = {
		{"lowerdir+", "lowerdir"},
		{"upperdir", "upperdir"},
		{"workdir", "workdir"},
	};
	_cleanup_close_ int fsfd = fsopen("overlay", FSOPEN_CLOEXEC);
	int mfd;

	if (fsfd < 0)
		return ltd_err_sys(err, "--review: overlayfs is not available "
					"(fsopen overlay)");
	for (int i = 0; i < LTD_LAYERS; i++) {
		char what[64];

		snprintf(what, sizeof(what), "overlayfs refuses %s",
			 layer_names[i]);
		if (set_layer(fsfd, keys[i][0], keys[i][1], fds[i]) < 0)
			return refused(fsfd, err, what);
	}
	/* Unprivileged: overlayfs keeps its own attributes in user.overlay.*
	 * xattrs (Linux 5.11). */
	if (fsconfig(fsfd, FSCONFIG_SET_FLAG, "userxattr", NULL, 0) < 0)
		return ltd_err_sys(err, "--review: overlayfs has no userxattr "
					"(Linux 5.11 or later is needed)");
	/* Without it the unmount at the cage's end syncs the whole
	 * filesystem of the upper (everyone's dirty pages on it), every run;
	 * the launcher syncs instead, once, only a review that stays
	 * (review/run.c).  A kernel that refuses the flag (before 5.10) gets
	 * that sync: more durable, never less. */
	if (volatile_)
		(void)fsconfig(fsfd, FSCONFIG_SET_FLAG, "volatile", NULL, 0);
	/* overlayfs says most of its reasons only in the kernel's log. */
	if (fsconfig(fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return refused(fsfd, err,
			       "cannot mount the overlay (the kernel's log "
			       "says why: a project on too many stacked "
			       "overlays, an upper whose filesystem lacks "
			       "user xattrs...)");
	mfd = fsmount(fsfd, FSMOUNT_CLOEXEC,
		      MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
	if (mfd < 0)
		return ltd_err_sys(err, "--review: mount the overlay");
	return mfd;
}

int ltd_overlay_make(const struct ltd_review_layers *l, struct ltd_err *err)
{
	int fds[LTD_LAYERS] = {-1, -1, -1};
	int ret = 0;

	for (int i = 0; i < LTD_LAYERS && !ret; i++) {
		struct stat st;

		fds[i] = open_layer(l->path[i]);
		if (fds[i] < 0 || fstat(fds[i], &st) < 0)
			ret = ltd_err_sys(err, "--review: %s '%s'",
					  layer_names[i], l->path[i]);
		else if (st.st_dev != l->dev[i] || st.st_ino != l->ino[i])
			ret = ltd_err_set(err, ESTALE,
					  "--review: %s '%s' was replaced "
					  "while the cage started",
					  layer_names[i], l->path[i]);
	}
	if (!ret)
		ret = make_overlay(fds, true, err);
	for (int i = 0; i < LTD_LAYERS; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return ret;
}

static int write_file(const char *path, const char *text)
{
	_cleanup_close_ int fd = open(path, O_WRONLY | O_CLOEXEC);
	size_t len = strlen(text);

	return fd >= 0 && write(fd, text, len) == (ssize_t)len ? 0 : -1;
}

/* The child of ltd_overlay_probe(): namespaces, the maps, the mount. */
static int probe_child(const char *dir, uid_t uid, gid_t gid,
		       struct ltd_err *err)
{
	static const char *const sub[LTD_LAYERS] = {"lower", "upper", "work"};
	int fds[LTD_LAYERS];
	char map[64], path[PATH_MAX];
	int mfd;

	if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
		return ltd_err_sys(err, "unshare");
	snprintf(map, sizeof(map), "%u %u 1\n", (unsigned)uid, (unsigned)uid);
	if (write_file("/proc/self/setgroups", "deny") < 0 ||
	    write_file("/proc/self/uid_map", map) < 0)
		return ltd_err_sys(err, "uid map");
	snprintf(map, sizeof(map), "%u %u 1\n", (unsigned)gid, (unsigned)gid);
	if (write_file("/proc/self/gid_map", map) < 0)
		return ltd_err_sys(err, "gid map");
	for (int i = 0; i < LTD_LAYERS; i++) {
		if (ltd_path_fmt(path, sizeof(path), "%s/%s", dir, sub[i]) < 0)
			return ltd_err_set(err, ENAMETOOLONG, "'%s'", dir);
		fds[i] = open_layer(path);
		if (fds[i] < 0)
			return ltd_err_sys(err, "open %s", path);
	}
	mfd = make_overlay(fds, false, err);
	return mfd < 0 ? mfd : 0;
}

int ltd_overlay_probe(const char *dir, struct ltd_err *err)
{
	static const char *const sub[LTD_LAYERS] = {"lower", "upper", "work"};
	uid_t uid = getuid();
	gid_t gid = getgid();
	char tmpl[PATH_MAX], path[PATH_MAX];
	int pfd[2], status, ret = 0;
	ssize_t n;
	pid_t pid;

	if (ltd_path_fmt(tmpl, sizeof(tmpl), "%s/.probe.XXXXXX", dir) < 0)
		return ltd_err_set(err, ENAMETOOLONG, "'%s' is too long", dir);
	if (!mkdtemp(tmpl))
		return ltd_err_sys(err, "create a directory in %s", dir);
	for (int i = 0; i < LTD_LAYERS && !ret; i++) {
		if (ltd_path_fmt(path, sizeof(path), "%s/%s", tmpl, sub[i]) < 0)
			ret = ltd_err_set(err, ENAMETOOLONG, "'%s'", tmpl);
		else if (mkdir(path, 0700) < 0)
			ret = ltd_err_sys(err, "mkdir %s", path);
	}
	if (!ret && pipe2(pfd, O_CLOEXEC) < 0)
		ret = ltd_err_sys(err, "pipe");
	if (!ret && (pid = fork()) < 0)
		ret = ltd_err_sys(err, "fork");
	if (!ret && pid == 0) {
		struct ltd_err cerr = {0};

		close(pfd[0]);
		if (probe_child(tmpl, uid, gid, &cerr) < 0)
			(void)!write(pfd[1], &cerr, sizeof(cerr));
		_exit(0);
	}
	if (!ret) {
		close(pfd[1]);
		n = read(pfd[0], err, sizeof(*err));
		close(pfd[0]);
		waitpid(pid, &status, 0);
		if (n == (ssize_t)sizeof(*err)) {
			err->msg[sizeof(err->msg) - 1] = '\0';
			ret = -(err->code ? err->code : EIO);
		}
	}
	for (int i = LTD_LAYERS; i-- > 0;) {
		if (ltd_path_fmt(path, sizeof(path), "%s/%s", tmpl, sub[i]) < 0)
			continue;
		/* overlayfs leaves work/work behind, mode 000. */
		if (i == LTD_LAYER_WORK) {
			char ww[PATH_MAX + 8];

			if (ltd_path_fmt(ww, sizeof(ww), "%s/work", path) == 0)
				rmdir(ww);
		}
		rmdir(path);
	}
	rmdir(tmpl);
	return ret;
}
