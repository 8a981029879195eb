// SPDX-License-Identifier: GPL-2.0-or-later
#include "runtime/mounts.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "review/overlay.h"
#include "runtime/copytree.h"

/* Where the new root is attached before pivot_root: any directory works,
 * because every host source has been cloned by then. */
#define LTD_ROOT_STAGING "/tmp"

static int openat2_in(int dirfd, const char *path, int flags, __u64 resolve)
{
	struct open_how how = {.flags = (__u64)flags | O_CLOEXEC,
			       .resolve = resolve};

	return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
}

/*
 * Open @path inside the new root: symlinks resolve inside the cage, never
 * to the host, and /proc magic links are not followed.
 */
static int open_in_root(int rootfd, const char *path, int flags)
{
	return openat2_in(rootfd, path, flags,
			  RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS);
}

int ltd_mounts_make_private(struct ltd_err *err)
{
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return ltd_err_sys(err, "make / private");
	return 0;
}

static int set_attr(int fd, __u64 set, bool recursive)
{
	struct mount_attr attr = {.attr_set = set};

	return mount_setattr(fd, "",
			     AT_EMPTY_PATH | (recursive ? AT_RECURSIVE : 0),
			     &attr, sizeof(attr));
}

int ltd_mounts_open_sources(const struct ltd_plan *plan,
			    struct ltd_mount_state *st, struct ltd_err *err)
{
	st->src_fds = malloc(plan->n * sizeof(int));
	if (!st->src_fds)
		return ltd_err_set(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < plan->n; i++)
		st->src_fds[i] = -1;
	for (size_t i = 0; i < plan->n; i++) {
		const struct ltd_plan_entry *e = &plan->e[i];
		__u64 attr = MOUNT_ATTR_NOSUID;
		int fd, path;

		if (e->op == LTD_OP_COPY) {
			/* Opened for reading now: the host's paths are gone
			 * by the time the home tmpfs exists. */
			fd = ltd_copy_open(AT_FDCWD, e->src);
			if (fd < 0 &&
			    !(errno == ENOENT && (e->flags & LTD_PF_OPTIONAL)))
				return ltd_err_sys(err, "%s: open '%s'", e->why,
						   e->src);
			st->src_fds[i] = fd;
			continue;
		}
		if (e->op == LTD_OP_OVERLAY) {
			/* Made here, while the layers' host paths are
			 * visible, in this mount namespace (overlayfs takes
			 * no layer of another); attached by the plan. */
			fd = ltd_overlay_make(e->layers, err);
			if (fd < 0)
				return fd;
			st->src_fds[i] = fd;
			continue;
		}
		if (e->op != LTD_OP_BIND_RO && e->op != LTD_OP_BIND_RW &&
		    e->op != LTD_OP_DEV)
			continue;
		/* No link followed: validation refused links in the path,
		 * so one here was swapped in since.  Recursive, or the kernel
		 * refuses to split off locked submounts; a detached copy so
		 * later host changes don't matter. */
		path = openat2_in(AT_FDCWD, e->src, O_PATH,
				  RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
		fd = path < 0 ? -1
			      : open_tree(path, "",
					  OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
						  AT_EMPTY_PATH | AT_RECURSIVE);
		ltd_closep(&path);
		if (fd < 0) {
			if (errno == ENOENT && (e->flags & LTD_PF_OPTIONAL))
				continue;
			return ltd_err_sys(err, "%s: open '%s'", e->why,
					   e->src);
		}
		st->src_fds[i] = fd;
		if (e->op == LTD_OP_BIND_RO)
			attr |= MOUNT_ATTR_RDONLY | MOUNT_ATTR_NODEV;
		else if (e->op == LTD_OP_BIND_RW)
			attr |= MOUNT_ATTR_NODEV;
		else
			attr |= MOUNT_ATTR_NOEXEC;
		if (set_attr(fd, attr, true) < 0)
			return ltd_err_sys(err, "%s: set flags on '%s'", e->why,
					   e->src);
	}
	return 0;
}

static int new_fs(const char *type, const char *const *opts, __u64 attr,
		  struct ltd_err *err)
{
	_cleanup_close_ int fsfd = fsopen(type, FSOPEN_CLOEXEC);
	int mfd;

	if (fsfd < 0)
		return ltd_err_sys(err, "fsopen %s", type);
	for (; opts && opts[0]; opts += 2) {
		int ret = opts[1] ? fsconfig(fsfd, FSCONFIG_SET_STRING, opts[0],
					     opts[1], 0)
				  : fsconfig(fsfd, FSCONFIG_SET_FLAG, opts[0],
					     NULL, 0);
		if (ret < 0)
			return ltd_err_sys(err, "%s option %s", type, opts[0]);
	}
	if (fsconfig(fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return ltd_err_sys(err, "create %s", type);
	mfd = fsmount(fsfd, FSMOUNT_CLOEXEC, (unsigned)attr);
	if (mfd < 0)
		return ltd_err_sys(err, "mount %s", type);
	return mfd;
}

static int new_tmpfs(mode_t mode, uint64_t size, __u64 attr,
		     struct ltd_err *err)
{
	char m[8], sz[24];
	const char *opts[] = {"mode", m, size ? "size" : NULL, sz, NULL};

	snprintf(m, sizeof(m), "%o", (unsigned)mode);
	snprintf(sz, sizeof(sz), "%llu", (unsigned long long)size);
	return new_fs("tmpfs", opts, attr, err);
}

int ltd_mounts_make_root(const struct ltd_plan *plan,
			 struct ltd_mount_state *st, struct ltd_err *err)
{
	_cleanup_close_ int mfd = -1;

	mfd = new_tmpfs(0755, plan->root_size,
			MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, err);
	if (mfd < 0)
		return mfd;
	if (move_mount(mfd, "", AT_FDCWD, LTD_ROOT_STAGING,
		       MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return ltd_err_sys(err, "attach new root at %s",
				   LTD_ROOT_STAGING);
	st->rootfd = ltd_steal_fd(&mfd);
	return 0;
}

/*
 * Open the parent directory of @path inside the root, creating missing
 * directories on the way (the plan allows it only inside our own tmpfs
 * mounts).  Each prefix is resolved from the root, so the cage's own
 * symlinks (/bin -> usr/bin) work and none leads out.  Returns the parent
 * fd; *@last points into @path.
 */
static int open_parent(int rootfd, const char *path, const char **last,
		       struct ltd_err *err)
{
	_cleanup_close_ int dirfd = -1;
	char prefix[4096];
	const char *p = path;

	/* Fast path: the parent exists (the common case, one syscall). */
	*last = strrchr(path, '/') + 1;
	if ((size_t)(*last - path) < sizeof(prefix)) {
		memcpy(prefix, path, (size_t)(*last - path));
		prefix[*last - path] = '\0';
		dirfd = open_in_root(rootfd, prefix, O_PATH | O_DIRECTORY);
		if (dirfd >= 0)
			return ltd_steal_fd(&dirfd);
	}
	dirfd = open_in_root(rootfd, "/", O_PATH | O_DIRECTORY);
	if (dirfd < 0)
		return ltd_err_sys(err, "open new root");
	for (;;) {
		const char *end;
		int fd;

		while (*p == '/')
			p++;
		end = strchr(p, '/');
		if (!end) {
			*last = p;
			return ltd_steal_fd(&dirfd);
		}
		if ((size_t)(end - path) >= sizeof(prefix))
			return ltd_err_set(err, ENAMETOOLONG, "'%s'", path);
		memcpy(prefix, path, (size_t)(end - path));
		prefix[end - path] = '\0';
		fd = open_in_root(rootfd, prefix, O_PATH | O_DIRECTORY);
		if (fd < 0 && errno == ENOENT) {
			char comp[256];
			size_t len = (size_t)(end - p);

			if (len >= sizeof(comp))
				return ltd_err_set(err, ENAMETOOLONG, "'%s'",
						   path);
			memcpy(comp, p, len);
			comp[len] = '\0';
			if (mkdirat(dirfd, comp, 0755) < 0 && errno != EEXIST)
				return ltd_err_sys(err, "create '%s'", prefix);
			fd = open_in_root(rootfd, prefix, O_PATH | O_DIRECTORY);
		}
		if (fd < 0)
			return ltd_err_sys(err, "'%s'", prefix);
		ltd_closep(&dirfd);
		dirfd = fd;
		p = end;
	}
}

/*
 * Consecutive entries mostly share their parent directory (/etc, /dev): the
 * last one opened is kept and used again.  Only one in the root tmpfs (its
 * st_dev) is kept: nothing else can reach that tmpfs before pivot_root (a
 * private mount namespace of a non-dumpable init), so nothing renames or
 * replaces it meanwhile.  A mount attached anywhere but below it could
 * cover it or a directory on its way: then it is opened again.
 */
struct parents {
	dev_t root_dev;
	bool root_known;
	int fd;		       /* owned; -1 before the first */
	char prefix[PATH_MAX]; /* "/etc/"; "" when fd is not to be reused */
};

/* open_parent() through the cache: the fd is the cache's, not closed by
 * the caller. */
static int parent_of(struct parents *pc, int rootfd, const char *path,
		     const char **last, struct ltd_err *err)
{
	size_t n = (size_t)(strrchr(path, '/') + 1 - path);
	struct stat st;
	int fd;

	if (pc->fd >= 0 && pc->prefix[0] && strlen(pc->prefix) == n &&
	    strncmp(path, pc->prefix, n) == 0) {
		*last = path + n;
		return pc->fd;
	}
	fd = open_parent(rootfd, path, last, err);
	if (fd < 0)
		return fd;
	ltd_closep(&pc->fd);
	pc->fd = fd;
	pc->prefix[0] = '\0';
	if (pc->root_known && n < sizeof(pc->prefix) && fstat(fd, &st) == 0 &&
	    st.st_dev == pc->root_dev) {
		memcpy(pc->prefix, path, n);
		pc->prefix[n] = '\0';
	}
	return fd;
}

/* A mount was attached at @dst (or a mount's flags changed there). */
static void parents_mounted(struct parents *pc, const char *dst)
{
	size_t n = strlen(pc->prefix);

	if (n && !(strncmp(dst, pc->prefix, n) == 0 && dst[n]))
		pc->prefix[0] = '\0';
}

/* Open (and, when allowed, create) the mount point @path. */
static int mount_point(struct parents *pc, int rootfd,
		       const struct ltd_plan_entry *e, bool dir,
		       struct ltd_err *err)
{
	const char *last = NULL;
	int fd, parent;

	if (!(e->flags & LTD_PF_CREATE)) {
		fd = open_in_root(rootfd, e->dst, O_PATH);
		if (fd < 0)
			return ltd_err_sys(err, "%s: mount point '%s'", e->why,
					   e->dst);
		return fd;
	}
	parent = parent_of(pc, rootfd, e->dst, &last, err);
	if (parent < 0)
		return parent;
	if (dir) {
		if (mkdirat(parent, last, 0755) < 0 && errno != EEXIST)
			return ltd_err_sys(err, "%s: create '%s'", e->why,
					   e->dst);
	} else {
		_cleanup_close_ int f = openat(
			parent, last,
			O_CREAT | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (f < 0)
			return ltd_err_sys(err, "%s: create '%s'", e->why,
					   e->dst);
	}
	/* From the root: an existing mount point may be a link of the cage's
	 * (/bin -> usr/bin); it resolves inside. */
	fd = open_in_root(rootfd, e->dst, O_PATH);
	if (fd < 0)
		return ltd_err_sys(err, "%s: open '%s'", e->why, e->dst);
	return fd;
}

static int attach(int mfd, int target, const struct ltd_plan_entry *e,
		  struct ltd_err *err)
{
	if (move_mount(mfd, "", target, "",
		       MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
		return ltd_err_sys(err, "%s: mount %s at '%s'", e->why,
				   ltd_plan_op_name(e->op), e->dst);
	return 0;
}

static int do_bind(struct parents *pc, const struct ltd_plan_entry *e, int src,
		   int rootfd, struct ltd_err *err)
{
	_cleanup_close_ int target = -1;
	struct stat st;

	if (src < 0)
		return 0; /* optional and missing */
	if (fstat(src, &st) < 0)
		return ltd_err_sys(err, "%s: stat '%s'", e->why, e->src);
	target = mount_point(pc, rootfd, e, S_ISDIR(st.st_mode), err);
	if (target < 0)
		return target;
	return attach(src, target, e, err);
}

static int do_newfs(struct parents *pc, const struct ltd_plan_entry *e,
		    int rootfd, struct ltd_err *err)
{
	static const char *const devpts_opts[] = {
		"newinstance", NULL, "ptmxmode", "0666", "mode", "0620", NULL};
	_cleanup_close_ int target = -1, mfd = -1;
	const __u64 attr = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV;

	if (e->op == LTD_OP_TMPFS)
		mfd = new_tmpfs(e->mode, e->size, attr, err);
	else if (e->op == LTD_OP_PROC)
		mfd = new_fs("proc", NULL, attr | MOUNT_ATTR_NOEXEC, err);
	else
		mfd = new_fs("devpts", devpts_opts,
			     MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC, err);
	if (mfd < 0)
		return mfd;
	target = mount_point(pc, rootfd, e, true, err);
	if (target < 0)
		return target;
	return attach(mfd, target, e, err);
}

/*
 * A place of the root tmpfs, writable: the directory made with its exact
 * mode (the umask is the user's) and a clone of the root mount at it bound
 * over it.  The seal, later, makes only the root mount read-only.
 */
static int do_scratch(struct parents *pc, const struct ltd_plan_entry *e,
		      int rootfd, struct ltd_err *err)
{
	_cleanup_close_ int dir = -1, mfd = -1;
	const char *last = NULL;
	int parent = parent_of(pc, rootfd, e->dst, &last, err);

	if (parent < 0)
		return parent;
	/* One made earlier on the way to another entry is ours as well. */
	if (mkdirat(parent, last, e->mode) < 0 && errno != EEXIST)
		return ltd_err_sys(err, "%s: create '%s'", e->why, e->dst);
	dir = openat(parent, last,
		     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dir < 0 || fchmod(dir, e->mode) < 0)
		return ltd_err_sys(err, "%s: '%s'", e->why, e->dst);
	mfd = open_tree(dir, "",
			OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
	if (mfd < 0)
		return ltd_err_sys(err, "%s: clone '%s'", e->why, e->dst);
	return attach(mfd, dir, e, err);
}

static int do_symlink(struct parents *pc, const struct ltd_plan_entry *e,
		      int rootfd, struct ltd_err *err)
{
	const char *last = NULL;
	int parent = parent_of(pc, rootfd, e->dst, &last, err);

	if (parent < 0)
		return parent;
	if (symlinkat(e->src, parent, last) < 0)
		return ltd_err_sys(err, "%s: symlink '%s'", e->why, e->dst);
	return 0;
}

static int do_file(struct parents *pc, const struct ltd_plan_entry *e,
		   int rootfd, struct ltd_err *err)
{
	_cleanup_close_ int fd = -1;
	const char *last = NULL;
	size_t len = e->len, off = 0;
	int parent = parent_of(pc, rootfd, e->dst, &last, err);

	if (parent < 0)
		return parent;
	fd = openat(parent, last,
		    O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC,
		    e->mode);
	if (fd < 0)
		return ltd_err_sys(err, "%s: create '%s'", e->why, e->dst);
	while (off < len) {
		ssize_t n = write(fd, e->content + off, len - off);

		if (n < 0)
			return ltd_err_sys(err, "%s: write '%s'", e->why,
					   e->dst);
		off += (size_t)n;
	}
	return 0;
}

/* Open an existing path of the cage; 0 with *fd = -1 when optional and
 * missing. */
static int existing(const struct ltd_plan_entry *e, int rootfd, int *fd,
		    struct ltd_err *err)
{
	*fd = open_in_root(rootfd, e->dst, O_PATH);
	/* Missing, or a link that leads nowhere inside: nothing to do for an
	 * optional entry (the project's own content must not stop a run). */
	if (*fd >= 0 || ((e->flags & LTD_PF_OPTIONAL) &&
			 (errno == ENOENT || errno == ENOTDIR ||
			  errno == ELOOP || errno == EXDEV)))
		return 0;
	return ltd_err_sys(err, "%s: '%s'", e->why, e->dst);
}

static int do_mask(const struct ltd_plan_entry *e, int rootfd,
		   struct ltd_mount_state *ms, struct ltd_err *err)
{
	_cleanup_close_ int target = -1, mfd = -1;
	struct stat st;
	int ret;

	ret = existing(e, rootfd, &target, err);
	if (ret < 0 || target < 0)
		return ret;
	if (fstat(target, &st) < 0)
		return ltd_err_sys(err, "%s: stat '%s'", e->why, e->dst);
	/* A file only root may open (kcore, kmsg, kpage*: mode 0400 root) is
	 * out of reach of a command with no uid 0 in its namespace and no
	 * capabilities: a mount over it would cost start-up time for nothing.
	 * A cage of root's keeps every mask. */
	if (!S_ISDIR(st.st_mode) && getuid() != 0 && !(st.st_mode & 0007) &&
	    st.st_uid != getuid() && st.st_gid != getgid())
		return 0;
	if (S_ISDIR(st.st_mode) && ms->mask_dir >= 0) {
		/* A copy of the first one: cheaper than a new superblock. */
		mfd = open_tree(ms->mask_dir, "",
				OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
					AT_EMPTY_PATH);
		if (mfd < 0)
			return ltd_err_sys(err, "%s: clone mask", e->why);
	} else if (S_ISDIR(st.st_mode)) {
		mfd = new_tmpfs(0555, 0,
				MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
					MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC,
				err);
		if (mfd >= 0 && (ms->mask_dir = dup(mfd)) < 0)
			return ltd_err_sys(err, "dup");
	} else {
		mfd = open_tree(rootfd, "dev/null",
				OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
		if (mfd < 0)
			return ltd_err_sys(err, "%s: clone /dev/null", e->why);
		if (set_attr(mfd,
			     MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
				     MOUNT_ATTR_NOEXEC,
			     false) < 0)
			return ltd_err_sys(err, "%s: read-only /dev/null",
					   e->why);
	}
	if (mfd < 0)
		return mfd;
	return attach(mfd, target, e, err);
}

/* LTD_OP_RO_OVER and LTD_OP_PIN: bind the cage's own view of dst over
 * itself, read-only or as it is. */
static int do_ro_over(const struct ltd_plan_entry *e, int rootfd,
		      struct ltd_err *err)
{
	_cleanup_close_ int target = -1, mfd = -1;
	__u64 ro = e->op == LTD_OP_RO_OVER ? MOUNT_ATTR_RDONLY : 0;
	struct stat st;
	int ret;

	ret = existing(e, rootfd, &target, err);
	if (ret < 0 || target < 0)
		return ret;
	/* A pinned .git that is a file (a linked worktree's "gitdir:") is
	 * made read-only too: rewriting it would redirect git. */
	if (fstat(target, &st) == 0 && !S_ISDIR(st.st_mode))
		ro = MOUNT_ATTR_RDONLY;
	mfd = open_tree(target, "",
			OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH |
				AT_RECURSIVE);
	if (mfd < 0)
		return ltd_err_sys(err, "%s: clone '%s'", e->why, e->dst);
	if (set_attr(mfd, ro | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, true) < 0)
		return ltd_err_sys(err, "%s: set flags on '%s'", e->why,
				   e->dst);
	return attach(mfd, target, e, err);
}

static int do_copy(struct parents *pc, const struct ltd_plan_entry *e, int src,
		   int rootfd, struct ltd_err *err)
{
	const char *last = NULL;
	int parent, ret;

	if (src < 0)
		return 0; /* optional and missing */
	parent = parent_of(pc, rootfd, e->dst, &last, err);
	if (parent < 0)
		return parent;
	ret = ltd_copy_tree(src, parent, last, err);
	if (ret < 0)
		ltd_err_prefix(err, "%s: copy '%s'", e->why, e->src);
	return ret;
}

static int do_seal(const struct ltd_plan_entry *e, int rootfd,
		   struct ltd_err *err)
{
	_cleanup_close_ int target = -1;

	target = strcmp(e->dst, "/") == 0
			 ? dup(rootfd)
			 : open_in_root(rootfd, e->dst, O_PATH);
	if (target < 0 || set_attr(target, MOUNT_ATTR_RDONLY, false) < 0)
		return ltd_err_sys(err, "%s: seal '%s' read-only", e->why,
				   e->dst);
	return 0;
}

int ltd_mounts_apply(const struct ltd_plan *plan, struct ltd_mount_state *st,
		     struct ltd_err *err)
{
	struct parents pc = {.fd = -1};
	struct stat root;
	int ret = 0;

	if (fstat(st->rootfd, &root) == 0) {
		pc.root_dev = root.st_dev;
		pc.root_known = true;
	}
	for (size_t i = 0; ret >= 0 && i < plan->n; i++) {
		const struct ltd_plan_entry *e = &plan->e[i];

		switch (e->op) {
		case LTD_OP_BIND_RO:
		case LTD_OP_BIND_RW:
		case LTD_OP_DEV:
		case LTD_OP_OVERLAY:
			ret = do_bind(&pc, e, st->src_fds[i], st->rootfd, err);
			ltd_closep(&st->src_fds[i]);
			st->src_fds[i] = -1;
			break;
		case LTD_OP_TMPFS:
		case LTD_OP_PROC:
		case LTD_OP_DEVPTS:
			ret = do_newfs(&pc, e, st->rootfd, err);
			break;
		case LTD_OP_SYMLINK:
			ret = do_symlink(&pc, e, st->rootfd, err);
			break;
		case LTD_OP_SCRATCH:
			ret = do_scratch(&pc, e, st->rootfd, err);
			break;
		case LTD_OP_FILE:
			ret = do_file(&pc, e, st->rootfd, err);
			break;
		case LTD_OP_MASK:
			ret = do_mask(e, st->rootfd, st, err);
			break;
		case LTD_OP_RO_OVER:
		case LTD_OP_PIN:
			ret = do_ro_over(e, st->rootfd, err);
			break;
		case LTD_OP_SEAL:
			ret = do_seal(e, st->rootfd, err);
			break;
		case LTD_OP_COPY:
			ret = do_copy(&pc, e, st->src_fds[i], st->rootfd, err);
			ltd_closep(&st->src_fds[i]);
			st->src_fds[i] = -1;
			break;
		default:
			ret = ltd_err_set(err, EINVAL, "unknown mount op");
		}
		if (e->op != LTD_OP_FILE && e->op != LTD_OP_SYMLINK &&
		    e->op != LTD_OP_COPY)
			parents_mounted(&pc, e->dst);
	}
	ltd_closep(&pc.fd);
	return ret < 0 ? ret : 0;
}

int ltd_mounts_pivot(struct ltd_mount_state *st, struct ltd_err *err)
{
	/* pivot_root(".", ".") stacks the old root on the new one; detaching
	 * it leaves no path to the host's tree in this namespace. */
	if (fchdir(st->rootfd) < 0)
		return ltd_err_sys(err, "enter new root");
	if (syscall(SYS_pivot_root, ".", ".") < 0)
		return ltd_err_sys(err, "pivot_root");
	if (umount2(".", MNT_DETACH) < 0)
		return ltd_err_sys(err, "detach old root");
	if (chdir("/") < 0)
		return ltd_err_sys(err, "chdir /");
	ltd_closep(&st->rootfd);
	st->rootfd = -1;
	ltd_closep(&st->mask_dir);
	st->mask_dir = -1;
	return 0;
}
