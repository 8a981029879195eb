// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The files that a nested .claude's settings and a nested .mcp.json run
 * (hooks, the status line, the helpers, MCP servers), judged once the
 * exit walk is done (repoagentsweep.c, for each it sweeps): Claude Code
 * started in that directory on the host runs them by itself.  The top's
 * are read-only in the cage (decision 0063); a nested one's are not known
 * at the start without reading the whole tree, and a script rewritten in
 * place changes no directory the walk reads.  So: a file they name that
 * changed in the run goes aside, as a changed file of a nested place does
 * (decision 0162), and so does a link on the way that changed; one
 * reached through a user's link is said, not moved.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/dir.h"
#include "common/path.h"
#include "common/text.h"
#include "common/vec.h"
#include "protect/agentprotect.h"
#include "protect/protected.h"
#include "protect/repowalk.h"

#define DIR_MAX	  10000 /* entries looked at in the directories named */
#define DIR_DEPTH 8	/* and so deep below each */
#define HOPS_MAX  40	/* links followed on a path, as the kernel does */

static const char tail[] =
	"; look at it before you start Claude Code there on the host\n";
static const char tail_moved[] =
	"; look at it before you start Claude Code there on the host (if you "
	"wanted the change, move it back)\n";

/* One settings file's commands being judged. */
struct cmds {
	struct walk *w;
	const char *file; /* the settings file or .mcp.json, absolute */
	const char *base; /* where Claude Code is started, absolute */
	char root[PATH_MAX];
	size_t left; /* entries still to look at in directories named */
};

/* "WHAT FILE runs when Claude Code is started in BASE, STATE", the paths
 * shown safely (the cage names directories). */
static void say(const struct cmds *c, const char *at, const char *name,
		const char *what, const char *state, const char *detail)
{
	_cleanup_free_ char *line = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&line, &len);

	if (!m)
		return;
	fprintf(m, "%s ", what);
	ltd_fput_shown(m, c->file);
	fputs(" runs when Claude Code is started in ", m);
	ltd_fput_shown(m, c->base);
	fprintf(m, ", %s", state);
	if (fclose(m) == 0)
		ltd_repos_say_as(c->w, at, name, line, detail,
				 strstr(state, ": moved aside") ? tail_moved
								: tail);
}

/* @name in @dir (@at, a path of the root) went aside, or could not. */
static void aside(const struct cmds *c, int dir, const char *at,
		  const char *name, const char *what)
{
	char to[NAME_MAX + 64];
	int ret = ltd_protected_move_aside(dir, name, to, sizeof(to));

	say(c, at, name, what,
	    ret < 0 ? "changed during the run: it could NOT be moved aside"
		    : "changed during the run: moved aside",
	    ret < 0 ? strerror(-ret) : to);
}

/* @name in @dir is data a command reads, not a program it runs: a
 * regular file named as data (`cat package.json`, `tsc -p
 * tsconfig.json`: a new user's review saw a package's package.json moved
 * aside), not executable, with no `#!` line.  Anything else runs (`python3
 * tools/check` needs no suffix). */
static bool data_file(int dir, const char *name, const struct stat *st)
{
	static const char *const ext[] = {
		".json", ".jsonc", ".json5", ".yaml", ".yml", ".toml", ".md",
		".txt",	 ".lock",  ".xml",   ".csv",  ".ini", ".log",
	};
	const char *dot = strrchr(name, '.');
	_cleanup_close_ int fd = -1;
	bool data = false;
	char head[2];

	for (size_t i = 0; dot && dot != name && i < sizeof(ext) / sizeof(*ext);
	     i++)
		data = data || !strcmp(dot, ext[i]);
	if (!data || !S_ISREG(st->st_mode) || (st->st_mode & 0111))
		return false;
	fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	return fd >= 0 &&
	       !(read(fd, head, 2) == 2 && head[0] == '#' && head[1] == '!');
}

/* A changed file a command names: aside when it runs; said when it is
 * read, or a package's (@package: an install rewrites it, and moving it
 * would break the package). */
static void changed_file(const struct cmds *c, int dir, const char *at,
			 const char *name, const struct stat *st, bool package)
{
	if (package)
		say(c, at, name, "a file that",
		    "changed during the run: not moved (a package's, in "
		    "node_modules)",
		    NULL);
	else if (!data_file(dir, name, st))
		aside(c, dir, at, name, "a file that");
	else
		say(c, at, name, "a file that",
		    "changed during the run: not moved (data its command "
		    "reads, by its name)",
		    NULL);
}

/* Below the directory @fd (@at), @depth deep: its entries changed in the
 * run (a link, by where it leads too), counted into *@n, within c->left. */
static void count_in(struct cmds *c, int fd, int depth, size_t *n)
{
	char **names = NULL;
	size_t k = 0;

	if (ltd_dir_names(fd, 0, &names, &k) < 0)
		return;
	for (size_t i = 0; i < k && c->left; i++) {
		_cleanup_close_ int sub = -1;
		struct stat st, to;

		c->left--;
		if (fstatat(fd, names[i], &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (ltd_ctime_since(&st, c->w->since) ||
		    (S_ISLNK(st.st_mode) &&
		     fstatat(fd, names[i], &to, AT_NO_AUTOMOUNT) == 0 &&
		     !S_ISDIR(to.st_mode) && ltd_ctime_since(&to, c->w->since)))
			(*n)++;
		else if (S_ISDIR(st.st_mode) && depth < DIR_DEPTH &&
			 (sub = ltd_dir_open_beneath(fd, names[i])) >= 0)
			count_in(c, sub, depth + 1, n);
	}
	ltd_strv_free(names, k);
}

/* A directory a command runs what it holds from (a glob's, a *PATH
 * variable's: @name in @dir): what in it changed is counted and said, not
 * moved (an install there would take the whole of it). */
static void in_dir(struct cmds *c, int dir, const char *at, const char *name)
{
	_cleanup_close_ int fd = ltd_dir_open_beneath(dir, name);
	char state[160];
	size_t n = 0;

	if (fd < 0)
		return;
	count_in(c, fd, 1, &n);
	if (!n && c->left)
		return;
	if (n)
		snprintf(state, sizeof(state),
			 "holds %zu entr%s changed during the run%s: not moved",
			 n, n == 1 ? "y" : "ies",
			 c->left ? "" : " (and more not looked at)");
	else
		snprintf(state, sizeof(state),
			 "holds more entries than ltd-native looks at: not "
			 "looked at whole");
	say(c, at, name, "a directory whose files", state, NULL);
}

/* The inode the previous walk's index knew at @cur/@name (from the
 * root), or 0: none there, or no index. */
static ino_t index_ino(const struct walk *w, const char *cur, const char *name)
{
	char path[PATH_MAX];
	uint32_t node = 0;

	if (!w->old ||
	    (size_t)snprintf(path, sizeof(path), "%s%s%s", cur,
			     cur[0] ? "/" : "", name) >= sizeof(path))
		return 0;
	for (char *save = NULL, *s = strtok_r(path, "/", &save); s;
	     s = strtok_r(NULL, "/", &save)) {
		_cleanup_free_ uint32_t *kids = NULL;
		long n = ltd_rindex_children(w->old, node, &kids);

		if (n <= 0 || (node = ltd_rindex_find(w->old, kids, (size_t)n,
						      s)) == UINT32_MAX)
			return 0;
	}
	return (ino_t)w->old->v[node].ino;
}

/* The directory @name in @dir (@cur/@name) was moved to its place in the
 * run (the attacker's review: `mv ops sub/tools` made a hook run an old
 * script of the user's): changed in it, and born in it or not the inode
 * the index knew there.  With no index, only a birth in the run tells. */
static bool moved_in(const struct cmds *c, int dir, const char *cur,
		     const char *name, const struct stat *st)
{
	ino_t ino;

	if (!ltd_ctime_since(st, c->w->since))
		return false;
	if (ltd_repos_born_in_run(c->w, dir, name))
		return true;
	return c->w->old &&
	       (!(ino = index_ino(c->w, cur, name)) || ino != st->st_ino);
}

/* The directory @cur (from the root, "" the root, no link in it). */
static int open_cur(const struct cmds *c, const char *cur)
{
	return ltd_dir_open_beneath(c->w->root, cur[0] ? cur : ".");
}

/* Take @rest's first name into @name; false when it does not fit. */
static bool pop(char *rest, char *name)
{
	size_t n = strcspn(rest, "/"), skip = n + (rest[n] == '/');

	if (n > NAME_MAX)
		return false;
	memcpy(name, rest, n);
	name[n] = '\0';
	memmove(rest, rest + skip, strlen(rest + skip) + 1);
	return true;
}

/* @abs (a host path, no `..` in it) as a path in the root, into @out:
 * by its text, or through an alias of the root (`/home` a link to
 * `var/home`): the first of its leading directories whose real path is
 * the root (those lie outside the root, where the cage writes nothing).
 * False when it lies out of the root. */
static bool in_root(const struct cmds *c, const char *abs, char *out)
{
	size_t rl = strlen(c->root);
	char head[PATH_MAX], real[PATH_MAX];

	if (!strncmp(abs, c->root, rl) && (!abs[rl] || abs[rl] == '/')) {
		snprintf(out, PATH_MAX, "%s", abs + rl + (abs[rl] == '/'));
		return true;
	}
	for (const char *s = strchr(abs + 1, '/');; s = strchr(s + 1, '/')) {
		size_t n = s ? (size_t)(s - abs) : strlen(abs);

		memcpy(head, abs, n);
		head[n] = '\0';
		if (realpath(head, real) && !strcmp(real, c->root)) {
			snprintf(out, PATH_MAX, "%s", s ? s + 1 : "");
			return true;
		}
		if (!s)
			return false;
	}
}

/* The link @name in @dir (of @cur) followed: its text put before @rest,
 * from the root when it is absolute; false when it leads out of the root
 * (not the cage's to write) or does not fit. */
static bool follow(const struct cmds *c, int dir, const char *name, char *cur,
		   char *rest)
{
	char to[PATH_MAX], was[PATH_MAX], rel[PATH_MAX];
	ssize_t k = readlinkat(dir, name, to, sizeof(to) - 1);

	if (k <= 0)
		return false;
	to[k] = '\0';
	snprintf(was, sizeof(was), "%s", rest);
	if (to[0] == '/') {
		ltd_path_normalize(to);
		if (!in_root(c, to, rel))
			return false;
		cur[0] = '\0';
		snprintf(to, sizeof(to), "%s", rel);
	}
	return (size_t)snprintf(rest, PATH_MAX, "%s%s%s", to,
				was[0] && to[0] ? "/" : "", was) < PATH_MAX;
}

/* A `..` above the root (a user's link `../../proj/x` from `sub`): the
 * rest from the root's parent, back in the root through in_root(), or
 * false. */
static bool above(const struct cmds *c, char *rest)
{
	char abs[PATH_MAX], rel[PATH_MAX];
	const char *slash = strrchr(c->root, '/');
	size_t n = slash ? (size_t)(slash - c->root) : 0;

	if ((size_t)snprintf(abs, sizeof(abs), "%.*s/%s", (int)n, c->root,
			     rest) >= sizeof(abs))
		return false;
	ltd_path_normalize(abs);
	if (!in_root(c, abs, rel))
		return false;
	snprintf(rest, PATH_MAX, "%s", rel);
	return true;
}

/* One path a command names, @rel from the root, followed as the host
 * follows it, within the root: a link met that changed in the run goes
 * aside (the command re-pointed it, maybe at an old file of the user's);
 * a user's link is followed; what is at the end is judged by its own
 * ctime (a file) or its entries' (a directory). */
static void judge(struct cmds *c, const char *rel)
{
	char cur[PATH_MAX] = "", rest[PATH_MAX], name[NAME_MAX + 1];
	char at[2 * PATH_MAX];
	int hops = 0;

	if ((size_t)snprintf(rest, sizeof(rest), "%s", rel) >= sizeof(rest))
		return;
	while (rest[0]) {
		_cleanup_close_ int dir = -1;
		struct stat st;
		bool last;

		if (!pop(rest, name))
			return;
		last = !rest[0];
		if (!name[0] || !strcmp(name, "."))
			continue;
		if (!strcmp(name, "..")) {
			if (!cur[0] && !above(c, rest))
				return; /* out of the root */
			*(strrchr(cur, '/') ?: cur) = '\0';
			continue;
		}
		if ((dir = open_cur(c, cur)) < 0 ||
		    fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return; /* nothing there: nothing made */
		snprintf(at, sizeof(at), "%s%s%s", c->root, cur[0] ? "/" : "",
			 cur);
		if (S_ISLNK(st.st_mode) && ltd_ctime_since(&st, c->w->since)) {
			aside(c, dir, at, name,
			      last ? "a link that"
				   : "a link on the way to a file that");
			return;
		}
		if (S_ISLNK(st.st_mode)) {
			if (++hops > HOPS_MAX ||
			    !follow(c, dir, name, cur, rest))
				return;
			continue;
		}
		if (S_ISDIR(st.st_mode) && moved_in(c, dir, cur, name, &st)) {
			aside(c, dir, at, name,
			      last ? "a directory moved there in the run, "
				     "whose "
				     "files"
				   : "a directory moved there in the run, on "
				     "the way to a file that");
			return;
		}
		if (last && S_ISDIR(st.st_mode) &&
		    !ltd_agentprotect_in_packages(rel))
			in_dir(c, dir, at, name);
		else if (last && ltd_ctime_since(&st, c->w->since))
			changed_file(c, dir, at, name, &st,
				     ltd_agentprotect_in_packages(rel));
		if (last || !S_ISDIR(st.st_mode) ||
		    strlen(cur) + 2 + strlen(name) >= sizeof(cur))
			return;
		if (cur[0])
			strcat(cur, "/");
		strcat(cur, name);
	}
}

/* The settings file @name in @dir (w->path), as Claude Code reads it: a
 * link of the user's is followed (a monorepo's packages share one), and
 * said when what it leads to changed in the run (the sweep judges the
 * link itself, not that). */
static int read_settings(struct cmds *c, int dir, const char *name, char **text,
			 size_t *len)
{
	_cleanup_close_ int fd = -1;
	struct stat st, to;
	bool link;

	*text = NULL;
	if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	link = S_ISLNK(st.st_mode);
	/* Nothing but a regular file is opened (a FIFO, a device). */
	if (fstatat(dir, name, &to, AT_NO_AUTOMOUNT) < 0)
		return -errno;
	if (!S_ISREG(to.st_mode))
		return -EINVAL;
	fd = openat(dir, name,
		    O_RDONLY | O_NONBLOCK | O_CLOEXEC |
			    (link ? 0 : O_NOFOLLOW));
	if (fd < 0)
		return -errno;
	if (link && ltd_ctime_since(&to, c->w->since))
		say(c, NULL, name, "the file",
		    "reached through this link of yours, changed during the "
		    "run: not moved",
		    NULL);
	return ltd_agentprotect_read(fd, text, len);
}

void ltd_repos_agent_cmds(struct walk *w, int dir, const char *name,
			  const char *base_rel)
{
	char base[PATH_MAX], file[PATH_MAX];
	struct cmds c = {.w = w, .file = file, .base = base, .left = DIR_MAX};
	struct ltd_protected set = {.project = c.root, .home = getenv("HOME")};
	struct ltd_err err = {0};
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	int ret;

	if (ltd_agentprotect_in_packages(base_rel))
		return;
	if (set.home && set.home[0] != '/')
		set.home = NULL;
	memcpy(c.root, w->path, w->root_len);
	c.root[w->root_len] = '\0';
	if ((size_t)snprintf(base, sizeof(base), "%s%s%s", c.root,
			     *base_rel ? "/" : "", base_rel) >= sizeof(base) ||
	    (size_t)snprintf(file, sizeof(file), "%s/%s", w->path, name) >=
		    sizeof(file))
		return;
	ret = read_settings(&c, dir, name, &text, &len);
	if (!ret)
		ret = ltd_agentprotect_nested(&set, base, file, text, len,
					      &err);
	else if (ret != -ENOENT)
		snprintf(err.msg, sizeof(err.msg), "%s", strerror(-ret));
	if (ret && ret != -ENOENT)
		ltd_repos_say_as(w, NULL, name,
				 "ltd-native could not tell which files it "
				 "runs, to look at what the command changed "
				 "there",
				 err.msg, tail);
	for (size_t i = 0; i < set.n; i++) {
		const char *rel = set.paths[i] + w->root_len;

		if (!strncmp(set.paths[i], c.root, w->root_len) &&
		    rel[0] == '/' && rel[1])
			judge(&c, rel + 1);
	}
	ltd_protected_free(&set);
}
