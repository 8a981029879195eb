// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Claude Code's adapter (the row "claude", agents/adapters.c).
 *
 * The tier's part, for every command (the seeds' tiers): the strict tier
 * copies an allowlist of ~/.claude, settings.json with its credentials
 * taken out, and binds this project's transcripts; --trusted binds
 * ~/.claude live.  When Claude Code runs: managed settings at
 * /etc/claude-code/managed-settings.json (in the cage's root, sealed
 * read-only) carry the seam's URL and placeholder and turn its sandbox
 * off: Claude Code reads them above every settings file of the user's,
 * so nothing copied in can point it elsewhere.  The strict tier also gets
 * a ~/.claude.json of the onboarding and this project's trust only, in
 * the tmpfs home, where Claude Code's write-and-rename works.
 * docs/decisions/0122-seam-authority-managed-settings.md
 */
#include "agents/adapters.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "common/base.h"
#include "common/cleanup.h"
#include "common/path.h"
#include "policy/option.h"

#define MANAGED "/etc/claude-code/managed-settings.json"

/* The part of ~/.claude a strict run gets a disposable copy of (and
 * settings.json, filtered). */
static const char *const claude_copied[] = {
	"CLAUDE.md", "commands", "agents", "skills", "hooks",
};

/* Settings whose value is a command that prints a credential. */
static const char *const helpers[] = {"apiKeyHelper", "awsAuthRefresh",
				      "awsCredentialExport",
				      "otelHeadersHelper"};

/* What Claude Code reads besides the seam's token that would send a key
 * (x-api-key, an OAuth token, headers of the user's) or the requests
 * elsewhere (another provider): blanked in the managed settings when the
 * seam is on ("" is unset to it). */
static const char *const blanked[] = {
	"ANTHROPIC_API_KEY",	    "CLAUDE_CODE_OAUTH_TOKEN",
	"ANTHROPIC_CUSTOM_HEADERS", "CLAUDE_CODE_USE_BEDROCK",
	"CLAUDE_CODE_USE_VERTEX",   "CLAUDE_CODE_USE_FOUNDRY",
};

/* What of ~/.claude.json comes in: the onboarding, the look, and this
 * project's trust; never the login (oauthAccount), other projects, MCP
 * servers (their env holds tokens). */
static const char *const keep_top[] = {
	"theme",
	"hasCompletedOnboarding",
	"lastOnboardingVersion",
	"editorMode",
	"verbose",
	"preferredNotifChannel",
	"autoCompactEnabled",
	"bypassPermissionsModeAccepted",
	"hasSeenTasksHint",
	"hasUsedBackslashReturn",
	"shiftEnterKeyBindingInstalled",
};
static const char *const keep_project[] = {
	"hasTrustDialogAccepted",
	"hasCompletedProjectOnboarding",
	"projectOnboardingSeenCount",
	"allowedTools",
	"hasClaudeMdExternalIncludesApproved",
	"hasClaudeMdExternalIncludesWarningShown",
};

static bool listed(const char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

/* Take a settings object's credentials out: env's secret names and the
 * helpers that print one.  Their names go to @removed. */
static void scrub_settings(json_t *s, char *removed, size_t size)
{
	ltd_json_scrub(json_object_get(s, "env"), "env.", removed, size);
	for (size_t i = 0; i < ARRAY_SIZE(helpers); i++)
		if (json_object_get(s, helpers[i])) {
			ltd_names_add(removed, size, "", helpers[i]);
			json_object_del(s, helpers[i]);
		}
}

static int say_removed(struct ltd_agent_ctx *c, const char *file,
		       const char *removed, struct ltd_err *err)
{
	if (!removed[0])
		return 0;
	return ltd_policy_note(c->p, err,
			       "%s: left out of the cage's copy: %s (a model "
			       "key or token never enters the cage)",
			       file, removed);
}

/* ~/.claude/settings.json, copied with its credentials taken out. */
static int settings_copy(struct ltd_agent_ctx *c, const char *src,
			 const char *dst, struct ltd_err *err)
{
	char removed[1024] = "";
	struct stat st;
	bool bad;
	json_t *s = ltd_json_read(src, &bad);
	int ret;

	if (!s)
		return bad ? ltd_policy_warn(c->p, err,
					     "%s is not a JSON object (or is "
					     "a link): not copied",
					     src)
			   : 0;
	scrub_settings(s, removed, sizeof(removed));
	ret = ltd_json_file(
		c, dst, s, stat(src, &st) == 0 ? st.st_mode & 0777 : 0600, err);
	json_decref(s);
	return ret ? ret
		   : say_removed(c, "~/.claude/settings.json", removed, err);
}

/* A home so long that its tier's paths do not fit: refused, never cut. */
static int too_long(const char *home, struct ltd_err *err)
{
	return ltd_err_set(err, ENAMETOOLONG,
			   "the home directory '%s' is too long a path", home);
}

static int strict_home(struct ltd_agent_ctx *c, struct ltd_err *err)
{
	const char *H = c->host_home, *C = c->home, *P = c->p->project;
	char src[PATH_MAX], dst[PATH_MAX];
	struct stat st;
	int ret = 0;

	if (ltd_path_fmt(src, sizeof(src), "%s/.claude", H) < 0)
		return too_long(H, err);
	if (lstat(src, &st) == 0 && S_ISLNK(st.st_mode))
		return ltd_policy_warn(c->p, err,
				       "strict tier: '%s' is a symbolic link: "
				       "left out (links are never followed "
				       "out of the home)",
				       src);
	for (size_t i = 0; !ret && i < ARRAY_SIZE(claude_copied); i++) {
		if (ltd_path_fmt(src, sizeof(src), "%s/.claude/%s", H,
				 claude_copied[i]) < 0 ||
		    ltd_path_fmt(dst, sizeof(dst), "%s/.claude/%s", C,
				 claude_copied[i]) < 0)
			return too_long(H, err);
		if (lstat(src, &st) < 0)
			continue;
		if (S_ISLNK(st.st_mode))
			ret = ltd_policy_warn(c->p, err,
					      "strict tier: '%s' is a symbolic "
					      "link: left out (links are never "
					      "followed out of the home)",
					      src);
		else if (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))
			ret = ltd_policy_add_copy(c->p, src, dst, err);
	}
	if (!ret &&
	    (ltd_path_fmt(src, sizeof(src), "%s/.claude/settings.json", H) <
		     0 ||
	     ltd_path_fmt(dst, sizeof(dst), "%s/.claude/settings.json", C) < 0))
		return too_long(H, err);
	if (!ret)
		ret = settings_copy(c, src, dst, err);
	/*
	 * Transcripts: persistent, so --continue works in the next run; this
	 * project's only (Claude Code keeps them in projects/<the project's
	 * path with every other character than [A-Za-z0-9] a '-'>).  All of
	 * projects/ would hand the agent every other project's sessions to
	 * read and to plant turns, links or FIFOs in; history.jsonl holds
	 * every project's prompts, so it stays a fresh file in the cage.
	 * docs/decisions/0059-strict-transcripts-claude-settings.md
	 */
	if (!ret && P &&
	    (ltd_path_fmt(src, sizeof(src), "%s/.claude/projects/", H) < 0 ||
	     ltd_path_fmt(dst, sizeof(dst), "%s/.claude/projects/", C) < 0 ||
	     strlen(src) + strlen(P) >= sizeof(src) ||
	     strlen(dst) + strlen(P) >= sizeof(dst)))
		return too_long(H, err);
	if (!ret && P) {
		size_t s0 = strlen(src), d0 = strlen(dst);

		for (const char *ch = P; *ch; ch++) {
			char e = isalnum((unsigned char)*ch) ? *ch : '-';

			src[s0++] = e;
			dst[d0++] = e;
		}
		src[s0] = dst[d0] = '\0';
		ret = ltd_policy_add_derived(
			c->p, LTD_UM_BIND,
			"strict tier (this project's transcripts)", src, dst,
			LTD_STATE_DIR | LTD_STATE_CLAUDE_READS, 0, err);
	}
	return ret;
}

int ltd_claude_home(struct ltd_agent_ctx *c, struct ltd_err *err)
{
	char src[PATH_MAX], dst[PATH_MAX];

	if (!c->trusted)
		return strict_home(c, err);
	/* Live, credentials included: that is what trusted means. */
	if (ltd_path_fmt(src, sizeof(src), "%s/.claude", c->host_home) < 0 ||
	    ltd_path_fmt(dst, sizeof(dst), "%s/.claude", c->home) < 0)
		return too_long(c->host_home, err);
	return ltd_policy_add_derived(
		c->p, LTD_UM_BIND, "--trusted", src, dst, LTD_STATE_DIR,
		LTD_UNSAFE_BIND_CREDENTIALS | LTD_UNSAFE_BIND_STARTUP, err);
}

/* An object member of @o named @k, made when missing (or not one). */
static json_t *object_at(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	if (json_is_object(v))
		return v;
	v = json_object();
	json_object_set_new(o, k, v);
	return v;
}

/* The managed settings: the host's own (an administrator's policy) with
 * their credentials out, the seam's variables in, the sandbox off. */
static int managed(struct ltd_agent_ctx *c, struct ltd_err *err)
{
	char removed[1024] = "";
	bool bad;
	json_t *m = ltd_json_read(MANAGED, &bad);
	json_t *env;
	int ret;

	if (!m)
		m = json_object();
	if (!m)
		return ltd_err_set(err, ENOMEM, "out of memory");
	scrub_settings(m, removed, sizeof(removed));
	json_object_set_new(object_at(m, "sandbox"), "enabled", json_false());
	if (c->url) {
		env = object_at(m, "env");
		json_object_set_new(env, "ANTHROPIC_BASE_URL",
				    json_string(c->url));
		json_object_set_new(env, "ANTHROPIC_AUTH_TOKEN",
				    json_string(LTD_PLACEHOLDER_KEY));
		/* Blank above every settings file: a key of the user's
		 * (live under --trusted) would go out as x-api-key. */
		for (size_t i = 0; i < ARRAY_SIZE(blanked); i++)
			json_object_set_new(env, blanked[i], json_string(""));
		for (size_t i = 0; i < ARRAY_SIZE(helpers); i++)
			json_object_set_new(m, helpers[i], json_string(""));
		if (c->p->model) {
			json_object_set_new(env, "ANTHROPIC_MODEL",
					    json_string(c->p->model));
			json_object_set_new(env, "ANTHROPIC_SMALL_FAST_MODEL",
					    json_string(c->p->model));
		}
	}
	ret = ltd_json_file(c, MANAGED, m, 0644, err);
	json_decref(m);
	return ret ? ret : say_removed(c, MANAGED, removed, err);
}

/* A ~/.claude.json of the onboarding done, the look, and this project
 * trusted (the cage is the wall around what it runs), nothing else: from
 * the host's @src, what else it held that names a credential said in
 * @removed. */
static json_t *claude_json(struct ltd_agent_ctx *c, const char *src,
			   char *removed, size_t size, bool *bad)
{
	json_t *out = json_object(), *proj, *from, *v;
	json_t *host = ltd_json_read(src, bad);
	const char *k;

	if (!out) {
		json_decref(host);
		return NULL;
	}
	json_object_foreach(host, k, v)
	{
		if (listed(keep_top, ARRAY_SIZE(keep_top), k))
			json_object_set(out, k, v);
		else if (ltd_secret_name(k))
			ltd_names_add(removed, size, "", k);
	}
	proj = object_at(object_at(out, "projects"), c->p->project);
	from = json_object_get(json_object_get(host, "projects"),
			       c->p->project);
	json_object_foreach(from, k, v)
	{
		if (listed(keep_project, ARRAY_SIZE(keep_project), k))
			json_object_set(proj, k, v);
	}
	json_object_set_new(out, "hasCompletedOnboarding", json_true());
	json_object_set_new(proj, "hasTrustDialogAccepted", json_true());
	json_decref(host);
	return out;
}

/*
 * Where Claude Code's ~/.claude.json lives in the cage.  Strict: in the
 * tmpfs home, a new file each run (a rename over it works there).
 * --trusted: CLAUDE_CONFIG_DIR puts it inside the live ~/.claude (a
 * rename over a bound file fails, EBUSY); when it is not there yet it is
 * seeded on the host from ~/.claude.json, or Claude Code would onboard
 * again and, finding its backups there, say its configuration is lost.
 */
static int claude_json_place(struct ltd_agent_ctx *c, struct ltd_err *err)
{
	char src[PATH_MAX], dst[PATH_MAX], removed[1024] = "";
	_cleanup_free_ char *text = NULL;
	struct stat st;
	bool bad;
	json_t *out;
	int ret;

	if (ltd_path_fmt(src, sizeof(src), "%s/.claude.json", c->host_home) ||
	    ltd_path_fmt(dst, sizeof(dst), "%s/%s.claude.json",
			 c->trusted ? c->host_home : c->home,
			 c->trusted ? ".claude/" : ""))
		return ltd_err_set(err, ENAMETOOLONG, "~/.claude.json");
	if (c->trusted && lstat(dst, &st) == 0)
		return 0;
	out = claude_json(c, src, removed, sizeof(removed), &bad);
	if (!out)
		return ltd_err_set(err, ENOMEM, "out of memory");
	if (!c->trusted) {
		ret = ltd_json_file(c, dst, out, 0600, err);
	} else {
		text = json_dumps(out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		ret = text ? ltd_policy_add_seed(c->p, dst, text, strlen(text),
						 c->why, err)
			   : ltd_err_set(err, ENOMEM, "out of memory");
	}
	json_decref(out);
	if (!ret && bad)
		ret = ltd_policy_warn(c->p, err,
				      "%s is not a JSON object (or is a "
				      "link): the cage's is a fresh one",
				      src);
	return ret ? ret : say_removed(c, "~/.claude.json", removed, err);
}

/* What the user's settings say that the run should explain: a base URL
 * at the host's loopback without the seam (in the cage, that is the
 * cage's own loopback), and under --trusted the credentials and base URL
 * of the live settings that the managed settings override. */
static int explain(struct ltd_agent_ctx *c, struct ltd_err *err)
{
	char path[PATH_MAX], names[1024] = "", cage[512];
	json_t *s, *env, *url;
	uint16_t port;
	const char *k;
	json_t *v;
	bool bad;

	if (ltd_path_fmt(path, sizeof(path), "%s/.claude/settings.json",
			 c->host_home) < 0 ||
	    !(s = ltd_json_read(path, &bad)))
		return 0;
	env = json_object_get(s, "env");
	url = json_object_get(env, "ANTHROPIC_BASE_URL");
	if (!c->url && json_is_string(url) &&
	    ltd_proxy_url_parse(json_string_value(url), cage, sizeof(cage),
				&port) == 0 &&
	    strstr(json_string_value(url), "host.ltd.internal") == NULL) {
		int ret = ltd_policy_warn(
			c->p, err,
			"~/.claude/settings.json sets ANTHROPIC_BASE_URL to "
			"%s, "
			"this host's loopback: in the cage that is the cage's "
			"own, where nothing answers; give --proxy-url %s to "
			"reach it there",
			json_string_value(url), json_string_value(url));

		json_decref(s);
		return ret;
	}
	if (c->url && c->trusted) {
		json_object_foreach(env, k, v)
		{
			if (ltd_secret_name(k) ||
			    !strcmp(k, "ANTHROPIC_BASE_URL"))
				ltd_names_add(names, sizeof(names), "env.", k);
		}
		for (size_t i = 0; i < ARRAY_SIZE(helpers); i++)
			if (json_object_get(s, helpers[i]))
				ltd_names_add(names, sizeof(names), "",
					      helpers[i]);
	}
	json_decref(s);
	if (!names[0])
		return 0;
	return ltd_policy_note(c->p, err,
			       "--trusted: your live ~/.claude/settings.json "
			       "sets %s: the cage's managed settings override "
			       "them (the seam's URL and placeholder go out, "
			       "never your key); the file is left as it is",
			       names);
}

int ltd_claude_files(struct ltd_agent_ctx *c, struct ltd_err *err)
{
	int ret = managed(c, err);

	if (!ret && c->host_home)
		ret = claude_json_place(c, err);
	if (!ret && c->host_home)
		ret = explain(c, err);
	return ret;
}
