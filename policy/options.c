// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The run-flag vocabulary: one table, used by the command line, by policy
 * files (same names without the dashes) and by the LTD_* variables, with
 * the same handlers.  Sources are first collected into entry lists, then
 * applied in order of precedence (policy/resolve.c).
 */
#include "policy/option.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/names.h"
#include "common/vec.h"
#include "policy/limits.h"

int ltd_opt_need_abs(const struct ltd_option *opt, const char *path,
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

int ltd_opt_set_str(char **slot, const char *val, struct ltd_err *err)
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
	return ltd_opt_set_str(&p->project, args[0], err);
}

static int add_mount(struct ltd_policy *p, enum ltd_user_mount_kind kind,
		     const struct ltd_option *opt, const char *src,
		     const char *dst, struct ltd_err *err)
{
	struct ltd_user_mount *m;
	int ret;

	ret = ltd_opt_need_abs(opt, dst, err);
	if (ret < 0)
		return ret;
	m = ltd_vec_push(&p->mounts, p->n_mounts);
	if (!m)
		return ltd_err_set(err, ENOMEM, "out of memory");
	*m = (struct ltd_user_mount){.kind = kind, .flag = opt->name};
	if ((src && ltd_opt_set_str(&m->src, src, err) < 0) ||
	    ltd_opt_set_str(&m->dst, dst, err) < 0) {
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
	e = ltd_vec_push(&p->env, p->n_env);
	if (!e)
		return ltd_err_set(err, ENOMEM, "out of memory");
	if (ltd_opt_set_str(&e->key, key, err) < 0 ||
	    (val && ltd_opt_set_str(&e->val, val, err) < 0)) {
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
	int ret = ltd_opt_need_abs(opt, args[0], err);

	return ret < 0 ? ret : ltd_opt_set_str(&p->chdir, args[0], err);
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
	return ltd_opt_set_str(&p->hostname, h, err);
}

static int opt_allow_clipboard(struct ltd_policy *p,
			       const struct ltd_option *opt, char **args,
			       struct ltd_err *err)
{
	p->allow_clipboard = true;
	return 0;
}

static int opt_rootfs(struct ltd_policy *p, const struct ltd_option *opt,
		      char **args, struct ltd_err *err)
{
	char hex[LTD_HEX_LEN + 1];
	int ret = ltd_ref_parse(args[0], hex, err);

	if (ret < 0)
		return ltd_err_prefix(err, "--%s", opt->name);
	return ltd_opt_set_str(&p->rootfs, args[0], err);
}

static int opt_writable_git(struct ltd_policy *p, const struct ltd_option *opt,
			    char **args, struct ltd_err *err)
{
	p->protect_git = false;
	return 0;
}

static int set_seccomp(struct ltd_policy *p, const struct ltd_option *opt,
		       enum ltd_syscall_filter mode, struct ltd_err *err)
{
	if (p->seccomp != LTD_FILTER_ENFORCE && p->seccomp != mode)
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
	return set_seccomp(p, opt, LTD_FILTER_LOG, err);
}

static int opt_no_seccomp(struct ltd_policy *p, const struct ltd_option *opt,
			  char **args, struct ltd_err *err)
{
	return set_seccomp(p, opt, LTD_FILTER_OFF, err);
}

static int opt_policy(struct ltd_policy *p, const struct ltd_option *opt,
		      char **args, struct ltd_err *err)
{

	/* Read by the resolver, before anything else; kept to judge where
	 * it lies (ltd_policy_inputs). */
	if (ltd_strv_push(&p->policy_files, &p->n_policy_files, args[0]) < 0)
		return ltd_err_set(err, ENOMEM, "out of memory");
	return 0;
}

static int opt_trusted(struct ltd_policy *p, const struct ltd_option *opt,
		       char **args, struct ltd_err *err)
{
	p->tier = LTD_TIER_TRUSTED;
	return 0;
}

static int opt_strict(struct ltd_policy *p, const struct ltd_option *opt,
		      char **args, struct ltd_err *err)
{
	p->tier = LTD_TIER_STRICT;
	return 0;
}

static int opt_model(struct ltd_policy *p, const struct ltd_option *opt,
		     char **args, struct ltd_err *err)
{
	if (!args[0][0] || strpbrk(args[0], " \t\n\r"))
		return ltd_err_set(err, EINVAL,
				   "--%s: '%s' is not a model name", opt->name,
				   args[0]);
	return ltd_opt_set_str(&p->model, args[0], err);
}

static int opt_proxy_url(struct ltd_policy *p, const struct ltd_option *opt,
			 char **args, struct ltd_err *err)
{
	char url[512];
	uint16_t port;

	if (ltd_proxy_url_parse(args[0], url, sizeof(url), &port) < 0)
		return ltd_err_set(err, EINVAL,
				   "--%s: '%s' is not a proxy on this host: "
				   "expected http[s]://127.0.0.1:PORT[/PATH] "
				   "(or localhost, [::1])",
				   opt->name, args[0]);
	return ltd_opt_set_str(&p->proxy_url, args[0], err);
}

/* NAME=FILE: FILE read-only at /run/secrets/NAME.  A later one of the
 * same NAME replaces an earlier one (a later source wins). */
static int opt_secret(struct ltd_policy *p, const struct ltd_option *opt,
		      char **args, struct ltd_err *err)
{
	const char *eq = strchr(args[0], '=');
	char name[72], dst[96];
	size_t n = eq ? (size_t)(eq - args[0]) : 0;
	int ret;

	if (!eq || n == 0 || n >= 64 || args[0][0] == '.' ||
	    strspn(args[0], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVW"
			    "XYZ0123456789._-") != n)
		return ltd_err_set(err, EINVAL,
				   "--%s: expected NAME=FILE with NAME of "
				   "letters, digits, '.', '_', '-' (at most "
				   "63), got '%s'",
				   opt->name, args[0]);
	memcpy(name, args[0], n);
	name[n] = '\0';
	ret = ltd_opt_need_abs(opt, eq + 1, err);
	if (ret < 0)
		return ret;
	snprintf(dst, sizeof(dst), LTD_SECRETS_DIR "/%s", name);
	for (size_t i = 0; i < p->n_mounts; i++)
		if (p->mounts[i].flag == opt->name &&
		    strcmp(p->mounts[i].dst, dst) == 0)
			return ltd_opt_set_str(&p->mounts[i].src, eq + 1, err);
	ret = add_mount(p, LTD_UM_RO_BIND, opt, eq + 1, dst, err);
	if (!ret)
		p->mounts[p->n_mounts - 1].want = S_IFREG;
	return ret;
}

/* A command to find and make available (agents/agents.h), once each. */
static int opt_agent(struct ltd_policy *p, const struct ltd_option *opt,
		     char **args, struct ltd_err *err)
{
	const char *s = args[0];

	if (!*s || strlen(s) > 64 || s[0] == '-' || s[0] == '.' ||
	    strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		      "0123456789._+-") != strlen(s))
		return ltd_err_set(err, EINVAL,
				   "--%s: '%s' is not a command name (letters, "
				   "digits, '.', '_', '+', '-'; no path)",
				   opt->name, s);
	for (size_t i = 0; i < p->n_agents; i++)
		if (strcmp(p->agents[i], s) == 0)
			return 0;
	if (ltd_strv_push(&p->agents, &p->n_agents, s) < 0)
		return ltd_err_set(err, ENOMEM, "out of memory");
	return 0;
}

static int opt_ssh_agent(struct ltd_policy *p, const struct ltd_option *opt,
			 char **args, struct ltd_err *err)
{
	p->ssh_agent = true;
	return 0;
}

static const struct {
	const char *name;
	unsigned bit;
} unsafe_flags[] = {
	{"unsafe-bind-home", LTD_UNSAFE_BIND_HOME},
	{"unsafe-bind-credentials", LTD_UNSAFE_BIND_CREDENTIALS},
	{"unsafe-bind-session", LTD_UNSAFE_BIND_SESSION},
	{"unsafe-bind-docker", LTD_UNSAFE_BIND_DOCKER},
	{"unsafe-bind-kernel", LTD_UNSAFE_BIND_KERNEL},
	{"unsafe-host-network", LTD_UNSAFE_HOST_NETWORK},
	{"unsafe-bind-startup-files", LTD_UNSAFE_BIND_STARTUP},
	{"unsafe-publish-external", LTD_UNSAFE_PUBLISH_EXTERNAL},
	{"unsafe-wildcard-public-suffix", LTD_UNSAFE_PUBLIC_SUFFIX},
};

const char *ltd_unsafe_flag(unsigned bit)
{
	for (size_t i = 0; i < sizeof(unsafe_flags) / sizeof(unsafe_flags[0]);
	     i++)
		if (unsafe_flags[i].bit == bit)
			return unsafe_flags[i].name;
	return "unsafe-?";
}

static int opt_unsafe(struct ltd_policy *p, const struct ltd_option *opt,
		      char **args, struct ltd_err *err)
{
	for (size_t i = 0; i < sizeof(unsafe_flags) / sizeof(unsafe_flags[0]);
	     i++)
		if (strcmp(unsafe_flags[i].name, opt->name) == 0)
			p->unsafe |= unsafe_flags[i].bit;
	return 0;
}

/* Below this the dynamic loader and a shell no longer start. */
#define LTD_MIN_MEMORY (16ULL << 20)

static int opt_memory(struct ltd_policy *p, const struct ltd_option *opt,
		      char **args, struct ltd_err *err)
{
	uint64_t v;

	if (ltd_limits_parse_size(args[0], &v) < 0)
		return ltd_err_set(err, EINVAL,
				   "--%s: '%s' is not a size (e.g. 512m, 4g)",
				   opt->name, args[0]);
	if (v < LTD_MIN_MEMORY)
		return ltd_err_set(err, EINVAL, "--%s: '%s' is below 16m",
				   opt->name, args[0]);
	p->memory_bytes = v;
	p->limits_explicit |= LTD_LIMIT_MEMORY;
	return 0;
}

static int opt_cpus(struct ltd_policy *p, const struct ltd_option *opt,
		    char **args, struct ltd_err *err)
{
	unsigned v;

	/* cpu.max cannot express less than 1 ms per 100 ms period. */
	if (ltd_limits_parse_cpus(args[0], &v) < 0 || v < 10)
		return ltd_err_set(err, EINVAL,
				   "--%s: '%s' is not a CPU count from 0.01 "
				   "(e.g. 2, 0.5)",
				   opt->name, args[0]);
	p->cpus_milli = v;
	p->limits_explicit |= LTD_LIMIT_CPUS;
	return 0;
}

static int opt_pids_limit(struct ltd_policy *p, const struct ltd_option *opt,
			  char **args, struct ltd_err *err)
{
	uint64_t v;
	const char *s = args[0];

	/* The cage's init is one of them; 4194304 is the kernel's PID_MAX. */
	if (ltd_limits_parse_size(s, &v) < 0 || s[strspn(s, "0123456789")] ||
	    v < 2 || v > 4194304)
		return ltd_err_set(err, EINVAL,
				   "--%s: '%s' is not a number of processes "
				   "from 2 to 4194304 (the cage's init counts "
				   "as one)",
				   opt->name, s);
	p->pids_limit = (unsigned)v;
	p->limits_explicit |= LTD_LIMIT_PIDS;
	return 0;
}

static int opt_allow_unenforced(struct ltd_policy *p,
				const struct ltd_option *opt, char **args,
				struct ltd_err *err)
{
	p->allow_unenforced_limits = true;
	return 0;
}

static int opt_test_landlock_abi(struct ltd_policy *p,
				 const struct ltd_option *opt, char **args,
				 struct ltd_err *err)
{
	const char *s = args[0];

	if (!s[0] || s[strspn(s, "0123456789")] || strlen(s) > 2)
		return ltd_err_set(err, EINVAL,
				   "--%s: '%s' is not a Landlock ABI (0-99)",
				   opt->name, s);
	p->test_landlock_abi = atoi(s);
	return 0;
}

static int opt_require_landlock(struct ltd_policy *p,
				const struct ltd_option *opt, char **args,
				struct ltd_err *err)
{
	p->require_landlock = true;
	return 0;
}

static int opt_restrict_tcp_ports(struct ltd_policy *p,
				  const struct ltd_option *opt, char **args,
				  struct ltd_err *err)
{
	p->restrict_tcp_ports = true;
	return 0;
}

/* A name for exec, ps and kill: what a user types, what a file may be
 * called (common/names.h; the registry checks the same rule). */
static int opt_name(struct ltd_policy *p, const struct ltd_option *opt,
		    char **args, struct ltd_err *err)
{
	const char *s = args[0];

	if (!ltd_name_ok(s))
		return ltd_err_set(err, EINVAL,
				   "--name: '%s' is not a valid name (1-%d "
				   "letters, digits, '_', '.', '-'; not "
				   "starting with '.' or '-')",
				   s, LTD_NAME_MAX);
	return ltd_opt_set_str(&p->name, s, err);
}

/* A review's name: the same rule as --name's (review/ makes a directory
 * of it). */
static int opt_review(struct ltd_policy *p, const struct ltd_option *opt,
		      char **args, struct ltd_err *err)
{
	if (!ltd_name_ok(args[0]))
		return ltd_err_set(err, EINVAL,
				   "--review: '%s' is not a valid name (1-%d "
				   "letters, digits, '_', '.', '-'; not "
				   "starting with '.' or '-')",
				   args[0], LTD_NAME_MAX);
	return ltd_opt_set_str(&p->review, args[0], err);
}

static int opt_keep_running(struct ltd_policy *p, const struct ltd_option *opt,
			    char **args, struct ltd_err *err)
{
	p->keep_running = true;
	return 0;
}

static int parse_fd(const struct ltd_option *opt, const char *s, int *fd,
		    struct ltd_err *err)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > INT_MAX)
		return ltd_err_set(err, EINVAL,
				   "--%s: '%s' is not a file descriptor",
				   opt->name, s);
	*fd = (int)v;
	return 0;
}

static int opt_status_fd(struct ltd_policy *p, const struct ltd_option *opt,
			 char **args, struct ltd_err *err)
{
	return parse_fd(opt, args[0], &p->status_fd, err);
}

static int opt_info_fd(struct ltd_policy *p, const struct ltd_option *opt,
		       char **args, struct ltd_err *err)
{
	return parse_fd(opt, args[0], &p->info_fd, err);
}

/* Entries name only the trailing fields (flags, group, default) they need;
 * the rest are zero, as C says. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const struct ltd_option options[] = {
	{"project", 1, "DIR",
	 "project directory, bound read-write at the same path (default: "
	 "the current directory)",
	 opt_project, LTD_OPT_NOT_PROJECT},
	/* Host paths, secrets and sockets come from the user, never from a
	 * project's file: an approval is easily given to what looks harmless.
	 */
	{"ro-bind", 2, "SRC DST", "bind SRC read-only at DST", opt_ro_bind,
	 LTD_OPT_LIST | LTD_OPT_NOT_PROJECT, "mounts"},
	{"bind", 2, "SRC DST", "bind SRC read-write at DST", opt_bind,
	 LTD_OPT_LIST | LTD_OPT_NOT_PROJECT, "mounts"},
	{"tmpfs", 1, "DST", "mount a fresh tmpfs at DST", opt_tmpfs,
	 LTD_OPT_LIST, "mounts"},
	{LTD_TEST_LANDLOCK_HOLE, 2, "SRC DST",
	 "test only: bind SRC read-write at DST but give it no Landlock "
	 "rule (writes there must fail: Landlock holds on its own)",
	 opt_bind, LTD_OPT_LIST | LTD_OPT_CLI_ONLY | LTD_OPT_TEST_HOOK,
	 "mounts"},
	{"rootfs", 1, "NAME|sha256:DIGEST",
	 "a pinned root filesystem from `ltd-rootfs` (checked against its "
	 "pin first) instead of the host's /usr",
	 opt_rootfs},
	{"setenv", 2, "VAR VALUE", "set VAR in the command's environment",
	 opt_setenv, LTD_OPT_LIST, "env"},
	{"unsetenv", 1, "VAR", "remove VAR from the command's environment",
	 opt_unsetenv, LTD_OPT_LIST, "env"},
	{"chdir", 1, "DIR", "working directory (default: the project)",
	 opt_chdir},
	{"hostname", 1, "NAME",
	 "host name inside (default: " LTD_DEFAULT_HOSTNAME ")", opt_hostname,
	 0, NULL, LTD_DEFAULT_HOSTNAME},
	{"network", 1, "MODE",
	 "allowlist (default): egress only where --allow-* says; none: "
	 "loopback only; host: the host's network (needs "
	 "--unsafe-host-network)",
	 ltd_opt_network, LTD_OPT_SUMMARY, NULL, "allowlist"},
	{"allow-cidr", 1, "CIDR[:PORTS]",
	 "allow egress to an address block (e.g. 192.0.2.0/24:443, "
	 "fd00::/64, [fd00::7]:80,443)",
	 ltd_opt_allow_cidr, LTD_OPT_LIST},
	{"test-firewall-hole", 1, "CIDR[:PORTS]",
	 "test only: the firewall admits CIDR[:PORTS] but pasta's Landlock "
	 "wall does not (connections there must still fail: the wall holds "
	 "on its own)",
	 ltd_opt_fw_hole, LTD_OPT_LIST | LTD_OPT_CLI_ONLY | LTD_OPT_TEST_HOOK},
	{"allow-host-port", 1, "PORT",
	 "allow TCP to a port on the host's loopback, reached as "
	 "host.ltd.internal",
	 ltd_opt_allow_host_port, LTD_OPT_LIST},
	{"publish", 1, "[ADDR:]HOST_PORT:CAGE_PORT",
	 "serve the cage's TCP port CAGE_PORT on the host at ADDR:HOST_PORT "
	 "(ADDR 127.0.0.1 unless given; another than loopback needs "
	 "--unsafe-publish-external); not with --network none",
	 ltd_opt_publish, LTD_OPT_LIST},
	{"allow-domain", 1, "NAME[:PORTS]",
	 "allow a name (or *.suffix: the names below it) and the addresses "
	 "DNS gives for it, on PORTS (default 80,443)",
	 ltd_opt_allow_domain, LTD_OPT_LIST | LTD_OPT_SUMMARY},
	{"allow-domains-file", 1, "FILE",
	 "allow the names in FILE, one per line (also "
	 "LTD_ALLOW_DOMAINS_FILE); read once, before the command runs",
	 ltd_opt_allow_domains_file, LTD_OPT_LIST | LTD_OPT_NOT_PROJECT},
	{"no-default-domains", 0, NULL,
	 "drop the built-in list (npm, PyPI, GitHub, crates.io, Go proxy, "
	 "container registries)",
	 ltd_opt_no_default_domains},
	{"dns-upstream", 1, "ADDR[:PORT]",
	 "resolver for allowed names (default: the first nameserver of the "
	 "host's /etc/resolv.conf)",
	 ltd_opt_dns_upstream, LTD_OPT_NOT_PROJECT},
	{"audit-log", 1, "FILE",
	 "append one JSON line per DNS decision and opened address to FILE",
	 ltd_opt_audit_log, LTD_OPT_NOT_PROJECT},
	{"quiet", 0, NULL,
	 "no informational output: no summary of refused names and "
	 "destinations at exit, no notes (warnings stay)",
	 ltd_opt_quiet},
	{"allow-clipboard", 0, NULL,
	 "let the command set and read your clipboard through the terminal "
	 "(OSC 52; dropped by default)",
	 opt_allow_clipboard, LTD_OPT_NOT_PROJECT},
	{"memory", 1, "SIZE",
	 "memory for the whole cage, k/m/g suffixes (default: 4g)", opt_memory,
	 0, NULL, "4g"},
	{"cpus", 1, "N[.N]", "CPU time for the cage, in CPUs (default: 4)",
	 opt_cpus, 0, NULL, "4"},
	{"pids-limit", 1, "N",
	 "processes and threads in the cage (default: 512)", opt_pids_limit, 0,
	 NULL, "512"},
	{"allow-unenforced-limits", 0, NULL,
	 "run even where an explicit --memory/--cpus cannot be enforced as "
	 "a whole-cage limit (no delegated cgroup)",
	 opt_allow_unenforced, LTD_OPT_NOT_PROJECT},
	{"require-landlock", 0, NULL,
	 "stop (exit 125) on a kernel whose Landlock cannot be the cage's "
	 "second wall, instead of a warning",
	 opt_require_landlock},
	{"test-landlock-abi", 1, "N",
	 "test only: take this kernel's Landlock to be ABI N when that is "
	 "lower (0: none), as a host with an older kernel would (its "
	 "warnings, and its walls)",
	 opt_test_landlock_abi, LTD_OPT_CLI_ONLY | LTD_OPT_TEST_HOOK},
	{"restrict-tcp-ports", 0, NULL,
	 "TCP connect, loopback included, only to the ports the network "
	 "policy allows (Landlock ABI 4+): servers of the cage's own on "
	 "other ports become unreachable",
	 opt_restrict_tcp_ports},
	{"unsafe-seccomp-log", 0, NULL,
	 "the syscall filter logs what it would refuse and refuses nothing "
	 "(to find what a tool needs; unsafe as --unsafe-no-seccomp)",
	 opt_seccomp_log, LTD_OPT_NOT_PROJECT, "seccomp"},
	{"unsafe-no-seccomp", 0, NULL,
	 "run without the syscall filter (unsafe: nested user namespaces, "
	 "io_uring, bpf... become reachable)",
	 opt_no_seccomp, LTD_OPT_NOT_PROJECT, "seccomp"},
	{"unsafe-writable-git", 0, NULL,
	 "leave writable what git, Claude Code, editors and other agents on "
	 "the host run from the project (.git/hooks, .git/config, "
	 ".claude/settings.json, .claude/commands, .vscode/tasks.json...; "
	 "code planted there runs on the host later)",
	 opt_writable_git, LTD_OPT_NOT_PROJECT},
	{"policy", 1, "FILE",
	 "read options from FILE (one per line, without dashes); after "
	 "the user's and the project's policy, before the command line",
	 opt_policy, LTD_OPT_LIST | LTD_OPT_CLI_ONLY | LTD_OPT_SUMMARY},
	{"strict", 0, NULL,
	 "trust tier (default): a fresh $HOME with disposable copies of "
	 "~/.claude's settings, commands, agents, skills, hooks",
	 opt_strict, 0, "tier", ""},
	{"trusted", 0, NULL,
	 "trust tier: ~/.claude bound live read-write, package caches "
	 "(~/.npm, ~/.cache/pip, ...) writable",
	 opt_trusted, LTD_OPT_NOT_PROJECT | LTD_OPT_SUMMARY, "tier"},
	{"model", 1, "NAME",
	 "use the model proxy for NAME (also LTD_MODEL): sets the OPENAI_* "
	 "and ANTHROPIC_* variables with a placeholder key",
	 opt_model, LTD_OPT_SUMMARY},
	{"proxy-url", 1, "URL",
	 "the model proxy on this host (also LTD_PROXY_URL; default with "
	 "--model: " LTD_DEFAULT_PROXY_URL "); its port is allowed",
	 opt_proxy_url},
	{"agent", 1, "NAME",
	 "make the agent or command NAME (claude, codex, gemini, ...) "
	 "available even when it is not the command: found on your PATH, "
	 "its install bound read-only, its config written for the seam",
	 opt_agent, LTD_OPT_LIST},
	{"secret", 1, "NAME=FILE",
	 "FILE read-only at " LTD_SECRETS_DIR "/NAME (never as a variable)",
	 opt_secret, LTD_OPT_LIST | LTD_OPT_NOT_PROJECT},
	{"ssh-agent", 0, NULL,
	 "bind $SSH_AUTH_SOCK at " LTD_SSH_AGENT_SOCK " and set "
	 "SSH_AUTH_SOCK (keys stay in the agent)",
	 opt_ssh_agent, LTD_OPT_NOT_PROJECT},
	{"unsafe-bind-home", 0, NULL,
	 "allow binding /, your home directory or a parent of it", opt_unsafe,
	 LTD_OPT_NOT_PROJECT},
	{"unsafe-bind-credentials", 0, NULL,
	 "allow binding ~/.ssh, ~/.gnupg, ~/.aws, ~/.config/gh and other "
	 "credential stores",
	 opt_unsafe, LTD_OPT_NOT_PROJECT},
	{"unsafe-bind-session", 0, NULL,
	 "allow binding /run/user/UID or your tmux socket (your session's "
	 "services run commands for whoever connects)",
	 opt_unsafe, LTD_OPT_NOT_PROJECT},
	{"unsafe-bind-docker", 0, NULL,
	 "allow binding a Docker or Podman socket (root on the host)",
	 opt_unsafe, LTD_OPT_NOT_PROJECT},
	{"unsafe-bind-kernel", 0, NULL,
	 "allow binding paths under /proc, /sys or /dev", opt_unsafe,
	 LTD_OPT_NOT_PROJECT},
	{"unsafe-bind-startup-files", 0, NULL,
	 "allow binding writable what the host runs code from: shell "
	 "startup files, git's global config, ~/.local/bin, autostart, "
	 "build tools' homes, caches that hold code, editors' plugins "
	 "(read-only binds need no opt-in)",
	 opt_unsafe, LTD_OPT_NOT_PROJECT},
	{"unsafe-host-network", 0, NULL,
	 "allow --network host: no network namespace, no egress filter",
	 opt_unsafe, LTD_OPT_NOT_PROJECT},
	{"unsafe-publish-external", 0, NULL,
	 "allow --publish on another host address than loopback (other "
	 "machines can then reach the cage's server)",
	 opt_unsafe, LTD_OPT_NOT_PROJECT},
	{"unsafe-wildcard-public-suffix", 0, NULL,
	 "allow a wildcard domain directly over a public suffix ('*.com', "
	 "'*.co.uk': every site under it)",
	 opt_unsafe, LTD_OPT_NOT_PROJECT},
	{"name", 1, "NAME",
	 "register the cage as NAME (unique per user) for 'exec', 'ps' "
	 "and 'kill'",
	 opt_name, LTD_OPT_CLI_ONLY | LTD_OPT_SUMMARY},
	{"review", 1, "NAME",
	 "hold the command's writes to the project aside in review NAME "
	 "(an overlay) until 'ltd-native apply NAME'; a pending NAME "
	 "continues where it left off",
	 opt_review, LTD_OPT_CLI_ONLY | LTD_OPT_SUMMARY},
	{"keep-running", 0, NULL,
	 "with --name: the cage outlives its first command (background "
	 "servers keep running) until 'ltd-native kill NAME'",
	 opt_keep_running, LTD_OPT_CLI_ONLY},
	{"json-status-fd", 1, "FD",
	 "write JSON events to FD, one per line: started (pids, namespace "
	 "ids, network, name, waived risks), exited (status or signal)",
	 opt_status_fd, LTD_OPT_CLI_ONLY},
	{"info-fd", 1, "FD",
	 "write the cage's pid and namespace ids to FD once it runs, as "
	 "bubblewrap does, and close it",
	 opt_info_fd, LTD_OPT_CLI_ONLY},
};

#define N_OPTIONS (sizeof(options) / sizeof(options[0]))

/* Old names that stop with the new one: a script or policy file that used
 * them must be changed to say what it accepts now. */
static const struct ltd_renamed_option renamed[] = {
	{"seccomp-log", "unsafe-seccomp-log",
	 "a filter that only logs refuses nothing"},
};

const struct ltd_renamed_option *ltd_option_renamed(const char *name)
{
	for (size_t i = 0; i < sizeof(renamed) / sizeof(renamed[0]); i++)
		if (strcmp(renamed[i].old, name) == 0)
			return &renamed[i];
	return NULL;
}

const struct ltd_option *ltd_option_find(const char *name)
{
	for (size_t i = 0; i < N_OPTIONS; i++)
		if (strcmp(options[i].name, name) == 0)
			return &options[i];
	return NULL;
}

const struct ltd_option *ltd_option_at(size_t i)
{
	return i < N_OPTIONS ? &options[i] : NULL;
}

void ltd_policy_print_help(FILE *out, unsigned only)
{
	for (size_t i = 0; i < N_OPTIONS; i++) {
		const struct ltd_option *o = &options[i];
		char head[64];

		if ((o->flags & LTD_OPT_TEST_HOOK) || (o->flags & only) != only)
			continue;
		snprintf(head, sizeof(head), "--%s%s%s", o->name,
			 o->metavar ? " " : "", o->metavar ? o->metavar : "");
		fprintf(out, "  %-26s %s\n", head, o->help);
	}
}
