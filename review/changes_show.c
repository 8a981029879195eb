// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a list of changes says: renames found by content, counts, and one
 * line per change as `git status --short` would show it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
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
			if (a->from) {
				d->flags |= LTD_CHF_RENAMED;
				a->from_mode = d->old_mode;
			}
		}
	}
	free(del);
	return 0;
}

void ltd_changes_unpair_held(struct ltd_changes *c)
{
	for (size_t i = 0; i < c->n; i++) {
		struct ltd_change *a = &c->v[i];

		if (!a->from || !(a->flags & (LTD_CHF_HELD | LTD_CHF_REFUSED)))
			continue;
		for (size_t j = 0; j < c->n; j++)
			if ((c->v[j].flags & LTD_CHF_RENAMED) &&
			    !strcmp(c->v[j].path, a->from))
				c->v[j].flags &= ~LTD_CHF_RENAMED;
		free(a->from);
		a->from = NULL;
		a->from_mode = 0;
	}
}

bool ltd_change_shown(const struct ltd_change *c)
{
	return !(c->flags & LTD_CHF_RENAMED);
}

static bool is_dir_change(const struct ltd_change *c)
{
	return S_ISDIR(c->mode) ||
	       (c->kind == LTD_CH_DELETE && S_ISDIR(c->old_mode));
}

enum ltd_change_cat ltd_change_category(const struct ltd_change *c)
{
	switch (c->kind) {
	case LTD_CH_MODE:
		return LTD_CAT_MODE;
	case LTD_CH_TYPE:
		return LTD_CAT_TYPE;
	case LTD_CH_DELETE:
		return is_dir_change(c) ? LTD_CAT_DIR : LTD_CAT_DELETED;
	case LTD_CH_ADD:
	case LTD_CH_MODIFY:
		break;
	}
	if (is_dir_change(c))
		return LTD_CAT_DIR;
	if (S_ISLNK(c->mode))
		return LTD_CAT_LINK;
	if (c->kind == LTD_CH_MODIFY)
		return LTD_CAT_CHANGED;
	return c->from ? LTD_CAT_RENAMED : LTD_CAT_ADDED;
}

static const char *const cat_names[LTD_CAT_N] = {
	[LTD_CAT_ADDED] = "added",     [LTD_CAT_CHANGED] = "changed",
	[LTD_CAT_DELETED] = "deleted", [LTD_CAT_RENAMED] = "renamed",
	[LTD_CAT_MODE] = "mode",       [LTD_CAT_TYPE] = "type",
	[LTD_CAT_LINK] = "link",       [LTD_CAT_DIR] = "dir",
};

const char *ltd_change_cat_name(enum ltd_change_cat cat)
{
	return cat < LTD_CAT_N ? cat_names[cat] : "?";
}

void ltd_changes_count(const struct ltd_changes *c, struct ltd_change_counts *n)
{
	*n = (struct ltd_change_counts){0};
	for (size_t i = 0; i < c->n; i++) {
		const struct ltd_change *x = &c->v[i];
		unsigned *const by_cat[LTD_CAT_N] = {
			[LTD_CAT_ADDED] = &n->added,
			[LTD_CAT_CHANGED] = &n->changed,
			[LTD_CAT_DELETED] = &n->deleted,
			[LTD_CAT_RENAMED] = &n->renamed,
			[LTD_CAT_MODE] = &n->modes,
			[LTD_CAT_TYPE] = &n->types,
			[LTD_CAT_LINK] = &n->links,
			[LTD_CAT_DIR] = &n->dirs,
		};

		if (!ltd_change_shown(x))
			continue;
		/* What never lands is no change apply offers: counted
		 * apart, in no category. */
		if (x->flags & LTD_CHF_REFUSED)
			n->refused++;
		else
			(*by_cat[ltd_change_category(x)])++;
		if (!(x->flags & LTD_CHF_REFUSED) && (x->flags & LTD_CHF_HELD))
			n->held++;
		if (x->flags & LTD_CHF_CONFLICT)
			n->conflicts++;
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
		{n->dirs, "directory", "directories"},
		{n->held, "held back", "held back"},
		{n->refused, "never lands", "never land"},
		{n->conflicts, "conflict", "conflicts"},
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

json_t *ltd_counts_json(const struct ltd_change_counts *n)
{
	return json_pack(
		"{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, "
		"s:I}",
		"added", (json_int_t)n->added, "changed",
		(json_int_t)n->changed, "deleted", (json_int_t)n->deleted,
		"renamed", (json_int_t)n->renamed, "modes",
		(json_int_t)n->modes, "types", (json_int_t)n->types, "links",
		(json_int_t)n->links, "dirs", (json_int_t)n->dirs, "held",
		(json_int_t)n->held, "refused", (json_int_t)n->refused,
		"conflicts", (json_int_t)n->conflicts);
}

/* A string of the cage's (any bytes) as JSON: jansson takes UTF-8 only;
 * a name that is not is shown with '?' for each byte past ASCII. */
static json_t *str_json(const char *s)
{
	json_t *j;
	char *copy;

	if (!s)
		return json_null();
	j = json_string(s);
	if (j)
		return j;
	copy = strdup(s);
	if (!copy)
		return NULL;
	for (char *p = copy; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(copy);
	free(copy);
	return j;
}

/* @key: the cage's name @s as str_json() shows it; when that is not its
 * bytes (not UTF-8), also @key "_hex", the bytes in hex, so that two
 * names shown alike ("v\377" and "v?") stay two names. */
static void set_name(json_t *o, const char *key, const char *s)
{
	json_t *j = str_json(s);
	char hkey[32], *hex;
	size_t n;

	json_object_set_new(o, key, j);
	if (!s || !j || !strcmp(json_string_value(j), s))
		return;
	n = strlen(s);
	hex = malloc(n * 2 + 1);
	if (!hex)
		return;
	for (size_t i = 0; i < n; i++)
		snprintf(hex + i * 2, 3, "%02x", (unsigned char)s[i]);
	snprintf(hkey, sizeof(hkey), "%s_hex", key);
	json_object_set_new(o, hkey, json_string(hex));
	free(hex);
}

static json_t *mode_json(mode_t m)
{
	char buf[8];

	if (!m)
		return json_null();
	snprintf(buf, sizeof(buf), "%o", (unsigned)(m & 07777));
	return json_string(buf);
}

json_t *ltd_change_json(const struct ltd_change *c)
{
	char status[2] = {ltd_change_letter(c), '\0'};
	bool refused = c->flags & LTD_CHF_REFUSED;
	bool held = !refused && (c->flags & LTD_CHF_HELD);
	mode_t old = c->from ? c->from_mode : c->old_mode;
	json_t *o = json_object();

	if (!o)
		return NULL;
	set_name(o, "path", c->path);
	json_object_set_new(o, "status", json_string(status));
	json_object_set_new(
		o, "kind",
		json_string(ltd_change_cat_name(ltd_change_category(c))));
	set_name(o, "from", c->from);
	set_name(o, "target", S_ISLNK(c->mode) ? c->target : NULL);
	json_object_set_new(
		o, "old_mode",
		mode_json(c->kind == LTD_CH_ADD && !c->from ? 0 : old));
	json_object_set_new(o, "mode",
			    mode_json(c->kind == LTD_CH_DELETE
					      ? 0
					      : ltd_change_land_mode(c->mode)));
	json_object_set_new(o, "held", json_boolean(held));
	json_object_set_new(o, "never_lands", json_boolean(refused));
	json_object_set_new(o, "reason",
			    (held || refused) && c->why ? json_string(c->why)
							: json_null());
	json_object_set_new(o, "conflict",
			    json_boolean(c->flags & LTD_CHF_CONFLICT));
	json_object_set_new(o, "conflict_reason",
			    c->flags & LTD_CHF_CONFLICT && c->conflict
				    ? json_string(c->conflict)
				    : json_null());
	return o;
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
	if (c->flags & LTD_CHF_CONFLICT)
		return 'C';
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

/* The mode @c changes, old and new, as it lands; false when none. */
bool ltd_change_mode_change(const struct ltd_change *c, mode_t *old,
			    mode_t *new_mode)
{
	mode_t was = c->from ? c->from_mode : c->old_mode;

	*old = was;
	*new_mode = ltd_change_land_mode(c->mode);
	if (c->kind == LTD_CH_MODE)
		return true;
	if (S_ISLNK(c->mode) || !was || (c->kind != LTD_CH_MODIFY && !c->from))
		return false;
	return (*new_mode & 07777) != (was & 07777);
}

void ltd_change_print(FILE *out, const struct ltd_change *c)
{
	bool dir = S_ISDIR(c->mode) ||
		   (c->kind == LTD_CH_DELETE && S_ISDIR(c->old_mode));
	mode_t old, now;

	if (!ltd_change_shown(c))
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
	if (ltd_change_mode_change(c, &old, &now))
		fprintf(out, "  (mode %o -> %o)", (unsigned)(old & 07777),
			(unsigned)(now & 07777));
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
	if ((c->flags & LTD_CHF_CONFLICT) && c->conflict) {
		fputs("  [conflict: ", out);
		fputs(c->conflict, out);
		fputc(']', out);
	}
	fputc('\n', out);
}

const char *const ltd_git_own_names[LTD_GIT_OWN_ROWS] = {
	"index",       "HEAD",	   "ORIG_HEAD", "FETCH_HEAD", "COMMIT_EDITMSG",
	"packed-refs", "objects/", "refs/",	"logs/",
};

size_t ltd_change_git_own(const char *path, size_t *row)
{
	const char *git = NULL, *rest;

	for (const char *s = path; s; s = strchr(s, '/'), s = s ? s + 1 : s)
		if (!strncmp(s, ".git/", 5))
			git = s;
	if (!git)
		return 0;
	rest = git + 5;
	for (size_t i = 0; i < LTD_GIT_OWN_ROWS; i++) {
		size_t len = strlen(ltd_git_own_names[i]);
		bool dir = ltd_git_own_names[i][len - 1] == '/';

		if (dir ? !strncmp(rest, ltd_git_own_names[i], len) && rest[len]
			: !strcmp(rest, ltd_git_own_names[i])) {
			*row = i;
			return (size_t)(rest - path);
		}
	}
	return 0;
}

void ltd_change_lines_end(struct ltd_change_lines *l)
{
	_cleanup_free_ char *dir = NULL;
	const char *sep = "";

	if (!l->git)
		return;
	/* The cage names the directory: shown as every path is. */
	dir = strndup(l->git->path, l->git_len);
	fprintf(l->out, "%s%c- ", l->indent, ltd_change_letter(l->git));
	ltd_fput_shown(l->out, dir ? dir : "?");
	fputs("  git's own ", l->out);
	for (size_t i = 0; i < LTD_GIT_OWN_ROWS; i++) {
		if (!(l->rows & (1u << i)))
			continue;
		fprintf(l->out, "%s%s", sep, ltd_git_own_names[i]);
		sep = ", ";
	}
	fprintf(l->out, " (%zu file%s)  [never lands: %s]\n", l->n_git,
		l->n_git == 1 ? "" : "s", l->git->why ? l->git->why : "");
	l->git = NULL;
	l->n_git = 0;
	l->rows = 0;
}

bool ltd_change_lines_add(struct ltd_change_lines *l,
			  const struct ltd_change *c)
{
	size_t row, len;

	if (!ltd_change_shown(c))
		return false;
	len = c->flags & LTD_CHF_REFUSED ? ltd_change_git_own(c->path, &row)
					 : 0;
	if (len && l->git && len == l->git_len &&
	    !strncmp(c->path, l->git->path, len) && c->why == l->git->why) {
		l->n_git++;
		l->rows |= 1u << row;
		return false;
	}
	ltd_change_lines_end(l);
	if (len) {
		*l = (struct ltd_change_lines){l->out, l->indent, c,
					       len,    1,	  1u << row};
		return true;
	}
	fputs(l->indent, l->out);
	ltd_change_print(l->out, c);
	return true;
}

bool ltd_change_path_arg(const char *project, const char *arg, char *buf,
			 size_t size)
{
	size_t n = strlen(project), len;

	if (!strncmp(arg, project, n) && (arg[n] == '/' || !arg[n]))
		arg += n;
	while (*arg == '/' || (arg[0] == '.' && arg[1] == '/'))
		arg += *arg == '/' ? 1 : 2;
	len = strlen(arg);
	if (len >= size)
		return false;
	memcpy(buf, arg, len + 1);
	while (len > 0 && buf[len - 1] == '/')
		buf[--len] = '\0';
	if (!strcmp(buf, "."))
		buf[0] = '\0';
	return true;
}

bool ltd_change_named(const struct ltd_change *c, const char *p)
{
	return !p[0] || ltd_change_under(c->path, p) ||
	       (c->from && ltd_change_under(c->from, p));
}
