// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Git repositories planted in the project (see repos.h): what the walk
 * (repos.c) says of each git directory and each .git file it meets
 * (what they take from elsewhere: repoworktree.c).
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
#include "common/dir.h"
#include "common/error.h"
#include "common/path.h"
#include "common/text.h"
#include "policy/option.h"
#include "policy/policy.h"
#include "protect/gitconfig.h"
#include "protect/gitindex.h"
#include "protect/gitwalk.h"
#include "protect/repojudge.h"

/* Past these, a count: a flood of names must not scroll the rest away. */
#define MAX_HOOKS_SAID	  5
#define MAX_INCLUDES	  10
#define MAX_INCLUDE_DEPTH 3 /* includes followed from so deep */

static const char review[] = "; review it before you run git there on the "
			     "host\n";

void ltd_repos_say_at(struct walk *w, const char *at, const char *name,
		      const char *what, const char *detail)
{
	ltd_repos_say_as(w, at, name, what, detail, review);
}

void ltd_repos_say_as(struct walk *w, const char *at, const char *name,
		      const char *what, const char *detail, const char *tail)
{
	_cleanup_free_ char *line = NULL;
	size_t len = 0;
	FILE *m;

	if (w->quiet || !w->out)
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
	fputs(tail, m);
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

/* @name in @dir, the link itself if it is one; its ctime from @since on. */
static bool changed_at(const struct walk *w, int dir, const char *name,
		       struct stat *st)
{
	return fstatat(dir, name, st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       ltd_ctime_since(st, w->since);
}

/*
 * @to as git takes it from the directory @base (relative to the root, ""
 * for the root): absolute, or relative to @base.  Opened (@flags) beneath
 * the root with no link and no mount on the way; a negative errno when it
 * cannot be (-EXDEV: out of the root; -ELOOP: through a link), -ENOENT
 * when absent.  Into @shown, the path as the root's name and the rest.
 */
static int open_under(struct walk *w, int root, const char *base,
		      const char *to, int flags, char *shown, size_t size)
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
	fd = (int)syscall(SYS_openat2, root,
			  rel[strspn(rel, "/")] ? rel + strspn(rel, "/") : ".",
			  &how, sizeof(how));
	return fd < 0 ? -errno : fd;
}

int ltd_repos_open_in_root(struct walk *w, const char *base, const char *to,
			   int flags, char *shown, size_t size)
{
	return open_under(w, w->root, base, to, flags, shown, size);
}

/* In a review's upper, one the upper does not hold is opened in the
 * project below it (the cage saw both); a whiteout (-ENOTDIR) hides it. */
int ltd_repos_open_in_view(struct walk *w, const char *base, const char *to,
			   int flags, char *shown, size_t size)
{
	int fd = open_under(w, w->root, base, to, flags, shown, size);

	if (fd == -ENOENT && w->lower >= 0)
		fd = open_under(w, w->lower, base, to, flags, shown, size);
	return fd;
}

void ltd_repos_tell(struct walk *w, const char *shown)
{
	if (w->hook_fn && !strncmp(shown, w->path, w->root_len) &&
	    shown[w->root_len] == '/')
		w->hook_fn(w->hook_ctx, shown + w->root_len + 1);
}

void ltd_repos_say_unfollowed(struct walk *w, const char *at, const char *name,
			      const char *what, int err)
{
	char msg[256];

	snprintf(msg, sizeof(msg),
		 "git follows %s through a symbolic link (or where ltd-native "
		 "may not look), which ltd-native did not follow",
		 what);
	ltd_repos_say_at(w, at, name, msg, strerror(-err));
}

/* The first key that runs something, and the file it is in. */
static void first_key(struct ltd_repos_cfg *c, const char *section,
		      const char *key, const char *file)
{
	if (c->key[0])
		return;
	snprintf(c->key, sizeof(c->key), "%s.%s", section, key);
	/* Shown as far as it fits (a name this long is one no one types). */
	snprintf(c->key_file, sizeof(c->key_file), "%.*s",
		 (int)sizeof(c->key_file) - 1, file);
}

/* The command line @cmd that @section.@key runs, kept for the files it
 * names (ltd_repos_judge_named()): the key, then the line. */
static void keep_run(struct ltd_repos_cfg *c, const char *section,
		     const char *key, const char *cmd)
{
	size_t ks = strlen(section), kk = strlen(key), n = strlen(cmd);
	size_t need = c->runs_len + ks + 1 + kk + 1 + n + 1;
	char *s;

	if (c->n_runs >= LTD_REPOS_MAX_RUNS || !(s = realloc(c->runs, need))) {
		c->runs_over = true;
		return;
	}
	c->runs = s;
	s += c->runs_len;
	memcpy(s, section, ks);
	s[ks] = '.';
	memcpy(s + ks + 1, key, kk + 1);
	memcpy(s + ks + 1 + kk + 1, cmd, n + 1);
	c->runs_len = need;
	c->n_runs++;
}

void ltd_repos_cfg_free(struct ltd_repos_cfg *c)
{
	if (c)
		free(c->runs);
	free(c);
}

static int on_key(struct ltd_gitwalk *gw, const char *section, const char *key,
		  const char *val, struct ltd_err *err)
{
	struct ltd_repos_cfg *c = gw->ctx;
	char buf[PATH_MAX * 4 + 8];
	bool include = ltd_gitwalk_is_include(section, key);
	const char *cmd =
		ltd_gitconfig_command(section, key, val, buf, sizeof(buf));
	bool runs = cmd != NULL;

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
	if (cmd)
		keep_run(c, section, key, cmd);
	/* An include is configuration too: read it where it lies in the
	 * root (one outside is not the command's to write). */
	return ltd_gitwalk_include(gw, section, key, val, err);
}

/* The config at @fd (closed here), @f: its ctime, its text; 0, or a
 * negative errno and @err when it cannot be read. */
static int read_at(struct ltd_repos_cfg *c, int fd, struct ltd_gitwalk_file *f,
		   struct ltd_err *err)
{
	struct stat st;
	int ret;

	c->files++;
	if (fstat(fd, &st) == 0 && ltd_ctime_since(&st, c->w->since))
		c->changed = true;
	ret = ltd_policy_read_fd(fd, f->shown, &f->text, &f->len, err);
	close(fd);
	return ret;
}

/* An include, opened beneath the root without a link on the way. */
static int open_include(struct ltd_gitwalk *gw, struct ltd_gitwalk_file *f,
			struct ltd_err *err)
{
	struct ltd_repos_cfg *c = gw->ctx;
	int fd;

	if (c->files >= MAX_INCLUDES)
		return 1;
	fd = f->path[0] ? ltd_repos_open_in_root(c->w, "", f->path,
						 O_RDONLY | O_NONBLOCK,
						 f->shown, sizeof(f->shown))
			: -ENAMETOOLONG;
	/* Named by the text, for the eye: what is opened has no link. */
	if (f->value[0] != '/')
		ltd_path_normalize(f->shown);
	/* Through a link: what is behind it may have changed. */
	if (ltd_repos_unfollowed(fd))
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
void ltd_repos_config_file(struct walk *w, struct ltd_repos_cfg *c, int dir,
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
	if (ltd_ctime_since(&st, w->since))
		c->changed = true;
	if (!S_ISREG(st.st_mode)) {
		if (ltd_ctime_since(&st, w->since))
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

/* One file git runs, @name in the directory @dir (shown as @dir_shown,
 * relative to the root as @dir_rel): said (@what, @detail) when it or,
 * for a link, the file it leads to in the root changed. */
void ltd_repos_judge_file(struct walk *w, int dir, const char *dir_shown,
			  const char *dir_rel, const char *name,
			  const struct ltd_repos_said *what, unsigned *n_said)
{
	char to[PATH_MAX * 2], shown[PATH_MAX * 2] = "";
	struct stat st, tst;
	bool now;
	ssize_t n;
	int fd;

	if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    S_ISDIR(st.st_mode))
		return;
	now = ltd_ctime_since(&st, w->since);
	if (!now && S_ISLNK(st.st_mode) &&
	    (n = readlinkat(dir, name, to, sizeof(to) - 1)) > 0) {
		to[n] = '\0';
		fd = ltd_repos_open_in_root(w, dir_rel, to, O_PATH, shown,
					    sizeof(shown));
		if (fd >= 0) {
			now = fstat(fd, &tst) == 0 &&
			      ltd_ctime_since(&tst, w->since);
			close(fd);
		} else if (ltd_repos_unfollowed(fd)) {
			ltd_repos_tell(w, shown); /* the links on its way */
			if (++*n_said <= what->max)
				ltd_repos_say_unfollowed(w, dir_shown, name,
							 what->link, fd);
			return;
		}
	}
	if (!now)
		return;
	if (snprintf(to, sizeof(to), "%s/%s", dir_shown, name) <
	    (int)sizeof(to))
		ltd_repos_tell(w, to);
	if (shown[0])
		ltd_repos_tell(w, shown); /* what it links to */
	if (++*n_said <= what->max)
		ltd_repos_say_at(w, dir_shown, name, what->what, what->detail);
}

static const struct ltd_repos_said a_hook = {
	.what = "the command created or changed this git hook (or what it "
		"links to), which git runs in that repository",
	.link = "this hook",
	.max = MAX_HOOKS_SAID,
};

/* Every hook in the directory @fd (closed here): not the samples. */
static void hooks_in(struct walk *w, int fd, const char *shown, const char *rel)
{
	unsigned n_said = 0;
	struct dirent *e;
	DIR *d = fdopendir(fd);

	if (!d) {
		close(fd);
		return;
	}
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    (n > 7 && !strcmp(e->d_name + n - 7, ".sample")))
			continue;
		ltd_repos_judge_file(w, dirfd(d), shown, rel, e->d_name,
				     &a_hook, &n_said);
	}
	closedir(d);
	ltd_repos_say_more(w, shown, n_said, MAX_HOOKS_SAID,
			   "git hooks the command created or changed here");
}

void ltd_repos_say_more(struct walk *w, const char *at, unsigned n_said,
			unsigned max, const char *what)
{
	char more[160];

	if (n_said <= max)
		return;
	snprintf(more, sizeof(more), "and %u more %s", n_said - max, what);
	ltd_repos_say_at(w, at, NULL, more, NULL);
}

/* The hooks of core.hooksPath @hooks_path as git takes it from the work
 * tree @base (relative to the root; a relative @hooks_path is from
 * there), where it lies in the root. */
const struct ltd_git_hooks_paths *ltd_repos_default_hooks(struct walk *w)
{
	static const struct ltd_git_hooks_paths none = {.over = true};

	if (!w->default_hooks) {
		w->default_hooks = malloc(sizeof(*w->default_hooks));
		if (!w->default_hooks) {
			w->default_hooks_lost = true;
			return &none;
		}
		/* An absolute one is one place, the checks' before the
		 * run. */
		ltd_git_default_hooks_paths(w->default_hooks);
	}
	return w->default_hooks;
}

void ltd_repos_hooks_path_at(struct walk *w, const char *base,
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
		fd = ltd_repos_open_in_root(w, base, hp, O_RDONLY | O_DIRECTORY,
					    shown, sizeof(shown));
		if (ltd_repos_unfollowed(fd)) {
			ltd_repos_tell(w, shown); /* the links on its way */
			ltd_repos_say_unfollowed(
				w, shown, NULL,
				"this repository's core.hooksPath", fd);
		}
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
 * in the root or does not fit.  By the text: ltd_repos_open_in_root() opens it.
 */
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

/* hooks/ of the git directory @dir: a directory, or a link to one in
 * the root.  Below a review's upper, only what a link leads to there (the
 * project's own files are not the command's). */
static void hooks_dir(struct walk *w, int dir)
{
	char shown[PATH_MAX * 2], rel[PATH_MAX * 2];
	char to[PATH_MAX];
	struct stat st;
	ssize_t n;
	int fd;

	if (fstatat(dir, "hooks", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    !S_ISDIR(st.st_mode)) {
		if (ltd_ctime_since(&st, w->since) && !w->below)
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
			fd = ltd_repos_open_in_root(w, ltd_repos_here(w), to,
						    O_RDONLY | O_DIRECTORY,
						    shown, sizeof(shown));
			if (fd >= 0)
				hooks_in(w, fd, shown,
					 strlen(shown) > w->root_len
						 ? shown + w->root_len + 1
						 : "");
			else if (ltd_repos_unfollowed(fd))
				ltd_repos_say_unfollowed(w, NULL, "hooks",
							 "this hooks directory",
							 fd);
		}
	} else if (!w->below &&
		   (fd = openat(dir, "hooks",
				O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					O_CLOEXEC)) >= 0) {
		snprintf(shown, sizeof(shown), "%s/hooks", w->path);
		snprintf(rel, sizeof(rel), "%s%shooks", ltd_repos_here(w),
			 ltd_repos_here(w)[0] ? "/" : "");
		hooks_in(w, fd, shown, rel);
	}
}

/* Where git runs the git directory at w->path (@c its configuration)
 * from: the work tree (above a .git, the directory itself for a bare
 * repository), the git directory itself (push hooks run there) and
 * core.worktree (a submodule's), relative to the root, into @bases; how
 * many.  Each work tree whose .git file names this directory is another,
 * taken when the walk meets that file (ltd_repos_judge_gitfile()). */
static unsigned work_trees(const struct walk *w, const struct ltd_repos_cfg *c,
			   char bases[3][PATH_MAX])
{
	const char *slash;
	unsigned n = 1;

	snprintf(bases[0], PATH_MAX, "%s", ltd_repos_here(w));
	slash = strrchr(bases[0], '/');
	if (!strcmp(slash ? slash + 1 : bases[0], ".git"))
		bases[0][slash ? slash - bases[0] : 0] = '\0';
	if (strcmp(bases[0], ltd_repos_here(w)))
		snprintf(bases[n++], PATH_MAX, "%s", ltd_repos_here(w));
	if (c->worktree[0] &&
	    rel_to_root(w, ltd_repos_here(w), c->worktree, bases[n], PATH_MAX))
		n++;
	return n;
}

void ltd_repos_judge_hooks(struct walk *w, int dir,
			   const struct ltd_repos_cfg *c)
{
	char(*bases)[PATH_MAX] = malloc(3 * PATH_MAX);
	unsigned n;

	hooks_dir(w, dir);
	if (!bases)
		return;
	n = work_trees(w, c, bases);
	for (unsigned i = 0; i < n; i++) {
		/* An absolute one is one place: from the first. */
		if (c->hooks_path[0] && (!i || (c->hooks_path[0] != '/' &&
						c->hooks_path[0] != '~')))
			ltd_repos_hooks_path_at(w, bases[i], c->hooks_path);
		for (unsigned k = 0;
		     !c->hooks_path[0] && k < ltd_repos_default_hooks(w)->n;
		     k++)
			ltd_repos_hooks_path_at(w, bases[i],
						w->default_hooks->v[k]);
		/* git runs a configuration's commands from the work tree
		 * (the checks before the run resolve them there too), not
		 * from a git directory that has one. */
		if (!i || strcmp(bases[i], ltd_repos_here(w)) != 0)
			ltd_repos_judge_named(w, c, bases[i]);
	}
	free(bases);
}

void ltd_repos_judge_gitdir(struct walk *w, int dir, bool fresh)
{
	struct timespec since = w->since;
	static const char *const makes[] = {"HEAD", "objects", "refs"};
	struct ltd_repos_cfg *c = calloc(1, sizeof(*c));
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
	ltd_repos_config_file(w, c, ltd_repos_config_dir(w, dir, "config"),
			      "config");
	ltd_repos_config_file(w, c,
			      ltd_repos_config_dir(w, dir, "config.worktree"),
			      "config.worktree");
	if (c->changed && c->key[0])
		ltd_repos_say_at(
			w, c->key_file, NULL,
			"the command worked in this git repository or changed "
			"its configuration, which has git run something "
			"wherever it works there (a shell prompt that shows "
			"git's status is enough)",
			c->key);
	/* Its hooks made in an earlier run, which did not take this for a
	 * git directory (HEAD moved aside) or could not look at them, are
	 * the command's as much as the rest. */
	if (fresh || c->changed)
		w->since = (struct timespec){0, 0};
	ltd_repos_judge_hooks(w, dir, c);
	w->since = since;
	/* In a review's upper, an index never lands (review/held.c). */
	if (w->lower < 0)
		ltd_gitindex_judge(w->out, dir, w->path, w->since);
	ltd_repos_cfg_free(c);
	ltd_repos_judge_common(w, dir);
}

/*
 * A .git that is not a directory: a link, or a file "gitdir: PATH" read
 * as git reads it (the whole file but its trailing line ends).  One that
 * changed during the run and sends git where the walk does not look (out
 * of the root, through a link, across a mount, nowhere yet) is said; one
 * that leads to a directory in the root needs nothing more (the walk
 * judges what is there).
 */
void ltd_repos_judge_gitfile(struct walk *w, int dir, bool below)
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
	now = ltd_ctime_since(&st, w->since) && !below;
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
	fd = ltd_repos_open_in_view(w, ltd_repos_here(w), to,
				    O_RDONLY | O_DIRECTORY, shown,
				    sizeof(shown));
	if (fd >= 0) {
		ltd_repos_hooks_of_work_tree(w, fd, shown);
		return;
	}
	/* Through a link (the command may have put one on the way): what
	 * git finds behind it cannot be judged, on any run. */
	if (ltd_repos_unfollowed(fd) && !now) {
		ltd_repos_say_unfollowed(w, NULL, ".git", "this .git file", fd);
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
