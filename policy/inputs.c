// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Files the next run reads, named by this one: --policy FILE, the domain
 * allowlists (--allow-domains-file, LTD_ALLOW_DOMAINS_FILE, and the
 * machine-local ones), --audit-log FILE (its past lines).  The cage must
 * not be able to change them: nothing inside widens the next run, and the
 * record of this one stays the launcher's.
 *
 * Where the cage can write on the host: the project and the sources of
 * writable binds (its /tmp and $HOME are tmpfs of its own).  A file in a
 * writable bind is refused, with the fix; one in the project is listed in
 * p->inputs_in_project, which protect/ adds to the protected paths (bound
 * read-only over itself, its directories pinned, no link in the project
 * on its way).  The audit log is written by the launcher and ltd-dnsd
 * through the descriptor the launcher opened before the cage existed, so
 * read-only inside costs it nothing.  Judged by the real path (links
 * resolved) and by the text.
 */
#include "policy/option.h"
#include "policy/policy.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/path.h"

enum input_kind {
	IN_POLICY,  /* read by the resolver: as given */
	IN_DOMAINS, /* must exist; replaced by its real path */
	IN_AUDIT,   /* may be missing (created by the launcher): its
		       directory's real path and its name */
	IN_LOCAL,   /* machine-local, may be missing; judged when it is a
		       link */
};

struct input {
	const char *flag; /* for messages */
	char *named;	  /* absolute, normalized: by the text */
	char real[PATH_MAX];
	const char *why;
};

/* @given made absolute (from the current directory) and normalized. */
static int absolute(const char *flag, const char *given, char **out,
		    struct ltd_err *err)
{
	char cwd[PATH_MAX];

	if (given[0] == '/') {
		*out = strdup(given);
	} else {
		if (!getcwd(cwd, sizeof(cwd)))
			return ltd_err_sys(err, "%s: current directory", flag);
		if (asprintf(out, "%s/%s", cwd, given) < 0)
			*out = NULL;
	}
	if (!*out)
		return ltd_err_set(err, ENOMEM, "out of memory");
	ltd_path_normalize(*out);
	return 0;
}

/* The real path of @in->named into @in->real; "" when it does not exist
 * (and may not).  The audit log's last component is not followed: the
 * launcher opens it O_NOFOLLOW. */
static int resolve_real(struct input *in, enum input_kind kind,
			struct ltd_err *err)
{
	char dir[PATH_MAX], *slash;

	in->real[0] = '\0';
	if (kind != IN_AUDIT) {
		if (realpath(in->named, in->real))
			return 0;
		in->real[0] = '\0';
		if (kind == IN_DOMAINS)
			return ltd_err_sys(err, "%s: '%s'", in->flag,
					   in->named);
		return 0;
	}
	if (strlen(in->named) >= sizeof(dir))
		return ltd_err_set(err, ENAMETOOLONG, "%s: path too long",
				   in->flag);
	strcpy(dir, in->named);
	slash = strrchr(dir, '/');
	*slash = '\0';
	if (!realpath(dir[0] ? dir : "/", in->real)) {
		in->real[0] = '\0';
		return 0; /* the launcher's open says what is wrong */
	}
	if (strlen(in->real) + strlen(slash + 1) + 2 > sizeof(in->real))
		return ltd_err_set(err, ENAMETOOLONG, "%s: path too long",
				   in->flag);
	if (strcmp(in->real, "/") != 0)
		strcat(in->real, "/");
	strcat(in->real, slash + 1);
	return 0;
}

/* Refuse @in when it lies in a source the cage can write. */
static int refuse_in_binds(const struct ltd_policy *p, const struct input *in,
			   struct ltd_err *err)
{
	for (size_t i = 0; i < p->n_mounts; i++) {
		const struct ltd_user_mount *m = &p->mounts[i];
		const char *hit = NULL;

		if (m->kind != LTD_UM_BIND || !m->src)
			continue;
		if (in->real[0] && ltd_path_is_under(in->real, m->src))
			hit = in->real;
		else if (in->named && ltd_path_is_under(in->named, m->src))
			hit = in->named;
		if (!hit)
			continue;
		return ltd_err_set(err, EPERM,
				   "%s: refusing '%s': it lies in '%s', which "
				   "%s%s makes writable to the command: %s; "
				   "move it out of what the cage can write, "
				   "or bind that read-only (--ro-bind)",
				   in->flag, hit, m->src,
				   m->derived ? "" : "--", m->flag, in->why);
	}
	return 0;
}

/* In the project (not the project itself). */
static bool in_project(const struct ltd_policy *p, const char *path)
{
	return ltd_path_is_under(path, p->project) &&
	       strcmp(path, p->project) != 0;
}

/* @in, where it lies in the project, listed by its text (a link on the
 * way refuses the run) and by its real path: protect/ keeps it read-only. */
static int list_in_project(struct ltd_policy *p, const struct input *in,
			   struct ltd_err *err)
{
	int ret = 0;

	if (in->named && in_project(p, in->named))
		ret = ltd_policy_add_note(&p->inputs_in_project,
					  &p->n_inputs_in_project, "%s",
					  in->named);
	if (!ret && in->real[0] && in_project(p, in->real))
		ret = ltd_policy_add_note(&p->inputs_in_project,
					  &p->n_inputs_in_project, "%s",
					  in->real);
	return ret < 0 ? ltd_err_set(err, ENOMEM, "out of memory") : 0;
}

static int judge(struct ltd_policy *p, const char *flag, const char *given,
		 enum input_kind kind, const char *why, char **replace,
		 struct ltd_err *err)
{
	struct input in = {.flag = flag, .why = why};
	int ret;

	ret = absolute(flag, given, &in.named, err);
	if (!ret)
		ret = resolve_real(&in, kind, err);
	/* A machine-local file that is where it says is the gate's (its
	 * directory is gated); one that is a link is judged here. */
	if (!ret && kind == IN_LOCAL &&
	    (!in.real[0] || strcmp(in.real, in.named) == 0)) {
		free(in.named);
		return 0;
	}
	if (!ret)
		ret = refuse_in_binds(p, &in, err);
	if (!ret)
		ret = list_in_project(p, &in, err);
	if (!ret && replace && in.real[0]) {
		char *r = strdup(in.real);

		if (!r)
			ret = ltd_err_set(err, ENOMEM, "out of memory");
		else {
			free(*replace);
			*replace = r;
		}
	}
	free(in.named);
	return ret;
}

#define WIDEN                                                                  \
	"the command could rewrite it and widen the next run that reads it"

int ltd_policy_inputs(struct ltd_policy *p, struct ltd_err *err)
{
	static const char *const local[] = {
		"/.config/ltd-native/policy",
		LTD_LOCAL_DOMAIN_FILES,
	};
	char path[PATH_MAX];
	int ret = 0;

	for (size_t i = 0; !ret && i < p->n_policy_files; i++)
		ret = judge(p, "--policy", p->policy_files[i], IN_POLICY, WIDEN,
			    NULL, err);
	for (size_t i = 0; !ret && i < p->n_domain_files; i++)
		ret = judge(p, "--allow-domains-file", p->domain_files[i],
			    IN_DOMAINS, WIDEN, &p->domain_files[i], err);
	if (!ret && p->audit_log)
		ret = judge(p, "--audit-log", p->audit_log, IN_AUDIT,
			    "the command could rewrite the lines the launcher "
			    "wrote",
			    &p->audit_log, err);
	for (size_t i = 0;
	     !ret && p->id.home && i < sizeof(local) / sizeof(*local); i++) {
		if (snprintf(path, sizeof(path), "%s%s", p->id.home,
			     local[i]) >= (int)sizeof(path))
			continue;
		ret = judge(p, path, path, IN_LOCAL, WIDEN, NULL, err);
	}
	/* The warnings `doctor --acknowledge` silenced (runtime/standing.h). */
	if (!ret && p->id.home &&
	    snprintf(path, sizeof(path), "%s/.config/ltd-native/acknowledged",
		     p->id.home) < (int)sizeof(path))
		ret = judge(p, path, path, IN_LOCAL,
			    "the command could silence the next run's "
			    "warnings",
			    NULL, err);
	/* What was listed is checked for links in the project on its way
	 * with the rest of the protected paths (protect/). */
	return ret;
}
