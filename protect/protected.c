// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The protected set (see protected.h), and what it is after the run.
 *
 * A protected path that did not exist when the cage started cannot be
 * mounted read-only (its mount point would have to be created on the host),
 * so the command may create it.  Say so when it did: code there runs when
 * the user next uses git in the project.
 *
 * Each path is looked at from the project's directory, never through a
 * link: the command could have made a missing .git a link to anywhere on
 * the host (an automount that hangs, another repository), and a walk
 * through it would compare the wrong file.
 */
#include "protect/protected.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/base.h"
#include "common/cleanup.h"
#include "common/lstatmemo.h"
#include "common/path.h"
#include "common/text.h"
#include "common/vec.h"
#include "policy/option.h"
#include "protect/agentprotect.h"
#include "protect/hostrun.h"

void ltd_protected_for(struct ltd_protected *s, const struct ltd_policy *p)
{
	s->project = p->project;
	s->home = p->id.home;
}

void ltd_protected_free(struct ltd_protected *s)
{
	ltd_strv_free(s->paths, s->n);
	ltd_strv_free(s->warnings, s->n_warnings);
	s->paths = s->warnings = NULL;
	s->n = s->n_warnings = 0;
}

bool ltd_protected_has(const struct ltd_protected *s, const char *path)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->paths[i], path) == 0)
			return true;
	return false;
}

int ltd_protected_add(struct ltd_protected *s, const char *path,
		      struct ltd_err *err)
{
	if (ltd_protected_has(s, path))
		return 0;
	if (ltd_strv_push(&s->paths, &s->n, path) < 0)
		return ltd_err_set(err, ENOMEM, "out of memory");
	return 0;
}

int ltd_protected_add_names(struct ltd_protected *s, const char *const *names,
			    size_t n, struct ltd_err *err)
{
	char path[PATH_MAX];
	int ret = 0;

	for (size_t i = 0; !ret && i < n; i++) {
		if (ltd_path_fmt(path, sizeof(path), "%s/%s", s->project,
				 names[i]) < 0)
			return ltd_err_set(err, ENAMETOOLONG,
					   "--project: path too long");
		ret = ltd_protected_add(s, path, err);
	}
	return ret;
}

int ltd_protected_warn(struct ltd_protected *s, struct ltd_err *err,
		       const char *fmt, ...)
{
	_cleanup_free_ char *text = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0) {
		text = NULL;
		return ltd_err_set(err, ENOMEM, "out of memory");
	}
	if (ltd_policy_add_note(&s->warnings, &s->n_warnings, "%s", text) < 0)
		return ltd_err_set(err, ENOMEM, "out of memory");
	return 0;
}

int ltd_protected_check_links(const struct ltd_protected *s,
			      struct ltd_err *err)
{
	/* Most protected paths begin with a name at the project's top
	 * (.git, .claude, .vscode...): one listing of it answers those. */
	struct ltd_lstat_memo memo = {.list_dir = s->project};
	char buf[PATH_MAX];
	int ret = 0;

	for (size_t i = 0; !ret && i < s->n; i++) {
		const char *path = s->paths[i];
		const char *rel = ltd_path_below(path, s->project);

		if (!rel || strlen(path) >= sizeof(buf))
			continue;
		memcpy(buf, path, strlen(path) + 1);
		for (char *c = buf + (rel - path);; c++) {
			char was = *c;
			int state;

			if (was != '/' && was != '\0')
				continue;
			*c = '\0';
			state = ltd_lstat_memo(&memo, buf);
			if (state == LTD_LSTAT_MISSING)
				break; /* missing: watched at exit */
			if (state == LTD_LSTAT_LINK) {
				ret = ltd_err_set(
					err, ELOOP,
					"%s is a symbolic link in the project: "
					"ltd-native keeps %s read-only, but "
					"the command could point the link at "
					"files of its own, which would then "
					"run on the host; make it a real file "
					"or directory (or use "
					"--unsafe-writable-git)",
					buf, path);
				break;
			}
			*c = was;
			if (!was)
				break;
		}
	}
	ltd_lstat_memo_free(&memo);
	return ret;
}

/* @rel under the project's directory @proj: what it is, or absent, or
 * unreachable without a link (or a mount, or a directory we may not
 * search) on the way. */
static struct ltd_protected_id identify(int proj, const char *rel)
{
	const struct ltd_protected_id unreachable = {
		.type = LTD_PROTECTED_UNREACHABLE};
	/* O_PATH|O_NOFOLLOW: a link as the last component is itself the
	 * answer (RESOLVE_NO_SYMLINKS allows that one case); no automount
	 * is triggered by the last component, and none lies on a way
	 * without links inside the project unless the user put it there. */
	struct open_how how = {
		.flags = O_PATH | O_NOFOLLOW | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
	};
	_cleanup_close_ int fd = -1;
	struct stat st;

	if (proj < 0)
		return unreachable;
	/* EAGAIN: a rename elsewhere raced the walk; try again (only then:
	 * a missing path, the common case, is one call, not three). */
	for (int i = 0; i < 3 && fd < 0; i++) {
		fd = (int)syscall(SYS_openat2, proj, rel, &how, sizeof(how));
		if (fd < 0 && errno != EAGAIN)
			break;
	}
	if (fd < 0 && (errno == ENOENT || errno == ENOTDIR))
		return (struct ltd_protected_id){0};
	if (fd < 0 || fstat(fd, &st) < 0)
		return unreachable;
	return (struct ltd_protected_id){st.st_dev, st.st_ino,
					 st.st_mode & S_IFMT};
}

/* Protected path @i lies in an earlier one found absent (.git/hooks in a
 * missing .git): absent too, without looking. */
static bool in_absent(const struct ltd_protected *s,
		      const struct ltd_protected_id *ids, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!ids[j].type && ltd_path_below(s->paths[i], s->paths[j]) &&
		    ltd_path_below(s->paths[j], s->project))
			return true;
	return false;
}

/* @rel's first name is not at the project's top (@m lists it): @rel is
 * absent, without a look of its own. */
static bool top_absent(struct ltd_lstat_memo *m, const struct ltd_protected *s,
		       const char *rel)
{
	char top[PATH_MAX];
	size_t n = strcspn(rel, "/");

	if (snprintf(top, sizeof(top), "%s/%.*s", s->project, (int)n, rel) >=
	    (int)sizeof(top))
		return false;
	return ltd_lstat_memo(m, top) == LTD_LSTAT_MISSING;
}

struct ltd_protected_id *ltd_protected_ids(const struct ltd_protected *s)
{
	struct ltd_protected_id *ids = calloc(s->n + 1, sizeof(*ids));
	/* The project's top, listed once: most paths are missing there. */
	struct ltd_lstat_memo memo = {.list_dir = s->project};
	/* The project is named by its real path (validation refuses a
	 * link), and the cage cannot change what lies above it. */
	struct open_how how = {
		.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS,
	};
	_cleanup_close_ int proj = -1;

	if (!ids)
		return NULL;
	proj = (int)syscall(SYS_openat2, AT_FDCWD, s->project, &how,
			    sizeof(how));
	for (size_t i = 0; i < s->n; i++) {
		const char *rel = ltd_path_below(s->paths[i], s->project);

		/* Every protected path lies in the project; one that did
		 * not would not be the cage's to change. */
		if (!rel || in_absent(s, ids, i) || top_absent(&memo, s, rel))
			continue;
		ids[i] = identify(proj, rel);
	}
	ltd_lstat_memo_free(&memo);
	return ids;
}

/* Any path created, replaced or redirected during the run; control bytes
 * shown as '?' (the names come from git's configuration). */
void ltd_protected_report(FILE *out, const struct ltd_protected *s,
			  const struct ltd_protected_id *before,
			  const struct ltd_protected_id *after)
{
	const char *covered = NULL;

	for (size_t i = 0; before && after && i < s->n; i++) {
		const struct ltd_protected_id *a = &after[i], *b = &before[i];

		if (!a->type || (a->type == b->type && a->dev == b->dev &&
				 a->ino == b->ino))
			continue;
		/* A new .git covers all that lies in it. */
		if (covered && ltd_path_is_under(s->paths[i], covered))
			continue;
		fputs("ltd-native: warning: ", out);
		if (a->type == LTD_PROTECTED_UNREACHABLE) {
			ltd_fput_shown(out, s->paths[i]);
			fputs(", which git, Claude Code or ltd-native runs "
			      "from or reads its configuration from, can no "
			      "longer be reached without following a symbolic "
			      "link (or crossing a mount): the command may "
			      "have redirected it; ltd-native did not follow "
			      "it: review it before running git, Claude Code "
			      "or ltd-native on the host\n",
			      out);
		} else {
			fputs("the command created ", out);
			ltd_fput_shown(out, s->paths[i]);
			fputs(", which git, Claude Code or ltd-native runs "
			      "from or reads its configuration from: review "
			      "it before running git, Claude Code or "
			      "ltd-native on the host\n",
			      out);
		}
		covered = s->paths[i];
	}
}

#define QUARANTINE ".ltd-native-quarantine"

/* @dirrel under @proj ("." for the project), opened for renaming and
 * chmod, reached without a link or a mount on the way. */
static int open_dir(int proj, const char *dirrel)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
	};

	return (int)syscall(SYS_openat2, proj, dirrel, &how, sizeof(how));
}

/* See protected.h. */
void ltd_protected_aside_name(char *to, size_t size, const char *prefix,
			      const char *base, int k)
{
	char tail[sizeof(QUARANTINE) + 16];
	size_t keep = strlen(base), room;

	if (k)
		snprintf(tail, sizeof(tail), "%s.%d", QUARANTINE, k);
	else
		snprintf(tail, sizeof(tail), "%s", QUARANTINE);
	room = NAME_MAX - strlen(tail) - strlen(prefix);
	/* Cut where a character begins (UTF-8's continuation bytes are
	 * 10xxxxxx): a name of 230 bytes or more still goes aside. */
	if (keep > room) {
		keep = room;
		while (keep && ((unsigned char)base[keep] & 0xC0) == 0x80)
			keep--;
	}
	snprintf(to, size, "%s%.*s%s", prefix, (int)keep, base, tail);
}

int ltd_protected_move_aside(int dir, const char *base, char *to, size_t size)
{
	return ltd_protected_move_aside_to(dir, base, dir, "", to, size);
}

int ltd_protected_move_aside_to(int dir, const char *base, int dest,
				const char *prefix, char *to, size_t size)
{
	struct stat st;
	int ret = -EEXIST;

	for (int k = 0; k < 10 && ret == -EEXIST; k++) {
		ltd_protected_aside_name(to, size, prefix, base, k);
		ret = renameat2(dir, base, dest, to, RENAME_NOREPLACE) < 0
			      ? -errno
			      : 0;
		if (ret == -EACCES && fstat(dir, &st) == 0 &&
		    !(st.st_mode & S_IWUSR) &&
		    fchmod(dir, (st.st_mode & 07777) | S_IWUSR | S_IXUSR) == 0)
			ret = -EEXIST; /* try again, now writable */
	}
	return ret;
}

/* Who runs a path the command created, and what from it: Claude Code's
 * settings, or a row of hostrun.c's table. */
struct reader {
	const char *who;  /* "Claude Code" */
	const char *what; /* NULL: Claude Code's own words */
};

/* @rel is one of Claude Code's settings files, or a path of another host
 * program's (a FILE or DIR entry itself, or a name a PATTERN matches). */
static bool read_by(const char *rel, struct reader *r)
{
	static const char *const settings[] = {
		".claude/settings.json",
		".claude/settings.local.json",
		".mcp.json",
	};
	const struct ltd_hostrun *h;

	for (size_t k = 0; k < ARRAY_SIZE(settings); k++)
		if (!strcmp(rel, settings[k])) {
			*r = (struct reader){"Claude Code", NULL};
			return true;
		}
	h = ltd_agentprotect_who(rel);
	/* The entry itself: what lies in a DIR entry goes with it. */
	if (!h || (h->kind != LTD_HOSTRUN_PATTERN && strcmp(rel, h->path)))
		return false;
	*r = (struct reader){h->program, h->runs};
	return true;
}

/* What was done with @path, created by the command (through a link of its
 * own, @base, when @linked): moved aside to @to, or not (@ret < 0). */
static void say_quarantined(FILE *out, const char *path, bool linked,
			    const char *base, const char *to, int ret,
			    const struct reader *r)
{
	fputs("ltd-native: warning: the command created ", out);
	ltd_fput_shown(out, path);
	if (linked) {
		fputs(" through a symbolic link (or a non-directory) of its "
		      "own, ",
		      out);
		ltd_fput_shown(out, base);
	}
	if (ret < 0 && !r->what) {
		fprintf(out,
			", which Claude Code on the host reads (and runs the "
			"hooks it names) at its next start, and it could NOT "
			"be moved aside (%s): remove it before you start "
			"Claude Code here\n",
			strerror(-ret));
		return;
	}
	if (ret < 0) {
		fprintf(out,
			", which %s on the host runs from (%s), and it could "
			"NOT be moved aside (%s): remove it before you use %s "
			"here\n",
			r->who, r->what, strerror(-ret), r->who);
		return;
	}
	if (!r->what)
		fputs(", which Claude Code on the host would read (and run "
		      "the hooks it names) at its next start: moved ",
		      out);
	else
		fprintf(out, ", which %s on the host runs from (%s): moved ",
			r->who, r->what);
	ltd_fput_shown(out, base);
	fputs(" aside to ", out);
	ltd_fput_shown(out, to);
	fputs(" in its directory; review it, then move it back\n", out);
}

void ltd_protected_quarantine(FILE *out, const struct ltd_protected *s,
			      const struct ltd_protected_id *before,
			      struct ltd_protected_id *after)
{
	_cleanup_close_ int proj = (int)syscall(
		SYS_openat2, AT_FDCWD, s->project,
		&(struct open_how){.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
				   .resolve = RESOLVE_NO_SYMLINKS},
		sizeof(struct open_how));

	for (size_t i = 0; before && after && i < s->n; i++) {
		const char *path = s->paths[i], *rel, *slash;
		char dirrel[64], base[64], to[96];
		_cleanup_close_ int dir = -1;
		bool linked = false;
		struct reader r;
		struct stat st;
		int ret;

		rel = ltd_path_below(path, s->project);
		if (before[i].type || !after[i].type || !rel ||
		    !read_by(rel, &r))
			continue;
		/* Created, whatever it is (a link Claude Code would follow
		 * too).  Its directory the command made a link or something
		 * else (.claude did not exist, or it would have been pinned):
		 * that goes aside. */
		slash = strrchr(rel, '/');
		snprintf(dirrel, sizeof(dirrel), "%.*s",
			 slash ? (int)(slash - rel) : 1, slash ? rel : ".");
		snprintf(base, sizeof(base), "%s", slash ? slash + 1 : rel);
		if (slash && (fstatat(proj, dirrel, &st, AT_SYMLINK_NOFOLLOW) ||
			      !S_ISDIR(st.st_mode))) {
			snprintf(base, sizeof(base), "%s", dirrel);
			snprintf(dirrel, sizeof(dirrel), ".");
			linked = true;
		}
		dir = proj < 0 ? -1 : open_dir(proj, dirrel);
		/* Gone with a directory moved aside for another of them. */
		if (dir >= 0 &&
		    fstatat(dir, base, &st, AT_SYMLINK_NOFOLLOW) < 0 &&
		    errno == ENOENT) {
			after[i] = (struct ltd_protected_id){0};
			continue;
		}
		ret = dir < 0 ? -errno
			      : ltd_protected_move_aside(dir, base, to,
							 sizeof(to));
		say_quarantined(out, path, linked, base, to, ret, &r);
		if (ret >= 0)
			after[i] = (struct ltd_protected_id){0};
	}
}
