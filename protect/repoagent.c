// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Claude Code's places and the agents' instruction files below the
 * project's top, judged by the exit walk (see repowalk.h, decision 0162).
 *
 * Claude Code finds a package's .claude/skills when it works on the
 * package's files, loads a subdirectory's CLAUDE.md when it reads files
 * there, and takes a subdirectory's .claude whole (settings, hooks,
 * commands) when started in it: the cage writes all of these.  The walk
 * reads every directory that changed in the run; each one that is a
 * nested .claude, or lies in one of its places, has what the command made
 * there moved aside, through the descriptor the walk read it by (a
 * concurrent cage may swap names, not that directory).
 *
 * "Made": changed at or after the run's start (ctime).  A directory that
 * changed is the command's when it is new at its place (born in the run,
 * or where the previous walk's index knew no directory of its inode:
 * moved there, whatever the ctimes inside say; with no index, any), and
 * goes aside whole; a user's directory the command only added to stays,
 * and what was added goes when the walk reads it in turn.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base.h"
#include "common/cleanup.h"
#include "common/dir.h"
#include "common/text.h"
#include "common/vec.h"
#include "protect/agentinstr.h"
#include "protect/agentprotect.h"
#include "protect/protected.h"
#include "protect/repowalk.h"

#define NONE UINT32_MAX
/* A name's prefix when it goes out of a place: room left for the name. */
#define PREFIX_MAX 96

/* What to do, said after each: @who's next start there reads it. */
static void say(struct walk *w, const char *name, const char *what,
		const char *detail, const char *who, const char *yours)
{
	char tail[256];

	snprintf(tail, sizeof(tail),
		 "; look at it before you start %s there on the host (%s)\n",
		 who, yours);
	ltd_repos_say_as(w, NULL, name, what, detail, tail);
}

/* A .claude itself, made a link or other non-directory. */
static const struct ltd_hostrun whole = {
	".claude", LTD_HOSTRUN_FILE, "Claude Code",
	"its settings, hooks, commands and skills, through whatever it is"};

/* The current directory from its last `.claude` on (".claude",
 * ".claude/skills/x"), or NULL: none, or the root's own when the root's
 * places are judged elsewhere. */
static const char *claude_rel(const struct walk *w)
{
	const char *s = w->path + w->root_len, *last = NULL;

	while ((s = strstr(s, "/.claude"))) {
		if (s[8] == '/' || !s[8])
			last = s;
		s += 8;
	}
	if (!last || (last == w->path + w->root_len &&
		      (w->skip & LTD_REPOS_SKIP_ROOT_AGENT)))
		return NULL;
	return last + 1;
}

/* @st (a directory's) is new at its place: changed in the run, and born
 * in it, or unknown there to the index (@old_ino: the inode the index
 * knew there, 0 for none). */
static bool new_here(const struct walk *w, int dir, const char *name,
		     const struct stat *st, ino_t old_ino)
{
	if (!ltd_ctime_since(st, w->since))
		return false;
	return ltd_repos_born_in_run(w, dir, name) || !old_ino ||
	       old_ino != st->st_ino;
}

bool ltd_repos_born_in_run(const struct walk *w, int dir, const char *name)
{
	struct statx sx;

	return statx(dir, name, AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH,
		     STATX_BTIME, &sx) == 0 &&
	       (sx.stx_mask & STATX_BTIME) &&
	       (sx.stx_btime.tv_sec > w->since.tv_sec ||
		(sx.stx_btime.tv_sec == w->since.tv_sec &&
		 sx.stx_btime.tv_nsec >= (uint32_t)w->since.tv_nsec));
}

/* The inode the index knew as @name in the directory of node @old. */
static ino_t index_ino(const struct walk *w, uint32_t old, const char *name)
{
	_cleanup_free_ uint32_t *kids = NULL;
	long n;
	uint32_t j;

	if (!w->old || old == NONE ||
	    (n = ltd_rindex_children(w->old, old, &kids)) <= 0)
		return 0;
	j = ltd_rindex_find(w->old, kids, (size_t)n, name);
	return j == NONE ? 0 : w->old->v[j].ino;
}

void ltd_repos_agent_enter(struct walk *w, int fd, uint32_t old, bool unseen)
{
	const struct ltd_hostrun *h;
	const char *rel;
	struct stat st;
	bool fresh;

	if (w->lower >= 0 || w->agent == WALK_AGENT_SKIP ||
	    !(rel = claude_rel(w)))
		return;
	fresh = fstat(fd, &st) == 0 &&
		new_here(w, fd, "", &st,
			 w->old && old != NONE ? w->old->v[old].ino : 0);
	h = ltd_agentprotect_find(rel);
	/* Skipped only where it goes aside whole: a place of a new .claude,
	 * or a new directory in a place, when the directory above is read
	 * (it is judged there).  One the index has no facts of (the walk
	 * could not open it: its permissions) lies below one that may not
	 * be: what it holds is judged as new instead.  Any other (.claude/x)
	 * is walked as any directory is: a .claude or an instruction file
	 * below it is judged (the attacker's review hid both in a new
	 * .claude/x). */
	if (!strcmp(rel, ".claude"))
		w->agent = fresh || unseen ? WALK_AGENT_NEW : 0;
	else if (h && w->up_read &&
		 ((w->agent == WALK_AGENT_NEW && !strcmp(rel, h->path)) ||
		  fresh))
		w->agent = WALK_AGENT_SKIP;
	else
		w->agent = 0;
}

/* @name in @dir, which the command made a link out of the root or a
 * FIFO, socket or device, where @who loads it into its prompt. */
static void instruction(struct walk *w, int dir, const char *name,
			const struct stat *st, const char *who)
{
	char root[PATH_MAX], proc[64], what[512], to[NAME_MAX + 64];
	int ret;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", w->root);
	if (!ltd_ctime_since(st, w->since) || !realpath(proc, root) ||
	    !ltd_agentinstr_leads_out(dir, name, st, root))
		return;
	ret = ltd_protected_move_aside(dir, name, to, sizeof(to));
	snprintf(what, sizeof(what),
		 "the command made %s, which %s on the host loads into its "
		 "prompt by itself: %s",
		 ltd_agentinstr_kind(st), who,
		 ret < 0 ? "it could NOT be moved aside" : "moved aside");
	say(w, name, what, ret < 0 ? strerror(-ret) : to, who,
	    ret < 0 ? "remove it" : "a link you made yourself: move it back");
}

/* The .claude that holds the directory being read (@dir, @sub in it),
 * opened beneath the root with no link on the way, and checked to hold
 * @dir as @sub: -1 when it cannot be. */
static int claude_dir(const struct walk *w, int dir, const char *sub)
{
	const char *rel = claude_rel(w), *top = w->path + w->root_len + 1;
	char up[PATH_MAX];
	struct stat a, b;
	int fd, in;

	if (!rel || rel < top)
		return -1;
	snprintf(up, sizeof(up), "%.*s", (int)(rel + 7 - top), top);
	if ((fd = ltd_dir_open_beneath(w->root, up)) < 0)
		return -1;
	in = ltd_dir_open_beneath(fd, sub);
	if (in < 0 || fstat(in, &a) < 0 || fstat(dir, &b) < 0 ||
	    a.st_dev != b.st_dev || a.st_ino != b.st_ino) {
		close(fd);
		fd = -1;
	}
	if (in >= 0)
		close(in);
	return fd;
}

/* The directory being read (@rel, from its .claude on) is Claude Code's
 * place @h or lies in it: what goes out of it into the .claude is named
 * after where it was ("commands-ops-"), into @prefix, cut where a
 * character begins (the name itself is cut by protected.c). */
static bool in_place(const char *rel, const struct ltd_hostrun *h,
		     char prefix[PREFIX_MAX])
{
	size_t n = strlen(h->path), k = 0;

	if (!rel || !strchr(h->path, '/') || strncmp(rel, h->path, n) ||
	    (rel[n] && rel[n] != '/'))
		return false;
	for (const char *s = rel + 8; *s && k < PREFIX_MAX - 2; s++)
		prefix[k++] = *s == '/' ? '-' : *s;
	while (k && ((unsigned char)rel[8 + k] & 0xC0) == 0x80)
		k--;
	prefix[k++] = '-';
	prefix[k] = '\0';
	return true;
}

/* Out of the place into its .claude when @name lies right in it, or is
 * a directory anywhere in it: Claude Code takes a skill from any
 * directory of skills/, commands and agents from every directory below
 * theirs, whatever the names ("x.ltd-native-quarantine" there would
 * still be one). */
void ltd_repos_agent_place(struct walk *w, int dir, const char *name,
			   const struct ltd_hostrun *h)
{
	const char *rel = claude_rel(w);
	char what[640], to[NAME_MAX + 64], prefix[PREFIX_MAX];
	struct stat st;
	bool is_dir = fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		      S_ISDIR(st.st_mode);
	bool in = in_place(rel, h, prefix);
	_cleanup_close_ int up = in && (is_dir || !strcmp(rel, h->path))
					 ? claude_dir(w, dir, rel + 8)
					 : -1;
	bool out = up >= 0;
	int ret;

	ret = out ? ltd_protected_move_aside_to(dir, name, up, prefix, to,
						sizeof(to))
		  : ltd_protected_move_aside(dir, name, to, sizeof(to));
	/* With no record of an earlier walk here, one changed in the run
	 * cannot be told from one moved in whole; where no walk could look
	 * before (repos.c's unseen(): since is zero), what is there from
	 * any run: said so. */
	snprintf(what, sizeof(what), "%s, where %s on the host finds %s: %s%s",
		 !w->old ? "in a .claude that changed in the run and that "
			   "ltd-native has no record of yet (its first run "
			   "here: yours cannot be told from one the command "
			   "moved in)"
		 : !w->since.tv_sec && !w->since.tv_nsec
			 ? "in a directory ltd-native could not look in at "
			   "the end of an earlier run (yours cannot be told "
			   "from what a command put there since)"
			 : "made or changed by the command",
		 h->program, h->runs,
		 ret < 0 ? "it could NOT be moved aside" : "moved aside",
		 ret < 0	? ""
		 : out		? " into .claude"
		 : in && is_dir ? " within its place, where Claude Code may "
				  "still take it"
				: "");
	say(w, name, what, ret < 0 ? strerror(-ret) : to, h->program,
	    ret < 0 || (in && is_dir && !out) ? "remove it"
					      : "if it is yours, move it back");
}

const struct ltd_hostrun *ltd_repos_agent_place_of(const char *name)
{
	char rel[NAME_MAX + 16];

	snprintf(rel, sizeof(rel), ".claude/%s", name);
	return ltd_agentprotect_find(rel);
}

/* One entry @name of the directory @dir (node @old) read; @h: the place
 * @dir lies in (NULL: a .claude itself when @in_claude, else none). */
static void entry(struct walk *w, int dir, uint32_t old, const char *name,
		  const struct ltd_hostrun *h, bool in_claude)
{
	const char *who = ltd_agentinstr_who(name);
	struct stat st;

	if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return;
	/* A .claude that is no directory: a link to one staged elsewhere
	 * (the attacker's review), which Claude Code would take whole. */
	if (!strcmp(name, ".claude") && !S_ISDIR(st.st_mode)) {
		if (ltd_ctime_since(&st, w->since))
			ltd_repos_agent_place(w, dir, name, &whole);
		return;
	}
	/* Text there is the project's, as its README: a link out is not. */
	if (in_claude && (!strcmp(name, "CLAUDE.md") || !strcmp(name, "rules")))
		who = "Claude Code";
	else if (in_claude)
		h = ltd_repos_agent_place_of(name);
	else if (!strcmp(name, ".mcp.json"))
		h = ltd_agentprotect_find(name); /* read where it is started */
	if (!h) {
		if (who && !S_ISDIR(st.st_mode))
			instruction(w, dir, name, &st, who);
		return;
	}
	if (in_claude && w->agent == WALK_AGENT_NEW)
		ltd_repos_agent_place(w, dir, name, h);
	else if (ltd_ctime_since(&st, w->since) &&
		 (!S_ISDIR(st.st_mode) ||
		  new_here(w, dir, name, &st, index_ino(w, old, name))))
		ltd_repos_agent_place(w, dir, name, h);
}

void ltd_repos_judge_agent(struct walk *w, int dir, uint32_t old, bool instr)
{
	const struct ltd_hostrun *h = NULL;
	const char *rel;
	char **names = NULL;
	size_t n = 0;
	bool in_claude = false;

	if (w->lower >= 0 || w->agent == WALK_AGENT_SKIP ||
	    (strlen(w->path) == w->root_len &&
	     (w->skip & LTD_REPOS_SKIP_ROOT_AGENT)))
		return;
	if ((rel = claude_rel(w))) {
		in_claude = !strcmp(rel, ".claude");
		h = in_claude ? NULL : ltd_agentprotect_find(rel);
		if (h && h->kind != LTD_HOSTRUN_DIR)
			h = NULL;
	}
	/* The walk read it to its end: again from the start. */
	if ((!in_claude && !h && !instr) || lseek(dir, 0, SEEK_SET) < 0 ||
	    ltd_dir_names(dir, 0, &names, &n) < 0)
		return;
	/* Every name read first: one moved aside is not met again. */
	for (size_t i = 0; i < n; i++)
		entry(w, dir, old, names[i], h, in_claude);
	ltd_strv_free(names, n);
}
