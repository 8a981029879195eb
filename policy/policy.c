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

void ltd_policy_free(struct ltd_policy *p)
{
	for (size_t i = 0; i < p->n_mounts; i++) {
		free(p->mounts[i].src);
		free(p->mounts[i].dst);
	}
	for (size_t i = 0; i < p->n_env; i++) {
		free(p->env[i].key);
		free(p->env[i].val);
	}
	for (size_t i = 0; i < p->n_copies; i++) {
		free(p->copies[i].src);
		free(p->copies[i].dst);
	}
	for (size_t i = 0; i < p->n_origins; i++) {
		free(p->origins[i].args[0]);
		free(p->origins[i].args[1]);
		free(p->origins[i].source);
	}
	for (size_t i = 0; i < p->n_waived; i++)
		free(p->waived[i]);
	for (size_t i = 0; i < p->n_warnings; i++)
		free(p->warnings[i]);
	for (size_t i = 0; i < p->n_notes; i++)
		free(p->notes[i]);
	free(p->notes);
	free(p->copies);
	free(p->name);
	free(p->review);
	free(p->origins);
	free(p->waived);
	free(p->warnings);
	free(p->model);
	free(p->proxy_url);
	free(p->cage_proxy_url);
	free(p->ssh_auth_sock);
	free(p->host_home);
	ltd_strv_free(p->inputs_in_project, p->n_inputs_in_project);
	for (char **a = p->argv; a && *a; a++)
		free(*a);
	free(p->argv);
	free(p->mounts);
	free(p->allow);
	free(p->fw_holes);
	free(p->host_ports);
	free(p->publish);
	ltd_domains_free(&p->domains);
	for (size_t i = 0; i < p->n_domain_files; i++)
		free(p->domain_files[i]);
	free(p->domain_files);
	free(p->dns_upstream);
	free(p->audit_log);
	for (size_t i = 0; i < p->n_policy_files; i++)
		free(p->policy_files[i]);
	free(p->policy_files);
	free(p->env);
	free(p->project);
	free(p->chdir);
	free(p->hostname);
	free(p->rootfs);
	free(p->id.user);
	free(p->id.group);
	free(p->id.home);
	free(p->id.shell);
	for (size_t i = 0; i < p->n_agents; i++)
		free(p->agents[i]);
	free(p->agents);
	free(p->host_path);
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
	for (size_t i = 0; i < p->n_interned; i++)
		free(p->interned[i]);
	free(p->interned);
	*p = (struct ltd_policy){0};
}
