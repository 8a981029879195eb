/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * protect/'s own: the planted-repository walk's state (repos.c walks,
 * repojudge.c judges the git directories and .git files it meets).
 */
#ifndef LTD_REPOWALK_H
#define LTD_REPOWALK_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "protect/githookspath.h"
#include "protect/hostrun.h"
#include "protect/repoindex.h"
#include "protect/repos.h"

struct walk {
	FILE *out;
	struct timespec since;
	struct ltd_repos_limits lim;
	int root;      /* the root's directory */
	int lower;     /* a review's upper: the project below it, or -1 */
	int lower_dir; /* lower_here()'s last, or -1 */
	char lower_at[PATH_MAX];
	size_t root_len;    /* of its name, at the start of path */
	unsigned skip;	    /* LTD_REPOS_SKIP_* */
	unsigned long dirs; /* entered so far */
	bool full;	    /* lim.dirs reached */
	unsigned long said; /* warnings written */
	unsigned long over; /* and not written, past MAX_WARNINGS */
	char deep[PATH_MAX];
	unsigned long n_deep;	/* places not looked below */
	unsigned long n_shut;	/* directories of the user's not opened */
	unsigned long n_unseen; /* directories judged as new (unseen()) */
	int old_hid;		/* the previous index lists a directory
				   without facts: 1, 0, -1 not known yet */
	char path[PATH_MAX];	/* the directory being read */
	char *dents;		/* getdents64's buffer */
	/* The index (repoindex.h): the previous walk's, NULL when none;
	 * which of its nodes still hold (one byte each); this walk's, NULL
	 * when none is kept. */
	const struct ltd_rindex *old;
	const uint8_t *holds;
	struct ltd_rindex *new;
	/* While the walk meets the tree the previous one indexed, node for
	 * node (the same place, name, depth and facts), this walk's index
	 * is that one: its first `same` nodes, nothing copied; the first
	 * difference copies them (decision 0155). */
	bool shadow;
	uint32_t same;
	bool new_lost;	      /* this walk's is not whole: not kept */
	struct timespec t0;   /* the walk's start, for racy ctimes */
	unsigned long n_read; /* directories read (getdents) */
	bool in_common;	      /* judging a worktree's common directory */
	bool quiet; /* reading a configuration for its hooks path: no word */
	/* The system and global configs' relative core.hooksPath values,
	 * each judged for repositories that set none (githookspath.h):
	 * read when the first such repository is met, NULL till then
	 * (ltd_repos_default_hooks()). */
	struct ltd_git_hooks_paths *default_hooks;
	bool default_hooks_lost; /* out of memory for them: said */
	/* Judging a git directory of the project below a review's upper
	 * (repoworktree.c): its own files are not the command's. */
	bool below;
	/* Each hook the walk finds the command made (and what it links to,
	 * a hooks path through a link), relative to the root, to hook_fn
	 * (NULL: none), said or not: what a review's apply holds back. */
	void (*hook_fn)(void *ctx, const char *rel);
	void *hook_ctx;
	/* In a .claude below the top (repoagent.c): WALK_AGENT_*. */
	unsigned agent;
	/* The directory whose child is being entered was read: its
	 * entries are judged (ltd_repos_judge_agent()) once its children
	 * are done, not only known from the index. */
	bool up_read;
};

/* The .claude being read is new at its place: all it holds of Claude
 * Code's is the command's; or the directory being read lies in a place
 * of it that goes aside whole (nothing in it judged). */
#define WALK_AGENT_NEW	1u
#define WALK_AGENT_SKIP 2u

/* Past these, a count: a flood of names must not scroll the rest away. */
#define MAX_WARNINGS 100

/* "ltd-native: warning: PATH: WHAT[ (DETAIL)]; review..." in one write,
 * PATH (@at, or w->path) and @name after it shown safely. */
void ltd_repos_say_at(struct walk *w, const char *at, const char *name,
		      const char *what, const char *detail);

/* The same with @tail (a "; ...\n" that says what to do) after it. */
void ltd_repos_say_as(struct walk *w, const char *at, const char *name,
		      const char *what, const char *detail, const char *tail);

/* Entering the directory @fd (w->path; @old its node in the index, or
 * UINT32_MAX), about to be read: w->agent for it, the caller restoring
 * the one before once the directory is done (repoagent.c).  w->since is
 * still the one above's; @unseen: what it holds is then judged as new
 * (repos.c's unseen()). */
void ltd_repos_agent_enter(struct walk *w, int fd, uint32_t old, bool unseen);

/* @name in @dir (AT_EMPTY_PATH: "" is @dir) was born at or after the
 * run's start (statx's btime; false where the filesystem keeps none). */
bool ltd_repos_born_in_run(const struct walk *w, int dir, const char *name);

/* The directory @dir (w->path) read whole, its children walked: what the
 * command made there that Claude Code (or another agent) on the host
 * runs or loads by itself, below the project's top, moved aside and
 * said (decision 0162): an entry of a nested .claude that is Claude
 * Code's place, or in one; @instr: it holds an instruction file's name,
 * judged as agentinstr.c judges the top's. */
void ltd_repos_judge_agent(struct walk *w, int dir, uint32_t old, bool instr);

/* Once the walk is done: every nested .claude its new index knows, read
 * or not, has what the command changed in its places' files moved aside
 * (a file rewritten in place changes no directory the walk would read;
 * repoagentsweep.c). */
void ltd_repos_agent_sweep(struct walk *w);

/* The settings file or .mcp.json @name in @dir (w->path), of Claude Code
 * started in @base_rel (from the root; "" the root): each file in the
 * root its commands run that the command changed in the run, or a link
 * on the way it changed, moved aside and said (repoagentcmds.c). */
void ltd_repos_agent_cmds(struct walk *w, int dir, const char *name,
			  const char *base_rel);

/* Claude Code's place (its table's row, or a settings file's) that
 * @name in a .claude is, or NULL. */
const struct ltd_hostrun *ltd_repos_agent_place_of(const char *name);

/* @name in @dir (w->path), in Claude Code's place @h, made by the
 * command: moved aside whole, and said. */
void ltd_repos_agent_place(struct walk *w, int dir, const char *name,
			   const struct ltd_hostrun *h);

/* A git directory at @dir (w->path): said when a file that makes it one,
 * or configures it, changed during the run and its configuration runs
 * something; each hook changed; a commondir changed.  One new as a git
 * directory (a file that makes it one changed, or @fresh: part of it
 * was hidden from the previous walk, or that walk did not take it for
 * one) has its hooks and the files its configuration names judged as
 * the command's, whatever their ctime (decision 0159). */
void ltd_repos_judge_gitdir(struct walk *w, int dir, bool fresh);

/* In a review's upper: what makes the current directory a git directory
 * may be the project's (the cage changed one file of a repository):
 * LTD_RN_HEAD and LTD_RN_MAKES added to @flags from there. */
unsigned ltd_repos_lower_makes(struct walk *w, unsigned flags);

/* The .git of @dir (w->path) that is not a directory: said when it
 * changed during the run and sends git where the walk does not look;
 * @below: @dir is the project below a review's upper (what is there is
 * not the command's: never "changed"). */
void ltd_repos_judge_gitfile(struct walk *w, int dir, bool below);

/* In a review's upper: the .git of the current directory @dir (w->path)
 * when only the project below holds it (repoworktree.c). */
void ltd_repos_judge_below(struct walk *w, int dir);

#endif
