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

#include "policy/cidr.h"
#include "policy/domains.h"
#include "common/error.h"
#include "confine/seccomp.h"

enum ltd_network {
	LTD_NET_NONE = 0,  /* loopback only */
	LTD_NET_ALLOWLIST, /* pasta + default-deny firewall (the default) */
	LTD_NET_HOST,	   /* the host's network: only with
			      --unsafe-host-network */
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
	bool network_set;	    /* --network given explicitly */
	struct ltd_net_dest *allow; /* --allow-cidr, in order */
	size_t n_allow;
	/* Test only (--test-firewall-hole): blocks the firewall admits but
	 * pasta's Landlock wall does not, to show that wall holds alone. */
	struct ltd_net_dest *fw_holes;
	size_t n_fw_holes;
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
	/* --policy FILE, as given (read by the resolver; kept to judge where
	 * they lie: ltd_policy_inputs). */
	char **policy_files;
	size_t n_policy_files;
	bool quiet; /* no refusal summary at exit */

	enum ltd_seccomp_mode seccomp;

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

	struct ltd_identity id;
	char *host_home; /* real path of the home directory, NULL if none */

	struct ltd_origin *origins; /* every applied option, in order */
	size_t n_origins;
	char **waived; /* gated risks let through by --unsafe-... */
	size_t n_waived;
	char **warnings; /* other things the user should hear about */
	size_t n_warnings;

	/* Lifecycle and the launcher interface (runtime/registry.c). */
	char *name;	   /* --name: registered, reachable by exec/ps/kill */
	bool keep_running; /* the cage outlives its first command */
	int status_fd;	   /* --json-status-fd, -1 for none */
	int info_fd;	   /* --info-fd, -1 for none */

	char **argv; /* the command, NULL-terminated, owned */
};

#define LTD_DEFAULT_HOSTNAME "ltd-sandbox"

/* A cage's name (--name): at most this many bytes. */
#define LTD_NAME_MAX 64

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

/* "512m", "4g", "1073741824": bytes, k/m/g/t binary suffixes.  Pure. */
int ltd_parse_size(const char *s, uint64_t *out);
/* "2", "0.5", "1.25": thousandths of a CPU, at most three decimals. */
int ltd_parse_cpus(const char *s, unsigned *milli);

void ltd_policy_init(struct ltd_policy *p);
void ltd_policy_free(struct ltd_policy *p);

/*
 * Parse `ltd-native run` arguments (argv[0] is the first argument after
 * "run") and apply them alone, as the command line.  Fills @p; on error
 * names the flag at fault.
 */
int ltd_policy_parse_run(struct ltd_policy *p, int argc, char **argv,
			 struct ltd_err *err);

/* Everything the policy is resolved from, besides the built-in defaults. */
struct ltd_policy_input {
	int argc; /* run flags [-- COMMAND...] */
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

/* Print the resolved (and validated) policy with each item's source. */
void ltd_policy_show(FILE *out, const struct ltd_policy *p);

/* SHA-256 of @len bytes as 64 lowercase hex digits and a NUL. */
int ltd_sha256_hex(const void *data, size_t len, char hex[65],
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

/* Print the run flags, one per line, for `run --help`. */
void ltd_policy_print_help(FILE *out);

/*
 * Resolve and check everything against the host: paths exist, are absolute,
 * and nothing would be created on the host.  Fills @p->id and resolves
 * paths.  No namespaces, no side effects.
 */
int ltd_policy_validate(struct ltd_policy *p, struct ltd_err *err);

/*
 * Add what the trust tier, the provider seam and --ssh-agent imply: copies,
 * binds of persistent state, environment, host port.  Reads the host (what
 * exists), creates nothing.  Called by ltd_policy_validate().
 */
int ltd_policy_derive(struct ltd_policy *p, struct ltd_err *err);

/* @dir is a git directory, as git's is_git_directory() judges one. */
bool ltd_git_is_dir(const char *dir);

/* The machine-local domain allowlists, under the user's home. */
#define LTD_LOCAL_DOMAIN_FILES                                                 \
	"/.config/ltd-native/allowed-domains.txt",                             \
		"/.config/lamp-the-djinn/allowed-domains.txt"

/*
 * A writable bind (@flag, the real path @src) that holds a git
 * repository's .git, or is or lies in a git directory, is refused unless
 * git protection is off (--unsafe-writable-git): its hooks and config
 * would be the cage's to write, and git on the host runs them.
 */
int ltd_git_bind_check(const struct ltd_policy *p, const char *flag,
		       const char *src, struct ltd_err *err);

/*
 * Once the binds are resolved: each writable bind the user asked for is
 * judged by the repositories above the project and above every other such
 * bind too (refused as ltd_git_bind_check refuses), and the project by the
 * repositories above each bind (what they name in it becomes read-only).
 */
int ltd_git_cross_check(struct ltd_policy *p, struct ltd_err *err);

/* Fill @p->protected from the project's .git (reads the host). */
int ltd_git_protected(struct ltd_policy *p, struct ltd_err *err);

/*
 * Refuse a protected path that is, or passes through, a symbolic link in
 * the project: the read-only bind would cover the target, and the command
 * could re-point the link itself.
 */
int ltd_policy_check_links(const struct ltd_policy *p, struct ltd_err *err);

/*
 * The files that this run names and the next run reads again (--policy,
 * --allow-domains-file and LTD_ALLOW_DOMAINS_FILE, --audit-log, and the
 * machine-local allowlists and policy when they are links), judged by
 * their real paths: one in a writable bind (or under one) is refused,
 * naming the option and the fix; one in the project is protected
 * (read-only inside, no link in the project on its way).  Domain files and
 * the audit log are replaced by the real path judged, so that the
 * launcher reads and writes exactly that.  Reads the host; called by
 * ltd_policy_validate() once the mounts are resolved.
 */
int ltd_policy_inputs(struct ltd_policy *p, struct ltd_err *err);

/* lstat(@path), answered once per memo (one pass of the gate or of the
 * link check): LTD_LSTAT_MISSING (any failure), _LINK or _OTHER.  With
 * @list_dir set, the names directly in that directory are answered from
 * one listing of it, made at the first such question (a small directory
 * only; else each is lstat'ed). */
enum { LTD_LSTAT_MISSING, LTD_LSTAT_LINK, LTD_LSTAT_OTHER };
#define LTD_LSTAT_MEMO_MAX 64
struct ltd_lstat_memo {
	size_t n;
	struct {
		char *path;
		int state;
	} e[LTD_LSTAT_MEMO_MAX];
	const char *list_dir; /* set by the caller; not owned */
	int listed;	      /* 0 not yet, 1 listed, -1 could not */
	char *list;	      /* its getdents64 records */
	size_t list_len;
};
int ltd_lstat_memo(struct ltd_lstat_memo *m, const char *path);
void ltd_lstat_memo_free(struct ltd_lstat_memo *m);

/* getpwuid(@uid), asked once a process (policy resolution and validation
 * both need it: glibc reads /etc/passwd again each time).  Only pw_name,
 * pw_dir, pw_shell, pw_uid and pw_gid are filled; NULL: no entry. */
struct passwd;
const struct passwd *ltd_policy_passwd(uid_t uid);

/* Add @path (absolute, in the project) to @p->protected, once. */
int ltd_policy_protect(struct ltd_policy *p, const char *path,
		       struct ltd_err *err);

/* Add each of @names (@n, relative to the project) to @p->protected. */
int ltd_policy_protect_names(struct ltd_policy *p, const char *const *names,
			     size_t n, struct ltd_err *err);

/* Resolve ".", ".." and "//" in an absolute path, in place, by the text. */
void ltd_path_normalize(char *path);

/*
 * Add to @p->protected what Claude Code on the host runs from the project
 * by itself: the project's .claude/hooks, and the project files that the
 * commands of .claude/settings.json, .claude/settings.local.json (hooks,
 * statusLine, the *Helper commands, env) and .mcp.json (servers' command
 * and args) name; what cannot be resolved is added to @p->warnings.  A
 * settings file that is there but is not JSON ltd-native can read, or not a
 * regular file, is an error naming it (nothing would say what it runs).
 */
int ltd_agent_protected(struct ltd_policy *p, struct ltd_err *err);

enum ltd_cmd_kind {
	LTD_CMD_PATH,	 /* a word with a '/': an absolute, normalized path */
	LTD_CMD_BARE,	 /* a word without: absolute, in its directory */
	LTD_CMD_GLOB,	 /* an unquoted pattern, absolute */
	LTD_CMD_UNKNOWN, /* a path-like word that cannot be resolved: as
			    written */
};

/* A place that a command line names. */
struct ltd_cmd_path {
	char *path;
	enum ltd_cmd_kind kind;
	bool input; /* the target of a `<` */
};

/*
 * Pure: the words of shell command line @cmd that may name a place, read
 * as sh splits them (quotes, escapes, line joins, ; & | ( ) and
 * redirections), with $CLAUDE_PROJECT_DIR (any ${...} form), $PWD,
 * $(git rev-parse --show-toplevel), $HOME and a leading ~ (with @home)
 * expanded; relative words are taken from @project (Claude Code runs hooks
 * there) or from where a `cd` in command position moved, within its
 * subshell.  Options are skipped (their =VALUE is read); output targets
 * too.  At most 1024 places (-E2BIG).
 */
int ltd_command_paths(const char *cmd, const char *project, const char *home,
		      struct ltd_cmd_path **out, size_t *n);
void ltd_command_paths_free(struct ltd_cmd_path *v, size_t n);

/* Where the commands being read come from, and what they added so far. */
struct ltd_cmd_scan {
	struct ltd_policy *p;
	const char *file;  /* the file that holds them, for messages */
	size_t added;	   /* paths protected so far (at most 256) */
	bool said_unknown; /* one warning per file */
	/* A path through a link in the project: protected by its text, so
	 * that ltd_policy_check_links refuses the run (git's config), or an
	 * error here (Claude Code's settings). */
	bool refuse_links;
};

/*
 * Add to @s->p->protected the places in the project that command line
 * @cmd, run in @base, names (ltd_command_paths): a path with a '/' by its
 * text, a bare word when it is a file there, a glob's matches; not a
 * directory unless @dirs.  What cannot be resolved is added to
 * @s->p->warnings; a path through a link in the project is protected by
 * its text with @s->refuse_links (ltd_policy_check_links then refuses the
 * run naming the link), and is an error (-ELOOP) without.
 */
int ltd_protect_command(struct ltd_cmd_scan *s, const char *cmd,
			const char *base, bool dirs, struct ltd_err *err);

/*
 * The command's environment, built from @host (the launcher's environ) by
 * the passthrough list and the policy.  NULL-terminated; ltd_env_free().
 */
char **ltd_env_build(const struct ltd_policy *p, char *const *host,
		     struct ltd_err *err);
void ltd_env_free(char **envp);

#endif
