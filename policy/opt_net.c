// SPDX-License-Identifier: GPL-2.0-or-later
/* The option table's network options: the mode, addresses, host ports,
 * domains and their files, the resolver, the audit log. */
#include "policy/option.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

int ltd_opt_network(struct ltd_policy *p, const struct ltd_option *opt,
		    char **args, struct ltd_err *err)
{
	if (strcmp(args[0], "none") == 0) {
		p->network = LTD_NET_NONE;
	} else if (strcmp(args[0], "allowlist") == 0) {
		p->network = LTD_NET_ALLOWLIST;
	} else if (strcmp(args[0], "host") == 0) {
		/* Gated: validation refuses it without --unsafe-host-network.
		 */
		p->network = LTD_NET_HOST;
	} else {
		return ltd_err_set(err, EINVAL,
				   "--%s: unknown mode '%s' (expected "
				   "allowlist, none or host)",
				   opt->name, args[0]);
	}
	p->network_set = true;
	return 0;
}

/* --allow-cidr and --test-firewall-hole: a block appended to @list. */
static int add_dest(struct ltd_net_dest **list, size_t *n,
		    const struct ltd_option *opt, const char *arg,
		    struct ltd_err *err)
{
	struct ltd_net_dest d, *a;
	char flag[48];
	int ret;

	snprintf(flag, sizeof(flag), "--%s", opt->name);
	ret = ltd_cidr_dest_parse(arg, flag, &d, err);
	if (ret < 0)
		return ret;
	a = ltd_vec_push(list, *n);
	if (!a)
		return ltd_err_set(err, ENOMEM, "out of memory");
	*a = d;
	(*n)++;
	return 0;
}

int ltd_opt_allow_cidr(struct ltd_policy *p, const struct ltd_option *opt,
		       char **args, struct ltd_err *err)
{
	return add_dest(&p->allow, &p->n_allow, opt, args[0], err);
}

int ltd_opt_fw_hole(struct ltd_policy *p, const struct ltd_option *opt,
		    char **args, struct ltd_err *err)
{
	return add_dest(&p->fw_holes, &p->n_fw_holes, opt, args[0], err);
}

int ltd_opt_allow_host_port(struct ltd_policy *p, const struct ltd_option *opt,
			    char **args, struct ltd_err *err)
{
	struct ltd_net_ports r[1];
	char flag[48];
	uint16_t *hp;
	size_t n;
	int ret;

	snprintf(flag, sizeof(flag), "--%s", opt->name);
	ret = ltd_cidr_ports_parse(args[0], flag, r, 1, &n, err);
	if (ret < 0)
		return ret;
	if (r[0].lo != r[0].hi)
		return ltd_err_set(err, EINVAL, "%s: one port, not a range",
				   flag);
	for (size_t i = 0; i < p->n_host_ports; i++)
		if (p->host_ports[i] == r[0].lo)
			return 0;
	hp = ltd_vec_push(&p->host_ports, p->n_host_ports);
	if (!hp)
		return ltd_err_set(err, ENOMEM, "out of memory");
	*hp = r[0].lo;
	p->n_host_ports++;
	return 0;
}

int ltd_opt_publish(struct ltd_policy *p, const struct ltd_option *opt,
		    char **args, struct ltd_err *err)
{
	struct ltd_publish pub;
	int ret = ltd_publish_parse(args[0], "--publish", &pub, err);

	return ret < 0 ? ret
		       : ltd_publish_add(&p->publish, &p->n_publish, &pub,
					 "--publish", err);
}

int ltd_opt_allow_domain(struct ltd_policy *p, const struct ltd_option *opt,
			 char **args, struct ltd_err *err)
{
	return ltd_domains_add(&p->domains, args[0], "--allow-domain", err);
}

int ltd_opt_allow_domains_file(struct ltd_policy *p,
			       const struct ltd_option *opt, char **args,
			       struct ltd_err *err)
{

	if (ltd_strv_push(&p->domain_files, &p->n_domain_files, args[0]) < 0)
		return ltd_err_set(err, ENOMEM, "out of memory");
	return 0;
}

int ltd_opt_no_default_domains(struct ltd_policy *p,
			       const struct ltd_option *opt, char **args,
			       struct ltd_err *err)
{
	p->no_default_domains = true;
	return 0;
}

int ltd_opt_dns_upstream(struct ltd_policy *p, const struct ltd_option *opt,
			 char **args, struct ltd_err *err)
{
	return ltd_opt_set_str(&p->dns_upstream, args[0], err);
}

int ltd_opt_audit_log(struct ltd_policy *p, const struct ltd_option *opt,
		      char **args, struct ltd_err *err)
{
	return ltd_opt_set_str(&p->audit_log, args[0], err);
}

int ltd_opt_quiet(struct ltd_policy *p, const struct ltd_option *opt,
		  char **args, struct ltd_err *err)
{
	p->quiet = true;
	return 0;
}
