/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * git's configuration, read for what it makes git run from the project:
 * what lies in the project is added to the protected set, a hooks path
 * that holds it refuses the run.  @flag is "--project", or a writable
 * bind's flag: @s is then a scratch set whose project is the bind's
 * source, and whatever would be protected in it refuses the bind.  Reads
 * the host.
 */
#ifndef LTD_GITSCAN_H
#define LTD_GITSCAN_H

#include <limits.h>

#include "common/error.h"
#include "protect/protected.h"

/*
 * Every file git reads its configuration from for a repository: the system
 * and global ones too, which may set a relative core.hooksPath (resolved in
 * each work tree) or include a file in the project; then @common's config
 * and @gitdir's config.worktree.  Without @common (no repository), the
 * system and global ones alone.  @bases: where a relative hooks path is
 * resolved, and git runs the commands it names (the work tree's top, or a
 * bare repository's git directory; the second may be NULL).
 */
/* The files git reads its configuration from, in its order: the system
 * one, the global ones (XDG's, then ~/.gitconfig; $GIT_CONFIG_SYSTEM,
 * $GIT_CONFIG_GLOBAL, $GIT_CONFIG_NOSYSTEM as git takes them), then the
 * repository's (with @common, @gitdir's config.worktree); "" where there
 * is none. */
void ltd_git_config_files(char files[5][PATH_MAX + 32], const char *common,
			  const char *gitdir);

int ltd_gitscan_configs(struct ltd_protected *s, const char *flag,
			const char *common, const char *gitdir,
			const char *const bases[2], struct ltd_err *err);

/*
 * The system and global configs, for a project or bind in no repository:
 * the hooks path, fsmonitor, includes and commands they name hold for
 * every repository the user has.
 */
int ltd_gitscan_global(struct ltd_protected *s, const char *flag,
		       struct ltd_err *err);

/*
 * The submodules' git directories under @dir (a .git/modules): each one's
 * config is read as the project's is, for the submodule's work tree @wt.
 */
int ltd_gitscan_modules(struct ltd_protected *s, const char *flag,
			const char *dir, const char *wt, struct ltd_err *err);

#endif
