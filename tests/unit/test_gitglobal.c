// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the global git configuration names, outside any repository, and
 * writable binds judged by the repositories they fall in
 * (ltd_gitbinds_check).  The fixture is test_gitprotect.c's.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gitprotect_fixture.h"
#include "protect/gitbinds.h"
#include "protect/gitprotect.h"
#include "tests/common/fixture.h"

TestSuite(gitglobal, .init = setup, .fini = teardown);

/* The test's tree with no repository in it: setup's .git gone. */
static void no_repository(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf %s/.git && mkdir -p %s/home", dir,
		 dir);
	cr_assert_eq(system(cmd), 0);
}

static void mkdirs(const char *rel)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "mkdir -p %s/%s", dir, rel);
	cr_assert_eq(system(cmd), 0);
}

/* `cd ~/.githooks && ltd-native run`: the project is the hooks path that
 * ~/.gitconfig names for every repository, and lies in no repository. */
Test(gitglobal, a_project_that_is_the_global_hooks_path_is_refused)
{
	struct ltd_err err = {0};

	no_repository();
	mkdirs("home/.githooks/sub");
	put("home/.gitconfig", "[core]\n\thooksPath = ~/.githooks\n");
	project_at("home/.githooks");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), -EPERM,
		     "accepted");
	cr_assert_not_null(strstr(err.msg, "--project"), "%s", err.msg);
	cr_assert_not_null(strstr(err.msg, "/home/.githooks"), "%s", err.msg);
	cr_assert_not_null(strstr(err.msg, "/home/.gitconfig"), "%s", err.msg);
	cr_assert_not_null(strstr(err.msg, "core.hooksPath"), "%s", err.msg);
	cr_assert_not_null(strstr(err.msg, "--unsafe-writable-git"), "%s",
			   err.msg);
	project_at("home/.githooks/sub");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), -EPERM,
		     "in it: accepted");
}

/* The same from $XDG_CONFIG_HOME/git/config, through an include, and for
 * husky's hooks (the stubs in .husky/_ run the scripts beside them). */
Test(gitglobal, global_hooks_paths_from_every_global_file)
{
	struct ltd_err err = {0};
	char text[300];

	no_repository();
	mkdirs("xdg/git");
	mkdirs("inc");
	mkdirs("hk/.husky/_");
	mkdirs("fsm");
	setenv("XDG_CONFIG_HOME", strcat(strcpy(text, dir), "/xdg"), 1);
	snprintf(text, sizeof(text), "[include]\n\tpath = %s/inc/more.cfg\n",
		 dir);
	put("xdg/git/config", text);
	snprintf(text, sizeof(text),
		 "[core]\n\thooksPath = %s/hk/.husky/_\n"
		 "\tfsmonitor = %s/fsm/watch.sh\n",
		 dir, dir);
	put("inc/more.cfg", text);
	project_at("hk/.husky");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), -EPERM,
		     "husky's parent: accepted");
	cr_assert_not_null(strstr(err.msg, "/inc/more.cfg"), "%s", err.msg);
	/* A project that holds them: they are read-only, not refused. */
	project_at("hk");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert(has("/hk/.husky/_"), "the hooks path");
	cr_assert(has("/hk/.husky"), "husky's scripts");
	project_at("fsm");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert(has("/fsm/watch.sh"), "core.fsmonitor");
	project_at("inc");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert(has("/inc/more.cfg"), "an included global config");
}

/* A command value of the global config names a file in a project that is
 * in no repository: read-only, as in one. */
Test(gitglobal, global_command_values_outside_a_repository)
{
	struct ltd_err err = {0};
	char text[300];

	no_repository();
	mkdirs("tools");
	put("tools/ed.sh", "#!/bin/sh\n");
	snprintf(text, sizeof(text), "[core]\n\teditor = %s/tools/ed.sh\n",
		 dir);
	put("home/.gitconfig", text);
	project_at("tools");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert(has("/tools/ed.sh"), "core.editor's file");
}

static int bind_check(const char *rel, struct ltd_err *err)
{
	char src[256];

	snprintf(src, sizeof(src), "%s/%s", dir, rel);
	memset(err, 0, sizeof(*err));
	return ltd_gitbinds_check(&p, "--bind", src, err);
}

/* F6: `--bind ~/.githooks ~/.githooks`: hooks planted there run in every
 * repository of the user's. */
Test(gitglobal, a_bind_of_the_global_hooks_path_is_refused)
{
	struct ltd_err err = {0};

	no_repository();
	mkdirs("home/.githooks/sub");
	mkdirs("plain");
	put("home/.gitconfig", "[core]\n\thooksPath = ~/.githooks\n");
	project_at("plain");
	cr_assert_eq(bind_check("home/.githooks", &err), -EPERM, "accepted");
	cr_assert_not_null(strstr(err.msg, "--bind"), "%s", err.msg);
	cr_assert_not_null(strstr(err.msg, "/home/.githooks"), "%s", err.msg);
	cr_assert_not_null(strstr(err.msg, "/home/.gitconfig"), "%s", err.msg);
	cr_assert_not_null(strstr(err.msg, "core.hooksPath"), "%s", err.msg);
	cr_assert_not_null(strstr(err.msg, "--ro-bind"), "%s", err.msg);
	cr_assert_not_null(strstr(err.msg, "--unsafe-writable-git"), "%s",
			   err.msg);
	cr_assert_eq(bind_check("home/.githooks/sub", &err), -EPERM,
		     "in it: accepted");
	cr_assert_eq(bind_check("home", &err), -EPERM, "holding it: accepted");
	cr_assert_eq(bind_check("plain", &err), 0, "%s", err.msg);
	p.protect_git = false; /* --unsafe-writable-git */
	cr_assert_eq(bind_check("home/.githooks", &err), 0, "%s", err.msg);
}

/* The global config's fsmonitor, includes and command values: a bind that
 * holds what they name is refused. */
Test(gitglobal, a_bind_of_what_the_global_config_runs_is_refused)
{
	struct ltd_err err = {0};
	char text[600];

	no_repository();
	mkdirs("fsm");
	mkdirs("inc");
	mkdirs("tools");
	mkdirs("hk/.husky/_");
	put("tools/x.sh", "#!/bin/sh\n");
	snprintf(text, sizeof(text),
		 "[core]\n\tfsmonitor = %s/fsm/watch.sh\n"
		 "[include]\n\tpath = %s/inc/more.cfg\n"
		 "[alias]\n\tx = !%s/tools/x.sh\n",
		 dir, dir, dir);
	put("home/.gitconfig", text);
	snprintf(text, sizeof(text), "[core]\n\thooksPath = %s/hk/.husky/_\n",
		 dir);
	put("inc/more.cfg", text);
	project_at("home");
	cr_assert_eq(bind_check("fsm", &err), -EPERM, "fsmonitor: accepted");
	cr_assert_not_null(strstr(err.msg, "core.fsmonitor"), "%s", err.msg);
	cr_assert_eq(bind_check("inc", &err), -EPERM, "an include: accepted");
	cr_assert_eq(bind_check("tools", &err), -EPERM, "an alias: accepted");
	cr_assert_not_null(strstr(err.msg, "/tools/x.sh"), "%s", err.msg);
	cr_assert_not_null(strstr(err.msg, "alias.x"), "%s", err.msg);
	cr_assert_eq(bind_check("hk/.husky", &err), -EPERM,
		     "husky's scripts: accepted");
	cr_assert_not_null(strstr(err.msg, "/inc/more.cfg"), "%s", err.msg);
}

/* F7: `--bind ~/other/tools` where ~/other's config names tools/hooks (or
 * runs tools/clean.sh): git commit in ~/other runs what the cage wrote. */
Test(gitglobal, a_bind_below_another_work_tree_is_judged_by_its_config)
{
	struct ltd_err err = {0};

	work_tree_with_tools("[core]\n\thooksPath = tools/hooks\n"
			     "[filter \"s\"]\n\tclean = scripts/clean.sh\n");
	mkdirs("repo/tools/hooks/sub");
	mkdirs("repo/scripts");
	mkdirs("repo/src");
	mkdirs("proj");
	project_at("proj");
	cr_assert_eq(bind_check("repo/tools", &err), -EPERM, "accepted");
	cr_assert_not_null(strstr(err.msg, "--bind"), "%s", err.msg);
	cr_assert_not_null(strstr(err.msg, "/repo/tools/hooks"), "%s", err.msg);
	cr_assert_not_null(strstr(err.msg, "/repo/.git/config"), "%s", err.msg);
	cr_assert_not_null(strstr(err.msg, "core.hooksPath"), "%s", err.msg);
	cr_assert_not_null(strstr(err.msg, "--ro-bind"), "%s", err.msg);
	cr_assert_eq(bind_check("repo/tools/hooks", &err), -EPERM, "accepted");
	cr_assert_eq(bind_check("repo/tools/hooks/sub", &err), -EPERM,
		     "accepted");
	cr_assert_eq(bind_check("repo/scripts", &err), -EPERM,
		     "a filter's script: accepted");
	cr_assert_not_null(strstr(err.msg, "filter.s.clean"), "%s", err.msg);
	cr_assert_eq(bind_check("repo/src", &err), 0, "%s", err.msg);
}

/* A relative hooks path in the global config is resolved in each work
 * tree: in the one above the bind too. */
Test(gitglobal, a_relative_global_hooks_path_in_the_repository_above)
{
	struct ltd_err err = {0};

	work_tree_with_tools("[core]\n\tbare = false\n");
	mkdirs("repo/.githooks");
	mkdirs("proj");
	put("home/.gitconfig", "[core]\n\thooksPath = .githooks\n");
	project_at("proj");
	cr_assert_eq(bind_check("repo/.githooks", &err), -EPERM, "accepted");
	cr_assert_not_null(strstr(err.msg, "/home/.gitconfig"), "%s", err.msg);
	cr_assert_eq(bind_check("repo/tools", &err), 0, "%s", err.msg);
}

/* --- the review of the global-config change ------------------------------ */

/* A bind of the very file an include or a command value names. */
Test(gitglobal, a_bind_of_the_named_file_itself_is_refused)
{
	struct ltd_err err = {0};
	char text[600];

	no_repository();
	mkdirs("dot");
	mkdirs("tools");
	mkdirs("plain");
	put("dot/extra.cfg", "[user]\n");
	put("tools/pager.sh", "#!/bin/sh\n");
	put("tools/other.sh", "#!/bin/sh\n");
	snprintf(text, sizeof(text),
		 "[include]\n\tpath = %s/dot/extra.cfg\n"
		 "[core]\n\tpager = %s/tools/pager.sh\n",
		 dir, dir);
	put("home/.gitconfig", text);
	project_at("plain");
	cr_assert_eq(bind_check("dot/extra.cfg", &err), -EPERM,
		     "the include itself: accepted");
	cr_assert_eq(bind_check("tools/pager.sh", &err), -EPERM,
		     "the pager itself: accepted");
	cr_assert_eq(bind_check("tools/other.sh", &err), 0,
		     "a file beside it: %s", err.msg);
	/* A file in the global hooks path: in it, refused still. */
	mkdirs("home/.githooks");
	put("home/.githooks/pre-commit", "#!/bin/sh\n");
	put("home/.gitconfig", "[core]\n\thooksPath = ~/.githooks\n");
	cr_assert_eq(bind_check("home/.githooks/pre-commit", &err), -EPERM,
		     "a hook itself: accepted");
	cr_assert_not_null(strstr(err.msg, "--bind"), "%s", err.msg);
}

/* $GIT_CONFIG_GLOBAL names the global config: like ~/.gitconfig, never
 * the cage's to write. */
Test(gitglobal, the_file_git_config_global_names_is_protected)
{
	struct ltd_err err = {0};
	char path[300];

	no_repository();
	mkdirs("cfgdir");
	mkdirs("proj2");
	put("cfgdir/gitconfig", "[user]\n");
	put("proj2/gitconfig", "[user]\n");
	project_at("plain-x");
	mkdirs("plain-x");
	setenv("GIT_CONFIG_GLOBAL",
	       strcat(strcpy(path, dir), "/cfgdir/gitconfig"), 1);
	cr_assert_eq(bind_check("cfgdir", &err), -EPERM, "accepted");
	setenv("GIT_CONFIG_GLOBAL",
	       strcat(strcpy(path, dir), "/proj2/gitconfig"), 1);
	project_at("proj2");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert(has("/proj2/gitconfig"), "the global config in the project");
	unsetenv("GIT_CONFIG_GLOBAL");
}

/* A hooks path that does not exist yet, named through a link: judged
 * where the link leads. */
Test(gitglobal, a_missing_hooks_path_through_a_link_is_judged_where_it_leads)
{
	struct ltd_err err = {0};
	char a[300], b[300];

	no_repository();
	mkdirs("real");
	mkdirs("plain");
	snprintf(a, sizeof(a), "%s/real", dir);
	snprintf(b, sizeof(b), "%s/home/link", dir);
	cr_assert_eq(symlink(a, b), 0);
	put("home/.gitconfig", "[core]\n\thooksPath = ~/link/hooks\n");
	project_at("plain");
	cr_assert_eq(bind_check("real", &err), -EPERM, "accepted");
}

/* git ignores a global config it may not read (a root-owned 0600 one from
 * `sudo git config --global`): so does ltd-native, saying so. */
Test(gitglobal, an_unreadable_global_config_does_not_stop_the_run)
{
	struct ltd_err err = {0};
	char path[300];

	no_repository();
	mkdirs("plain");
	put("home/.gitconfig", "[user]\n");
	snprintf(path, sizeof(path), "%s/home/.gitconfig", dir);
	chmod(path, 0);
	if (access(path, R_OK) == 0) {
		/* A skipped test's fini does not run. */
		fx_rm_rf(dir);
		cr_skip_test("running with CAP_DAC_OVERRIDE");
	}
	project_at("plain");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0, "%s", err.msg);
	chmod(path, 0644);
}

/* A relative core.hooksPath in the global config means a directory in
 * each work tree: with none, nothing (not "/"). */
Test(gitglobal, a_relative_global_hooks_path_outside_a_repository_is_nothing)
{
	struct ltd_err err = {0};

	no_repository();
	mkdirs("plain");
	put("home/.gitconfig", "[core]\n\thooksPath = .\n");
	project_at("plain");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert_eq(bind_check("home", &err), 0, "%s", err.msg);
}

/* Each writable place judged by every repository's configuration, not only
 * those above itself (the review's D, 10, 11). */
static void add_bind(const char *rel)
{
	char src[256];

	snprintf(src, sizeof(src), "%s/%s", dir, rel);
	p.mounts = realloc(p.mounts, (p.n_mounts + 1) * sizeof(*p.mounts));
	p.mounts[p.n_mounts++] = (struct ltd_user_mount){
		.kind = LTD_UM_BIND,
		.src = strdup(src),
		.dst = strdup(src),
		.flag = "bind",
	};
}

Test(gitglobal, a_bind_is_judged_by_the_projects_own_repository)
{
	struct ltd_err err = {0};

	/* D: the project's hooks path lies outside it, in a bind. */
	no_repository();
	make_gitdir("src/app/.git");
	put("src/app/.git/config", "[core]\n\thooksPath = ../shared-hooks\n");
	mkdirs("src/shared-hooks");
	mkdirs("src/other");
	project_at("src/app");
	add_bind("src/shared-hooks");
	cr_assert_eq(ltd_gitbinds_cross_check(&p, &prot, &err), -EPERM,
		     "accepted");
	cr_assert_not_null(strstr(err.msg, "--bind"), "%s", err.msg);
	cr_assert_not_null(strstr(err.msg, "/src/shared-hooks"), "%s", err.msg);
	project_at("src/app");
	add_bind("src/other");
	cr_assert_eq(ltd_gitbinds_cross_check(&p, &prot, &err), 0, "%s",
		     err.msg);
}

Test(gitglobal, binds_and_the_project_are_judged_by_each_others_repositories)
{
	struct ltd_err err = {0};
	char text[300];

	/* 10: another work tree's hooks path lies in a second bind. */
	no_repository();
	make_gitdir("other/.git");
	mkdirs("other/tools");
	mkdirs("data2/hooks");
	mkdirs("plain");
	snprintf(text, sizeof(text), "[core]\n\thooksPath = %s/data2/hooks\n",
		 dir);
	put("other/.git/config", text);
	project_at("plain");
	add_bind("other/tools");
	add_bind("data2");
	cr_assert_eq(ltd_gitbinds_cross_check(&p, &prot, &err), -EPERM,
		     "accepted");
	cr_assert_not_null(strstr(err.msg, "/data2"), "%s", err.msg);
	/* 11: ... or in the project: read-only there, as its own would be. */
	mkdirs("proj/hooks");
	snprintf(text, sizeof(text), "[core]\n\thooksPath = %s/proj/hooks\n",
		 dir);
	put("other/.git/config", text);
	project_at("proj");
	add_bind("other/tools");
	cr_assert_eq(ltd_gitbinds_cross_check(&p, &prot, &err), 0, "%s",
		     err.msg);
	cr_assert(has("/proj/hooks"), "the hooks path in the project");
}

/* GIT_CONFIG_GLOBAL=/dev/null is how scripts make git skip the global
 * config: an empty one, not an error. */
Test(gitglobal, a_global_config_of_dev_null_is_empty)
{
	struct ltd_err err = {0};

	no_repository();
	mkdirs("plain");
	project_at("plain");
	setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0, "%s", err.msg);
	unsetenv("GIT_CONFIG_GLOBAL");
}

/* A file bound alone in a hooks path: the bind's own words. */
Test(gitglobal, a_file_bind_in_a_hooks_path_says_bind)
{
	struct ltd_err err = {0};

	no_repository();
	mkdirs("home/.githooks");
	mkdirs("plain");
	put("home/.githooks/README", "x\n");
	put("home/.gitconfig", "[core]\n\thooksPath = ~/.githooks\n");
	project_at("plain");
	cr_assert_eq(bind_check("home/.githooks/README", &err), -EPERM,
		     "accepted");
	cr_assert_null(strstr(err.msg, "--project"), "%s", err.msg);
	cr_assert_not_null(strstr(err.msg, "--ro-bind"), "%s", err.msg);
	cr_assert_not_null(strstr(err.msg, "core.hooksPath"), "%s", err.msg);
}
