// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The directories with Claude Code settings of their own
 * (protect/agentlinks.h): a .claude or .mcp.json, a link or not; not in
 * .git or node_modules; a tree too deep is said to be partly looked at.
 */
#include <criterion/criterion.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "protect/agentlinks.h"
#include "tests/common/fixture.h"

static char root[] = "/tmp/ltd-agentlinks.XXXXXX";

static void setup(void)
{
	cr_assert_not_null(mkdtemp(root));
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	(void)!system(cmd);
	strcpy(root, "/tmp/ltd-agentlinks.XXXXXX");
}

TestSuite(agentlinks, .init = setup, .fini = teardown);

/* A link at @rel (its directories made) to @to. */
static void link_at(const char *rel, const char *to)
{
	char path[512];

	fx_mkdirs(root, rel);
	fx_path(path, sizeof(path), root, rel);
	cr_assert_eq(symlink(to, path), 0, "%s", path);
}

static struct ltd_agentlinks find(void)
{
	struct ltd_agentlinks l;
	int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	cr_assert_geq(fd, 0);
	cr_assert_eq(ltd_agentlinks_find(fd, &l), 0);
	close(fd);
	return l;
}

static bool listed(const struct ltd_agentlinks *l, const char *dir)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->dirs[i], dir))
			return true;
	return false;
}

Test(agentlinks, claude_dirs_and_links_but_not_in_packages_or_git)
{
	struct ltd_agentlinks l;

	link_at("a/.claude", "../shared/cc");
	link_at("b/deep/.claude/settings.json", "../../../conf/s.json");
	link_at("c/.mcp.json", "../conf/m.json");
	link_at(".claude", "shared/top");
	fx_mkdirs(root, "d/.claude/commands/x");
	fx_put(root, "d/.claude/settings.json", "{}\n");
	fx_mkdirs(root, "e/.mcp.json");
	fx_put(root, "e/.mcp.json", "{}\n");
	link_at("node_modules/p/.claude", "../../shared/cc");
	link_at(".git/x/.claude", "../../shared/cc");
	link_at("f/.claudeX", "../shared/cc");
	l = find();
	cr_assert(listed(&l, "a"));
	cr_assert(listed(&l, "b/deep"));
	cr_assert(listed(&l, "c"));
	cr_assert(listed(&l, ""), "the root's own .claude link");
	cr_assert(listed(&l, "d"), "a .claude of its own");
	cr_assert(listed(&l, "e"), "an .mcp.json of its own");
	cr_assert_eq(l.n, 6, "%zu listed", l.n);
	cr_assert_not(l.past_limit);
	cr_assert_null(l.unread);
	ltd_agentlinks_free(&l);
}

Test(agentlinks, too_deep_is_partial)
{
	char rel[4 * (LTD_AGENTLINKS_MAX_DEPTH + 2) + 16] = "";
	struct ltd_agentlinks l;

	for (int i = 0; i < LTD_AGENTLINKS_MAX_DEPTH + 1; i++)
		strcat(rel, "d/");
	strcat(rel, ".claude");
	link_at(rel, "/tmp");
	l = find();
	cr_assert_eq(l.n, 0);
	cr_assert(l.past_limit, "what lies below the limit is not known");
	ltd_agentlinks_free(&l);
}
