// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Derived policy items: what the tier, the seam, the command resolver and
 * the agents' adapters add to the policy from what they read on the host
 * (binds, disposable copies, generated files and links, variables, notes).
 * Each keeps where it came from, for `policy show`.  Pure list keeping.
 */
#include "policy/option.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

static int oom(struct ltd_err *err)
{
	return ltd_err_set(err, ENOMEM, "out of memory");
}

const char *ltd_policy_intern(struct ltd_policy *p, const char *s)
{
	char **v;

	for (size_t i = 0; i < p->n_interned; i++)
		if (strcmp(p->interned[i], s) == 0)
			return p->interned[i];
	v = ltd_vec_push(&p->interned, p->n_interned);
	if (!v || !(*v = strdup(s)))
		return NULL;
	p->n_interned++;
	return *v;
}

int ltd_policy_add_derived(struct ltd_policy *p, enum ltd_user_mount_kind kind,
			   const char *why, const char *src, const char *dst,
			   unsigned state, unsigned waive, struct ltd_err *err)
{
	struct ltd_user_mount *m;
	const char *w = ltd_policy_intern(p, why);
	size_t at = 0;

	if (!w)
		return oom(err);
	/* After the derived ones already there, before the user's. */
	while (at < p->n_mounts && p->mounts[at].derived)
		at++;
	if (!ltd_vec_push(&p->mounts, p->n_mounts))
		return oom(err);
	m = p->mounts;
	memmove(&m[at + 1], &m[at], (p->n_mounts - at) * sizeof(*m));
	m[at] = (struct ltd_user_mount){.kind = kind,
					.flag = w,
					.state = state,
					.waive = waive,
					.derived = true};
	m[at].src = src ? strdup(src) : NULL;
	m[at].dst = strdup(dst);
	p->n_mounts++;
	if ((src && !m[at].src) || !m[at].dst)
		return oom(err);
	return 0;
}

int ltd_policy_add_copy(struct ltd_policy *p, const char *src, const char *dst,
			struct ltd_err *err)
{
	struct ltd_copy *c = ltd_vec_push(&p->copies, p->n_copies);

	if (!c)
		return oom(err);
	*c = (struct ltd_copy){strdup(src), strdup(dst)};
	p->n_copies++;
	if (!c->src || !c->dst)
		return oom(err);
	return 0;
}

static int put_file(struct ltd_cage_file **files, size_t *n_files,
		    struct ltd_policy *p, const char *dst, const char *content,
		    size_t len, mode_t mode, const char *why,
		    struct ltd_err *err)
{
	struct ltd_cage_file *f = NULL;
	const char *w = ltd_policy_intern(p, why);
	char *c = malloc(len + 1), *d = strdup(dst);

	if (!w || !c || !d) {
		free(c);
		free(d);
		return oom(err);
	}
	memcpy(c, content, len);
	c[len] = '\0';
	for (size_t i = 0; i < *n_files && !f; i++)
		if (strcmp((*files)[i].dst, dst) == 0)
			f = &(*files)[i];
	if (!f) {
		f = ltd_vec_push(files, *n_files);
		if (!f) {
			free(c);
			free(d);
			return oom(err);
		}
		(*n_files)++;
	}
	free(f->dst);
	free(f->content);
	*f = (struct ltd_cage_file){
		.dst = d, .content = c, .len = len, .mode = mode, .why = w};
	return 0;
}

int ltd_policy_add_file(struct ltd_policy *p, const char *dst,
			const char *content, size_t len, mode_t mode,
			const char *why, struct ltd_err *err)
{
	return put_file(&p->files, &p->n_files, p, dst, content, len,
			mode ? mode : 0600, why, err);
}

int ltd_policy_add_link(struct ltd_policy *p, const char *dst,
			const char *target, const char *why,
			struct ltd_err *err)
{
	return put_file(&p->files, &p->n_files, p, dst, target, strlen(target),
			0, why, err);
}

int ltd_policy_add_seed(struct ltd_policy *p, const char *path,
			const char *content, size_t len, const char *why,
			struct ltd_err *err)
{
	return put_file(&p->seeds, &p->n_seeds, p, path, content, len, 0600,
			why, err);
}

int ltd_policy_set_env(struct ltd_policy *p, const char *key, const char *val,
		       const char *why, struct ltd_err *err)
{
	struct ltd_env_item *e = NULL;
	const char *w = ltd_policy_intern(p, why);
	char *k = strdup(key), *v = strdup(val);

	if (!w || !k || !v) {
		free(k);
		free(v);
		return oom(err);
	}
	for (size_t i = 0; i < p->n_derived_env && !e; i++)
		if (strcmp(p->derived_env[i].key, key) == 0)
			e = &p->derived_env[i];
	if (!e) {
		e = ltd_vec_push(&p->derived_env, p->n_derived_env);
		if (!e) {
			free(k);
			free(v);
			return oom(err);
		}
		p->n_derived_env++;
	}
	free(e->key);
	free(e->val);
	*e = (struct ltd_env_item){.key = k, .val = v, .why = w};
	return 0;
}

static int vnote(char ***list, size_t *n, struct ltd_err *err, const char *fmt,
		 va_list ap)
{
	char *s = NULL;
	int ret;

	if (vasprintf(&s, fmt, ap) < 0)
		return oom(err);
	ret = ltd_policy_add_note(list, n, "%s", s);
	free(s);
	return ret < 0 ? oom(err) : 0;
}

int ltd_policy_note(struct ltd_policy *p, struct ltd_err *err, const char *fmt,
		    ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vnote(&p->notes, &p->n_notes, err, fmt, ap);
	va_end(ap);
	return ret;
}

int ltd_policy_warn(struct ltd_policy *p, struct ltd_err *err, const char *fmt,
		    ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vnote(&p->warnings, &p->n_warnings, err, fmt, ap);
	va_end(ap);
	return ret;
}
