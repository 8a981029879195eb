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
#include "common/text.h"
#include "protect/protected.h"

/* What ltd_protected_move_aside() appends. */
#define QUARANTINE_SUFFIX ".ltd-native-quarantine"

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

static bool changed(const struct stat *st, struct timespec since)
{
	return st->st_ctim.tv_sec > since.tv_sec ||
	       (st->st_ctim.tv_sec == since.tv_sec &&
		st->st_ctim.tv_nsec >= since.tv_nsec);
}

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
	fputs(" in its directory\n", l->out);
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

static int open_beneath(int dir, const char *name)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
	};

	return (int)syscall(SYS_openat2, dir, name, &how, sizeof(how));
}

static void look_in(struct look *l, int dir, int depth, bool said);

/* One entry @name of @dir. */
static void entry(struct look *l, int dir, const char *name, int depth,
		  bool said)
{
	struct stat st;
	size_t n = strlen(l->path);
	_cleanup_close_ int sub = -1;

	if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		l->over = true; /* in a directory it could only open */
		return;
	}
	/* One the command made (the whole directory is looked at, an
	 * unreadable one opened again: none is made where this run does not
	 * see it); not one moved aside already. */
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		if (changed(&st, l->since) && !strstr(name, QUARANTINE_SUFFIX))
			move_aside(l, dir, name, &st);
		return;
	}
	if (S_ISREG(st.st_mode)) {
		if ((said || (l->kind == LTD_AGENTSTATE_AUTH &&
			      watched(l, name, depth))) &&
		    changed(&st, l->since))
			written(l, name);
		return;
	}
	if (depth + 1 >= LTD_AGENTSTATE_MAX_DEPTH ||
	    n + 1 + strlen(name) >= sizeof(l->path)) {
		l->over = true;
		return;
	}
	/* One the command made unreadable (0111: a reader can still go
	 * through it; 000: in a later run) is ours to open again. */
	if ((sub = open_beneath(dir, name)) < 0 && errno == EACCES &&
	    fchmodat(dir, name, (st.st_mode & 07777) | S_IRWXU, 0) == 0)
		sub = open_beneath(dir, name);
	if (sub < 0) {
		l->over = true;
		return;
	}
	snprintf(l->path + n, sizeof(l->path) - n, "/%s", name);
	look_in(l, sub, depth + 1, said || watched(l, name, depth));
	l->path[n] = '\0';
}

static void look_in(struct look *l, int dir, int depth, bool said)
{
	_cleanup_close_ int fd = dup(dir);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;

	if (!d)
		return;
	fd = -1; /* the DIR's now */
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (++l->entries > LTD_AGENTSTATE_MAX_ENTRIES) {
			l->over = true;
			break;
		}
		entry(l, dirfd(d), e->d_name, depth, said);
	}
	closedir(d);
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

	/* The bind's own directory, made unreadable from the cage (the
	 * path has no link: it was the cage's mount point). */
	if (fd < 0 && errno == EACCES && chmod(dir, 0700) == 0)
		fd = (int)syscall(SYS_openat2, AT_FDCWD, dir, &how,
				  sizeof(how));

	if (!l) {
		if (fd >= 0)
			close(fd);
		return;
	}
	*l = (struct look){.out = out, .kind = kind, .since = since};
	snprintf(l->path, sizeof(l->path), "%s", dir);
	l->root_len = strlen(l->path);
	if (fd >= 0)
		look_in(l, fd, 0, false);
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
