// SPDX-License-Identifier: GPL-2.0-or-later
/* The system and global configs' core.hooksPath (see githookspath.h). */
#include "protect/githookspath.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "policy/option.h"
#include "protect/gitscan.h"
#include "protect/gitwalk.h"

/* Where the hooks paths go, and how many files were read. */
struct out {
	struct ltd_git_hooks_paths *p;
	unsigned files;
};

/* What git would do with a file it cannot read here: go on.  Past
 * LTD_GIT_MAX_CONFIG_FILES, not read: said (p->over). */
static int open_file(struct ltd_gitwalk *w, struct ltd_gitwalk_file *f,
		     struct ltd_err *err)
{
	struct out *o = w->ctx;
	struct ltd_err ignored = {0};

	(void)err;
	if (f->path[0] != '/')
		return 1;
	if (++o->files > LTD_GIT_MAX_CONFIG_FILES) {
		o->p->over = true;
		return 1;
	}
	return ltd_policy_read_file(AT_FDCWD, f->path, f->shown, &f->text,
				    &f->len, &ignored)
		       ? 1
		       : 0;
}

/* @val, when relative and not in @p yet. */
static void add(struct ltd_git_hooks_paths *p, const char *val)
{
	if (!val[0] || val[0] == '/' || val[0] == '~')
		return;
	for (unsigned i = 0; i < p->n; i++)
		if (!strcmp(p->v[i], val))
			return;
	if (p->n == LTD_GIT_HOOKS_PATHS_MAX || strlen(val) >= sizeof(p->v[0])) {
		p->over = true;
		return;
	}
	memcpy(p->v[p->n++], val, strlen(val) + 1);
}

static int on_key(struct ltd_gitwalk *w, const char *section, const char *key,
		  const char *val, struct ltd_err *err)
{
	struct out *o = w->ctx;

	if (!strcmp(section, "core") && !strcasecmp(key, "hookspath"))
		add(o->p, val);
	return ltd_gitwalk_include(w, section, key, val, err);
}

static const struct ltd_gitwalk_ops ops = {
	.key = on_key,
	.open = open_file,
};

void ltd_git_default_hooks_paths(struct ltd_git_hooks_paths *p)
{
	char files[5][PATH_MAX + 32];
	struct out o = {p, 0};
	struct ltd_gitwalk gw = {
		.ops = &ops,
		.ctx = &o,
		.max_depth = LTD_GIT_MAX_INCLUDE_DEPTH,
	};

	p->n = 0;
	p->over = false;
	ltd_git_config_files(files, NULL, NULL);
	for (size_t i = 0; i < 3; i++)
		if (files[i][0])
			ltd_gitwalk_file(&gw, files[i], &(struct ltd_err){0});
}
