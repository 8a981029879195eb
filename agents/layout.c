// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What to bind for a command's real file: the install tree its layout
 * names, as a table (one row per installer), else the file alone.
 * docs/decisions/0120-command-resolver-binds.md
 */
#include "agents/resolve.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base.h"
#include "common/path.h"

enum tree_kind {
	TREE_WHOLE,  /* the tree itself */
	TREE_NO_ETC, /* a prefix: each entry but etc/ (npm's global config,
			where a registry token lives) */
};

/*
 * An installer's layout: the tree is the path up to @marker and @depth
 * components after it (an npm scope, "@scope/", counts as part of one).
 * When several rows match, the one whose marker comes last in the path
 * names the smallest tree: an npm package inside an nvm Node version is
 * the package.
 */
static const struct layout {
	const char *marker;
	bool anchored; /* the path starts with @marker */
	int depth;
	enum tree_kind kind;
} layouts[] = {
	/* npm, yarn, bun: the package, never the prefix */
	{"/node_modules/", false, 1, TREE_WHOLE},
	/* Claude Code's native installer: one file per version */
	{"/claude/versions/", false, 1, TREE_WHOLE},
	/* Python tools and interpreters */
	{"/pipx/venvs/", false, 1, TREE_WHOLE},
	{"/uv/tools/", false, 1, TREE_WHOLE},
	{"/uv/python/", false, 1, TREE_WHOLE},
	{"/.pyenv/versions/", false, 1, TREE_NO_ETC},
	/* Node versions: each an npm prefix */
	{"/.nvm/versions/node/", false, 1, TREE_NO_ETC},
	{"/fnm/node-versions/", false, 2, TREE_NO_ETC},
	{"/.volta/tools/image/node/", false, 1, TREE_NO_ETC},
	{"/.volta/tools/image/packages/", false, 1, TREE_NO_ETC},
	{"/mise/installs/", false, 2, TREE_NO_ETC},
	{"/.asdf/installs/", false, 2, TREE_NO_ETC},
	/* whole products */
	{"/opt/", true, 1, TREE_WHOLE},
	{"/snap/", true, 2, TREE_WHOLE},
};

/* The tree of row @l in @real, whose marker starts at @off. */
static bool tree_of(const struct layout *l, const char *real, size_t off,
		    char *tree)
{
	const char *p = real + off + strlen(l->marker);
	int depth = l->depth;

	if (!*p)
		return false;
	if (!strcmp(l->marker, "/node_modules/") && p[0] == '@') /* scoped */
		depth++;
	while (depth-- > 0) {
		p += strcspn(p, "/");
		if (depth > 0 && *p)
			p++;
	}
	memcpy(tree, real, (size_t)(p - real));
	tree[p - real] = '\0';
	return true;
}

static const struct layout *match(const char *real, char *tree)
{
	const struct layout *best = NULL;
	size_t best_off = 0;

	for (size_t i = 0; i < ARRAY_SIZE(layouts); i++) {
		const char *at = strstr(real, layouts[i].marker);

		if (!at || (layouts[i].anchored && at != real))
			continue;
		if (!best || (size_t)(at - real) > best_off) {
			best = &layouts[i];
			best_off = (size_t)(at - real);
		}
	}
	return best && tree_of(best, real, best_off, tree) ? best : NULL;
}

static int bind_prefix(struct ltd_resolver *r, const char *tree,
		       struct ltd_err *err)
{
	DIR *d = opendir(tree);
	struct dirent *e;
	int ret = 0;

	if (!d)
		return ltd_err_sys(err, "'%s'", tree);
	while (!ret && (e = readdir(d))) {
		char path[PATH_MAX];
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    !strcmp(e->d_name, "etc"))
			continue;
		if (ltd_path_join(path, sizeof(path), tree, e->d_name) < 0 ||
		    lstat(path, &st) < 0 ||
		    !(S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)))
			continue;
		ret = ltd_resolve_add_bind(r, path, err);
	}
	closedir(d);
	return ret;
}

/* A Python virtual environment holding @real: its pyvenv.cfg says so. */
static bool venv_of(const char *real, char *tree)
{
	char cfg[PATH_MAX];

	strcpy(tree, real);
	for (int up = 0; up < 4; up++) {
		char *s = strrchr(tree, '/');

		if (!s || s == tree)
			return false;
		*s = '\0';
		if (ltd_path_fmt(cfg, sizeof(cfg), "%s/pyvenv.cfg", tree) ==
			    0 &&
		    access(cfg, F_OK) == 0)
			return true;
	}
	return false;
}

/* Volta's shims are one program that reads Volta's own tree. */
static bool volta_shim(const struct ltd_resolver *r, const char *real,
		       char *tree)
{
	const char *base = strrchr(real, '/') + 1;

	if (strcmp(base, "volta-shim") != 0 || !r->home ||
	    ltd_path_fmt(tree, PATH_MAX, "%s/.volta", r->home) < 0)
		return false;
	return ltd_path_is_under(real, tree);
}

int ltd_layout_bind(struct ltd_resolver *r, const char *real,
		    struct ltd_err *err)
{
	const struct layout *l;
	char tree[PATH_MAX];

	if (r->store && ltd_path_is_under(real, r->store) &&
	    strlen(real) > strlen(r->store) + 1) {
		const char *p = real + strlen(r->store) + 1;

		snprintf(tree, sizeof(tree), "%s/%.*s", r->store,
			 (int)strcspn(p, "/"), p);
		return ltd_nix_closure(r, tree, err);
	}
	if (volta_shim(r, real, tree))
		return ltd_resolve_add_bind(r, tree, err);
	l = match(real, tree);
	/* A tree that would hold the home is no install tree. */
	if (l && !(r->home && ltd_path_is_under(r->home, tree)))
		return l->kind == TREE_WHOLE
			       ? ltd_resolve_add_bind(r, tree, err)
			       : bind_prefix(r, tree, err);
	if (venv_of(real, tree) &&
	    !(r->home && ltd_path_is_under(r->home, tree)))
		return ltd_resolve_add_bind(r, tree, err);
	return ltd_resolve_add_bind(r, real, err);
}
