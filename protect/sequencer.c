// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * git's sequencer state after the run (see sequencer.h).  Each directory
 * is opened beneath the one above it, never through a link or across a
 * mount; a changed file is one whose ctime (which nothing in the cage can
 * set back) is not older than the run.
 */
#include "protect/sequencer.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/base.h"
#include "common/cleanup.h"
#include "common/dir.h"
#include "common/path.h"
#include "common/text.h"
#include "common/vec.h"

/* A todo list longer than this is read this far (git's own are lines of
 * ~60 bytes; an exec line hidden past 1 MiB is said as "cut"). */
#define TODO_MAX   (1 << 20)
#define EXEC_SHOWN 5

/* The three kinds of state, and how the user goes on with each. */
static const struct state {
	const char *name;
	const char *todo; /* the todo list's file, NULL: none */
	const char *what;
	const char *goes_on;
} states[] = {
	{"rebase-merge", "git-rebase-todo", "a rebase in progress",
	 "'git rebase --continue'"},
	{"rebase-apply", NULL, "a rebase or 'git am' in progress",
	 "'git rebase --continue' or 'git am --continue' (its patches)"},
	{"sequencer", "todo", "a cherry-pick or revert in progress",
	 "'git cherry-pick --continue' or 'git revert --continue'"},
};

static int open_beneath(int dir, const char *name, int flags)
{
	struct open_how how = {
		.flags = (uint64_t)flags | O_NOFOLLOW | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
	};

	return (int)syscall(SYS_openat2, dir, name, &how, sizeof(how));
}

/* The directory @fd, or an entry in it, changed at or after @since. */
static bool changed(int fd, struct timespec since)
{
	char **names = NULL;
	size_t n = 0;
	struct stat st;
	bool yes;

	if (fstat(fd, &st) < 0 || ltd_ctime_since(&st, since))
		return true;
	if (ltd_dir_names(fd, 0, &names, &n) < 0)
		return true; /* unreadable: said rather than passed over */
	yes = false;
	for (size_t i = 0; !yes && i < n; i++)
		yes = fstatat(fd, names[i], &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		      ltd_ctime_since(&st, since);
	ltd_strv_free(names, n);
	return yes;
}

/* The todo list @name in @dir, read whole (up to TODO_MAX): malloc'd,
 * NUL-terminated, or NULL. */
static char *read_todo(int dir, const char *name, bool *cut)
{
	_cleanup_close_ int fd = open_beneath(dir, name, O_RDONLY);
	char *buf;
	size_t len = 0;
	ssize_t n;
	struct stat st;

	*cut = false;
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return NULL;
	buf = malloc(TODO_MAX + 1);
	if (!buf)
		return NULL;
	while (len < TODO_MAX && (n = read(fd, buf + len, TODO_MAX - len)) > 0)
		len += (size_t)n;
	*cut = len == TODO_MAX;
	buf[len] = '\0';
	return buf;
}

/* @line (NUL-terminated, no newline) is an exec command: "exec CMD" or
 * "x CMD", as git's todo parser takes it (leading blanks skipped); its
 * command in *@cmd. */
static bool is_exec(char *line, char **cmd)
{
	line += strspn(line, " \t");
	if (!strncmp(line, "exec", 4) && (line[4] == ' ' || line[4] == '\t'))
		line += 4;
	else if (line[0] == 'x' && (line[1] == ' ' || line[1] == '\t'))
		line += 1;
	else
		return false;
	*cmd = line + strspn(line, " \t");
	return true;
}

/* The exec lines of @todo (split in place): how many, the first
 * EXEC_SHOWN of their commands in @cmds. */
static size_t find_execs(char *todo, char *cmds[EXEC_SHOWN])
{
	size_t n = 0;

	for (char *line = todo, *next; line; line = next) {
		char *cmd;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!is_exec(line, &cmd))
			continue;
		if (n < EXEC_SHOWN)
			cmds[n] = cmd;
		n++;
	}
	return n;
}

static void say_state(FILE *out, const char *path, const struct state *s,
		      int fd)
{
	_cleanup_free_ char *todo = NULL;
	char *cmds[EXEC_SHOWN];
	bool cut = false, odd = false;
	struct stat st;
	size_t n = 0;

	fputs("ltd-native: warning: the command created or changed ", out);
	ltd_fput_shown(out, path);
	fprintf(out, " (%s)", s->what);
	if (s->todo && fd >= 0 &&
	    fstatat(fd, s->todo, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		odd = !S_ISREG(st.st_mode);
		todo = odd ? NULL : read_todo(fd, s->todo, &cut);
	}
	if (todo)
		n = find_execs(todo, cmds);
	if (n) {
		fprintf(out,
			": its todo list runs %zu exec command%s on the host "
			"at your next %s",
			n, n == 1 ? "" : "s", s->goes_on);
		for (size_t i = 0; i < n && i < EXEC_SHOWN; i++) {
			fputs(i ? "; " : ": ", out);
			ltd_fput_shown(out, cmds[i]);
		}
		if (n > EXEC_SHOWN)
			fprintf(out, "; and %zu more", n - EXEC_SHOWN);
	} else {
		fprintf(out, ": %s on the host goes on with it", s->goes_on);
	}
	if (cut)
		fputs(" (its todo list was read only to 1 MiB)", out);
	if (odd)
		fputs(" (its todo list is not a regular file: a link git would "
		      "follow; ltd-native did not read it)",
		      out);
	if (fd < 0)
		fputs(" (it is not a directory reached without a link: "
		      "ltd-native did not look into it)",
		      out);
	fputs("; review it before you go on, or abort it\n", out);
}

/* The state directories in the git directory @gd (@gd_path, for
 * messages). */
static void report_gitdir(FILE *out, int gd, const char *gd_path,
			  struct timespec since)
{
	for (size_t i = 0; i < ARRAY_SIZE(states); i++) {
		const struct state *s = &states[i];
		_cleanup_close_ int fd = -1;
		char path[PATH_MAX];
		struct stat st;

		if (fstatat(gd, s->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (ltd_path_join(path, sizeof(path), gd_path, s->name) < 0)
			continue;
		fd = S_ISDIR(st.st_mode)
			     ? open_beneath(gd, s->name, O_RDONLY | O_DIRECTORY)
			     : -1;
		if (fd >= 0 ? changed(fd, since) : ltd_ctime_since(&st, since))
			say_state(out, path, s, fd);
	}
}

void ltd_sequencer_report(FILE *out, const char *project, struct timespec since)
{
	struct open_how how = {
		.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS,
	};
	_cleanup_close_ int proj =
		(int)syscall(SYS_openat2, AT_FDCWD, project, &how, sizeof(how));
	_cleanup_close_ int git = -1, wt = -1;
	char gd_path[PATH_MAX], wt_path[PATH_MAX];
	char **names = NULL;
	size_t n = 0;

	if (proj < 0 ||
	    (git = open_beneath(proj, ".git", O_RDONLY | O_DIRECTORY)) < 0 ||
	    ltd_path_join(gd_path, sizeof(gd_path), project, ".git") < 0)
		return;
	report_gitdir(out, git, gd_path, since);
	/* Each linked worktree's own state lies in its directory here. */
	wt = open_beneath(git, "worktrees", O_RDONLY | O_DIRECTORY);
	if (wt < 0 || ltd_dir_names(wt, 0, &names, &n) < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		_cleanup_close_ int one =
			open_beneath(wt, names[i], O_RDONLY | O_DIRECTORY);

		if (one >= 0 &&
		    ltd_path_fmt(wt_path, sizeof(wt_path), "%s/worktrees/%s",
				 gd_path, names[i]) == 0)
			report_gitdir(out, one, wt_path, since);
	}
	ltd_strv_free(names, n);
}
