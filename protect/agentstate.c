// SPDX-License-Identifier: GPL-2.0-or-later
/* Claude Code's state for the project, looked at when the run ends (see
 * agentstate.h). */
#include "protect/agentstate.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/dir.h"
#include "common/vec.h"
#include "common/text.h"
#include "protect/protected.h"

/* Names whose files a reader takes as instructions or configuration:
 * Claude Code's (settings, hooks, commands, agents, skills, plugins,
 * its MCP servers), Codex's config.toml, Gemini CLI's extensions.  Not
 * Claude Code's .claude.json, which it rewrites at every start (its user
 * MCP servers there are not said: decision 0160). */
static const char *const config_names[] = {
	"settings.json",
	"settings.local.json",
	"mcp.json",
	".mcp.json",
	"config.toml",
	"hooks",
	"commands",
	"agents",
	"skills",
	"plugins",
	"extensions",
	/* With CLAUDE_CONFIG_DIR there, every project's memory, and the
	 * user's own instructions, loaded in every project. */
	"memory",
	"CLAUDE.md",
	"rules",
};

/* Files written that are said, by name, in the one line that says them. */
#define SAID_BY_NAME 3

struct look {
	FILE *out;
	enum ltd_agentstate_kind kind;
	struct timespec since;
	char path[PATH_MAX]; /* the directory being read, shown */
	size_t root_len;     /* of the directory looked at, in path */
	size_t entries;
	bool over;
	size_t n_written; /* files said, the first by name */
	char written[SAID_BY_NAME][PATH_MAX];
};

static const char *kind(mode_t mode)
{
	if (S_ISLNK(mode))
		return "a symbolic link, which it would follow";
	if (S_ISFIFO(mode))
		return "a FIFO, on which it would block";
	if (S_ISSOCK(mode))
		return "a socket";
	return "a device";
}

static void say_start(struct look *l, const char *name)
{
	fputs("ltd-native: warning: the command made ", l->out);
	ltd_fput_shown(l->out, l->path);
	fputc('/', l->out);
	ltd_fput_shown(l->out, name);
}

/* @name in @dir, not a file or directory, made during the run: aside. */
static void move_aside(struct look *l, int dir, const char *name,
		       const struct stat *st)
{
	char to[NAME_MAX + 64];
	int ret = ltd_protected_move_aside(dir, name, to, sizeof(to));

	say_start(l, name);
	fprintf(l->out, ", %s, in %s: ", kind(st->st_mode),
		l->kind == LTD_AGENTSTATE_CLAUDE_PROJECT
			? "Claude Code's state for this project, which Claude "
			  "Code on the host reads"
			: "the auth directory every run shares");
	if (ret < 0) {
		fprintf(l->out,
			"it could NOT be moved aside (%s): remove it before "
			"you start Claude Code or your next run\n",
			strerror(-ret));
		return;
	}
	fputs("moved aside to ", l->out);
	ltd_fput_shown(l->out, to);
	fputs(" in its directory: the command made it, remove it\n", l->out);
}

/* @name in the directory being read, written by the command: kept for
 * the one line say_written() prints. */
static void written(struct look *l, const char *name)
{
	if (l->n_written < SAID_BY_NAME)
		snprintf(l->written[l->n_written], sizeof(l->written[0]),
			 "%s%s%s",
			 l->path + l->root_len + (l->path[l->root_len] == '/'),
			 l->path[l->root_len] ? "/" : "", name);
	l->n_written++;
}

static void say_written(struct look *l, const char *dir)
{
	if (!l->n_written)
		return;
	fputs("ltd-native: warning: the command wrote ", l->out);
	for (size_t i = 0; i < l->n_written && i < SAID_BY_NAME; i++) {
		fputs(i ? ", " : "", l->out);
		ltd_fput_shown(l->out, l->written[i]);
	}
	if (l->n_written > SAID_BY_NAME)
		fprintf(l->out, " and %zu more", l->n_written - SAID_BY_NAME);
	fputs(" in ", l->out);
	ltd_fput_shown(l->out, dir);
	if (l->kind == LTD_AGENTSTATE_CLAUDE_PROJECT)
		fputs(", Claude Code's memory for this project (it loads "
		      "MEMORY.md into its next session here, the others when "
		      "it needs them): read what the command wrote before you "
		      "start Claude Code here\n",
		      l->out);
	else
		fputs(", the auth directory every run shares: agent "
		      "configuration, memory or instructions that the agent "
		      "of every later run, in any project, reads (and runs the "
		      "hooks and servers it names): read it before your next "
		      "run\n",
		      l->out);
}

/* Entering @name at @depth, or a file @name there: what is said of the
 * files in it. */
static bool watched(const struct look *l, const char *name, int depth)
{
	if (l->kind == LTD_AGENTSTATE_CLAUDE_PROJECT)
		return !depth && !strcmp(name, "memory");
	for (size_t i = 0; i < sizeof(config_names) / sizeof(config_names[0]);
	     i++)
		if (!strcmp(name, config_names[i]))
			return true;
	return false;
}

static void look_in(struct look *l, int dir, int depth, bool said, bool fresh);

/* The directory @name in @dir, which the command made unreadable (0111: a
 * reader still goes through it; 000: in a later run), opened again: made
 * 0700 through a handle on the very directory fstatat saw (@st), never
 * by its name (a concurrent cage could swap a link in). */
static int reopen(int dir, const char *name, const struct stat *st)
{
	struct open_how how = {
		.flags = O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
	};
	_cleanup_close_ int p =
		(int)syscall(SYS_openat2, dir, name, &how, sizeof(how));
	char proc[64];
	struct stat now;

	if (p < 0 || fstat(p, &now) < 0 || !S_ISDIR(now.st_mode) ||
	    now.st_ino != st->st_ino || now.st_dev != st->st_dev)
		return -1;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", p);
	if (chmod(proc, 0700) < 0)
		return -1;
	return openat(p, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/* One entry @name of @dir; @fresh: a directory on its way was made or
 * moved in during the run (what it holds is the command's, whatever the
 * ctimes inside say). */
static void entry(struct look *l, int dir, const char *name, int depth,
		  bool said, bool fresh)
{
	struct stat st;
	size_t n = strlen(l->path);
	_cleanup_close_ int sub = -1;

	if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		l->over = true; /* in a directory it could only open */
		return;
	}
	fresh = fresh || ltd_ctime_since(&st, l->since);
	/* One the command made (the whole directory is looked at, an
	 * unreadable one opened again: none is made where this run does not
	 * see it). */
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		if (fresh)
			move_aside(l, dir, name, &st);
		return;
	}
	if (S_ISREG(st.st_mode)) {
		if ((said || (l->kind == LTD_AGENTSTATE_AUTH &&
			      watched(l, name, depth))) &&
		    fresh)
			written(l, name);
		return;
	}
	if (depth + 1 >= LTD_AGENTSTATE_MAX_DEPTH ||
	    n + 1 + strlen(name) >= sizeof(l->path)) {
		l->over = true;
		return;
	}
	if ((sub = ltd_dir_open_beneath(dir, name)) < 0 && errno == EACCES)
		sub = reopen(dir, name, &st);
	if (sub < 0) {
		l->over = true;
		return;
	}
	snprintf(l->path + n, sizeof(l->path) - n, "/%s", name);
	look_in(l, sub, depth + 1, said || watched(l, name, depth), fresh);
	l->path[n] = '\0';
}

/* What a directory being read at @depth holds that is to be judged. */
struct wanted {
	const struct look *l;
	int depth;
	bool said;
};

/* All but a plain file nothing would say (the auth directory holds every
 * project's transcripts: none is copied, none is lstat'ed). */
static bool want(void *ctx, const char *name, unsigned char type)
{
	const struct wanted *w = ctx;

	return type != DT_REG || w->said ||
	       (w->l->kind == LTD_AGENTSTATE_AUTH &&
		watched(w->l, name, w->depth));
}

/* Every name of @dir read first, then judged: one moved aside is not met
 * again under its new name. */
static void look_in(struct look *l, int dir, int depth, bool said, bool fresh)
{
	struct wanted w = {l, depth, said};
	char **names = NULL;
	size_t n = 0;

	if (ltd_dir_names_if(dir, 0, want, &w, &names, NULL, &n) < 0) {
		l->over = true;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (++l->entries > LTD_AGENTSTATE_MAX_ENTRIES) {
			l->over = true;
			break;
		}
		entry(l, dir, names[i], depth, said, fresh);
	}
	ltd_strv_free(names, n);
}

void ltd_agentstate_report(FILE *out, const char *dir,
			   enum ltd_agentstate_kind kind, struct timespec since)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS,
	};
	int fd = (int)syscall(SYS_openat2, AT_FDCWD, dir, &how, sizeof(how));
	struct look *l = calloc(1, sizeof(*l));

	/* The bind's own directory, made unreadable from the cage. */
	if (fd < 0 && errno == EACCES) {
		struct open_how ph = {
			.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
			.resolve = RESOLVE_NO_SYMLINKS,
		};
		_cleanup_close_ int p = (int)syscall(SYS_openat2, AT_FDCWD, dir,
						     &ph, sizeof(ph));
		struct stat st;

		if (p >= 0 && fstat(p, &st) == 0)
			fd = reopen(p, ".", &st);
	}

	if (!l) {
		if (fd >= 0)
			close(fd);
		return;
	}
	*l = (struct look){.out = out, .kind = kind, .since = since};
	snprintf(l->path, sizeof(l->path), "%s", dir);
	l->root_len = strlen(l->path);
	if (fd >= 0)
		look_in(l, fd, 0, false, false);
	say_written(l, dir);
	if (fd < 0 || l->over) {
		fputs("ltd-native: warning: ltd-native could not look through "
		      "all of ",
		      out);
		ltd_fput_shown(out, dir);
		fputs(kind == LTD_AGENTSTATE_CLAUDE_PROJECT
			      ? ", Claude Code's state for this project, for "
				"links and memory the command left there\n"
			      : ", the auth directory every run shares, for "
				"links and configuration the command left "
				"there\n",
		      out);
	}
	if (fd >= 0)
		close(fd);
	free(l);
}
