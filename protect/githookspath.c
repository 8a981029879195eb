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

/* Where the hooks path goes. */
struct out {
	char *buf;
	size_t size;
};

/* What git would do with a file it cannot read here: go on. */
static int open_file(struct ltd_gitwalk *w, struct ltd_gitwalk_file *f,
		     struct ltd_err *err)
{
	struct ltd_err ignored = {0};

	(void)w;
	(void)err;
	if (f->path[0] != '/')
		return 1;
	return ltd_policy_read_file(AT_FDCWD, f->path, f->shown, &f->text,
				    &f->len, &ignored)
		       ? 1
		       : 0;
}

static int on_key(struct ltd_gitwalk *w, const char *section, const char *key,
		  const char *val, struct ltd_err *err)
{
	struct out *o = w->ctx;

	if (!strcmp(section, "core") && !strcasecmp(key, "hookspath") &&
	    snprintf(o->buf, o->size, "%s", val) >= (int)o->size)
		o->buf[0] = '\0';
	return ltd_gitwalk_include(w, section, key, val, err);
}

static const struct ltd_gitwalk_ops ops = {
	.key = on_key,
	.open = open_file,
};

void ltd_git_default_hooks_path(char *out, size_t size)
{
	char files[5][PATH_MAX + 32] = {{0}};
	struct out o = {out, size};
	struct ltd_gitwalk gw = {
		.ops = &ops,
		.ctx = &o,
		.max_depth = 10, /* git's own bound on nested includes */
	};

	out[0] = '\0';
	ltd_git_config_files(files, NULL, NULL);
	for (size_t i = 0; i < 3; i++)
		if (files[i][0])
			ltd_gitwalk_file(&gw, files[i], &(struct ltd_err){0});
}
