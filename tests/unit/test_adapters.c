// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The agents' adapters (agents/adapters.c) on a fake home: the files each
 * writes for the seam, what comes in of the user's config and what is
 * taken out (keys and tokens, by name), the state kept per project, the
 * variables; and the git identity (agents/gitident.c) as git would
 * resolve it for the project.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agents/adapters.h"
#include "policy/policy.h"
#include "tests/common/fixture.h"

static char dir[64];
static char home[128], proj[160];
static struct ltd_policy p;
static struct ltd_err err;

static void put(const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", home, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	(void)!system(cmd);
	f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

static void setup_policy(void)
{
	char *argv0;

	ltd_policy_init(&p);
	p.project = strdup(proj);
	p.host_home = strdup(home);
	p.id = (struct ltd_identity){.uid = 1000,
				     .gid = 1000,
				     .user = strdup("u"),
				     .group = strdup("u"),
				     .home = strdup(home),
				     .shell = strdup("/bin/sh")};
	p.argv = calloc(2, sizeof(char *));
	argv0 = strdup("claude");
	p.argv[0] = argv0;
}

static void setup(void)
{
	memset(&err, 0, sizeof(err));
	fx_tmpdir(dir, sizeof(dir), "adapters");
	snprintf(home, sizeof(home), "%s/home/u", dir);
	snprintf(proj, sizeof(proj), "%s/src/app", home);
	mkdir(home, 0755);
	put("src/app/.keep", "");
	setup_policy();
	unsetenv("GIT_CONFIG_GLOBAL");
	unsetenv("XDG_CONFIG_HOME");
}

static void teardown(void)
{
	ltd_policy_free(&p);
	fx_rm_rf(dir);
}

TestSuite(adapters, .init = setup, .fini = teardown);

static void command(const char *name)
{
	free(p.argv[0]);
	p.argv[0] = strdup(name);
}

static void seam(void)
{
	p.cage_proxy_url = strdup("http://host.ltd.internal:4000");
}

static const struct ltd_cage_file *file(const char *fmt, ...)
{
	char path[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < p.n_files; i++)
		if (!strcmp(p.files[i].dst, path))
			return &p.files[i];
	return NULL;
}

static json_t *json_of(const struct ltd_cage_file *f)
{
	json_t *j;

	cr_assert_not_null(f);
	j = json_loadb(f->content, f->len, 0, NULL);
	cr_assert_not_null(j, "%.*s", (int)f->len, f->content);
	return j;
}

static const char *env(const char *key)
{
	for (size_t i = 0; i < p.n_derived_env; i++)
		if (!strcmp(p.derived_env[i].key, key))
			return p.derived_env[i].val;
	return NULL;
}

static bool noted(const char *text)
{
	for (size_t i = 0; i < p.n_notes; i++)
		if (strstr(p.notes[i], text))
			return true;
	for (size_t i = 0; i < p.n_warnings; i++)
		if (strstr(p.warnings[i], text))
			return true;
	return false;
}

static bool bound_at(const char *dst)
{
	for (size_t i = 0; i < p.n_mounts; i++)
		if (!strcmp(p.mounts[i].dst, dst))
			return true;
	return false;
}

/* The seam wins: managed settings carry the URL and the placeholder, and
 * the sandbox is off; the user's settings.json comes in without its key,
 * and the run names what it took out (never the value). */
Test(adapters, claude_managed_settings_and_scrubbed_copy)
{
	json_t *m, *s;

	seam();
	put(".claude/settings.json",
	    "{\"env\": {\"ANTHROPIC_AUTH_TOKEN\": \"sk-REAL\", "
	    "\"ANTHROPIC_BASE_URL\": \"http://127.0.0.1:9\", \"FOO\": \"1\"},"
	    " \"apiKeyHelper\": \"/bin/echo sk-REAL\", \"model\": \"x\"}");
	cr_assert_eq(ltd_agents_apply(&p, &err), 0, "%s", err.msg);
	m = json_of(file("/etc/claude-code/managed-settings.json"));
	cr_assert_str_eq(
		json_string_value(json_object_get(json_object_get(m, "env"),
						  "ANTHROPIC_BASE_URL")),
		"http://host.ltd.internal:4000");
	cr_assert_str_eq(
		json_string_value(json_object_get(json_object_get(m, "env"),
						  "ANTHROPIC_AUTH_TOKEN")),
		LTD_PLACEHOLDER_KEY);
	cr_assert(json_is_false(
		json_object_get(json_object_get(m, "sandbox"), "enabled")));
	/* What would send a key or go elsewhere: blank, above the user's. */
	cr_assert_str_eq(
		json_string_value(json_object_get(json_object_get(m, "env"),
						  "ANTHROPIC_API_KEY")),
		"");
	cr_assert_str_eq(
		json_string_value(json_object_get(json_object_get(m, "env"),
						  "CLAUDE_CODE_USE_BEDROCK")),
		"");
	cr_assert_str_eq(json_string_value(json_object_get(m, "apiKeyHelper")),
			 "");
	cr_assert_eq(file("/etc/claude-code/managed-settings.json")->mode,
		     0644);
	s = json_of(file("%s/.claude/settings.json", home));
	cr_assert_null(json_object_get(json_object_get(s, "env"),
				       "ANTHROPIC_AUTH_TOKEN"));
	cr_assert_null(json_object_get(s, "apiKeyHelper"));
	cr_assert_not_null(json_object_get(json_object_get(s, "env"), "FOO"));
	cr_assert_not_null(json_object_get(s, "model"));
	cr_assert_null(strstr(file("%s/.claude/settings.json", home)->content,
			      "sk-REAL"));
	cr_assert(noted("env.ANTHROPIC_AUTH_TOKEN, apiKeyHelper"));
	for (size_t i = 0; i < p.n_notes; i++)
		cr_assert_null(strstr(p.notes[i], "sk-REAL"));
	cr_assert_str_eq(env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"), "1");
	cr_assert_str_eq(env("DISABLE_AUTOUPDATER"), "1");
	cr_assert(noted("claude: its own sandbox is off"));
	json_decref(m);
	json_decref(s);
}

/* Without the seam the key still stays out, and a base URL at the host's
 * loopback is explained (in the cage it is the cage's own). */
Test(adapters, claude_without_the_seam)
{
	json_t *m;

	put(".claude/settings.json",
	    "{\"env\": {\"ANTHROPIC_API_KEY\": \"sk-REAL\", "
	    "\"ANTHROPIC_BASE_URL\": \"http://127.0.0.1:4000\"}}");
	cr_assert_eq(ltd_agents_apply(&p, &err), 0, "%s", err.msg);
	cr_assert_null(strstr(file("%s/.claude/settings.json", home)->content,
			      "sk-REAL"));
	cr_assert(noted("ANTHROPIC_BASE_URL to http://127.0.0.1:4000"));
	cr_assert(noted("--proxy-url http://127.0.0.1:4000"));
	cr_assert_null(env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"));
	m = json_of(file("/etc/claude-code/managed-settings.json"));
	cr_assert_null(json_object_get(m, "env"), "no seam, no seam variables");
	json_decref(m);
}

/* ~/.claude.json: onboarding and this project's trust, nothing else: no
 * login, no other project, no MCP server (their env holds tokens). */
Test(adapters, claude_json_filtered)
{
	char text[2048];
	json_t *j, *projects;

	snprintf(text, sizeof(text),
		 "{\"theme\": \"light\", \"numStartups\": 4, "
		 "\"oauthAccount\": {\"emailAddress\": \"a@b\"}, "
		 "\"primaryApiKey\": \"sk-REAL\", "
		 "\"mcpServers\": {\"x\": {\"env\": {\"T\": \"sk-REAL\"}}}, "
		 "\"projects\": {\"%s\": {\"allowedTools\": [\"Bash\"], "
		 "\"mcpServers\": {\"y\": {}}}, \"/other\": {\"x\": 1}}}",
		 proj);
	put(".claude.json", text);
	cr_assert_eq(ltd_agents_apply(&p, &err), 0, "%s", err.msg);
	j = json_of(file("%s/.claude.json", home));
	cr_assert_str_eq(json_string_value(json_object_get(j, "theme")),
			 "light");
	cr_assert(json_is_true(json_object_get(j, "hasCompletedOnboarding")));
	cr_assert_null(json_object_get(j, "oauthAccount"));
	cr_assert_null(json_object_get(j, "mcpServers"));
	projects = json_object_get(j, "projects");
	cr_assert_eq(json_object_size(projects), 1);
	cr_assert(json_is_true(json_object_get(json_object_get(projects, proj),
					       "hasTrustDialogAccepted")));
	cr_assert_not_null(json_object_get(json_object_get(projects, proj),
					   "allowedTools"));
	cr_assert_null(
		json_object_get(json_object_get(projects, proj), "mcpServers"));
	cr_assert_null(strstr(file("%s/.claude.json", home)->content, "sk-"));
	cr_assert(noted("oauthAccount, primaryApiKey"));
	cr_assert_eq(file("%s/.claude.json", home)->mode, 0600);
	json_decref(j);
}

static const struct ltd_cage_file *seed(const char *fmt, ...)
{
	char path[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < p.n_seeds; i++)
		if (!strcmp(p.seeds[i].dst, path))
			return &p.seeds[i];
	return NULL;
}

/* --trusted: ~/.claude live, its .claude.json inside it (CLAUDE_CONFIG_DIR),
 * seeded on the host from ~/.claude.json's onboarding and this project's
 * trust when missing; the live settings' credentials are overridden by
 * the managed settings, and named. */
Test(adapters, claude_trusted)
{
	char live[256], text[512];
	json_t *j;

	seam();
	p.tier = LTD_TIER_TRUSTED;
	put(".claude/settings.json",
	    "{\"env\": {\"ANTHROPIC_API_KEY\": \"sk-REAL\", "
	    "\"ANTHROPIC_AUTH_TOKEN\": \"sk-REAL\"}}");
	snprintf(text, sizeof(text),
		 "{\"theme\": \"dark\", \"oauthAccount\": {\"a\": 1}, "
		 "\"projects\": {\"/other\": {}}}");
	put(".claude.json", text);
	cr_assert_eq(ltd_agents_apply(&p, &err), 0, "%s", err.msg);
	cr_assert_null(file("%s/.claude.json", home), "the live one");
	cr_assert_null(file("%s/.claude/settings.json", home));
	snprintf(live, sizeof(live), "%s/.claude", home);
	cr_assert(bound_at(live));
	cr_assert_str_eq(env("CLAUDE_CONFIG_DIR"), live);
	j = json_loadb(seed("%s/.claude/.claude.json", home)->content,
		       seed("%s/.claude/.claude.json", home)->len, 0, NULL);
	cr_assert_not_null(j);
	cr_assert_str_eq(json_string_value(json_object_get(j, "theme")),
			 "dark");
	cr_assert_null(json_object_get(j, "oauthAccount"));
	cr_assert_eq(json_object_size(json_object_get(j, "projects")), 1);
	cr_assert(json_is_true(json_object_get(
		json_object_get(json_object_get(j, "projects"), proj),
		"hasTrustDialogAccepted")));
	json_decref(j);
	cr_assert(noted("sets env.ANTHROPIC_API_KEY, env.ANTHROPIC_AUTH_TOKEN: "
			"the cage's managed settings override them"));
	for (size_t i = 0; i < p.n_notes; i++)
		cr_assert_null(strstr(p.notes[i], "sk-REAL"));
}

/* --trusted, ~/.claude/.claude.json there already: it is Claude Code's,
 * never written again. */
Test(adapters, claude_trusted_config_kept)
{
	p.tier = LTD_TIER_TRUSTED;
	put(".claude/.claude.json", "{\"theme\": \"light\"}");
	cr_assert_eq(ltd_agents_apply(&p, &err), 0, "%s", err.msg);
	cr_assert_eq(p.n_seeds, 0);
}

/* Codex: a provider at the seam whose key is the placeholder, its
 * sandbox off, no updater, no analytics, no daemon; sessions per project
 * in ltd-native's store; auth.json never. */
Test(adapters, codex_config_and_sessions)
{
	const struct ltd_cage_file *f;
	char sessions[256];

	command("codex");
	seam();
	p.model = strdup("mock-model");
	put(".codex/auth.json", "{\"OPENAI_API_KEY\": \"sk-REAL\"}");
	put(".codex/AGENTS.md", "be brief");
	cr_assert_eq(ltd_agents_apply(&p, &err), 0, "%s", err.msg);
	f = file("/etc/codex/managed_config.toml");
	cr_assert_not_null(f);
	cr_assert_eq(f->mode, 0644);
	cr_assert_not_null(file("%s/.codex/config.toml", home));
	cr_assert_str_eq(file("%s/.codex/config.toml", home)->content,
			 f->content, "the same, for a Codex without the layer");
	cr_assert(strstr(f->content, "model_provider = \"ltd\"\n"));
	cr_assert(strstr(f->content, "model = \"mock-model\"\n"));
	cr_assert(strstr(f->content, "base_url = "
				     "\"http://host.ltd.internal:4000/v1\"\n"));
	cr_assert(strstr(f->content, "env_key = \"OPENAI_API_KEY\"\n"));
	cr_assert(strstr(f->content, "wire_api = \"responses\"\n"));
	cr_assert(strstr(f->content, "sandbox_mode = \"danger-full-access\""));
	cr_assert(strstr(f->content, "check_for_update_on_startup = false"));
	cr_assert(strstr(f->content, "daemon_auto_start = false"));
	cr_assert(strstr(f->content, "[analytics]\nenabled = false"));
	cr_assert(strstr(f->content, proj));
	snprintf(sessions, sizeof(sessions), "%s/.codex/sessions", home);
	cr_assert(bound_at(sessions));
	for (size_t i = 0; i < p.n_mounts; i++)
		if (!strcmp(p.mounts[i].dst, sessions)) {
			cr_assert(strstr(p.mounts[i].src,
					 "/.local/state/ltd-native/projects/"
					 "app-"));
			cr_assert_eq(p.mounts[i].state, LTD_STATE_DIR);
		}
	for (size_t i = 0; i < p.n_copies; i++)
		cr_assert_null(strstr(p.copies[i].src, "auth.json"));
	cr_assert_eq(p.n_copies, 1, "AGENTS.md");
}

/* A TOML string stays one string, whatever the path holds. */
Test(adapters, codex_project_path_quoted)
{
	const struct ltd_cage_file *f;

	command("codex");
	free(p.project);
	p.project = strdup("/tmp/a\"b\\c\n]x");
	cr_assert_eq(ltd_agents_apply(&p, &err), 0, "%s", err.msg);
	f = file("%s/.codex/config.toml", home);
	cr_assert(
		strstr(f->content, "[projects.\"/tmp/a\\\"b\\\\c\\u000a]x\"]"),
		"%s", f->content);
	cr_assert_null(strstr(f->content, "model_provider"), "no seam");
}

/* Gemini: base URL and key variables, the API-key auth chosen, the
 * folder trusted, its sandbox and telemetry off; its chats per project. */
Test(adapters, gemini_settings)
{
	json_t *s, *t;
	char tmp[256];

	command("gemini");
	seam();
	cr_assert_eq(ltd_agents_apply(&p, &err), 0, "%s", err.msg);
	cr_assert_str_eq(env("GOOGLE_GEMINI_BASE_URL"),
			 "http://host.ltd.internal:4000");
	cr_assert_str_eq(env("GEMINI_API_KEY"), LTD_PLACEHOLDER_KEY);
	cr_assert_str_eq(env("GEMINI_CLI_NO_RELAUNCH"), "true");
	s = json_of(file("%s/.gemini/settings.json", home));
	cr_assert_str_eq(
		json_string_value(json_object_get(
			json_object_get(json_object_get(s, "security"), "auth"),
			"selectedType")),
		"gemini-api-key");
	cr_assert(json_is_false(
		json_object_get(json_object_get(s, "tools"), "sandbox")));
	t = json_of(file("%s/.gemini/trustedFolders.json", home));
	cr_assert_str_eq(json_string_value(json_object_get(t, proj)),
			 "TRUST_FOLDER");
	snprintf(tmp, sizeof(tmp), "%s/.gemini/tmp", home);
	cr_assert(bound_at(tmp));
	json_decref(s);
	json_decref(t);
}

/* An agent named by --agent gets its adapter; one that does not run gets
 * nothing (but Claude Code's tier part). */
Test(adapters, only_the_agents_that_run)
{
	command("sh");
	cr_assert_eq(ltd_agents_apply(&p, &err), 0, "%s", err.msg);
	cr_assert_null(file("%s/.codex/config.toml", home));
	cr_assert_null(file("/etc/claude-code/managed-settings.json"));
	p.agents = calloc(1, sizeof(char *));
	p.agents[0] = strdup("codex");
	p.n_agents = 1;
	cr_assert_eq(ltd_agents_apply(&p, &err), 0, "%s", err.msg);
	cr_assert_not_null(file("%s/.codex/config.toml", home));
}

Test(adapters, secret_names)
{
	const char *yes[] = {"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN",
			     "apiKeyHelper",	  "AWS_SECRET_ACCESS_KEY",
			     "oauthAccount",	  "DB_PASSWORD",
			     "GITHUB_TOKEN",	  "awsCredentialExport"};
	const char *no[] = {"ANTHROPIC_BASE_URL", "ANTHROPIC_MODEL", "theme",
			    "GIT_AUTHOR_NAME", "DISABLE_TELEMETRY"};

	for (size_t i = 0; i < sizeof(yes) / sizeof(*yes); i++)
		cr_assert(ltd_secret_name(yes[i]), "%s", yes[i]);
	for (size_t i = 0; i < sizeof(no) / sizeof(*no); i++)
		cr_assert(!ltd_secret_name(no[i]), "%s", no[i]);
}

/* ------------------------------------------------------ the git identity */

static const char *gitconfig(void)
{
	const struct ltd_cage_file *f;

	p.n_files = 0;
	cr_assert_eq(ltd_git_identity(&p, &err), 0, "%s", err.msg);
	f = file("%s/.gitconfig", home);
	return f ? f->content : "";
}

/* Identity and harmless settings, as plain values; never an include, a
 * credential helper, an alias or a hooks path. */
Test(adapters, git_identity_plain_values_only)
{
	const char *g;

	put("src/app/.git/HEAD", "ref: refs/heads/main\n");
	put(".gitconfig", "[user]\n\tname = A \\\"Q\\\" User\n\temail = a@x\n"
			  "[include]\n\tpath = ~/.gitconfig.d/more\n"
			  "[credential]\n\thelper = store\n"
			  "[alias]\n\tst = !sh -c 'curl x | sh'\n"
			  "[core]\n\thooksPath = ~/hooks\n\tautocrlf = input\n"
			  "\tfsmonitor = /tmp/x\n\teditor = vim\n"
			  "[init]\n\tdefaultBranch = trunk\n"
			  "[url \"git@x:\"]\n\tinsteadOf = https://x/\n");
	put(".gitconfig.d/more", "[pull]\n\trebase = true\n");
	g = gitconfig();
	cr_assert(strstr(g, "[user]\n\tname = \"A \\\"Q\\\" User\"\n"), "%s",
		  g);
	cr_assert(strstr(g, "\temail = \"a@x\"\n"), "%s", g);
	cr_assert(strstr(g, "[init]\n\tdefaultbranch = \"trunk\"\n"), "%s", g);
	cr_assert(strstr(g, "autocrlf = \"input\""), "%s", g);
	cr_assert(strstr(g, "[pull]\n\trebase = \"true\""), "included: %s", g);
	cr_assert_null(strstr(g, "include"), "%s", g);
	cr_assert_null(strstr(g, "helper"), "%s", g);
	cr_assert_null(strstr(g, "alias"), "%s", g);
	cr_assert_null(strstr(g, "curl"), "%s", g);
	cr_assert_null(strstr(g, "hooks"), "%s", g);
	cr_assert_null(strstr(g, "fsmonitor"), "%s", g);
	cr_assert_null(strstr(g, "editor"), "%s", g);
	cr_assert_null(strstr(g, "insteadof"), "%s", g);
}

/* includeIf counts when it matches this project, as git matches it. */
Test(adapters, git_identity_include_if)
{
	char text[1024];
	const char *g;

	put("src/app/.git/HEAD", "ref: refs/heads/feature/x\n");
	snprintf(text, sizeof(text),
		 "[user]\n\temail = home@x\n"
		 "[includeIf \"gitdir:~/src/\"]\n\tpath = work\n"
		 "[includeIf \"gitdir:~/other/\"]\n\tpath = other\n"
		 "[includeIf \"gitdir/i:%s/SRC/APP/.GIT\"]\n\tpath = ci\n"
		 "[includeIf \"onbranch:feature/\"]\n\tpath = branch\n"
		 "[includeIf \"gitdir:app/.git\"]\n\tpath = rel\n",
		 home);
	put(".gitconfig", text);
	put("work", "[user]\n\temail = work@x\n");
	put("other", "[user]\n\tname = Other\n");
	put("ci", "[core]\n\teol = lf\n");
	put("branch", "[pull]\n\tff = only\n");
	put("rel", "[merge]\n\tconflictstyle = diff3\n");
	g = gitconfig();
	cr_assert(strstr(g, "email = \"work@x\""), "%s", g);
	cr_assert_null(strstr(g, "Other"), "%s", g);
	cr_assert(strstr(g, "eol = \"lf\""), "gitdir/i: %s", g);
	cr_assert(strstr(g, "ff = \"only\""), "onbranch: %s", g);
	cr_assert(strstr(g, "conflictstyle = \"diff3\""), "**/ prefix: %s", g);
}

/* Signing only where the key is reachable: SSH with the agent. */
Test(adapters, git_identity_signing)
{
	const char *g;

	put("src/app/.git/HEAD", "ref: refs/heads/main\n");
	put(".ssh/id_ed25519.pub", "ssh-ed25519 AAAAC3Nz test@x\n");
	put(".gitconfig",
	    "[user]\n\tname = U\n\tsigningkey = ~/.ssh/id_ed25519\n"
	    "[gpg]\n\tformat = ssh\n[commit]\n\tgpgsign = true\n");
	g = gitconfig();
	cr_assert_null(strstr(g, "gpgsign"), "no agent: %s", g);
	cr_assert_null(strstr(g, "signingkey"), "%s", g);
	p.ssh_agent = true;
	g = gitconfig();
	cr_assert(strstr(g, "gpgsign = \"true\""), "%s", g);
	cr_assert(
		strstr(g, "signingkey = \"key::ssh-ed25519 AAAAC3Nz test@x\""),
		"%s", g);
	put(".gitconfig", "[user]\n\tname = U\n\tsigningkey = ABCD\n"
			  "[commit]\n\tgpgsign = true\n");
	g = gitconfig();
	cr_assert_null(strstr(g, "gpgsign"), "GnuPG: not in the cage: %s", g);
}

/* Wildmatch as git's: '*' stops at '/', '**' does not. */
Test(adapters, git_identity_gitdir_star)
{
	const char *g;

	put("src/app/.git/HEAD", "ref: refs/heads/main\n");
	put(".gitconfig", "[includeIf \"gitdir:~/*/.git\"]\n\tpath = one\n"
			  "[includeIf \"gitdir:~/**/.git\"]\n\tpath = two\n");
	put("one", "[user]\n\tname = One\n");
	put("two", "[user]\n\temail = two@x\n");
	g = gitconfig();
	cr_assert_null(strstr(g, "One"), "%s", g);
	cr_assert(strstr(g, "two@x"), "%s", g);
}

/* The user moved Gemini's config (--setenv GEMINI_CLI_HOME): said, since
 * the generated one (the seam, its sandbox off) is then not read.  Codex's
 * managed config holds wherever CODEX_HOME is: nothing to say. */
Test(adapters, moved_config_is_said)
{
	command("gemini");
	p.env = calloc(1, sizeof(*p.env));
	p.env[0] = (struct ltd_env_op){strdup("GEMINI_CLI_HOME"),
				       strdup("/home/u/.config/ltd-auth/g")};
	p.n_env = 1;
	cr_assert_eq(ltd_agents_apply(&p, &err), 0, "%s", err.msg);
	cr_assert(noted("--setenv GEMINI_CLI_HOME /home/u/.config/ltd-auth/g"));
	ltd_policy_free(&p);
	setup_policy();
	command("codex");
	p.env = calloc(1, sizeof(*p.env));
	p.env[0] = (struct ltd_env_op){strdup("CODEX_HOME"),
				       strdup("/home/u/.config/ltd-auth/c")};
	p.n_env = 1;
	cr_assert_eq(ltd_agents_apply(&p, &err), 0, "%s", err.msg);
	cr_assert(!noted("CODEX_HOME"));
	cr_assert_not_null(file("/etc/codex/managed_config.toml"));
}
