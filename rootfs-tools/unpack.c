// SPDX-License-Identifier: GPL-2.0-or-later
#include "rootfs-tools/unpack.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/dir.h"
#include "common/vec.h"

#define PATH_BUF 4096

struct blob {
	int fd;
	struct ltd_sha256 ctx;
	uint64_t n;
	struct ltd_progress *progress;
	char buf[1 << 16];
};

/* libarchive reads through here: every byte is hashed on the way. */
static ssize_t blob_read(struct archive *a, void *data, const void **out)
{
	struct blob *b = data;
	ssize_t r;

	do
		r = read(b->fd, b->buf, sizeof(b->buf));
	while (r < 0 && errno == EINTR);
	if (r < 0) {
		archive_set_error(a, errno, "read: %s", strerror(errno));
		return -1;
	}
	ltd_sha256_update(&b->ctx, b->buf, (size_t)r);
	b->n += (uint64_t)r;
	ltd_progress_show(b->progress, b->n, false);
	*out = b->buf;
	return r;
}

/* The end of the archive may leave padding unread: hash it too. */
static int blob_drain(struct blob *b)
{
	const void *p;
	ssize_t r;

	while ((r = blob_read(NULL, b, &p)) > 0)
		;
	return r < 0 ? -EIO : 0;
}

void ltd_progress_show(struct ltd_progress *p, uint64_t done, bool last)
{
	if (!p || !p->tty || (!last && done - p->shown_at < (1u << 20)))
		return;
	p->shown_at = done;
	if (p->total)
		fprintf(stderr, "\rltd-rootfs: %s: %.1f of %.1f MiB%s", p->what,
			done / 1048576.0, p->total / 1048576.0,
			last ? "\n" : "");
	else
		fprintf(stderr, "\rltd-rootfs: %s: %.1f MiB%s", p->what,
			done / 1048576.0, last ? "\n" : "");
}

static int openat2_beneath(int dirfd, const char *path, int flags)
{
	struct open_how how = {
		.flags = (uint64_t)flags | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS,
	};

	return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
}

/* A directory being emptied: the directories left in it. */
struct rm_frame {
	char **subs;
	size_t n, i;
	bool reread; /* read once more before it is removed */
	struct stat st;
};

static void rm_frame_free(struct rm_frame *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->subs[i]);
	free(f->subs);
	f->subs = NULL;
	f->n = f->i = 0;
}

/* Open directory @name of @dir to empty it (a sealed one is read-only). */
static int open_to_empty(int dir, const char *name)
{
	int fd = openat(dir, name,
			O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fchmod(fd, 0700) < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	return fd;
}

/* Unlink what @fd holds but directories, whose names go into @f. */
static int rm_files(int fd, struct rm_frame *f)
{
	int dup_fd = dup(fd), ret = 0;
	struct dirent *de;
	DIR *d;

	rm_frame_free(f);
	if (dup_fd < 0)
		return -errno;
	d = fdopendir(dup_fd);
	if (!d) {
		ret = -errno;
		close(dup_fd);
		return ret;
	}
	while (ret == 0 && (errno = 0, de = readdir(d))) {
		struct stat st;
		bool dir = de->d_type == DT_DIR;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (de->d_type == DT_UNKNOWN) {
			if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) <
			    0) {
				ret = errno == ENOENT ? 0 : -errno;
				continue;
			}
			dir = S_ISDIR(st.st_mode);
		}
		if (!dir) {
			if (unlinkat(fd, de->d_name, 0) < 0 && errno != ENOENT)
				ret = -errno;
			continue;
		}
		ret = ltd_strv_push(&f->subs, &f->n, de->d_name);
	}
	if (ret == 0 && errno != 0)
		ret = -errno;
	closedir(d);
	return ret;
}

/* A walk removing a tree: one directory open at a time (@cur), a frame a
 * level. */
struct rm_walk {
	struct rm_frame *fr;
	size_t depth, cap;
	int cur;
};

/* A frame for @w->cur: its files removed, its subdirectories listed. */
static int rm_enter(struct rm_walk *w)
{
	struct rm_frame *f;
	int ret;

	if (w->depth == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 16;
		struct rm_frame *g = reallocarray(w->fr, cap, sizeof(*g));

		if (!g)
			return -ENOMEM;
		w->fr = g;
		w->cap = cap;
	}
	f = &w->fr[w->depth];
	*f = (struct rm_frame){0};
	ret = fstat(w->cur, &f->st) < 0 ? -errno : rm_files(w->cur, f);
	w->depth++;
	return ret;
}

/* Up by "..", checked to be the directory we came from (-ESTALE: moved
 * while we worked), and the directory just emptied removed there. */
static int rm_up(struct rm_walk *w)
{
	int up = openat(w->cur, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct rm_frame *f;
	struct stat ust;

	if (up < 0 || fstat(up, &ust) < 0) {
		int ret = -errno;

		if (up >= 0)
			close(up);
		return ret;
	}
	close(w->cur);
	w->cur = up;
	rm_frame_free(&w->fr[--w->depth]);
	f = &w->fr[w->depth - 1];
	if (ust.st_dev != f->st.st_dev || ust.st_ino != f->st.st_ino)
		return -ESTALE;
	if (unlinkat(w->cur, f->subs[f->i], AT_REMOVEDIR) < 0 &&
	    errno != ENOENT)
		return -errno;
	f->i++;
	return 0;
}

/* Into the next directory left (1), or up when there is none; 0 once the
 * top has nothing left. */
static int rm_next(struct rm_walk *w)
{
	for (;;) {
		struct rm_frame *f = &w->fr[w->depth - 1];
		int ret;

		if (f->i < f->n) {
			int fd = open_to_empty(w->cur, f->subs[f->i]);

			if (fd == -ENOENT) {
				f->i++;
				continue;
			}
			if (fd < 0)
				return fd;
			close(w->cur);
			w->cur = fd;
			return 1;
		}
		if (!f->reread) {
			/* Whatever readdir missed while we unlinked. */
			f->reread = true;
			ret = rm_files(w->cur, f);
		} else if (w->depth == 1) {
			return 0;
		} else {
			ret = rm_up(w);
		}
		if (ret < 0)
			return ret;
	}
}

int ltd_rm_tree(int parent, const char *name)
{
	struct rm_walk w = {0};
	struct stat st;
	int ret;

	if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlinkat(parent, name, 0) < 0 ? -errno : 0;
	w.cur = open_to_empty(parent, name);
	if (w.cur < 0)
		return w.cur;
	/* Depth first, one directory open at a time: down by name, back up
	 * by "..", checked to be the directory we came from. */
	do {
		ret = rm_enter(&w);
		if (ret == 0)
			ret = rm_next(&w);
	} while (ret > 0);
	close(w.cur);
	for (size_t i = 0; i < w.depth; i++)
		rm_frame_free(&w.fr[i]);
	free(w.fr);
	if (ret < 0)
		return ret;
	return unlinkat(parent, name, AT_REMOVEDIR) < 0 ? -errno : 0;
}

/*
 * Open the directory holding @rel, creating missing directories (recorded
 * with default metadata as written by this layer).  No link is followed:
 * a path through a link of the image is refused.  *@last points into @rel.
 */
static int open_parent(struct ltd_unpack *u, const char *rel, const char **last,
		       struct ltd_err *err)
{
	_cleanup_close_ int dir = -1;
	char prefix[PATH_BUF];
	const char *p = rel;
	uint64_t depth = 1;

	/* Every walk of the tree later goes this deep: bound it here,
	 * where directories are made. */
	for (const char *c = rel; *c; c++)
		depth += *c == '/';
	if (depth > u->lim.depth)
		return ltd_err_set(err, ELOOP,
				   "'%.200s': %" PRIu64 " levels deep, more "
				   "than the limit of %" PRIu64
				   " (--max-depth); refused",
				   rel, depth, u->lim.depth);
	dir = openat(u->root, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return ltd_err_sys(err, "open the staging tree");
	for (;;) {
		size_t len = strcspn(p, "/");
		int fd;

		if (p[len] == '\0') {
			*last = p;
			return ltd_steal_fd(&dir);
		}
		memcpy(prefix, rel, (size_t)(p - rel) + len);
		prefix[(p - rel) + len] = '\0';
		fd = openat2_beneath(u->root, prefix, O_PATH | O_DIRECTORY);
		if (fd < 0 && errno == ENOENT) {
			struct ltd_meta m = {0755, 0, 0, u->layer};
			char comp[256];

			if (len >= sizeof(comp))
				return ltd_err_set(err, ENAMETOOLONG,
						   "'%s': name too long", rel);
			memcpy(comp, p, len);
			comp[len] = '\0';
			if (mkdirat(dir, comp, 0700) < 0)
				return ltd_err_sys(err, "create '%s'", prefix);
			if (ltd_meta_put(&u->meta, prefix, &m) < 0)
				return ltd_err_set(err, ENOMEM,
						   "out of memory");
			fd = openat2_beneath(u->root, prefix,
					     O_PATH | O_DIRECTORY);
		}
		if (fd < 0 &&
		    (errno == ELOOP || errno == EXDEV || errno == ENOTDIR))
			return ltd_err_set(err, ELOOP,
					   "'%s': the path passes through a "
					   "link or a file ('%s'); refused",
					   rel, prefix);
		if (fd < 0)
			return ltd_err_sys(err, "'%s'", prefix);
		ltd_closep(&dir);
		dir = fd;
		p += len + 1;
	}
}

/* Clear the way for a new entry at @name, unless both are directories. */
static int make_room(int parent, const char *name, bool keep_dir)
{
	struct stat st;

	if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (keep_dir && S_ISDIR(st.st_mode))
		return 1;
	return ltd_rm_tree(parent, name);
}

static int write_data(struct archive *a, int fd, const char *rel,
		      la_int64_t total, struct ltd_err *err)
{
	const void *buf;
	size_t size;
	la_int64_t off, at = 0;
	int r;

	while ((r = archive_read_data_block(a, &buf, &size, &off)) ==
	       ARCHIVE_OK) {
		/* Sparse files: holes stay holes.  Nothing past the declared
		 * size, which the limits were checked against. */
		if (off < 0 || (uint64_t)off + size > (uint64_t)total)
			return ltd_err_set(err, EFBIG,
					   "'%s': data past its declared size; "
					   "refused",
					   rel);
		if (off != at && lseek(fd, off, SEEK_SET) < 0)
			return ltd_err_sys(err, "'%s': seek", rel);
		for (size_t done = 0; done < size;) {
			ssize_t w = write(fd, (const char *)buf + done,
					  size - done);

			if (w < 0)
				return ltd_err_sys(err, "'%s': write", rel);
			done += (size_t)w;
		}
		at = off + (la_int64_t)size;
	}
	if (r != ARCHIVE_EOF)
		return ltd_err_set(err, EIO, "'%s': %s", rel,
				   archive_error_string(a));
	/* A file that ends in a hole. */
	if (at < total && ftruncate(fd, total) < 0)
		return ltd_err_sys(err, "'%s': truncate", rel);
	return 0;
}

static int count_bytes(struct ltd_unpack *u, uint64_t n, const char *rel,
		       struct ltd_err *err)
{
	if (n > u->lim.bytes - u->bytes)
		return ltd_err_set(err, EFBIG,
				   "'%s': the layers unpack to more than the "
				   "limit of %" PRIu64 " bytes (--max-bytes); "
				   "refused",
				   rel, u->lim.bytes);
	u->bytes += n;
	return 0;
}

/*
 * A hard link shares its target's inode, so it takes the target's
 * metadata (as GNU tar's does): two modes for one inode could never both
 * be sealed on disk.
 */
static int extract_hardlink(struct ltd_unpack *u, int parent, const char *last,
			    const char *rel, const char *target,
			    struct ltd_meta *meta, struct ltd_err *err)
{
	const struct ltd_meta *tm;
	char trel[PATH_BUF];
	_cleanup_close_ int tparent = -1;
	const char *tlast = NULL;
	struct stat st;
	int ret;

	if (ltd_tar_path_clean(target, trel, sizeof(trel)) < 0 || !trel[0])
		return ltd_err_set(err, EINVAL,
				   "'%s': hard link to '%s' leaves the tree; "
				   "refused",
				   rel, target);
	tparent = open_parent(u, trel, &tlast, err);
	if (tparent < 0)
		return tparent;
	if (fstatat(tparent, tlast, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !S_ISREG(st.st_mode))
		return ltd_err_set(err, EINVAL,
				   "'%s': hard link to '%s', which is not a "
				   "file of an earlier entry",
				   rel, target);
	tm = ltd_meta_get(&u->meta, trel);
	if (tm) {
		meta->mode = tm->mode;
		meta->uid = tm->uid;
		meta->gid = tm->gid;
	}
	/* Sealing hashes it once more. */
	ret = count_bytes(u, (uint64_t)st.st_size, rel, err);
	if (ret < 0)
		return ret;
	if (strcmp(trel, rel) == 0)
		return 0;
	ret = make_room(parent, last, false);
	if (ret < 0) {
		errno = -ret;
		return ltd_err_sys(err, "'%s': replace", rel);
	}
	if (linkat(tparent, tlast, parent, last, 0) < 0)
		return ltd_err_sys(err, "'%s': link to '%s'", rel, trel);
	return 0;
}

static int put_meta(struct ltd_unpack *u, const char *rel,
		    const struct ltd_meta *meta, struct ltd_err *err)
{
	if (ltd_meta_put(&u->meta, rel, meta) < 0)
		return ltd_err_set(err, ENOMEM, "out of memory");
	return 0;
}

static int extract(struct ltd_unpack *u, struct archive *a,
		   struct archive_entry *ae, const char *rel,
		   struct ltd_err *err)
{
	_cleanup_close_ int parent = -1, fd = -1;
	struct ltd_meta meta = {
		.mode = archive_entry_perm(ae) & 07777,
		.uid = (unsigned)archive_entry_uid(ae),
		.gid = (unsigned)archive_entry_gid(ae),
		.layer = u->layer,
	};
	const char *hl = archive_entry_hardlink(ae), *last = NULL;
	mode_t type = archive_entry_filetype(ae);
	int ret;

	if (!hl && type != AE_IFDIR && type != AE_IFREG && type != AE_IFLNK) {
		u->dropped++; /* devices, FIFOs, sockets */
		return 0;
	}
	if (!rel[0]) { /* the root itself: only its metadata */
		if (type != AE_IFDIR)
			return ltd_err_set(err, EINVAL,
					   "the image's root is not a "
					   "directory");
		return put_meta(u, "", &meta, err);
	}
	parent = open_parent(u, rel, &last, err);
	if (parent < 0)
		return parent;
	if (hl)
		return extract_hardlink(u, parent, last, rel, hl, &meta, err) <
				       0
			       ? -err->code
			       : put_meta(u, rel, &meta, err);
	if (type == AE_IFLNK) {
		const char *t = archive_entry_symlink(ae);

		if (!t || !ltd_link_target_ok(rel, t))
			return ltd_err_set(
				err, EINVAL,
				"'%s': link to '%s' leads out of the "
				"tree; refused",
				rel, t ? t : "");
	}
	ret = make_room(parent, last, type == AE_IFDIR);
	if (ret < 0) {
		errno = -ret;
		return ltd_err_sys(err, "'%s': replace what is there", rel);
	}
	if (type == AE_IFDIR) {
		if (ret == 0 && mkdirat(parent, last, 0700) < 0)
			return ltd_err_sys(err, "'%s': mkdir", rel);
	} else if (type == AE_IFLNK) {
		if (symlinkat(archive_entry_symlink(ae), parent, last) < 0)
			return ltd_err_sys(err, "'%s': symlink", rel);
	} else {
		fd = openat(parent, last,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				    O_CLOEXEC,
			    0600);
		if (fd < 0)
			return ltd_err_sys(err, "'%s': create", rel);
		ret = write_data(a, fd, rel, archive_entry_size(ae), err);
		if (ret < 0)
			return ret;
	}
	return put_meta(u, rel, &meta, err);
}

static int hide(struct ltd_unpack *u, int dirfd, const char *name,
		const char *path, struct ltd_err *err);

/* An opaque directory: remove what lower layers put beneath @path. */
static int hide_lower_children(struct ltd_unpack *u, int dir, const char *path,
			       struct ltd_err *err)
{
	char **names = NULL;
	size_t n = 0;
	int ret;

	/* Read all names first: hide() changes the directory. */
	ret = ltd_dir_names(dir, 0, &names, &n);
	if (ret < 0) {
		errno = -ret;
		return ltd_err_sys(err, "'%s': read", path);
	}
	/* Recursive: as deep as the tree, which open_parent() bounds;
	 * little on the stack per level. */
	for (size_t i = 0; ret == 0 && i < n; i++) {
		char *child = NULL;

		if (asprintf(&child, "%s%s%s", path, *path ? "/" : "",
			     names[i]) < 0) {
			ret = ltd_err_set(err, ENOMEM, "out of memory");
			break;
		}
		ret = hide(u, dir, names[i], child, err);
		free(child);
	}
	ltd_strv_free(names, n);
	return ret;
}

/*
 * Hide @path (entry @name of @dirfd) from lower layers: remove it unless
 * this layer wrote it; a directory this layer wrote keeps only what this
 * layer put in it.
 */
static int hide(struct ltd_unpack *u, int dirfd, const char *name,
		const char *path, struct ltd_err *err)
{
	_cleanup_close_ int fd = -1;
	int ret;

	if (ltd_whiteout_hides(&u->meta, path, u->layer)) {
		ret = ltd_rm_tree(dirfd, name);
		if (ret < 0) {
			errno = -ret;
			return ltd_err_sys(err, "whiteout '%s'", path);
		}
		ltd_meta_drop(&u->meta, path);
		return 0;
	}
	fd = openat(dirfd, name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 0; /* a file of this layer: stays */
	return hide_lower_children(u, fd, path, err);
}

static int whiteout(struct ltd_unpack *u, int kind, const char *victim,
		    struct ltd_err *err)
{
	_cleanup_close_ int parent = -1, dir = -1;
	const char *last = NULL;
	struct stat st;

	if (kind == LTD_WH_OPAQUE) {
		dir = victim[0] ? openat2_beneath(u->root, victim,
						  O_RDONLY | O_DIRECTORY)
				: openat(u->root, ".",
					 O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dir < 0)
			return 0; /* nothing below to hide */
		return hide_lower_children(u, dir, victim, err);
	}
	parent = open_parent(u, victim, &last, err);
	if (parent < 0)
		return parent;
	if (fstatat(parent, last, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return 0;
	return hide(u, parent, last, victim, err);
}

/*
 * Count the entry and its declared size (libarchive reads or skips that
 * many bytes, whatever the entry's type; a sparse file's holes included)
 * against the limits, before anything is written.
 */
static int check_entry(struct ltd_unpack *u, struct archive_entry *ae,
		       const char *name, struct ltd_err *err)
{
	la_int64_t size = archive_entry_size(ae);

	if (++u->entries > u->lim.entries)
		return ltd_err_set(err, EFBIG,
				   "more than %" PRIu64
				   " entries (--max-entries); "
				   "refused",
				   u->lim.entries);
	if (size < 0)
		size = 0;
	if ((uint64_t)size > u->lim.file_bytes)
		return ltd_err_set(
			err, EFBIG,
			"'%s': %" PRIu64 " bytes, more than the limit "
			"of %" PRIu64 " for one file (--max-file-bytes); "
			"refused",
			name, (uint64_t)size, u->lim.file_bytes);
	return count_bytes(u, (uint64_t)size, name, err);
}

static int apply_entries(struct ltd_unpack *u, struct archive *a,
			 struct ltd_err *err)
{
	struct archive_entry *ae;
	char rel[PATH_BUF], victim[PATH_BUF];
	int r, ret;

	while ((r = archive_read_next_header(a, &ae)) == ARCHIVE_OK ||
	       r == ARCHIVE_WARN) {
		const char *name = archive_entry_pathname(ae);

		if (!name)
			return ltd_err_set(err, EINVAL,
					   "an entry without a "
					   "name");
		ret = check_entry(u, ae, name, err);
		if (ret < 0)
			return ret;
		ret = ltd_tar_path_clean(name, rel, sizeof(rel));
		if (ret < 0)
			return ltd_err_set(
				err, -ret,
				"'%s': absolute, or leads out of the "
				"tree with '..'; refused",
				name);
		ret = ltd_whiteout_kind(rel, victim, sizeof(victim));
		if (ret < 0)
			return ltd_err_set(err, -ret, "'%s': bad whiteout",
					   name);
		if (ret == LTD_WH_IGNORE)
			continue;
		ret = ret == LTD_WH_NONE ? extract(u, a, ae, rel, err)
					 : whiteout(u, ret, victim, err);
		if (ret < 0)
			return ret;
	}
	if (r != ARCHIVE_EOF)
		return ltd_err_set(err, EIO, "%s", archive_error_string(a));
	return 0;
}

int ltd_unpack_layer(struct ltd_unpack *u, int fd, const char *expect_hex,
		     uint64_t expect_size, char found_hex[LTD_HEX_LEN + 1],
		     struct ltd_err *err)
{
	struct archive *a = archive_read_new();
	struct blob *b = calloc(1, sizeof(*b));
	struct ltd_err tar_err = {0};
	int ret;

	if (!a || !b) {
		archive_read_free(a);
		free(b);
		return ltd_err_set(err, ENOMEM, "out of memory");
	}
	b->fd = fd;
	b->progress = &u->progress;
	u->progress.shown_at = 0;
	ltd_sha256_init(&b->ctx);
	archive_read_support_filter_all(a);
	archive_read_support_format_tar(a);
	if (archive_read_open(a, b, NULL, blob_read, NULL) != ARCHIVE_OK)
		ret = ltd_err_set(&tar_err, EIO, "%s", archive_error_string(a));
	else
		ret = apply_entries(u, a, &tar_err);
	archive_read_free(a);
	/* The digest first: a changed blob is reported as such, not as
	 * whatever parse error it caused. */
	if (blob_drain(b) < 0 && ret == 0)
		ret = ltd_err_sys(&tar_err, "read");
	ltd_sha256_done(&b->ctx, found_hex);
	ltd_progress_show(&u->progress, b->n, true);
	if (expect_hex && strcmp(expect_hex, found_hex) != 0)
		ret = ltd_err_set(err, EBADMSG,
				  "expected sha256:%s, found sha256:%s",
				  expect_hex, found_hex);
	else if (expect_hex && expect_size && b->n != expect_size)
		ret = ltd_err_set(err, EBADMSG,
				  "expected %" PRIu64 " bytes, found %" PRIu64,
				  expect_size, b->n);
	else if (ret < 0)
		*err = tar_err;
	free(b);
	return ret;
}
