// SPDX-License-Identifier: GPL-2.0-or-later
#include "rootfs/store.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/names.h"
#include "common/text.h"

int ltd_store_path(char **path, struct ltd_err *err)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	int ret;

	/* The XDG spec: a relative XDG_DATA_HOME is invalid and ignored. */
	if (xdg && xdg[0] == '/')
		ret = asprintf(path, "%s/ltd-native/rootfs", xdg);
	else if (home && home[0] == '/')
		ret = asprintf(path, "%s/.local/share/ltd-native/rootfs", home);
	else
		return ltd_err_set(
			err, ENOENT,
			"cannot locate the rootfs store: neither "
			"XDG_DATA_HOME nor HOME is an absolute path");
	return ret < 0 ? ltd_err_set(err, ENOMEM, "out of memory") : 0;
}

int ltd_pin_parse(const char *buf, size_t len, char hex[LTD_HEX_LEN + 1],
		  struct ltd_err *err)
{
	const size_t want = 7 + LTD_HEX_LEN + 1;

	if (len != want || memcmp(buf, "sha256:", 7) != 0 ||
	    buf[want - 1] != '\n')
		return ltd_err_set(err, EINVAL,
				   "malformed pin (expected "
				   "'sha256:<64 hex digits>')");
	memcpy(hex, buf + 7, LTD_HEX_LEN);
	hex[LTD_HEX_LEN] = '\0';
	if (!ltd_hex_ok(hex))
		return ltd_err_set(err, EINVAL,
				   "malformed pin (expected "
				   "'sha256:<64 hex digits>')");
	return 0;
}

/* Read a small file of the store whole, without following a link. */
static int read_all(const char *path, char **buf, size_t *len, size_t max,
		    struct stat *st)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	size_t n = 0;
	ssize_t r;

	*buf = NULL;
	if (fd < 0 || fstat(fd, st) < 0)
		return -errno;
	if (!S_ISREG(st->st_mode) || (size_t)st->st_size > max)
		return -EFBIG;
	*buf = malloc((size_t)st->st_size + 1);
	if (!*buf)
		return -ENOMEM;
	while (n < (size_t)st->st_size &&
	       (r = read(fd, *buf + n, (size_t)st->st_size - n)) > 0)
		n += (size_t)r;
	*len = n;
	return 0;
}

int ltd_store_resolve(const char *store, const char *ref,
		      char hex[LTD_HEX_LEN + 1], struct ltd_err *err)
{
	_cleanup_free_ char *path = NULL, *buf = NULL;
	struct stat st;
	size_t len = 0;
	int ret;

	ret = ltd_ref_parse(ref, hex, err);
	if (ret != 0)
		return ret < 0 ? ret : 0;
	if (asprintf(&path, "%s/pins/%s", store, ref) < 0)
		return ltd_err_set(err, ENOMEM, "out of memory");
	ret = read_all(path, &buf, &len, 4096, &st);
	if (ret == -ENOENT)
		return ltd_err_set(err, ENOENT,
				   "there is no pinned root filesystem named "
				   "'%s' in %s (see 'ltd-rootfs list'; "
				   "'ltd-rootfs import NAME IMAGE' pins one)",
				   ref, store);
	if (ret < 0) {
		errno = -ret;
		return ltd_err_sys(err, "rootfs '%s': pin %s", ref, path);
	}
	ret = ltd_pin_parse(buf, len, hex, err);
	/* (Its message was written into the very buffer it formatted.) */
	if (ret < 0)
		return ltd_err_prefix(err, "rootfs '%s': %s", ref, path);
	return 0;
}

/* A manifest can be large (a Debian base has ~10,000 files); not huge. */
#define MANIFEST_MAX (256u << 20)

int ltd_store_open(const char *store, const char *ref, const char *hex,
		   struct ltd_store_entry *e, struct ltd_err *err)
{
	_cleanup_free_ char *dir = NULL, *mpath = NULL, *buf = NULL;
	char found[LTD_HEX_LEN + 1];
	struct stat st;
	size_t len = 0;
	int ret;

	*e = (struct ltd_store_entry){0};
	if (asprintf(&dir, "%s/entries/%s", store, hex) < 0 ||
	    asprintf(&mpath, "%s/manifest", dir) < 0)
		return ltd_err_set(err, ENOMEM, "out of memory");
	ret = read_all(mpath, &buf, &len, MANIFEST_MAX, &st);
	if (ret == -ENOENT)
		return ltd_err_set(err, ENOENT,
				   "rootfs '%s': expected sha256:%s, found no "
				   "such entry in %s",
				   ref, hex, store);
	if (ret < 0) {
		errno = -ret;
		return ltd_err_sys(err, "rootfs '%s': %s", ref, mpath);
	}
	ltd_sha256_hex(buf, len, found);
	if (strcmp(found, hex) != 0)
		return ltd_err_set(err, EBADMSG,
				   "rootfs '%s': expected sha256:%s, found "
				   "sha256:%s (the entry's manifest changed; "
				   "nothing runs)",
				   ref, hex, found);
	ret = ltd_manifest_parse(buf, len, &e->mf, err);
	if (ret < 0)
		return ret;
	memcpy(e->hex, hex, sizeof(e->hex));
	e->sealed_ns = st.st_ctim.tv_sec * 1000000000LL + st.st_ctim.tv_nsec;
	e->dir = ltd_steal_ptr(&dir);
	if (asprintf(&e->tree, "%s/tree", e->dir) < 0) {
		ltd_store_entry_free(e);
		return ltd_err_set(err, ENOMEM, "out of memory");
	}
	return 0;
}

static const char *type_name(mode_t m)
{
	return S_ISDIR(m)   ? "directory"
	       : S_ISREG(m) ? "file"
	       : S_ISLNK(m) ? "link"
			    : "special file";
}

int ltd_store_quick_check(const struct ltd_store_entry *e, struct ltd_err *err)
{
	_cleanup_close_ int tree =
		open(e->tree, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (tree < 0)
		return ltd_err_sys(err, "rootfs sha256:%s: %s", e->hex,
				   e->tree);
	for (size_t i = 0; i < e->mf.n; i++) {
		const struct ltd_mf_entry *m = &e->mf.e[i];
		const char *rel = m->path[1] ? m->path + 1 : "";
		mode_t want = ltd_manifest_disk_mode(m->type, m->mode);
		struct stat st;
		long long ct;

		/* Parents come first in the manifest and were checked to be
		 * directories, so no link is followed on the way. */
		if (fstatat(tree, rel, &st,
			    AT_SYMLINK_NOFOLLOW | (*rel ? 0 : AT_EMPTY_PATH)) <
		    0)
			return ltd_err_sys(err,
					   "rootfs sha256:%s: '%s' is "
					   "missing from the store; nothing "
					   "runs ('ltd-rootfs verify')",
					   e->hex, m->path);
		ct = st.st_ctim.tv_sec * 1000000000LL + st.st_ctim.tv_nsec;
		if ((m->type == 'd' && !S_ISDIR(st.st_mode)) ||
		    (m->type == 'f' && !S_ISREG(st.st_mode)) ||
		    (m->type == 'l' && !S_ISLNK(st.st_mode)) ||
		    (m->type != 'l' && (st.st_mode & 07777) != want) ||
		    (m->type == 'f' && (uint64_t)st.st_size != m->size))
			return ltd_err_set(
				err, EBADMSG,
				"rootfs sha256:%s: '%s' changed: expected a "
				"%s of mode %04o, found a %s of mode %04o "
				"(%lld bytes); nothing runs",
				e->hex, m->path,
				m->type == 'd'	 ? "directory"
				: m->type == 'f' ? "file"
						 : "link",
				(unsigned)want, type_name(st.st_mode),
				(unsigned)(st.st_mode & 07777),
				(long long)st.st_size);
		/* Writing a sealed file takes a chmod first: both move its
		 * ctime, which no unprivileged process can set back. */
		if (ct > e->sealed_ns)
			return ltd_err_set(
				err, EBADMSG,
				"rootfs sha256:%s: '%s' was changed "
				"after the entry was sealed; nothing "
				"runs ('ltd-rootfs verify' "
				"re-hashes the entry)",
				e->hex, m->path);
	}
	return 0;
}

int ltd_store_entry_lock(const char *store, const char *ref, const char *hex,
			 int op, int *fd, struct ltd_err *err)
{
	_cleanup_free_ char *dir = NULL;

	*fd = -1;
	if (asprintf(&dir, "%s/entries/%s", store, hex) < 0)
		return ltd_err_set(err, ENOMEM, "out of memory");
	for (int tries = 0; tries < 3; tries++) {
		_cleanup_close_ int d = open(
			dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		struct stat held, now;

		if (d < 0 && errno == ENOENT)
			return ltd_err_set(err, ENOENT,
					   "rootfs '%s': expected sha256:%s, "
					   "found no such entry in %s",
					   ref, hex, store);
		if (d < 0)
			return ltd_err_sys(err, "rootfs '%s': %s", ref, dir);
		if (flock(d, op) < 0) {
			if (errno == EWOULDBLOCK)
				return ltd_err_set(err, EBUSY,
						   "rootfs '%s' (sha256:%s) is "
						   "in use by a running cage",
						   ref, hex);
			return ltd_err_sys(err, "rootfs '%s': lock %s", ref,
					   dir);
		}
		if (fstat(d, &held) < 0)
			return ltd_err_sys(err, "rootfs '%s': %s", ref, dir);
		/* A shared lock may have waited for the entry's removal (or
		 * replacement): the lock is good only on the entry the path
		 * names now. */
		if (stat(dir, &now) == 0 && now.st_dev == held.st_dev &&
		    now.st_ino == held.st_ino) {
			*fd = ltd_steal_fd(&d);
			return 0;
		}
	}
	return ltd_err_set(err, EAGAIN,
			   "rootfs '%s': %s keeps changing; try again", ref,
			   dir);
}

int ltd_store_lock(const char *store, int *fd, struct ltd_err *err)
{
	_cleanup_free_ char *path = NULL;
	_cleanup_close_ int l = -1;
	struct stat st;

	*fd = -1;
	if (asprintf(&path, "%s/lock", store) < 0)
		return ltd_err_set(err, ENOMEM, "out of memory");
	/* No link followed, no FIFO waited on; read-only is enough for
	 * flock. */
	l = open(path,
		 O_RDONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
			 O_CLOEXEC,
		 0600);
	if (l < 0 && errno == ELOOP)
		return ltd_err_set(err, ELOOP,
				   "the store's lock %s is a symbolic link, "
				   "not a file; remove it",
				   path);
	if (l < 0 || fstat(l, &st) < 0)
		return ltd_err_sys(err, "the store's lock %s", path);
	if (!S_ISREG(st.st_mode))
		return ltd_err_set(err, EINVAL,
				   "the store's lock %s is not a regular "
				   "file; remove it",
				   path);
	if (st.st_uid != geteuid())
		return ltd_err_set(err, EPERM,
				   "the store's lock %s belongs to uid %u, "
				   "not to you; remove it",
				   path, (unsigned)st.st_uid);
	if (flock(l, LOCK_EX | LOCK_NB) < 0) {
		if (errno != EWOULDBLOCK)
			return ltd_err_sys(err, "lock %s", path);
		/* Another import's commit or rm: short, so wait. */
		fputs("ltd-rootfs: waiting for the store's lock ", stderr);
		ltd_fput_shown(stderr, path);
		fputs(" (another ltd-rootfs is changing the store)\n", stderr);
		if (flock(l, LOCK_EX) < 0)
			return ltd_err_sys(err, "lock %s", path);
	}
	*fd = ltd_steal_fd(&l);
	return 0;
}

void ltd_store_entry_free(struct ltd_store_entry *e)
{
	ltd_manifest_free(&e->mf);
	free(e->dir);
	free(e->tree);
	*e = (struct ltd_store_entry){0};
}
