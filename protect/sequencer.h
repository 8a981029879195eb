/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * git's sequencer state in the project's repository, after the run.  The
 * cage may write .git (only its configuration, hooks and what they name
 * are read-only), so it can leave a rebase, a cherry-pick or an am in
 * progress whose todo list runs commands: an `exec` line of
 * rebase-merge/git-rebase-todo runs at the user's next `git rebase
 * --continue` on the host, as any exec line the user wrote.  Nothing else
 * shows it: `git status` says a rebase is in progress, not what it will
 * run.  Reads the host; changes nothing.
 */
#ifndef LTD_SEQUENCER_H
#define LTD_SEQUENCER_H

#include <stdio.h>
#include <time.h>

/*
 * Say on @out, one warning each, every sequencer state directory
 * (rebase-merge, rebase-apply, sequencer) of @project's .git, and of each
 * linked worktree's directory in it (.git/worktrees/NAME/), that the
 * command created or changed: the directory, or a file in it, changed
 * (its ctime) at or after @since.  A todo list's exec lines are shown
 * (the first five, then their count), through ltd_fput_shown().  Nothing
 * is followed through a link or across a mount; a state directory that is
 * a link is said as one.  A .git that is a file (a linked worktree, a
 * submodule) is not looked through: its git directory is the main
 * repository's.
 */
void ltd_sequencer_report(FILE *out, const char *project,
			  struct timespec since);

#endif
