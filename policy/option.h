/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The option table's internals, shared by the parts of policy/ that read
 * options from somewhere (the command line, policy files, the environment)
 * and the part that shows them.  Not for the runtime.
 */
#ifndef LTD_POLICY_OPTION_H
#define LTD_POLICY_OPTION_H

#include "policy/policy.h"

enum {
	LTD_OPT_LIST = 1 << 0,	      /* repeatable: every occurrence counts */
	LTD_OPT_NOT_PROJECT = 1 << 1, /* refused in a project policy file */
	LTD_OPT_CLI_ONLY = 1 << 2,    /* only on the command line */
	LTD_OPT_TEST_HOOK = 1 << 3,   /* a test's: see LTD_TEST_HOOKS_VAR */
	/* Also in `ltd-native --help`: what a newcomer reaches for first. */
	LTD_OPT_SUMMARY = 1 << 4,
};

/*
 * Test hooks weaken one layer so that a test can show another holds.  They
 * exist only where this variable is "1" in ltd-native's environment, only
 * on the command line (never from a policy file), are not in --help, and
 * are waived risks when used.
 */
#define LTD_TEST_HOOKS_VAR "LTD_NATIVE_TEST_HOOKS"

struct ltd_option {
	const char *name; /* long flag without "--" */
	int nargs;	  /* 0, 1 or 2 */
	const char *metavar;
	const char *help;
	int (*apply)(struct ltd_policy *p, const struct ltd_option *opt,
		     char **args, struct ltd_err *err);
	/* Added at the end so that positional table entries stay valid. */
	unsigned flags;	   /* LTD_OPT_* */
	const char *group; /* options that set the same thing share one */
	const char *def;   /* the built-in default, as its argument text */
};

/* One option as written in one source, before it is applied. */
struct ltd_opt_entry {
	const struct ltd_option *opt;
	char *args[2];
	char *source;
};

struct ltd_opt_list {
	struct ltd_opt_entry *e;
	size_t n;
};

#define LTD_SRC_CLI "command line"

/* The network options' handlers (opt_net.c), for the table. */
int ltd_opt_network(struct ltd_policy *p, const struct ltd_option *opt,
		    char **args, struct ltd_err *err);
int ltd_opt_allow_cidr(struct ltd_policy *p, const struct ltd_option *opt,
		       char **args, struct ltd_err *err);
int ltd_opt_fw_hole(struct ltd_policy *p, const struct ltd_option *opt,
		    char **args, struct ltd_err *err);
int ltd_opt_allow_host_port(struct ltd_policy *p, const struct ltd_option *opt,
			    char **args, struct ltd_err *err);
int ltd_opt_publish(struct ltd_policy *p, const struct ltd_option *opt,
		    char **args, struct ltd_err *err);
int ltd_opt_allow_domain(struct ltd_policy *p, const struct ltd_option *opt,
			 char **args, struct ltd_err *err);
int ltd_opt_allow_domains_file(struct ltd_policy *p,
			       const struct ltd_option *opt, char **args,
			       struct ltd_err *err);
int ltd_opt_no_default_domains(struct ltd_policy *p,
			       const struct ltd_option *opt, char **args,
			       struct ltd_err *err);
int ltd_opt_dns_upstream(struct ltd_policy *p, const struct ltd_option *opt,
			 char **args, struct ltd_err *err);
int ltd_opt_audit_log(struct ltd_policy *p, const struct ltd_option *opt,
		      char **args, struct ltd_err *err);
int ltd_opt_quiet(struct ltd_policy *p, const struct ltd_option *opt,
		  char **args, struct ltd_err *err);

/* Shared by the handlers: *@slot becomes a copy of @val. */
int ltd_opt_set_str(char **slot, const char *val, struct ltd_err *err);
/* @path must be absolute (and fit a path). */
int ltd_opt_need_abs(const struct ltd_option *opt, const char *path,
		     struct ltd_err *err);

const struct ltd_option *ltd_option_find(const char *name);

/* An option's former name: refused, with its new name and why it changed. */
struct ltd_renamed_option {
	const char *old, *now, *why;
};
const struct ltd_renamed_option *ltd_option_renamed(const char *name);
const struct ltd_option *ltd_option_at(size_t i); /* NULL past the end */

int ltd_opts_add(struct ltd_opt_list *l, const struct ltd_option *opt,
		 char *const *args, const char *source, struct ltd_err *err);
void ltd_opts_free(struct ltd_opt_list *l);

/*
 * Collect run flags up to "--" into @l (source "command line"); the
 * command after "--" into *@cmd (NULL when there is none and !@need_cmd).
 */
int ltd_opts_from_argv(struct ltd_opt_list *l, int argc, char **argv,
		       bool need_cmd, char ***cmd, struct ltd_err *err);

/*
 * Collect the options of a policy file's text: one option per line,
 * without dashes, '#' comments, "double" or 'single' quotes, a leading ~/
 * in an unquoted word is @home.  Options with a flag in @forbid are
 * refused.  Errors say @file:LINE.
 */
int ltd_opts_from_text(struct ltd_opt_list *l, const char *text, size_t len,
		       const char *file, const char *home, unsigned forbid,
		       struct ltd_err *err);

/* Apply in order; record each in p->origins.  Errors name the source. */
int ltd_opts_apply(struct ltd_policy *p, const struct ltd_opt_list *l,
		   struct ltd_err *err);

#define LTD_POLICY_MAX_FILE (64 * 1024)

/*
 * Read a policy file whole.  With @dirfd a directory (a project), @path is
 * opened beneath it without following any link; with AT_FDCWD (the user's
 * own files) as the user named it.  Never blocks on a FIFO.  @shown names
 * it in errors.
 */
int ltd_policy_read_file(int dirfd, const char *path, const char *shown,
			 char **text, size_t *len, struct ltd_err *err);

/* The same, from the open descriptor @fd (a regular file). */
int ltd_policy_read_fd(int fd, const char *shown, char **text, size_t *len,
		       struct ltd_err *err);

/* One place the gate guards (policy/gate.c's table). */
struct ltd_gate_entry {
	const char *path; /* "~/": under home; "@": "%u" is the uid;
			     "$VAR/": under that XDG directory when set */
	const char *what;
	unsigned class;	    /* LTD_UNSAFE_* */
	bool holds_missing; /* writable: gate a parent even if missing */
	const char *risk;   /* NULL: the class's (what the agent could do) */
};

/* The table's entry @i, NULL past the end (for its documentation). */
const struct ltd_gate_entry *ltd_gate_entry_at(size_t i);

/* "--unsafe-..." name (without dashes) of an LTD_UNSAFE_* bit. */
const char *ltd_unsafe_flag(unsigned bit);

/*
 * A model proxy URL on this host: http[s]://HOST[:PORT][/PATH] with HOST
 * 127.0.0.1, localhost or [::1] (or host.ltd.internal, the same host seen
 * from inside).  Writes the URL as the cage sees it (HOST replaced by
 * host.ltd.internal, the port explicit) to @cage and the port to @port.
 * Pure.  -EINVAL for anything else.
 */
int ltd_proxy_url_parse(const char *url, char *cage, size_t size,
			uint16_t *port);

/* Append a formatted line to a list of notes (waived, warnings), once. */
int ltd_policy_add_note(char ***list, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Quote @s for a policy file if it needs it; returns a static buffer. */
const char *ltd_opt_quote(const char *s, char *buf, size_t size);

#endif
