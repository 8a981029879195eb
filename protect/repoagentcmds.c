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
#include "common/vec.h"
#include "protect/agentprotect.h"
#include "protect/protected.h"
#include "protect/repowalk.h"

#define CMDS_FILE_MAX (4u << 20)
#define DIR_MAX	      10000 /* names looked at in a directory named */

static const char tail[] =
	"; look at it before you start Claude Code there on the host\n";
static const char tail_moved[] =
	"; look at it before you start Claude Code there on the host (if it "
	"is yours, move it back)\n";

/* @name in @dir whole (a regular file of at most CMDS_FILE_MAX, no
 * link), malloc'd into *@text; 0, or -errno (-ENOENT: none). */
static int read_small(int dir, const char *name, char **text, size_t *len)
{
	_cleanup_close_ int fd = openat(
		dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	size_t n = 0;
	ssize_t r;

	*text = NULL;
	if (fd < 0)
		return errno == ELOOP ? -ENOENT : -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_size > CMDS_FILE_MAX)
		return -EINVAL;
	if (!(*text = malloc((size_t)st.st_size + 1)))
		return -ENOMEM;
	while (n < (size_t)st.st_size &&
	       (r = read(fd, *text + n, (size_t)st.st_size - n)) > 0)
		n += (size_t)r;
	*len = n;
	return 0;
}

/* One settings file's commands being judged. */
struct cmds {
	struct walk *w;
	const char *file; /* the settings file or .mcp.json, absolute */
	const char *base; /* where Claude Code is started, absolute */
	char root[PATH_MAX];
};

/* "WHAT FILE runs when Claude Code is started in BASE, ..." */
static void say(const struct cmds *c, const char *at, const char *name,
		const char *what, const char *state, const char *detail)
{
	char line[3 * PATH_MAX];

	snprintf(line, sizeof(line),
		 "%s %.*s runs when Claude Code is started in %.*s, %s", what,
		 PATH_MAX, c->file, PATH_MAX, c->base, state);
	ltd_repos_say_as(c->w, at, name, line, detail,
			 strstr(state, ": moved aside") ? tail_moved : tail);
}

/* @name in @dir (@at, a path of the root) went aside, or could not. */
static void aside(const struct cmds *c, int dir, const char *at,
		  const char *name, const char *what)
{
	char to[NAME_MAX + 64];
	int ret = ltd_protected_move_aside(dir, name, to, sizeof(to));

	say(c, at, name, what,
	    ret < 0 ? "made or changed by the command: it could NOT be moved "
		      "aside"
		    : "made or changed by the command: moved aside",
	    ret < 0 ? strerror(-ret) : to);
}

/* @rel (from the root) through a user's link: the file it leads to within
 * the root, followed, said when the command changed it. */
static void through_link(const struct cmds *c, const char *rel)
{
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS |
			   RESOLVE_NO_XDEV,
	};
	_cleanup_close_ int fd =
		(int)syscall(SYS_openat2, c->w->root, rel, &how, sizeof(how));
	struct stat st;

	if (fd >= 0 && fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode) &&
	    ltd_ctime_since(&st, c->w->since))
		say(c, c->root, rel, "a file that",
		    "reached through a link of yours, was changed by the "
		    "command: not moved",
		    NULL);
}

/* A directory a command runs what it holds from (a glob's, a *PATH
 * variable's, @name in @dir): what in it changed is counted and said,
 * not moved (an `npm install` there would take the whole of it). */
static void in_dir(const struct cmds *c, int dir, const char *at,
		   const char *name)
{
	_cleanup_close_ int fd = ltd_dir_open_beneath(dir, name);
	char **names = NULL, state[128];
	size_t n = 0, changed = 0;
	struct stat st;

	if (fd < 0 || ltd_dir_names(fd, 0, &names, &n) < 0)
		return;
	for (size_t i = 0; i < n && i < DIR_MAX; i++)
		if (fstatat(fd, names[i], &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    !S_ISDIR(st.st_mode) && ltd_ctime_since(&st, c->w->since))
			changed++;
	ltd_strv_free(names, n);
	if (!changed)
		return;
	snprintf(state, sizeof(state),
		 "holds %zu file%s the command made or changed: not moved",
		 changed, changed == 1 ? "" : "s");
	say(c, at, name, "a directory whose files", state, NULL);
}

/* One path a command names, @rel from the root: each name on the way
 * looked at without following a link. */
static void judge(const struct cmds *c, const char *rel)
{
	char at[PATH_MAX], name[NAME_MAX + 1];
	_cleanup_close_ int own = -1;
	int dir = c->w->root;
	const char *p = rel;

	strcpy(at, c->root);
	for (;;) {
		size_t n = strcspn(p, "/");
		bool last = !p[n];
		struct stat st;
		int next;

		if (!n || n > NAME_MAX)
			return;
		memcpy(name, p, n);
		name[n] = '\0';
		if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return; /* nothing there: nothing made */
		if (S_ISLNK(st.st_mode)) {
			if (ltd_ctime_since(&st, c->w->since))
				aside(c, dir, at, name,
				      last ? "a link that"
					   : "a link on the way to a file "
					     "that");
			else
				through_link(c, rel);
			return;
		}
		if (last && S_ISDIR(st.st_mode))
			in_dir(c, dir, at, name);
		else if (last && ltd_ctime_since(&st, c->w->since))
			aside(c, dir, at, name, "a file that");
		if (last || !S_ISDIR(st.st_mode) ||
		    strlen(at) + 1 + n >= sizeof(at) ||
		    (next = ltd_dir_open_beneath(dir, name)) < 0)
			return;
		if (own >= 0)
			close(own);
		dir = own = next;
		strcat(strcat(at, "/"), name);
		p += n + 1;
	}
}

void ltd_repos_agent_cmds(struct walk *w, int dir, const char *name,
			  const char *base_rel)
{
	char base[PATH_MAX], file[PATH_MAX];
	struct cmds c = {.w = w, .file = file, .base = base};
	struct ltd_protected set = {.project = c.root, .home = getenv("HOME")};
	struct ltd_err err = {0};
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	int ret;

	if (set.home && set.home[0] != '/')
		set.home = NULL;
	memcpy(c.root, w->path, w->root_len);
	c.root[w->root_len] = '\0';
	if ((size_t)snprintf(base, sizeof(base), "%s%s%s", c.root,
			     *base_rel ? "/" : "", base_rel) >= sizeof(base) ||
	    (size_t)snprintf(file, sizeof(file), "%s/%s", w->path, name) >=
		    sizeof(file))
		return;
	ret = read_small(dir, name, &text, &len);
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
