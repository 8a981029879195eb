/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one policy struct.  The option table (policy/options.c) fills it from
 * every source in order of precedence (policy/resolve.c: built-in defaults,
 * ~/.config/ltd-native/policy, the approved project policy, --policy files,
 * LTD_* variables, the command line); validation (policy/validate.c) checks
 * it against the host and derives what the trust tier, the provider seam
 * and the sockets add, before any namespace exists; the runtime only reads
 * it.
 */
#ifndef LTD_POLICY_H
#define LTD_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "common/error.h"
#include "common/names.h"
#include "policy/cidr.h"
#include "policy/domains.h"
#include "policy/publish.h"

enum ltd_network {
	LTD_NET_NONE = 0,  /* loopback only */
	LTD_NET_ALLOWLIST, /* pasta + default-deny firewall (the default) */
	LTD_NET_HOST,	   /* the host's network: only with
			      --unsafe-host-network */
};

/* The system-call filter the command runs under (confine/seccomp.h). */
enum ltd_syscall_filter {
	LTD_FILTER_ENFORCE = 0, /* refuse what the profile refuses */
	LTD_FILTER_LOG,		/* log instead (--unsafe-seccomp-log) */
	LTD_FILTER_OFF,		/* none (--unsafe-no-seccomp) */
};

/* How much of the user's agent configuration the cage gets. */
enum ltd_tier {
	LTD_TIER_STRICT = 0, /* copies of an allowlist of ~/.claude */
	LTD_TIER_TRUSTED,    /* ~/.claude live, package caches writable */
};

/*
 * The gated risks.  Each is refused with an error naming it unless its
 * --unsafe-... flag is given; then the run warns and the resolved policy
 * records it (struct ltd_policy.waived).
 */
enum {
	LTD_UNSAFE_BIND_HOME = 1 << 0,	      /* /, $HOME or a parent of it */
	LTD_UNSAFE_BIND_CREDENTIALS = 1 << 1, /* ~/.ssh, ~/.aws, ... */
	LTD_UNSAFE_BIND_SESSION = 1 << 2,     /* /run/user/UID, tmux */
	LTD_UNSAFE_BIND_DOCKER = 1 << 3,      /* Docker/Podman sockets */
	LTD_UNSAFE_BIND_KERNEL = 1 << 4,      /* /proc, /sys, /dev */
	LTD_UNSAFE_HOST_NETWORK = 1 << 5,     /* --network host */
	LTD_UNSAFE_BIND_STARTUP = 1 << 6,     /* ~/.bashrc... writable */
	LTD_UNSAFE_PUBLISH_EXTERNAL = 1 << 7, /* --publish beyond loopback */
	LTD_UNSAFE_PUBLIC_SUFFIX = 1 << 8,    /* --allow-domain '*.com' */
};

/* A mount the user asked for, in command-line order. */
enum ltd_user_mount_kind {
	LTD_UM_RO_BIND,
	LTD_UM_BIND,
	LTD_UM_TMPFS,
};

/* The option of a read-write bind that gets no Landlock rule: for the test
 * that shows Landlock holds on its own. */
#define LTD_TEST_LANDLOCK_HOLE "test-landlock-hole"

struct ltd_user_mount {
	enum ltd_user_mount_kind kind;
	char *src;	  /* resolved real path; NULL for tmpfs */
	char *dst;	  /* absolute path inside the cage */
	const char *flag; /* "bind" etc. (the option, without dashes) */
	mode_t want;	  /* S_IFREG, S_IFSOCK, or 0 for any type */
	unsigned waive;	  /* LTD_UNSAFE_* this mount may pass without the
			     flag (only --ssh-agent: its session socket) */
	unsigned state;	  /* LTD_STATE_*: persistent state that
			     ltd-native creates on the host when missing */
	bool derived;	  /* added by the tier/seam, not written by a user */
};

enum {
	LTD_STATE_DIR = 1,  /* created 0700 with missing parents */
	LTD_STATE_FILE = 2, /* created empty 0600 */
	/* A directory Claude Code on the host reads as the cage left it
	 * (this project's transcripts and memory): looked at when the run
	 * ends (protect/agentstate.h). */
	LTD_STATE_CLAUDE_READS = 4,
	/* The auth directory every run shares: the agents keep their login,
	 * so their configuration, there (the same). */
	LTD_STATE_SHARED_AUTH = 8,
};

/* A disposable copy: host file or tree -> path in the cage's tmpfs. */
struct ltd_copy {
	char *src; /* real host path */
	char *dst;
};

/* Where a policy item came from: one applied option, as written. */
struct ltd_origin {
	const char *opt; /* option name, from the table */
	char *args[2];
	char *source; /* "FILE:LINE", "command line", "environment (VAR)" */
};

/* --setenv K V (val != NULL) or --unsetenv K (val == NULL), in order. */
struct ltd_env_op {
	char *key;
	char *val;
};

/*
 * A file or link that no host path holds: a generated config (an agent's
 * adapter, the git identity) or a link of the command resolver's.  The
 * cage's init creates it in a tmpfs of the cage's own (the root, sealed
 * read-only, or the home), never on the host; one inside a bind is an
 * error of the mount plan.
 */
struct ltd_cage_file {
	char *dst;	 /* absolute path inside the cage */
	char *content;	 /* the bytes; for a link, its target text */
	size_t len;	 /* bytes of content */
	mode_t mode;	 /* a file's mode; 0: a symbolic link */
	const char *why; /* where it came from (interned) */
};

/* A variable a derived item sets (an agent's adapter): after the provider
 * seam's, before --setenv, which may still override it. */
struct ltd_env_item {
	char *key;
	char *val;
	const char *why; /* interned */
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
	char *project;	  /* resolved absolute directory, bound read-write */
	bool protect_git; /* what git executes from: read-only (protect/) */

	struct ltd_user_mount *mounts;
	size_t n_mounts;

	struct ltd_env_op *env;
	size_t n_env;

	char *chdir;	/* working directory inside; default: project */
	char *hostname; /* default: LTD_DEFAULT_HOSTNAME */
	enum ltd_network network;
	bool network_set;	    /* --network given explicitly */
	struct ltd_net_dest *allow; /* --allow-cidr, in order */
	size_t n_allow;
	/* Test only (--test-firewall-hole): blocks the firewall admits but
	 * pasta's Landlock wall does not, to show that wall holds alone. */
	struct ltd_net_dest *fw_holes;
	size_t n_fw_holes;
	uint16_t *host_ports; /* --allow-host-port: TCP on host loopback */
	size_t n_host_ports;
	/* --publish: the cage's TCP servers, served on the host by pasta */
	struct ltd_publish *publish;
	size_t n_publish;
	/* The domain allowlist: --allow-domain entries here; the launcher
	 * appends the files and the built-in list before clone. */
	struct ltd_domains domains;
	char **domain_files; /* --allow-domains-file, in order */
	size_t n_domain_files;
	bool no_default_domains;
	char *dns_upstream; /* --dns-upstream ADDR[:PORT], or NULL */
	char *audit_log;    /* --audit-log FILE: JSON lines, or NULL */
	/* --policy FILE, as given (read by the resolver; kept to judge where
	 * they lie: ltd_policy_inputs). */
	char **policy_files;
	size_t n_policy_files;
	/* The files this run names that the next run reads and that lie in
	 * the project, by their text and their real paths (ltd_policy_inputs):
	 * protect/ keeps them read-only. */
	char **inputs_in_project;
	size_t n_inputs_in_project;
	bool quiet; /* no informational output: refusal summaries, notes */
	/* --allow-clipboard: the terminal relays let OSC 52 through. */
	bool allow_clipboard;

	enum ltd_syscall_filter seccomp;

	enum ltd_tier tier;
	unsigned unsafe; /* LTD_UNSAFE_*: the --unsafe-... flags given */

	/* The provider seam (--model, --proxy-url, LTD_MODEL, LTD_PROXY_URL).
	 */
	char *model;
	char *proxy_url;      /* as given, on the host */
	char *cage_proxy_url; /* derived: the same at host.ltd.internal */

	bool ssh_agent;	     /* --ssh-agent */
	char *ssh_auth_sock; /* $SSH_AUTH_SOCK of the launcher */

	struct ltd_copy *copies; /* derived from the tier */
	size_t n_copies;
	/* --rootfs: a pinned root filesystem (NAME or sha256:DIGEST) instead
	 * of the host's /usr; NULL for the host's. */
	char *rootfs;

	/* Resources (--memory, --cpus, --pids-limit): the whole cage's. */
	uint64_t memory_bytes;
	unsigned cpus_milli; /* 1000 = one CPU */
	unsigned pids_limit;
	unsigned limits_explicit; /* LTD_LIMIT_*: given by the user */
	bool allow_unenforced_limits;

	/* Landlock (confine/landlock.h): a kernel without it is an error
	 * rather than a warning; TCP connect only to the policy's ports. */
	bool require_landlock;
	bool restrict_tcp_ports;
	/* Test only (--test-landlock-abi): the run takes the kernel's Landlock
	 * to be this ABI, when lower; -1: as it is. */
	int test_landlock_abi;

	struct ltd_identity id;
	char *host_home; /* real path of the home directory, NULL if none */

	struct ltd_origin *origins; /* every applied option, in order */
	size_t n_origins;
	char **waived; /* gated risks let through by --unsafe-... */
	size_t n_waived;
	char **warnings; /* other things the user should hear about */
	size_t n_warnings;
	char **notes; /* informational: said unless --quiet */
	size_t n_notes;

	/* Lifecycle and the launcher interface (runtime/registry.c). */
	char *name; /* --name: registered, reachable by exec/ps/kill */
	/* --review NAME: the project is an overlay in the cage, the command's
	 * writes held in the review's upper directory until `apply`
	 * (review/). */
	char *review;
	bool keep_running; /* the cage outlives its first command */
	int status_fd;	   /* --json-status-fd, -1 for none */
	int info_fd;	   /* --info-fd, -1 for none */

	char **argv; /* the command, NULL-terminated, owned */

	/* The agents (agents/agents.h): --agent names, the caller's PATH
	 * where commands are found, and what the resolver and the adapters
	 * derive from the host. */
	char **agents; /* --agent NAME, in order */
	size_t n_agents;
	char *host_path; /* the launcher's $PATH; NULL: LTD_CAGE_PATH */
	struct ltd_cage_file *files;
	size_t n_files;
	struct ltd_cage_file *seeds; /* host files, .dst a host path */
	size_t n_seeds;
	struct ltd_env_item *derived_env;
	size_t n_derived_env;
	bool cmd_links;	 /* PATH starts with LTD_CMD_DIR */
	char **interned; /* strings derived items point to */
	size_t n_interned;
};

/* The cage's PATH, and the directory before it that holds links to the
 * commands found on the caller's PATH (agents/resolve.c). */
#define LTD_CAGE_PATH                                                          \
	"/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin"
#define LTD_CMD_DIR "/run/ltd/bin"

#define LTD_DEFAULT_HOSTNAME "ltd-sandbox"

/* Fixed places in the cage. */
#define LTD_SECRETS_DIR	   "/run/secrets"
#define LTD_SSH_AGENT_SOCK "/run/ltd/ssh-agent.sock"
/* The token the agent gets instead of a model API key. */
#define LTD_PLACEHOLDER_KEY "ltd-placeholder-not-a-key"
/* --model without --proxy-url: LiteLLM's default port on the host. */
#define LTD_DEFAULT_PROXY_URL "http://127.0.0.1:4000"

/* The seed documents' defaults: 4g, 4 CPUs, 512 pids. */
#define LTD_DEFAULT_MEMORY     (4ULL << 30)
#define LTD_DEFAULT_CPUS_MILLI 4000
#define LTD_DEFAULT_PIDS       512

enum {
	LTD_LIMIT_MEMORY = 1 << 0,
	LTD_LIMIT_CPUS = 1 << 1,
	LTD_LIMIT_PIDS = 1 << 2,
};

void ltd_policy_init(struct ltd_policy *p);
void ltd_policy_free(struct ltd_policy *p);

/*
 * Parse `ltd-native run` arguments (argv[0] is the first argument after
 * "run") and apply them alone, as the command line.  Fills @p; on error
 * names the flag at fault.
 */
int ltd_policy_parse_run(struct ltd_policy *p, int argc, char **argv,
			 struct ltd_err *err);

/*
 * The user who runs ltd-native, as the host's user database says: a host
 * fact, probed by runtime/ (ltd_host_user()) and passed in.
 */
struct ltd_host_user {
	uid_t uid;
	gid_t gid;
	const char *name;  /* NULL: no passwd entry */
	const char *home;  /* its home directory, or NULL */
	const char *shell; /* its login shell, or NULL */
	const char *group; /* the name of @gid, or NULL */
	bool shell_runs;   /* @shell is a file it may execute */
};

/* Everything the policy is resolved from, besides the built-in defaults. */
struct ltd_policy_input {
	const struct ltd_host_user *user; /* who runs: required */
	int argc;			  /* run flags [-- COMMAND...] */
	char **argv;
	bool need_command;	/* `run`: yes; `policy show`: no */
	char *const *env;	/* LTD_MODEL, LTD_PROXY_URL, SSH_AUTH_SOCK */
	const char *config_dir; /* NULL: ~/.config/ltd-native of the user */
	const char *cwd;	/* NULL: the current directory */
};

/*
 * Resolve the policy from every source in order of precedence: built-in
 * defaults, CONFIG/policy, the project's .ltd-native/policy (only if
 * approved: its SHA-256 matches the one `policy allow` stored), --policy
 * files in order, LTD_MODEL/LTD_PROXY_URL, the command line.  Reads files,
 * changes nothing.  Errors name the flag or FILE:LINE.
 */
int ltd_policy_resolve(struct ltd_policy *p, const struct ltd_policy_input *in,
		       struct ltd_err *err);

/*
 * Approve the project policy file of the project that @in names: store its
 * SHA-256 under CONFIG/approved/.  Prints what it approved to @out.
 */
int ltd_policy_allow(const struct ltd_policy_input *in, FILE *out,
		     struct ltd_err *err);

/*
 * What the host says, for the decisions that need it: probed before
 * ltd_policy_decide() by the folders that own each fact (netfilter/ finds
 * pasta, runtime/ loads a pinned root filesystem).
 */
struct ltd_host_facts {
	bool pasta_ok;	       /* pasta found and usable here */
	const char *pasta_why; /* if not: why (one line) */
	bool rootfs_has_shell; /* --rootfs: the image holds p->id.shell */
};

/*
 * The last decisions, from the host's facts: allowlist mode without pasta
 * (an error if the user asked for networking, else --network none with a
 * warning), the login shell a pinned root filesystem lacks (/bin/sh), the
 * domain allowlist's files read once.  After this the launcher only reads
 * the policy.
 */
int ltd_policy_decide(struct ltd_policy *p, const struct ltd_host_facts *f,
		      struct ltd_err *err);

/* What other folders worked out from the policy, shown with it: the paths
 * kept read-only inside and their warnings (protect/).  Plain lists, so
 * that policy/ needs none of those folders. */
struct ltd_policy_show_extra {
	char *const *readonly;
	size_t n_readonly;
	char *const *warnings;
	size_t n_warnings;
};

/* Print the resolved (and validated) policy with each item's source, and
 * @x (NULL: nothing more). */
void ltd_policy_show(FILE *out, const struct ltd_policy *p,
		     const struct ltd_policy_show_extra *x);

/*
 * Wildcards over a public suffix (policy/suffix.c): each entry of
 * p->domains from index @from on that is "*.NAME" with NAME a suffix of
 * the public suffix list's ICANN section ("*.com", "*.co.uk") is refused
 * with an error naming the entry's source (the flag, FILE:LINE) and the
 * suffix, unless --unsafe-wildcard-public-suffix (then it is a waived
 * risk).  The list's private section (github.io) passes.  Reads the list
 * only when there is a wildcard to judge.
 */
int ltd_policy_check_wildcards(struct ltd_policy *p, size_t from,
			       struct ltd_err *err);

/*
 * The gate: refuse a host path that is or holds a sensitive place unless
 * its class is in @allow; record each waived one in p->waived.  @real is
 * a resolved real path; @writable: bound read-write (what the host runs
 * code from is gated only then, and a directory that would hold it even
 * before it exists).  Exported for tests.
 */
int ltd_policy_gate(struct ltd_policy *p, const char *flag, const char *real,
		    bool writable, unsigned allow, struct ltd_err *err);

/* Print the run flags that have every flag of @only (LTD_OPT_*; 0: all),
 * one per line: `run --help` (all), `--help` (LTD_OPT_SUMMARY). */
void ltd_policy_print_help(FILE *out, unsigned only);

/* The run flags as tab-separated data (policy/optdump.c), for the man
 * page and the shell completions: `ltd-native --complete-options`. */
void ltd_policy_print_options(FILE *out);

/*
 * Resolve and check the policy against the host, before the project's
 * protection (protect/protect.h): who runs, the gated options, the
 * project.  Fills @p->id and resolves paths.  No namespaces, no side
 * effects.  Then, once the project is protected and the derived items
 * are in (ltd_policy_derive, then agents/agents.h),
 * ltd_policy_validate_binds(): every bind (exists, absolute, gated, of its
 * type; nothing would be created on the host), the files the next run reads
 * (ltd_policy_inputs), --chdir, the launcher interface.
 */
int ltd_policy_validate(struct ltd_policy *p, const struct ltd_host_user *u,
			struct ltd_err *err);
int ltd_policy_validate_binds(struct ltd_policy *p, struct ltd_err *err);

/*
 * Add what the trust tier, the provider seam and --ssh-agent imply: copies,
 * binds of persistent state, environment, host port.  Reads the host (what
 * exists), creates nothing.  Called by runtime's ltd_run_check() before
 * ltd_policy_validate_binds().
 */
int ltd_policy_derive(struct ltd_policy *p, struct ltd_err *err);

/*
 * Derived items, for what reads the host for the policy (the derivation
 * below, agents/): each records where it came from (@why, copied into the
 * policy: ltd_policy_intern()) and is shown by `policy show`.
 *
 * A bind goes before the user's mounts, so that a user's mount can cover
 * it; a file or link of the same @dst as an earlier one replaces it; a
 * variable of the same @key as an earlier one replaces it.
 */
const char *ltd_policy_intern(struct ltd_policy *p, const char *s);
int ltd_policy_add_derived(struct ltd_policy *p, enum ltd_user_mount_kind kind,
			   const char *why, const char *src, const char *dst,
			   unsigned state, unsigned waive, struct ltd_err *err);
int ltd_policy_add_copy(struct ltd_policy *p, const char *src, const char *dst,
			struct ltd_err *err);
int ltd_policy_add_file(struct ltd_policy *p, const char *dst,
			const char *content, size_t len, mode_t mode,
			const char *why, struct ltd_err *err);
/* A file of the host's home created with @content when missing, by the
 * launcher's state step (runtime/state.c), before the cage exists: state
 * a live bind of the home needs in place (Claude Code's .claude.json under
 * --trusted).  Never written when it is there. */
int ltd_policy_add_seed(struct ltd_policy *p, const char *path,
			const char *content, size_t len, const char *why,
			struct ltd_err *err);
int ltd_policy_add_link(struct ltd_policy *p, const char *dst,
			const char *target, const char *why,
			struct ltd_err *err);
int ltd_policy_set_env(struct ltd_policy *p, const char *key, const char *val,
		       const char *why, struct ltd_err *err);
/* A line said at start (unless --quiet), once. */
int ltd_policy_note(struct ltd_policy *p, struct ltd_err *err, const char *fmt,
		    ...) __attribute__((format(printf, 3, 4)));
/* A warning said at start, once. */
int ltd_policy_warn(struct ltd_policy *p, struct ltd_err *err, const char *fmt,
		    ...) __attribute__((format(printf, 3, 4)));

/* The machine-local domain allowlists, under the user's home. */
#define LTD_LOCAL_DOMAIN_FILES                                                 \
	"/.config/ltd-native/allowed-domains.txt",                             \
		"/.config/lamp-the-djinn/allowed-domains.txt"

/*
 * The files that this run names and the next run reads again (--policy,
 * --allow-domains-file and LTD_ALLOW_DOMAINS_FILE, --audit-log, and the
 * machine-local allowlists, policy and acknowledged warnings when they are
 * links), judged by
 * their real paths: one in a writable bind (or under one) is refused,
 * naming the option and the fix; one in the project is added to
 * @p->inputs_in_project (protect/ keeps it read-only, no link in the
 * project on its way).  Domain files and
 * the audit log are replaced by the real path judged, so that the
 * launcher reads and writes exactly that.  Reads the host; called by
 * ltd_policy_validate_binds() once the mounts are resolved.
 */
int ltd_policy_inputs(struct ltd_policy *p, struct ltd_err *err);

#endif
