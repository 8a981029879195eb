// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Import and build: unpack layers into a staging tree under the store's
 * tmp/, seal it, and move it into entries/ under its digest; then pin it.
 */
#include "rootfs-tools/rootfs.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <sys/syscall.h>
#include <linux/openat2.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <inttypes.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/names.h"
#include "common/text.h"
#include "rootfs-tools/image.h"
#include "rootfs-tools/tree.h"
#include "rootfs-tools/unpack.h"

struct stage {
	const char *store;
	char *dir; /* store/tmp/stage.XXXXXX */
	int dirfd;
	struct ltd_unpack u;
};

/* mkdir -p, private to the user from the store down. */
static int mkdirs(const char *path, struct ltd_err *err)
{
	char buf[4096];

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return ltd_err_set(err, ENAMETOOLONG, "%s: too long", path);
	for (char *p = buf + 1;; p++) {
		if (*p == '/' || *p == '\0') {
			char c = *p;

			*p = '\0';
			if (mkdir(buf, 0700) < 0 && errno != EEXIST)
				return ltd_err_sys(err, "create %s", buf);
			*p = c;
			if (!c)
				return 0;
		}
	}
}

/*
 * mkdir -p of @rel beneath @rootfd, following no link: the archive's own
 * links must never lead a parent directory out of the staging area (they
 * did: "x -> ~" then "x/dir/file" made ~/dir).
 */
static int mkdirs_beneath(int rootfd, const char *rel, const char *what,
			  struct ltd_err *err)
{
	struct open_how how = {.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
			       .resolve = RESOLVE_BENEATH |
					  RESOLVE_NO_SYMLINKS |
					  RESOLVE_NO_MAGICLINKS};
	_cleanup_close_ int dirfd = dup(rootfd);
	char comp[256];

	if (dirfd < 0)
		return ltd_err_sys(err, "dup");
	while (*rel) {
		size_t n = strcspn(rel, "/");
		int fd;

		if (n == 0 || n >= sizeof(comp))
			return ltd_err_set(err, EINVAL, "%s: bad path", what);
		memcpy(comp, rel, n);
		comp[n] = '\0';
		fd = (int)syscall(SYS_openat2, dirfd, comp, &how, sizeof(how));
		if (fd < 0 && errno == ENOENT) {
			if (mkdirat(dirfd, comp, 0700) < 0 && errno != EEXIST)
				return ltd_err_sys(err, "%s", what);
			fd = (int)syscall(SYS_openat2, dirfd, comp, &how,
					  sizeof(how));
		}
		if (fd < 0)
			return ltd_err_sys(err,
					   "%s: '%s' is not a directory of "
					   "the archive's own",
					   what, comp);
		ltd_closep(&dirfd);
		dirfd = fd;
		rel += n;
		while (*rel == '/')
			rel++;
	}
	return 0;
}

/*
 * Remove the staging directories in @tmp that no live import holds: each
 * import holds an flock on its own, so one whose lock can be taken was
 * left by an import that died.  Called with @tmp itself locked, as the
 * making and locking of a new one is, so a new one is never taken for a
 * dead one.  Best effort.
 */
static void sweep_stale(int tmp)
{
	_cleanup_close_ int fd = dup(tmp);
	struct dirent *de;
	DIR *d;

	if (fd < 0 || !(d = fdopendir(fd)))
		return;
	fd = -1;
	while ((de = readdir(d))) {
		_cleanup_close_ int sfd = -1;

		if (strncmp(de->d_name, "stage.", 6) != 0)
			continue;
		sfd = openat(tmp, de->d_name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sfd >= 0 && flock(sfd, LOCK_EX | LOCK_NB) == 0)
			ltd_rm_tree(tmp, de->d_name);
	}
	closedir(d);
}

/* A staging directory in @tmp, locked (its fd in *@fd) while we use it. */
static int new_stage_dir(const char *store, int tmp, char **dir, int *fd,
			 struct ltd_err *err)
{
	if (asprintf(dir, "%s/tmp/stage.XXXXXX", store) < 0) {
		*dir = NULL;
		return ltd_err_set(err, ENOMEM, "out of memory");
	}
	if (flock(tmp, LOCK_EX) < 0)
		return ltd_err_sys(err, "lock %s/tmp", store);
	sweep_stale(tmp);
	if (!mkdtemp(*dir)) {
		free(*dir);
		*dir = NULL;
		flock(tmp, LOCK_UN);
		return ltd_err_sys(err, "create a staging directory in %s/tmp",
				   store);
	}
	*fd = open(*dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*fd >= 0 && flock(*fd, LOCK_EX | LOCK_NB) < 0)
		ltd_closep(fd);
	flock(tmp, LOCK_UN);
	return *fd < 0 ? ltd_err_sys(err, "%s", *dir) : 0;
}

static int stage_new(const char *store, const struct ltd_limits *lim,
		     struct stage *s, struct ltd_err *err)
{
	static const char *const sub[] = {"entries", "pins", "tmp"};
	_cleanup_close_ int tmp = -1;
	char path[4096];
	int ret;

	*s = (struct stage){.store = store, .dirfd = -1, .u.root = -1};
	s->u.lim = lim ? *lim : LTD_LIMITS_DEFAULT;
	for (size_t i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", store, sub[i]);
		ret = mkdirs(path, err);
		if (ret < 0)
			return ret;
	}
	tmp = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (tmp < 0)
		return ltd_err_sys(err, "%s", path);
	ret = new_stage_dir(store, tmp, &s->dir, &s->dirfd, err);
	if (ret < 0)
		return ret;
	if (mkdirat(s->dirfd, "tree", 0700) < 0)
		return ltd_err_sys(err, "%s", s->dir);
	s->u.root = openat(s->dirfd, "tree",
			   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (s->u.root < 0)
		return ltd_err_sys(err, "%s/tree", s->dir);
	s->u.progress.tty = isatty(STDERR_FILENO);
	return 0;
}

static void stage_discard(struct stage *s)
{
	ltd_closep(&s->u.root);
	ltd_meta_free(&s->u.meta);
	if (s->dir) {
		char *slash = strrchr(s->dir, '/');
		_cleanup_close_ int tmp = -1;

		*slash = '\0';
		tmp = open(s->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		/* Still locked (s->dirfd): no sweep takes it meanwhile. */
		if (tmp >= 0)
			ltd_rm_tree(tmp, slash + 1);
		free(s->dir);
	}
	ltd_closep(&s->dirfd);
	*s = (struct stage){.dirfd = -1, .u.root = -1};
}

static int write_pin(const char *store, const char *name, const char *hex,
		     struct ltd_err *err)
{
	char tmp[4096], path[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s/pins/.%s.tmp", store, name);
	snprintf(path, sizeof(path), "%s/pins/%s", store, name);
	f = fopen(tmp, "we");
	if (!f)
		return ltd_err_sys(err, "%s", tmp);
	fprintf(f, "sha256:%s\n", hex);
	if (fflush(f) != 0 || fsync(fileno(f)) < 0) {
		fclose(f);
		return ltd_err_sys(err, "%s", tmp);
	}
	fclose(f);
	if (rename(tmp, path) < 0)
		return ltd_err_sys(err, "%s", path);
	return 0;
}

/*
 * Is entries/@hex a sound entry: its manifest hashes to @hex and its tree
 * passes the fast check a run makes?
 */
static bool entry_sound(const char *store, const char *hex)
{
	struct ltd_store_entry e;
	struct ltd_err ignored = {0};
	bool ok = ltd_store_open(store, hex, hex, &e, &ignored) == 0;

	if (ok) {
		ok = ltd_store_quick_check(&e, &ignored) == 0;
		ltd_store_entry_free(&e);
	}
	return ok;
}

/* Move a damaged entry out of the way, into a staging directory of tmp/
 * (which a sweep removes should we die first), and remove it; unless a
 * running cage uses it. */
static int move_aside(const char *store, const char *hex, const char *entry,
		      struct ltd_err *err)
{
	_cleanup_close_ int tmp = -1, lock = -1, held = -1;
	_cleanup_free_ char *dir = NULL;
	char path[4096];
	int ret;

	ret = ltd_store_entry_lock(store, hex, hex, LOCK_EX | LOCK_NB, &held,
				   err);
	if (ret == -EBUSY)
		return ltd_err_set(err, EBUSY,
				   "%s is damaged, but a running cage uses "
				   "it: not replaced (import again once it "
				   "has ended)",
				   entry);
	if (ret < 0)
		return ret == -ENOENT ? 0 : ret;
	snprintf(path, sizeof(path), "%s/tmp", store);
	tmp = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (tmp < 0)
		return ltd_err_sys(err, "%s", path);
	ret = new_stage_dir(store, tmp, &dir, &lock, err);
	if (ret < 0)
		return ret;
	/* Over the empty directory just made; a directory moves to another
	 * parent only when it is writable (its ".." changes). */
	if (chmod(entry, 0700) < 0 || rename(entry, dir) < 0) {
		ret = errno == ENOENT ? 0
				      : ltd_err_sys(err, "replace %s", entry);
		rmdir(dir);
		return ret;
	}
	fputs("ltd-rootfs: ", stderr);
	ltd_fput_shown(stderr, entry);
	fputs(" was damaged; replaced\n", stderr);
	ltd_rm_tree(tmp, strrchr(dir, '/') + 1);
	return 0;
}

/*
 * Seal the staged tree, write its manifest (read-only from birth), and
 * move it to entries/HEX, unless a sound entry is there already (the same
 * content imported before; a damaged one is replaced); then pin @name to
 * it.
 */
static int stage_commit(struct stage *s, const char *name,
			char hex[LTD_HEX_LEN + 1], struct ltd_err *err)
{
	_cleanup_free_ char *buf = NULL;
	_cleanup_close_ int fd = -1, lock = -1;
	char entry[4096];
	size_t len = 0;
	struct stat st;
	FILE *mf = open_memstream(&buf, &len);
	int ret;

	if (!mf)
		return ltd_err_set(err, ENOMEM, "out of memory");
	s->u.progress.what = "hashing";
	s->u.progress.total = 0;
	ret = ltd_tree_seal(s->u.root, &s->u.meta, mf, &s->u.progress, err);
	if (fclose(mf) != 0 && ret == 0)
		ret = ltd_err_set(err, ENOMEM, "out of memory");
	if (ret < 0)
		return ret;
	ltd_sha256_hex(buf, len, hex);
	/* After every chmod of the tree: the manifest's ctime is the seal
	 * that the run's fast check compares against. */
	fd = openat(s->dirfd, "manifest",
		    O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
	if (fd < 0 || write(fd, buf, len) != (ssize_t)len || fsync(fd) < 0)
		return ltd_err_sys(err, "%s/manifest", s->dir);
	snprintf(entry, sizeof(entry), "%s/entries/%s", s->store, hex);
	/* From the entry check to the pin: no rm decides meanwhile that the
	 * entry has no pin left and removes it. */
	ret = ltd_store_lock(s->store, &lock, err);
	if (ret < 0)
		return ret;
	/* An import of an older ltd-rootfs (no store lock) may be renaming
	 * the same content in at the same time: then the rename fails, and
	 * the entry is checked again. */
	for (int tries = 0;; tries++) {
		bool there = lstat(entry, &st) == 0;

		if (there && entry_sound(s->store, hex))
			break;
		if (tries == 3)
			return ltd_err_set(err, EAGAIN,
					   "%s keeps changing; try again",
					   entry);
		if (there) {
			ret = move_aside(s->store, hex, entry, err);
			if (ret < 0)
				return ret;
		}
		if (rename(s->dir, entry) < 0) {
			if (errno == EEXIST || errno == ENOTEMPTY)
				continue;
			return ltd_err_sys(err, "move the entry to %s", entry);
		}
		/* Renamed: nothing left to discard. */
		free(s->dir);
		s->dir = NULL;
		if (chmod(entry, 0555) < 0)
			return ltd_err_sys(err, "%s", entry);
		break;
	}
	return write_pin(s->store, name, hex, err);
}

/* An image archive: its files into @s's image/ directory, then as a
 * layout.  Links stay inside (they are only ever opened in-root). */
/* The same limits as the layers': a compressed archive can unpack to far
 * more than its own size. */
static int archive_limits(const char *path, const struct ltd_limits *lim,
			  uint64_t *entries, uint64_t *bytes, int64_t size,
			  struct ltd_err *err)
{
	uint64_t n = size < 0 ? 0 : (uint64_t)size;

	if (++*entries > lim->entries || n > lim->file_bytes ||
	    n > lim->bytes - *bytes)
		return ltd_err_set(err, EFBIG,
				   "%s: more than %" PRIu64
				   " entries, a file over %" PRIu64
				   " bytes or more than %" PRIu64
				   " bytes in all (--max-entries, "
				   "--max-file-bytes, --max-bytes); refused",
				   path, lim->entries, lim->file_bytes,
				   lim->bytes);
	*bytes += n;
	return 0;
}

/* A link of the archive, in its parent (a real directory made just now,
 * or a link the archive made: gone through only in-root). */
static int archive_link(int imgfd, const char *rel, const char *target,
			const char *path, struct ltd_err *err)
{
	const char *slash = strrchr(rel, '/');
	_cleanup_close_ int pfd = -1;
	char parent[PATH_MAX];

	snprintf(parent, sizeof(parent), "%.*s", slash ? (int)(slash - rel) : 1,
		 slash ? rel : ".");
	pfd = ltd_open_in(imgfd, parent, O_PATH | O_DIRECTORY);
	if (pfd < 0 ||
	    symlinkat(target ?: "", pfd, slash ? slash + 1 : rel) < 0)
		return ltd_err_sys(err, "%s: '%s'", path, rel);
	return 0;
}

/* One entry of the archive into the image directory: directories as files
 * need them, links as they are, regular files; the rest skipped. */
static int archive_entry_out(struct archive *a, struct archive_entry *ae,
			     int imgfd, const char *rel, const char *path,
			     struct ltd_err *err)
{
	mode_t type = archive_entry_filetype(ae);
	const char *slash = strrchr(rel, '/');
	_cleanup_close_ int fd = -1;
	char dir[PATH_MAX];
	int ret;

	if (!rel[0] || type == AE_IFDIR)
		return 0; /* made as files need them */
	if (slash) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - rel), rel);
		ret = mkdirs_beneath(imgfd, dir, path, err);
		if (ret < 0)
			return ret;
	}
	if (type == AE_IFLNK)
		return archive_link(imgfd, rel, archive_entry_symlink(ae), path,
				    err);
	if (type != AE_IFREG)
		return 0;
	fd = ltd_open_in(imgfd, rel, O_WRONLY | O_CREAT | O_EXCL);
	if (fd < 0)
		return ltd_err_sys(err, "%s: '%s'", path, rel);
	if (archive_read_data_into_fd(a, fd) != ARCHIVE_OK)
		return ltd_err_set(err, EIO, "%s: '%s': %s", path, rel,
				   archive_error_string(a));
	return 0;
}

static int unpack_archive(const char *path, struct stage *s, int *imgfd,
			  struct ltd_err *err)
{
	struct archive *a = archive_read_new();
	struct archive_entry *ae;
	uint64_t entries = 0, bytes = 0;
	char rel[PATH_MAX];
	int r, ret = 0;

	if (mkdirat(s->dirfd, "image", 0700) < 0)
		return ltd_err_sys(err, "%s/image", s->dir);
	*imgfd = openat(s->dirfd, "image", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*imgfd < 0 || !a) {
		archive_read_free(a);
		return ltd_err_sys(err, "%s/image", s->dir);
	}
	archive_read_support_filter_all(a);
	archive_read_support_format_tar(a);
	if (archive_read_open_filename(a, path, 1 << 16) != ARCHIVE_OK) {
		ret = ltd_err_set(err, EINVAL, "%s: %s", path,
				  archive_error_string(a));
		archive_read_free(a);
		return ret;
	}
	while (ret == 0 &&
	       (r = archive_read_next_header(a, &ae)) == ARCHIVE_OK) {
		ret = archive_limits(path, &s->u.lim, &entries, &bytes,
				     archive_entry_size(ae), err);
		if (!ret && ltd_tar_path_clean(archive_entry_pathname(ae), rel,
					       sizeof(rel)) < 0)
			ret = ltd_err_set(err, EINVAL,
					  "%s: entry '%s' leads out; refused",
					  path, archive_entry_pathname(ae));
		if (!ret)
			ret = archive_entry_out(a, ae, *imgfd, rel, path, err);
	}
	if (ret == 0 && r != ARCHIVE_EOF)
		ret = ltd_err_set(err, EIO, "%s: %s", path,
				  archive_error_string(a));
	archive_read_free(a);
	return ret;
}

/*
 * The image's layers: at most the limit, and no digest twice (a manifest
 * listing one layer over and over multiplies the work) unless that layer
 * was empty, as the empty layers some builders repeat are; applying one
 * again changes nothing, so it is skipped.
 */
static int check_layers(const struct stage *s, const struct ltd_image *img,
			struct ltd_err *err)
{
	if (img->n > s->u.lim.layers)
		return ltd_err_set(err, EFBIG,
				   "the image has %zu layers, more than the "
				   "limit of %" PRIu64
				   " (--max-layers); refused",
				   img->n, s->u.lim.layers);
	return 0;
}

static ssize_t earlier_layer(const struct ltd_image *img, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (strcmp(img->l[j].hex, img->l[i].hex) == 0)
			return (ssize_t)j;
	return -1;
}

static int import_layers(struct stage *s, int imgfd, const char *digest,
			 struct ltd_err *err)
{
	struct ltd_image img;
	char found[LTD_HEX_LEN + 1], what[64];
	/* The image's digest is checked here, before any layer is read. */
	int ret = ltd_image_read(imgfd, digest, &img, err);
	uint64_t *entries = NULL; /* each layer's entry count */

	if (ret == 0)
		ret = check_layers(s, &img, err);
	if (ret == 0 && !(entries = calloc(img.n, sizeof(*entries))))
		ret = ltd_err_set(err, ENOMEM, "out of memory");
	for (size_t i = 0; ret == 0 && i < img.n; i++) {
		/* Not blocking on a FIFO: a layout directory is anyone's. */
		_cleanup_close_ int fd = ltd_open_in(imgfd, img.l[i].path,
						     O_RDONLY | O_NONBLOCK);
		ssize_t j = earlier_layer(&img, i);
		struct stat st;
		uint64_t before = s->u.entries;

		if (j >= 0 && entries[j] == 0)
			continue;
		if (j >= 0) {
			ret = ltd_err_set(err, EINVAL,
					  "layers %zd and %zu are the same "
					  "(sha256:%s); refused",
					  j + 1, i + 1, img.l[i].hex);
			break;
		}
		if (fd < 0 || fstat(fd, &st) < 0) {
			ret = ltd_err_sys(err, "layer %zu: %s", i + 1,
					  img.l[i].path);
			break;
		}
		if (!S_ISREG(st.st_mode)) {
			ret = ltd_err_set(err, EINVAL,
					  "layer %zu: %s is not a file", i + 1,
					  img.l[i].path);
			break;
		}
		snprintf(what, sizeof(what), "layer %zu/%zu", i + 1, img.n);
		s->u.layer = (unsigned)i + 1;
		s->u.progress.what = what;
		s->u.progress.total = img.l[i].size;
		ret = ltd_unpack_layer(&s->u, fd, img.l[i].hex, img.l[i].size,
				       found, err);
		entries[i] = s->u.entries - before;
		if (ret < 0)
			ltd_err_prefix(err, "layer %zu (%s)", i + 1,
				       img.l[i].path);
	}
	free(entries);
	ltd_image_free(&img);
	return ret;
}

static int check_name(const char *name, struct ltd_err *err)
{
	if (!ltd_pin_name_ok(name))
		return ltd_err_set(err, EINVAL,
				   "'%s' is not a valid rootfs name (letters, "
				   "digits, '.', '_', '-'; at most 128)",
				   name);
	return 0;
}

static void report(const char *name, const char *hex, const struct stage *s)
{
	printf("%s sha256:%s\n", name, hex);
	if (s->u.dropped)
		fprintf(stderr,
			"ltd-rootfs: %llu device nodes, FIFOs or sockets "
			"dropped (the cage's /dev is its own)\n",
			(unsigned long long)s->u.dropped);
}

int ltd_rootfs_import(const char *store, const char *name, const char *image,
		      const struct ltd_limits *lim, const char *digest,
		      struct ltd_err *err)
{
	struct stage s;
	_cleanup_close_ int imgfd = -1;
	char hex[LTD_HEX_LEN + 1];
	struct stat st;
	int ret;

	ret = check_name(name, err);
	if (ret < 0)
		return ret;
	if (stat(image, &st) < 0)
		return ltd_err_sys(err, "%s", image);
	ret = stage_new(store, lim, &s, err);
	if (ret == 0 && S_ISDIR(st.st_mode)) {
		imgfd = open(image, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (imgfd < 0)
			ret = ltd_err_sys(err, "%s", image);
	} else if (ret == 0) {
		ret = unpack_archive(image, &s, &imgfd, err);
	}
	if (ret == 0)
		ret = import_layers(&s, imgfd, digest, err);
	if (ret == 0)
		ret = stage_commit(&s, name, hex, err);
	if (ret == 0)
		report(name, hex, &s);
	stage_discard(&s);
	return ret;
}

/* mmdebstrap in its unshare mode writes the tree as a tar to our pipe. */
static pid_t spawn_mmdebstrap(const struct ltd_build_opts *o, int out,
			      bool quiet, struct ltd_err *err)
{
	char include[4096];
	const char *argv[16];
	size_t n = 0;
	pid_t pid;

	argv[n++] = "mmdebstrap";
	argv[n++] = "--mode=unshare";
	argv[n++] = "--variant=minbase";
	argv[n++] = "--format=tar";
	if (quiet)
		argv[n++] = "--quiet";
	if (o->packages && o->packages[0]) {
		snprintf(include, sizeof(include), "--include=%s", o->packages);
		argv[n++] = include;
	}
	argv[n++] = o->suite;
	argv[n++] = "-";
	if (o->mirror)
		argv[n++] = o->mirror;
	argv[n] = NULL;
	pid = fork();
	if (pid < 0)
		return ltd_err_sys(err, "fork");
	if (pid == 0) {
		dup2(out, STDOUT_FILENO);
		/* The same inputs give the same tree: fixed timestamps. */
		setenv("SOURCE_DATE_EPOCH", o->epoch, 1);
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr,
			"ltd-rootfs: cannot run mmdebstrap: %s (apt-get "
			"install mmdebstrap uidmap)\n",
			strerror(errno));
		_exit(127);
	}
	return pid;
}

int ltd_rootfs_build(const char *store, const char *name,
		     const struct ltd_build_opts *o, struct ltd_err *err)
{
	char hex[LTD_HEX_LEN + 1];
	int pipefd[2] = {-1, -1}, status = 0;
	struct stage s;
	pid_t pid = -1;
	int ret;

	ret = check_name(name, err);
	if (ret == 0)
		ret = stage_new(store, NULL, &s, err);
	else
		return ret;
	if (ret == 0 && pipe2(pipefd, O_CLOEXEC) < 0)
		ret = ltd_err_sys(err, "pipe");
	if (ret == 0) {
		pid = spawn_mmdebstrap(o, pipefd[1], !s.u.progress.tty, err);
		ret = pid < 0 ? pid : 0;
	}
	ltd_closep(&pipefd[1]);
	if (ret == 0) {
		s.u.layer = 1;
		s.u.progress.what = "mmdebstrap";
		ret = ltd_unpack_layer(&s.u, pipefd[0], NULL, 0, hex, err);
	}
	ltd_closep(&pipefd[0]);
	if (pid > 0 && waitpid(pid, &status, 0) == pid && ret == 0 &&
	    !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
		ret = ltd_err_set(err, EIO, "mmdebstrap failed (status %d)",
				  WIFEXITED(status) ? WEXITSTATUS(status)
						    : 128 + WTERMSIG(status));
	if (ret == 0)
		ret = stage_commit(&s, name, hex, err);
	if (ret == 0)
		report(name, hex, &s);
	stage_discard(&s);
	return ret;
}
