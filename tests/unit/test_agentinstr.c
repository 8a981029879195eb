// SPDX-License-Identifier: GPL-2.0-or-later
/* The agents' instruction files in the project (protect/agentinstr.c),
 * in a temporary directory standing for the project. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "protect/agentinstr.h"
#include "tests/common/fixture.h"

static char dir[40];

static void setup(void)
{
	fx_tmpdir(dir, sizeof(dir), "agentinstr");
}

static void fini(void)
{
	fx_rm_rf(dir);
}

TestSuite(agentinstr, .init = setup, .fini = fini);

static void link_at(const char *rel, const char *target)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	cr_assert_eq(symlink(target, path), 0, "%s", path);
}

static char *report(const struct ltd_agentinstr *before)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	cr_assert_not_null(out);
	ltd_agentinstr_report(out, dir, before);
	fclose(out);
	return text;
}

/* The attack: CLAUDE.md made a link to a key of the user's, which Claude
 * Code on the host would load into its prompt; a rule of .claude/rules
 * made one too, and a directory link there (Claude Code reads every file
 * under it, whatever its name: moved out of .claude/rules).  A link the
 * command made within the project, and the text it wrote, are the
 * project's. */
Test(agentinstr, a_link_out_made_by_the_command_goes_aside)
{
	struct ltd_agentinstr *before = ltd_agentinstr_ids(dir);
	char *text;

	cr_assert_not_null(before);
	link_at("CLAUDE.md", "/etc/passwd");
	fx_mkdirs(dir, ".claude/rules/team/x");
	link_at(".claude/rules/team/r.md", "/etc/passwd");
	link_at(".claude/rules/shared", "/etc");
	fx_put(dir, "AGENTS.md", "be nice\n");
	link_at("GEMINI.md", "AGENTS.md");
	text = report(before);
	cr_assert(fx_exists(dir, "CLAUDE.md.ltd-native-quarantine"), "%s",
		  text);
	cr_assert(fx_exists(dir, ".claude/rules-r.md.ltd-native-quarantine"),
		  "%s", text);
	cr_assert(fx_exists(dir, ".claude/rules-shared.ltd-native-quarantine"),
		  "out of .claude/rules: %s", text);
	cr_assert_not(fx_exists(dir, ".claude/rules/shared"));
	cr_assert(fx_exists(dir, "GEMINI.md"), "within the project: %s", text);
	cr_assert_not_null(strstr(text, "/CLAUDE.md a symbolic link out of the "
					"project"),
			   "%s", text);
	cr_assert_null(strstr(text, "GEMINI"), "%s", text);
	cr_assert_null(strstr(text, "AGENTS"), "%s", text);
	free(text);
	ltd_agentinstr_free(before);
}

/* The user's own links, there before the run, stay whatever they lead
 * to (rules shared from a directory of theirs, a CLAUDE.local.md kept
 * in their dotfiles); an absolute link that stays in the project too. */
Test(agentinstr, the_users_own_links_stay)
{
	struct ltd_agentinstr *before;
	char abs[128], *text;

	fx_mkdirs(dir, ".claude/rules/x");
	link_at(".claude/rules/shared", "/etc");
	link_at("CLAUDE.local.md", "/etc/hostname");
	before = ltd_agentinstr_ids(dir);
	cr_assert_not_null(before);
	fx_put(dir, "AGENTS.md", "shared\n");
	snprintf(abs, sizeof(abs), "%s/AGENTS.md", dir);
	link_at("CLAUDE.md", abs);
	text = report(before);
	cr_assert(fx_exists(dir, ".claude/rules/shared"), "%s", text);
	cr_assert(fx_exists(dir, "CLAUDE.local.md"), "%s", text);
	cr_assert(fx_exists(dir, "CLAUDE.md"), "%s", text);
	cr_assert_str_eq(text, "");
	free(text);
	ltd_agentinstr_free(before);
}

/* The same link moved into place from elsewhere (its inode the same, its
 * ctime older than the run): not the user's at that place. */
Test(agentinstr, a_link_moved_into_place_is_judged)
{
	struct ltd_agentinstr *before;
	char from[128], to[128], *text;

	fx_mkdirs(dir, "stage/x");
	link_at("stage/CLAUDE.md", "/etc/passwd");
	before = ltd_agentinstr_ids(dir);
	snprintf(from, sizeof(from), "%s/stage", dir);
	snprintf(to, sizeof(to), "%s/.claude", dir);
	cr_assert_eq(rename(from, to), 0);
	text = report(before);
	cr_assert(fx_exists(dir, ".claude/CLAUDE.md.ltd-native-quarantine"),
		  "%s", text);
	free(text);
	ltd_agentinstr_free(before);
}

/* The second review's: .claude/rules itself made a link out; a user's
 * link whose target in the project the command replaced by a link out
 * (CLAUDE.md -> docs/guide.md); a new link at the place of a user's one
 * (whatever its inode); a rule six directories deep; a link that leads
 * nowhere yet (the key it names may come later). */
Test(agentinstr, where_a_link_leads_now_is_judged)
{
	struct ltd_agentinstr *before;
	char *text;

	fx_mkdirs(dir, "docs/guide.md");
	fx_put(dir, "docs/guide.md", "the guide\n");
	link_at("CLAUDE.md", "docs/guide.md");
	fx_put(dir, "AGENTS.md", "shared\n");
	link_at("GEMINI.md", "AGENTS.md");
	fx_mkdirs(dir, ".claude/x");
	before = ltd_agentinstr_ids(dir);
	cr_assert_not_null(before);
	link_at(".claude/rules", "/etc");
	fx_rm_rf(strcat(strcpy((char[256]){0}, dir), "/docs/guide.md"));
	link_at("docs/guide.md", "/etc/passwd");
	fx_rm_rf(strcat(strcpy((char[256]){0}, dir), "/GEMINI.md"));
	link_at("GEMINI.md", "/etc/hostname");
	link_at("CLAUDE.local.md", "/home/nobody-yet/.ssh/id_ed25519");
	text = report(before);
	cr_assert(fx_exists(dir, ".claude/rules-rules.ltd-native-quarantine") ||
			  fx_exists(dir, ".claude/rules.ltd-native-quarantine"),
		  "%s", text);
	cr_assert(fx_exists(dir, "CLAUDE.md.ltd-native-quarantine"), "%s",
		  text);
	cr_assert(fx_exists(dir, "GEMINI.md.ltd-native-quarantine"), "%s",
		  text);
	cr_assert(fx_exists(dir, "CLAUDE.local.md.ltd-native-quarantine"), "%s",
		  text);
	free(text);
	ltd_agentinstr_free(before);
}

Test(agentinstr, rules_deep_and_through_a_link_in_the_project)
{
	struct ltd_agentinstr *before;
	char *text;

	fx_mkdirs(dir, ".claude/rules/a/b/c/d/e/f/x");
	fx_mkdirs(dir, "docs/x");
	link_at(".claude/rules/shared", "../../docs");
	before = ltd_agentinstr_ids(dir);
	link_at(".claude/rules/a/b/c/d/e/f/deep.md", "/etc/passwd");
	link_at("docs/via.md", "/etc/passwd");
	text = report(before);
	cr_assert(fx_exists(dir, ".claude/rules-deep.md.ltd-native-quarantine"),
		  "%s", text);
	cr_assert(fx_exists(dir, ".claude/rules-via.md.ltd-native-quarantine"),
		  "through the user's link to docs: %s", text);
	cr_assert(fx_exists(dir, ".claude/rules/shared"), "%s", text);
	free(text);
	ltd_agentinstr_free(before);
}

/* The cage-view review: links among the rules that lead back (. twice)
 * made the walk k^16 long, and the launcher hung at every later start and
 * end; and a rule past 16 directories went unsaid.  Each directory is
 * walked once, and what is past the bounds is said. */
Test(agentinstr, looping_links_and_depth_end_and_are_said)
{
	struct ltd_agentinstr *before;
	char deep[512] = ".claude/rules", *text;

	fx_mkdirs(dir, ".claude/rules/x");
	link_at(".claude/rules/a", ".");
	link_at(".claude/rules/b", ".");
	link_at(".claude/rules/c", "..");
	before = ltd_agentinstr_ids(dir);
	cr_assert_not_null(before);
	text = report(before);
	cr_assert_null(strstr(text, "could not look"), "%s", text);
	free(text);
	for (int i = 0; i < LTD_AGENTINSTR_RULES_DEPTH + 2; i++)
		strcat(deep, "/d");
	strcat(deep, "/x");
	fx_mkdirs(dir, deep);
	text = report(before);
	cr_assert_not_null(strstr(text, "could not look through all of"), "%s",
			   text);
	free(text);
	ltd_agentinstr_free(before);
}
