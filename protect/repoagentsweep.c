// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sweep of the nested .claude directories once the exit walk is done
 * (see repowalk.h, decision 0162): a file of a user's place rewritten in
 * place changes no directory, so the walk read none there.  Every nested
 * .claude the walk's index knows is opened beneath the root, with no link
 * on the way, and what in its places changed in the run goes aside.
 *
 * Its own files (settings.json, settings.local.json, the other files of
 * Claude Code's right in it) are looked at whatever the cost: a few names
 * each.  Below its places, so many entries in all and so deep: a cage
 * that fills one place with names must not hide the others' files, and
 * whatever is not looked at is said, with what to do.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/openat2.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/dir.h"
#include "common/text.h"
#include "common/vec.h"
#include "protect/agentprotect.h"
#include "protect/repowalk.h"

/* So deep below a place, so many entries below the places in all. */
/* Deep enough for a skill's own node_modules (8 was not: a new user's
 * review saw a user's skill warned of at every run); the entries' count
 * bounds the cost. */
#define SWEEP_DEPTH   32
#define SWEEP_ENTRIES 10000

struct sweep {
	size_t left; /* entries still to look at below the places */
	bool over;   /* this .claude: some not looked at, past them */
	bool deep;   /* this .claude: a directory below SWEEP_DEPTH */
};

/* The .claude at w->path not looked at whole: said once, with why. */
static void say_cut(struct walk *w, const struct sweep *s)
{
	char over[128] = "", deep[96] = "", what[384];

	if (s->over)
		snprintf(over, sizeof(over),
			 "past %d entries below the places of the nested "
			 ".claude directories in all%s",
			 SWEEP_ENTRIES, s->deep ? "; " : "");
	if (s->deep)
		snprintf(deep, sizeof(deep),
			 "deeper than %d directories below a place, or a "
			 "longer path",
			 SWEEP_DEPTH);
	snprintf(what, sizeof(what),
		 "ltd-native did not look at every file in its places for "
		 "what the command changed there (%s%s)",
		 over, deep);
	ltd_repos_say_as(w, NULL, NULL, what, NULL,
			 "; look at its commands, agents, skills and hooks "
			 "before you start Claude Code there on the host, or "
			 "run the command with --review, which holds them "
			 "back\n");
}

/* @name in @dir (w->path), a directory of a nested .claude the sweep is
 * to look in, opened; -1 when it cannot be, said unless gone (moved
 * aside by the walk) or said already: one of the user's the walk could
 * not open either (its permissions) was said by it (repos.c's enter()). */
static int open_in(struct walk *w, int dir, const char *name)
{
	int fd = ltd_dir_open_beneath(dir, name), err = errno;
	char what[256];
	struct stat st;

	if (fd >= 0 || err == ENOENT ||
	    (err == EACCES &&
	     fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	     st.st_uid == geteuid()))
		return fd;
	snprintf(what, sizeof(what),
		 "ltd-native could not look in it for files of Claude Code's "
		 "the command may have changed");
	ltd_repos_say_as(w, NULL, name, what, strerror(err),
			 "; look at it before you start Claude Code there on "
			 "the host, or run the command with --review, which "
			 "holds it back\n");
	return -1;
}

/* Below a place of a nested .claude (@dir, w->path, @depth deep in it):
 * each file, link or other the command changed in place. */
static void sweep_in(struct walk *w, struct sweep *s, int dir,
		     const struct ltd_hostrun *h, int depth)
{
	char **names = NULL;
	size_t n = 0, len = strlen(w->path);

	if (ltd_dir_names(dir, 0, &names, &n) < 0) {
		s->over = true;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		_cleanup_close_ int sub = -1;
		struct stat st;

		/* Each name counts once, whatever it is: none uncounted. */
		if (!s->left) {
			s->over = true;
			break;
		}
		s->left--;
		if (fstatat(dir, names[i], &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		/* A file that went aside (here or in an earlier run) is
		 * no command or skill of Claude Code's; a directory still
		 * in a place, whatever its name, holds them (one an earlier
		 * version left there, refilled: the attacker's review). */
		if (!S_ISDIR(st.st_mode)) {
			if (!strstr(names[i], ".ltd-native-quarantine") &&
			    ltd_ctime_since(&st, w->since))
				ltd_repos_agent_place(w, dir, names[i], h);
			continue;
		}
		if (depth >= SWEEP_DEPTH ||
		    len + 1 + strlen(names[i]) >= sizeof(w->path)) {
			s->deep = true;
			continue;
		}
		if ((sub = open_in(w, dir, names[i])) < 0)
			continue;
		snprintf(w->path + len, sizeof(w->path) - len, "/%s", names[i]);
		sweep_in(w, s, sub, h, depth + 1);
		w->path[len] = '\0';
	}
	ltd_strv_free(names, n);
}

/* The nested .claude at @fd (w->path): its own files, whatever the
 * budget; its places' files, within it. */
static void sweep_places(struct walk *w, int fd, struct sweep *s)
{
	char **names = NULL;
	size_t n = 0;

	if (ltd_dir_names(fd, 0, &names, &n) < 0)
		return;
	s->over = s->deep = false;
	for (size_t i = 0; i < n; i++) {
		const struct ltd_hostrun *h =
			ltd_repos_agent_place_of(names[i]);
		size_t len = strlen(w->path);
		_cleanup_close_ int sub = -1;
		struct stat st;

		if (!h || fstatat(fd, names[i], &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (!S_ISDIR(st.st_mode)) {
			if (ltd_ctime_since(&st, w->since))
				ltd_repos_agent_place(w, fd, names[i], h);
			continue;
		}
		if (len + 1 + strlen(names[i]) >= sizeof(w->path) ||
		    (sub = open_in(w, fd, names[i])) < 0)
			continue;
		snprintf(w->path + len, sizeof(w->path) - len, "/%s", names[i]);
		sweep_in(w, s, sub, h, 1);
		w->path[len] = '\0';
	}
	ltd_strv_free(names, n);
	if (s->over || s->deep)
		say_cut(w, s);
}

/* The settings files of the .claude at @fd (w->path), Claude Code's when
 * started in @base (from the root): the files their commands run. */
static void sweep_cmds(struct walk *w, int fd, const char *base)
{
	ltd_repos_agent_cmds(w, fd, "settings.json", base);
	ltd_repos_agent_cmds(w, fd, "settings.local.json", base);
}

/* The nested .claude at @rel (from the root). */
static void sweep_claude(struct walk *w, const char *rel, struct sweep *s)
{
	_cleanup_close_ int fd = -1;
	char base[PATH_MAX];
	size_t n = strlen(rel) - strlen(".claude");

	if (w->root_len + 1 + strlen(rel) >= sizeof(w->path) ||
	    (fd = open_in(w, w->root, rel)) < 0)
		return;
	snprintf(base, sizeof(base), "%.*s", (int)(n ? n - 1 : 0), rel);
	snprintf(w->path + w->root_len, sizeof(w->path) - w->root_len, "/%s",
		 rel);
	sweep_places(w, fd, s);
	sweep_cmds(w, fd, base);
	w->path[w->root_len] = '\0';
}

/* @rel (from the root) opened beneath the root, links on the way
 * followed while they stay beneath it (an absolute one is not). */
static int open_following(int root, const char *rel)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS |
			   RESOLVE_NO_XDEV,
	};

	return (int)syscall(SYS_openat2, root, rel, &how, sizeof(how));
}

/* The .claude in the directory @rel (from the root: "" for the root)
 * that is a link (the user's own: one the command made went aside): the
 * directory it leads to within the project, which the walk judges under
 * its own name, is swept as the .claude it is where Claude Code is
 * started.  One that leads out of the project is not the cage's to
 * write (a directory bound writable is walked as a root of its own): only
 * the files its settings run in the project are judged. */
static void sweep_link(struct walk *w, const char *rel, struct sweep *s)
{
	char at[PATH_MAX], real[PATH_MAX];
	_cleanup_close_ int fd = -1;
	bool in = false;

	if ((size_t)snprintf(at, sizeof(at), "%s%s.claude", rel,
			     *rel ? "/" : "") >= sizeof(at) ||
	    w->root_len + 1 + strlen(at) >= sizeof(w->path))
		return;
	snprintf(w->path + w->root_len, sizeof(w->path) - w->root_len, "/%s",
		 at);
	fd = open_following(w->root, at);
	/* Not reached beneath the root (an absolute link on the way, maybe
	 * one the command made to lead a user's link to a tree of its own:
	 * the cage-view review): where the host is led, by its real path;
	 * in the root, opened there with no link on the way. */
	if (fd < 0 && realpath(w->path, real)) {
		in = !strncmp(real, w->path, w->root_len) &&
		     (real[w->root_len] == '/' || !real[w->root_len]);
		fd = !in ? open(real, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
		     : real[w->root_len]
			     ? ltd_dir_open_beneath(w->root,
						    real + w->root_len + 1)
			     : -1;
	} else if (fd >= 0) {
		in = true;
	}
	if (fd >= 0 && in)
		sweep_places(w, fd, s);
	/* Out of the project: the user's own (the cage writes nothing
	 * there), whose settings still run the project's files. */
	if (fd >= 0)
		sweep_cmds(w, fd, rel);
	w->path[w->root_len] = '\0';
}

/* The .mcp.json of the directory at @rel (the index marks it): one
 * rewritten in place changes no directory, so the walk read none (the
 * attacker's review: a server's command changed under its approved
 * name). */
static void sweep_mcp(struct walk *w, const char *rel)
{
	const struct ltd_hostrun *h = ltd_agentprotect_find(".mcp.json");
	_cleanup_close_ int fd = -1;
	struct stat st;

	if (!h || w->root_len + 1 + strlen(rel) >= sizeof(w->path) ||
	    (fd = open_in(w, w->root, rel)) < 0)
		return;
	snprintf(w->path + w->root_len, sizeof(w->path) - w->root_len, "/%s",
		 rel);
	if (fstatat(fd, ".mcp.json", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    ltd_ctime_since(&st, w->since))
		ltd_repos_agent_place(w, fd, ".mcp.json", h);
	ltd_repos_agent_cmds(w, fd, ".mcp.json", rel);
	w->path[w->root_len] = '\0';
}

void ltd_repos_agent_sweep(struct walk *w)
{
	/* While no directory was read, the new index is the old one; one
	 * not whole (out of memory) lists less than the old one, which
	 * still names the .claude directories the walk did not read.  With
	 * none, the walk read every directory (nothing was known): nothing
	 * is left for the sweep. */
	const struct ltd_rindex *x =
		w->shadow || !w->new || w->new_lost ? w->old : w->new;
	size_t at[LTD_REPOS_MAX_DEPTH + 2];
	struct sweep s = {.left = SWEEP_ENTRIES};
	char rel[PATH_MAX];

	if (!x || w->lower >= 0)
		return;
	at[0] = 0;
	for (size_t i = 1; i < x->n; i++) {
		unsigned d = x->v[i].depth;
		size_t len = x->v[i].name_len, base;

		if (d == 0 || d > LTD_REPOS_MAX_DEPTH + 1)
			continue;
		/* Past the path's room: it and all below it left out. */
		at[d] = SIZE_MAX;
		if (at[d - 1] == SIZE_MAX ||
		    (base = at[d - 1] + (d > 1)) + len >= sizeof(rel))
			continue;
		if (d > 1)
			rel[base - 1] = '/';
		memcpy(rel + base, ltd_rindex_name(x, (uint32_t)i), len);
		rel[base + len] = '\0';
		at[d] = base + len;
		if (len == 7 && !memcmp(rel + base, ".claude", 7) &&
		    !(d == 1 && (w->skip & LTD_REPOS_SKIP_ROOT_AGENT)))
			sweep_claude(w, rel, &s);
		if (x->v[i].flags & LTD_RN_CLAUDE)
			sweep_link(w, rel, &s);
		if (x->v[i].flags & LTD_RN_MCP)
			sweep_mcp(w, rel);
	}
}
