// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The agents' adapters as a table (agents/adapters.h), and the one loop
 * that applies the rows: which agents run (the command, --agent), their
 * copies, their state kept per project, their variables, their generated
 * config, a word about their own sandbox.
 * docs/decisions/0121-agent-adapters-table.md
 */
#include "agents/adapters.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "common/base.h"
#include "common/path.h"
#include "common/sha256.h"

/* ---------------------------------------------------------------- rows */

static const char *const claude_cmds[] = {"claude", NULL};
static const struct ltd_agent_var claude_vars[] = {
	/* Its install is read-only in the cage: an update cannot work. */
	{"DISABLE_AUTOUPDATER", LTD_AV_TEXT, "1", 0},
	/* Telemetry, error reports, the plugin marketplace's clone: not
	 * the model's traffic, which goes to the proxy. */
	{"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", LTD_AV_TEXT, "1",
	 LTD_AW_SEAM},
	{"CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL", LTD_AV_TEXT,
	 "1", LTD_AW_SEAM},
	/* The live ~/.claude keeps .claude.json inside, where a rename
	 * works (a bound file refuses it: EBUSY). */
	{"CLAUDE_CONFIG_DIR", LTD_AV_HOME, ".claude", LTD_AW_TRUSTED},
	{NULL, 0, NULL, 0},
};
static const char *const claude_never[] = {".claude/.credentials.json", NULL};

static const char *const codex_cmds[] = {"codex", NULL};
static const struct ltd_agent_var codex_vars[] = {{NULL, 0, NULL, 0}};
static const char *const codex_copied[] = {".codex/AGENTS.md", ".codex/prompts",
					   NULL};
static const char *const codex_never[] = {".codex/auth.json", NULL};
static const struct ltd_agent_state codex_state[] = {
	{"codex-sessions", ".codex/sessions"},
	{NULL, NULL},
};

static const char *const gemini_cmds[] = {"gemini", NULL};
static const struct ltd_agent_var gemini_vars[] = {
	{"GOOGLE_GEMINI_BASE_URL", LTD_AV_URL, NULL, LTD_AW_SEAM},
	{"GEMINI_API_KEY", LTD_AV_KEY, NULL, LTD_AW_SEAM},
	{"GEMINI_MODEL", LTD_AV_MODEL, NULL, LTD_AW_MODEL},
	/* Its relaunched child gets no keystrokes through the cage's pty. */
	{"GEMINI_CLI_NO_RELAUNCH", LTD_AV_TEXT, "true", 0},
	{"GEMINI_SANDBOX", LTD_AV_TEXT, "false", 0},
	{NULL, 0, NULL, 0},
};
static const char *const gemini_copied[] = {".gemini/GEMINI.md",
					    ".gemini/commands", NULL};
static const char *const gemini_never[] = {
	".gemini/oauth_creds.json", ".gemini/google_accounts.json",
	".gemini/mcp-oauth-tokens.json", ".gemini/.env", NULL};
static const struct ltd_agent_state gemini_state[] = {
	{"gemini-tmp", ".gemini/tmp"},
	{"gemini-history", ".gemini/history"},
	{NULL, NULL},
};

/* aider (pipx, uv tool): OpenAI-compatible base URL, no config written;
 * its history stays in the project, where it writes it. */
static const char *const aider_cmds[] = {"aider", NULL};
static const struct ltd_agent_var aider_vars[] = {
	{"OPENAI_API_BASE", LTD_AV_URL_V1, NULL, LTD_AW_SEAM},
	{"AIDER_CHECK_UPDATE", LTD_AV_TEXT, "false", 0},
	{"AIDER_ANALYTICS", LTD_AV_TEXT, "false", 0},
	{NULL, 0, NULL, 0},
};
static const char *const aider_never[] = {".aider.conf.yml", ".env", NULL};

static const char *const none[] = {NULL};
static const struct ltd_agent_state no_state[] = {{NULL, NULL}};

static const struct ltd_agent agents[] = {
	{"claude", claude_cmds, claude_vars, none, claude_never, no_state,
	 ltd_claude_home, ltd_claude_files,
	 "sandbox.enabled = false in its managed settings", true, NULL},
	{"codex", codex_cmds, codex_vars, codex_copied, codex_never,
	 codex_state, NULL, ltd_codex_files,
	 "sandbox_mode = \"danger-full-access\" in "
	 "/etc/codex/managed_config.toml",
	 false, NULL},
	{"gemini", gemini_cmds, gemini_vars, gemini_copied, gemini_never,
	 gemini_state, NULL, ltd_gemini_files,
	 "tools.sandbox = false in ~/.gemini/settings.json, GEMINI_SANDBOX",
	 false, "GEMINI_CLI_HOME"},
	{"aider", aider_cmds, aider_vars, none, aider_never, no_state, NULL,
	 NULL, NULL, false, NULL},
};

/* --------------------------------------------------------------- apply */

const struct ltd_agent *ltd_agent_find(const char *name)
{
	const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;

	for (size_t i = 0; i < ARRAY_SIZE(agents); i++)
		for (const char *const *c = agents[i].commands; *c; c++)
			if (!strcmp(base, *c) || !strcmp(base, agents[i].name))
				return &agents[i];
	return NULL;
}

static bool runs(const struct ltd_policy *p, const struct ltd_agent *a)
{
	if (p->argv && p->argv[0] && ltd_agent_find(p->argv[0]) == a)
		return true;
	for (size_t i = 0; i < p->n_agents; i++)
		if (ltd_agent_find(p->agents[i]) == a)
			return true;
	return false;
}

const char *ltd_agent_url_v1(const char *url, char *buf, size_t size)
{
	size_t n = strlen(url);

	while (n && url[n - 1] == '/')
		n--;
	if (n >= 3 && !strncmp(url + n - 3, "/v1", 3))
		snprintf(buf, size, "%.*s", (int)n, url);
	else
		snprintf(buf, size, "%.*s/v1", (int)n, url);
	return buf;
}

/*
 * This project's store of ltd-native's own, for the agents' state that
 * is not kept by project where they keep it:
 * ~/.local/state/ltd-native/projects/<name>-<12 hex of its path's SHA-256>.
 */
static void project_store(const struct ltd_policy *p, char *out, size_t size)
{
	char hex[65], slug[41];
	const char *base = strrchr(p->project, '/') + 1;
	size_t n = 0;

	ltd_sha256_hex(p->project, strlen(p->project), hex);
	for (; *base && n < sizeof(slug) - 1; base++)
		slug[n++] = isalnum((unsigned char)*base)
				    ? (char)tolower((unsigned char)*base)
				    : '-';
	slug[n] = '\0';
	if (ltd_path_fmt(out, size,
			 "%s/.local/state/ltd-native/projects/%s-%.12s",
			 p->host_home, slug, hex) < 0)
		out[0] = '\0';
}

static int set_var(struct ltd_agent_ctx *c, const struct ltd_agent_var *v,
		   struct ltd_err *err)
{
	char buf[PATH_MAX];
	const char *val = v->text;

	if (((v->when & LTD_AW_SEAM) && !c->url) ||
	    ((v->when & LTD_AW_MODEL) && !c->p->model) ||
	    ((v->when & LTD_AW_TRUSTED) && !c->trusted))
		return 0;
	switch (v->value) {
	case LTD_AV_URL:
		val = c->url;
		break;
	case LTD_AV_URL_V1:
		val = ltd_agent_url_v1(c->url, buf, sizeof(buf));
		break;
	case LTD_AV_KEY:
		val = LTD_PLACEHOLDER_KEY;
		break;
	case LTD_AV_MODEL:
		val = c->p->model;
		break;
	case LTD_AV_HOME:
		if (ltd_path_fmt(buf, sizeof(buf), "%s/%s", c->home, v->text) <
		    0)
			return ltd_err_set(err, ENAMETOOLONG, "%s", v->key);
		val = buf;
		break;
	case LTD_AV_TEXT:
		break;
	}
	return ltd_policy_set_env(c->p, v->key, val, c->why, err);
}

/* Strict tier: the row's copies, as the tier copies (a link is left out
 * with a warning: none is followed out of the home). */
static int copies(struct ltd_agent_ctx *c, struct ltd_err *err)
{
	char src[PATH_MAX], dst[PATH_MAX];
	struct stat st;
	int ret = 0;

	for (const char *const *f = c->a->copied; !ret && *f; f++) {
		if (ltd_path_fmt(src, sizeof(src), "%s/%s", c->host_home, *f) ||
		    ltd_path_fmt(dst, sizeof(dst), "%s/%s", c->home, *f) ||
		    lstat(src, &st) < 0)
			continue;
		if (S_ISLNK(st.st_mode))
			ret = ltd_policy_warn(c->p, err,
					      "%s: '%s' is a symbolic link: "
					      "left out (links are never "
					      "followed out of the home)",
					      c->why, src);
		else if (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))
			ret = ltd_policy_add_copy(c->p, src, dst, err);
	}
	return ret;
}

/* The row's state, in this project's store, created 0700 when missing. */
static int state(struct ltd_agent_ctx *c, struct ltd_err *err)
{
	char src[PATH_MAX], dst[PATH_MAX];
	int ret = 0;

	for (const struct ltd_agent_state *s = c->a->state; !ret && s->store;
	     s++) {
		if (ltd_path_fmt(src, sizeof(src), "%s/%s", c->store,
				 s->store) < 0 ||
		    ltd_path_fmt(dst, sizeof(dst), "%s/%s", c->home, s->cage) <
			    0)
			return ltd_err_set(err, ENAMETOOLONG, "%s: state",
					   c->why);
		ret = ltd_policy_add_derived(c->p, LTD_UM_BIND, c->why, src,
					     dst, LTD_STATE_DIR, 0, err);
	}
	return ret;
}

/* --setenv of the variable that moves the agent's config elsewhere: the
 * generated one is then not what it reads. */
static int moved_config(struct ltd_agent_ctx *c, struct ltd_err *err)
{
	const struct ltd_policy *p = c->p;

	for (size_t i = 0; c->a->config_var && i < p->n_env; i++)
		if (p->env[i].val && !strcmp(p->env[i].key, c->a->config_var))
			return ltd_policy_warn(
				c->p, err,
				"%s: --setenv %s %s: it reads its "
				"configuration there, not the cage's generated "
				"one: the seam's settings and its sandbox off "
				"(%s) are yours to set there",
				c->a->name, p->env[i].key, p->env[i].val,
				c->a->sandbox ? c->a->sandbox : "");
	return 0;
}

static int apply_one(struct ltd_agent_ctx *c, bool active, struct ltd_err *err)
{
	const struct ltd_agent *a = c->a;
	int ret = 0;

	if (a->home && c->host_home)
		ret = a->home(c, err);
	if (ret || !active)
		return ret;
	if (!c->trusted && c->host_home)
		ret = copies(c, err);
	if (!ret && c->store[0])
		ret = state(c, err);
	for (const struct ltd_agent_var *v = a->vars; !ret && v->key; v++)
		ret = set_var(c, v, err);
	if (!ret && a->files)
		ret = a->files(c, err);
	if (!ret)
		ret = moved_config(c, err);
	if (!ret && a->sandbox)
		ret = ltd_policy_note(c->p, err,
				      "%s: its own sandbox is off in the cage "
				      "(%s): ltd-native is the wall",
				      a->name, a->sandbox);
	return ret;
}

int ltd_agents_apply(struct ltd_policy *p, struct ltd_err *err)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < ARRAY_SIZE(agents); i++) {
		const struct ltd_agent *a = &agents[i];
		bool active = runs(p, a);
		char why[64];
		struct ltd_agent_ctx c = {
			.p = p,
			.a = a,
			.home = p->id.home,
			.host_home = p->host_home,
			.url = p->cage_proxy_url,
			.trusted = p->tier == LTD_TIER_TRUSTED,
		};

		if (!active && !a->always)
			continue;
		snprintf(why, sizeof(why), "agent %s", a->name);
		c.why = ltd_policy_intern(p, why);
		if (!c.why)
			return ltd_err_set(err, ENOMEM, "out of memory");
		if (p->host_home && p->project)
			project_store(p, c.store, sizeof(c.store));
		ret = apply_one(&c, active, err);
	}
	return ret;
}
