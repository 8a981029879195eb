// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A writable bind of the user's that reaches a path the cage sees
 * read-only (protect/protect.c): the attack is `--bind PROJECT/.claude
 * ...`, through which the command wrote a slash command that Claude Code
 * on the host ran.  Refused whether the bind is the place, lies in it or
 * holds it, under any name; a bind beside them is not.  The fixture is
 * gitprotect_fixture.h's (a project with .git in dir).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gitprotect_fixture.h"
#include "protect/protect.h"
#include "tests/common/fixture.h"

static struct ltd_err err;

static void project(void)
{
	fx_mkdir(dir, ".claude", 0755);
	fx_mkdir(dir, ".claude/commands", 0755);
	fx_mkdir(dir, ".claude/commands/sub", 0755);
	fx_mkdir(dir, "data", 0755);
	err = (struct ltd_err){0};
	cr_assert_eq(ltd_protect_project(&p, &prot, &err), 0, "%s", err.msg);
}

/* ltd_protect_binds() with the one writable bind of @rel (in dir). */
static int bind(const char *rel)
{
	char src[256];

	/* A bind's source is a real path (policy/validate.c resolved it). */
	if (!strcmp(rel, "."))
		snprintf(src, sizeof(src), "%s", dir);
	else
		fx_path(src, sizeof(src), dir, rel);
	for (size_t i = 0; i < p.n_mounts; i++) {
		free(p.mounts[i].src);
		free(p.mounts[i].dst);
	}
	free(p.mounts);
	p.mounts = calloc(1, sizeof(*p.mounts));
	p.mounts[0] = (struct ltd_user_mount){
		.kind = LTD_UM_BIND,
		.src = strdup(src),
		.dst = strdup("/mnt/x"),
		.flag = "bind",
	};
	p.n_mounts = 1;
	err = (struct ltd_err){0};
	return ltd_protect_binds(&p, &prot, &err);
}

static void said(const char *what)
{
	cr_assert_not_null(strstr(err.msg, what), "'%s' not in: %s", what,
			   err.msg);
}

TestSuite(protectbinds, .init = setup, .fini = teardown);

Test(protectbinds, a_bind_holding_a_protected_place_is_refused)
{
	project();
	cr_assert_eq(bind(".claude"), -EPERM, "accepted");
	said("--bind ");
	said("/.claude: holds ");
	said("/.claude/commands");
	said("Claude Code on the host");
	said("--ro-bind");
	said("--unsafe-writable-git");
}

Test(protectbinds, a_bind_that_is_or_lies_in_one_is_refused)
{
	project();
	cr_assert_eq(bind(".claude/commands"), -EPERM, "accepted");
	said("/.claude/commands: is ");
	cr_assert_eq(bind(".claude/commands/sub"), -EPERM, "accepted");
	said("/.claude/commands/sub: lies in ");
}

/* By identity: another name of the place is the same place (the command
 * line refuses a bind through a link before; a bind mount on the host is
 * another such name, tests/e2e/test_hostfiles.sh's). */
Test(protectbinds, another_name_of_the_same_place_is_refused)
{
	char target[256], link[256];

	project();
	fx_path(target, sizeof(target), dir, ".claude");
	fx_path(link, sizeof(link), dir, "data/alias");
	cr_assert_eq(symlink(target, link), 0);
	cr_assert_eq(bind("data/alias"), -EPERM, "accepted");
	said("holds ");
}

/* A file the project keeps read-only that is not an agent's: git's own. */
Test(protectbinds, a_bind_holding_the_project_is_refused)
{
	project();
	cr_assert_eq(bind("."), -EPERM, "accepted");
}

Test(protectbinds, a_bind_beside_them_is_accepted)
{
	project();
	cr_assert_eq(bind("data"), 0, "%s", err.msg);
	cr_assert_eq(bind("scripts"), 0, "%s", err.msg);
}

/* A protected name that is not there: nothing to reach (the check at the
 * run's end sees one made through the bind). */
Test(protectbinds, a_missing_protected_place_refuses_nothing)
{
	fx_mkdir(dir, ".vsc", 0755);
	cr_assert_eq(ltd_protect_project(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert_eq(bind(".vsc"), 0, "%s", err.msg);
}

Test(protectbinds, unsafe_writable_git_lets_it_through)
{
	project();
	p.protect_git = false;
	cr_assert_eq(bind(".claude"), 0, "%s", err.msg);
}

/* With no git of its own (git's checks say nothing then), the project
 * bound again, or a directory above it: the way out fits the case (the
 * new user's review: "choose another place" helped no one). */
Test(protectbinds, the_way_out_fits_the_bind)
{
	char git[256];

	fx_path(git, sizeof(git), dir, ".git");
	fx_rm_rf(git);
	project();
	cr_assert_eq(bind("."), -EPERM, "accepted");
	said("it is the project, writable already: drop this bind");
	cr_assert_eq(bind(".claude"), -EPERM, "accepted");
	said("bind it read-only (--ro-bind), or use --unsafe-writable-git");
}
