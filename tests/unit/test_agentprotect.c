// SPDX-License-Identifier: GPL-2.0-or-later
/* The project files that Claude Code on the host runs by itself: the
 * settings and .mcp.json read for them (a project in a temporary dir); the
 * words of their command lines are test_shword.c's. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy/policy.h"
#include "protect/agentprotect.h"
#include "tests/common/fixture.h"

/* --- from the files ---------------------------------------------------- */

static char dir[40];
static struct ltd_policy p;
static struct ltd_protected prot;
static struct ltd_err err;

static void put(const char *rel, const char *text)
{
	fx_put(dir, rel, text);
}

static void mkd(const char *rel)
{
	fx_mkdir(dir, rel, 0755);
}

static bool protects(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (size_t i = 0; i < prot.n; i++)
		if (!strcmp(prot.paths[i], path))
			return true;
	return false;
}

static void files_setup(void)
{
	fx_tmpdir(dir, sizeof(dir), "agentprotect");
	ltd_policy_init(&p);
	p.project = strdup(dir);
	mkd(".claude");
}

static void files_fini(void)
{
	ltd_policy_free(&p);
	ltd_protected_free(&prot);
	fx_rm_rf(dir);
}

TestSuite(agentfiles, .init = files_setup, .fini = files_fini);

Test(agentfiles, hooks_status_line_helpers_and_mcp_servers)
{
	mkd("scripts");
	mkd("tools");
	put("scripts/fmt.sh", "#!/bin/sh\n");
	put("tools/key.sh", "#!/bin/sh\n");
	put("server.js", "\n");
	put(".claude/settings.json",
	    "{\"hooks\": {\"PostToolUse\": [{\"matcher\": \"Edit\", "
	    "\"hooks\": [{\"type\": \"command\", \"command\": "
	    "\"\\\"$CLAUDE_PROJECT_DIR\\\"/scripts/fmt.sh\"}]}]},"
	    " \"statusLine\": {\"type\": \"command\", \"command\": "
	    "\"./scripts/status.sh\"}}");
	put(".claude/settings.local.json",
	    "{\"apiKeyHelper\": \"tools/key.sh\"}");
	put(".mcp.json", "{\"mcpServers\": {\"s\": {\"command\": \"node\", "
			 "\"args\": [\"server.js\", \"--port\", \"1\"]}}}");
	cr_assert_eq(ltd_agentprotect_project(&p, &prot, &err), 0, "%s",
		     err.msg);
	cr_assert(protects("scripts/fmt.sh"), "a hook's script");
	cr_assert(protects("scripts/status.sh"),
		  "the status line's, not there yet (reported if made)");
	cr_assert(protects("tools/key.sh"), "apiKeyHelper");
	cr_assert(protects("server.js"), "an MCP server's argument");
	cr_assert(!protects("node"), "a bare word that is no file");
	cr_assert(!protects("--port"));
}

static bool warned(const char *what)
{
	for (size_t i = 0; i < prot.n_warnings; i++)
		if (strstr(prot.warnings[i], what))
			return true;
	return false;
}

Test(agentfiles, the_hooks_directory_and_a_link_on_the_way_refused)
{
	mkd(".claude/hooks");
	mkd("real");
	put("real/x.sh", "\n");
	cr_assert_eq(
		symlink("real", strcat(strcpy((char[512]){0}, dir), "/linked")),
		0);
	put(".claude/settings.json",
	    "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", "
	    "\"command\": \"linked/x.sh; $TOOL/run.sh\"}]}]}}");
	cr_assert_eq(ltd_agentprotect_project(&p, &prot, &err), -ELOOP,
		     "the cage could re-point the link: %s", err.msg);
	cr_assert(strstr(err.msg, "through the link") &&
			  strstr(err.msg, "/linked") &&
			  strstr(err.msg, "real path"),
		  "%s", err.msg);
	put(".claude/settings.json",
	    "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", "
	    "\"command\": \"real/x.sh; $TOOL/run.sh\"}]}]}}");
	cr_assert_eq(ltd_agentprotect_project(&p, &prot, &err), 0, "%s",
		     err.msg);
	cr_assert(protects(".claude/hooks") && protects(".claude/agents") &&
			  protects(".claude/skills"),
		  "hooks, and what carries hooks of its own");
	cr_assert(protects("real/x.sh"));
	cr_assert(warned("$TOOL/run.sh") && warned("cannot resolve"),
		  "an unknowable path is said");
}

/* Every place Claude Code runs code from without asking, as its own
 * sandbox keeps its agent from writing: slash commands (their !`...`
 * shell lines run when typed), workflows, routines, the preview servers'
 * launch.json, the scheduled tasks. */
Test(agentfiles, what_claude_code_runs_without_asking_is_protected)
{
	static const char *const places[] = {
		".claude/hooks",       ".claude/agents",
		".claude/skills",      ".claude/commands",
		".claude/workflows",   ".claude/routines",
		".claude/launch.json", ".claude/scheduled_tasks.json",
	};

	cr_assert_eq(ltd_agentprotect_project(&p, &prot, &err), 0, "%s",
		     err.msg);
	for (size_t i = 0; i < sizeof(places) / sizeof(places[0]); i++)
		cr_assert(protects(places[i]), "%s", places[i]);
	cr_assert_str_eq(
		ltd_agentprotect_find(".claude/commands/t.md")->program,
		"Claude Code");
	cr_assert_null(ltd_agentprotect_find(".claude/commandsx"));
	cr_assert_null(ltd_agentprotect_find("CLAUDE.md"),
		       "instructions are the project's, as its README");
}

/* The attack: the command writes a slash command whose !`...` line runs
 * a shell when the user types it in Claude Code on the host, in a project
 * with no .claude/commands (nothing to bind read-only).  At exit it is
 * moved aside, with a warning that names Claude Code and what it runs. */
Test(agentfiles, a_slash_command_the_command_made_is_moved_aside)
{
	struct ltd_protected_id *before, *after;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	cr_assert_eq(ltd_agentprotect_project(&p, &prot, &err), 0, "%s",
		     err.msg);
	before = ltd_protected_ids(&prot);
	cr_assert_not_null(before);
	mkd(".claude/commands");
	put(".claude/commands/test.md",
	    "---\nallowed-tools: Bash(sh:*)\n---\n!`sh -c id`\n");
	mkd(".claude/skills");
	after = ltd_protected_ids(&prot);
	cr_assert_not_null(after);
	out = open_memstream(&text, &len);
	ltd_protected_quarantine(out, &prot, before, after);
	fclose(out);
	cr_assert_not(fx_exists(dir, ".claude/commands"));
	cr_assert(fx_exists(dir,
			    ".claude/commands.ltd-native-quarantine/test.md"));
	cr_assert_not(fx_exists(dir, ".claude/skills"));
	cr_assert_not_null(strstr(text, "which Claude Code on the host runs "
					"from (slash commands"),
			   "%s", text);
	free(text);
	free(before);
	free(after);
}

Test(agentfiles, directories_named_and_outputs_stay_writable)
{
	mkd("src");
	put("src/app.js", "\n");
	put(".claude/settings.json",
	    "{\"hooks\": {\"PostToolUse\": [{\"hooks\": [{\"type\": "
	    "\"command\", \"command\": \"npx prettier --write src/ >> "
	    ".claude/hook.log\"}]}]}}");
	cr_assert_eq(ltd_agentprotect_project(&p, &prot, &err), 0, "%s",
		     err.msg);
	cr_assert(!protects("src") && !protects(".claude/hook.log"),
		  "the agent works there");
	cr_assert_eq(prot.n_warnings, 0);
}

Test(agentfiles, the_environment_the_settings_give)
{
	mkd("bin");
	mkd("scripts");
	put("scripts/env.sh", "\n");
	put("scripts/pre.js", "\n");
	put(".claude/settings.json",
	    "{\"env\": {\"BASH_ENV\": \"scripts/env.sh\", \"NODE_OPTIONS\": "
	    "\"--require ./scripts/pre.js\", \"PATH\": \"./bin:/usr/bin\", "
	    "\"OUT\": \"build\"}}");
	cr_assert_eq(ltd_agentprotect_project(&p, &prot, &err), 0, "%s",
		     err.msg);
	cr_assert(protects("scripts/env.sh"), "BASH_ENV");
	cr_assert(protects("scripts/pre.js"), "NODE_OPTIONS");
	cr_assert(protects("bin"), "a directory on PATH");
}

/* A bare name on PATH (`bin`) is a directory of the project, missing or
 * not: it was read as a command word (`npx`), and a missing one was not
 * protected at all, so the cage could make it (decision 0166). */
Test(agentfiles, a_bare_name_on_path_is_a_directory)
{
	mkd("tools");
	put(".claude/settings.json",
	    "{\"env\": {\"PATH\": \"bin\", \"NODE_PATH\": \"tools:lib\"}}");
	cr_assert_eq(ltd_agentprotect_project(&p, &prot, &err), 0, "%s",
		     err.msg);
	cr_assert(protects("bin"), "a missing directory on PATH");
	cr_assert(protects("tools"), "one of NODE_PATH's");
	cr_assert(protects("lib"), "a missing one of NODE_PATH's");
}

Test(agentfiles, json_as_claude_code_reads_it)
{
	mkd("scripts");
	put("scripts/x.sh", "\n");
	/* Node's JSON.parse takes a NUL escape and a huge integer. */
	put(".claude/settings.json",
	    "{\"n\": 123456789012345678901234567890, \"s\": \"a\\u0000b\", "
	    "\"statusLine\": {\"command\": \"./scripts/x.sh\"}}");
	cr_assert_eq(ltd_agentprotect_project(&p, &prot, &err), 0, "%s",
		     err.msg);
	cr_assert(protects("scripts/x.sh"));
}

Test(agentfiles, settings_text_read_as_a_file_is)
{
	static const char text[] = "{\"statusLine\": {\"command\": "
				   "\"./scripts/y.sh\"}}";

	/* ltd_agentprotect_settings: the same reading from a buffer (the fuzz
	 * target's way in), errors naming the file given. */
	cr_assert_eq(ltd_agentprotect_settings(&p, &prot, "a.json", text,
					       sizeof(text) - 1, &err),
		     0, "%s", err.msg);
	cr_assert(protects("scripts/y.sh"));
	cr_assert_eq(
		ltd_agentprotect_settings(&p, &prot, "a.json", "{x", 2, &err),
		-EINVAL);
	cr_assert(strstr(err.msg, "a.json:1"), "%s", err.msg);
}

Test(agentfiles, unreadable_settings_refuse_the_run)
{
	put(".claude/settings.json", "{not json");
	cr_assert_eq(ltd_agentprotect_project(&p, &prot, &err), -EINVAL);
	cr_assert(strstr(err.msg, ".claude/settings.json:1") &&
			  strstr(err.msg, "cannot tell"),
		  "%s", err.msg);
	put(".claude/settings.json", "{\"s\": \"\\ud800\"}");
	cr_assert_eq(ltd_agentprotect_project(&p, &prot, &err), -EINVAL,
		     "a lone surrogate: %s", err.msg);
	put(".claude/settings.json", "{}");
	cr_assert_eq(
		mkfifo(strcat(strcpy((char[512]){0}, dir), "/.mcp.json"), 0600),
		0);
	cr_assert_eq(ltd_agentprotect_project(&p, &prot, &err), -EINVAL);
	cr_assert(strstr(err.msg, ".mcp.json") &&
			  strstr(err.msg, "not a regular file"),
		  "%s", err.msg);
}

Test(agentfiles, too_many_files_refuse_the_run)
{
	char cmd[300 * 10 + 64] = "\"";

	mkd("s");
	for (int i = 0; i < 300; i++) {
		char rel[16];

		snprintf(rel, sizeof(rel), "s/%03d", i);
		put(rel, "\n");
		strcat(cmd, rel);
		strcat(cmd, " ");
	}
	strcat(cmd, "\"");
	{
		char json[sizeof(cmd) + 64];

		snprintf(json, sizeof(json),
			 "{\"statusLine\": {\"command\": %s}}", cmd);
		put(".claude/settings.json", json);
	}
	cr_assert_eq(ltd_agentprotect_project(&p, &prot, &err), -E2BIG);
	cr_assert(strstr(err.msg, "more than 256"), "%s", err.msg);
}

/* A script named by a bare word that is not there yet (`bash stop.sh`):
 * watched by its text, so the cage making it is said at exit; a bare word
 * with no script's name (`npx`, `jq`) is no place. */
Test(agentfiles, a_missing_script_named_by_a_bare_word_is_watched)
{
	put(".claude/settings.json",
	    "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", "
	    "\"command\": \"bash stop-hook.sh && python3 after.py | jq "
	    ".x\"}]}]},"
	    " \"statusLine\": {\"type\": \"command\", \"command\": "
	    "\"node status.mjs\"}}");
	cr_assert_eq(ltd_agentprotect_project(&p, &prot, &err), 0, "%s",
		     err.msg);
	cr_assert(protects("stop-hook.sh"), "bash's script");
	cr_assert(protects("after.py"), "python's script");
	cr_assert(protects("status.mjs"), "node's script");
	cr_assert(!protects("jq"), "a program's name");
	cr_assert(!protects(".x"), "an argument that is no script");
}

/* A hook that runs every file a pattern matches: the directory they lie
 * in is protected (a file the cage adds there would run too); at the
 * project's top, where it cannot be, the run says so. */
Test(agentfiles, a_pattern_protects_the_directory_its_matches_lie_in)
{
	mkd("tools");
	mkd("tools/hooks");
	put("tools/hooks/a.sh", "#!/bin/sh\n");
	put("top.sh", "#!/bin/sh\n");
	put(".claude/settings.json",
	    "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", "
	    "\"command\": \"for f in $CLAUDE_PROJECT_DIR/tools/hooks/*.sh; "
	    "do bash $f; done; for g in $CLAUDE_PROJECT_DIR/*.sh; do sh $g; "
	    "done\"}]}]}}");
	cr_assert_eq(ltd_agentprotect_project(&p, &prot, &err), 0, "%s",
		     err.msg);
	cr_assert(protects("tools/hooks"), "the directory of the matches");
	cr_assert(protects("top.sh"), "a match at the top, as before");
	cr_assert(warned("*.sh"), "new matches at the top are said");
}

/* A ".*" component matches "." and "..": a match out of the project is
 * none of its places (the fuzzer found PROJECT/../x among them); one
 * through "." is the place itself. */
Test(agentfiles, a_pattern_through_dot_dot_names_nothing_outside)
{
	char out[600], parent[512];
	size_t n = strlen(dir);
	FILE *f;

	snprintf(parent, sizeof(parent), "%s", dir);
	*strrchr(parent, '/') = '\0';
	snprintf(out, sizeof(out), "%s/ltd-unit-outside-%d.sh", parent,
		 (int)getpid());
	cr_assert_not_null(f = fopen(out, "w"));
	fputs("#!/bin/sh\n", f);
	fclose(f);
	put("top.sh", "#!/bin/sh\n");
	put(".claude/settings.json",
	    "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", "
	    "\"command\": \"sh $CLAUDE_PROJECT_DIR/.*/ltd-unit-outside-*.sh; "
	    "sh $CLAUDE_PROJECT_DIR/.*/top.sh\"}]}]}}");
	cr_assert_eq(ltd_agentprotect_project(&p, &prot, &err), 0, "%s",
		     err.msg);
	unlink(out);
	for (size_t i = 0; i < prot.n; i++)
		cr_assert(!strncmp(prot.paths[i], dir, n) &&
				  prot.paths[i][n] == '/' &&
				  !strstr(prot.paths[i], "/../") &&
				  !strstr(prot.paths[i], "/./"),
			  "%s", prot.paths[i]);
	cr_assert(protects("top.sh"), "the match through \".\"");
}

/* A match through a link and ".." (PROJECT/l/../run.sh, l a link to
 * a/b/c: the shell runs a/b/run.sh) is refused naming the link, as the
 * same path written out is; by its text alone it would be PROJECT/run.sh,
 * and a/b/run.sh would stay writable (the cage view of this change). */
Test(agentfiles, a_match_through_a_link_and_dot_dot_is_refused)
{
	mkd("a");
	mkd("a/b");
	mkd("a/b/c");
	put("a/b/run.sh", "#!/bin/sh\n");
	cr_assert_eq(
		symlink("a/b/c", strcat(strcpy((char[512]){0}, dir), "/l")), 0);
	put(".claude/settings.json",
	    "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", "
	    "\"command\": \"sh $CLAUDE_PROJECT_DIR/*/.*/run.sh\"}]}]}}");
	cr_assert_eq(ltd_agentprotect_project(&p, &prot, &err), -ELOOP, "%s",
		     err.msg);
	cr_assert(strstr(err.msg, "through the link") && strstr(err.msg, "/l"),
		  "%s", err.msg);
}
