// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The directories where Claude Code would read settings through a user's
 * link (protect/agentlinks.h): a linked .claude, a linked settings file
 * in a .claude, a linked .mcp.json; not in .git or node_modules; a tree
 * too deep is said to be partly looked at.
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

Test(agentlinks, the_users_links_and_nothing_else)
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
	cr_assert_eq(l.n, 4, "%zu listed", l.n);
	cr_assert_not(l.partial);
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
	cr_assert(l.partial, "what lies below the limit is not known");
	ltd_agentlinks_free(&l);
}
