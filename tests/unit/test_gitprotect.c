// SPDX-License-Identifier: GPL-2.0-or-later
/* What git executes from or is configured by, found in a real temp repo. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base.h"
#include "gitprotect_fixture.h"
#include "protect/gitbinds.h"
#include "protect/gitprotect.h"
#include "tests/common/fixture.h"

TestSuite(gitprotect, .init = setup, .fini = teardown);

Test(gitprotect, fixed_paths_with_git_first)
{
	struct ltd_err err = {0};
	char git[256];

	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0);
	snprintf(git, sizeof(git), "%s/.git", dir);
	cr_assert_str_eq(prot.paths[0], git, ".git comes first (pinned)");
	cr_assert(has("/.git/config"));
	cr_assert(has("/.git/hooks"));
	cr_assert(has("/.git/commondir"), "commondir redirects git");
	cr_assert(has("/.git/config.worktree"),
		  "read when extensions.worktreeConfig is on");
	cr_assert(has("/.git/modules"), "submodules have configs and hooks");
	cr_assert(has("/.git/worktrees"));
	cr_assert(has("/.claude/settings.json"),
		  "Claude Code runs the hooks of a project's settings");
	cr_assert(has("/.claude/settings.local.json"));
	cr_assert(has("/.mcp.json"));
}

Test(gitprotect, config_keys_inside_the_project)
{
	struct ltd_err err = {0};

	put(".git/config", "[core]\n"
			   "\tbare = false\n"
			   "\thooksPath = .githooks\n"
			   "\tfsmonitor = \"scripts/fsmon.sh\"\n"
			   "[include]\n"
			   "\tpath = ../shared.gitconfig\n"
			   "[includeIf \"gitdir:~/work/\"]\n"
			   "\tpath = /etc/outside.gitconfig\n");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0);
	cr_assert(has("/.githooks"), "core.hooksPath, even before it exists");
	cr_assert(has("/scripts/fsmon.sh"), "core.fsmonitor as a path");
	cr_assert(has("/shared.gitconfig"), "include.path, from .git");
	for (size_t i = 0; i < prot.n; i++)
		cr_assert_null(strstr(prot.paths[i], "/etc/outside"),
			       "outside the project is not ours");
}

Test(gitprotect, escapes_by_dotdot_are_ignored)
{
	struct ltd_err err = {0};
	size_t before;

	put(".git/config", "[core]\n\thooksPath = ../../../etc/missing-x\n");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0);
	before = prot.n;
	cr_assert_eq(before, 10, "only the fixed paths: %zu", before);
}

Test(gitprotect, linked_hooks_protect_their_targets)
{
	struct ltd_err err = {0};
	char link[256];

	put("scripts/pre-commit", "#!/bin/sh\n");
	snprintf(link, sizeof(link), "%s/.git/hooks/pre-commit", dir);
	cr_assert_eq(symlink("../../scripts/pre-commit", link), 0);
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0);
	cr_assert(has("/scripts/pre-commit"));
}

Test(gitprotect, no_git_directory)
{
	struct ltd_err err = {0};
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s/.git", dir);
	cr_assert_eq(system(cmd), 0);
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0);
	cr_assert_eq(prot.n, 10, "the fixed paths, watched at exit");
}

/* A committed .gitconfig, included from .git/config, sets the hooks path:
 * the included file is read too, not only made read-only. */
Test(gitprotect, keys_in_included_files)
{
	struct ltd_err err = {0};

	put(".git/config", "[include]\n\tpath = ../.gitconfig\n");
	put(".gitconfig", "[include]\n\tpath = scripts/more.gitconfig\n"
			  "[core]\n\thooksPath = .githooks\n");
	put("scripts/more.gitconfig", "[core]\n\tfsmonitor = scripts/fsm\n");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert(has("/.gitconfig"));
	cr_assert(has("/.githooks"), "hooksPath from an included file");
	cr_assert(has("/scripts/more.gitconfig"),
		  "relative to the including file's directory");
	cr_assert(has("/scripts/fsm"), "two levels of includes");
}

/* Each line is one git reads as core.hooksPath = <dir>. */
Test(gitprotect, config_syntax_as_git_reads_it)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{"[core]\n\thooksPath = .h1 ; team hooks\n", "/.h1"},
		{"[core]\n\thooksPath = .h2 # team hooks\n", "/.h2"},
		{"[core] hooksPath = .h3\n", "/.h3"},
		{"[core]\n\thooksPath = .h\\\n4\n", "/.h4"},
		{"[core]\n\thooksPath = \".h5\" ; c\n", "/.h5"},
		{"[core]\n\thooksPath = \".h 6\"\n", "/.h 6"},
		{"[CoRe]\r\n\tHOOKSPATH=.h7\r\n", "/.h7"},
		{"[core]\n\thooksPath = \".h8;x\"\n", "/.h8;x"},
		{"[includeIf \"gitdir:~/\"]\npath = ../.h9\n", "/.h9"},
		{"\xef\xbb\xbf[core]\n\thooksPath = .h10\n", "/.h10"},
		{"[remote\r\"origin\"]\n\turl = x\n[core]\n\thooksPath = "
		 ".h11\n",
		 "/.h11"},
		{"[core]\n\thooksPath =\r.h12\n", "/.h12"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ltd_err err = {0};

		put(".git/config", cases[i].text);
		ltd_policy_free(&p);
		ltd_protected_free(&prot);
		ltd_policy_init(&p);
		p.project = strdup(dir);
		cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0, "%s",
			     err.msg);
		cr_assert(has(cases[i].want), "case %zu: %s", i, cases[i].want);
	}
}

/* ~/.gitconfig may set a relative hooks path for every repository. */
Test(gitprotect, global_config_is_read)
{
	struct ltd_err err = {0};

	put("home/.gitconfig", "[core]\n\thooksPath = .globalhooks\n");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert(has("/.globalhooks"));
}

/* husky v9: core.hooksPath = .husky/_, whose stubs run .husky/<hook>. */
Test(gitprotect, husky_scripts_beside_the_stubs)
{
	struct ltd_err err = {0};

	put(".git/config", "[core]\n\thooksPath = .husky/_\n");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert(has("/.husky/_"));
	cr_assert(has("/.husky"), "the scripts the stubs run");
}

/* A FIFO as .git/config would hang the launcher; what it sets is unknown,
 * so the run is refused, naming the file. */
Test(gitprotect, unreadable_config_fails_closed)
{
	struct ltd_err err = {0};
	char path[256];

	snprintf(path, sizeof(path), "%s/.git/config", dir);
	cr_assert_eq(mkfifo(path, 0600), 0);
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), -EINVAL);
	cr_assert_not_null(strstr(err.msg, ".git/config"), "%s", err.msg);
}

/* The bind covers a link's target; the link itself stays in the writable
 * project, where the command could re-point it.  Refused, naming it. */
Test(gitprotect, links_on_protected_paths_are_refused)
{
	struct ltd_err err = {0};
	char path[256], cmd[300];

	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert_eq(ltd_protected_check_links(&prot, &err), 0, "%s", err.msg);

	snprintf(cmd, sizeof(cmd), "mv %s/.git/hooks %s/githooks", dir, dir);
	cr_assert_eq(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/.git/hooks", dir);
	cr_assert_eq(symlink("../githooks", path), 0);
	cr_assert_eq(ltd_protected_check_links(&prot, &err), -ELOOP);
	cr_assert_not_null(strstr(err.msg, "/.git/hooks is a symbolic link"),
			   "%s", err.msg);
	cr_assert_not_null(strstr(err.msg, "--unsafe-writable-git"),
			   "the flag that exists: %s", err.msg);
}

Test(gitprotect, a_hooks_path_through_a_link_is_refused)
{
	struct ltd_err err = {0};
	char path[256];

	snprintf(path, sizeof(path), "%s/.githooks", dir);
	cr_assert_eq(symlink("scripts", path), 0);
	put(".git/config", "[core]\n\thooksPath = .githooks/\n");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert(has("/scripts"), "the target");
	cr_assert(has("/.githooks"), "and the link, by its name");
	cr_assert_eq(ltd_protected_check_links(&prot, &err), -ELOOP);
	cr_assert_not_null(strstr(err.msg, "/.githooks is a symbolic link"),
			   "%s", err.msg);
}

/* A linked worktree: .git is a file naming the repository's worktree
 * directory, whose commondir holds the config git reads. */
Test(gitprotect, linked_worktree_reads_the_common_config)
{
	struct ltd_err err = {0};
	char cmd[512];

	snprintf(cmd, sizeof(cmd),
		 "rm -rf %s/.git && mkdir -p %s/repo/.git/worktrees/wt "
		 "%s/repo/.git/worktrees/other",
		 dir, dir, dir);
	cr_assert_eq(system(cmd), 0);
	put(".git", "gitdir: repo/.git/worktrees/wt\n");
	put("repo/.git/worktrees/wt/commondir", "../..\n");
	put("repo/.git/config", "[core]\n\thooksPath = .husky/_\n");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert(has("/.husky/_"), "the common config's hooks path, here");
	cr_assert(has("/.husky"));
	cr_assert(has("/repo/.git/config"), "a repository nested in the "
					    "project: its config is read-only");
	cr_assert(has("/repo/.git/hooks"));
	cr_assert(has("/repo/.git/worktrees/wt/commondir"));
	cr_assert(has("/repo/.git/worktrees/other/commondir"),
		  "another worktree's commondir would redirect its git");
	cr_assert_not(has("/repo/.git/worktrees"),
		      "this worktree's index and HEAD are in it");
	cr_assert(has("/repo/.git/modules"));
	cr_assert(has("/repo/.git/commondir"));
}

Test(gitprotect, a_config_including_itself_is_bounded)
{
	struct ltd_err err = {0};

	put(".git/config", "[include]\n\tpath = config\n\tpath = config\n");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), -ELOOP);
	cr_assert_not_null(strstr(err.msg, "more than"), "%s", err.msg);
}

/* A bare repository as the project: its config and hooks are the host's
 * git's, as a work tree's .git/config and .git/hooks are. */
Test(gitprotect, a_bare_repository_is_protected_as_a_git_directory)
{
	struct ltd_err err = {0};

	make_gitdir("x.git");
	put("x.git/config", "[core]\n\tbare = true\n\thooksPath = myhooks\n"
			    "[include]\n\tpath = team.cfg\n");
	put("x.git/team.cfg", "[core]\n\tfsmonitor = scripts/fsm\n");
	project_at("x.git");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert(has("/x.git/config"));
	cr_assert(has("/x.git/hooks"));
	cr_assert(has("/x.git/commondir"));
	cr_assert(has("/x.git/config.worktree"));
	cr_assert(has("/x.git/modules"));
	cr_assert(has("/x.git/worktrees"));
	cr_assert(has("/x.git/myhooks"),
		  "a bare repository's hooks run in the git directory");
	cr_assert(has("/x.git/team.cfg"), "its includes");
	cr_assert(has("/x.git/scripts/fsm"), "keys in its includes");
	cr_assert_eq(ltd_protected_check_links(&prot, &err), 0, "%s", err.msg);
}

/* The .git directory of a work tree named as the project: the same, and
 * a relative hooks path is also read from the work tree above it. */
Test(gitprotect, a_dot_git_directory_as_the_project)
{
	struct ltd_err err = {0};

	make_gitdir(".git");
	put(".git/config", "[core]\n\thooksPath = .git/githooks\n");
	project_at(".git");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert(has("/.git/config"));
	cr_assert(has("/.git/hooks"));
	cr_assert(has("/.git/worktrees"));
	cr_assert(has("/.git/githooks"), "relative to the work tree above");
}

/* git's own test, is_git_directory(): only a directory git would take for
 * a repository is one; anything else is an ordinary project. */
Test(gitprotect, a_git_directory_is_recognised_as_git_does)
{
	static const struct {
		const char *head; /* NULL: HEAD a link to refs/heads/main */
		bool objects, want;
	} cases[] = {
		{"ref: refs/heads/main\n", true, true},
		{"ref:\trefs/heads/main", true, true},
		{NULL, true, true},
		{"0123456789abcdef0123456789abcdef01234567\n", true, true},
		{"ref: refs/heads/main\n", false, false},
		{"ref: heads/main\n", true, false},
		{"0123456789abcdef\n", true, false},
		{"", true, false},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ltd_err err = {0};
		char rel[32], path[300], cmd[400];

		snprintf(rel, sizeof(rel), "r%zu", i);
		make_gitdir(rel);
		snprintf(path, sizeof(path), "%s/%s/HEAD", dir, rel);
		if (cases[i].head) {
			snprintf(cmd, sizeof(cmd), "%s/HEAD", rel);
			put(cmd, cases[i].head);
		} else {
			unlink(path);
			cr_assert_eq(symlink("refs/heads/main", path), 0);
		}
		if (!cases[i].objects) {
			snprintf(cmd, sizeof(cmd), "rmdir %s/%s/objects", dir,
				 rel);
			cr_assert_eq(system(cmd), 0);
		}
		project_at(rel);
		cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0, "%s",
			     err.msg);
		snprintf(path, sizeof(path), "/%s/hooks", rel);
		cr_assert_eq(has(path), cases[i].want, "case %zu", i);
	}
}

/* A linked worktree's own git directory: HEAD here, objects and refs in
 * the common directory its commondir names. */
Test(gitprotect, a_worktree_git_directory_as_the_project)
{
	struct ltd_err err = {0};
	char cmd[512];

	make_gitdir("main.git");
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/main.git/worktrees/wt", dir);
	cr_assert_eq(system(cmd), 0);
	put("main.git/worktrees/wt/HEAD", "ref: refs/heads/wt\n");
	put("main.git/worktrees/wt/commondir", "../..\n");
	project_at("main.git/worktrees/wt");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert(has("/main.git/worktrees/wt/config.worktree"));
	cr_assert(has("/main.git/worktrees/wt/commondir"));
	cr_assert(has("/main.git/worktrees/wt/hooks"));
}

/* A project in a subdirectory of a work tree: the repository's git on the
 * host reads its config, which may name hooks or includes in the project. */

Test(gitprotect, a_project_inside_a_work_tree)
{
	struct ltd_err err = {0};

	work_tree_with_tools("[core]\n\thooksPath = tools/hooks\n"
			     "[include]\n\tpath = ../tools/team.cfg\n");
	put("repo/tools/team.cfg", "[core]\n\tfsmonitor = tools/fsm\n");
	project_at("repo/tools");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert(has("/repo/tools/hooks"), "the repository's hooks path");
	cr_assert(has("/repo/tools/team.cfg"), "an include in the project");
	cr_assert(has("/repo/tools/fsm"), "keys of that include");
	for (size_t i = 0; i < prot.n; i++)
		cr_assert_null(strstr(prot.paths[i], "/repo/.git/"),
			       "outside the project: %s", prot.paths[i]);
}

/* A project that lies in a directory git runs files from: the command
 * could write hooks there.  Refused, naming it. */
Test(gitprotect, a_project_inside_a_hooks_directory_is_refused)
{
	struct ltd_err err = {0};
	char cmd[300];

	make_gitdir("x.git");
	project_at("x.git/hooks");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), -EPERM);
	cr_assert_not_null(strstr(err.msg, "/x.git/hooks"), "%s", err.msg);

	snprintf(cmd, sizeof(cmd), "mkdir -p %s/x.git/modules/lib/sub", dir);
	cr_assert_eq(system(cmd), 0);
	project_at("x.git/modules/lib/sub");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), -EPERM,
		     "other repositories' configs and hooks");

	make_gitdir("y/.git");
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/y/.git/hooks/sub", dir);
	cr_assert_eq(system(cmd), 0);
	project_at("y/.git/hooks/sub");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), -EPERM,
		     "a work tree's too");
}

/* A hooks path that holds the project: ~/.gitconfig may name one for
 * every repository. */
Test(gitprotect, a_project_inside_a_hooks_path_is_refused)
{
	struct ltd_err err = {0};
	char text[300], cmd[300];

	snprintf(cmd, sizeof(cmd), "mkdir -p %s/githooks/sub", dir);
	cr_assert_eq(system(cmd), 0);
	snprintf(text, sizeof(text), "[core]\n\thooksPath = %s/githooks\n",
		 dir);
	put("home/.gitconfig", text);
	project_at("githooks/sub");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), -EPERM);
	cr_assert_not_null(strstr(err.msg, "/githooks"), "%s", err.msg);
}

/* Elsewhere in a git directory (objects, refs) nothing runs: no refusal. */
Test(gitprotect, a_project_in_a_git_directorys_refs_is_allowed)
{
	struct ltd_err err = {0};

	make_gitdir("x.git");
	project_at("x.git/refs");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0, "%s", err.msg);
}

static const char *const command_files[] = {
	"scripts/clean.sh",	  "scripts/smudge.sh",	 "scripts/process.sh",
	"scripts/textconv.sh",	  "scripts/diffcmd.sh",	 "scripts/external.sh",
	"scripts/merge.sh",	  "scripts/ssh.sh",	 "scripts/editor.sh",
	"scripts/pager.sh",	  "scripts/logpager.sh", "scripts/seq.sh",
	"scripts/gpg.sh",	  "scripts/gpgssh.sh",	 "scripts/cred.sh",
	"scripts/credurl.sh",	  "scripts/alias.sh",	 "scripts/fsm.sh",
	"scripts/packobjects.sh", "scripts/hook.sh",	 "filter.py",
	"scripts/difffilter.sh",  "scripts/upload.sh",	 "scripts/update.sh",
	"scripts/trailer.sh",	  "scripts/tool.sh",	 "scripts/askpass.sh",
	"scripts/compress.sh",	  "scripts/lfs-agent",	 "scripts/lfs-clean.sh",
};

/* A config naming each of them (%s: the credential helper's absolute
 * path; the format's own %% are git's). */
static const char command_config[] =
	"[filter \"strip\"]\n"
	"\tclean = ./scripts/clean.sh\n"
	"\tsmudge = \"sh scripts/smudge.sh %%f\"\n"
	"\tprocess = scripts/process.sh --long-running\n"
	"[diff \"pdf\"]\n\ttextconv = scripts/textconv.sh\n"
	"\tcommand = scripts/diffcmd.sh\n"
	"[diff]\n\texternal = scripts/external.sh\n"
	"[merge \"ours\"]\n\tdriver = scripts/merge.sh %%O %%A %%B\n"
	"[core]\n\tsshCommand = scripts/ssh.sh -v\n"
	"\teditor = \"$(git rev-parse --show-toplevel)/scripts/"
	"editor.sh\"\n"
	"\tpager = scripts/pager.sh | less\n"
	"\tfsmonitor = scripts/fsm.sh --watch\n"
	"\taskPass = scripts/askpass.sh\n"
	"[pager]\n\tlog = scripts/logpager.sh\n"
	"[sequence]\n\teditor = scripts/seq.sh\n"
	"[gpg]\n\tprogram = scripts/gpg.sh\n"
	"[gpg \"ssh\"]\n\tprogram = scripts/gpgssh.sh\n"
	"[credential]\n\thelper = !scripts/cred.sh\n"
	"[credential \"https://example.com\"]\n\thelper = %s get\n"
	"[alias]\n\tst = !cd scripts && ./alias.sh\n"
	"[uploadpack]\n\tpackObjectsHook = scripts/packobjects.sh\n"
	"[tar \"tgz\"]\n\tcommand = ./scripts/compress.sh\n"
	"[lfs \"customtransfer.agent\"]\n\tpath = scripts/lfs-agent\n"
	"[lfs \"extension.foo\"]\n\tclean = scripts/lfs-clean.sh %%f\n"
	"[hook \"lint\"]\n\tevent = pre-commit\n"
	"\tcommand = scripts/hook.sh\n"
	/* A bare word: a file where the command runs. */
	"[filter \"py\"]\n\tclean = python3 filter.py\n"
	"[interactive]\n\tdiffFilter = scripts/difffilter.sh\n"
	"[remote \"origin\"]\n\tuploadpack = scripts/upload.sh\n"
	"[submodule \"lib\"]\n\tupdate = !scripts/update.sh\n"
	"[trailer \"sign\"]\n\tcommand = scripts/trailer.sh\n"
	"[difftool \"mine\"]\n\tcmd = scripts/tool.sh \"$LOCAL\"\n";

/* A value git runs as a command line: each file it names in the project
 * (relative to the work tree's top, where git runs it) is read-only. */
Test(gitprotect, command_values_protect_the_files_they_run)
{
	struct ltd_err err = {0};
	char text[4096], abs[512];

	for (size_t i = 0; i < ARRAY_SIZE(command_files); i++)
		put(command_files[i], "#!/bin/sh\n");
	snprintf(abs, sizeof(abs), "%s/scripts/credurl.sh", dir);
	snprintf(text, sizeof(text), command_config, abs);
	put(".git/config", text);
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0, "%s", err.msg);
	for (size_t i = 0; i < ARRAY_SIZE(command_files); i++) {
		snprintf(abs, sizeof(abs), "/%s", command_files[i]);
		cr_assert(has(abs), "%s is run by git: read-only", abs);
	}
	cr_assert_eq(ltd_protected_check_links(&prot, &err), 0, "%s", err.msg);
}

/* What git does not run as a command from the project stays writable:
 * an alias without '!' (a git command), a credential helper by name
 * (git credential-NAME), a boolean, a directory named as an argument, a
 * key that is no command. */
Test(gitprotect, values_that_are_no_command_protect_nothing)
{
	static const char *const files[] = {
		"scripts/notrun.sh", "store", "true", "scripts/msg.txt",
		"scripts/other.sh",
	};
	struct ltd_err err = {0};
	char path[512];

	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		put(files[i], "x\n");
	put(".git/config", "[alias]\n\tx = log scripts/notrun.sh\n"
			   "[credential]\n\thelper = store\n"
			   "[pager]\n\tlog = true\n"
			   "[core]\n\tfsmonitor = true\n"
			   "[diff \"x\"]\n\ttextconv = cat scripts/\n"
			   "[commit]\n\ttemplate = scripts/msg.txt\n"
			   "[user]\n\tname = scripts/other.sh\n");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0, "%s", err.msg);
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "/%s", files[i]);
		cr_assert_not(has(path), "%s is not run by git", path);
	}
	cr_assert_not(has("/scripts"), "a directory the command works in");
}

/* The global config may name a filter for every repository: its relative
 * path is this work tree's. */
Test(gitprotect, command_values_in_the_global_config)
{
	struct ltd_err err = {0};

	put("scripts/clean.sh", "#!/bin/sh\n");
	put("home/.gitconfig", "[filter \"strip\"]\n"
			       "\tclean = ./scripts/clean.sh\n");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert(has("/scripts/clean.sh"));
}

/* A repository above the project runs its commands at its own top: a
 * relative path there names a file in the project. */
Test(gitprotect, command_values_of_an_enclosing_repository)
{
	struct ltd_err err = {0};

	work_tree_with_tools("[filter \"strip\"]\n\tclean = tools/clean.sh\n");
	put("repo/tools/clean.sh", "#!/bin/sh\n");
	project_at("repo/tools");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert(has("/repo/tools/clean.sh"));
}

/* A command through a link in the project: the cage could re-point the
 * link, so the run is refused, as for a hooks path through a link. */
Test(gitprotect, a_command_through_a_link_is_refused)
{
	struct ltd_err err = {0};
	char path[256];

	put("scripts/clean.sh", "#!/bin/sh\n");
	snprintf(path, sizeof(path), "%s/linked", dir);
	cr_assert_eq(symlink("scripts", path), 0);
	put(".git/config", "[filter \"strip\"]\n\tclean = linked/clean.sh\n");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert_eq(ltd_protected_check_links(&prot, &err), -ELOOP);
	cr_assert_not_null(strstr(err.msg, "/linked is a symbolic link"), "%s",
			   err.msg);
}

/* What a command names through a variable cannot be known: said. */
Test(gitprotect, an_unknowable_command_path_is_said)
{
	struct ltd_err err = {0};
	bool said = false;

	put(".git/config", "[filter \"strip\"]\n\tclean = \"$TOOLS\"/x.sh\n");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0, "%s", err.msg);
	for (size_t i = 0; i < prot.n_warnings; i++)
		said |= strstr(prot.warnings[i], "$TOOLS/x.sh") != NULL &&
			strstr(prot.warnings[i], ".git/config") != NULL;
	cr_assert(said, "a warning names the config and the path");
}

/* A submodule's config (.git/modules/NAME/config) names files of its work
 * tree (the submodule's directory): they run at the host's `git -C sub
 * add` or commit, so they are read-only too; nested submodules as well. */
Test(gitprotect, submodule_configs_are_read)
{
	struct ltd_err err = {0};
	char path[256];

	mkdir(strcat(strcpy(path, dir), "/.git/modules"), 0755);
	mkdir(strcat(strcpy(path, dir), "/.git/modules/sub"), 0755);
	mkdir(strcat(strcpy(path, dir), "/.git/modules/sub/modules"), 0755);
	mkdir(strcat(strcpy(path, dir), "/.git/modules/sub/modules/deep"),
	      0755);
	mkdir(strcat(strcpy(path, dir), "/sub"), 0755);
	mkdir(strcat(strcpy(path, dir), "/sub/deep"), 0755);
	put(".git/modules/sub/HEAD", "ref: refs/heads/main\n");
	put(".git/modules/sub/config",
	    "[core]\n\tworktree = ../../../sub\n\thooksPath = .githooks\n"
	    "[filter \"strip\"]\n\tclean = ./clean.sh\n");
	put(".git/modules/sub/modules/deep/HEAD", "ref: refs/heads/main\n");
	put(".git/modules/sub/modules/deep/config",
	    "[diff \"x\"]\n\ttextconv = tools/conv.sh\n");
	put("sub/clean.sh", "#!/bin/sh\n");
	cr_assert_eq(ltd_gitprotect_project(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert(has("/sub/clean.sh"), "a submodule's filter script");
	cr_assert(has("/sub/.githooks"), "a submodule's hooks path");
	cr_assert(has("/sub/deep/tools/conv.sh"), "a nested submodule's");
}
