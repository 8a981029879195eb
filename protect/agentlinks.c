// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The directories where Claude Code reads settings through a user's link
 * (see agentlinks.h): one read of each directory's names, types from the
 * directory (an lstat only where it gives none), depth first.
 */
#include "protect/agentlinks.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/dir.h"
#include "common/vec.h"

struct scan {
	struct ltd_agentlinks *out;
	unsigned long dirs;
	char rel[PATH_MAX];
};

/* Where a link would lead Claude Code's settings, or a directory. */
static bool keep(void *ctx, const char *name, unsigned char type)
{
	(void)ctx;
	if (!strcmp(name, ".claude") || !strcmp(name, ".mcp.json"))
		return true;
	return (type == DT_DIR || type == DT_UNKNOWN) && strcmp(name, ".git") &&
	       strcmp(name, "node_modules");
}

static bool is_link(int dir, const char *name)
{
	struct stat st;

	return fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       S_ISLNK(st.st_mode);
}

/* @dir's .claude or .mcp.json, or a settings file in its .claude, is a
 * link. */
static bool links_settings(int dir)
{
	struct stat st;
	int claude;
	bool ret;

	if (is_link(dir, ".claude") || is_link(dir, ".mcp.json"))
		return true;
	if (fstatat(dir, ".claude", &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !S_ISDIR(st.st_mode))
		return false;
	claude = ltd_dir_open_beneath(dir, ".claude");
	if (claude < 0)
		return false;
	ret = is_link(claude, "settings.json") ||
	      is_link(claude, "settings.local.json");
	close(claude);
	return ret;
}

static int scan(struct scan *s, int dir, unsigned depth)
{
	size_t len = strlen(s->rel), n = 0;
	unsigned char *types = NULL;
	char **names = NULL;
	bool claude = false;
	int ret;

	ret = ltd_dir_names_if(dir, 0, keep, NULL, &names, &types, &n);
	if (ret < 0) {
		s->out->partial = true;
		return ret == -ENOMEM ? ret : 0;
	}
	for (size_t i = 0; !ret && i < n; i++) {
		struct stat st;
		int fd;

		if (!strcmp(names[i], ".claude") ||
		    !strcmp(names[i], ".mcp.json")) {
			claude = true;
			continue;
		}
		if (types[i] == DT_UNKNOWN &&
		    (fstatat(dir, names[i], &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		     !S_ISDIR(st.st_mode)))
			continue;
		if (depth >= LTD_AGENTLINKS_MAX_DEPTH ||
		    s->dirs >= LTD_AGENTLINKS_MAX_DIRS ||
		    len + 1 + strlen(names[i]) >= sizeof(s->rel)) {
			s->out->partial = true;
			continue;
		}
		fd = ltd_dir_open_beneath(dir, names[i]);
		if (fd < 0) {
			/* Another mount is not the project's. */
			s->out->partial |= errno != EXDEV && errno != ENOENT;
			continue;
		}
		s->dirs++;
		snprintf(s->rel + len, sizeof(s->rel) - len, "%s%s",
			 len ? "/" : "", names[i]);
		ret = scan(s, fd, depth + 1);
		s->rel[len] = '\0';
		close(fd);
	}
	if (!ret && claude && links_settings(dir))
		ret = ltd_strv_push(&s->out->dirs, &s->out->n, s->rel);
	ltd_strv_free(names, n);
	free(types);
	return ret;
}

int ltd_agentlinks_find(int root, struct ltd_agentlinks *out)
{
	struct scan *s = calloc(1, sizeof(*s));
	int ret;

	*out = (struct ltd_agentlinks){0};
	if (!s)
		return -ENOMEM;
	s->out = out;
	ret = scan(s, root, 0);
	free(s);
	if (ret < 0)
		ltd_agentlinks_free(out);
	return ret;
}

void ltd_agentlinks_free(struct ltd_agentlinks *l)
{
	ltd_strv_free(l->dirs, l->n);
	*l = (struct ltd_agentlinks){0};
}
