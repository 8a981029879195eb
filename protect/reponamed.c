// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Git repositories planted in the project (see repos.h): the files a
 * repository's configuration names for git to run (core.fsmonitor, a
 * filter's clean, an alias "!...", a credential helper's path), which the
 * command can rewrite without a change to the configuration.  The checks
 * before the run keep those of the project's own repository read-only
 * (gitscan.c); a repository nested in the project is found only by the
 * walk, which reads its configuration on every run (repojudge.c keeps
 * each command line a key runs, by ltd_gitconfig_command()'s table, the
 * checks' own).  A line is read as sh splits it (shword.c) from where git
 * runs it, as the checks read it; each file it names in the root that the
 * command created or changed (or, for a link, what it leads to) is said,
 * and a review's apply holds it back (decision 0159).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "protect/repojudge.h"
#include "protect/shword.h"

/* Files said of one work tree, past which a count: a flood of names must
 * not scroll the rest away. */
#define MAX_NAMED_SAID 5

/* Paths judged already from one work tree: several keys may name one. */
struct seen {
	char *v;
	size_t len;
};

/* @path was not judged yet from this work tree (and is now noted). */
static bool first_time(struct seen *s, const char *path)
{
	size_t n = strlen(path) + 1;
	char *v;

	for (size_t at = 0; at < s->len; at += strlen(s->v + at) + 1)
		if (!strcmp(s->v + at, path))
			return false;
	if (!(v = realloc(s->v, s->len + n)))
		return true; /* judged twice, at worst */
	memcpy(v + s->len, path, n);
	s->v = v;
	s->len += n;
	return true;
}

/* The directory last opened for the places of one work tree: the words
 * of a line mostly lie in one (`sh scripts/a.sh %f`: the work tree's). */
struct dir_at {
	char path[PATH_MAX];
	char shown[PATH_MAX * 2];
	int fd; /* or a negative errno */
};

/* The directory @dir (absolute), opened as the walk opens. */
static int open_dir_at(struct walk *w, struct dir_at *d, const char *dir)
{
	if (d->path[0] && !strcmp(d->path, dir))
		return d->fd;
	if (d->fd >= 0)
		close(d->fd);
	snprintf(d->path, sizeof(d->path), "%s", dir);
	d->fd = ltd_repos_open_in_root(w, "", dir, O_RDONLY | O_DIRECTORY,
				       d->shown, sizeof(d->shown));
	return d->fd;
}

/* The place @path (absolute, as shword.c resolves it) that the command
 * line of @key names: judged where it lies in the root. */
static void judge_place(struct walk *w, struct dir_at *d, const char *path,
			const char *key, unsigned *n_said)
{
	const struct ltd_repos_said what = {
		.what = "the command created or changed this file (or what "
			"it links to), which git runs in that repository: its "
			"configuration names it",
		.detail = key,
		.link = "this file, which its configuration has git run,",
		.max = MAX_NAMED_SAID,
	};
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int fd;

	if (strncmp(path, w->path, w->root_len) != 0 ||
	    path[w->root_len] != '/' || !slash[1] ||
	    (size_t)(slash - path) >= sizeof(dir))
		return; /* out of the root: not the command's to write */
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	fd = open_dir_at(w, d, dir);
	if (ltd_repos_unfollowed(fd)) {
		/* A link on the way: what is behind it cannot be judged,
		 * on any run. */
		ltd_repos_tell(w, path);
		if (++*n_said <= MAX_NAMED_SAID)
			ltd_repos_say_unfollowed(w, path, NULL, what.link, fd);
		return;
	}
	if (fd < 0)
		return;
	ltd_repos_judge_file(w, fd, d->shown,
			     strlen(d->shown) > w->root_len
				     ? d->shown + w->root_len + 1
				     : "",
			     slash + 1, &what, n_said);
}

/* The places the command line @cmd of @key names, run from @at (an
 * absolute path in the root). */
static void judge_line(struct walk *w, const char *key, const char *cmd,
		       const char *at, struct seen *seen, struct dir_at *d,
		       unsigned *n_said)
{
	struct ltd_shword_place *v = NULL;
	size_t n = 0;

	/* Too many places, or no memory: what the line names cannot all
	 * be known; the checks before the run refuse such a line of the
	 * project's own, and here it is said. */
	if (ltd_shword_places(cmd, at, getenv("HOME"), &v, &n) < 0) {
		ltd_repos_say_at(w, NULL, NULL,
				 "ltd-native could not read which files this "
				 "repository's configuration has git run",
				 key);
		return;
	}
	/* A pattern's matches and a word that cannot be resolved (another
	 * variable, a substitution) are not looked for (decision 0159). */
	for (size_t i = 0; i < n; i++)
		if ((v[i].kind == LTD_SHWORD_PATH ||
		     v[i].kind == LTD_SHWORD_BARE) &&
		    first_time(seen, v[i].path))
			judge_place(w, d, v[i].path, key, n_said);
	ltd_shword_places_free(v, n);
}

/* Past the bounds: a count, a word that not every line was read. */
static void say_more(struct walk *w, const struct ltd_repos_cfg *c,
		     const char *at, unsigned n_said)
{
	ltd_repos_say_more(w, at, n_said, MAX_NAMED_SAID,
			   "files git runs there that the command created or "
			   "changed");
	if (c->runs_over)
		ltd_repos_say_at(w, NULL, NULL,
				 "ltd-native did not look at every file this "
				 "git configuration has git run (more than 64 "
				 "commands): the command may have changed one",
				 NULL);
}

void ltd_repos_judge_named(struct walk *w, const struct ltd_repos_cfg *c,
			   const char *base)
{
	struct seen seen = {0};
	struct dir_at *d;
	unsigned n_said = 0;
	char at[PATH_MAX];
	const char *key, *cmd;

	if (!c->n_runs ||
	    snprintf(at, sizeof(at), "%.*s%s%s", (int)w->root_len, w->path,
		     base[0] ? "/" : "", base) >= (int)sizeof(at) ||
	    !(d = calloc(1, sizeof(*d))))
		return;
	d->fd = -ENOENT;
	for (size_t off = 0; off < c->runs_len;
	     off = (size_t)(cmd - c->runs) + strlen(cmd) + 1) {
		key = c->runs + off;
		cmd = key + strlen(key) + 1;
		judge_line(w, key, cmd, at, &seen, d, &n_said);
	}
	say_more(w, c, at, n_said);
	free(seen.v);
	if (d->fd >= 0)
		close(d->fd);
	free(d);
}
