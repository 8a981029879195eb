// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The run-flag vocabulary: one table, used by the command line now and by
 * policy files later (same names without the dashes, same handlers).
 */
#include "policy/policy.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct ltd_option {
	const char *name; /* long flag without "--" */
	int nargs;	  /* 0, 1 or 2 */
	const char *metavar;
	const char *help;
	int (*apply)(struct ltd_policy *p, const struct ltd_option *opt,
		     char **args, struct ltd_err *err);
};

static int need_abs(const struct ltd_option *opt, const char *path,
		    struct ltd_err *err)
{
	if (path[0] != '/')
		return ltd_err_set(err, EINVAL,
				   "--%s: '%s' is not an absolute path",
				   opt->name, path);
	if (strlen(path) >= PATH_MAX)
		return ltd_err_set(err, ENAMETOOLONG, "--%s: path too long",
				   opt->name);
	return 0;
}

static int set_str(char **slot, const char *val, struct ltd_err *err)
{
	char *copy = strdup(val);

	if (!copy)
		return ltd_err_set(err, ENOMEM, "out of memory");
	free(*slot);
	*slot = copy;
	return 0;
}

static int opt_project(struct ltd_policy *p, const struct ltd_option *opt,
		       char **args, struct ltd_err *err)
{
	return set_str(&p->project, args[0], err);
}

static int add_mount(struct ltd_policy *p, enum ltd_user_mount_kind kind,
		     const struct ltd_option *opt, const char *src,
		     const char *dst, struct ltd_err *err)
{
	struct ltd_user_mount *m;
	int ret;

	ret = need_abs(opt, dst, err);
	if (ret < 0)
		return ret;
	m = realloc(p->mounts, (p->n_mounts + 1) * sizeof(*m));
	if (!m)
		return ltd_err_set(err, ENOMEM, "out of memory");
	p->mounts = m;
	m = &p->mounts[p->n_mounts];
	*m = (struct ltd_user_mount){ .kind = kind, .flag = opt->name };
	if ((src && set_str(&m->src, src, err) < 0) ||
	    set_str(&m->dst, dst, err) < 0) {
		free(m->src);
		return -ENOMEM;
	}
	p->n_mounts++;
	return 0;
}

static int opt_ro_bind(struct ltd_policy *p, const struct ltd_option *opt,
		       char **args, struct ltd_err *err)
{
	return add_mount(p, LTD_UM_RO_BIND, opt, args[0], args[1], err);
}

static int opt_bind(struct ltd_policy *p, const struct ltd_option *opt,
		    char **args, struct ltd_err *err)
{
	return add_mount(p, LTD_UM_BIND, opt, args[0], args[1], err);
}

static int opt_tmpfs(struct ltd_policy *p, const struct ltd_option *opt,
		     char **args, struct ltd_err *err)
{
	return add_mount(p, LTD_UM_TMPFS, opt, NULL, args[0], err);
}

/* A portable environment name: [A-Za-z_][A-Za-z0-9_]*, as POSIX asks. */
static bool env_name_ok(const char *k)
{
	if (!*k || (*k >= '0' && *k <= '9'))
		return false;
	for (; *k; k++)
		if (!(*k == '_' || (*k >= 'A' && *k <= 'Z') ||
		      (*k >= 'a' && *k <= 'z') || (*k >= '0' && *k <= '9')))
			return false;
	return true;
}

static int add_env(struct ltd_policy *p, const struct ltd_option *opt,
		   const char *key, const char *val, struct ltd_err *err)
{
	struct ltd_env_op *e;

	if (!env_name_ok(key))
		return ltd_err_set(err, EINVAL,
				   "--%s: '%s' is not a valid variable name",
				   opt->name, key);
	e = realloc(p->env, (p->n_env + 1) * sizeof(*e));
	if (!e)
		return ltd_err_set(err, ENOMEM, "out of memory");
	p->env = e;
	e = &p->env[p->n_env];
	*e = (struct ltd_env_op){ 0 };
	if (set_str(&e->key, key, err) < 0 ||
	    (val && set_str(&e->val, val, err) < 0)) {
		free(e->key);
		return -ENOMEM;
	}
	p->n_env++;
	return 0;
}

static int opt_setenv(struct ltd_policy *p, const struct ltd_option *opt,
		      char **args, struct ltd_err *err)
{
	return add_env(p, opt, args[0], args[1], err);
}

static int opt_unsetenv(struct ltd_policy *p, const struct ltd_option *opt,
			char **args, struct ltd_err *err)
{
	return add_env(p, opt, args[0], NULL, err);
}

static int opt_chdir(struct ltd_policy *p, const struct ltd_option *opt,
		     char **args, struct ltd_err *err)
{
	int ret = need_abs(opt, args[0], err);

	return ret < 0 ? ret : set_str(&p->chdir, args[0], err);
}

/* RFC 1123 label rules, at most 64 bytes as sethostname() allows. */
static int opt_hostname(struct ltd_policy *p, const struct ltd_option *opt,
			char **args, struct ltd_err *err)
{
	const char *h = args[0];
	size_t len = strlen(h);

	if (len == 0 || len > 63 || h[0] == '-' || h[len - 1] == '-' ||
	    strspn(h, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		      "0123456789-.") != len)
		return ltd_err_set(err, EINVAL,
				   "--%s: '%s' is not a valid host name",
				   opt->name, h);
	return set_str(&p->hostname, h, err);
}

static int opt_network(struct ltd_policy *p, const struct ltd_option *opt,
		       char **args, struct ltd_err *err)
{
	if (strcmp(args[0], "none") == 0) {
		p->network = LTD_NET_NONE;
	} else if (strcmp(args[0], "allowlist") == 0) {
		p->network = LTD_NET_ALLOWLIST;
	} else if (strcmp(args[0], "host") == 0) {
		/* Not implemented: refuse rather than pretend. */
		return ltd_err_set(err, ENOTSUP,
				   "--%s host: the host's network (no egress "
				   "filter at all) is not supported; use "
				   "allowlist with --allow-cidr",
				   opt->name);
	} else {
		return ltd_err_set(err, EINVAL,
				   "--%s: unknown mode '%s' (expected "
				   "allowlist or none)",
				   opt->name, args[0]);
	}
	p->network_set = true;
	return 0;
}

static int opt_allow_cidr(struct ltd_policy *p, const struct ltd_option *opt,
			  char **args, struct ltd_err *err)
{
	struct ltd_net_dest d, *a;
	char flag[48];
	int ret;

	snprintf(flag, sizeof(flag), "--%s", opt->name);
	ret = ltd_net_dest_parse(args[0], flag, &d, err);
	if (ret < 0)
		return ret;
	a = realloc(p->allow, (p->n_allow + 1) * sizeof(*a));
	if (!a)
		return ltd_err_set(err, ENOMEM, "out of memory");
	p->allow = a;
	p->allow[p->n_allow++] = d;
	return 0;
}

static int opt_allow_host_port(struct ltd_policy *p,
			       const struct ltd_option *opt, char **args,
			       struct ltd_err *err)
{
	struct ltd_net_ports r[1];
	char flag[48];
	uint16_t *hp;
	size_t n;
	int ret;

	snprintf(flag, sizeof(flag), "--%s", opt->name);
	ret = ltd_net_ports_parse(args[0], flag, r, 1, &n, err);
	if (ret < 0)
		return ret;
	if (r[0].lo != r[0].hi)
		return ltd_err_set(err, EINVAL, "%s: one port, not a range",
				   flag);
	for (size_t i = 0; i < p->n_host_ports; i++)
		if (p->host_ports[i] == r[0].lo)
			return 0;
	hp = realloc(p->host_ports, (p->n_host_ports + 1) * sizeof(*hp));
	if (!hp)
		return ltd_err_set(err, ENOMEM, "out of memory");
	p->host_ports = hp;
	p->host_ports[p->n_host_ports++] = r[0].lo;
	return 0;
}

static int opt_allow_domain(struct ltd_policy *p, const struct ltd_option *opt,
			    char **args, struct ltd_err *err)
{
	return ltd_domains_add(&p->domains, args[0], "--allow-domain", err);
}

static int opt_allow_domains_file(struct ltd_policy *p,
				  const struct ltd_option *opt, char **args,
				  struct ltd_err *err)
{
	char **v;
	int ret;

	v = realloc(p->domain_files, (p->n_domain_files + 1) * sizeof(*v));
	if (!v)
		return ltd_err_set(err, ENOMEM, "out of memory");
	p->domain_files = v;
	v[p->n_domain_files] = NULL;
	ret = set_str(&v[p->n_domain_files], args[0], err);
	if (ret == 0)
		p->n_domain_files++;
	return ret;
}

static int opt_no_default_domains(struct ltd_policy *p,
				  const struct ltd_option *opt, char **args,
				  struct ltd_err *err)
{
	p->no_default_domains = true;
	return 0;
}

static int opt_dns_upstream(struct ltd_policy *p, const struct ltd_option *opt,
			    char **args, struct ltd_err *err)
{
	return set_str(&p->dns_upstream, args[0], err);
}

static int opt_audit_log(struct ltd_policy *p, const struct ltd_option *opt,
			 char **args, struct ltd_err *err)
{
	return set_str(&p->audit_log, args[0], err);
}

static int opt_quiet(struct ltd_policy *p, const struct ltd_option *opt,
		     char **args, struct ltd_err *err)
{
	p->quiet = true;
	return 0;
}

static int opt_writable_git(struct ltd_policy *p,
			    const struct ltd_option *opt, char **args,
			    struct ltd_err *err)
{
	p->protect_git = false;
	return 0;
}

static int set_seccomp(struct ltd_policy *p, const struct ltd_option *opt,
		       enum ltd_seccomp_mode mode, struct ltd_err *err)
{
	if (p->seccomp != LTD_SECCOMP_ENFORCE && p->seccomp != mode)
		return ltd_err_set(err, EINVAL,
				   "--%s: conflicts with an earlier seccomp "
				   "option",
				   opt->name);
	p->seccomp = mode;
	return 0;
}

static int opt_seccomp_log(struct ltd_policy *p, const struct ltd_option *opt,
			   char **args, struct ltd_err *err)
{
	return set_seccomp(p, opt, LTD_SECCOMP_LOG, err);
}

static int opt_no_seccomp(struct ltd_policy *p, const struct ltd_option *opt,
			  char **args, struct ltd_err *err)
{
	return set_seccomp(p, opt, LTD_SECCOMP_OFF, err);
}

static const struct ltd_option options[] = {
	{ "project", 1, "DIR",
	  "project directory, bound read-write at the same path (default: "
	  "the current directory)",
	  opt_project },
	{ "ro-bind", 2, "SRC DST", "bind SRC read-only at DST", opt_ro_bind },
	{ "bind", 2, "SRC DST", "bind SRC read-write at DST", opt_bind },
	{ "tmpfs", 1, "DST", "mount a fresh tmpfs at DST", opt_tmpfs },
	{ "setenv", 2, "VAR VALUE", "set VAR in the command's environment",
	  opt_setenv },
	{ "unsetenv", 1, "VAR", "remove VAR from the command's environment",
	  opt_unsetenv },
	{ "chdir", 1, "DIR", "working directory (default: the project)",
	  opt_chdir },
	{ "hostname", 1, "NAME", "host name inside (default: " LTD_DEFAULT_HOSTNAME ")",
	  opt_hostname },
	{ "network", 1, "MODE",
	  "allowlist (default): egress only where --allow-* says; none: "
	  "loopback only",
	  opt_network },
	{ "allow-cidr", 1, "CIDR[:PORTS]",
	  "allow egress to an address block (e.g. 192.0.2.0/24:443, "
	  "fd00::/64, [fd00::7]:80,443)",
	  opt_allow_cidr },
	{ "allow-host-port", 1, "PORT",
	  "allow TCP to a port on the host's loopback, reached as "
	  "host.ltd.internal",
	  opt_allow_host_port },
	{ "allow-domain", 1, "NAME[:PORTS]",
	  "allow a name (or *.suffix: the names below it) and the addresses "
	  "DNS gives for it, on PORTS (default 80,443)",
	  opt_allow_domain },
	{ "allow-domains-file", 1, "FILE",
	  "allow the names in FILE, one per line (also "
	  "LTD_ALLOW_DOMAINS_FILE); read once, before the command runs",
	  opt_allow_domains_file },
	{ "no-default-domains", 0, NULL,
	  "drop the built-in list (npm, PyPI, GitHub, crates.io, Go proxy, "
	  "container registries)",
	  opt_no_default_domains },
	{ "dns-upstream", 1, "ADDR[:PORT]",
	  "resolver for allowed names (default: the first nameserver of the "
	  "host's /etc/resolv.conf)",
	  opt_dns_upstream },
	{ "audit-log", 1, "FILE",
	  "append one JSON line per DNS decision and opened address to FILE",
	  opt_audit_log },
	{ "quiet", 0, NULL, "no summary of refused names at exit",
	  opt_quiet },
	{ "seccomp-log", 0, NULL,
	  "same syscall filter, but log what it would refuse instead of "
	  "refusing (to find what a tool needs)",
	  opt_seccomp_log },
	{ "unsafe-no-seccomp", 0, NULL,
	  "run without the syscall filter (unsafe: nested user namespaces, "
	  "io_uring, bpf... become reachable)",
	  opt_no_seccomp },
	{ "unsafe-writable-git", 0, NULL,
	  "leave .git/hooks and .git/config writable (code planted there "
	  "runs on the host later)",
	  opt_writable_git },
};

static int copy_argv(struct ltd_policy *p, int argc, char **argv,
		     struct ltd_err *err)
{
	p->argv = calloc((size_t)argc + 1, sizeof(char *));
	if (!p->argv)
		return ltd_err_set(err, ENOMEM, "out of memory");
	for (int i = 0; i < argc; i++) {
		p->argv[i] = strdup(argv[i]);
		if (!p->argv[i])
			return ltd_err_set(err, ENOMEM, "out of memory");
	}
	return 0;
}

static const struct ltd_option *find_option(const char *name)
{
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++)
		if (strcmp(options[i].name, name) == 0)
			return &options[i];
	return NULL;
}

void ltd_policy_print_help(FILE *out)
{
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
		const struct ltd_option *o = &options[i];
		char head[64];

		snprintf(head, sizeof(head), "--%s%s%s", o->name,
			 o->metavar ? " " : "", o->metavar ? o->metavar : "");
		fprintf(out, "  %-26s %s\n", head, o->help);
	}
}

int ltd_policy_parse_run(struct ltd_policy *p, int argc, char **argv,
			 struct ltd_err *err)
{
	int i = 0, ret;

	while (i < argc) {
		const struct ltd_option *opt;
		const char *arg = argv[i];

		if (strcmp(arg, "--") == 0) {
			if (i + 1 >= argc)
				return ltd_err_set(err, EINVAL,
						   "no command after '--'");
			return copy_argv(p, argc - i - 1, &argv[i + 1], err);
		}
		if (strncmp(arg, "--", 2) != 0)
			return ltd_err_set(err, EINVAL,
					   "'%s': expected a flag or '--' before "
					   "the command",
					   arg);
		opt = find_option(arg + 2);
		if (!opt)
			return ltd_err_set(err, EINVAL,
					   "unknown flag '%s' (see 'ltd-native "
					   "run --help')",
					   arg);
		if (i + opt->nargs >= argc)
			return ltd_err_set(err, EINVAL,
					   "%s needs %d argument%s: %s", arg,
					   opt->nargs, opt->nargs > 1 ? "s" : "",
					   opt->metavar);
		ret = opt->apply(p, opt, &argv[i + 1], err);
		if (ret < 0)
			return ret;
		i += 1 + opt->nargs;
	}
	return ltd_err_set(err, EINVAL, "missing '--' before the command");
}
