// SPDX-License-Identifier: GPL-2.0-or-later
/*
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
#include "runtime/protected.h"

#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runtime/cleanup.h"
#include "runtime/mountplan.h"

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
	/* EAGAIN: a rename elsewhere raced the walk; try again. */
	for (int i = 0; i < 3 && fd < 0; i++)
		fd = (int)syscall(SYS_openat2, proj, rel, &how, sizeof(how));
	if (fd < 0 && (errno == ENOENT || errno == ENOTDIR))
		return (struct ltd_protected_id){0};
	if (fd < 0 || fstat(fd, &st) < 0)
		return unreachable;
	return (struct ltd_protected_id){st.st_dev, st.st_ino,
					 st.st_mode & S_IFMT};
}

struct ltd_protected_id *ltd_protected_ids(const struct ltd_policy *p)
{
	struct ltd_protected_id *ids = calloc(p->n_protected + 1, sizeof(*ids));
	/* The project is named by its real path (validation refuses a
	 * link), and the cage cannot change what lies above it. */
	struct open_how how = {
		.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS,
	};
	_cleanup_close_ int proj = -1;
	size_t n = strlen(p->project);

	if (!ids)
		return NULL;
	proj = (int)syscall(SYS_openat2, AT_FDCWD, p->project, &how,
			    sizeof(how));
	for (size_t i = 0; i < p->n_protected; i++) {
		const char *path = p->protected[i];

		/* Every protected path lies in the project; one that did
		 * not would not be the cage's to change. */
		if (!strncmp(path, p->project, n) && path[n] == '/')
			ids[i] = identify(proj, path + n + 1);
	}
	return ids;
}

/* Any path created, replaced or redirected during the run; control bytes
 * shown as '?' (the names come from git's configuration). */
void ltd_protected_report(FILE *out, const struct ltd_policy *p,
			  const struct ltd_protected_id *before,
			  const struct ltd_protected_id *after)
{
	const char *covered = NULL;

	for (size_t i = 0; before && after && i < p->n_protected; i++) {
		const struct ltd_protected_id *a = &after[i], *b = &before[i];

		if (!a->type || (a->type == b->type && a->dev == b->dev &&
				 a->ino == b->ino))
			continue;
		/* A new .git covers all that lies in it. */
		if (covered && ltd_path_is_under(p->protected[i], covered))
			continue;
		fputs("ltd-native: warning: ", out);
		if (a->type == LTD_PROTECTED_UNREACHABLE) {
			ltd_fput_shown(out, p->protected[i]);
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
			ltd_fput_shown(out, p->protected[i]);
			fputs(", which git, Claude Code or ltd-native runs "
			      "from or reads its configuration from: review "
			      "it before running git, Claude Code or "
			      "ltd-native on the host\n",
			      out);
		}
		covered = p->protected[i];
	}
}

#define QUARANTINE ".ltd-native-quarantine"

void ltd_protected_quarantine(FILE *out, const struct ltd_policy *p,
			      const struct ltd_protected_id *before,
			      struct ltd_protected_id *after)
{
	static const char *const settings[] = {
		".claude/settings.json",
		".claude/settings.local.json",
		".mcp.json",
	};
	struct open_how how = {
		.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
	};
	size_t n = strlen(p->project);

	for (size_t i = 0; before && after && i < p->n_protected; i++) {
		const char *path = p->protected[i], *rel, *base;
		_cleanup_close_ int proj = -1, dir = -1;
		char dirrel[64], to[64];
		bool ours = false;

		if (before[i].type || after[i].type != S_IFREG ||
		    strncmp(path, p->project, n) != 0 || path[n] != '/')
			continue;
		rel = path + n + 1;
		for (size_t k = 0; k < sizeof(settings) / sizeof(*settings);
		     k++)
			ours |= !strcmp(rel, settings[k]);
		if (!ours)
			continue;
		base = strrchr(rel, '/');
		snprintf(dirrel, sizeof(dirrel), "%.*s",
			 base ? (int)(base - rel) : 1, base ? rel : ".");
		base = base ? base + 1 : rel;
		snprintf(to, sizeof(to), "%s%s", base, QUARANTINE);
		proj = (int)syscall(
			SYS_openat2, AT_FDCWD, p->project,
			&(struct open_how){.flags = O_PATH | O_DIRECTORY |
						    O_CLOEXEC,
					   .resolve = RESOLVE_NO_SYMLINKS},
			sizeof(struct open_how));
		if (proj >= 0)
			dir = (int)syscall(SYS_openat2, proj, dirrel, &how,
					   sizeof(how));
		if (dir < 0 ||
		    renameat2(dir, base, dir, to, RENAME_NOREPLACE) < 0)
			continue; /* left as it is: the report says so */
		fputs("ltd-native: warning: the command created ", out);
		ltd_fput_shown(out, path);
		fputs(", which Claude Code on the host would read (and run the "
		      "hooks it names) at its next start: moved ",
		      out);
		ltd_fput_shown(out, path);
		fputs(" aside to ", out);
		ltd_fput_shown(out, path);
		fputs(QUARANTINE "; review it, then move it back\n", out);
		after[i] = (struct ltd_protected_id){0};
	}
}
