// SPDX-License-Identifier: GPL-2.0-or-later
/* Git repositories planted in a project: the attacks two reviews tried on
 * the exit walk's report.  The fixture is test_repos.c's. */
#include "repos_fixture.h"

TestSuite(repos_attacks, .init = setup, .fini = teardown);

/* ---- a review's attacks ------------------------------------------------ */

/* git asks only that objects and refs be reachable: a link, or refs an
 * executable file, still make a git directory. */
Test(repos_attacks, objects_and_refs_of_any_type_make_a_git_directory)
{
	char path[512];
	char *r;

	gitdir("a/.git");
	put("a/.git/config", "[core]\n\tfsmonitor = ./x\n");
	snprintf(path, sizeof(path), "%s/a/.git/objects", proj);
	fx_rm_rf(path);
	cr_assert_eq(symlink("o", path), 0);
	gitdir("b/.git");
	put("b/.git/config", "[core]\n\tfsmonitor = ./x\n");
	snprintf(path, sizeof(path), "%s/b/.git/refs", proj);
	fx_rm_rf(path);
	put("b/.git/refs", "x");
	r = report(all);
	assert_lines(r, 2);
	cr_assert_not_null(strstr(r, "/proj/a/.git/config"), "%s", r);
	cr_assert_not_null(strstr(r, "/proj/b/.git/config"), "%s", r);
	free(r);
}

/* Planted over two runs: a config written while the directory was no git
 * directory yet (no HEAD), made one by the second run.  The second run's
 * change is to HEAD; the config, older, must be read then. */
Test(repos_attacks,
     a_config_older_than_the_run_is_read_when_the_repository_changed)
{
	struct timespec mid;
	char *r;

	gitdir("b/.git");
	put("b/.git/config", "[core]\n\tfsmonitor = ./x\n");
	put("old/.git/config", "[core]\n\tfsmonitor = ./x\n");
	put("old/.git/HEAD", "ref: refs/heads/main\n");
	put("old/.git/refs/x", "");
	put("old/.git/objects/x", "");
	mid = mark();
	put("b/.git/HEAD", "ref: refs/heads/main\n");
	r = report(mid);
	assert_lines(r, 1);
	cr_assert_not_null(strstr(r, "/proj/b/.git/config"), "%s", r);
	cr_assert_not_null(strstr(r, "core.fsmonitor"), "%s", r);
	free(r);
}

/* What a config includes is configuration too. */
Test(repos_attacks, an_included_file_that_changed_is_read)
{
	struct timespec mid;
	char *r;

	gitdir("n/.git");
	put("n/.git/config", "[include]\n\tpath = ../../shared.cfg\n");
	put("shared.cfg", "[user]\n\tname = x\n");
	mid = mark();
	put("shared.cfg", "[core]\n\tpager = sh ./p\n");
	r = report(mid);
	assert_lines(r, 1);
	cr_assert_not_null(strstr(r, "core.pager"), "%s", r);
	free(r);
}

/* A hook that is a link into the project, whose target changed; and a
 * core.hooksPath directory of the repository's whose hook changed. */
Test(repos_attacks, hooks_reached_through_a_link_or_a_hooks_path_are_judged)
{
	struct timespec mid;
	char path[512];
	char *r;

	gitdir("n/.git");
	put("scripts/post-checkout", "#!/bin/sh\n");
	snprintf(path, sizeof(path), "%s/n/.git/hooks/post-checkout", proj);
	cr_assert_eq(symlink("../../../scripts/post-checkout", path), 0);
	gitdir("m/.git");
	put("m/.git/config", "[core]\n\thooksPath = .husky\n");
	put("m/.husky/pre-commit", "#!/bin/sh\n");
	mid = mark();
	put("scripts/post-checkout", "#!/bin/sh\ntouch /tmp/x\n");
	put("m/.husky/pre-commit", "#!/bin/sh\ntouch /tmp/y\n");
	r = report(mid);
	cr_assert_not_null(strstr(r, "/proj/n/.git/hooks/post-checkout"), "%s",
			   r);
	cr_assert_not_null(strstr(r, "/proj/m/.husky/pre-commit"), "%s", r);
	assert_lines(r, 2);
	free(r);
}

/* git's helpers and transports that run a program of the project's. */
Test(repos_attacks, helpers_and_transports_are_keys_that_run)
{
	const char *keys[][2] = {
		{"[credential]\n\thelper = h/run\n", "credential.helper"},
		{"[remote \"o\"]\n\tvcs = h/run\n", "vcs"},
		{"[remote \"o\"]\n\turl = ext::sh -c touch% x\n", "url"},
		{"[url \"ext::sh -c x\"]\n\tinsteadOf = https://\n",
		 "insteadOf"},
		{"[protocol \"ext\"]\n\tallow = always\n", "allow"},
		{"[protocol]\n\tallow = always\n", "allow"},
	};
	char rel[64], *r;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		snprintf(rel, sizeof(rel), "r%zu/.git", i);
		gitdir(rel);
		snprintf(rel, sizeof(rel), "r%zu/.git/config", i);
		put(rel, keys[i][0]);
	}
	r = report(all);
	assert_lines(r, sizeof(keys) / sizeof(keys[0]));
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		cr_assert_not_null(strstr(r, keys[i][1]), "%s: %s", keys[i][1],
				   r);
	free(r);
	/* A helper by name runs git-credential-NAME from PATH: not said. */
	gitdir("plain/.git");
	put("plain/.git/config",
	    "[credential]\n\thelper = store\n[remote \"o\"]\n\turl = "
	    "https://example.invalid/x\n");
	r = report(all);
	cr_assert_null(strstr(r, "/proj/plain/"), "%s", r);
	free(r);
}

/* A .git file read as git reads it: the whole file but its trailing line
 * ends; a path through a link; a target that is missing. */
Test(repos_attacks, a_git_file_is_read_as_git_reads_it)
{
	char path[512], dir2[512];
	char *r;

	/* "gitdir: a\n/../../.." with a directory named "a\n". */
	put("x/a\n/keep", "");
	put("x/.git", "gitdir: a\n/../../../outside\n");
	/* Through a link: l -> elsewhere, "gitdir: l/..". */
	snprintf(dir2, sizeof(dir2), "%s/elsewhere/info", dir);
	cr_assert_eq(system(strcat(strcpy((char[600]){0}, "mkdir -p "), dir2)),
		     0);
	put("y/keep", "");
	snprintf(path, sizeof(path), "%s/y/l", proj);
	cr_assert_eq(symlink(dir2, path), 0);
	put("y/.git", "gitdir: l/..\n");
	put("z/.git", "gitdir: ../nothing-here\n");
	r = report(all);
	cr_assert_not_null(strstr(r, "/proj/x/.git"), "%s", r);
	cr_assert_not_null(strstr(r, "/proj/y/.git"), "%s", r);
	cr_assert_not_null(strstr(r, "/proj/z/.git"), "%s", r);
	assert_lines(r, 3);
	free(r);
}

/* The user's own directory the command made unlistable is said on every
 * run, not only the one that made it so. */
Test(repos_attacks, an_unreadable_directory_of_the_users_is_said_every_run)
{
	char path[512];
	char *r;

	put("c/sub/x", "");
	snprintf(path, sizeof(path), "%s/c", proj);
	cr_assert_eq(chmod(path, 0300), 0);
	if (access(path, R_OK) == 0) {
		/* A skipped test's fini does not run. */
		fx_rm_rf(dir);
		cr_skip_test("running with CAP_DAC_OVERRIDE: nothing is "
			     "unreadable");
	}
	r = report(none);
	chmod(path, 0755);
	assert_lines(r, 1);
	cr_assert_not_null(strstr(r, "/proj/c:"), "%s", r);
	free(r);
}

/* The project made a git directory during the run: judged unless it was
 * one when the run started (then it was protected). */
Test(repos_attacks, a_root_made_a_git_directory_is_judged)
{
	char *r;

	root_protected = false;
	gitdir(".");
	put("config", "[core]\n\tfsmonitor = ./x\n");
	r = report(all);
	assert_lines(r, 1);
	cr_assert_not_null(strstr(r, "/proj/config"), "%s", r);
	free(r);
}

/* A flood of hooks cannot scroll the rest away. */
Test(repos_attacks, warnings_are_capped)
{
	char rel[64], *r;

	gitdir("f/.git");
	for (int i = 0; i < 500; i++) {
		snprintf(rel, sizeof(rel), "f/.git/hooks/h%03d", i);
		put(rel, "#!/bin/sh\n");
	}
	gitdir("g/.git");
	put("g/.git/config", "[core]\n\tfsmonitor = ./x\n");
	r = report(all);
	cr_assert_not_null(strstr(r, "/proj/g/.git/config"), "%s", r);
	cr_assert_not_null(strstr(r, "more"), "%s", r);
	cr_assert_lt(strlen(r), 20000, "%zu bytes", strlen(r));
	free(r);
}

/* ---- the second review's ---------------------------------------------- */

/* hooks/ a link to a directory in the project (ln -s ../githooks): the
 * hooks there are judged. */
Test(repos_attacks, hooks_behind_a_hooks_link_are_judged)
{
	struct timespec mid;
	char path[512];
	char *r;

	gitdir("t/.git");
	snprintf(path, sizeof(path), "%s/t/.git/hooks", proj);
	fx_rm_rf(path);
	cr_assert_eq(symlink("../githooks", path), 0);
	put("t/githooks/pre-commit", "#!/bin/sh\n");
	mid = mark();
	put("t/githooks/pre-commit", "#!/bin/sh\ntouch /tmp/x\n");
	r = report(mid);
	assert_lines(r, 1);
	cr_assert_not_null(strstr(r, "/proj/t/githooks/pre-commit"), "%s", r);
	free(r);
}

/* What git follows through a link ltd-native will not follow: said on
 * every run (the link may be the command's). */
Test(repos_attacks, hooks_hooks_paths_and_includes_through_a_link_are_said)
{
	char path[512];
	char *r;

	/* A hook link whose target's directory is now a link. */
	gitdir("a/.git");
	put("a/evil/pre-commit", "#!/bin/sh\n");
	snprintf(path, sizeof(path), "%s/a/scripts", proj);
	cr_assert_eq(symlink("evil", path), 0);
	snprintf(path, sizeof(path), "%s/a/.git/hooks/pre-commit", proj);
	cr_assert_eq(symlink("../../scripts/pre-commit", path), 0);
	/* A hooks path that is a link. */
	gitdir("b/.git");
	put("b/.git/config", "[core]\n\thooksPath = .githooks\n");
	put("b/evil/pre-commit", "#!/bin/sh\n");
	snprintf(path, sizeof(path), "%s/b/.githooks", proj);
	cr_assert_eq(symlink("evil", path), 0);
	/* An include that is a link. */
	gitdir("c/.git");
	put("c/.git/config", "[include]\n\tpath = ../shared.cfg\n");
	put("c/evil.cfg", "[core]\n\tfsmonitor = ./x\n");
	snprintf(path, sizeof(path), "%s/c/shared.cfg", proj);
	cr_assert_eq(symlink("evil.cfg", path), 0);
	r = report(none);
	cr_assert_not_null(strstr(r, "/proj/a/.git/hooks/pre-commit"), "%s", r);
	cr_assert_not_null(strstr(r, "/proj/b/.githooks"), "%s", r);
	cr_assert_not_null(strstr(r, "/proj/c/.git/config"), "%s", r);
	assert_lines(r, 3);
	free(r);
}

/* husky: core.hooksPath .husky/_ runs the scripts in .husky. */
Test(repos_attacks, huskys_scripts_are_judged)
{
	struct timespec mid;
	char *r;

	gitdir("h/.git");
	put("h/.git/config", "[core]\n\thooksPath = .husky/_\n");
	put("h/.husky/_/pre-commit", "#!/bin/sh\n. \"$(dirname \"$0\")/h\"\n");
	put("h/.husky/pre-commit", "npm test\n");
	mid = mark();
	put("h/.husky/pre-commit", "touch /tmp/x\n");
	r = report(mid);
	assert_lines(r, 1);
	cr_assert_not_null(strstr(r, "/proj/h/.husky/pre-commit"), "%s", r);
	free(r);
}

/* --review: only the upper directory is walked, shown as the project, and
 * a repository is told by what the upper and the project hold together:
 * the cage changed one file of the user's repository (its config, a
 * hook), or made a whole one. */
Test(repos_attacks, review_upper_walked_as_the_project)
{
	char upper[128], p[1024], *text = NULL;
	size_t len = 0;
	FILE *out;

	gitdir("mine/.git"); /* the user's, in the project (lower) */
	snprintf(upper, sizeof(upper), "%s/upper", dir);
	snprintf(p, sizeof(p), "mkdir -p %s/mine/.git/hooks %s/new", upper,
		 upper);
	cr_assert_eq(system(p), 0);
	/* git as a hook's environment would not run it (git rebase --exec
	 * exports GIT_DIR: git init would then write the enclosing
	 * repository's config). */
	snprintf(p, sizeof(p),
		 "printf '[core]\\n\\tfsmonitor = ./x\\n' > %s/mine/.git/config"
		 " && printf '#!/bin/sh\\n' > %s/mine/.git/hooks/post-checkout"
		 " && cd %s/new && unset GIT_DIR GIT_WORK_TREE GIT_COMMON_DIR"
		 " GIT_INDEX_FILE && git init -q . && git config alias.x '!y'",
		 upper, upper, upper);
	cr_assert_eq(system(p), 0);
	out = open_memstream(&text, &len);
	ltd_repos_report_upper(out, upper, proj, LTD_REPOS_SKIP_ROOT_GIT, all,
			       NULL);
	fclose(out);
	snprintf(p, sizeof(p), "%s/mine/.git/config: ", proj);
	cr_assert_not_null(strstr(text, p), "%s", text);
	cr_assert_not_null(strstr(text, "core.fsmonitor"), "%s", text);
	snprintf(p, sizeof(p), "%s/mine/.git/hooks/post-checkout", proj);
	cr_assert_not_null(strstr(text, p), "%s", text);
	snprintf(p, sizeof(p), "%s/new/.git/config: ", proj);
	cr_assert_not_null(strstr(text, p), "%s", text);
	cr_assert_null(strstr(text, upper), "the upper's own path: %s", text);
	free(text);
}

/* A linked worktree's git directory takes its configuration and hooks
 * from the directory its commondir names, which git does not need to
 * hold a HEAD: the command moved the main repository's HEAD away (no git
 * directory to the walk) and wrote its config, or a hook, there.  The
 * attacker's review of the walk's index, with a real worktree. */
static int rename_in(const char *from, const char *to)
{
	char a[512], b[512];

	snprintf(a, sizeof(a), "%s/%s", proj, from);
	snprintf(b, sizeof(b), "%s/%s", proj, to);
	return rename(a, b);
}

Test(repos_attacks, the_common_directory_of_a_worktree_is_judged)
{
	struct timespec mid;
	char *r;

	gitdir("lib/.git");
	gitdir("lib/.git/worktrees/wt");
	put("lib/.git/worktrees/wt/commondir", "../..\n");
	put("lib/.git/worktrees/wt/gitdir", "../../../../wt/.git\n");
	put("wt/.git", "gitdir: ../lib/.git/worktrees/wt\n");
	put("lib/.git/hooks/README", "");
	mid = mark();
	cr_assert_eq(rename_in("lib/.git/HEAD", "lib/.git/HEAD.orig"), 0);
	put("lib/.git/config", "[core]\n\tfsmonitor = touch PWNED\n");
	put("lib/.git/hooks/post-checkout", "#!/bin/sh\ntouch PWNED\n");
	r = report(mid);
	cr_assert_not_null(strstr(r, "/proj/lib/.git/config"), "%s", r);
	cr_assert_not_null(strstr(r, "core.fsmonitor"), "%s", r);
	cr_assert_not_null(strstr(r, "/proj/lib/.git/hooks/post-checkout"),
			   "%s", r);
	free(r);
	/* A commondir through a link: git follows it, the walk does not;
	 * said, on every run, as a hooks path through a link is. */
	put("c/wt/HEAD", "ref: refs/heads/main\n");
	put("c/wt/commondir", "../link\n");
	put("c/real/config", "[core]\n\tfsmonitor = touch PWNED\n");
	{
		char l[512];

		snprintf(l, sizeof(l), "%s/c/link", proj);
		cr_assert_eq(symlink("real", l), 0);
	}
	r = report(mid);
	cr_assert_not_null(strstr(r, "/proj/c/link: git follows this "
				     "worktree's commondir through a symbolic"),
			   "%s", r);
	free(r);
	{
		char c[512];

		snprintf(c, sizeof(c), "%s/c", proj);
		fx_rm_rf(c);
	}
	/* One whose HEAD is there is the walk's own: said once, not twice. */
	cr_assert_eq(rename_in("lib/.git/HEAD.orig", "lib/.git/HEAD"), 0);
	r = report(mid);
	cr_assert_not_null(strstr(r, "/proj/lib/.git/config"), "%s", r);
	cr_assert_null(strstr(strstr(r, "/proj/lib/.git/config") + 1,
			      "/proj/lib/.git/config: "),
		       "%s", r);
	free(r);
}

/* A relative core.hooksPath is taken from the work tree git runs in:
 * wherever a .git file names the git directory (a linked worktree's, a
 * submodule's, or one the command writes: a new work tree top), from
 * the git directory itself (push hooks), and from core.worktree; also a
 * hooks path set in a linked worktree's config.worktree.  The hooks the
 * command plants there (husky's .husky/_, set long before the run) are
 * judged.  The second and third attackers' reviews. */
Test(repos_attacks, hooks_of_every_work_tree_of_a_relative_hooks_path)
{
	struct timespec mid;
	char text[600];
	char *r;

	gitdir("lib/.git");
	put("lib/.git/config", "[core]\n\thooksPath = .husky/_\n"
			       "[extensions]\n\tworktreeConfig = true\n");
	gitdir("lib/.git/worktrees/wt");
	put("lib/.git/worktrees/wt/commondir", "../..\n");
	snprintf(text, sizeof(text), "%s/wt/.git\n", proj);
	put("lib/.git/worktrees/wt/gitdir", text);
	snprintf(text, sizeof(text), "gitdir: %s/lib/.git/worktrees/wt\n",
		 proj);
	put("wt/.git", text);
	gitdir("lib/.git/worktrees/own");
	put("lib/.git/worktrees/own/commondir", "../..\n");
	put("lib/.git/worktrees/own/config.worktree",
	    "[core]\n\thooksPath = .own\n");
	put("own/.git", "gitdir: ../lib/.git/worktrees/own\n");
	gitdir("lib/.git/modules/s");
	put("lib/.git/modules/s/config",
	    "[core]\n\tworktree = ../../../s\n\thooksPath = .husky/_\n");
	put("lib/s/.git", "gitdir: ../.git/modules/s\n");
	put("lib/src/x", "");
	mid = mark();
	put("wt/.husky/_/pre-commit", "#!/bin/sh\ntouch PWNED\n");
	put("own/.own/pre-commit", "#!/bin/sh\ntouch PWNED\n");
	put("lib/s/.husky/_/pre-commit", "#!/bin/sh\ntouch PWNED\n");
	put("lib/.git/.husky/_/pre-receive", "#!/bin/sh\ntouch PWNED\n");
	/* A new top: a .git file naming the repository, its hooks beside. */
	put("lib/src/.git", "gitdir: ../.git\n");
	put("lib/src/.husky/_/pre-commit", "#!/bin/sh\ntouch PWNED\n");
	r = report(mid);
	cr_assert_not_null(strstr(r, "/proj/wt/.husky/_/pre-commit: "), "%s",
			   r);
	cr_assert_not_null(strstr(r, "/proj/own/.own/pre-commit: "), "%s", r);
	cr_assert_not_null(strstr(r, "/proj/lib/s/.husky/_/pre-commit: "), "%s",
			   r);
	cr_assert_not_null(strstr(r, "/proj/lib/.git/.husky/_/pre-receive: "),
			   "%s", r);
	cr_assert_not_null(strstr(r, "/proj/lib/src/.husky/_/pre-commit: "),
			   "%s", r);
	free(r);
}

/* The project's own repository (its .git kept read-only, not walked)
 * with a linked worktree in the project, as .worktrees/feat: the
 * worktree's hooks under the project's relative core.hooksPath. */
Test(repos_attacks, hooks_of_a_worktree_of_the_projects_own_repository)
{
	struct timespec mid;
	char *r;

	gitdir(".git");
	put(".git/config", "[core]\n\thooksPath = .husky/_\n");
	gitdir(".git/worktrees/feat");
	put(".git/worktrees/feat/commondir", "../..\n");
	put(".worktrees/feat/.git", "gitdir: ../../.git/worktrees/feat\n");
	put(".worktrees/feat/.husky/_/h", "");
	mid = mark();
	put(".worktrees/feat/.husky/_/pre-commit", "#!/bin/sh\ntouch PWNED\n");
	r = report(mid);
	cr_assert_not_null(
		strstr(r, "/proj/.worktrees/feat/.husky/_/pre-commit: "), "%s",
		r);
	free(r);
}

/* A link the command puts on the way a worktree's .git file names (the
 * main repository's directory, or its worktrees/): git follows it, the
 * walk does not; said on every run, the .git file unchanged.  The fourth
 * attacker's review. */
Test(repos_attacks, a_link_on_the_way_of_a_git_file_is_said)
{
	struct timespec mid;
	char a[512], b[512];
	char *r;

	gitdir("lib/.git");
	put("lib/.git/config", "[core]\n\thooksPath = .husky/_\n");
	gitdir("lib/.git/worktrees/wt");
	put("lib/.git/worktrees/wt/commondir", "../..\n");
	put("wt/.git", "gitdir: ../lib/.git/worktrees/wt\n");
	mid = mark();
	snprintf(a, sizeof(a), "%s/lib", proj);
	snprintf(b, sizeof(b), "%s/lib2", proj);
	cr_assert_eq(rename(a, b), 0);
	cr_assert_eq(symlink("lib2", a), 0);
	put("wt/.husky/_/pre-commit", "#!/bin/sh\ntouch PWNED\n");
	r = report(mid);
	cr_assert_not_null(strstr(r, "/proj/wt/.git: git follows this .git "
				     "file through a symbolic link"),
			   "%s", r);
	free(r);
}

/* The user's home at dir/home, with @gitconfig as its ~/.gitconfig and
 * no system config. */
static void global_config(const char *gitconfig)
{
	char home[600];

	snprintf(home, sizeof(home), "%s/home", dir);
	put("../home/.gitconfig", gitconfig);
	cr_assert_eq(setenv("HOME", home, 1), 0);
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("GIT_CONFIG_GLOBAL");
	cr_assert_eq(setenv("GIT_CONFIG_NOSYSTEM", "1", 1), 0);
}

/* A relative core.hooksPath of the user's global config holds for every
 * repository whose own config sets none: a nested repository's hooks
 * under it, planted by the command, are judged (the fourth attacker's
 * review: git commit there ran one, unseen). */
Test(repos_attacks, a_relative_global_hooks_path_holds_for_nested_ones)
{
	struct timespec mid;
	char *r;

	global_config("[core]\n\thooksPath = .githooks\n");
	gitdir("lib/.git");
	put("lib/.githooks/README", "");
	put("own/.git/HEAD", "ref: refs/heads/main\n");
	gitdir("own/.git");
	put("own/.git/config", "[core]\n\thooksPath = .mine\n");
	mid = mark();
	put("lib/.githooks/pre-commit", "#!/bin/sh\ntouch PWNED\n");
	put("own/.githooks/pre-commit", "#!/bin/sh\ntouch PWNED\n");
	r = report(mid);
	cr_assert_not_null(strstr(r, "/proj/lib/.githooks/pre-commit: "), "%s",
			   r);
	/* One that sets its own is not taken from the global one. */
	cr_assert_null(strstr(r, "/proj/own/.githooks/pre-commit"), "%s", r);
	free(r);
}

/* Every relative core.hooksPath the global configs set is judged, not
 * only the last: an includeIf is followed whatever its condition, and
 * one that sets an absolute path (or another relative one) must not hide
 * the relative default (the fourth attacker's review, left in 0156). */
Test(repos_attacks, every_relative_global_hooks_path_is_judged)
{
	struct timespec mid;
	char *r;

	global_config("[core]\n\thooksPath = .githooks\n"
		      "[includeIf \"gitdir:/nowhere/either/\"]\n"
		      "\tpath = rel.cfg\n"
		      "[includeIf \"gitdir:/nowhere/\"]\n\tpath = abs.cfg\n");
	put("../home/abs.cfg", "[core]\n\thooksPath = /abs/hooks\n");
	put("../home/rel.cfg", "[core]\n\thooksPath = .husky/_\n");
	gitdir("lib/.git");
	mid = mark();
	put("lib/.githooks/pre-commit", "#!/bin/sh\ntouch PWNED\n");
	put("lib/.husky/_/pre-commit", "#!/bin/sh\ntouch PWNED\n");
	r = report(mid);
	assert_said(r, "lib/.githooks/pre-commit");
	assert_said(r, "lib/.husky/_/pre-commit");
	free(r);
}

/* More relative hooks paths than are judged: said when a repository that
 * sets none is met (its hooks could lie under one not looked at); a walk
 * that meets no repository reads no configuration and says nothing of
 * them (they are read when the first repository needs them). */
Test(repos_attacks, hooks_paths_past_the_limit_are_said_where_they_count)
{
	char text[1024] = "[core]\n";
	struct timespec mid;
	char *r;

	for (int i = 0; i < 10; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text),
			 "\thooksPath = .h%d\n", i);
	global_config(text);
	put("docs/README", "");
	mid = mark();
	put("docs/new.md", "");
	r = report(mid);
	cr_assert_null(strstr(r, "hooks under every core.hooksPath"), "%s", r);
	free(r);
	gitdir("lib/.git");
	mid = mark();
	put("lib/.h0/pre-commit", "#!/bin/sh\n");
	r = report(mid);
	cr_assert_not_null(strstr(r, "did not look for hooks under every "
				     "core.hooksPath"),
			   "%s", r);
	cr_assert_not_null(strstr(r, "/proj/lib/.h0/pre-commit: "), "%s", r);
	free(r);
}

/* Past eight relative hooks paths, or a hundred files the global configs
 * include, the walk says once that it did not look for all: it judges
 * the first eight, and drops none silently. */
Test(repos_attacks, global_hooks_paths_past_the_bound_are_said)
{
	static const char said[] = "ltd-native did not look for hooks under "
				   "every core.hooksPath";
	char text[512] = "[core]\n";
	struct timespec mid;
	char *r;

	for (int i = 1; i <= 9; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text),
			 "\thooksPath = .h%d\n", i);
	global_config(text);
	gitdir("lib/.git");
	gitdir("other/.git");
	mid = mark();
	put("lib/.h1/pre-commit", "#!/bin/sh\ntouch PWNED\n");
	r = report(mid);
	assert_said(r, "lib/.h1/pre-commit");
	cr_assert_not_null(strstr(r, said), "%s", r);
	cr_assert_null(strstr(strstr(r, said) + 1, said), "said twice: %s", r);
	free(r);
	/* A config that includes itself twice: 2^10 files to git's depth. */
	global_config("[include]\n\tpath = .gitconfig\n\tpath = .gitconfig\n");
	r = report(mid);
	cr_assert_not_null(strstr(r, said), "%s", r);
	free(r);
}

/* A commondir too long to open (past 8 KiB with its base) names no
 * leftover place: open_in_root() returned before it filled the name
 * (the cage view of this change). */
Test(repos_attacks, a_commondir_too_long_names_no_other_place)
{
	static char text[9000];
	struct timespec mid;
	char *r;

	gitdir("lib/.git");
	put("lib/.git/hooks/x", "");
	gitdir("lib/.git/worktrees/wt");
	mid = mark();
	for (size_t i = 0; i < 4300; i++)
		memcpy(text + 2 * i, "a/", 2);
	strcpy(text + 8600, "x\n");
	put("lib/.git/worktrees/wt/commondir", text);
	r = report(mid);
	cr_assert_null(strstr(r, "/hooks"), "%s", r);
	cr_assert_not_null(strstr(r, "/proj/lib/.git/worktrees/wt/commondir: "
				     "git follows this worktree's commondir"),
			   "%s", r);
	free(r);
}
