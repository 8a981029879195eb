// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Git repositories planted in the project (see repos.h): what the walk
 * (repos.c) says of each git directory and each .git file it meets.
 *
 * git takes a directory for a git directory when it holds HEAD and
 * objects and refs, or a commondir (setup.c's is_git_directory, which
 * asks only that they be reachable); the walk takes HEAD and any of the
 * three, of any type, judged from the names alone.  "Changed during the
 * run" is the ctime, which the command can move forward (any change does)
 * but never back.
 */
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

#include "common/cleanup.h"
#include "common/error.h"
#include "common/path.h"
#include "common/text.h"
#include "policy/option.h"
#include "policy/policy.h"
#include "protect/gitconfig.h"
#include "protect/gitindex.h"
#include "protect/gitwalk.h"
#include "protect/repowalk.h"

/* Past these, a count: a flood of names must not scroll the rest away. */
#define MAX_HOOKS_SAID	  5
#define MAX_INCLUDES	  10
#define MAX_INCLUDE_DEPTH 3 /* includes followed from so deep */

static const char review[] = "; review it before you run git there on the "
			     "host\n";

void ltd_repos_say_at(struct walk *w, const char *at, const char *name,
		      const char *what, const char *detail)
{
	_cleanup_free_ char *line = NULL;
	size_t len = 0;
	FILE *m;

	if (w->quiet)
		return;
	if (w->said >= MAX_WARNINGS) {
		w->over++;
		return;
	}
	m = open_memstream(&line, &len);
	if (!m)
		return;
	fputs("ltd-native: warning: ", m);
	ltd_fput_shown(m, at ? at : w->path);
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
	if (fclose(m) == 0) {
		fwrite(line, 1, len, w->out);
		w->said++;
	}
}

static void say(struct walk *w, const char *name, const char *what,
		const char *detail)
{
	ltd_repos_say_at(w, NULL, name, what, detail);
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

/* The current directory, relative to the root ("" for the root). */
static const char *here(const struct walk *w)
{
	const char *r = w->path + w->root_len;

	return r[0] == '/' ? r + 1 : r;
}

/*
 * @to as git takes it from the directory @base (relative to the root, ""
 * for the root): absolute, or relative to @base.  Opened (@flags) beneath
 * the root with no link and no mount on the way; a negative errno when it
 * cannot be (-EXDEV: out of the root; -ELOOP: through a link), -ENOENT
 * when absent.  Into @shown, the path as the root's name and the rest.
 */
static int open_in_root(struct walk *w, const char *base, const char *to,
			int flags, char *shown, size_t size)
{
	struct open_how how = {
		.flags = (uint64_t)flags | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
	};
	char rel[PATH_MAX * 2];
	int fd;

	shown[0] = '\0'; /* also where it returns early */
	if (to[0] == '/') {
		snprintf(shown, size, "%s", to);
		if (strncmp(to, w->path, w->root_len) != 0 ||
		    (to[w->root_len] != '/' && to[w->root_len] != '\0'))
			return -EXDEV;
		snprintf(rel, sizeof(rel), "%s", to + w->root_len);
	} else {
		if (snprintf(rel, sizeof(rel), "%s%s%s", base,
			     base[0] ? "/" : "", to) >= (int)sizeof(rel))
			return -ENAMETOOLONG;
		if (snprintf(shown, size, "%.*s/%s", (int)w->root_len, w->path,
			     rel) >= (int)size)
			shown[0] = '\0';
		/* By the text, for the eye: what is opened has no link. */
		if (shown[0])
			ltd_path_normalize(shown);
	}
	/* RESOLVE_BENEATH takes "/x" as beneath too: strip it. */
	fd = (int)syscall(SYS_openat2, w->root,
			  rel[strspn(rel, "/")] ? rel + strspn(rel, "/") : ".",
			  &how, sizeof(how));
	return fd < 0 ? -errno : fd;
}

/* open_in_root()'s failure for a path git would follow: ENOENT, ENOTDIR
 * (nothing there: git finds nothing) and EXDEV (out of the tree: not the
 * command's to write, or another mount) need no word; any other (ELOOP:
 * a link on the way, which the command may have made) is said, on every
 * run, since whether what lies behind it changed cannot be told. */
static bool unfollowed(int err)
{
	return err < 0 && err != -ENOENT && err != -ENOTDIR && err != -EXDEV;
}

static void say_unfollowed(struct walk *w, const char *at, const char *name,
			   const char *what, int err)
{
	char msg[256];

	snprintf(msg, sizeof(msg),
		 "git follows %s through a symbolic link (or where ltd-native "
		 "may not look), which ltd-native did not follow",
		 what);
	ltd_repos_say_at(w, at, name, msg, strerror(-err));
}

/* What a repository's configuration makes git run: the first key, the
 * hooks path, and whether any file of it changed during the run. */
struct cfg {
	struct walk *w;
	char key[512];		 /* "section.key" of the first key that runs */
	char key_file[PATH_MAX]; /* the file it is in, as shown */
	char hooks_path[PATH_MAX];
	char worktree[PATH_MAX]; /* core.worktree, "" when not set */
	bool changed;		 /* a file of the configuration changed */
	unsigned files;
};

/* The first key that runs something, and the file it is in. */
static void first_key(struct cfg *c, const char *section, const char *key,
		      const char *file)
{
	if (c->key[0])
		return;
	snprintf(c->key, sizeof(c->key), "%s.%s", section, key);
	/* Shown as far as it fits (a name this long is one no one types). */
	snprintf(c->key_file, sizeof(c->key_file), "%.*s",
		 (int)sizeof(c->key_file) - 1, file);
}

static int on_key(struct ltd_gitwalk *gw, const char *section, const char *key,
		  const char *val, struct ltd_err *err)
{
	struct cfg *c = gw->ctx;
	char buf[PATH_MAX * 4 + 8];
	bool include = ltd_gitwalk_is_include(section, key);
	bool runs = ltd_gitconfig_command(section, key, val, buf,
					  sizeof(buf)) != NULL;

	if (include && val[0] &&
	    (gw->cur->depth >= gw->max_depth || c->files >= MAX_INCLUDES))
		runs = true; /* not read: it may say anything */

	/* protocol.allow / protocol.ext.allow: lets an ext:: URL run. */
	if ((!strcmp(section, "protocol") ||
	     !strncmp(section, "protocol.", 9)) &&
	    !strcasecmp(key, "allow") &&
	    (!strcasecmp(val, "always") || !strcasecmp(val, "user")))
		runs = true;
	if (!strcmp(section, "core") && !strcasecmp(key, "hookspath")) {
		snprintf(c->hooks_path, sizeof(c->hooks_path), "%s", val);
		runs = true;
	}
	if (!strcmp(section, "core") && !strcasecmp(key, "worktree"))
		snprintf(c->worktree, sizeof(c->worktree), "%s", val);
	if (runs)
		first_key(c, section, key, gw->cur->shown);
	/* An include is configuration too: read it where it lies in the
	 * root (one outside is not the command's to write). */
	return ltd_gitwalk_include(gw, section, key, val, err);
}

/* The config at @fd (closed here), @f: its ctime, its text; 0, or a
 * negative errno and @err when it cannot be read. */
static int read_at(struct cfg *c, int fd, struct ltd_gitwalk_file *f,
		   struct ltd_err *err)
{
	struct stat st;
	int ret;

	c->files++;
	if (fstat(fd, &st) == 0 && changed(&st, c->w->since))
		c->changed = true;
	ret = ltd_policy_read_fd(fd, f->shown, &f->text, &f->len, err);
	close(fd);
	return ret;
}

/* An include, opened beneath the root without a link on the way. */
static int open_include(struct ltd_gitwalk *gw, struct ltd_gitwalk_file *f,
			struct ltd_err *err)
{
	struct cfg *c = gw->ctx;
	int fd;

	if (c->files >= MAX_INCLUDES)
		return 1;
	fd = f->path[0] ? open_in_root(c->w, "", f->path, O_RDONLY | O_NONBLOCK,
				       f->shown, sizeof(f->shown))
			: -ENAMETOOLONG;
	/* Named by the text, for the eye: what is opened has no link. */
	if (f->value[0] != '/')
		ltd_path_normalize(f->shown);
	/* Through a link: what is behind it may have changed. */
	if (unfollowed(fd))
		c->changed = true;
	/* One ltd-native cannot read (out of the tree, through a link) may
	 * say anything; a missing one says nothing. */
	if (fd < 0 && fd != -ENOENT && fd != -ENOTDIR)
		first_key(c, f->section, f->key, f->up->shown);
	if (fd < 0)
		return 1;
	/* An include git cannot read is no error to git. */
	return read_at(c, fd, f, &(struct ltd_err){0}) < 0 ? 1 : 0;
}

static const struct ltd_gitwalk_ops cfg_ops = {
	.key = on_key,
	.open = open_include,
};

/* config or config.worktree of the git directory @dir. */
static void config_file(struct walk *w, struct cfg *c, int dir,
			const char *name)
{
	struct ltd_gitwalk gw = {
		.ops = &cfg_ops,
		.ctx = c,
		.max_depth = MAX_INCLUDE_DEPTH,
	};
	struct ltd_gitwalk_file *f = calloc(1, sizeof(*f));
	struct ltd_err err = {0};
	struct stat st;
	int fd, ret;

	if (!f || fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		goto out;
	if (changed(&st, w->since))
		c->changed = true;
	if (!S_ISREG(st.st_mode)) {
		if (changed(&st, w->since))
			say(w, name,
			    "the command made this git configuration a "
			    "symbolic link or another file, which ltd-native "
			    "did not follow",
			    NULL);
		goto out;
	}
	snprintf(f->path, sizeof(f->path), "%s/%s", w->path, name);
	if (strlen(f->path) < PATH_MAX)
		memcpy(f->shown, f->path, sizeof(f->shown));
	fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	ret = fd < 0 ? ltd_err_sys(&err, "%s", name) : read_at(c, fd, f, &err);
	if (!ret)
		ret = ltd_gitwalk_text(&gw, f, &err);
	if (ret < 0)
		say(w, name, "ltd-native could not read this git configuration",
		    err.msg);
out:
	free(f);
}

/* One hook, @name in the directory @dir (shown as @dir_shown, relative
 * to the root as @dir_rel): said when it or, for a link, the file it
 * leads to in the root changed. */
static void hook(struct walk *w, int dir, const char *dir_shown,
		 const char *dir_rel, const char *name, unsigned *n_said)
{
	char to[PATH_MAX], shown[PATH_MAX * 2];
	struct stat st, tst;
	bool now;
	ssize_t n;
	int fd;

	if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    S_ISDIR(st.st_mode))
		return;
	now = changed(&st, w->since);
	if (!now && S_ISLNK(st.st_mode) &&
	    (n = readlinkat(dir, name, to, sizeof(to) - 1)) > 0) {
		to[n] = '\0';
		fd = open_in_root(w, dir_rel, to, O_PATH, shown, sizeof(shown));
		if (fd >= 0) {
			now = fstat(fd, &tst) == 0 && changed(&tst, w->since);
			close(fd);
		} else if (unfollowed(fd)) {
			if (++*n_said <= MAX_HOOKS_SAID)
				say_unfollowed(w, dir_shown, name, "this hook",
					       fd);
			return;
		}
	}
	if (!now)
		return;
	if (++*n_said <= MAX_HOOKS_SAID)
		ltd_repos_say_at(
			w, dir_shown, name,
			"the command created or changed this git hook (or "
			"what it links to), which git runs in that repository",
			NULL);
}

/* Every hook in the directory @fd (closed here): not the samples. */
static void hooks_in(struct walk *w, int fd, const char *shown, const char *rel)
{
	unsigned n_said = 0;
	struct dirent *e;
	DIR *d = fdopendir(fd);
	char more[96];

	if (!d) {
		close(fd);
		return;
	}
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    (n > 7 && !strcmp(e->d_name + n - 7, ".sample")))
			continue;
		hook(w, dirfd(d), shown, rel, e->d_name, &n_said);
	}
	closedir(d);
	if (n_said > MAX_HOOKS_SAID) {
		snprintf(more, sizeof(more),
			 "and %u more git hooks the command created or "
			 "changed here",
			 n_said - MAX_HOOKS_SAID);
		ltd_repos_say_at(w, shown, NULL, more, NULL);
	}
}

/* The hooks of core.hooksPath @hooks_path as git takes it from the work
 * tree @base (relative to the root; a relative @hooks_path is from
 * there), where it lies in the root. */
static void hooks_path_at(struct walk *w, const char *base,
			  const char *hooks_path)
{
	char shown[PATH_MAX * 2], rel[PATH_MAX * 2];
	char to[PATH_MAX], home[PATH_MAX];
	const char *hp =
		ltd_gitconfig_expand_home(hooks_path, home, sizeof(home));
	ssize_t n;
	int fd;

	/* husky's stubs in .husky/_ run the scripts in .husky: both. */
	for (int i = 0; i < 2; i++) {
		if (i == 1) {
			n = (ssize_t)strlen(hp);
			if (n < 3 || strcmp(hp + n - 2, "/_") != 0 ||
			    n >= (ssize_t)sizeof(to))
				break;
			memcpy(to, hp, (size_t)n - 2);
			to[n - 2] = '\0';
			hp = to;
		}
		fd = open_in_root(w, base, hp, O_RDONLY | O_DIRECTORY, shown,
				  sizeof(shown));
		if (unfollowed(fd))
			say_unfollowed(w, shown, NULL,
				       "this repository's core.hooksPath", fd);
		if (fd < 0)
			continue;
		snprintf(rel, sizeof(rel), "%s",
			 strlen(shown) > w->root_len ? shown + w->root_len + 1
						     : "");
		hooks_in(w, fd, shown, rel);
	}
}

/* @path (absolute, or relative to the directory @from, relative to the
 * root) as a path relative to the root, into @out; false when it is not
 * in the root or does not fit.  By the text: open_in_root() opens it. */
static bool rel_to_root(const struct walk *w, const char *from,
			const char *path, char *out, size_t size)
{
	int n;

	if (path[0] != '/')
		n = snprintf(out, size, "%s%s%s", from, from[0] ? "/" : "",
			     path);
	else if (!strncmp(path, w->path, w->root_len) &&
		 (path[w->root_len] == '/' || !path[w->root_len]))
		n = snprintf(out, size, "%s",
			     path[w->root_len] ? path + w->root_len + 1 : "");
	else
		return false;
	return n >= 0 && (size_t)n < size;
}

/* hooks/ of the git directory @dir; and the repository's core.hooksPath
 * (@c) where it lies in the root, from each work tree. */
static void judge_hooks(struct walk *w, int dir, const struct cfg *c)
{
	char shown[PATH_MAX * 2], rel[PATH_MAX * 2], base[PATH_MAX];
	const char *hooks_path =
		c->hooks_path[0] ? c->hooks_path : w->default_hooks;
	char to[PATH_MAX];
	const char *slash;
	struct stat st;
	ssize_t n;
	int fd;

	if (fstatat(dir, "hooks", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    !S_ISDIR(st.st_mode)) {
		if (changed(&st, w->since))
			say(w, "hooks",
			    "the command made git's hooks directory a "
			    "symbolic link or another file",
			    NULL);
		/* ln -s ../githooks .git/hooks: the hooks it leads to. */
		n = S_ISLNK(st.st_mode)
			    ? readlinkat(dir, "hooks", to, sizeof(to) - 1)
			    : -1;
		if (n > 0) {
			to[n] = '\0';
			fd = open_in_root(w, here(w), to,
					  O_RDONLY | O_DIRECTORY, shown,
					  sizeof(shown));
			if (fd >= 0)
				hooks_in(w, fd, shown,
					 strlen(shown) > w->root_len
						 ? shown + w->root_len + 1
						 : "");
			else if (unfollowed(fd))
				say_unfollowed(w, NULL, "hooks",
					       "this hooks directory", fd);
		}
	} else if ((fd = openat(dir, "hooks",
				O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					O_CLOEXEC)) >= 0) {
		snprintf(shown, sizeof(shown), "%s/hooks", w->path);
		snprintf(rel, sizeof(rel), "%s%shooks", here(w),
			 here(w)[0] ? "/" : "");
		hooks_in(w, fd, shown, rel);
	}
	if (!hooks_path[0])
		return;
	/* Relative to the work tree: above a .git, the directory itself
	 * for a bare repository. */
	snprintf(base, sizeof(base), "%s", here(w));
	slash = strrchr(base, '/');
	if (!strcmp(slash ? slash + 1 : base, ".git"))
		base[slash ? slash - base : 0] = '\0';
	hooks_path_at(w, base, hooks_path);
	/* A relative one is also taken from the git directory itself (push
	 * hooks run there) and from core.worktree (a submodule's); each
	 * work tree whose .git file names this directory, when the walk
	 * meets that file (ltd_repos_judge_gitfile()). */
	if (hooks_path[0] == '/' || hooks_path[0] == '~')
		return;
	if (strcmp(base, here(w)))
		hooks_path_at(w, here(w), hooks_path);
	if (c->worktree[0] &&
	    rel_to_root(w, here(w), c->worktree, base, sizeof(base)))
		hooks_path_at(w, base, hooks_path);
}

/* The current directory of the project below a review's upper (w->lower),
 * opened as the walk opens (no link, no other mount); -1 if none. */
static int lower_here(struct walk *w)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
	};

	if (w->lower < 0)
		return -1;
	if (w->lower_dir >= 0 && !strcmp(w->lower_at, here(w)))
		return w->lower_dir;
	if (w->lower_dir >= 0)
		close(w->lower_dir);
	snprintf(w->lower_at, sizeof(w->lower_at), "%s", here(w));
	w->lower_dir =
		(int)syscall(SYS_openat2, w->lower, here(w)[0] ? here(w) : ".",
			     &how, sizeof(how));
	return w->lower_dir;
}

/* Where @name of the git directory @dir is read from: @dir, or in a
 * review's upper that does not hold it, the project's (the cage saw it). */
static int config_dir(struct walk *w, int dir, const char *name)
{
	struct stat st;
	int lower;

	if (w->lower < 0 || fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
		return dir;
	lower = lower_here(w);
	return lower >= 0 ? lower : dir;
}

unsigned ltd_repos_lower_makes(struct walk *w, unsigned flags)
{
	static const char *const m[] = {"commondir", "objects", "refs"};
	struct stat st;
	int fd = lower_here(w);

	if (fd < 0)
		return flags;
	if (fstatat(fd, "HEAD", &st, AT_SYMLINK_NOFOLLOW) == 0)
		flags |= LTD_RN_HEAD;
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (fstatat(fd, m[i], &st, AT_SYMLINK_NOFOLLOW) == 0)
			flags |= LTD_RN_MAKES;
	return flags;
}

/* The directory the commondir file of the git directory @dir names
 * (relative to @dir, or absolute), opened as open_in_root() opens, its
 * path into @shown; a negative errno when there is none or it cannot
 * be. */
static int open_common(struct walk *w, int dir, char *shown, size_t size)
{
	_cleanup_free_ char *text = NULL;
	struct ltd_err err = {0};
	struct stat st;
	size_t len;

	if (fstatat(dir, "commondir", &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !S_ISREG(st.st_mode) ||
	    ltd_policy_read_file(dir, "commondir", "commondir", &text, &len,
				 &err))
		return -ENOENT;
	/* As git reads it: the whole file but its trailing line ends. */
	while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
		len--;
	text[len] = '\0';
	if (!len || strlen(text) != len)
		return -ENOENT;
	return open_in_root(w, here(w), text, O_RDONLY | O_DIRECTORY, shown,
			    size);
}

/* w->path made @shown (a path in the root that fits) for what follows,
 * the old one kept in @saved; false when it cannot be. */
static bool path_to(struct walk *w, const char *shown, char *saved, size_t size)
{
	size_t n = strlen(shown);

	if (n >= size || n >= sizeof(w->path) ||
	    strncmp(shown, w->path, w->root_len) != 0 ||
	    (shown[w->root_len] != '/' && shown[w->root_len] != '\0'))
		return false;
	memcpy(saved, w->path, size);
	memcpy(w->path, shown, n + 1);
	return true;
}

/*
 * A linked worktree's git directory @dir: git reads the configuration and
 * hooks of the directory its commondir file names, which git does not
 * need to hold a HEAD.  One in the root with no HEAD (no git directory to
 * the walk, which would judge it where it lies) is judged here, as a git
 * directory named by its own path.
 */
static void judge_common(struct walk *w, int dir)
{
	char shown[PATH_MAX * 2], saved[PATH_MAX];
	struct stat st;
	int fd;

	if (w->in_common)
		return;
	fd = open_common(w, dir, shown, sizeof(shown));
	if (unfollowed(fd))
		say_unfollowed(w, shown[0] ? shown : NULL,
			       shown[0] ? NULL : "commondir",
			       "this worktree's commondir", fd);
	if (fd < 0)
		return; /* out of the project: said when commondir changed */
	if (fstatat(fd, "HEAD", &st, AT_SYMLINK_NOFOLLOW) == 0 ||
	    !path_to(w, shown, saved, sizeof(saved))) {
		close(fd);
		return;
	}
	w->in_common = true;
	ltd_repos_judge_gitdir(w, fd);
	w->in_common = false;
	memcpy(w->path, saved, sizeof(saved));
	close(fd);
}

/*
 * The current directory is a work tree of the git directory @gd (shown as
 * @gd_shown; closed here): a .git file here names it.  Its relative
 * core.hooksPath (from its common directory's config, its config, its
 * config.worktree, in git's order) is taken from here, so the hooks it
 * names here are judged.  The keys themselves are the git directory's to
 * judge (where the walk meets it): nothing else is said.
 */
static void hooks_of_work_tree(struct walk *w, int gd, const char *gd_shown)
{
	struct cfg *c = calloc(1, sizeof(*c));
	char base[PATH_MAX], saved[PATH_MAX], shown[PATH_MAX * 2];
	const char *hp;
	int common;

	snprintf(base, sizeof(base), "%s", here(w));
	if (!c || !path_to(w, gd_shown, saved, sizeof(saved)))
		goto out;
	c->w = w;
	w->quiet = true;
	common = open_common(w, gd, shown, sizeof(shown));
	if (common >= 0) {
		char inner[PATH_MAX];

		if (path_to(w, shown, inner, sizeof(inner))) {
			config_file(w, c, common, "config");
			memcpy(w->path, inner, sizeof(inner));
		}
		close(common);
	}
	config_file(w, c, gd, "config");
	config_file(w, c, gd, "config.worktree");
	w->quiet = false;
	memcpy(w->path, saved, sizeof(saved));
	hp = c->hooks_path[0] ? c->hooks_path : w->default_hooks;
	if (hp[0] && hp[0] != '/' && hp[0] != '~')
		hooks_path_at(w, base, hp);
out:
	free(c);
	close(gd);
}

void ltd_repos_judge_gitdir(struct walk *w, int dir)
{
	static const char *const makes[] = {"HEAD", "objects", "refs"};
	struct cfg *c = calloc(1, sizeof(*c));
	struct stat st;

	if (!c)
		return;
	c->w = w;
	for (size_t i = 0; i < sizeof(makes) / sizeof(makes[0]); i++)
		if (changed_at(w, dir, makes[i], &st))
			c->changed = true;
	if (changed_at(w, dir, "commondir", &st)) {
		c->changed = true;
		say(w, "commondir",
		    "the command created or changed this file, which sends "
		    "git to another directory's configuration and hooks",
		    NULL);
	}
	config_file(w, c, config_dir(w, dir, "config"), "config");
	config_file(w, c, config_dir(w, dir, "config.worktree"),
		    "config.worktree");
	if (c->changed && c->key[0])
		ltd_repos_say_at(
			w, c->key_file, NULL,
			"the command worked in this git repository or changed "
			"its configuration, which has git run something "
			"wherever it works there (a shell prompt that shows "
			"git's status is enough)",
			c->key);
	judge_hooks(w, dir, c);
	/* In a review's upper, an index never lands (review/held.c). */
	if (w->lower < 0)
		ltd_gitindex_judge(w->out, dir, w->path, w->since);
	free(c);
	judge_common(w, dir);
}

/*
 * A .git that is not a directory: a link, or a file "gitdir: PATH" read
 * as git reads it (the whole file but its trailing line ends).  One that
 * changed during the run and sends git where the walk does not look (out
 * of the root, through a link, across a mount, nowhere yet) is said; one
 * that leads to a directory in the root needs nothing more (the walk
 * judges what is there).
 */
void ltd_repos_judge_gitfile(struct walk *w, int dir)
{
	_cleanup_free_ char *text = NULL;
	struct ltd_err err = {0};
	char to[PATH_MAX], shown[PATH_MAX * 2];
	struct stat st;
	size_t len;
	ssize_t n;
	bool now;
	int fd;

	if (fstatat(dir, ".git", &st, AT_SYMLINK_NOFOLLOW) < 0)
		return;
	now = changed(&st, w->since);
	if (S_ISLNK(st.st_mode)) {
		n = readlinkat(dir, ".git", to, sizeof(to) - 1);
		if (n <= 0)
			return;
		to[n] = '\0';
	} else if (!S_ISREG(st.st_mode)) {
		return; /* git reads no git directory from it */
	} else if (ltd_policy_read_file(dir, ".git", ".git", &text, &len,
					&err)) {
		if (now)
			say(w, ".git",
			    "the command created or changed this, which "
			    "ltd-native could not read",
			    err.msg);
		return;
	} else {
		if (len < 8 || strncmp(text, "gitdir: ", 8) != 0)
			return; /* git refuses it */
		while (len > 8 &&
		       (text[len - 1] == '\n' || text[len - 1] == '\r'))
			len--;
		text[len] = '\0';
		if (!text[8] || strlen(text + 8) >= sizeof(to))
			return;
		snprintf(to, sizeof(to), "%s", text + 8);
	}
	fd = open_in_root(w, here(w), to, O_RDONLY | O_DIRECTORY, shown,
			  sizeof(shown));
	if (fd >= 0) {
		hooks_of_work_tree(w, fd, shown);
		return;
	}
	/* Through a link (the command may have put one on the way): what
	 * git finds behind it cannot be judged, on any run. */
	if (unfollowed(fd) && !now) {
		say_unfollowed(w, NULL, ".git", "this .git file", fd);
		return;
	}
	if (!now)
		return;
	say(w, ".git",
	    fd == -ENOENT || fd == -ENOTDIR
		    ? "the command created or changed this, which sends git "
		      "to a directory that is not there (yet)"
		    : "the command created or changed this, which sends git "
		      "where ltd-native did not look (out of the project, or "
		      "through a link)",
	    to);
}
