// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The agents' step of the policy (agents/agents.h): the command resolver
 * run for the command and each --agent, its findings turned into derived
 * policy items.
 */
#include "agents/agents.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agents/adapters.h"
#include "agents/resolve.h"
#include "common/path.h"

/* Places the cage shows as the host has them: the project, and each bind
 * of the user's at its own path. */
static int shown_places(const struct ltd_policy *p, struct ltd_resolver *r,
			struct ltd_err *err)
{
	r->shown = calloc(p->n_mounts + 1, sizeof(char *));
	if (!r->shown)
		return ltd_err_set(err, ENOMEM, "out of memory");
	if (p->project)
		r->shown[r->n_shown++] = p->project;
	for (size_t i = 0; i < p->n_mounts; i++) {
		const struct ltd_user_mount *m = &p->mounts[i];

		if (m->src && !m->derived && !strcmp(m->src, m->dst))
			r->shown[r->n_shown++] = m->src;
	}
	return 0;
}

/* The user chose the cage's PATH: a name it finds is theirs to find. */
static bool user_path(const struct ltd_policy *p)
{
	for (size_t i = 0; i < p->n_env; i++)
		if (!strcmp(p->env[i].key, "PATH"))
			return true;
	return false;
}

static int apply(struct ltd_policy *p, const struct ltd_resolver *r,
		 struct ltd_err *err)
{
	char dst[PATH_MAX];
	int ret = 0;

	for (size_t i = 0; !ret && i < r->n_binds; i++)
		ret = ltd_policy_add_derived(p, LTD_UM_RO_BIND, r->binds[i].why,
					     r->binds[i].path, r->binds[i].path,
					     0, 0, err);
	for (size_t i = 0; !ret && i < r->n_links; i++)
		ret = ltd_policy_add_link(p, r->links[i].path,
					  r->links[i].target, r->links[i].why,
					  err);
	for (size_t i = 0; !ret && i < r->n_cmds; i++) {
		if (ltd_path_fmt(dst, sizeof(dst), "%s/%s", LTD_CMD_DIR,
				 r->cmds[i].path) < 0)
			return ltd_err_set(err, ENAMETOOLONG, "'%s'",
					   r->cmds[i].path);
		ret = ltd_policy_add_link(p, dst, r->cmds[i].target,
					  r->cmds[i].why, err);
		p->cmd_links = true;
	}
	for (size_t i = 0; !ret && i < r->n_notes; i++)
		ret = ltd_policy_note(p, err, "%s", r->notes[i]);
	return ret;
}

/* The command and each --agent, found and placed. */
static int resolve_all(struct ltd_policy *p, struct ltd_err *err)
{
	struct ltd_resolver r = {
		.path = p->host_path,
		.cage_path = LTD_CAGE_PATH,
		.home = p->host_home,
		.store = "/nix/store",
		.nix_store_cmd = true,
		.system_shown = true,
	};
	char why[96];
	int ret = shown_places(p, &r, err);

	if (!ret && p->argv && p->argv[0]) {
		snprintf(why, sizeof(why), "command %s", p->argv[0]);
		r.why = ltd_policy_intern(p, why);
		ret = r.why ? ltd_resolve_command(&r, p->argv[0], err)
			    : -ENOMEM;
		/* Not on the host: a pinned root filesystem, or the PATH the
		 * user set, may still have it; the cage says. */
		if (ret == -ENOENT && (p->rootfs || user_path(p))) {
			memset(err, 0, sizeof(*err));
			ret = 0;
		} else if (ret < 0) {
			ltd_err_prefix(err, "cannot execute '%s'", p->argv[0]);
			if (ret == -ENOENT)
				ltd_err_step(err, "exec");
		}
	}
	for (size_t i = 0; !ret && i < p->n_agents; i++) {
		snprintf(why, sizeof(why), "--agent %s", p->agents[i]);
		r.why = ltd_policy_intern(p, why);
		ret = r.why ? ltd_resolve_command(&r, p->agents[i], err)
			    : -ENOMEM;
		if (ret < 0)
			ltd_err_prefix(err, "--agent %s", p->agents[i]);
	}
	if (!ret)
		ret = apply(p, &r, err);
	if (ret == -ENOMEM && !err->code)
		ltd_err_set(err, ENOMEM, "out of memory");
	free(r.shown);
	ltd_resolver_free(&r);
	return ret;
}

/*
 * A generated file or link that one of the user's binds would hold is not
 * made: the bind says what is there (and the mount plan would refuse to
 * create anything inside it).  Said, for a file: the agent then runs
 * without what it said.
 */
static int drop_covered(struct ltd_policy *p, struct ltd_err *err)
{
	size_t k = 0;
	int ret = 0;

	for (size_t i = 0; i < p->n_files; i++) {
		struct ltd_cage_file *f = &p->files[i];
		const struct ltd_user_mount *by = NULL;

		for (size_t j = 0; j < p->n_mounts && !by; j++)
			if (!p->mounts[j].derived &&
			    p->mounts[j].kind != LTD_UM_TMPFS &&
			    ltd_path_is_under(f->dst, p->mounts[j].dst))
				by = &p->mounts[j];
		if (!by) {
			p->files[k++] = *f;
			continue;
		}
		if (!ret && f->mode)
			ret = ltd_policy_warn(p, err,
					      "%s: %s is not written: --%s %s "
					      "holds it",
					      f->why, f->dst, by->flag,
					      by->dst);
		free(f->dst);
		free(f->content);
	}
	p->n_files = k;
	return ret;
}

int ltd_agents_derive(struct ltd_policy *p, struct ltd_err *err)
{
	int ret = resolve_all(p, err);

	if (!ret)
		ret = ltd_agents_apply(p, err);
	if (!ret)
		ret = ltd_git_identity(p, err);
	if (!ret)
		ret = drop_covered(p, err);
	return ret;
}
