// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The project's protection, in the order each part needs: git's paths
 * first (the others are judged against them), then Claude Code's, then
 * ltd-native's own policy file; links last, over all of them.
 */
#include "protect/protect.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>

/* The project's own policy file: read-only inside, like .git/config
 * (the approval would refuse a changed one; this keeps it from changing). */
static int protect_policy_dir(struct ltd_policy *p, struct ltd_err *err)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/.ltd-native", p->project) >=
	    (int)sizeof(path))
		return ltd_err_set(err, ENAMETOOLONG, "--project: too long");
	return ltd_policy_protect(p, path, err);
}

int ltd_protect_project(struct ltd_policy *p, struct ltd_err *err)
{
	int ret = 0;

	if (p->protect_git)
		ret = ltd_git_protected(p, err);
	if (!ret && p->protect_git)
		ret = ltd_agent_protected(p, err);
	if (!ret)
		ret = protect_policy_dir(p, err);
	if (!ret)
		ret = ltd_policy_check_links(p, err);
	return ret;
}

int ltd_protect_binds(struct ltd_policy *p, struct ltd_err *err)
{
	int ret = 0;

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
		ret = ltd_git_bind_check(p, flag, m->src, err);
	}
	/* Each writable place by every repository's configuration, not only
	 * those above itself. */
	if (!ret)
		ret = ltd_git_cross_check(p, err);
	/* What the inputs and the cross-check added. */
	if (!ret)
		ret = ltd_policy_check_links(p, err);
	return ret;
}
