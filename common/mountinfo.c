// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/self/mountinfo, and the names a bind mount hides (mountinfo.h).
 */
#include "common/mountinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cleanup.h"

int ltd_mountinfo_unescape(const char *s, size_t len, char *out, size_t size)
{
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (c == '\\' && i + 3 < len && s[i + 1] >= '0' &&
		    s[i + 1] <= '3') {
			c = (char)(((s[i + 1] - '0') << 6) |
				   ((s[i + 2] - '0') << 3) | (s[i + 3] - '0'));
			i += 3;
		}
		if (o + 1 >= size)
			return -ENAMETOOLONG;
		out[o++] = c;
	}
	out[o] = '\0';
	return 0;
}

/* The field at *@at (space-separated), unescaped into a new string. */
static char *field(const char **at, const char *end)
{
	const char *f = *at;
	size_t len = strcspn(f, " \n");
	char buf[PATH_MAX];

	if (!len || f + len > end ||
	    ltd_mountinfo_unescape(f, len, buf, sizeof(buf)) < 0)
		return NULL;
	*at = f + len + (f[len] == ' ');
	return strdup(buf);
}

/* "id parent major:minor root mountpoint ..." */
static int parse_line(const char *l, const char *end, struct ltd_mount_ent *e)
{
	int used = 0;

	if (sscanf(l, "%d %d %u:%u %n", &e->id, &e->parent, &e->major,
		   &e->minor, &used) != 4 ||
	    !used || l + used >= end)
		return -EINVAL;
	l += used;
	e->root = field(&l, end);
	e->mnt = e->root ? field(&l, end) : NULL;
	if (!e->mnt || e->mnt[0] != '/') {
		free(e->root);
		free(e->mnt);
		return -EINVAL;
	}
	return 0;
}

int ltd_mountinfo_parse(const char *text, struct ltd_mountinfo *mi)
{
	*mi = (struct ltd_mountinfo){0};
	for (const char *l = text; *l;) {
		const char *end = l + strcspn(l, "\n");
		struct ltd_mount_ent *v;

		if (end > l) {
			v = realloc(mi->v, (mi->n + 1) * sizeof(*v));
			if (!v) {
				ltd_mountinfo_free(mi);
				return -ENOMEM;
			}
			mi->v = v;
			if (parse_line(l, end, &mi->v[mi->n]) < 0) {
				ltd_mountinfo_free(mi);
				return -EINVAL;
			}
			mi->n++;
		}
		l = *end ? end + 1 : end;
	}
	return 0;
}

int ltd_mountinfo_read(struct ltd_mountinfo *mi)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0, cap = 0;
	int fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	do {
		if (cap - len < 4096) {
			char *t = realloc(text, cap + 16384);

			if (!t) {
				close(fd);
				return -ENOMEM;
			}
			text = t;
			cap += 16384;
		}
		n = read(fd, text + len, cap - len - 1);
		if (n > 0)
			len += (size_t)n;
	} while (n > 0 || (n < 0 && errno == EINTR));
	close(fd);
	if (n < 0)
		return -errno;
	text[len] = '\0';
	return ltd_mountinfo_parse(text, mi);
}

const struct ltd_mount_ent *ltd_mountinfo_find(const struct ltd_mountinfo *mi,
					       int id)
{
	for (size_t i = 0; i < mi->n; i++)
		if (mi->v[i].id == id)
			return &mi->v[i];
	return NULL;
}

/* @dir is @root or below it, as paths.  A root that is no path (a
 * namespace file bound somewhere: "net:[4026531833]") holds none. */
static bool path_within(const char *dir, const char *root)
{
	size_t len = strlen(root);

	if (root[0] != '/')
		return false;
	if (!strcmp(root, "/"))
		return true;
	return !strncmp(dir, root, len) && (!dir[len] || dir[len] == '/');
}

/* fs:@dir through each other mount of @m's filesystem that shows it. */
static int through_others(const struct ltd_mountinfo *mi,
			  const struct ltd_mount_ent *m, const char *dir,
			  int (*fn)(const char *, int, void *), void *ctx)
{
	char alias[PATH_MAX];
	int ret = 0;

	for (size_t i = 0; !ret && i < mi->n; i++) {
		const struct ltd_mount_ent *q = &mi->v[i];
		const char *rel;

		if (q == m || q->major != m->major || q->minor != m->minor ||
		    !path_within(dir, q->root))
			continue;
		/* What lies below q's root: "" for its root itself. */
		if (strcmp(q->root, "/"))
			rel = dir + strlen(q->root);
		else
			rel = strcmp(dir, "/") ? dir : "";
		if (snprintf(alias, sizeof(alias), "%s%s",
			     strcmp(q->mnt, "/") || !*rel ? q->mnt : "",
			     rel) >= (int)sizeof(alias))
			continue;
		ret = fn(alias, q->id, ctx);
	}
	return ret;
}

int ltd_mountinfo_aliases_above(const struct ltd_mountinfo *mi, int id,
				int (*fn)(const char *alias, int on, void *ctx),
				void *ctx)
{
	const struct ltd_mount_ent *m = ltd_mountinfo_find(mi, id);
	char dir[PATH_MAX], *slash;
	int ret = 0;

	/* Each mount once at most, up the parents (a loop ends there). */
	for (size_t hops = 0; !ret && m && hops < mi->n; hops++) {
		if (m->root[0] != '/')
			break;
		snprintf(dir, sizeof(dir), "%s", m->root);
		while (!ret && strcmp(dir, "/") &&
		       (slash = strrchr(dir, '/'))) {
			slash[slash == dir] = '\0'; /* "/x" becomes "/" */
			ret = through_others(mi, m, dir, fn, ctx);
		}
		if (m->parent == m->id)
			break;
		m = ltd_mountinfo_find(mi, m->parent);
	}
	return ret;
}

void ltd_mountinfo_free(struct ltd_mountinfo *mi)
{
	for (size_t i = 0; i < mi->n; i++) {
		free(mi->v[i].root);
		free(mi->v[i].mnt);
	}
	free(mi->v);
	*mi = (struct ltd_mountinfo){0};
}
