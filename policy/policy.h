/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one policy struct.  The option parser (policy/options.c) fills it from
 * the command line (and, later, from policy files through the same table);
 * validation (policy/validate.c) checks it against the host before any
 * namespace exists; the runtime only reads it.
 */
#ifndef LTD_POLICY_H
#define LTD_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "netfilter/cidr.h"
#include "netfilter/domains.h"
#include "runtime/error.h"
#include "seccomp/seccomp.h"

enum ltd_network {
	LTD_NET_NONE = 0,  /* loopback only */
	LTD_NET_ALLOWLIST, /* pasta + default-deny firewall (the default) */
};

/* A mount the user asked for, in command-line order. */
enum ltd_user_mount_kind {
	LTD_UM_RO_BIND,
	LTD_UM_BIND,
	LTD_UM_TMPFS,
};

struct ltd_user_mount {
	enum ltd_user_mount_kind kind;
	char *src;	    /* resolved real path; NULL for tmpfs */
	char *dst;	    /* absolute path inside the cage */
	const char *flag;   /* "--bind" etc., for error messages */
};

/* --setenv K V (val != NULL) or --unsetenv K (val == NULL), in order. */
struct ltd_env_op {
	char *key;
	char *val;
};

/* Who runs inside: the invoking user, under the same ids and names. */
struct ltd_identity {
	uid_t uid;
	gid_t gid;
	char *user;  /* login name, or "user" when the host has none */
	char *group; /* group name, or the user name */
	char *home;  /* $HOME inside the cage: the host's home path */
	char *shell; /* login shell if it exists inside, else /bin/sh */
};

struct ltd_policy {
	char *project; /* resolved absolute directory, bound read-write */
	bool protect_git; /* what git executes from: read-only */
	/* Absolute paths in the project git executes from or is configured
	 * by; [0] is .git itself.  Filled by validation (ltd_git_protected). */
	char **protected;
	size_t n_protected;

	struct ltd_user_mount *mounts;
	size_t n_mounts;

	struct ltd_env_op *env;
	size_t n_env;

	char *chdir;	/* working directory inside; default: project */
	char *hostname; /* default: LTD_DEFAULT_HOSTNAME */
	enum ltd_network network;
	bool network_set; /* --network given explicitly */
	struct ltd_net_dest *allow; /* --allow-cidr, in order */
	size_t n_allow;
	uint16_t *host_ports; /* --allow-host-port: TCP on host loopback */
	size_t n_host_ports;
	/* The domain allowlist: --allow-domain entries here; the launcher
	 * appends the files and the built-in list before clone. */
	struct ltd_domains domains;
	char **domain_files; /* --allow-domains-file, in order */
	size_t n_domain_files;
	bool no_default_domains;
	char *dns_upstream; /* --dns-upstream ADDR[:PORT], or NULL */
	char *audit_log;    /* --audit-log FILE: JSON lines, or NULL */
	bool quiet;	    /* no refusal summary at exit */

	enum ltd_seccomp_mode seccomp;

	struct ltd_identity id;

	char **argv; /* the command, NULL-terminated, owned */
};

#define LTD_DEFAULT_HOSTNAME "ltd-sandbox"

void ltd_policy_init(struct ltd_policy *p);
void ltd_policy_free(struct ltd_policy *p);

/*
 * Parse `ltd-native run` arguments (argv[0] is the first argument after
 * "run").  Fills @p; on error names the flag at fault.
 */
int ltd_policy_parse_run(struct ltd_policy *p, int argc, char **argv,
			 struct ltd_err *err);

/* Print the run flags, one per line, for `run --help`. */
void ltd_policy_print_help(FILE *out);

/*
 * Resolve and check everything against the host: paths exist, are absolute,
 * and nothing would be created on the host.  Fills @p->id and resolves
 * paths.  No namespaces, no side effects.
 */
int ltd_policy_validate(struct ltd_policy *p, struct ltd_err *err);

/* Fill @p->protected from the project's .git (reads the host). */
int ltd_git_protected(struct ltd_policy *p, struct ltd_err *err);

/*
 * The command's environment, built from @host (the launcher's environ) by
 * the passthrough list and the policy.  NULL-terminated; ltd_env_free().
 */
char **ltd_env_build(const struct ltd_policy *p, char *const *host,
		     struct ltd_err *err);
void ltd_env_free(char **envp);

#endif
