/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The agents' adapters, one row each (agents/adapters.c): how each agent
 * is made to use the provider seam in the cage, what it keeps per
 * project, what of the user's config comes in (and what never does), and
 * how its own sandbox is turned off.  Adding an agent is adding a row.
 * docs/decisions/0121-agent-adapters-table.md
 */
#ifndef LTD_AGENTS_ADAPTERS_H
#define LTD_AGENTS_ADAPTERS_H

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

#include "policy/policy.h"

struct ltd_agent;

/* What an adapter's functions get. */
struct ltd_agent_ctx {
	struct ltd_policy *p;
	const struct ltd_agent *a;
	const char *why;       /* "agent claude", for what it adds */
	const char *home;      /* the cage's $HOME */
	const char *host_home; /* the real home on the host; NULL: none */
	char store[PATH_MAX];  /* this project's state of ltd-native's own
				  on the host ("" without a home) */
	const char *url;       /* the seam's URL in the cage; NULL: none */
	bool trusted;
};

/* A variable's value. */
enum ltd_agent_value {
	LTD_AV_TEXT,   /* .text */
	LTD_AV_URL,    /* the seam's URL */
	LTD_AV_URL_V1, /* the seam's URL with /v1 (OpenAI clients) */
	LTD_AV_KEY,    /* the placeholder key */
	LTD_AV_MODEL,  /* --model */
	LTD_AV_HOME,   /* $HOME/.text */
};

/* When a variable is set. */
enum {
	LTD_AW_SEAM = 1 << 0,	 /* with the seam only */
	LTD_AW_MODEL = 1 << 1,	 /* with --model only */
	LTD_AW_TRUSTED = 1 << 2, /* under --trusted only */
};

struct ltd_agent_var {
	const char *key;
	enum ltd_agent_value value;
	const char *text;
	unsigned when;
};

/* Persistent state in this project's store: STORE/@store at ~/@cage. */
struct ltd_agent_state {
	const char *store;
	const char *cage;
};

struct ltd_agent {
	const char *name;
	const char *const *commands; /* the names it runs by */
	const struct ltd_agent_var *vars;
	/* Strict tier: disposable copies from the home (files or trees; a
	 * link is left out). */
	const char *const *copied;
	/* Its credentials: never copied, never bound (the copies above are
	 * an allowlist; listed for the guide and the tests). */
	const char *const *never;
	const struct ltd_agent_state *state;
	/* The tier's part, run for every command when @always (Claude
	 * Code's ~/.claude: the seeds' tiers), else when the agent runs. */
	int (*home)(struct ltd_agent_ctx *c, struct ltd_err *err);
	/* Its generated config (when the agent runs). */
	int (*files)(struct ltd_agent_ctx *c, struct ltd_err *err);
	/* How its own sandbox is off in the cage: said once; NULL: none. */
	const char *sandbox;
	bool always;
	/* The variable that moves its config away from the generated one
	 * (said when --setenv sets it); NULL: none. */
	const char *config_var;
};

const struct ltd_agent *ltd_agent_find(const char *name);

/* Each adapter whose agent the command or an --agent names. */
int ltd_agents_apply(struct ltd_policy *p, struct ltd_err *err);

/* The rows' functions (agents/claude.c, codex.c, gemini.c). */
int ltd_claude_home(struct ltd_agent_ctx *c, struct ltd_err *err);
int ltd_claude_files(struct ltd_agent_ctx *c, struct ltd_err *err);
int ltd_codex_files(struct ltd_agent_ctx *c, struct ltd_err *err);
int ltd_gemini_files(struct ltd_agent_ctx *c, struct ltd_err *err);

/* The seam's URL with /v1 once at its end, into @buf. */
const char *ltd_agent_url_v1(const char *url, char *buf, size_t size);

/*
 * JSON of the user's (agents/json.c).  ltd_json_read: the regular file
 * @path, no link followed, at most 16 MiB: NULL when missing; *@bad when it
 * is there but not a JSON object (or a link).
 */
json_t *ltd_json_read(const char *path, bool *bad);
/* @j as the cage's file @dst (indented, ending in a newline). */
int ltd_json_file(struct ltd_agent_ctx *c, const char *dst, json_t *j,
		  mode_t mode, struct ltd_err *err);
/* A name that holds a credential: a key, a token, a secret, a password,
 * an OAuth login. */
bool ltd_secret_name(const char *name);
/* Remove each member of the object @o whose name ltd_secret_name()
 * holds; their names, @prefix first, appended to @removed (", "). */
void ltd_json_scrub(json_t *o, const char *prefix, char *removed, size_t size);
/* Append @name to the list @removed (", "). */
void ltd_names_add(char *removed, size_t size, const char *prefix,
		   const char *name);

/* The cage's ~/.gitconfig from the host's global config (gitident.c). */
int ltd_git_identity(struct ltd_policy *p, struct ltd_err *err);

#endif
