// SPDX-License-Identifier: GPL-2.0-or-later
#include "policy/policy.h"

#include <stdlib.h>

#include "common/vec.h"

void ltd_policy_init(struct ltd_policy *p)
{
	*p = (struct ltd_policy){
		.protect_git = true,
		.network = LTD_NET_ALLOWLIST,
		.memory_bytes = LTD_DEFAULT_MEMORY,
		.cpus_milli = LTD_DEFAULT_CPUS_MILLI,
		.pids_limit = LTD_DEFAULT_PIDS,
		.status_fd = -1,
		.info_fd = -1,
		.test_landlock_abi = -1,
	};
}

/* The lists of pairs and items the policy owns. */
static void free_items(struct ltd_policy *p)
{
	for (size_t i = 0; i < p->n_mounts; i++) {
		free(p->mounts[i].src);
		free(p->mounts[i].dst);
	}
	free(p->mounts);
	for (size_t i = 0; i < p->n_env; i++) {
		free(p->env[i].key);
		free(p->env[i].val);
	}
	free(p->env);
	for (size_t i = 0; i < p->n_copies; i++) {
		free(p->copies[i].src);
		free(p->copies[i].dst);
	}
	free(p->copies);
	for (size_t i = 0; i < p->n_origins; i++) {
		free(p->origins[i].args[0]);
		free(p->origins[i].args[1]);
		free(p->origins[i].source);
	}
	free(p->origins);
	for (size_t i = 0; i < p->n_files; i++) {
		free(p->files[i].dst);
		free(p->files[i].content);
	}
	free(p->files);
	for (size_t i = 0; i < p->n_seeds; i++) {
		free(p->seeds[i].dst);
		free(p->seeds[i].content);
	}
	free(p->seeds);
	for (size_t i = 0; i < p->n_derived_env; i++) {
		free(p->derived_env[i].key);
		free(p->derived_env[i].val);
	}
	free(p->derived_env);
}

/* The string vectors. */
static void free_strvs(struct ltd_policy *p)
{
	size_t argc = 0;

	while (p->argv && p->argv[argc])
		argc++;
	ltd_strv_free(p->argv, argc);
	ltd_strv_free(p->waived, p->n_waived);
	ltd_strv_free(p->warnings, p->n_warnings);
	ltd_strv_free(p->notes, p->n_notes);
	ltd_strv_free(p->inputs_in_project, p->n_inputs_in_project);
	ltd_strv_free(p->domain_files, p->n_domain_files);
	ltd_strv_free(p->policy_files, p->n_policy_files);
	ltd_strv_free(p->agents, p->n_agents);
	ltd_strv_free(p->interned, p->n_interned);
}

void ltd_policy_free(struct ltd_policy *p)
{
	free_items(p);
	free_strvs(p);
	free(p->name);
	free(p->review);
	free(p->model);
	free(p->proxy_url);
	free(p->cage_proxy_url);
	free(p->ssh_auth_sock);
	free(p->host_home);
	free(p->allow);
	free(p->fw_holes);
	free(p->host_ports);
	free(p->publish);
	ltd_domains_free(&p->domains);
	free(p->dns_upstream);
	free(p->audit_log);
	free(p->project);
	free(p->chdir);
	free(p->hostname);
	free(p->rootfs);
	free(p->id.user);
	free(p->id.group);
	free(p->id.home);
	free(p->id.shell);
	free(p->host_path);
	*p = (struct ltd_policy){0};
}
