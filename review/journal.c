// SPDX-License-Identifier: GPL-2.0-or-later
/* The apply journal and its operations (see journal.h). */
#include "review/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base.h"
#include "common/cleanup.h"
#include "common/path.h"
#include "review/fs.h"

#define JOURNAL_MAX (256 * 1024 * 1024)

static const char *const op_names[] = {
	[LTD_LOP_PUT] = "put",	   [LTD_LOP_REMOVE] = "remove",
	[LTD_LOP_RMDIR] = "rmdir", [LTD_LOP_MKDIR] = "mkdir",
	[LTD_LOP_CHMOD] = "chmod",
};

int ltd_journal_add_op(struct ltd_journal *j, enum ltd_op_kind kind,
		       const char *path, unsigned stage, mode_t mode)
{
	struct ltd_land_op *v = realloc(j->ops, (j->n_ops + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	j->ops = v;
	v[j->n_ops] = (struct ltd_land_op){.kind = kind,
					   .stage = stage,
					   .mode = mode,
					   .path = strdup(path)};
	if (!v[j->n_ops].path)
		return -ENOMEM;
	j->n_ops++;
	return 0;
}

int ltd_journal_add_landed(struct ltd_journal *j, const char *path)
{
	char **v = realloc(j->landed, (j->n_landed + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	j->landed = v;
	if (!(v[j->n_landed] = strdup(path)))
		return -ENOMEM;
	j->n_landed++;
	return 0;
}

void ltd_journal_free(struct ltd_journal *j)
{
	for (size_t i = 0; i < j->n_ops; i++)
		free(j->ops[i].path);
	for (size_t i = 0; i < j->n_landed; i++)
		free(j->landed[i]);
	free(j->ops);
	free(j->landed);
	j->ops = NULL;
	j->landed = NULL;
	j->n_ops = j->n_landed = 0;
}

char *ltd_journal_format(const struct ltd_journal *j)
{
	json_t *o = json_object(), *ops = json_array(), *landed = json_array();
	char *s;

	for (size_t i = 0; o && ops && i < j->n_ops; i++) {
		const struct ltd_land_op *op = &j->ops[i];

		json_array_append_new(
			ops,
			json_pack("[s, s, I, I]", op_names[op->kind], op->path,
				  (json_int_t)op->stage, (json_int_t)op->mode));
	}
	for (size_t i = 0; landed && i < j->n_landed; i++)
		json_array_append_new(landed, json_string(j->landed[i]));
	json_object_set_new(o, "version", json_integer(1));
	json_object_set_new(o, "state",
			    json_string(j->landing ? "landing" : "staging"));
	json_object_set_new(o, "project", json_string(j->project));
	json_object_set_new(o, "staging", json_string(j->staging));
	json_object_set_new(o, "ops", ops);
	json_object_set_new(o, "landed", landed);
	s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	return s;
}

static int parse_op(json_t *v, struct ltd_journal *j)
{
	const char *name, *path;
	json_int_t stage, mode;

	if (json_unpack(v, "[s, s, I, I]", &name, &path, &stage, &mode) < 0 ||
	    stage < 0 || mode < 0 || mode > 07777 || !path[0] || path[0] == '/')
		return -EINVAL;
	for (size_t k = 0; k < ARRAY_SIZE(op_names); k++)
		if (!strcmp(name, op_names[k]))
			return ltd_journal_add_op(j, (enum ltd_op_kind)k, path,
						  (unsigned)stage,
						  (mode_t)mode);
	return -EINVAL;
}

int ltd_journal_parse(const char *text, struct ltd_journal *j,
		      struct ltd_err *err)
{
	json_error_t jerr;
	json_t *o = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	json_t *ops = NULL, *landed = NULL, *v;
	const char *state, *project, *staging;
	size_t i;
	int ret = 0;

	*j = (struct ltd_journal){0};
	if (!o)
		return ltd_err_set(err, EINVAL, "journal.json: %s", jerr.text);
	if (json_unpack(o, "{s:s, s:s, s:s, s:o, s:o}", "state", &state,
			"project", &project, "staging", &staging, "ops", &ops,
			"landed", &landed) < 0 ||
	    !json_is_array(ops) || !json_is_array(landed) ||
	    strlen(project) >= sizeof(j->project) ||
	    !ltd_path_is_normal(project) || !strcmp(project, "/") ||
	    strlen(staging) >= sizeof(j->staging) || strchr(staging, '/') ||
	    strncmp(staging, ".ltd-native-apply.", 18) != 0)
		ret = -EINVAL;
	if (!ret) {
		j->landing = !strcmp(state, "landing");
		snprintf(j->project, sizeof(j->project), "%s", project);
		snprintf(j->staging, sizeof(j->staging), "%s", staging);
	}
	json_array_foreach(ops, i, v) if (!ret) ret = parse_op(v, j);
	json_array_foreach(landed, i, v) if (!ret)
	{
		if (!json_is_string(v))
			ret = -EINVAL;
		else
			ret = ltd_journal_add_landed(j, json_string_value(v));
	}
	json_decref(o);
	if (ret < 0) {
		ltd_journal_free(j);
		return ltd_err_set(err, EINVAL,
				   "journal.json: not an apply's journal");
	}
	return 0;
}

int ltd_journal_save(int dir, const struct ltd_journal *j, struct ltd_err *err)
{
	_cleanup_free_ char *text = ltd_journal_format(j);
	_cleanup_close_ int fd = -1;
	int ret;

	if (!text)
		return ltd_err_set(err, ENOMEM, "out of memory");
	unlinkat(dir, "journal.json.tmp", 0);
	fd = openat(dir, "journal.json.tmp",
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return ltd_err_sys(err, "write the apply's journal");
	ret = ltd_write_all(fd, text, strlen(text));
	if (!ret && fsync(fd) < 0)
		ret = -errno;
	if (!ret && renameat(dir, "journal.json.tmp", dir, "journal.json") < 0)
		ret = -errno;
	/* The rename itself must be on disk before anything lands. */
	if (!ret && fsync(dir) < 0)
		ret = -errno;
	if (ret < 0) {
		errno = -ret;
		return ltd_err_sys(err, "write the apply's journal");
	}
	return 0;
}

int ltd_journal_load(int dir, struct ltd_journal *j, struct ltd_err *err)
{
	_cleanup_close_ int fd =
		ltd_beneath(dir, "journal.json", O_RDONLY | O_NOFOLLOW);
	_cleanup_free_ char *text = NULL;
	size_t len;
	int ret;

	*j = (struct ltd_journal){0};
	if (fd < 0)
		return errno == ENOENT ? -ENOENT
				       : ltd_err_sys(err, "open journal.json");
	ret = ltd_read_fd(fd, JOURNAL_MAX, &text, &len);
	if (ret < 0) {
		errno = -ret;
		return ltd_err_sys(err, "read journal.json");
	}
	return ltd_journal_parse(text, j, err);
}

int ltd_journal_remove(int dir, struct ltd_err *err)
{
	if (unlinkat(dir, "journal.json", 0) < 0 && errno != ENOENT)
		return ltd_err_sys(err, "remove the apply's journal");
	fsync(dir);
	return 0;
}

/* One operation; what is already done is no error (a replay). */
static int land_one(const struct ltd_land_op *op, int project, int staging)
{
	const char *leaf;
	_cleanup_close_ int dir = ltd_beneath_parent(project, op->path, &leaf);
	char stage[16];

	/* A removal below what a later operation replaced (a replay: the
	 * directory is a link now) has nothing left to remove, and is never
	 * done through the link. */
	if (dir < 0 &&
	    (op->kind == LTD_LOP_REMOVE || op->kind == LTD_LOP_RMDIR) &&
	    (errno == ENOENT || errno == ENOTDIR || errno == ELOOP))
		return 0;
	if (dir < 0)
		return -errno;
	switch (op->kind) {
	case LTD_LOP_PUT:
		/* No staging directory left: every copy has landed. */
		if (staging < 0)
			return 0;
		snprintf(stage, sizeof(stage), "%u", op->stage);
		if (renameat(staging, stage, dir, leaf) == 0)
			return 0;
		/* Gone from the staging directory: landed before a crash. */
		return errno == ENOENT && faccessat(staging, stage, F_OK,
						    AT_SYMLINK_NOFOLLOW) < 0
			       ? 0
			       : -errno;
	case LTD_LOP_REMOVE:
		if (unlinkat(dir, leaf, 0) == 0 || errno == ENOENT ||
		    errno == EISDIR)
			return 0;
		return -errno;
	case LTD_LOP_RMDIR:
		if (unlinkat(dir, leaf, AT_REMOVEDIR) == 0 || errno == ENOENT ||
		    errno == ENOTDIR)
			return 0;
		return -errno;
	case LTD_LOP_MKDIR:
		if (mkdirat(dir, leaf, 0700) == 0 || errno == EEXIST)
			return 0;
		return -errno;
	case LTD_LOP_CHMOD:
		return ltd_chmod_beneath(dir, leaf, op->mode);
	}
	return -EINVAL;
}

int ltd_journal_land(const struct ltd_journal *j, int project, int staging,
		     struct ltd_err *err)
{
	for (size_t i = 0; i < j->n_ops; i++) {
		int ret;

		if (j->crash_after && i == j->crash_after)
			raise(SIGKILL);
		ret = land_one(&j->ops[i], project, staging);

		if (ret < 0) {
			errno = -ret;
			return ltd_err_sys(err, "apply: %s '%s'",
					   op_names[j->ops[i].kind],
					   j->ops[i].path);
		}
	}
	return 0;
}
