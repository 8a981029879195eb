// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `review`, `review NAME` and `discard NAME`; opening a review to read it.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/path.h"
#include "common/text.h"
#include "protect/protect.h"
#include "review/apply.h"
#include "review/conflict.h"
#include "review/fs.h"
#include "review/held.h"
#include "review/review.h"

extern char **environ;

/* The project's protected paths, as a run of it would have them. */
static int project_policy(struct ltd_review_view *v,
			  const struct ltd_host_user *user, struct ltd_err *err)
{
	char *argv[] = {"--project", v->meta.project, NULL};
	struct ltd_policy_input in = {.user = user,
				      .argc = 2,
				      .argv = argv,
				      .need_command = false,
				      .env = environ};
	int ret;

	ltd_policy_init(&v->policy);
	v->policy_init = true;
	ret = ltd_policy_resolve(&v->policy, &in, err);
	if (!ret)
		ret = ltd_policy_validate(&v->policy, user, err);
	if (!ret)
		ret = ltd_protect_project(&v->policy, &v->prot, err);
	v->policy_ok = ret == 0;
	return ret;
}

int ltd_review_view_open(struct ltd_review_view *v, const char *name,
			 const struct ltd_host_user *user, unsigned how,
			 struct ltd_err *err)
{
	bool strict = how & LTD_VIEW_STRICT;
	char base_path[PATH_MAX];
	int ret;

	*v = (struct ltd_review_view)LTD_REVIEW_VIEW_INIT;
	v->base = ltd_reviews_open(false, base_path, err);
	if (v->base == -ENOENT)
		return ltd_err_set(err, ENOENT, "there is no review '%s'",
				   name);
	if (v->base < 0)
		return v->base;
	v->dir = ltd_review_dir(v->base, name, false, err);
	if (v->dir < 0)
		return v->dir;
	ret = ltd_review_meta_load(v->dir, &v->meta, err);
	if (ret == -ENOENT)
		return ltd_review_no_record(name, base_path, err);
	if (ret < 0)
		return ltd_err_prefix(err, "review '%s': %s/%s", name,
				      base_path, name);
	/* A record planted under another review's name is no record of
	 * this one. */
	if (strcmp(v->meta.name, name) != 0)
		return ltd_err_set(err, EINVAL,
				   "review '%s': %s/%s/meta.json names "
				   "another review ('%s'): refusing it",
				   name, base_path, name, v->meta.name);
	v->stopped = ltd_review_stopped(v->dir);
	if (v->stopped && !(how & LTD_VIEW_QUIET))
		ltd_review_say_stopped(name);
	if (ltd_path_fmt(v->upper_path, sizeof(v->upper_path), "%s/%s/upper",
			 base_path, name) < 0)
		return ltd_err_set(err, ENAMETOOLONG, "review '%s'", name);
	v->upper = ltd_beneath(v->dir, "upper", O_RDONLY | O_DIRECTORY);
	if (v->upper < 0)
		return ltd_err_sys(err, "review '%s': its upper directory",
				   name);
	v->project = ltd_open_nofollow(v->meta.project, O_RDONLY | O_DIRECTORY);
	if (v->project < 0)
		return ltd_err_sys(err, "review '%s': its project %s", name,
				   v->meta.project);
	ret = ltd_changes_read(v->upper, v->project, &v->ch, err);
	if (ret < 0)
		return ltd_err_prefix(err, "review '%s'", name);
	ret = project_policy(v, user, err);
	if (ret < 0 && strict)
		return ltd_err_prefix(err,
				      "review '%s': what the project protects "
				      "cannot be told",
				      name);
	if (ret < 0 && (how & LTD_VIEW_QUIET)) {
		*err = (struct ltd_err){0};
	} else if (ret < 0) {
		char msg[LTD_ERR_MSG_MAX + 96];

		snprintf(msg, sizeof(msg),
			 "what the project protects cannot be told (%s): "
			 "judged by ltd-native's tables alone",
			 err->msg);
		ltd_warn(msg);
		*err = (struct ltd_err){0};
	}
	ret = ltd_review_hold(&v->ch, v->meta.project,
			      (const char *const *)v->prot.paths, v->prot.n,
			      v->upper, v->project, err);
	if (!ret)
		ltd_review_git_check(&v->ch, v->meta.project, v->upper_path);
	if (!ret && ltd_review_mark_conflicts(&v->ch, v->project, &v->meta) < 0)
		ret = ltd_err_set(err, ENOMEM, "out of memory");
	return ret;
}

void ltd_review_view_close(struct ltd_review_view *v)
{
	ltd_changes_free(&v->ch);
	ltd_review_meta_free(&v->meta);
	ltd_protected_free(&v->prot);
	if (v->policy_init)
		ltd_policy_free(&v->policy);
	v->policy_init = false;
	ltd_closep(&v->project);
	ltd_closep(&v->upper);
	ltd_closep(&v->dir);
	ltd_closep(&v->base);
	v->project = v->upper = v->dir = v->base = -1;
}

int ltd_review_paths(const struct ltd_review_view *v, const char *cmd,
		     char *const *args, size_t n, char ***out,
		     struct ltd_err *err)
{
	char **p = n ? calloc(n, sizeof(*p)) : NULL;
	char buf[PATH_MAX];

	*out = NULL;
	if (n && !p)
		return ltd_err_set(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		bool named = false;

		if (!ltd_change_path_arg(v->meta.project, args[i], buf,
					 sizeof(buf)) ||
		    !(p[i] = strdup(buf))) {
			ltd_review_paths_free(p, n);
			return ltd_err_set(err, ENAMETOOLONG, "%s %s: '%s'",
					   cmd, v->meta.name, args[i]);
		}
		for (size_t k = 0; !named && k < v->ch.n; k++)
			named = ltd_change_named(&v->ch.v[k], p[i]);
		if (!named && p[i][0]) {
			ltd_review_paths_free(p, n);
			return ltd_err_set(err, EINVAL,
					   "%s %s: '%s' is not a change of "
					   "review %s",
					   cmd, v->meta.name, args[i],
					   v->meta.name);
		}
	}
	*out = p;
	return 0;
}

void ltd_review_paths_free(char **paths, size_t n)
{
	for (size_t i = 0; paths && i < n; i++)
		free(paths[i]);
	free(paths);
}

static void when(char *buf, size_t size, time_t t)
{
	struct tm tm;

	if (!localtime_r(&t, &tm) ||
	    !strftime(buf, size, "%Y-%m-%d %H:%M", &tm))
		snprintf(buf, size, "?");
}

/* One review's counts, judged as `review NAME` and apply judge it. */
static int count_one(const struct ltd_review_info *r,
		     const struct ltd_host_user *user,
		     struct ltd_change_counts *n)
{
	struct ltd_review_view v = LTD_REVIEW_VIEW_INIT;
	struct ltd_err err = {0};
	int ret = ltd_review_view_open(&v, r->meta.name, user, LTD_VIEW_QUIET,
				       &err);

	*n = (struct ltd_change_counts){0};
	if (!ret)
		ltd_changes_count(&v.ch, n);
	ltd_review_view_close(&v);
	return ret;
}

static json_t *info_json(const struct ltd_review_info *r, bool counted,
			 const struct ltd_change_counts *n)
{
	json_t *o;

	if (!r->record)
		return json_pack("{s:s, s:b, s:b, s:b}", "name", r->meta.name,
				 "record", 0, "running", r->live, "stopped",
				 r->stopped);
	o = json_pack("{s:s, s:b, s:s, s:I, s:I, s:I, s:b, s:b}", "name",
		      r->meta.name, "record", 1, "project", r->meta.project,
		      "began", (json_int_t)r->meta.began.tv_sec, "last_run",
		      (json_int_t)r->meta.last_run, "runs",
		      (json_int_t)r->meta.runs, "running", r->live, "stopped",
		      r->stopped);
	if (o)
		json_object_set_new(o, "changes",
				    counted ? ltd_counts_json(n) : json_null());
	return o;
}

static void info_line(FILE *out, const struct ltd_review_info *r, bool counted,
		      const struct ltd_change_counts *n)
{
	char began[32];

	ltd_fput_shown(out, r->meta.name);
	if (!r->record) {
		fputs("  (no record: the machine may have stopped during its "
		      "first run; 'ltd-native discard ",
		      out);
		ltd_fput_shown(out, r->meta.name);
		fputs("' removes it)\n", out);
		return;
	}
	when(began, sizeof(began), r->meta.began.tv_sec);
	fputs("  ", out);
	ltd_fput_shown(out, r->meta.project);
	fprintf(out, "  %s%s%s  ", began, r->live ? "  (running)" : "",
		r->stopped ? "  (the machine stopped during a run)" : "");
	if (counted)
		ltd_counts_print(out, n);
	else
		fputs("(changes not readable)", out);
	fputc('\n', out);
}

int ltd_review_list_print(FILE *out, bool json,
			  const struct ltd_host_user *user, struct ltd_err *err)
{
	struct ltd_review_info *v = NULL;
	json_t *arr = json ? json_array() : NULL;
	_cleanup_close_ int base = ltd_reviews_open(false, NULL, err);
	size_t n = 0;
	int ret = 0;

	if (base == -ENOENT) {
		base = -1;
	} else if (base < 0) {
		json_decref(arr);
		return base;
	} else {
		ret = ltd_review_list(base, &v, &n, err);
	}
	for (size_t i = 0; !ret && i < n; i++) {
		struct ltd_change_counts c;
		bool counted = v[i].record && count_one(&v[i], user, &c) == 0;

		if (json)
			json_array_append_new(arr,
					      info_json(&v[i], counted, &c));
		else
			info_line(out, &v[i], counted, &c);
	}
	if (!ret && json) {
		json_dumpf(arr, out,
			   JSON_INDENT(2) | JSON_PRESERVE_ORDER |
				   JSON_ENSURE_ASCII);
		fputc('\n', out);
	} else if (!ret && !n) {
		fputs("no pending reviews\n", out);
	}
	json_decref(arr);
	ltd_review_infos_free(v, n);
	return ret;
}

/* `review NAME --json`: the review as `review --json` lists it, and
 * "paths": each change. */
static int status_json(FILE *out, struct ltd_review_view *v,
		       const struct ltd_change_counts *n, struct ltd_err *err)
{
	struct ltd_review_info info = {.meta = v->meta,
				       .live = ltd_review_busy(v->dir),
				       .record = true,
				       .stopped = v->stopped};
	json_t *o = info_json(&info, true, n), *paths = json_array();

	for (size_t i = 0; o && paths && i < v->ch.n; i++)
		if (ltd_change_shown(&v->ch.v[i]) &&
		    json_array_append_new(paths, ltd_change_json(&v->ch.v[i])) <
			    0)
			break;
	if (!o || !paths || json_object_set_new(o, "paths", paths) < 0) {
		json_decref(o);
		return ltd_err_set(err, ENOMEM, "out of memory");
	}
	json_dumpf(o, out,
		   JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	fputc('\n', out);
	json_decref(o);
	return 0;
}

int ltd_review_status(FILE *out, const char *name, bool json,
		      const struct ltd_host_user *user, struct ltd_err *err)
{
	struct ltd_review_view v = LTD_REVIEW_VIEW_INIT;
	struct ltd_change_counts n;
	int ret = ltd_review_recover_pending(json ? stderr : out, name, err);

	if (!ret)
		ret = ltd_review_view_open(&v, name, user, 0, err);
	if (!ret)
		ltd_changes_count(&v.ch, &n);
	if (!ret && json) {
		ret = status_json(out, &v, &n, err);
	} else if (!ret) {
		/* A first line as `git status -sb` has one: the counts,
		 * as `review` and the run's summary give them. */
		fputs("## ", out);
		ltd_fput_shown(out, name);
		fputs(": ", out);
		ltd_counts_print(out, &n);
		fputc('\n', out);
		struct ltd_change_lines l = {.out = out, .indent = ""};

		for (size_t i = 0; i < v.ch.n; i++)
			ltd_change_lines_add(&l, &v.ch.v[i]);
		ltd_change_lines_end(&l);
	}
	ltd_review_view_close(&v);
	return ret;
}

int ltd_review_discard(FILE *out, const char *name, struct ltd_err *err)
{
	_cleanup_close_ int base = ltd_reviews_open(false, NULL, err);
	_cleanup_close_ int dir = -1, lock = -1;
	int ret;

	if (base == -ENOENT)
		return ltd_err_set(err, ENOENT, "there is no review '%s'",
				   name);
	if (base < 0)
		return base;
	/* An interrupted apply is finished first: half of it is in the
	 * project already.  One that cannot be (its project gone) is said,
	 * and the review goes all the same: the user asked. */
	ret = ltd_review_recover_pending(out, name, err);
	if (ret == -EBUSY)
		return ret;
	if (ret < 0) {
		ltd_warn(err->msg);
		*err = (struct ltd_err){0};
	}
	dir = ltd_review_dir(base, name, false, err);
	if (dir < 0)
		return dir;
	lock = ltd_review_lock(dir, err);
	if (lock == -EWOULDBLOCK)
		return ltd_err_set(err, EBUSY,
				   "review '%s' is in use: a run of it is "
				   "live, or it is being applied",
				   name);
	if (lock < 0)
		return lock;
	ltd_closep(&dir);
	dir = -1;
	ret = ltd_review_remove(base, name, err);
	if (!ret) {
		fputs("ltd-native: discarded review ", out);
		ltd_fput_shown(out, name);
		fputc('\n', out);
	}
	return ret;
}

void ltd_review_names(char *buf, size_t size)
{
	struct ltd_err err = {0};
	struct ltd_review_info *v = NULL;
	_cleanup_close_ int base = ltd_reviews_open(false, NULL, &err);
	size_t n = 0, len = 0;

	if (size)
		buf[0] = '\0';
	if (base < 0 || ltd_review_list(base, &v, &n, &err) < 0)
		return;
	for (size_t i = 0; i < n && len < size; i++) {
		int k = snprintf(buf + len, size - len, "%s%s", i ? ", " : "",
				 v[i].meta.name);

		len += k > 0 ? (size_t)k : 0;
	}
	ltd_review_infos_free(v, n);
}
