// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The decisions that need the host's answers (struct ltd_host_facts, probed
 * by the folders that own them): allowlist mode without a usable pasta,
 * the login shell a pinned root filesystem lacks, the domain allowlist's
 * files.  After this the launcher only reads the policy.
 */
#include "policy/option.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/path.h"

/* Allowlist mode needs pasta.  A run that did not ask for networking
 * falls back to none, with a note (it has less than the default, and
 * exposes nothing more); one that did stops. */
static int decide_network(struct ltd_policy *p, const struct ltd_host_facts *f,
			  struct ltd_err *err)
{
	if (p->network != LTD_NET_ALLOWLIST || f->pasta_ok)
		return 0;
	if (p->network_set || p->n_allow || p->n_host_ports || p->n_publish)
		return ltd_err_set(err, EINVAL, "--network allowlist: %s",
				   f->pasta_why);
	p->network = LTD_NET_NONE;
	if (ltd_policy_add_note(&p->notes, &p->n_notes,
				"%s; running with --network none",
				f->pasta_why) < 0)
		return ltd_err_set(err, ENOMEM, "out of memory");
	return 0;
}

/* The user's shell, unless the pinned root filesystem lacks it. */
static int decide_shell(struct ltd_policy *p, const struct ltd_host_facts *f,
			struct ltd_err *err)
{
	if (!p->rootfs || f->rootfs_has_shell)
		return 0;
	free(p->id.shell);
	p->id.shell = strdup("/bin/sh");
	return p->id.shell ? 0 : ltd_err_set(err, ENOMEM, "out of memory");
}

/*
 * The domain allowlist, read once, before the command runs: what the
 * command line gave, the per-run files (--allow-domains-file and
 * LTD_ALLOW_DOMAINS_FILE, by the real paths validation judged: none the
 * cage can write), the machine-local files, the built-in list.
 */
static int decide_domains(struct ltd_policy *p, struct ltd_err *err)
{
	static const char *const local[] = {LTD_LOCAL_DOMAIN_FILES};
	char path[PATH_MAX];
	size_t from = p->domains.n;
	int ret = 0;

	if (p->network != LTD_NET_ALLOWLIST)
		return 0;
	for (size_t i = 0; !ret && i < p->n_domain_files; i++)
		ret = ltd_domains_load_file(&p->domains, p->domain_files[i],
					    false, err);
	for (size_t i = 0; !ret && i < sizeof(local) / sizeof(*local); i++) {
		/* A home too long for a path has no such file. */
		if (ltd_path_fmt(path, sizeof(path), "%s%s", p->id.home,
				 local[i]) < 0)
			continue;
		ret = ltd_domains_load_file(&p->domains, path, true, err);
	}
	if (!ret)
		ret = ltd_policy_check_wildcards(p, from, err);
	if (!ret && !p->no_default_domains)
		ret = ltd_domains_add_defaults(&p->domains, err);
	return ret;
}

int ltd_policy_decide(struct ltd_policy *p, const struct ltd_host_facts *f,
		      struct ltd_err *err)
{
	int ret = decide_network(p, f, err);

	if (!ret)
		ret = decide_shell(p, f, err);
	if (!ret)
		ret = decide_domains(p, err);
	return ret;
}
