// SPDX-License-Identifier: GPL-2.0-or-later
/* The agents' instruction files in the project (see agentinstr.h). */
#include "protect/agentinstr.h"

#include <dirent.h>
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

#include "common/cleanup.h"
#include "common/path.h"
#include "common/text.h"

#define QUARANTINE ".ltd-native-quarantine"

struct ltd_agentinstr {
	size_t n;
	struct {
		char rel[PATH_MAX];
		dev_t dev;
		ino_t ino;
	} e[LTD_AGENTINSTR_MAX];
};

/* One link or special file found at @rel (in @dir, as @name). */
typedef void (*found_fn)(void *ctx, int dir, const char *name, const char *rel,
			 const struct stat *st);

static const struct {
	const char *dir, *name, *who;
} files[] = {
	{".", "CLAUDE.md", "Claude Code"},
	{".", "CLAUDE.local.md", "Claude Code"},
	{".claude", "CLAUDE.md", "Claude Code"},
	{".", "AGENTS.md", "Codex"},
	{".", "AGENTS.override.md", "Codex"},
	{".", "GEMINI.md", "Gemini CLI"},
};

static int open_beneath(int dir, const char *name)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
	};

	return (int)syscall(SYS_openat2, dir, name, &how, sizeof(how));
}

static int open_project(const char *project)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS,
	};

	return (int)syscall(SYS_openat2, AT_FDCWD, project, &how, sizeof(how));
}

static bool special(mode_t mode)
{
	return !S_ISREG(mode) && !S_ISDIR(mode);
}

/* What .claude/rules holds, @depth deep at most; @rel its path so far. */
static void rules(int dir, char *rel, size_t size, int depth, found_fn fn,
		  void *ctx)
{
	_cleanup_close_ int fd = dup(dir);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	size_t n = strlen(rel);
	struct dirent *e;

	if (!d)
		return;
	fd = -1; /* the DIR's */
	while ((e = readdir(d))) {
		_cleanup_close_ int sub = -1;
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    snprintf(rel + n, size - n, "/%s", e->d_name) >=
			    (int)(size - n))
			continue;
		if (special(st.st_mode))
			fn(ctx, dirfd(d), e->d_name, rel, &st);
		else if (S_ISDIR(st.st_mode) && depth > 0 &&
			 (sub = open_beneath(dirfd(d), e->d_name)) >= 0)
			rules(sub, rel, size, depth - 1, fn, ctx);
		rel[n] = '\0';
	}
	closedir(d);
}

/* Each link or special file among the instruction files of @top. */
static void each(int top, found_fn fn, void *ctx)
{
	_cleanup_close_ int rdir = -1;
	char rel[PATH_MAX];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		_cleanup_close_ int dir = open_beneath(top, files[i].dir);
		struct stat st;

		snprintf(rel, sizeof(rel), "%s%s%s",
			 strcmp(files[i].dir, ".") ? files[i].dir : "",
			 strcmp(files[i].dir, ".") ? "/" : "", files[i].name);
		if (dir >= 0 &&
		    !fstatat(dir, files[i].name, &st, AT_SYMLINK_NOFOLLOW) &&
		    special(st.st_mode))
			fn(ctx, dir, files[i].name, rel, &st);
	}
	if ((rdir = open_beneath(top, ".claude/rules")) >= 0) {
		snprintf(rel, sizeof(rel), ".claude/rules");
		rules(rdir, rel, sizeof(rel), LTD_AGENTINSTR_RULES_DEPTH, fn,
		      ctx);
	}
}

static void keep(void *ctx, int dir, const char *name, const char *rel,
		 const struct stat *st)
{
	struct ltd_agentinstr *ids = ctx;

	(void)dir;
	(void)name;
	if (ids->n == LTD_AGENTINSTR_MAX)
		return;
	snprintf(ids->e[ids->n].rel, sizeof(ids->e[0].rel), "%s", rel);
	ids->e[ids->n].dev = st->st_dev;
	ids->e[ids->n].ino = st->st_ino;
	ids->n++;
}

struct ltd_agentinstr *ltd_agentinstr_ids(const char *project)
{
	_cleanup_close_ int top = open_project(project);
	struct ltd_agentinstr *ids;

	if (top < 0 || !(ids = calloc(1, sizeof(*ids))))
		return NULL;
	each(top, keep, ids);
	return ids;
}

struct judge {
	FILE *out;
	const char *project;
	int top;
	const struct ltd_agentinstr *before;
};

static bool was_there(const struct ltd_agentinstr *before, const char *rel,
		      const struct stat *st)
{
	for (size_t i = 0; before && i < before->n; i++)
		if (!strcmp(before->e[i].rel, rel) &&
		    before->e[i].dev == st->st_dev &&
		    before->e[i].ino == st->st_ino)
			return true;
	return false;
}

/* @rel leads out of the project: a link that resolves, on the host, to a
 * place outside it (one that leads nowhere has nothing to read), or a
 * FIFO, socket or device. */
static bool leads_out(const struct judge *j, const char *rel,
		      const struct stat *st)
{
	char path[PATH_MAX], real[PATH_MAX];

	if (!S_ISLNK(st->st_mode))
		return true;
	if (snprintf(path, sizeof(path), "%s/%s", j->project, rel) >=
	    (int)sizeof(path))
		return true;
	if (!realpath(path, real))
		return errno != ENOENT;
	return !ltd_path_is_under(real, j->project);
}

/* Where one of .claude/rules goes: .claude, out of what Claude Code
 * reads; any other, beside itself. */
static int aside(const struct judge *j, int dir, const char *name,
		 const char *rel, char *to, size_t size)
{
	const char *base = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
	bool in_rules = !strncmp(rel, ".claude/rules/", 14);
	_cleanup_close_ int dest =
		in_rules ? open_beneath(j->top, ".claude") : dup(dir);
	int ret = -EEXIST;

	if (dest < 0)
		return -errno;
	for (int k = 0; k < 10 && ret == -EEXIST; k++) {
		if (k)
			snprintf(to, size, "%s%s%s.%d",
				 in_rules ? "rules-" : "", base, QUARANTINE, k);
		else
			snprintf(to, size, "%s%s%s", in_rules ? "rules-" : "",
				 base, QUARANTINE);
		ret = renameat2(dir, name, dest, to, RENAME_NOREPLACE) < 0
			      ? -errno
			      : 0;
	}
	return ret;
}

static void judge_one(void *ctx, int dir, const char *name, const char *rel,
		      const struct stat *st)
{
	const struct judge *j = ctx;
	const char *who = !strcmp(name, "AGENTS.md") ||
					  !strcmp(name, "AGENTS.override.md")
				  ? "Codex"
			  : !strcmp(name, "GEMINI.md") ? "Gemini CLI"
						       : "Claude Code";
	char to[NAME_MAX + 64];
	int ret;

	if (was_there(j->before, rel, st) || !leads_out(j, rel, st))
		return;
	ret = aside(j, dir, name, rel, to, sizeof(to));
	fputs("ltd-native: warning: the command made ", j->out);
	ltd_fput_shown(j->out, j->project);
	fputc('/', j->out);
	ltd_fput_shown(j->out, rel);
	fprintf(j->out,
		" %s, which %s on the host loads into its prompt by "
		"itself: ",
		S_ISLNK(st->st_mode)
			? "a symbolic link out of the project (it would "
			  "read what the link leads to)"
		: S_ISFIFO(st->st_mode) ? "a FIFO (it would block on it)"
					: "a socket or device",
		who);
	if (ret < 0) {
		fprintf(j->out,
			"it could NOT be moved aside (%s): remove it before "
			"you start %s here\n",
			strerror(-ret), who);
		return;
	}
	fputs("moved aside to ", j->out);
	if (!strncmp(rel, ".claude/rules/", 14))
		fputs(".claude/", j->out);
	ltd_fput_shown(j->out, to);
	fputc('\n', j->out);
}

void ltd_agentinstr_report(FILE *out, const char *project,
			   const struct ltd_agentinstr *before)
{
	struct judge j = {.out = out, .project = project, .before = before};

	j.top = open_project(project);
	if (j.top < 0)
		return;
	each(j.top, judge_one, &j);
	close(j.top);
}
