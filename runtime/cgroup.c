// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cage's cgroup: probe what the host delegates, create a child of the
 * launcher's own cgroup with the cage's limits, remove it after the run.
 * Every function takes the directory it works under, so the tests run it
 * against a fake tree laid out like cgroupfs.
 *
 * Layout, when the launcher's cgroup OWN must first enable controllers
 * (a cgroup that does may hold no process: the no-internal-processes rule):
 *
 *   OWN/                     subtree_control += memory cpu pids
 *   OWN/ltd-PID.launcher/    the launcher, moved here for the run
 *   OWN/ltd-PID/             the cage: memory.max, cpu.max, pids.max
 */
#include "runtime/limits.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "policy/limits.h"

static ssize_t read_text(const char *dir, const char *name, char *buf,
			 size_t size)
{
	_cleanup_close_ int fd = -1;
	char path[LTD_CG_PATH_MAX + 64];
	ssize_t n, off = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((size_t)off + 1 < size &&
	       (n = read(fd, buf + off, size - (size_t)off - 1)) > 0)
		off += n;
	buf[off] = '\0';
	return off;
}

/* O_CREAT does nothing on cgroupfs, whose files exist; it lets the tests'
 * fake tree record what was written. */
static int write_text(const char *dir, const char *name, const char *text,
		      struct ltd_err *err)
{
	_cleanup_close_ int fd = -1;
	char path[LTD_CG_PATH_MAX + 64];
	size_t len = strlen(text);

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, text, len) != (ssize_t)len)
		return ltd_err_sys(err, "cgroup: write '%s' to %s", text, path);
	return 0;
}

static bool writable(const char *dir, const char *name)
{
	char path[LTD_CG_PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, W_OK) == 0;
}

int ltd_cgroup_read_dir(const char *dir, pid_t self, struct ltd_cg_facts *f,
			struct ltd_err *err)
{
	char buf[4096], me[24];
	ssize_t n;

	if (strlen(dir) >= sizeof(f->dir))
		return ltd_err_set(err, ENAMETOOLONG, "cgroup path too long");
	snprintf(f->dir, sizeof(f->dir), "%s", dir);
	f->v2 = true;
	f->writable = access(dir, W_OK) == 0 && writable(dir, "cgroup.procs") &&
		      writable(dir, "cgroup.subtree_control");
	if (read_text(dir, "cgroup.controllers", buf, sizeof(buf)) >= 0)
		f->available = ltd_limits_parse_controllers(buf);
	if (read_text(dir, "cgroup.subtree_control", buf, sizeof(buf)) >= 0)
		f->enabled = ltd_limits_parse_controllers(buf);
	/* Reading cgroup.procs lists every process of the cgroup (all of the
	 * host's in a root cgroup: ~90 us here); only worth it where the
	 * cgroup could be used at all. */
	if (!f->writable)
		return 0;
	n = read_text(dir, "cgroup.procs", buf, sizeof(buf));
	snprintf(me, sizeof(me), "%d\n", (int)self);
	f->alone = n >= 0 && strcmp(buf, me) == 0;
	return 0;
}

/*
 * Where cgroup2 is mounted: the usual places first (a statfs each), the
 * first cgroup2 line of mountinfo otherwise.  Reading mountinfo costs
 * ~40 us on every run here, a statfs ~2 us.  Either way only the mount
 * point is used (as the mountinfo parser always did).
 */
static int cgroup2_mount(char *mnt, size_t size, char *text, size_t tsize)
{
	static const char *const usual[] = {"/sys/fs/cgroup",
					    "/sys/fs/cgroup/unified"};
	struct statfs sf;

	for (size_t i = 0; i < sizeof(usual) / sizeof(usual[0]); i++)
		if (statfs(usual[i], &sf) == 0 &&
		    sf.f_type == CGROUP2_SUPER_MAGIC) {
			snprintf(mnt, size, "%s", usual[i]);
			return 0;
		}
	if (read_text("/proc/self", "mountinfo", text, tsize) < 0)
		return -ENOENT;
	return ltd_limits_parse_mountinfo(text, mnt, size);
}

int ltd_cgroup_probe(struct ltd_cg_facts *f, struct ltd_err *err)
{
	static char text[1 << 16];
	char mnt[LTD_CG_PATH_MAX], rel[LTD_CG_PATH_MAX],
		dir[2 * LTD_CG_PATH_MAX];
	struct utsname u;

	*f = (struct ltd_cg_facts){0};
	if (uname(&u) == 0)
		f->nproc_per_userns =
			ltd_limits_kernel_at_least(u.release, 5, 14);
	if (cgroup2_mount(mnt, sizeof(mnt), text, sizeof(text)) < 0)
		return 0; /* no cgroup2 mounted: v2 stays false */
	if (read_text("/proc/self", "cgroup", text, sizeof(text)) < 0 ||
	    ltd_limits_parse_self(text, rel, sizeof(rel)) < 0)
		return 0;
	snprintf(dir, sizeof(dir), "%s%s", mnt,
		 strcmp(rel, "/") == 0 ? "" : rel);
	if (strlen(dir) >= sizeof(f->dir))
		return 0;
	return ltd_cgroup_read_dir(dir, getpid(), f, err);
}

static int subtree(const char *own, unsigned bits, char sign,
		   struct ltd_err *err)
{
	static const char *const names[] = {"memory", "cpu", "pids"};
	char text[64] = "";
	size_t off = 0;

	for (unsigned i = 0; i < 3; i++)
		if (bits & (1U << i))
			off += (size_t)snprintf(text + off, sizeof(text) - off,
						"%s%c%s", off ? " " : "", sign,
						names[i]);
	return off ? write_text(own, "cgroup.subtree_control", text, err) : 0;
}

static int move_self(const char *dir, pid_t self, struct ltd_err *err)
{
	char pid[24];

	snprintf(pid, sizeof(pid), "%d", (int)self);
	return write_text(dir, "cgroup.procs", pid, err);
}

int ltd_cgroup_create(const char *own, const struct ltd_limits_plan *pl,
		      pid_t self, struct ltd_cgroup *cg, struct ltd_err *err)
{
	int ret = 0;

	*cg = (struct ltd_cgroup){.fd = -1};
	snprintf(cg->own, sizeof(cg->own), "%s", own);
	if (pl->evacuate) {
		snprintf(cg->leaf, sizeof(cg->leaf), "%s/ltd-%d.launcher", own,
			 (int)self);
		if (mkdir(cg->leaf, 0755) < 0) {
			ret = ltd_err_sys(err, "cgroup: mkdir %s", cg->leaf);
			cg->leaf[0] = '\0';
			goto fail;
		}
		ret = move_self(cg->leaf, self, err);
		if (ret < 0)
			goto fail;
	}
	ret = subtree(own, pl->enable, '+', err);
	if (ret < 0)
		goto fail;
	cg->enabled = pl->enable;
	snprintf(cg->cage, sizeof(cg->cage), "%s/ltd-%d", own, (int)self);
	if (mkdir(cg->cage, 0755) < 0) {
		ret = ltd_err_sys(err, "cgroup: mkdir %s", cg->cage);
		cg->cage[0] = '\0';
		goto fail;
	}
	ret = write_text(cg->cage, "memory.max", pl->memory_max, err);
	/* No swap beyond memory.max: the host's swap is not the cage's. */
	if (!ret && writable(cg->cage, "memory.swap.max"))
		ret = write_text(cg->cage, "memory.swap.max", "0", err);
	if (!ret)
		ret = write_text(cg->cage, "cpu.max", pl->cpu_max, err);
	if (!ret)
		ret = write_text(cg->cage, "pids.max", pl->pids_max, err);
	if (ret < 0)
		goto fail;
	cg->fd = open(cg->cage, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (cg->fd < 0) {
		ret = ltd_err_sys(err, "cgroup: open %s", cg->cage);
		goto fail;
	}
	return 0;
fail:
	ltd_cgroup_destroy(cg, self);
	return ret;
}

/* An exiting task leaves its cgroup a little after it is reaped. */
static void rmdir_patiently(const char *dir)
{
	struct timespec ts = {.tv_nsec = 1000000};

	for (int i = 0; i < 200; i++) {
		if (rmdir(dir) == 0 || errno != EBUSY)
			return;
		nanosleep(&ts, NULL);
	}
}

void ltd_cgroup_destroy(struct ltd_cgroup *cg, pid_t self)
{
	struct ltd_err ignored = {0};

	ltd_closep(&cg->fd);
	cg->fd = -1;
	if (cg->cage[0]) {
		/* Init killed and reaped the cage; this is the backstop. */
		if (writable(cg->cage, "cgroup.kill"))
			write_text(cg->cage, "cgroup.kill", "1", &ignored);
		rmdir_patiently(cg->cage);
	}
	/* Back where we were: controllers off first (a cgroup with them on
	 * may not hold the launcher), then the launcher, then its leaf. */
	subtree(cg->own, cg->enabled, '-', &ignored);
	if (cg->leaf[0]) {
		move_self(cg->own, self, &ignored);
		rmdir_patiently(cg->leaf);
	}
	*cg = (struct ltd_cgroup){.fd = -1};
}
