// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * git's configuration files, read for what they make git run from the
 * project (see gitscan.h): core.hooksPath, core.fsmonitor and include
 * paths that lie in the project, and the files that the values git runs
 * as commands name there (a filter's clean, a diff's textconv,
 * core.editor, an alias "!..."), read as sh reads them from where git runs
 * them.  The files and what they include are read by one walker
 * (gitwalk.c), as git reads them.
 */
#include "protect/gitscan.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "policy/option.h"
#include "protect/cmdfiles.h"
#include "protect/gitconfig.h"
#include "protect/gitplace.h"
#include "protect/gitwalk.h"

struct cfg_walk {
	struct ltd_protected *s;
	unsigned files; /* read so far */
	/* Where a relative hooks path is resolved: where hooks run (the
	 * work tree's top, or a bare repository's git directory); git runs
	 * the commands its configuration names there too. */
	const char *bases[2];
	struct ltd_cmdfiles cs; /* the commands' files, the current file's */
	/* The including files' cs.file and cs.said_unknown, by depth: back
	 * to them when an include is done. */
	struct {
		const char *file;
		bool said;
	} saved[LTD_GIT_MAX_INCLUDE_DEPTH + 1];
	/* "--project", or a writable bind's flag: s is then a scratch set
	 * whose project is the bind's source, and whatever would be
	 * protected in it refuses the bind. */
	const char *flag;
	bool no_worktree; /* the global configs alone: no work tree */
};

/* The files in the project that the command line git runs from this key
 * names, resolved where git runs it: read-only. */
static int protect_command(struct cfg_walk *w, const char *section,
			   const char *key, const char *val,
			   struct ltd_err *err)
{
	char buf[PATH_MAX * 4 + 8];
	const char *cmd =
		ltd_gitconfig_command(section, key, val, buf, sizeof(buf));
	int ret = 0;

	for (size_t i = 0; cmd && !ret && i < 2 && w->bases[i]; i++)
		ret = ltd_cmdfiles_protect(&w->cs, cmd, w->bases[i], false,
					   err);
	return ret;
}

/* A hooks path or fsmonitor (@v, "~/" expanded) that @file's
 * @section.@key names: refused where it holds the project, protected
 * where it lies in it. */
static int on_hooks_path(struct cfg_walk *w, const char *file,
			 const char *section, const char *key, const char *v,
			 struct ltd_err *err)
{
	struct ltd_protected *s = w->s;
	char dir[PATH_MAX], what[300];
	const char *slash;
	int ret = 0;

	/* Relative: a directory of each work tree; with none (the global
	 * configs read for no repository), nothing. */
	if (v[0] != '/' && w->no_worktree)
		return 0;
	snprintf(what, sizeof(what), "%s.%s", section, key);
	for (size_t i = 0; !ret && i < 2 && w->bases[i]; i++)
		ret = ltd_gitplace_refuse_holding(
			s, w->flag, w->bases[i], v,
			"the path git's configuration names", file, what, err);
	for (size_t i = 0; !ret && i < 2 && w->bases[i]; i++)
		ret = ltd_gitplace_protect(s, w->bases[i], v, err);
	/* husky's stubs in .husky/_ run the scripts in .husky. */
	slash = strrchr(v, '/');
	if (ret || !slash || strcmp(slash, "/_") != 0 || slash == v ||
	    (size_t)(slash - v) >= sizeof(dir))
		return ret;
	memcpy(dir, v, (size_t)(slash - v));
	dir[slash - v] = '\0';
	for (size_t i = 0; !ret && i < 2 && w->bases[i]; i++)
		ret = ltd_gitplace_refuse_holding(
			s, w->flag, w->bases[i], dir,
			"whose scripts husky's hooks run", file, what, err);
	for (size_t i = 0; !ret && i < 2 && w->bases[i]; i++)
		ret = ltd_gitplace_protect(s, w->bases[i], dir, err);
	return ret;
}

/* An include: the file it names is protected where it lies in the
 * project, and read.  Every includeIf is followed: its condition is git's
 * to judge later. */
static int on_include(struct ltd_gitwalk *gw, const char *section,
		      const char *key, const char *val, struct ltd_err *err)
{
	struct cfg_walk *w = gw->ctx;
	char inc[PATH_MAX * 2];
	int ret;

	if (!ltd_gitwalk_include_path(gw, val, inc, sizeof(inc)))
		return 0;
	ret = ltd_gitplace_protect(w->s, "/", inc, err);
	if (!ret)
		ret = ltd_gitwalk_include(gw, section, key, val, err);
	return ret;
}

static int on_key(struct ltd_gitwalk *gw, const char *section, const char *key,
		  const char *val, struct ltd_err *err)
{
	struct cfg_walk *w = gw->ctx;
	char buf[PATH_MAX];
	const char *v = ltd_gitconfig_expand_home(val, buf, sizeof(buf));
	int ret = protect_command(w, section, key, val, err);

	if (ret)
		return ret;
	if (!strcmp(section, "core") &&
	    (!strcasecmp(key, "hookspath") ||
	     (!strcasecmp(key, "fsmonitor") && !ltd_gitconfig_is_bool(v))))
		return on_hooks_path(w, gw->cur->path, section, key, v, err);
	if (!ltd_gitwalk_is_include(section, key) || !v[0])
		return 0;
	return on_include(gw, section, key, val, err);
}

/* A writable bind that holds what git runs or reads (a hooks path, a
 * command's file, an include), named by @cfg's @section.@key. */
static int refuse_bind_holding(const struct cfg_walk *w, const char *path,
			       const char *cfg, const char *section,
			       const char *key, struct ltd_err *err)
{
	return ltd_err_set(err, EPERM,
			   "%s %s: holds %s, which %s.%s in %s names: the "
			   "command could write there what git on the host "
			   "runs; bind it read-only (--ro-bind), choose "
			   "another place, or use --unsafe-writable-git",
			   w->flag, w->s->project, path, section, key, cfg);
}

static int cfg_key(struct ltd_gitwalk *gw, const char *section, const char *key,
		   const char *val, struct ltd_err *err)
{
	struct cfg_walk *w = gw->ctx;
	struct ltd_protected *s = w->s;
	size_t before = s->n;
	int ret = on_key(gw, section, key, val, err);

	if (!ret && strcmp(w->flag, "--project") != 0 && s->n > before)
		ret = refuse_bind_holding(w, s->paths[before], gw->cur->path,
					  section, key, err);
	return ret;
}

/* A missing file is no error; one that cannot be read as a regular file
 * (a FIFO, a device, too large) fails the run: what it would set cannot
 * be known. */
static int cfg_open(struct ltd_gitwalk *gw, struct ltd_gitwalk_file *f,
		    struct ltd_err *err)
{
	struct cfg_walk *w = gw->ctx;
	struct ltd_err rerr = {0};
	int ret;

	if (!strchr(f->path, '/'))
		return 1;
	if (++w->files > LTD_GIT_MAX_CONFIG_FILES)
		return ltd_err_set(err, ELOOP,
				   "%s: git's configuration includes more than "
				   "%d files; ltd-native reads them all to "
				   "protect what git runs",
				   f->path, LTD_GIT_MAX_CONFIG_FILES);
	ret = ltd_policy_read_file(AT_FDCWD, f->path, f->path, &f->text,
				   &f->len, &rerr);
	if (ret == -ENOENT || ret == -ENOTDIR)
		return 1;
	if (ret)
		return ltd_err_set(err, -ret,
				   "%s (a git configuration file, which "
				   "ltd-native reads to protect what git runs)",
				   rerr.msg);
	w->saved[f->depth].file = w->cs.file;
	w->saved[f->depth].said = w->cs.said_unknown;
	w->cs.file = f->path;
	w->cs.said_unknown = false;
	return 0;
}

/* Back to the including file's, with the count of this one. */
static void cfg_close(struct ltd_gitwalk *gw, struct ltd_gitwalk_file *f)
{
	struct cfg_walk *w = gw->ctx;

	w->cs.file = w->saved[f->depth].file;
	w->cs.said_unknown = w->saved[f->depth].said;
}

static const struct ltd_gitwalk_ops cfg_ops = {
	.key = cfg_key,
	.open = cfg_open,
	.close = cfg_close,
};

/* The keys of a git config file that name files git runs or reads, and
 * the files it includes, in turn. */
static int scan_config_file(struct cfg_walk *w, const char *path,
			    struct ltd_err *err)
{
	struct ltd_gitwalk gw = {
		.ops = &cfg_ops,
		.ctx = w,
		.max_depth = LTD_GIT_MAX_INCLUDE_DEPTH,
	};

	return ltd_gitwalk_file(&gw, path, err);
}

/* The null device (what scripts name to make git skip a config file). */
static bool is_dev_null(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISCHR(st.st_mode) &&
	       st.st_rdev == makedev(1, 3);
}

void ltd_git_config_files(char files[5][PATH_MAX + 32], const char *common,
			  const char *gitdir)
{
	const char *home = getenv("HOME"), *xdg = getenv("XDG_CONFIG_HOME");
	const char *sys = getenv("GIT_CONFIG_SYSTEM");
	const char *global = getenv("GIT_CONFIG_GLOBAL");
	const char *nosys = getenv("GIT_CONFIG_NOSYSTEM");
	const size_t size = PATH_MAX + 32;

	/* Emptied, not zeroed: 20 kB of stack zeroed is five pages faulted
	 * in, ~12 us each on the reference VM. */
	for (size_t i = 0; i < 5; i++)
		files[i][0] = '\0';
	if (!nosys || !nosys[0] || !strcmp(nosys, "0") ||
	    !strcasecmp(nosys, "false") || !strcasecmp(nosys, "no") ||
	    !strcasecmp(nosys, "off"))
		snprintf(files[0], size, "%s", sys ? sys : "/etc/gitconfig");
	if (global) {
		snprintf(files[1], size, "%s", global);
	} else {
		if (xdg && xdg[0] == '/')
			snprintf(files[1], size, "%s/git/config", xdg);
		else if (home)
			snprintf(files[1], size, "%s/.config/git/config", home);
		if (home)
			snprintf(files[2], size, "%s/.gitconfig", home);
	}
	if (common) {
		snprintf(files[3], size, "%s/config", common);
		snprintf(files[4], size, "%s/config.worktree", gitdir);
	}
}

int ltd_gitscan_configs(struct ltd_protected *s, const char *flag,
			const char *common, const char *gitdir,
			const char *const bases[2], struct ltd_err *err)
{
	/* Where $GIT_CONFIG_SYSTEM / $GIT_CONFIG_GLOBAL put them, the files
	 * themselves are never the cage's to write (the default places are
	 * the gate's: ~/.gitconfig, ~/.config/git). */
	const bool named[5] = {getenv("GIT_CONFIG_SYSTEM") != NULL,
			       getenv("GIT_CONFIG_GLOBAL") != NULL};
	char files[5][PATH_MAX + 32];
	struct cfg_walk w = {.s = s,
			     .bases = {bases[0], bases[1]},
			     .cs = {.set = s, .refuse_links = true},
			     .flag = flag,
			     .no_worktree = !common};
	int ret = 0;

	ltd_git_config_files(files, common, gitdir);
	for (size_t i = 0; !ret && i < 5; i++) {
		if (!files[i][0])
			continue;
		/* GIT_CONFIG_GLOBAL=/dev/null: git reads nothing there. */
		if (i < 3 && is_dev_null(files[i]))
			continue;
		/* git reads on past a system or global config it may not
		 * read (a root-owned 0600 one): so does ltd-native. */
		if (i < 3 && access(files[i], R_OK) < 0 && errno == EACCES) {
			ret = ltd_protected_warn(s, err,
						 "%s: not readable, so git "
						 "ignores it too (ltd-native "
						 "protects what it names "
						 "only once it can read it)",
						 files[i]);
			continue;
		}
		if (named[i])
			ret = ltd_gitplace_protect(s, "/", files[i], err);
		if (!ret)
			ret = scan_config_file(&w, files[i], err);
	}
	return ret;
}

/*
 * The system and global configs, for a project or bind in no repository:
 * the hooks path, fsmonitor, includes and commands they name hold for
 * every repository the user has.  A relative one is resolved in each work
 * tree, which is none here: absolute ones (and "~/") are what count; the
 * commands' words are resolved at "/".
 */
int ltd_gitscan_global(struct ltd_protected *s, const char *flag,
		       struct ltd_err *err)
{
	const char *const bases[2] = {"/", NULL};

	return ltd_gitscan_configs(s, flag, NULL, NULL, bases, err);
}

/*
 * The submodules' git directories under @dir (.git/modules, recursively:
 * a name may hold '/', and a submodule's own submodules are in its
 * modules/): each one's config is read as the project's is, for the
 * submodule's work tree @wt (its path in the superproject: git's layout).
 */
static int scan_modules(struct ltd_protected *s, const char *flag,
			const char *dir, const char *wt, int depth,
			struct ltd_err *err)
{
	struct dirent *e;
	DIR *d;
	int ret = 0;

	if (depth > 8 || !(d = opendir(dir)))
		return 0;
	while (!ret && (e = readdir(d))) {
		char sub[PATH_MAX], subwt[PATH_MAX], cfg[PATH_MAX + 16];
		struct stat st;

		if (e->d_name[0] == '.' ||
		    snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name) >=
			    (int)sizeof(sub) ||
		    snprintf(subwt, sizeof(subwt), "%s/%s", wt, e->d_name) >=
			    (int)sizeof(subwt) ||
		    lstat(sub, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		snprintf(cfg, sizeof(cfg), "%s/config", sub);
		if (lstat(cfg, &st) == 0 && S_ISREG(st.st_mode)) {
			struct cfg_walk w = {
				.s = s,
				.bases = {subwt, NULL},
				.cs = {.set = s, .refuse_links = true},
				.flag = flag,
			};

			ret = scan_config_file(&w, cfg, err);
			snprintf(cfg, sizeof(cfg), "%s/modules", sub);
			if (!ret)
				ret = scan_modules(s, flag, cfg, subwt,
						   depth + 1, err);
		} else {
			ret = scan_modules(s, flag, sub, subwt, depth + 1, err);
		}
	}
	closedir(d);
	return ret;
}

int ltd_gitscan_modules(struct ltd_protected *s, const char *flag,
			const char *dir, const char *wt, struct ltd_err *err)
{
	return scan_modules(s, flag, dir, wt, 0, err);
}
