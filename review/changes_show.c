// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a list of changes says: renames found by content, counts, and one
 * line per change as `git status --short` would show it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/sha256.h"
#include "common/text.h"
#include "review/changes.h"
#include "review/fs.h"

static int hash_fd(int fd, char out[LTD_SHA256_HEX_LEN + 1])
{
	struct ltd_sha256 h;
	char buf[65536];
	ssize_t n;

	ltd_sha256_init(&h);
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		ltd_sha256_update(&h, buf, (size_t)n);
	}
	ltd_sha256_done(&h, out);
	return 0;
}

/* The SHA-256 of the upper's (@upper_side) or the project's file. */
static int hash_path(int root, const struct ltd_change *c, bool upper_side,
		     char out[LTD_SHA256_HEX_LEN + 1])
{
	_cleanup_close_ int fd = -1;
	const char *leaf;
	int ret;

	if (upper_side) {
		struct stat st = {
			.st_dev = c->dev, .st_ino = c->ino, .st_mode = c->mode};
		_cleanup_close_ int dir =
			ltd_beneath_parent(root, c->path, &leaf);

		if (dir < 0)
			return -errno;
		st.st_uid = geteuid();
		fd = ltd_open_upper_file(dir, leaf, &st);
	} else {
		fd = ltd_beneath(root, c->path,
				 O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
	}
	if (fd < 0)
		return -errno;
	ret = hash_fd(fd, out);
	return ret;
}

static bool rename_source(const struct ltd_change *c)
{
	return c->kind == LTD_CH_DELETE && S_ISREG(c->old_mode) &&
	       !(c->flags & (LTD_CHF_RENAMED | LTD_CHF_REFUSED));
}

int ltd_changes_renames(struct ltd_changes *c, int upper, int project)
{
	char(*del)[LTD_SHA256_HEX_LEN + 1] = NULL;
	bool any = false;

	for (size_t i = 0; i < c->n && !any; i++)
		any = rename_source(&c->v[i]);
	if (!any)
		return 0;
	del = calloc(c->n, sizeof(*del));
	if (!del)
		return -ENOMEM;
	for (size_t i = 0; i < c->n; i++) {
		struct ltd_change *a = &c->v[i];
		char h[LTD_SHA256_HEX_LEN + 1] = "";

		if (a->kind != LTD_CH_ADD || !S_ISREG(a->mode) ||
		    (a->flags & LTD_CHF_REFUSED))
			continue;
		for (size_t j = 0; j < c->n && !a->from; j++) {
			struct ltd_change *d = &c->v[j];

			if (!rename_source(d) || d->old_size != a->size)
				continue;
			if (!h[0] && hash_path(upper, a, true, h) < 0)
				break;
			if (!del[j][0] && hash_path(project, d, false, del[j]))
				continue;
			if (strcmp(h, del[j]) != 0)
				continue;
			a->from = strdup(d->path);
			if (a->from)
				d->flags |= LTD_CHF_RENAMED;
		}
	}
	free(del);
	return 0;
}

void ltd_changes_count(const struct ltd_changes *c, struct ltd_change_counts *n)
{
	*n = (struct ltd_change_counts){0};
	for (size_t i = 0; i < c->n; i++) {
		const struct ltd_change *x = &c->v[i];
		bool dir = S_ISDIR(x->mode) ||
			   (x->kind == LTD_CH_DELETE && S_ISDIR(x->old_mode));

		if (x->flags & LTD_CHF_REFUSED)
			n->refused++;
		else if (x->flags & LTD_CHF_HELD)
			n->held++;
		if (x->kind == LTD_CH_MODE) {
			n->modes++;
			continue;
		}
		if (x->kind == LTD_CH_TYPE) {
			n->types++;
			continue;
		}
		if (dir || (x->flags & LTD_CHF_RENAMED))
			continue;
		if (S_ISLNK(x->mode))
			n->links++;
		else if (x->kind == LTD_CH_ADD && x->from)
			n->renamed++;
		else if (x->kind == LTD_CH_ADD)
			n->added++;
		else if (x->kind == LTD_CH_MODIFY)
			n->changed++;
		else if (x->kind == LTD_CH_DELETE)
			n->deleted++;
	}
}

void ltd_counts_print(FILE *out, const struct ltd_change_counts *n)
{
	const struct {
		unsigned v;
		const char *one, *many;
	} parts[] = {
		{n->added, "added", "added"},
		{n->changed, "changed", "changed"},
		{n->deleted, "deleted", "deleted"},
		{n->renamed, "renamed", "renamed"},
		{n->modes, "mode change", "mode changes"},
		{n->types, "type change", "type changes"},
		{n->links, "link", "links"},
		{n->held, "held back", "held back"},
		{n->refused, "never lands", "never land"},
	};
	bool any = false;

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (!parts[i].v)
			continue;
		fprintf(out, "%s%u %s", any ? ", " : "", parts[i].v,
			parts[i].v == 1 ? parts[i].one : parts[i].many);
		any = true;
	}
	if (!any)
		fputs("no changes", out);
}

char ltd_change_letter(const struct ltd_change *c)
{
	switch (c->kind) {
	case LTD_CH_ADD:
		return c->from ? 'R' : 'A';
	case LTD_CH_MODIFY:
	case LTD_CH_MODE:
		return 'M';
	case LTD_CH_TYPE:
		return 'T';
	case LTD_CH_DELETE:
		return 'D';
	}
	return '?';
}

char ltd_change_mark(const struct ltd_change *c)
{
	if (c->flags & LTD_CHF_REFUSED)
		return '-';
	if (c->flags & LTD_CHF_HELD)
		return '!';
	return ' ';
}

static const char *type_name(mode_t m)
{
	if (S_ISDIR(m))
		return "directory";
	if (S_ISLNK(m))
		return "link";
	if (S_ISREG(m))
		return "file";
	if (S_ISFIFO(m))
		return "FIFO";
	if (S_ISSOCK(m))
		return "socket";
	return "device node";
}

void ltd_change_print(FILE *out, const struct ltd_change *c)
{
	bool dir = S_ISDIR(c->mode) ||
		   (c->kind == LTD_CH_DELETE && S_ISDIR(c->old_mode));

	if (c->flags & LTD_CHF_RENAMED)
		return;
	fprintf(out, "%c%c ", ltd_change_letter(c), ltd_change_mark(c));
	if (c->from) {
		ltd_fput_shown(out, c->from);
		fputs(" -> ", out);
	}
	ltd_fput_shown(out, c->path);
	if (dir)
		fputc('/', out);
	if (S_ISLNK(c->mode) && c->target) {
		fputs(" -> ", out);
		ltd_fput_shown(out, c->target);
	}
	if (c->kind == LTD_CH_MODE ||
	    (c->kind == LTD_CH_MODIFY &&
	     (c->mode & 07777) != (c->old_mode & 07777) && !S_ISLNK(c->mode)))
		fprintf(out, "  (mode %o -> %o)",
			(unsigned)(c->old_mode & 07777),
			(unsigned)(ltd_change_land_mode(c->mode) & 07777));
	if (c->kind == LTD_CH_TYPE)
		fprintf(out, "  (%s -> %s)", type_name(c->old_mode),
			type_name(c->mode));
	if (c->flags & LTD_CHF_SUID)
		fputs("  (set-uid/set-gid dropped)", out);
	if ((c->flags & (LTD_CHF_HELD | LTD_CHF_REFUSED)) && c->why) {
		fputs(c->flags & LTD_CHF_REFUSED ? "  [never lands: "
						 : "  [held back: ",
		      out);
		fputs(c->why, out);
		fputc(']', out);
	}
	fputc('\n', out);
}
