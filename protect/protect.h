/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What host programs run from the project, and from the places the cage
 * may write: git (its hooks, its configuration and what that names),
 * Claude Code (its settings' commands), editors, other agents and tools
 * (hostrun.h's table), ltd-native's own project policy.
 * Each is added to the protected set (protected.h: read-only in the cage,
 * the directories on the way pinned), or the run is refused where that
 * cannot hold.  Reads the host; changes nothing on it.
 *
 * The parts: git's (gitprotect.c, with gitdir.c, gitplace.c, gitscan.c
 * and the configuration walker gitwalk.c; gitbinds.c for writable binds),
 * Claude Code's (agentprotect.c), the other host programs' (hostrun.c),
 * the files a command line runs (cmdfiles.c, with the sh-word reader
 * shword.c); the checks after the run (protected.c, repos.c,
 * sequencer.c).
 */
#ifndef LTD_PROTECT_H
#define LTD_PROTECT_H

#include "common/error.h"
#include "policy/policy.h"
#include "protect/protected.h"

/*
 * Once ltd_policy_validate() has resolved the project: what git, Claude
 * Code and ltd-native run from it or are configured by, into @out
 * (emptied first; its project and home are @p's); no protected path
 * reached through a link in the project.
 */
int ltd_protect_project(const struct ltd_policy *p, struct ltd_protected *out,
			struct ltd_err *err);

/*
 * Once ltd_policy_validate_binds() has resolved every bind: the files the
 * next run reads that lie in the project (@p->inputs_in_project) join
 * @out; a writable bind that git would run something from is refused;
 * each is judged by the repositories above the project and the other
 * binds (and the project by theirs); what was added since is checked for
 * links too.
 */
int ltd_protect_binds(const struct ltd_policy *p, struct ltd_protected *out,
		      struct ltd_err *err);

#endif
