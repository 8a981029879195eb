// SPDX-License-Identifier: GPL-2.0-or-later
/* The project files that Claude Code on the host runs by itself: the words
 * of a hook's command line that name a place in the project (pure), and the
 * settings and .mcp.json read for them (a project in a temporary dir). */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy/policy.h"
#include "protect/protect.h"

#define PROJ "/home/u/app"
#define HOME "/home/u"

static struct ltd_cmd_path *v;
static size_t n;

static void paths(const char *cmd)
{
	ltd_command_paths_free(v, n);
	v = NULL;
	n = 0;
	cr_assert_eq(ltd_command_paths(cmd, PROJ, HOME, &v, &n), 0, "%s", cmd);
}

static bool has(const char *path, enum ltd_cmd_kind kind)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].path, path) && v[i].kind == kind)
			return true;
	return false;
}

static bool names(const char *path)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].path, path))
			return true;
	return false;
}

static void fini(void)
{
	ltd_command_paths_free(v, n);
	v = NULL;
	n = 0;
}

TestSuite(agentprotect, .fini = fini);

Test(agentprotect, the_project_dir_variable_is_expanded)
{
	paths("\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/fmt.sh");
	cr_assert(has(PROJ "/.claude/hooks/fmt.sh", LTD_CMD_PATH));
	paths("${CLAUDE_PROJECT_DIR}/tools/check.py --fast");
	cr_assert(has(PROJ "/tools/check.py", LTD_CMD_PATH));
	cr_assert_eq(n, 1, "--fast is an option");
	paths("\"${CLAUDE_PROJECT_DIR:-.}\"/a.sh ${CLAUDE_PROJECT_DIR%/}/b.sh");
	cr_assert(has(PROJ "/a.sh", LTD_CMD_PATH) &&
			  has(PROJ "/b.sh", LTD_CMD_PATH),
		  "any ${CLAUDE_PROJECT_DIR...} form");
	paths("\"$(git rev-parse --show-toplevel)\"/c.sh $PWD/d.sh");
	cr_assert(has(PROJ "/c.sh", LTD_CMD_PATH) &&
			  has(PROJ "/d.sh", LTD_CMD_PATH),
		  "the repository's top level, the working directory");
}

Test(agentprotect, relative_paths_and_interpreters)
{
	paths("python3 tools/check.py && ./scripts/x.sh | tee log; node "
	      "hook.js");
	cr_assert(has(PROJ "/tools/check.py", LTD_CMD_PATH));
	cr_assert(has(PROJ "/scripts/x.sh", LTD_CMD_PATH));
	cr_assert(has(PROJ "/python3", LTD_CMD_BARE), "a bare word");
	cr_assert(has(PROJ "/hook.js", LTD_CMD_BARE));
	paths("node --require=./scripts/pre.js -r ./b.js hook.js");
	cr_assert(has(PROJ "/scripts/pre.js", LTD_CMD_PATH),
		  "an option's =value");
	cr_assert(has(PROJ "/b.js", LTD_CMD_PATH));
	paths("BASH_ENV=./env.sh bash -c true");
	cr_assert(has(PROJ "/env.sh", LTD_CMD_PATH), "an assignment's value");
}

Test(agentprotect, quotes_escapes_and_line_joins)
{
	paths("'my dir/x.sh' \"a b/c.sh\" d\\ e/f.sh bash -c 'lint/run.sh'");
	cr_assert(has(PROJ "/my dir/x.sh", LTD_CMD_PATH));
	cr_assert(has(PROJ "/a b/c.sh", LTD_CMD_PATH));
	cr_assert(has(PROJ "/d e/f.sh", LTD_CMD_PATH));
	cr_assert(has(PROJ "/lint/run.sh", LTD_CMD_PATH));
	paths("./scr\\\nipts/x.sh \"./a\\\nb.sh\"");
	cr_assert(has(PROJ "/scripts/x.sh", LTD_CMD_PATH),
		  "a backslash-newline joins");
	cr_assert(has(PROJ "/ab.sh", LTD_CMD_PATH));
}

Test(agentprotect, cd_moves_the_base_within_its_subshell)
{
	paths("bash -c \"cd sub && ./run.sh --x\"");
	cr_assert(has(PROJ "/sub/run.sh", LTD_CMD_PATH),
		  "an inner line, after its cd");
	paths("(cd web && npm test); ./scripts/x.sh");
	cr_assert(has(PROJ "/scripts/x.sh", LTD_CMD_PATH),
		  "a subshell's cd stays in it");
	cr_assert(!names(PROJ "/web/scripts/x.sh"));
	paths("bash -c \"cd sub\"; ./run.sh");
	cr_assert(has(PROJ "/run.sh", LTD_CMD_PATH),
		  "nor does an inner line's");
	paths(": cd; ./a.sh; echo cd x; ./b.sh");
	cr_assert(has(PROJ "/a.sh", LTD_CMD_PATH) &&
			  has(PROJ "/b.sh", LTD_CMD_PATH),
		  "cd as an argument moves nothing");
	paths("cd; ./c.sh");
	cr_assert(!names(PROJ "/c.sh"), "a bare cd goes home: not known");
	cr_assert(has("./c.sh", LTD_CMD_UNKNOWN));
	paths("cd -P tools && ./t.sh");
	cr_assert(has(PROJ "/tools/t.sh", LTD_CMD_PATH));
}

Test(agentprotect, keywords_keep_the_command_position)
{
	paths("if true; then cd web; ./fmt.sh; fi");
	cr_assert(has(PROJ "/web/fmt.sh", LTD_CMD_PATH), "cd after then");
	paths("{ cd web; ./a.sh; }; command cd lib && ./b.sh");
	cr_assert(has(PROJ "/web/a.sh", LTD_CMD_PATH));
	cr_assert(has(PROJ "/web/lib/b.sh", LTD_CMD_PATH),
		  "command cd (a { } group does not scope cd)");
	paths("pushd web && popd && ./c.sh");
	cr_assert(has("./c.sh", LTD_CMD_UNKNOWN), "after popd: not known");
}

Test(agentprotect, options_that_change_the_directory)
{
	paths("uv --directory mcp run server.py; ./top.sh");
	cr_assert(has(PROJ "/mcp/server.py", LTD_CMD_BARE),
		  "uv --directory DIR runs there");
	cr_assert(has(PROJ "/top.sh", LTD_CMD_PATH), "for that command only");
	paths("make -C build/x all && npm --prefix=web run t ./w.js");
	cr_assert(has(PROJ "/build/x/all", LTD_CMD_BARE));
	cr_assert(has(PROJ "/web/w.js", LTD_CMD_PATH));
	paths("echo $'a\\x2f.sh/b'");
	cr_assert(has("$'a\\x2f.sh/b'", LTD_CMD_UNKNOWN), "$'...' said");
}

Test(agentprotect, substitutions_are_read_and_unknown_words_said)
{
	paths("echo `./sub.sh` $(./sub2.sh) \"$(./sub3.sh)\" $X/y ${X}/z");
	cr_assert(has(PROJ "/sub.sh", LTD_CMD_PATH) &&
			  has(PROJ "/sub2.sh", LTD_CMD_PATH) &&
			  has(PROJ "/sub3.sh", LTD_CMD_PATH),
		  "what a substitution runs is read too");
	cr_assert(has("$X/y", LTD_CMD_UNKNOWN) &&
			  has("${X}/z", LTD_CMD_UNKNOWN),
		  "another variable: said, not guessed");
	paths("cd $X && ./a.sh; /home/u/app/c.sh");
	cr_assert(has("./a.sh", LTD_CMD_UNKNOWN),
		  "relative words after an unknown cd");
	cr_assert(has(PROJ "/c.sh", LTD_CMD_PATH), "an absolute one is known");
}

Test(agentprotect, redirections)
{
	paths("npx prettier --write src/ >> .claude/hook.log 2>&1 && sh < "
	      "./in.sh 2> err/x");
	cr_assert(!names(PROJ "/.claude/hook.log"), "an output is no input");
	cr_assert(!names(PROJ "/err/x"));
	cr_assert(!names(PROJ "/2"), "2> is a descriptor");
	cr_assert(has(PROJ "/in.sh", LTD_CMD_PATH), "sh < script runs it");
	cr_assert(has(PROJ "/src", LTD_CMD_PATH),
		  "named (a directory is left out when its files are read)");
}

Test(agentprotect, globs_homes_and_comments)
{
	paths("scripts/[x].sh x*.sh ~/bin/t ~other/x # ./not.sh");
	cr_assert(has(PROJ "/scripts/[x].sh", LTD_CMD_GLOB));
	cr_assert(has(PROJ "/x*.sh", LTD_CMD_GLOB));
	cr_assert(has(HOME "/bin/t", LTD_CMD_PATH), "~ is the home");
	cr_assert(has("~other/x", LTD_CMD_UNKNOWN));
	cr_assert(!names(PROJ "/not.sh"), "a comment");
	paths("$HOME/app/h.sh");
	cr_assert(has(PROJ "/h.sh", LTD_CMD_PATH),
		  "the project reached from $HOME");
}

Test(agentprotect, nothing_strictly_inside_is_left_to_the_caller)
{
	/* The places are returned wherever they are: ltd_agent_protected
	 * keeps those in the project (and resolves links outside it). */
	paths("/usr/bin/jq . ../out.sh a/../../etc/z");
	cr_assert(has("/usr/bin/jq", LTD_CMD_PATH));
	cr_assert(has("/home/u/out.sh", LTD_CMD_PATH));
	cr_assert(has("/home/u/etc/z", LTD_CMD_PATH));
}

Test(agentprotect, a_flood_of_words_is_refused)
{
	char *cmd = malloc(2000 * 8 + 1);

	for (int i = 0; i < 2000; i++)
		sprintf(cmd + i * 8, "./%05d ", i);
	cr_assert_eq(ltd_command_paths(cmd, PROJ, HOME, &v, &n), -E2BIG);
	v = NULL;
	n = 0;
	free(cmd);
}

/* --- from the files ---------------------------------------------------- */

static char dir[] = "/tmp/ltd-agentprotect.XXXXXX";
static struct ltd_policy p;
static struct ltd_err err;

static void put(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	cr_assert(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

static void mkd(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	cr_assert_eq(mkdir(path, 0755), 0, "%s", path);
}

static bool protects(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (size_t i = 0; i < p.n_protected; i++)
		if (!strcmp(p.protected[i], path))
			return true;
	return false;
}

static void files_setup(void)
{
	cr_assert(mkdtemp(dir));
	ltd_policy_init(&p);
	p.project = strdup(dir);
	mkd(".claude");
}

static void files_fini(void)
{
	char cmd[600];

	ltd_policy_free(&p);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
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
	cr_assert_eq(ltd_agent_protected(&p, &err), 0, "%s", err.msg);
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
	for (size_t i = 0; i < p.n_warnings; i++)
		if (strstr(p.warnings[i], what))
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
	cr_assert_eq(ltd_agent_protected(&p, &err), -ELOOP,
		     "the cage could re-point the link: %s", err.msg);
	cr_assert(strstr(err.msg, "through the link") &&
			  strstr(err.msg, "/linked") &&
			  strstr(err.msg, "real path"),
		  "%s", err.msg);
	put(".claude/settings.json",
	    "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", "
	    "\"command\": \"real/x.sh; $TOOL/run.sh\"}]}]}}");
	cr_assert_eq(ltd_agent_protected(&p, &err), 0, "%s", err.msg);
	cr_assert(protects(".claude/hooks") && protects(".claude/agents") &&
			  protects(".claude/skills"),
		  "hooks, and what carries hooks of its own");
	cr_assert(protects("real/x.sh"));
	cr_assert(warned("$TOOL/run.sh") && warned("cannot resolve"),
		  "an unknowable path is said");
}

Test(agentfiles, directories_named_and_outputs_stay_writable)
{
	mkd("src");
	put("src/app.js", "\n");
	put(".claude/settings.json",
	    "{\"hooks\": {\"PostToolUse\": [{\"hooks\": [{\"type\": "
	    "\"command\", \"command\": \"npx prettier --write src/ >> "
	    ".claude/hook.log\"}]}]}}");
	cr_assert_eq(ltd_agent_protected(&p, &err), 0, "%s", err.msg);
	cr_assert(!protects("src") && !protects(".claude/hook.log"),
		  "the agent works there");
	cr_assert_eq(p.n_warnings, 0);
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
	cr_assert_eq(ltd_agent_protected(&p, &err), 0, "%s", err.msg);
	cr_assert(protects("scripts/env.sh"), "BASH_ENV");
	cr_assert(protects("scripts/pre.js"), "NODE_OPTIONS");
	cr_assert(protects("bin"), "a directory on PATH");
}

Test(agentfiles, json_as_claude_code_reads_it)
{
	mkd("scripts");
	put("scripts/x.sh", "\n");
	/* Node's JSON.parse takes a NUL escape and a huge integer. */
	put(".claude/settings.json",
	    "{\"n\": 123456789012345678901234567890, \"s\": \"a\\u0000b\", "
	    "\"statusLine\": {\"command\": \"./scripts/x.sh\"}}");
	cr_assert_eq(ltd_agent_protected(&p, &err), 0, "%s", err.msg);
	cr_assert(protects("scripts/x.sh"));
}

Test(agentfiles, settings_text_read_as_a_file_is)
{
	static const char text[] = "{\"statusLine\": {\"command\": "
				   "\"./scripts/y.sh\"}}";

	/* ltd_agent_settings_scan: the same reading from a buffer (the fuzz
	 * target's way in), errors naming the file given. */
	cr_assert_eq(ltd_agent_settings_scan(&p, "a.json", text,
					     sizeof(text) - 1, &err),
		     0, "%s", err.msg);
	cr_assert(protects("scripts/y.sh"));
	cr_assert_eq(ltd_agent_settings_scan(&p, "a.json", "{x", 2, &err),
		     -EINVAL);
	cr_assert(strstr(err.msg, "a.json:1"), "%s", err.msg);
}

Test(agentfiles, unreadable_settings_refuse_the_run)
{
	put(".claude/settings.json", "{not json");
	cr_assert_eq(ltd_agent_protected(&p, &err), -EINVAL);
	cr_assert(strstr(err.msg, ".claude/settings.json:1") &&
			  strstr(err.msg, "cannot tell"),
		  "%s", err.msg);
	put(".claude/settings.json", "{\"s\": \"\\ud800\"}");
	cr_assert_eq(ltd_agent_protected(&p, &err), -EINVAL,
		     "a lone surrogate: %s", err.msg);
	put(".claude/settings.json", "{}");
	cr_assert_eq(
		mkfifo(strcat(strcpy((char[512]){0}, dir), "/.mcp.json"), 0600),
		0);
	cr_assert_eq(ltd_agent_protected(&p, &err), -EINVAL);
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
	cr_assert_eq(ltd_agent_protected(&p, &err), -E2BIG);
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
	cr_assert_eq(ltd_agent_protected(&p, &err), 0, "%s", err.msg);
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
	cr_assert_eq(ltd_agent_protected(&p, &err), 0, "%s", err.msg);
	cr_assert(protects("tools/hooks"), "the directory of the matches");
	cr_assert(protects("top.sh"), "a match at the top, as before");
	cr_assert(warned("*.sh"), "new matches at the top are said");
}
