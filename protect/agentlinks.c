// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The directories with Claude Code settings of their own (see
 * agentlinks.h): one read of each directory's names, types from the
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

/* Claude Code's own names, or a directory to look into. */
static bool keep(void *ctx, const char *name, unsigned char type)
{
	(void)ctx;
	if (!strcmp(name, ".claude") || !strcmp(name, ".mcp.json"))
		return true;
	return (type == DT_DIR || type == DT_UNKNOWN) && strcmp(name, ".git") &&
	       strcmp(name, "node_modules");
}

/* @name in the directory being read (s->rel; "" for itself) could not be
 * read: the first such is said. */
static int unread(struct scan *s, const char *name)
{
	size_t len = strlen(s->rel);

	if (s->out->unread)
		return 0;
	if (asprintf(&s->out->unread, "%s%s%s", s->rel, len && *name ? "/" : "",
		     name) < 0) {
		s->out->unread = NULL;
		return -ENOMEM;
	}
	return 0;
}

static int scan(struct scan *s, int dir, unsigned depth)
{
	size_t len = strlen(s->rel), n = 0;
	unsigned char *types = NULL;
	char **names = NULL;
	bool claude = false;
	int ret;

	ret = ltd_dir_names_if(dir, 0, keep, NULL, &names, &types, &n);
	if (ret < 0)
		return ret == -ENOMEM ? ret : unread(s, "");
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
			s->out->past_limit = true;
			continue;
		}
		fd = ltd_dir_open_beneath(dir, names[i]);
		/* Another mount is not the project's; one the user cannot
		 * read, not theirs, holds no link they made. */
		if (fd < 0 && errno == EACCES &&
		    (fstatat(dir, names[i], &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		     st.st_uid == geteuid()))
			ret = unread(s, names[i]);
		if (fd < 0)
			continue;
		s->dirs++;
		snprintf(s->rel + len, sizeof(s->rel) - len, "%s%s",
			 len ? "/" : "", names[i]);
		ret = scan(s, fd, depth + 1);
		s->rel[len] = '\0';
		close(fd);
	}
	if (!ret && claude)
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
	free(l->unread);
	*l = (struct ltd_agentlinks){0};
}
