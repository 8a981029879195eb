// SPDX-License-Identifier: GPL-2.0-or-later
/* One walk over git's configuration files (see gitwalk.h). */
#include "protect/gitwalk.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "protect/gitconfig.h"

/* What ltd_gitconfig_parse() hands each key to. */
struct parse_ctx {
	struct ltd_gitwalk *w;
	struct ltd_err *err;
};

static int on_key(void *ctx, const char *section, const char *key,
		  const char *val)
{
	struct parse_ctx *c = ctx;

	return c->w->ops->key(c->w, section, key, val, c->err);
}

int ltd_gitwalk_text(struct ltd_gitwalk *w, struct ltd_gitwalk_file *f,
		     struct ltd_err *err)
{
	struct parse_ctx c = {w, err};
	int ret;

	w->cur = f;
	ret = ltd_gitconfig_parse(f->text, f->len, on_key, &c);
	w->cur = (struct ltd_gitwalk_file *)f->up;
	free(f->text);
	f->text = NULL;
	return ret;
}

/* @f (its path set) read by ops->open and walked. */
static int walk_file(struct ltd_gitwalk *w, struct ltd_gitwalk_file *f,
		     struct ltd_err *err)
{
	int ret;

	snprintf(f->shown, sizeof(f->shown), "%s", f->path);
	ret = w->ops->open(w, f, err);
	if (ret)
		return ret < 0 ? ret : 0;
	ret = ltd_gitwalk_text(w, f, err);
	if (w->ops->close)
		w->ops->close(w, f);
	return ret;
}

/* @f as a zeroed one but for its names, which are made empty. */
static void file_clear(struct ltd_gitwalk_file *f)
{
	memset(f, 0, offsetof(struct ltd_gitwalk_file, path));
	f->path[0] = '\0';
	f->shown[0] = '\0';
}

int ltd_gitwalk_file(struct ltd_gitwalk *w, const char *path,
		     struct ltd_err *err)
{
	struct ltd_gitwalk_file f;

	file_clear(&f);

	if (snprintf(f.path, sizeof(f.path), "%s", path) >= (int)sizeof(f.path))
		f.path[0] = '\0';
	return walk_file(w, &f, err);
}

bool ltd_gitwalk_is_include(const char *section, const char *key)
{
	return !strcasecmp(key, "path") &&
	       (!strcmp(section, "include") ||
		!strncmp(section, "includeif.", 10));
}

/* @val ("~/" expanded: @v) joined to the directory of @from. */
static bool join(const char *from, const char *v, char *out, size_t size)
{
	const char *slash = strrchr(from, '/');
	int n;

	if (v[0] == '/' || !slash)
		n = snprintf(out, size, "%s", v);
	else
		n = snprintf(out, size, "%.*s/%s", (int)(slash - from), from,
			     v);
	return n >= 0 && (size_t)n < size;
}

bool ltd_gitwalk_include_path(const struct ltd_gitwalk *w, const char *val,
			      char *out, size_t size)
{
	char home[PATH_MAX];

	return join(w->cur->path,
		    ltd_gitconfig_expand_home(val, home, sizeof(home)), out,
		    size);
}

int ltd_gitwalk_include(struct ltd_gitwalk *w, const char *section,
			const char *key, const char *val, struct ltd_err *err)
{
	struct ltd_gitwalk_file f;
	char home[PATH_MAX];

	if (!ltd_gitwalk_is_include(section, key) || !val[0] ||
	    w->cur->depth >= w->max_depth)
		return 0;
	file_clear(&f);
	f.up = w->cur;
	f.depth = w->cur->depth + 1;
	f.section = section;
	f.key = key;
	f.value = ltd_gitconfig_expand_home(val, home, sizeof(home));
	if (!join(w->cur->path, f.value, f.path, sizeof(f.path)))
		f.path[0] = '\0';
	return walk_file(w, &f, err);
}
