// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The paths inside the project that git executes from or reads its
 * configuration from, so that the cage can make them read-only and nothing
 * planted there runs later on the host.  Reads the project's .git (the
 * host's copy, before the cage exists); changes nothing.
 *
 * Fixed: .git itself (pinned), .git/config, .git/hooks, .git/commondir
 * (redirects git to another config and hooks), .git/modules and
 * .git/worktrees (other repositories' configs and hooks).  From the config:
 * core.hooksPath, core.fsmonitor and include paths that lie in the project,
 * and the files that the values git runs as commands name there (a filter's
 * clean, a diff's textconv, core.editor, an alias "!..."), read as sh reads
 * them from where git runs them.
 * From .git/hooks: the targets of hooks that are links into the project.
 * A project that is itself a git directory (a bare repository, a .git)
 * has the same paths protected in it.
 */
#include "policy/policy.h"

#include <ctype.h>
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

#include "common/base.h"
#include "common/cleanup.h"
#include "common/path.h"
#include "policy/option.h"
#include "protect/gitconfig.h"
#include "protect/gitwalk.h"
#include "protect/protect.h"

/* .git first (pinned); then what git, and Claude Code on the host, run or
 * are configured by (Claude Code runs the hooks of a project's settings). */
static const char *const fixed[] = {
	".git",
	".git/config",
	".git/hooks",
	".git/commondir",
	".git/config.worktree",
	".git/modules",
	".git/worktrees",
	".claude/settings.json",
	".claude/settings.local.json",
	".mcp.json",
};

/* @path's real path, or for a path not there (yet) its longest existing
 * prefix's with the rest appended (a hooks path through a link to where
 * it does not exist yet leads there once made); false if none resolves. */
static bool real_or_prefix(const char *path, char *out, size_t size)
{
	char tmp[PATH_MAX], real[PATH_MAX];
	char *slash;

	if (realpath(path, out))
		return true;
	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return false;
	while ((slash = strrchr(tmp, '/')) && slash > tmp) {
		*slash = '\0';
		if (realpath(tmp, real))
			return snprintf(out, size, "%s/%s", real,
					path + (slash - tmp) + 1) < (int)size;
	}
	return false;
}

/*
 * @rel (relative to @base, or absolute) as git names it: by the text into
 * @joined (PATH_MAX * 2), and where it (or, missing yet, its existing
 * part) really leads into @real (PATH_MAX; "" if nowhere), both
 * normalized.  False for an empty or overlong name.
 */
static bool place_of(const char *base, const char *rel, char *joined,
		     char *real)
{
	if (!rel[0] ||
	    snprintf(joined, PATH_MAX * 2, "%s%s%s", rel[0] == '/' ? "" : base,
		     rel[0] == '/' ? "" : "/", rel) >= PATH_MAX * 2)
		return false;
	if (real_or_prefix(joined, real, PATH_MAX))
		ltd_path_normalize(real);
	else
		real[0] = '\0';
	ltd_path_normalize(joined);
	return true;
}

/*
 * Add @rel (relative to @base, or absolute) if it names a path inside the
 * project.  Resolved lexically and, where it exists, through the host's
 * links: a path that leads out of the project is not ours to protect (the
 * cage cannot reach it).
 */
static int add_if_inside(struct ltd_protected *s, const char *base,
			 const char *rel, struct ltd_err *err)
{
	char joined[PATH_MAX * 2], real[PATH_MAX];

	if (!place_of(base, rel, joined, real))
		return 0;
	/* By the text too: a link on the way is itself in the project, where
	 * the command could re-point it (ltd_protected_check_links
	 * refuses). */
	if (ltd_path_below(joined, s->project)) {
		int ret = ltd_protected_add(s, joined, err);

		if (ret)
			return ret;
	}
	if (!real[0] || !ltd_path_below(real, s->project))
		return 0;
	return ltd_protected_add(s, real, err);
}

/*
 * A directory git runs files from (hooks), or finds other repositories'
 * configs and hooks in, that holds the project (or a writable bind, then
 * @s's project, named by @flag): the command could write there what git on
 * the host runs.  Refused, naming it and, when a configuration names it,
 * @cfg and @key.  @rel is relative to @base, or absolute; by the text and,
 * where it exists, the real path.
 */
static int refuse_holding(const struct ltd_protected *s, const char *flag,
			  const char *base, const char *rel, const char *what,
			  const char *cfg, const char *key, struct ltd_err *err)
{
	char joined[PATH_MAX * 2], real[PATH_MAX], named[PATH_MAX + 300] = "";
	bool project = !strcmp(flag, "--project");

	if (!place_of(base, rel, joined, real))
		return 0;
	/* The project, or a directory above it. */
	if (!ltd_path_is_under(s->project, joined) &&
	    !(real[0] && ltd_path_is_under(s->project, real)))
		return 0;
	if (cfg)
		snprintf(named, sizeof(named), " (%s in %s)", key, cfg);
	return ltd_err_set(
		err, EPERM,
		"%s%s%s: %s%sis or lies in %s, %s%s: the command could write "
		"there what git on the host runs; %s",
		flag, project ? "" : " ", project ? "" : s->project,
		project ? s->project : "", project ? " " : "", joined, what,
		named,
		project ? "choose a project outside it (or use "
			  "--unsafe-writable-git)"
			: "bind it read-only (--ro-bind), choose another "
			  "place, or use --unsafe-writable-git");
}

#define GIT_MAX_INCLUDE_DEPTH 10

/* How many files one run's includes may read: a file that includes
 * itself twice would otherwise cost 2^10 reads. */
#define GIT_MAX_CONFIG_FILES 100

struct cfg_walk {
	struct ltd_protected *s;
	unsigned files; /* read so far */
	/* Where a relative hooks path is resolved: where hooks run (the
	 * work tree's top, or a bare repository's git directory); git runs
	 * the commands its configuration names there too. */
	const char *bases[2];
	struct ltd_cmd_scan cs; /* the commands' files, the current file's */
	/* The including files' cs.file and cs.said_unknown, by depth: back
	 * to them when an include is done. */
	struct {
		const char *file;
		bool said;
	} saved[GIT_MAX_INCLUDE_DEPTH + 1];
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
		ret = ltd_protect_command(&w->cs, cmd, w->bases[i], false, err);
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
		ret = refuse_holding(s, w->flag, w->bases[i], v,
				     "the path git's configuration names", file,
				     what, err);
	for (size_t i = 0; !ret && i < 2 && w->bases[i]; i++)
		ret = add_if_inside(s, w->bases[i], v, err);
	/* husky's stubs in .husky/_ run the scripts in .husky. */
	slash = strrchr(v, '/');
	if (ret || !slash || strcmp(slash, "/_") != 0 || slash == v ||
	    (size_t)(slash - v) >= sizeof(dir))
		return ret;
	memcpy(dir, v, (size_t)(slash - v));
	dir[slash - v] = '\0';
	for (size_t i = 0; !ret && i < 2 && w->bases[i]; i++)
		ret = refuse_holding(s, w->flag, w->bases[i], dir,
				     "whose scripts husky's hooks run", file,
				     what, err);
	for (size_t i = 0; !ret && i < 2 && w->bases[i]; i++)
		ret = add_if_inside(s, w->bases[i], dir, err);
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
	ret = add_if_inside(w->s, "/", inc, err);
	if (!ret)
		ret = ltd_gitwalk_include(gw, section, key, val, err);
	return ret;
}

static int on_key(struct ltd_gitwalk *gw, const char *section, const char *key,
		  const char *val, struct ltd_err *err)
{
	struct cfg_walk *w = gw->ctx;
	char buf[PATH_MAX];
	const char *v = ltd_git_expand_home(val, buf, sizeof(buf));
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
	if (++w->files > GIT_MAX_CONFIG_FILES)
		return ltd_err_set(err, ELOOP,
				   "%s: git's configuration includes more than "
				   "%d files; ltd-native reads them all to "
				   "protect what git runs",
				   f->path, GIT_MAX_CONFIG_FILES);
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
		.max_depth = GIT_MAX_INCLUDE_DEPTH,
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

/*
 * Every file git reads its configuration from for this project: the system
 * and global ones too, which may set a relative core.hooksPath (resolved in
 * each work tree) or include a file in the project.  Without @common (no
 * repository), the system and global ones alone.  @flag: see cfg_walk.
 */
static int scan_configs(struct ltd_protected *s, const char *flag,
			const char *common, const char *gitdir,
			const char *const bases[2], struct ltd_err *err)
{
	const char *home = getenv("HOME"), *xdg = getenv("XDG_CONFIG_HOME");
	const char *sys = getenv("GIT_CONFIG_SYSTEM");
	const char *global = getenv("GIT_CONFIG_GLOBAL");
	const char *nosys = getenv("GIT_CONFIG_NOSYSTEM");
	char files[5][PATH_MAX + 32] = {{0}};
	struct cfg_walk w = {.s = s,
			     .bases = {bases[0], bases[1]},
			     .cs = {.set = s, .refuse_links = true},
			     .flag = flag};
	int ret = 0;

	if (!nosys || !nosys[0] || !strcmp(nosys, "0") ||
	    !strcasecmp(nosys, "false") || !strcasecmp(nosys, "no") ||
	    !strcasecmp(nosys, "off"))
		snprintf(files[0], sizeof(files[0]), "%s",
			 sys ? sys : "/etc/gitconfig");
	if (global) {
		snprintf(files[1], sizeof(files[0]), "%s", global);
	} else {
		if (xdg && xdg[0] == '/')
			snprintf(files[1], sizeof(files[0]), "%s/git/config",
				 xdg);
		else if (home)
			snprintf(files[1], sizeof(files[0]),
				 "%s/.config/git/config", home);
		if (home)
			snprintf(files[2], sizeof(files[0]), "%s/.gitconfig",
				 home);
	}
	if (common) {
		snprintf(files[3], sizeof(files[0]), "%s/config", common);
		snprintf(files[4], sizeof(files[0]), "%s/config.worktree",
			 gitdir);
	}
	w.no_worktree = !common;
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
		/* Where $GIT_CONFIG_SYSTEM / $GIT_CONFIG_GLOBAL put them,
		 * the files themselves are never the cage's to write (the
		 * default places are the gate's: ~/.gitconfig, ~/.config/git).
		 */
		if ((i == 0 && sys) || (i == 1 && global))
			ret = add_if_inside(s, "/", files[i], err);
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
static int scan_global(struct ltd_protected *s, const char *flag,
		       struct ltd_err *err)
{
	const char *const bases[2] = {"/", NULL};

	return scan_configs(s, flag, NULL, NULL, bases, err);
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

/* A hook that is a link into the project: its target runs too. */
static int scan_hooks(struct ltd_protected *s, const char *gitdir,
		      struct ltd_err *err)
{
	char dir[PATH_MAX], path[PATH_MAX * 2], real[PATH_MAX];
	struct dirent *e;
	struct stat st;
	DIR *d;
	int ret = 0;

	if (snprintf(dir, sizeof(dir), "%s/hooks", gitdir) >= (int)sizeof(dir))
		return 0;
	d = opendir(dir);
	if (!d)
		return 0;
	while (!ret && (e = readdir(d))) {
		if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >=
		    (int)sizeof(path))
			continue;
		if (lstat(path, &st) < 0 || !S_ISLNK(st.st_mode) ||
		    !realpath(path, real))
			continue;
		ret = add_if_inside(s, "/", real, err);
	}
	closedir(d);
	return ret;
}

/*
 * The path a .git file ("gitdir: X") or a commondir file ("X") names,
 * relative to @base, into @out.  1 when absent or not of that form (git
 * would not follow it either), 0 when found, <0 when it cannot be read.
 */
static int read_pointer(const char *file, const char *prefix, const char *base,
			char *out, size_t size, struct ltd_err *err)
{
	_cleanup_free_ char *text = NULL;
	struct ltd_err rerr = {0};
	char joined[PATH_MAX * 2];
	size_t len, n = strlen(prefix);
	char *v, *e;
	int ret;

	ret = ltd_policy_read_file(AT_FDCWD, file, file, &text, &len, &rerr);
	if (ret == -ENOENT || ret == -ENOTDIR)
		return 1;
	if (ret)
		return ltd_err_set(err, -ret,
				   "%s (read to protect what git runs)",
				   rerr.msg);
	if (strlen(text) != len || strncmp(text, prefix, n) != 0)
		return 1;
	for (v = text + n; *v == ' ' || *v == '\t'; v++)
		;
	for (e = v + strlen(v); e > v && isspace((unsigned char)e[-1]); e--)
		;
	*e = '\0';
	if (!*v || strchr(v, '\n') ||
	    snprintf(joined, sizeof(joined), "%s%s%s", v[0] == '/' ? "" : base,
		     v[0] == '/' ? "" : "/", v) >= (int)sizeof(joined))
		return 1;
	ltd_path_normalize(joined);
	if (strlen(joined) >= size)
		return 1;
	memcpy(out, joined, strlen(joined) + 1);
	return 0;
}

/* In a repository's common directory, and in a worktree's own one. */
static const char *const in_common[] = {
	"config", "config.worktree", "hooks", "commondir", "modules",
};
static const char *const in_gitdir[] = {
	"config.worktree",
	"commondir",
	"modules",
};

/*
 * The other worktrees of a repository nested in the project: what
 * redirects their git (commondir, config.worktree) is read-only.  Not the
 * whole of worktrees/: this worktree's own index and HEAD are in it.
 */
static int protect_worktrees(struct ltd_protected *s, const char *common,
			     struct ltd_err *err)
{
	char dir[PATH_MAX], entry[PATH_MAX * 2];
	struct dirent *e;
	DIR *d;
	int ret = 0;

	if (snprintf(dir, sizeof(dir), "%s/worktrees", common) >=
	    (int)sizeof(dir))
		return 0;
	d = opendir(dir);
	if (!d)
		return 0;
	while (!ret && (e = readdir(d))) {
		if (e->d_name[0] == '.' ||
		    snprintf(entry, sizeof(entry), "%s/%s", dir, e->d_name) >=
			    (int)sizeof(entry))
			continue;
		ret = add_if_inside(s, entry, "commondir", err);
		if (!ret)
			ret = add_if_inside(s, entry, "config.worktree", err);
	}
	closedir(d);
	return ret;
}

/*
 * The project in a git directory's hooks (where git runs them from), or
 * in its modules or worktrees (other repositories' configs and hooks)
 * unless the project is such a repository's own git directory, which is
 * then protected as one.
 */
static int refuse_in_gitdir(const struct ltd_protected *s, const char *flag,
			    const char *gitdir, const char *common,
			    struct ltd_err *err)
{
	static const char *const mods =
		"where git keeps submodules' configs and hooks";
	int ret = refuse_holding(s, flag, common, "hooks",
				 "where git runs hooks from", NULL, NULL, err);

	if (ret || ltd_git_is_dir(s->project))
		return ret;
	ret = refuse_holding(s, flag, common, "modules", mods, NULL, NULL, err);
	if (!ret)
		ret = refuse_holding(s, flag, gitdir, "modules", mods, NULL,
				     NULL, err);
	if (!ret)
		ret = refuse_holding(s, flag, common, "worktrees",
				     "where git keeps worktrees' configs", NULL,
				     NULL, err);
	return ret;
}

/*
 * What git runs from a git directory (@gitdir) and its common directory,
 * where those lie in the project: read-only.  @bases: where a relative
 * hooks path is resolved.  @flag: see cfg_walk; *@seen is set (a
 * repository's configs, the global ones with them, were read).
 */
static int protect_gitdir(struct ltd_protected *s, const char *flag,
			  const char *gitdir, const char *const bases[2],
			  bool *seen, struct ltd_err *err)
{
	char path[PATH_MAX], common[PATH_MAX];
	int ret;

	/* A linked worktree's config and hooks are its common directory's. */
	if (snprintf(path, sizeof(path), "%s/commondir", gitdir) >=
	    (int)sizeof(path))
		return 0;
	ret = read_pointer(path, "", gitdir, common, sizeof(common), err);
	if (ret < 0)
		return ret;
	if (ret)
		snprintf(common, sizeof(common), "%s", gitdir);
	*seen = true;
	ret = refuse_in_gitdir(s, flag, gitdir, common, err);
	if (ret)
		return ret;
	/* Where those lie in the project (a repository nested in it), what
	 * git runs from there is read-only too, as for the project's own
	 * .git; outside it, the cage cannot reach them. */
	for (size_t i = 0; !ret && i < sizeof(in_common) / sizeof(char *); i++)
		ret = add_if_inside(s, common, in_common[i], err);
	for (size_t i = 0; !ret && i < sizeof(in_gitdir) / sizeof(char *); i++)
		ret = add_if_inside(s, gitdir, in_gitdir[i], err);
	if (!ret)
		ret = protect_worktrees(s, common, err);
	if (!ret)
		ret = scan_configs(s, flag, common, gitdir, bases, err);
	if (!ret && bases[0]) {
		snprintf(path, sizeof(path), "%s/modules", gitdir);
		ret = scan_modules(s, flag, path, bases[0], 0, err);
	}
	if (!ret)
		ret = scan_hooks(s, common, err);
	return ret;
}

/*
 * A HEAD git accepts (its validate_headref()): a link whose target starts
 * with "refs/", a symbolic ref "ref: refs/...", or an object name.
 */
static bool valid_head(const char *dir)
{
	_cleanup_free_ char *text = NULL;
	struct ltd_err rerr = {0};
	char path[PATH_MAX], link[256];
	const char *v;
	struct stat st;
	ssize_t n;
	size_t len, i;

	if (snprintf(path, sizeof(path), "%s/HEAD", dir) >= (int)sizeof(path) ||
	    lstat(path, &st) < 0)
		return false;
	if (S_ISLNK(st.st_mode)) {
		n = readlink(path, link, sizeof(link) - 1);
		return n >= 5 && !memcmp(link, "refs/", 5);
	}
	if (ltd_policy_read_file(AT_FDCWD, path, path, &text, &len, &rerr))
		return false;
	if (!strncmp(text, "ref:", 4)) {
		for (v = text + 4; isspace((unsigned char)*v); v++)
			;
		return !strncmp(v, "refs/", 5);
	}
	/* An object name: the shortest git knows (SHA-1) is 40 digits. */
	for (i = 0; i < 40 && isxdigit((unsigned char)text[i]); i++)
		;
	return i == 40;
}

/*
 * Whether git would take @dir for a git directory (its is_git_directory()):
 * a valid HEAD here, objects/ and refs/ in the common directory.  One whose
 * commondir cannot be read counts as one (protect_gitdir() then refuses).
 */
bool ltd_git_is_dir(const char *dir)
{
	char path[PATH_MAX], common[PATH_MAX];
	struct ltd_err rerr = {0};
	int ret;

	if (!valid_head(dir) || snprintf(path, sizeof(path), "%s/commondir",
					 dir) >= (int)sizeof(path))
		return false;
	ret = read_pointer(path, "", dir, common, sizeof(common), &rerr);
	if (ret < 0)
		return true;
	if (ret)
		snprintf(common, sizeof(common), "%s", dir);
	if (snprintf(path, sizeof(path), "%s/objects", common) >=
		    (int)sizeof(path) ||
	    access(path, X_OK) < 0)
		return false;
	if (snprintf(path, sizeof(path), "%s/refs", common) >=
		    (int)sizeof(path) ||
	    access(path, X_OK) < 0)
		return false;
	return true;
}

/*
 * A git directory (@dir) that is the project or holds it: a bare
 * repository, or the .git of a work tree.  Its config, hooks and the rest
 * are what .git/config and .git/hooks are to a work tree.  Hooks run in a
 * bare repository's git directory and at the top of a work tree: a
 * relative hooks path is resolved in both (what falls outside the project
 * is not ours).
 */
static int protect_bare(struct ltd_protected *s, const char *dir, bool *seen,
			struct ltd_err *err)
{
	char parent[PATH_MAX];
	const char *bases[2] = {dir, parent};
	int ret = 0;

	snprintf(parent, sizeof(parent), "%s", dir);
	*strrchr(parent, '/') = '\0';
	if (!parent[0])
		bases[1] = NULL; /* @dir is "/x": its parent is "/" */
	for (size_t i = 0; !ret && i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (!strncmp(fixed[i], ".git/", 5))
			ret = add_if_inside(s, dir, fixed[i] + 5, err);
	if (!ret)
		ret = protect_gitdir(s, "--project", dir, bases, seen, err);
	return ret;
}

/*
 * The repository whose work tree's top is @top, if it has one: its .git
 * directory, or the git directory a .git file (a linked worktree, a
 * submodule) names, with a relative hooks path resolved at @top.
 */
static int protect_worktree(struct ltd_protected *s, const char *flag,
			    const char *top, bool *seen, struct ltd_err *err)
{
	const char *bases[2] = {top, NULL};
	char gitdir[PATH_MAX];
	struct stat st;
	int ret = 0;

	if (snprintf(gitdir, sizeof(gitdir), "%s/.git",
		     strcmp(top, "/") ? top : "") >= (int)sizeof(gitdir) ||
	    lstat(gitdir, &st) < 0)
		return 0;
	if (S_ISREG(st.st_mode))
		ret = read_pointer(gitdir, "gitdir:", top, gitdir,
				   sizeof(gitdir), err);
	else if (!S_ISDIR(st.st_mode))
		return 0;
	if (ret)
		return ret < 0 ? ret : 0;
	return protect_gitdir(s, flag, gitdir, bases, seen, err);
}

/*
 * The repositories the project (or a writable bind: @flag) lies in, up to
 * "/": git run there on the host reads their configuration, which may name
 * hooks or includes in the project, and runs hooks from directories that
 * may hold it.
 */
static int protect_enclosing(struct ltd_protected *s, const char *flag,
			     bool *seen, struct ltd_err *err)
{
	char dir[PATH_MAX];
	char *slash;
	int ret = 0;

	snprintf(dir, sizeof(dir), "%s", s->project);
	while (!ret && strcmp(dir, "/") && (slash = strrchr(dir, '/'))) {
		slash[slash == dir] = '\0'; /* "/x" becomes "/" */
		ret = protect_worktree(s, flag, dir, seen, err);
		if (!ret && ltd_git_is_dir(dir))
			ret = protect_bare(s, dir, seen, err);
	}
	return ret;
}

/* The repositories whose work tree or git directory is @from or lies
 * above it: what their configuration names is gathered into @s (as for
 * the project, with @flag). */
static int walk_up(struct ltd_protected *s, const char *flag, const char *from,
		   bool *seen, struct ltd_err *err)
{
	char dir[PATH_MAX], *slash;
	int ret = 0;

	snprintf(dir, sizeof(dir), "%s", from);
	for (;;) {
		ret = protect_worktree(s, flag, dir, seen, err);
		if (!ret && ltd_git_is_dir(dir))
			ret = protect_bare(s, dir, seen, err);
		if (ret || !strcmp(dir, "/") || !(slash = strrchr(dir, '/')))
			return ret;
		slash[slash == dir] = '\0'; /* "/x" becomes "/" */
	}
}

/*
 * A writable bind @src in no git directory: judged by what git's
 * configuration names, as the project is — the system and global configs,
 * and those of the repositories whose work trees hold it, with what they
 * include.  Whatever would be read-only in a project there (a hooks path,
 * an fsmonitor, an include, the files a command value names, a hook's
 * link target), or a hooks path that holds it, refuses the bind: a bind
 * has no read-only paths of its own.
 */
static int bind_configs(const struct ltd_policy *p, const char *flag,
			const char *src, const char *from, struct ltd_err *err)
{
	/* What would be protected in it, were it the project. */
	struct ltd_protected s = {.project = src, .home = p->id.home};
	char dir[PATH_MAX], parent[PATH_MAX], *slash;
	/* A file bound alone is judged as the directory it lies in, scanned
	 * as a project would be (what is named there is gathered, not
	 * refused: only the file itself is bound); a hooks path holding that
	 * directory refuses it still. */
	const char *as = flag;
	const char *held = NULL;
	bool seen = false;
	struct stat st;
	int ret = 0;

	if (stat(src, &st) == 0 && !S_ISDIR(st.st_mode)) {
		snprintf(parent, sizeof(parent), "%s", src);
		slash = strrchr(parent, '/');
		if (slash)
			slash[slash == parent] = '\0';
		s.project = parent;
		as = "--project";
	}
	if (!from) {
		/* The work trees above it (no directory above it is a git
		 * directory: ltd_git_bind_check looked), and the global
		 * configs. */
		snprintf(dir, sizeof(dir), "%s", src);
		while (!ret && strcmp(dir, "/") &&
		       (slash = strrchr(dir, '/'))) {
			slash[slash == dir] = '\0'; /* "/x" becomes "/" */
			ret = protect_worktree(&s, as, dir, &seen, err);
		}
		if (!ret && !seen)
			ret = scan_global(&s, as, err);
	} else {
		/* The repositories at @from and above it (another writable
		 * place's): what they name in the bind. */
		ret = walk_up(&s, as, from, &seen, err);
	}
	if (ret < 0 && as != flag) {
		/* Said for a project ("--project: DIR is or lies in X, ...;
		 * choose a project outside it"): said again for the bind. */
		struct ltd_err why = *err;
		const char *at = strstr(why.msg, "is or lies in ");
		const char *end = at ? strstr(at, ": the command could") : NULL;

		if (at && end)
			ret = ltd_err_set(
				err, -ret,
				"%s %s: %.*s: the command could write "
				"there what git on the host runs; "
				"bind it read-only (--ro-bind), choose "
				"another place, or use "
				"--unsafe-writable-git",
				flag, src, (int)(end - at), at);
		else
			ret = ltd_err_set(err, -ret, "%s %s: %s", flag, src,
					  why.msg);
	}
	for (size_t i = 0; !ret && !held && i < s.n; i++)
		if (as == flag || !strcmp(s.paths[i], src))
			held = s.paths[i];
	if (!ret && held)
		ret = ltd_err_set(err, EPERM,
				  "%s %s: %s %s, which git on the host "
				  "runs or reads (a repository's own file, "
				  "or one its configuration names); bind it "
				  "read-only (--ro-bind), "
				  "choose another place, or use "
				  "--unsafe-writable-git",
				  flag, src, strcmp(held, src) ? "holds" : "is",
				  held);
	ltd_protected_free(&s);
	return ret;
}

int ltd_git_bind_check(const struct ltd_policy *p, const char *flag,
		       const char *src, struct ltd_err *err)
{
	char dir[PATH_MAX], path[PATH_MAX];
	const char *what = NULL;
	struct stat st;
	char *slash;

	if (!p->protect_git)
		return 0;
	snprintf(dir, sizeof(dir), "%s", src);
	if (snprintf(path, sizeof(path), "%s/.git", src) < (int)sizeof(path) &&
	    lstat(path, &st) == 0) {
		what = "holds a git repository's .git";
		snprintf(dir, sizeof(dir), "%s", path);
	}
	/* The bind itself, or a directory above it, a git directory: its
	 * hooks, config, modules... */
	while (!what) {
		if (ltd_git_is_dir(dir)) {
			what = "is or lies in a git directory";
			break;
		}
		slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			break;
		*slash = '\0';
	}
	if (!what)
		return bind_configs(p, flag, src, NULL, err);
	return ltd_err_set(err, EPERM,
			   "%s %s: %s (%s): the command could write there "
			   "hooks or configuration that git on the host runs; "
			   "bind it read-only (--ro-bind), make it the project "
			   "(whose git ltd-native protects), or use "
			   "--unsafe-writable-git",
			   flag, src, what, dir);
}

/* A bind the user asked for, writable, resolved and there. */
static bool user_writable(const struct ltd_user_mount *m)
{
	struct stat st;

	return m->kind == LTD_UM_BIND && !m->derived && m->src &&
	       lstat(m->src, &st) == 0;
}

int ltd_git_cross_check(const struct ltd_policy *p, struct ltd_protected *s,
			struct ltd_err *err)
{
	char flag[48];
	bool seen;
	int ret = 0;

	if (!p->protect_git)
		return 0;
	ltd_protected_for(s, p);
	for (size_t i = 0; !ret && i < p->n_mounts; i++) {
		const struct ltd_user_mount *b = &p->mounts[i];

		if (!user_writable(b))
			continue;
		snprintf(flag, sizeof(flag), "--%s", b->flag);
		/* The project by the repositories above this bind. */
		seen = false;
		ret = walk_up(s, "--project", b->src, &seen, err);
		/* This bind by those above the project and the others. */
		if (!ret)
			ret = bind_configs(p, flag, b->src, p->project, err);
		for (size_t j = 0; !ret && j < p->n_mounts; j++)
			if (j != i && user_writable(&p->mounts[j]))
				ret = bind_configs(p, flag, b->src,
						   p->mounts[j].src, err);
	}
	/* What became read-only in the project: no link on its way. */
	return ret ? ret : ltd_protected_check_links(s, err);
}

int ltd_git_protected(const struct ltd_policy *p, struct ltd_protected *s,
		      struct ltd_err *err)
{
	bool seen = false;
	int ret;

	ltd_protected_for(s, p);
	ret = ltd_protected_add_names(s, fixed, ARRAY_SIZE(fixed), err);
	if (!ret && ltd_git_is_dir(s->project))
		ret = protect_bare(s, s->project, &seen, err);
	/* A .git file names the repository elsewhere: the file is pinned
	 * and read-only; what git reads there is read here. */
	if (!ret)
		ret = protect_worktree(s, "--project", s->project, &seen, err);
	if (!ret)
		ret = protect_enclosing(s, "--project", &seen, err);
	/* In no repository, the global configs still name hooks paths
	 * (~/.gitconfig's core.hooksPath runs in every repository). */
	if (!ret && !seen)
		ret = scan_global(s, "--project", err);
	return ret;
}
