// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A Nix store path's closure: the store paths it refers to, and theirs.
 * Nix records them in its database; `nix-store -qR` reads it, and is
 * asked when it is on the caller's PATH.  Otherwise (or when it fails)
 * the references are found as Nix itself finds them when it builds: a
 * store path's files are scanned for the names of other store paths
 * (STORE/<32 characters of Nix's base-32>-NAME).
 */
#include "agents/resolve.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/path.h"
#include "common/vec.h"

#define MAX_PATHS 4096	       /* store paths in one closure */
#define MAX_DEPTH 64	       /* directories within one store path */
#define SCAN_MAX  (8ULL << 30) /* bytes read before giving up */
#define HASH_LEN  32

extern char **environ;

static const char nix32[] = "0123456789abcdfghijklmnpqrsvwxyz";

struct scan {
	struct ltd_resolver *r;
	char **q; /* found store paths; q[done..n) still to scan */
	size_t n, done;
	uint64_t bytes;
};

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || strchr("+-._?=", c);
}

/* HASH_LEN characters of Nix's base-32 at @h (the caller checked there
 * are that many bytes). */
static bool is_hash(const char *h)
{
	for (int i = 0; i < HASH_LEN; i++)
		if (!h[i] || !strchr(nix32, h[i]))
			return false;
	return true;
}

static int enqueue(struct scan *s, const char *path, struct ltd_err *err)
{
	struct stat st;
	char **v;

	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->q[i], path))
			return 0;
	if (lstat(path, &st) < 0)
		return 0; /* a name in a file, not a store path here */
	if (s->n == MAX_PATHS)
		return ltd_err_set(err, E2BIG, "more than %d store paths",
				   MAX_PATHS);
	v = ltd_vec_push(&s->q, s->n);
	if (!v)
		return ltd_err_set(err, ENOMEM, "out of memory");
	if (!(*v = strdup(path)))
		return ltd_err_set(err, ENOMEM, "out of memory");
	s->n++;
	return 0;
}

/* Each "STORE/HASH-NAME" in @buf. */
static int refs_in(struct scan *s, const char *buf, size_t len,
		   struct ltd_err *err)
{
	const char *store = s->r->store;
	size_t plen = strlen(store);
	const char *p = buf, *end = buf + len;
	int ret = 0;

	while (!ret && (p = memmem(p, (size_t)(end - p), store, plen))) {
		const char *h = p + plen + 1, *n;
		char path[PATH_MAX];

		p += plen;
		if (h + HASH_LEN + 1 >= end || h[-1] != '/' || !is_hash(h) ||
		    h[HASH_LEN] != '-')
			continue;
		for (n = h + HASH_LEN + 1; n < end && name_char(*n); n++)
			;
		if (n - h > 255 || ltd_path_fmt(path, sizeof(path), "%s/%.*s",
						store, (int)(n - h), h) < 0)
			continue;
		ret = enqueue(s, path, err);
	}
	return ret;
}

static int scan_file(struct scan *s, int dirfd, const char *name,
		     struct ltd_err *err)
{
	_cleanup_close_ int fd =
		openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	struct stat st;
	void *map;
	int ret;

	if (fd < 0 || fstat(fd, &st) < 0 || st.st_size == 0)
		return 0;
	s->bytes += (uint64_t)st.st_size;
	if (s->bytes > SCAN_MAX)
		return ltd_err_set(err, E2BIG, "more than %llu GiB to scan",
				   SCAN_MAX >> 30);
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return 0;
	ret = refs_in(s, map, (size_t)st.st_size, err);
	munmap(map, (size_t)st.st_size);
	return ret;
}

static int scan_dir(struct scan *s, int fd, int depth, struct ltd_err *err)
{
	DIR *d = fdopendir(fd);
	struct dirent *e;
	int ret = 0;

	if (!d) {
		close(fd);
		return 0;
	}
	while (!ret && (e = readdir(d))) {
		char text[PATH_MAX];
		struct stat st;
		ssize_t len;
		int sub;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISLNK(st.st_mode)) {
			len = readlinkat(dirfd(d), e->d_name, text,
					 sizeof(text) - 1);
			if (len > 0)
				ret = refs_in(s, text, (size_t)len, err);
		} else if (S_ISREG(st.st_mode)) {
			ret = scan_file(s, dirfd(d), e->d_name, err);
		} else if (S_ISDIR(st.st_mode) && depth < MAX_DEPTH) {
			sub = openat(dirfd(d), e->d_name,
				     O_RDONLY | O_DIRECTORY | O_CLOEXEC |
					     O_NOFOLLOW);
			if (sub >= 0)
				ret = scan_dir(s, sub, depth + 1, err);
		}
	}
	closedir(d);
	return ret;
}

/* One store path: a file (or link) is scanned itself. */
static int scan_one(struct scan *s, const char *path, struct ltd_err *err)
{
	char text[PATH_MAX];
	struct stat st;
	ssize_t len;
	int fd;

	if (lstat(path, &st) < 0)
		return 0;
	if (S_ISLNK(st.st_mode)) {
		len = readlink(path, text, sizeof(text) - 1);
		return len > 0 ? refs_in(s, text, (size_t)len, err) : 0;
	}
	if (S_ISREG(st.st_mode))
		return scan_file(s, AT_FDCWD, path, err);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	return fd < 0 ? 0 : scan_dir(s, fd, 0, err);
}

/* `nix-store -qR TOP`: 0 with each path added, or <0 to scan instead. */
static int ask_nix(struct ltd_resolver *r, const char *top, struct ltd_err *err)
{
	char cmd[PATH_MAX],
		*argv[] = {cmd, "--query", "--requisites", (char *)top, NULL};
	posix_spawn_file_actions_t fa;
	_cleanup_free_ char *out = NULL;
	size_t len = 0, cap = 0;
	int pipefd[2], status, ret = 0;
	pid_t pid;

	if (!r->nix_store_cmd ||
	    ltd_resolve_find(r->path, "nix-store", cmd, sizeof(cmd)) < 0 ||
	    pipe2(pipefd, O_CLOEXEC) < 0)
		return -ENOENT;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (posix_spawn(&pid, cmd, &fa, NULL, argv, environ) != 0)
		pid = -1;
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	for (ssize_t n = 1; pid > 0 && n > 0;) {
		if (len + 4096 > cap) {
			char *b = realloc(out, cap = cap * 2 + 8192);

			if (!b)
				break;
			out = b;
		}
		n = read(pipefd[0], out + len, cap - len - 1);
		len += n > 0 ? (size_t)n : 0;
	}
	close(pipefd[0]);
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0 || !out)
		return -ENOENT;
	out[len] = '\0';
	for (char *l = strtok(out, "\n"); !ret && l; l = strtok(NULL, "\n"))
		if (ltd_path_is_under(l, r->store))
			ret = ltd_resolve_add_bind(r, l, err);
	return ret;
}

int ltd_nix_closure(struct ltd_resolver *r, const char *top,
		    struct ltd_err *err)
{
	struct scan s = {.r = r};
	int ret;

	if (ask_nix(r, top, err) == 0)
		return 0;
	memset(err, 0, sizeof(*err));
	ret = enqueue(&s, top, err);
	while (!ret && s.done < s.n)
		ret = scan_one(&s, s.q[s.done++], err);
	/* A closure too large to read: the store, read-only, instead (it
	 * is world-readable by design and holds no secret of the user's). */
	if (ret == -E2BIG) {
		memset(err, 0, sizeof(*err));
		ret = ltd_resolve_add_note(r, err,
					   "%s: its closure is too large to "
					   "read; all of %s is bound read-only",
					   top, r->store);
		for (size_t i = 0; i < s.n; i++)
			free(s.q[i]);
		s.n = 0;
		if (!ret)
			ret = ltd_resolve_add_bind(r, r->store, err);
	}
	for (size_t i = 0; i < s.n; i++) {
		if (!ret)
			ret = ltd_resolve_add_bind(r, s.q[i], err);
		free(s.q[i]);
	}
	free(s.q);
	return ret;
}
