// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The gate: binds of places the host later runs or reads keys from are
 * refused writable unless their --unsafe-... flag waives them, and the
 * policy records what was waived.  Everything in a temporary directory.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base.h"
#include "policy_fixture.h"
#include "runtime/hostuser.h"

TestSuite(gate, .init = setup, .fini = teardown);

Test(gate, each_class_refused_then_waived)
{
	static const struct {
		const char *rel; /* under the home when it starts with '/' */
		unsigned class;
		const char *risk;
	} cases[] = {
		{"", LTD_UNSAFE_BIND_HOME, "whole house"},
		{"/.ssh", LTD_UNSAFE_BIND_CREDENTIALS, "read and use"},
		{"/.aws/credentials", LTD_UNSAFE_BIND_CREDENTIALS, "read"},
		{"/.config/ltd-native", LTD_UNSAFE_BIND_CREDENTIALS, "widen"},
		{"@/run/user/4242/bus", LTD_UNSAFE_BIND_SESSION, "outside"},
		{"@/run/docker.sock", LTD_UNSAFE_BIND_DOCKER, "root"},
		{"@/sys/kernel", LTD_UNSAFE_BIND_KERNEL, "kernel"},
		{"@/", LTD_UNSAFE_BIND_HOME, "whole house"},
	};
	char home[192], path[256];

	snprintf(home, sizeof(home), "%s/home", dir);
	mkdir(home, 0700);
	fake_home(home, home);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (cases[i].rel[0] == '@')
			snprintf(path, sizeof(path), "%s", cases[i].rel + 1);
		else
			snprintf(path, sizeof(path), "%s%s", home,
				 cases[i].rel);
		/* The home read-only: writable it also holds what the host
		 * runs code from and ltd-native's policy (gated below). */
		bool writable = cases[i].class != LTD_UNSAFE_BIND_HOME;

		p.unsafe = 0;
		cr_assert_eq(ltd_policy_gate(&p, "--bind", path, writable,
					     p.unsafe, &err),
			     -EPERM, "%s", path);
		cr_assert(strstr(err.msg, cases[i].risk), "%s", err.msg);
		cr_assert(strstr(err.msg, ltd_unsafe_flag(cases[i].class)),
			  "%s", err.msg);
		if (strcmp(path, "/") == 0)
			continue; /* "/" also holds everything else */
		p.unsafe = cases[i].class;
		cr_assert_eq(ltd_policy_gate(&p, "--bind", path, writable,
					     p.unsafe, &err),
			     0, "%s: %s", path, err.msg);
		cr_assert_gt(p.n_waived, 0);
		cr_assert(strstr(p.waived[p.n_waived - 1],
				 ltd_unsafe_flag(cases[i].class)));
	}
}

Test(gate, a_parent_that_holds_a_key_store)
{
	char home[192], ssh[224], sub[224];

	snprintf(home, sizeof(home), "%s/home", dir);
	snprintf(ssh, sizeof(ssh), "%s/.ssh", home);
	snprintf(sub, sizeof(sub), "%s/.config", home);
	mkdir(home, 0700);
	fake_home(home, home);
	cr_assert_eq(ltd_policy_gate(&p, "--ro-bind", sub, false, 0, &err), 0,
		     "~/.config does not hold ~/.config/gh when it is absent");
	snprintf(sub, sizeof(sub), "%s/.config/gh", home);
	mkdir(ssh, 0700);
	cr_assert_eq(ltd_policy_gate(&p, "--bind", "/nonexistent-ltd/x", true,
				     0, &err),
		     0);
}

/* Writable, a directory that could hold what the host runs code from, or
 * ltd-native's own policy, is gated before either exists (the cage would
 * make it: ~/.config/git/config, ~/.config/ltd-native/policy). */
Test(gate, a_writable_parent_before_its_child_exists)
{
	char home[192], path[256];

	snprintf(home, sizeof(home), "%s/home", dir);
	mkdir(home, 0700);
	snprintf(path, sizeof(path), "%s/.config", home);
	mkdir(path, 0700);
	fake_home(home, home);
	cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, 0, &err),
		     -EPERM);
	cr_assert(strstr(err.msg, "ltd-native's policy") ||
			  strstr(err.msg, "git"),
		  "%s", err.msg);
	p.unsafe = LTD_UNSAFE_BIND_CREDENTIALS;
	cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, p.unsafe, &err),
		     -EPERM, "one class waived is not the other");
	cr_assert(strstr(err.msg, "--unsafe-bind-startup-files"), "%s",
		  err.msg);
	snprintf(path, sizeof(path), "%s/.local", home);
	mkdir(path, 0700);
	cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, 0, &err), -EPERM,
		     "~/.local would hold ~/.local/bin and lib");
	cr_assert_eq(ltd_policy_gate(&p, "--ro-bind", path, false, 0, &err), 0,
		     "read-only, nothing can be made there");
}

/* ltd-native's own state is refused for what the cage could do with it
 * next run, not as credentials it "could read and use". */
Test(gate, its_own_state_refused_for_what_the_next_run_would_do)
{
	static const struct {
		const char *rel, *what, *risk;
	} cases[] = {
		{"/.config/ltd-native", "ltd-native's policy and approvals",
		 "the cage could widen its next run"},
		{"/.config/lamp-the-djinn", "lamp-the-djinn's allowed domains",
		 "the cage could widen its next run's egress"},
		{"/.local/state/ltd-native/walk",
		 "ltd-native's record of the project's directories",
		 "hide what it plants from the next run's check"},
	};
	char home[192], path[256];

	snprintf(home, sizeof(home), "%s/home", dir);
	mkdir(home, 0700);
	fake_home(home, home);
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("XDG_STATE_HOME");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", home, cases[i].rel);
		cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, 0, &err),
			     -EPERM, "%s", path);
		cr_assert(strstr(err.msg, cases[i].what) &&
				  strstr(err.msg, cases[i].risk) &&
				  strstr(err.msg, "--unsafe-bind-credentials"),
			  "%s", err.msg);
		cr_assert_null(strstr(err.msg, "read and use"), "%s", err.msg);
	}
}

/* lamp-the-djinn's machine-local allowlist (~/.config/lamp-the-djinn/
 * allowed-domains.txt, read by every run) is gated as ltd-native's own
 * config: a cage that writes it widens the next run's egress. */
Test(gate, the_launchers_allowlist_directory)
{
	char home[192], path[256], xdg[192];
	const char *old = getenv("XDG_CONFIG_HOME");
	char *saved = old ? strdup(old) : NULL;

	snprintf(home, sizeof(home), "%s/home", dir);
	mkdir(home, 0700);
	snprintf(path, sizeof(path), "%s/.config", home);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/.config/lamp-the-djinn", home);
	mkdir(path, 0700);
	fake_home(home, home);
	unsetenv("XDG_CONFIG_HOME");
	cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, 0, &err), -EPERM,
		     "writable");
	cr_assert(strstr(err.msg, "lamp-the-djinn's allowed domains") &&
			  strstr(err.msg, "--unsafe-bind-credentials"),
		  "%s", err.msg);
	cr_assert_eq(ltd_policy_gate(&p, "--ro-bind", path, false, 0, &err),
		     -EPERM, "read-only too, as ltd-native's own");
	p.unsafe = LTD_UNSAFE_BIND_CREDENTIALS;
	cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, p.unsafe, &err),
		     0, "%s", err.msg);
	p.unsafe = 0;
	/* Under $XDG_CONFIG_HOME, and before it exists when bound writable:
	 * the cage would create it. */
	snprintf(xdg, sizeof(xdg), "%s/xdg", dir);
	mkdir(xdg, 0700);
	setenv("XDG_CONFIG_HOME", xdg, 1);
	snprintf(path, sizeof(path), "%s/lamp-the-djinn", xdg);
	mkdir(path, 0700);
	cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, 0, &err),
		     -EPERM);
	cr_assert(strstr(err.msg, "lamp-the-djinn's allowed domains"), "%s",
		  err.msg);
	rmdir(path);
	cr_assert_eq(ltd_policy_gate(&p, "--bind", xdg, true, 0, &err), -EPERM,
		     "a writable $XDG_CONFIG_HOME would hold it");
	if (saved)
		setenv("XDG_CONFIG_HOME", saved, 1);
	else
		unsetenv("XDG_CONFIG_HOME");
	free(saved);
}

/* The reviews store in use, wherever $XDG_STATE_HOME puts it: a journal
 * or record the cage wrote there would steer the next apply.  Gated, and
 * so is a writable directory that holds it, before it exists. */
Test(gate, the_reviews_store_wherever_xdg_state_home_is)
{
	char home[192], xdg[192], path[256];
	const char *old = getenv("XDG_STATE_HOME");
	char *saved = old ? strdup(old) : NULL;

	snprintf(home, sizeof(home), "%s/home", dir);
	mkdir(home, 0700);
	fake_home(home, home);
	snprintf(xdg, sizeof(xdg), "%s/elsewhere-state", dir);
	mkdir(xdg, 0700);
	setenv("XDG_STATE_HOME", xdg, 1);
	cr_assert_eq(ltd_policy_gate(&p, "--bind", xdg, true, 0, &err), -EPERM,
		     "a writable $XDG_STATE_HOME would hold the store");
	cr_assert(strstr(err.msg, "ltd-native's reviews") &&
			  strstr(err.msg, "--bind"),
		  "%s", err.msg);
	snprintf(path, sizeof(path), "%s/ltd-native", xdg);
	mkdir(path, 0700);
	cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, 0, &err),
		     -EPERM);
	snprintf(path, sizeof(path), "%s/ltd-native/reviews", xdg);
	mkdir(path, 0700);
	cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, 0, &err),
		     -EPERM);
	snprintf(path, sizeof(path), "%s/ltd-native/agents", xdg);
	mkdir(path, 0700);
	cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, 0, &err), 0,
		     "beside the store: %s", err.msg);
	if (saved)
		setenv("XDG_STATE_HOME", saved, 1);
	else
		unsetenv("XDG_STATE_HOME");
	free(saved);
}

/* The store as the kernel reaches it: an XDG_STATE_HOME written with
 * "..", "//" or through a link names the project all the same, and a
 * writable bind of the project is refused (an attacker's review: the
 * text alone let it through, and the cage rewrote a review's record). */
Test(gate, the_reviews_store_through_dotdot_or_a_link)
{
	static const char *const forms[] = {"/x/../p/.st", "//p/.st",
					    "/./p/.st", "/lnk/.st"};
	char home[192], pdir[192], path[256], var[256];
	const char *old = getenv("XDG_STATE_HOME");
	char *saved = old ? strdup(old) : NULL;

	snprintf(home, sizeof(home), "%s/home", dir);
	mkdir(home, 0700);
	fake_home(home, home);
	snprintf(path, sizeof(path), "%s/x", dir);
	mkdir(path, 0700);
	snprintf(pdir, sizeof(pdir), "%s/p", dir);
	mkdir(pdir, 0700);
	snprintf(path, sizeof(path), "%s/lnk", dir);
	cr_assert_eq(symlink(pdir, path), 0);
	for (size_t i = 0; i < ARRAY_SIZE(forms); i++) {
		snprintf(var, sizeof(var), "%s%s", dir, forms[i]);
		setenv("XDG_STATE_HOME", var, 1);
		cr_assert_eq(ltd_policy_gate(&p, "--bind", pdir, true, 0, &err),
			     -EPERM, "XDG_STATE_HOME=%s", var);
		cr_assert(strstr(err.msg, "ltd-native's reviews"), "%s",
			  err.msg);
	}
	if (saved)
		setenv("XDG_STATE_HOME", saved, 1);
	else
		unsetenv("XDG_STATE_HOME");
	free(saved);
}

/* A dotfile kept as a link into a dotfiles repository: the repository is
 * gated as what it holds. */
Test(gate, sees_through_linked_dotfiles)
{
	char home[192], repo[224], from[256], to[256];

	snprintf(home, sizeof(home), "%s/home", dir);
	snprintf(repo, sizeof(repo), "%s/dotfiles", home);
	mkdir(home, 0700);
	mkdir(repo, 0700);
	snprintf(to, sizeof(to), "%s/bashrc", repo);
	close(open(to, O_CREAT | O_WRONLY, 0600));
	snprintf(from, sizeof(from), "%s/.bashrc", home);
	cr_assert_eq(symlink(to, from), 0);
	snprintf(to, sizeof(to), "%s/ssh", repo);
	mkdir(to, 0700);
	snprintf(from, sizeof(from), "%s/.ssh", home);
	cr_assert_eq(symlink(to, from), 0);
	fake_home(home, home);
	cr_assert_eq(ltd_policy_gate(&p, "--project", repo, true, 0, &err),
		     -EPERM);
	cr_assert(strstr(err.msg, "SSH keys") || strstr(err.msg, "startup"),
		  "%s", err.msg);
	cr_assert_eq(ltd_policy_gate(&p, "--ro-bind", repo, false, 0, &err),
		     -EPERM, "the keys, even read-only");
	cr_assert(strstr(err.msg, "SSH keys"), "%s", err.msg);
}

/* A directory of the user's PATH in the home: programs typed by name. */
Test(gate, path_directories_in_the_home)
{
	char home[192], tools[224], path[512];
	const char *old = getenv("PATH");
	char *saved = old ? strdup(old) : NULL;

	snprintf(home, sizeof(home), "%s/home", dir);
	snprintf(tools, sizeof(tools), "%s/tools/bin", home);
	mkdir(home, 0700);
	fake_home(home, home);
	snprintf(path, sizeof(path), "/usr/bin:%s", tools);
	setenv("PATH", path, 1);
	cr_assert_eq(ltd_policy_gate(&p, "--bind", tools, true, 0, &err),
		     -EPERM);
	cr_assert(strstr(err.msg, "on your PATH"), "%s", err.msg);
	snprintf(tools, sizeof(tools), "%s/tools", home);
	cr_assert_eq(ltd_policy_gate(&p, "--bind", tools, true, 0, &err),
		     -EPERM, "a directory that would hold it");
	cr_assert_eq(ltd_policy_gate(&p, "--ro-bind", tools, false, 0, &err),
		     0);
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
}

/* What the host runs code from: refused writable, read-only implied. */
Test(gate, startup_files_only_when_writable)
{
	/* Also the agents' own: Claude Code's user settings (hooks) and
	 * ~/.claude.json (MCP servers it starts), Codex's config. */
	static const char *const rels[] = {
		"/.bashrc",	    "/.config/git",
		"/.local/bin",	    "/.zshenv",
		"/.config/systemd", "/.claude.json",
		"/.claude",	    "/.claude/settings.json",
		"/.claude/hooks",   "/.codex/config.toml",
		"/.config/tmux",
	};
	char home[192], path[256];
	size_t waived;

	snprintf(home, sizeof(home), "%s/home", dir);
	mkdir(home, 0700);
	snprintf(path, sizeof(path), "%s/.config", home);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/.local", home);
	mkdir(path, 0700);
	fake_home(home, home);
	for (size_t i = 0; i < sizeof(rels) / sizeof(rels[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", home, rels[i]);
		p.unsafe = 0;
		cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, 0, &err),
			     -EPERM, "%s", path);
		cr_assert(
			strstr(err.msg, "runs on the host") &&
				strstr(err.msg, "--unsafe-bind-startup-files"),
			"%s", err.msg);
		waived = p.n_waived;
		cr_assert_eq(
			ltd_policy_gate(&p, "--ro-bind", path, false, 0, &err),
			0, "read-only: %s", err.msg);
		cr_assert_eq(p.n_waived, waived, "implied, not waived");
		p.unsafe = LTD_UNSAFE_BIND_STARTUP;
		cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, p.unsafe,
					     &err),
			     0, "%s", err.msg);
		cr_assert_gt(p.n_waived, 0);
	}
	/* A directory that holds one, once it exists. */
	snprintf(path, sizeof(path), "%s/.config/git", home);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/.config", home);
	p.unsafe = LTD_UNSAFE_BIND_CREDENTIALS;
	cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, p.unsafe, &err),
		     -EPERM);
	cr_assert(strstr(err.msg, "--unsafe-bind-startup-files"), "%s",
		  err.msg);
}

/* A home reached through a link: its real path is gated too. */
Test(gate, sees_through_a_linked_home)
{
	char real[192], link[192], ssh[224];

	snprintf(real, sizeof(real), "%s/realhome", dir);
	snprintf(link, sizeof(link), "%s/homelink", dir);
	snprintf(ssh, sizeof(ssh), "%s/.ssh", real);
	mkdir(real, 0700);
	cr_assert_eq(symlink(real, link), 0);
	fake_home(link, real);
	cr_assert_eq(ltd_policy_gate(&p, "--bind", ssh, true, 0, &err), -EPERM);
	cr_assert(strstr(err.msg, "SSH"), "%s", err.msg);
	cr_assert_eq(ltd_policy_gate(&p, "--project", real, true, 0, &err),
		     -EPERM);
}

/* The ssh-agent's own socket is allowed under /run/user; nothing else. */
Test(gate, implicit_waiver_is_narrow)
{
	fake_home("/home/nobody-ltd", NULL);
	cr_assert_eq(ltd_policy_gate(&p, "--ssh-agent",
				     "/run/user/4242/ssh.sock", false,
				     LTD_UNSAFE_BIND_SESSION, &err),
		     0);
	cr_assert_eq(p.n_waived, 0, "an implicit waiver is not an unsafe one");
	cr_assert_eq(ltd_policy_gate(&p, "--ssh-agent", "/run/docker.sock",
				     false, LTD_UNSAFE_BIND_SESSION, &err),
		     -EPERM);
	/* Rootless Docker lives under /run/user too: root-equivalent for
	 * the user's containers, never implied by --ssh-agent. */
	cr_assert_eq(ltd_policy_gate(&p, "--ssh-agent",
				     "/run/user/4242/docker.sock", false,
				     LTD_UNSAFE_BIND_SESSION, &err),
		     -EPERM);
	cr_assert(strstr(err.msg, "--unsafe-bind-docker"), "%s", err.msg);
}

Test(gate, host_network_is_gated)
{
	p.project = strdup(dir);
	p.network = LTD_NET_HOST;
	cr_assert_eq(ltd_run_check(&p, &prot, &err), -EPERM);
	cr_assert(strstr(err.msg, "--unsafe-host-network"), "%s", err.msg);
	ltd_policy_free(&p);
	ltd_policy_init(&p);
	cr_assert_eq(RESOLVE("--network", "host", "--unsafe-host-network",
			     "--project", dir, "--", "true"),
		     0, "%s", err.msg);
	cr_assert_eq(ltd_run_check(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert_eq(p.n_waived, 1);
	cr_assert(strstr(p.waived[0], "no egress filter"));
}

Test(gate, no_seccomp_is_recorded)
{
	cr_assert_eq(
		RESOLVE("--unsafe-no-seccomp", "--project", dir, "--", "true"),
		0, "%s", err.msg);
	cr_assert_eq(ltd_run_check(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert(strstr(p.waived[0], "--unsafe-no-seccomp"));
}

/* LOG mode refuses nothing: waived like --unsafe-no-seccomp, with what it
 * lets through. */
Test(gate, seccomp_log_is_recorded)
{
	cr_assert_eq(
		RESOLVE("--unsafe-seccomp-log", "--project", dir, "--", "true"),
		0, "%s", err.msg);
	cr_assert_eq(ltd_run_check(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert_eq(p.n_waived, 1);
	cr_assert(strstr(p.waived[0], "--unsafe-seccomp-log") &&
			  strstr(p.waived[0], "refuses nothing"),
		  "%s", p.waived[0]);
}

/* A project's file may not turn the filter into a log, by either name. */
Test(gate, project_policy_cannot_log_instead_of_refusing)
{
	static const char *const lines[] = {"unsafe-seccomp-log\n",
					    "seccomp-log\n"};
	char pol[192];
	struct ltd_policy_input in = {
		.user = ltd_host_user(), .config_dir = cfg, .cwd = proj};
	FILE *devnull = fopen("/dev/null", "w");

	snprintf(pol, sizeof(pol), "%s/.ltd-native/policy", proj);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		put(pol, lines[i]);
		cr_assert_lt(ltd_policy_allow(&in, devnull, &err), 0, "%s",
			     lines[i]);
		cr_assert(strstr(err.msg, ".ltd-native/policy:1") &&
				  strstr(err.msg, "seccomp-log"),
			  "%s", err.msg);
		ltd_policy_free(&p);
		ltd_policy_init(&p);
		cr_assert_lt(RESOLVE("--", "true"), 0);
		cr_assert_eq(p.seccomp, LTD_FILTER_ENFORCE);
	}
	fclose(devnull);
}

/* The gate's table is documented entry by entry: docs/guide/filesystem.md
 * has a row for each place, with its class's flag (run from the top of
 * the repository, as make check does). */
Test(gate, table_documented)
{
	FILE *f = fopen("docs/guide/filesystem.md", "r");
	char *doc = NULL;
	size_t cap = 0, n_entries = 0;
	ssize_t len;

	cr_assert_not_null(f, "docs/guide/filesystem.md");
	len = getdelim(&doc, &cap, '\0', f);
	fclose(f);
	cr_assert_gt(len, 0);
	for (const struct ltd_gate_entry *e; (e = ltd_gate_entry_at(n_entries));
	     n_entries++) {
		char row[256], shown[128];
		const char *at, *eol, *flag = ltd_unsafe_flag(e->class);

		/* "@/run/user/%u" is shown as "/run/user/UID". */
		snprintf(shown, sizeof(shown), "%s",
			 e->path + (e->path[0] == '@'));
		if ((at = strstr(shown, "%u")))
			snprintf(shown + (at - shown),
				 sizeof(shown) - (size_t)(at - shown), "UID%s",
				 e->path + (e->path[0] == '@') + (at - shown) +
					 2);
		snprintf(row, sizeof(row), "\n| `%s` | ", shown);
		at = strstr(doc, row);
		cr_assert_not_null(at, "no row for %s in filesystem.md", shown);
		eol = strchr(at + 1, '\n');
		cr_assert(eol && memmem(at, (size_t)(eol - at), flag,
					strlen(flag)),
			  "the row of %s names --%s", shown, flag);
	}
	cr_assert_gt(n_entries, 150);
	free(doc);
}

/* Build tools' homes, caches that hold code, editors' plugins, tools'
 * configs: refused writable (even before a cache's directory exists, in
 * a ~/.cache that could hold it), read-only allowed. */
Test(gate, build_tools_caches_editors)
{
	static const char *const rels[] = {
		"/.gradle",
		"/.m2",
		"/.sbt",
		"/.ivy2",
		"/.lein",
		"/.cache",
		"/.cache/pre-commit",
		"/.cache/node/corepack",
		"/.cache/go-build",
		"/.cache/ms-playwright",
		"/.cache/pip/wheels",
		"/.npm/_npx",
		"/.local/share/nvim",
		"/.vscode",
		"/.config/Code",
		"/.yarnrc",
		"/.yarnrc.yml",
		"/.config/pip",
		"/.condarc",
		"/.inputrc",
		"/.psqlrc",
		"/.config/starship.toml",
		"/.ipython/profile_default/startup",
		"/.config/kitty",
		"/.config/wezterm",
		"/.config/alacritty",
		"/.config/containers",
		"/.config/containers/containers.conf",
		"/.local/share/containers",
	};
	char home[192], path[256];

	snprintf(home, sizeof(home), "%s/home", dir);
	mkdir(home, 0700);
	fake_home(home, home);
	for (size_t i = 0; i < sizeof(rels) / sizeof(rels[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", home, rels[i]);
		cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, 0, &err),
			     -EPERM, "%s", path);
		cr_assert(strstr(err.msg, "--unsafe-bind-startup-files"),
			  "%s: %s", rels[i], err.msg);
		cr_assert_eq(
			ltd_policy_gate(&p, "--ro-bind", path, false, 0, &err),
			0, "read-only: %s", err.msg);
	}
	/* A cache of no tool's code is the user's to give. */
	snprintf(path, sizeof(path), "%s/.cache/thumbnails", home);
	cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, 0, &err), 0,
		     "%s", err.msg);
	/* ~/.npmrc: its token as before (credentials, also read-only). */
	snprintf(path, sizeof(path), "%s/.npmrc", home);
	close(open(path, O_CREAT | O_WRONLY, 0600));
	cr_assert_eq(ltd_policy_gate(&p, "--ro-bind", path, false, 0, &err),
		     -EPERM);
	cr_assert(strstr(err.msg, "--unsafe-bind-credentials"), "%s", err.msg);
}
