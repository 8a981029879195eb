// SPDX-License-Identifier: GPL-2.0-or-later
/* The project files that Claude Code on the host runs by itself: the words
 * of a hook's command line that name a place in the project (pure), and the
 * settings and .mcp.json read for them (a project in a temporary dir). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy/policy.h"

#define PROJ "/home/u/app"

static struct ltd_cmd_path *v;
static size_t n;

static void paths(const char *cmd)
{
	ltd_command_paths_free(v, n);
	v = NULL;
	n = 0;
	cr_assert_eq(ltd_command_paths(cmd, PROJ, &v, &n), 0, "%s", cmd);
}

static bool has(const char *path, bool bare)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].path, path) && v[i].bare == bare)
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
	cr_assert(has(PROJ "/.claude/hooks/fmt.sh", false));
	paths("${CLAUDE_PROJECT_DIR}/tools/check.py --fast");
	cr_assert(has(PROJ "/tools/check.py", false));
	cr_assert_eq(n, 1, "--fast is an option");
}

Test(agentprotect, relative_paths_and_interpreters)
{
	paths("python3 tools/check.py && ./scripts/x.sh | tee log; node "
	      "hook.js");
	cr_assert(has(PROJ "/tools/check.py", false));
	cr_assert(has(PROJ "/scripts/x.sh", false));
	cr_assert(has(PROJ "/python3", true), "a bare word, if it is a file");
	cr_assert(has(PROJ "/hook.js", true));
	cr_assert(has(PROJ "/tee", true));
}

Test(agentprotect, quotes_and_escapes)
{
	paths("'my dir/x.sh' \"a b/c.sh\" d\\ e/f.sh bash -c 'lint/run.sh'");
	cr_assert(has(PROJ "/my dir/x.sh", false));
	cr_assert(has(PROJ "/a b/c.sh", false));
	cr_assert(has(PROJ "/d e/f.sh", false));
	cr_assert(has(PROJ "/lint/run.sh", false),
		  "a quoted inner command's words too");
	paths("bash -c \"cd sub && ./run.sh --x\"");
	cr_assert(has(PROJ "/sub/run.sh", false),
		  "an inner line, split again, after its cd");
	paths("cd $X && ./a.sh; cd /tmp; ./b.sh; /home/u/app/c.sh");
	cr_assert(!has(PROJ "/a.sh", false) && !has(PROJ "/b.sh", false),
		  "relative words after an unknown cd are not known");
	cr_assert(has(PROJ "/c.sh", false), "an absolute one is");
	paths("echo `./sub.sh` $(./sub2.sh) \"$(./sub3.sh)\" $X/y ${X}/z");
	cr_assert(has(PROJ "/sub.sh", false) && has(PROJ "/sub2.sh", false) &&
			  has(PROJ "/sub3.sh", false),
		  "what a substitution runs is read too");
	cr_assert(!has(PROJ "/y", false) && !has(PROJ "/z", false),
		  "another variable: unknowable");
}

Test(agentprotect, nothing_outside_the_project)
{
	paths("/usr/bin/jq . ~/bin/x $HOME/y ../out.sh a/../../etc/z "
	      "/home/u/application/x " PROJ "/../app2/x");
	for (size_t i = 0; i < n; i++)
		cr_assert(v[i].bare, "only bare words: %s", v[i].path);
}

Test(agentprotect, an_absolute_path_into_the_project)
{
	paths(PROJ "/bin/hook --x=1");
	cr_assert(has(PROJ "/bin/hook", false));
	paths("sh " PROJ "/a/./b/../c.sh");
	cr_assert(has(PROJ "/a/c.sh", false), "normalized by the text");
}

Test(agentprotect, the_project_itself_is_not_a_path_to_protect)
{
	paths("cd \"$CLAUDE_PROJECT_DIR\" && make lint . ./");
	for (size_t i = 0; i < n; i++)
		cr_assert_str_neq(v[i].path, PROJ);
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

Test(agentfiles, the_hooks_directory_and_nothing_through_links)
{
	mkd(".claude/hooks");
	mkd("real");
	put("real/x.sh", "\n");
	cr_assert_eq(
		symlink("real", strcat(strcpy((char[512]){0}, dir), "/linked")),
		0);
	put(".claude/settings.json",
	    "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", "
	    "\"command\": \"linked/x.sh\"}]}]}}");
	cr_assert_eq(ltd_agent_protected(&p, &err), 0, "%s", err.msg);
	cr_assert(protects(".claude/hooks"));
	cr_assert(!protects("linked/x.sh"),
		  "a path through a link is not protected (the bind would "
		  "cover its target)");
}

Test(agentfiles, unreadable_settings_are_no_error)
{
	put(".claude/settings.json", "{not json");
	cr_assert_eq(
		mkfifo(strcat(strcpy((char[512]){0}, dir), "/.mcp.json"), 0600),
		0);
	cr_assert_eq(ltd_agent_protected(&p, &err), 0, "%s", err.msg);
	cr_assert_eq(p.n_protected, 0);
}
