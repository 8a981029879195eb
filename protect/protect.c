// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The project's protection, in the order each part needs: git's paths
 * first (the others are judged against them), then Claude Code's, then
 * the other host programs' (hostrun.c), then ltd-native's own policy
 * file; links last, over all of them.
 */
#include "protect/protect.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>

#include "common/path.h"
#include "protect/agentprotect.h"
#include "protect/gitbinds.h"
#include "protect/gitprotect.h"
#include "protect/hostrun.h"

/* The project's own policy file: read-only inside, like .git/config
 * (the approval would refuse a changed one; this keeps it from changing). */
static int protect_policy_dir(struct ltd_protected *s, struct ltd_err *err)
{
	char path[PATH_MAX];

	if (ltd_path_fmt(path, sizeof(path), "%s/.ltd-native", s->project) < 0)
		return ltd_err_set(err, ENAMETOOLONG, "--project: too long");
	return ltd_protected_add(s, path, err);
}

int ltd_protect_project(const struct ltd_policy *p, struct ltd_protected *out,
			struct ltd_err *err)
{
	int ret = 0;

	ltd_protected_free(out);
	ltd_protected_for(out, p);
	if (p->protect_git)
		ret = ltd_gitprotect_project(p, out, err);
	if (!ret && p->protect_git)
		ret = ltd_agentprotect_project(p, out, err);
	/* Editors', other agents' and tools' files (hostrun.c's table). */
	if (!ret && p->protect_git)
		ret = ltd_hostrun_protect(out, err);
	if (!ret)
		ret = protect_policy_dir(out, err);
	if (!ret)
		ret = ltd_protected_check_links(out, err);
	return ret;
}

int ltd_protect_binds(const struct ltd_policy *p, struct ltd_protected *out,
		      struct ltd_err *err)
{
	int ret = 0;

	ltd_protected_for(out, p);
	/* The files the next run reads, where they lie in the project
	 * (policy/inputs.c said which): read-only. */
	for (size_t i = 0; !ret && i < p->n_inputs_in_project; i++)
		ret = ltd_protected_add(out, p->inputs_in_project[i], err);
	for (size_t i = 0; !ret && i < p->n_mounts; i++) {
		const struct ltd_user_mount *m = &p->mounts[i];
		struct stat st;
		char flag[48];

		/* Persistent state ltd-native creates when missing holds no
		 * repository yet. */
		if (m->kind != LTD_UM_BIND || !m->src ||
		    (m->state && lstat(m->src, &st) < 0 && errno == ENOENT))
			continue;
		snprintf(flag, sizeof(flag), "%s%s", m->derived ? "" : "--",
			 m->flag);
		ret = ltd_gitbinds_check(p, flag, m->src, err);
	}
	/* Each writable place by every repository's configuration, not only
	 * those above itself. */
	if (!ret)
		ret = ltd_gitbinds_cross_check(p, out, err);
	/* What the inputs and the cross-check added: with git protected,
	 * the cross-check's own last pass looked at all of @out. */
	if (!ret && !p->protect_git)
		ret = ltd_protected_check_links(out, err);
	return ret;
}
