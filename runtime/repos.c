// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Git repositories planted in the project (see repos.h).
 *
 * One walk, after the cage is gone: every directory is opened beneath the
 * one above it with openat2 (no link, no other mount), so the walk goes
 * nowhere the command could send it.  git takes a directory for a git
 * directory when it holds HEAD and either objects and refs or a commondir
 * (setup.c's is_git_directory); that is judged from the names alone, so a
 * directory costs one open and its reads.  "Changed during the run" is
 * the ctime, which the command can move forward (any change does) but
 * never back.
 */
#include "runtime/repos.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "policy/gitconfig.h"
#include "policy/option.h"
#include "policy/policy.h"
#include "runtime/cleanup.h"
#include "runtime/error.h"

struct walk {
	FILE *out;
	struct timespec since;
	struct ltd_repos_limits lim;
	int root;	     /* the root's directory */
	size_t root_len;     /* of its name, at the start of path */
	bool root_protected; /* @root and @root/.git are not judged */
	unsigned long dirs;  /* entered so far */
	bool full;	     /* lim.dirs reached */
	char deep[PATH_MAX];
	unsigned long n_deep; /* places not looked below */
	char path[PATH_MAX];  /* the directory being read */
	char **bufs;	      /* getdents64's, one a depth */
};

static const char review[] = "; review it before you run git there on the "
			     "host\n";

/* "ltd-native: warning: PATH[/NAME]: WHAT[ (DETAIL)]; review..." in one
 * write, names shown as ltd_fput_shown() shows them. */
static void say(struct walk *w, const char *name, const char *what,
		const char *detail)
{
	_cleanup_free_ char *line = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&line, &len);

	if (!m)
		return;
	fputs("ltd-native: warning: ", m);
	ltd_fput_shown(m, w->path);
	if (name) {
		fputc('/', m);
		ltd_fput_shown(m, name);
	}
	fputs(": ", m);
	fputs(what, m);
	if (detail) {
		fputs(" (", m);
		ltd_fput_shown(m, detail);
		fputc(')', m);
	}
	fputs(review, m);
	if (fclose(m) == 0)
		fwrite(line, 1, len, w->out);
}

static bool changed(const struct stat *st, struct timespec since)
{
	return st->st_ctim.tv_sec > since.tv_sec ||
	       (st->st_ctim.tv_sec == since.tv_sec &&
		st->st_ctim.tv_nsec >= since.tv_nsec);
}

/* @name in @dir, the link itself if it is one; its ctime from @since on. */
static bool changed_at(const struct walk *w, int dir, const char *name,
		       struct stat *st)
{
	return fstatat(dir, name, st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       changed(st, w->since);
}

struct runs {
	char key[512]; /* "section.key" of the first key that runs */
};

static int on_key(void *ctx, const char *section, const char *key,
		  const char *val)
{
	struct runs *r = ctx;
	char buf[PATH_MAX * 4 + 8];
	bool include = !strcasecmp(key, "path") &&
		       (!strcmp(section, "include") ||
			!strncmp(section, "includeif.", 10));

	if (!ltd_gitconfig_command(section, key, val, buf, sizeof(buf)) &&
	    !(!strcmp(section, "core") && !strcasecmp(key, "hookspath")) &&
	    !include)
		return 0;
	snprintf(r->key, sizeof(r->key), "%s.%s", section, key);
	return 1;
}

/* config or config.worktree, changed: what of it git runs. */
static void judge_config(struct walk *w, int dir, const char *name)
{
	_cleanup_free_ char *text = NULL;
	struct ltd_err err = {0};
	struct runs r = {{0}};
	struct stat st;
	size_t len;

	if (!changed_at(w, dir, name, &st))
		return;
	if (S_ISLNK(st.st_mode)) {
		say(w, name,
		    "the command created or changed this git configuration, "
		    "a symbolic link, which ltd-native did not follow",
		    NULL);
		return;
	}
	if (ltd_policy_read_file(dir, name, name, &text, &len, &err)) {
		say(w, name,
		    "the command created or changed this git configuration, "
		    "which ltd-native could not read",
		    err.msg);
		return;
	}
	if (ltd_gitconfig_parse(text, len, on_key, &r))
		say(w, name,
		    "the command created or changed this git configuration, "
		    "which has git run something wherever it works in that "
		    "repository (a shell prompt that shows git's status is "
		    "enough)",
		    r.key);
}

/* hooks: each one changed that is not a sample. */
static void judge_hooks(struct walk *w, int dir)
{
	_cleanup_close_ int fd = -1;
	struct stat st;
	struct dirent *e;
	DIR *d;

	if (fstatat(dir, "hooks", &st, AT_SYMLINK_NOFOLLOW) < 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		if (changed(&st, w->since))
			say(w, "hooks",
			    "the command made git's hooks directory a "
			    "symbolic link or another file, which ltd-native "
			    "did not follow",
			    NULL);
		return;
	}
	fd = openat(dir, "hooks",
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		if (changed(&st, w->since))
			say(w, "hooks",
			    "the command changed git's hooks directory, which "
			    "ltd-native could not read",
			    strerror(errno));
		return;
	}
	ltd_steal_fd(&fd);
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		char name[NAME_MAX + 8];

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    (n > 7 && !strcmp(e->d_name + n - 7, ".sample")))
			continue;
		if (!changed_at(w, dirfd(d), e->d_name, &st))
			continue;
		snprintf(name, sizeof(name), "hooks/%s", e->d_name);
		say(w, name,
		    "the command created or changed this git hook, which git "
		    "runs in that repository",
		    NULL);
	}
	closedir(d);
}

static void judge_gitdir(struct walk *w, int dir, bool commondir)
{
	struct stat st;

	judge_config(w, dir, "config");
	judge_config(w, dir, "config.worktree");
	judge_hooks(w, dir);
	if (commondir && changed_at(w, dir, "commondir", &st))
		say(w, "commondir",
		    "the command created or changed this file, which sends "
		    "git to another directory's configuration and hooks",
		    NULL);
}

/*
 * A .git that is not a directory: a link, or a file "gitdir: PATH".  One
 * changed during the run that sends git where the walk does not go (out
 * of the root, through a link, across a mount) is said; one that stays in
 * the root needs nothing more (what it points at is judged by the walk).
 */
static void judge_gitfile(struct walk *w, int dir)
{
	_cleanup_free_ char *text = NULL;
	_cleanup_close_ int fd = -1;
	struct ltd_err err = {0};
	char to[PATH_MAX], abs[PATH_MAX * 2 + 2];
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
	};
	struct stat st;
	size_t len;
	ssize_t n;

	if (!changed_at(w, dir, ".git", &st))
		return;
	if (S_ISLNK(st.st_mode)) {
		n = readlinkat(dir, ".git", to, sizeof(to) - 1);
		if (n < 0)
			return;
		to[n] = '\0';
	} else if (S_ISREG(st.st_mode) &&
		   !ltd_policy_read_file(dir, ".git", ".git", &text, &len,
					 &err) &&
		   len > 8 && !strncmp(text, "gitdir: ", 8)) {
		/* git takes the first line, its trailing spaces off. */
		len = strcspn(text + 8, "\r\n");
		while (len && text[8 + len - 1] == ' ')
			len--;
		if (len >= sizeof(to))
			return;
		memcpy(to, text + 8, len);
		to[len] = '\0';
	} else {
		return; /* git reads no git directory from it */
	}
	snprintf(abs, sizeof(abs), "%s%s%s", to[0] == '/' ? "" : w->path,
		 to[0] == '/' ? "" : "/", to);
	ltd_path_normalize(abs);
	if (!strncmp(abs, w->path, w->root_len) &&
	    (abs[w->root_len] == '/' || !abs[w->root_len])) {
		const char *rel =
			abs[w->root_len] ? abs + w->root_len + 1 : ".";

		fd = (int)syscall(SYS_openat2, w->root, rel, &how, sizeof(how));
		if (fd >= 0 || errno == ENOENT || errno == ENOTDIR)
			return;
	}
	say(w, ".git",
	    "the command created or changed this, which sends git where "
	    "ltd-native did not look (out of the project, or through a link)",
	    to);
}

static void walk(struct walk *w, int fd, unsigned depth);

/* @name, a directory in @dir, one level below @depth. */
static void enter(struct walk *w, int dir, const char *name, unsigned depth)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
	};
	size_t len = strlen(w->path), n = strlen(name);
	struct stat st;
	int fd;

	if (w->full)
		return;
	if (depth > w->lim.depth || len + 1 + n >= sizeof(w->path)) {
		if (!w->n_deep++)
			snprintf(w->deep, sizeof(w->deep), "%s", w->path);
		return;
	}
	if (w->dirs >= w->lim.dirs) {
		w->full = true;
		return;
	}
	fd = (int)syscall(SYS_openat2, dir, name, &how, sizeof(how));
	if (fd < 0) {
		/* A mount (EXDEV), or gone; a directory the command made
		 * unreadable is said. */
		if (errno == EACCES && changed_at(w, dir, name, &st))
			say(w, name,
			    "the command made this directory one ltd-native "
			    "cannot look in for git repositories it may have "
			    "planted",
			    NULL);
		return;
	}
	w->dirs++;
	w->path[len] = '/';
	memcpy(w->path + len + 1, name, n + 1);
	walk(w, fd, depth);
	w->path[len] = '\0';
}

/* A directory's entries, read with getdents64 into a buffer kept for its
 * depth (opendir() would cost two fcntl and an fstat a directory, and a
 * buffer of its own). */
#define DENTS_SIZE 16384

struct dents {
	int fd;
	char *buf;
	long len, off;
};

static struct dirent64 *dents_next(struct dents *d)
{
	struct dirent64 *e;

	if (d->off >= d->len) {
		d->len = syscall(SYS_getdents64, d->fd, d->buf, DENTS_SIZE);
		d->off = 0;
		if (d->len <= 0)
			return NULL;
	}
	e = (struct dirent64 *)(d->buf + d->off);
	d->off += e->d_reclen;
	return e;
}

/* The directory at @fd (w->path), which this closes. */
static void walk(struct walk *w, int fd, unsigned depth)
{
	bool head = false, objects = false, refs = false, commondir = false;
	size_t len = strlen(w->path);
	struct dents d = {fd, w->bufs[depth], 0, 0};
	struct dirent64 *e;

	if (!d.buf && !(d.buf = w->bufs[depth] = malloc(DENTS_SIZE))) {
		close(fd);
		return;
	}
	while ((e = dents_next(&d))) {
		unsigned char type = e->d_type;
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (type == DT_UNKNOWN) {
			if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) <
			    0)
				continue;
			type = S_ISDIR(st.st_mode) ? DT_DIR : DT_REG;
		}
		if (!strcmp(e->d_name, "HEAD"))
			head = true;
		else if (!strcmp(e->d_name, "commondir"))
			commondir = true;
		else if (!strcmp(e->d_name, "objects"))
			objects = type == DT_DIR;
		else if (!strcmp(e->d_name, "refs"))
			refs = type == DT_DIR;
		if (type == DT_DIR)
			enter(w, fd, e->d_name, depth + 1);
		else if (!strcmp(e->d_name, ".git"))
			judge_gitfile(w, fd);
	}
	/* The project and its .git are protected before the run
	 * (gitprotect.c) and reported by protected.c. */
	if (head && (commondir || (objects && refs)) &&
	    !(w->root_protected &&
	      (len == w->root_len || !strcmp(w->path + w->root_len, "/.git"))))
		judge_gitdir(w, fd, commondir);
	close(fd);
}

void ltd_repos_report(FILE *out, const char *root, bool root_protected,
		      struct timespec since, const struct ltd_repos_limits *lim)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS,
	};
	_cleanup_free_ struct walk *w = calloc(1, sizeof(*w));
	char what[256];
	int fd;

	if (!w)
		return;
	w->out = out;
	w->since = since;
	w->root_protected = root_protected;
	w->lim = lim ? *lim
		     : (struct ltd_repos_limits){LTD_REPOS_MAX_DEPTH,
						 LTD_REPOS_MAX_DIRS};
	w->root_len = strlen(root);
	if (w->root_len >= sizeof(w->path))
		return;
	memcpy(w->path, root, w->root_len + 1);
	w->bufs = calloc(w->lim.depth + 1, sizeof(*w->bufs));
	if (!w->bufs)
		return;
	fd = (int)syscall(SYS_openat2, AT_FDCWD, root, &how, sizeof(how));
	if (fd < 0 || (w->root = dup(fd)) < 0) {
		say(w, NULL,
		    "ltd-native could not look in it for git repositories "
		    "the command may have planted",
		    strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	walk(w, fd, 0);
	memcpy(w->path, root, w->root_len + 1);
	if (w->full) {
		snprintf(what, sizeof(what),
			 "ltd-native stopped after %lu directories looking for "
			 "git repositories the command may have planted",
			 w->lim.dirs);
		say(w, NULL, what, NULL);
	}
	if (w->n_deep) {
		memcpy(w->path, w->deep, sizeof(w->path));
		snprintf(what, sizeof(what),
			 "ltd-native did not look below it for git "
			 "repositories the command may have planted (deeper "
			 "than %u directories or a longer path; %lu such "
			 "place%s)",
			 w->lim.depth, w->n_deep, w->n_deep == 1 ? "" : "s");
		say(w, NULL, what, NULL);
	}
	close(w->root);
	for (unsigned i = 0; i <= w->lim.depth; i++)
		free(w->bufs[i]);
	free(w->bufs);
}
