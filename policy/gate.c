// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The gate: host paths that are never bound unless the user says, with the
 * --unsafe-... flag of their class, that they accept the named risk.  It
 * looks at real paths (validation resolved them; a link to ~/.ssh is
 * ~/.ssh), at the home directory both as passwd names it and as it really
 * is, and at each gated place both as named and where a link on its way
 * leads (a ~/.bashrc kept in a dotfiles repository), so a link hides
 * nothing.
 */
#include "policy/option.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/cleanup.h"
#include "common/lstatmemo.h"
#include "common/path.h"
#include "common/realpath.h"

/* What the host runs code from without being asked (class STARTUP): gated
 * only for writable binds, and a writable directory that would hold one is
 * gated even before it exists (the cage could create it). */
#define STARTUP(p, w)                                                          \
	{                                                                      \
		p, w, LTD_UNSAFE_BIND_STARTUP, true, NULL                      \
	}

/* The table, reviewed as data: docs/guide/filesystem.md lists every
 * entry with its flag (a unit test holds the two together). */
static const struct ltd_gate_entry deny[] = {
	{"~/.ssh", "your SSH keys", LTD_UNSAFE_BIND_CREDENTIALS, false, NULL},
	{"~/.gnupg", "your GnuPG keys", LTD_UNSAFE_BIND_CREDENTIALS, false,
	 NULL},
	{"~/.aws", "your AWS credentials", LTD_UNSAFE_BIND_CREDENTIALS, false,
	 NULL},
	{"~/.config/gh", "your GitHub CLI token", LTD_UNSAFE_BIND_CREDENTIALS,
	 false, NULL},
	{"~/.config/gcloud", "your Google Cloud credentials",
	 LTD_UNSAFE_BIND_CREDENTIALS, false, NULL},
	{"~/.azure", "your Azure credentials", LTD_UNSAFE_BIND_CREDENTIALS,
	 false, NULL},
	{"~/.docker", "your Docker credentials", LTD_UNSAFE_BIND_CREDENTIALS,
	 false, NULL},
	{"~/.kube", "your Kubernetes credentials", LTD_UNSAFE_BIND_CREDENTIALS,
	 false, NULL},
	{"~/.netrc", "your .netrc passwords", LTD_UNSAFE_BIND_CREDENTIALS,
	 false, NULL},
	{"~/.npmrc", "your npm token and config (the shell its scripts run in)",
	 LTD_UNSAFE_BIND_CREDENTIALS, false, NULL},
	{"~/.pypirc", "your PyPI token", LTD_UNSAFE_BIND_CREDENTIALS, false,
	 NULL},
	{"~/.cargo/credentials", "your crates.io token",
	 LTD_UNSAFE_BIND_CREDENTIALS, false, NULL},
	{"~/.cargo/credentials.toml", "your crates.io token",
	 LTD_UNSAFE_BIND_CREDENTIALS, false, NULL},
	{"~/.git-credentials", "your git credentials",
	 LTD_UNSAFE_BIND_CREDENTIALS, false, NULL},
	{"~/.password-store", "your pass store", LTD_UNSAFE_BIND_CREDENTIALS,
	 false, NULL},
	{"~/.local/share/keyrings", "your keyrings",
	 LTD_UNSAFE_BIND_CREDENTIALS, false, NULL},
	{"~/.claude/.credentials.json", "your Claude login",
	 LTD_UNSAFE_BIND_CREDENTIALS, false, NULL},
	/* ltd-native's own: a cage that creates them widens the next run. */
	{"~/.config/ltd-native", "ltd-native's policy and approvals",
	 LTD_UNSAFE_BIND_CREDENTIALS, true,
	 "bound writable, the cage could widen its next run; read-only, it "
	 "would learn what you allowed and waived"},
	{"$XDG_CONFIG_HOME/ltd-native", "ltd-native's policy and approvals",
	 LTD_UNSAFE_BIND_CREDENTIALS, true,
	 "bound writable, the cage could widen its next run; read-only, it "
	 "would learn what you allowed and waived"},
	/* The launcher's machine-local allowlist, read by every run
	 * (~/.config/lamp-the-djinn/allowed-domains.txt): the same. */
	{"~/.config/lamp-the-djinn", "lamp-the-djinn's allowed domains",
	 LTD_UNSAFE_BIND_CREDENTIALS, true,
	 "bound writable, the cage could widen its next run's egress"},
	{"$XDG_CONFIG_HOME/lamp-the-djinn", "lamp-the-djinn's allowed domains",
	 LTD_UNSAFE_BIND_CREDENTIALS, true,
	 "bound writable, the cage could widen its next run's egress"},
	{"~/.local/share/ltd-native", "ltd-native's pinned root filesystems",
	 LTD_UNSAFE_BIND_CREDENTIALS, true,
	 "bound writable, the cage could change what the next run starts"},
	{"$XDG_DATA_HOME/ltd-native", "ltd-native's pinned root filesystems",
	 LTD_UNSAFE_BIND_CREDENTIALS, true,
	 "bound writable, the cage could change what the next run starts"},
	/* The exit walk's indexes (protect/repoindex.h): one the cage
	 * wrote could hide a repository it plants in the next run.  Not
	 * the rest of ~/.local/state/ltd-native: the agents' per-project
	 * state there (Codex's sessions) is bound on purpose. */
	{"~/.local/state/ltd-native/walk",
	 "ltd-native's record of the project's directories",
	 LTD_UNSAFE_BIND_CREDENTIALS, true,
	 "bound writable, the cage could hide what it plants from the next "
	 "run's check"},
	/* Reviews: a journal or meta.json the cage wrote would steer the
	 * next apply. */
	{"~/.local/state/ltd-native/reviews", "ltd-native's reviews",
	 LTD_UNSAFE_BIND_CREDENTIALS, true,
	 "bound writable, the cage could steer what the next apply lands, "
	 "and where; read-only, it would read what other reviews hold"},
	/* Where they are kept when XDG_STATE_HOME says elsewhere (the
	 * store review/ uses: the effective one, whatever the variable). */
	{"$XDG_STATE_HOME/ltd-native/reviews", "ltd-native's reviews",
	 LTD_UNSAFE_BIND_CREDENTIALS, true,
	 "bound writable, the cage could steer what the next apply lands, "
	 "and where; read-only, it would read what other reviews hold"},
	{"@/run/user/%u",
	 "your session's sockets (ssh-agent, D-Bus, systemd --user)",
	 LTD_UNSAFE_BIND_SESSION, false, NULL},
	{"@/run/user/%u/docker.sock", "the rootless Docker socket",
	 LTD_UNSAFE_BIND_DOCKER, false, NULL},
	{"@/run/user/%u/docker", "rootless Docker's sockets",
	 LTD_UNSAFE_BIND_DOCKER, false, NULL},
	{"@/run/user/%u/podman", "the rootless Podman socket",
	 LTD_UNSAFE_BIND_DOCKER, false, NULL},
	{"@/tmp/tmux-%u", "your tmux server's socket", LTD_UNSAFE_BIND_SESSION,
	 false, NULL},
	{"/run/docker.sock", "the Docker socket", LTD_UNSAFE_BIND_DOCKER, false,
	 NULL},
	{"/var/run/docker.sock", "the Docker socket", LTD_UNSAFE_BIND_DOCKER,
	 false, NULL},
	{"/run/podman", "the Podman socket", LTD_UNSAFE_BIND_DOCKER, false,
	 NULL},
	{"/run/containerd", "the containerd socket", LTD_UNSAFE_BIND_DOCKER,
	 false, NULL},
	STARTUP("~/.bashrc", "a shell startup file"),
	STARTUP("~/.bash_profile", "a shell startup file"),
	STARTUP("~/.bash_login", "a shell startup file"),
	STARTUP("~/.bash_logout", "a shell startup file"),
	STARTUP("~/.bash_aliases", "a shell startup file"),
	STARTUP("~/.profile", "a shell startup file"),
	STARTUP("~/.zshenv", "a shell startup file"),
	STARTUP("~/.zprofile", "a shell startup file"),
	STARTUP("~/.zshrc", "a shell startup file"),
	STARTUP("~/.zlogin", "a shell startup file"),
	STARTUP("~/.zlogout", "a shell startup file"),
	STARTUP("~/.config/fish", "fish's startup files"),
	STARTUP("$XDG_CONFIG_HOME/fish", "fish's startup files"),
	STARTUP("~/.claude.json",
		"Claude Code's user config (the MCP servers it starts)"),
	STARTUP("~/.claude/settings.json",
		"Claude Code's user settings (its hooks run on the host)"),
	STARTUP("~/.claude/hooks", "Claude Code's user hooks"),
	STARTUP("~/.codex/config.toml",
		"Codex's config (the MCP servers and notify command it runs)"),
	STARTUP("~/.config/tmux", "tmux's config (commands it runs)"),
	STARTUP("$XDG_CONFIG_HOME/tmux", "tmux's config (commands it runs)"),
	STARTUP("~/.gitconfig", "git's global config (hooks, fsmonitor)"),
	STARTUP("~/.config/git", "git's global config (hooks, fsmonitor)"),
	STARTUP("$XDG_CONFIG_HOME/git",
		"git's global config (hooks, fsmonitor)"),
	STARTUP("~/.local/bin", "programs on your PATH"),
	STARTUP("~/bin", "programs on your PATH"),
	STARTUP("~/.cargo/bin", "programs on your PATH"),
	STARTUP("~/.cargo/env", "a file your shell sources"),
	STARTUP("~/.cargo/config.toml", "cargo's config (runners, aliases)"),
	STARTUP("~/.cargo/config", "cargo's config (runners, aliases)"),
	STARTUP("~/.rustup", "your Rust toolchains"),
	STARTUP("~/go/bin", "programs on your PATH"),
	STARTUP("~/.nvm", "your Node versions"),
	STARTUP("~/.pyenv", "your Python versions"),
	STARTUP("~/.bun", "your Bun install"),
	STARTUP("~/.deno", "your Deno install"),
	STARTUP("~/.local/lib", "Python's user site-packages (run at startup)"),
	STARTUP("~/.ipython", "IPython's startup files"),
	STARTUP("~/.config/systemd", "your systemd user units"),
	STARTUP("$XDG_CONFIG_HOME/systemd", "your systemd user units"),
	STARTUP("~/.local/share/systemd", "your systemd user units"),
	STARTUP("~/.local/share/dbus-1", "D-Bus services started on demand"),
	STARTUP("~/.local/share/applications", "your desktop launchers"),
	STARTUP("~/.config/autostart", "your session's autostart entries"),
	STARTUP("$XDG_CONFIG_HOME/autostart",
		"your session's autostart entries"),
	STARTUP("~/.config/environment.d", "your session's environment"),
	STARTUP("$XDG_CONFIG_HOME/environment.d", "your session's environment"),
	STARTUP("~/.config/direnv", "direnv's config"),
	STARTUP("~/.config/nvim", "your editor's config (it runs code)"),
	STARTUP("$XDG_CONFIG_HOME/nvim", "your editor's config (it runs code)"),
	STARTUP("~/.vimrc", "your editor's config (it runs code)"),
	STARTUP("~/.vim", "your editor's config (it runs code)"),
	STARTUP("~/.emacs", "your editor's config (it runs code)"),
	STARTUP("~/.emacs.d", "your editor's config (it runs code)"),
	STARTUP("~/.tmux.conf", "tmux's config (it runs commands)"),
	STARTUP("~/.gdbinit", "gdb's startup file"),
	STARTUP("~/.xprofile", "your X session's startup"),
	STARTUP("~/.xsession", "your X session's startup"),
	STARTUP("~/.xsessionrc", "your X session's startup"),
	STARTUP("~/.xinitrc", "your X session's startup"),
	STARTUP("~/.pam_environment", "your login environment"),
	STARTUP("~/.inputrc",
		"readline's key bindings (they can type commands)"),
	STARTUP("~/.direnvrc", "direnv's own startup file"),
	STARTUP("~/.local/share/direnv",
		"direnv's allow list (an .envrc it approves runs on cd)"),
	STARTUP("~/.config/mise", "mise's config (tasks and hooks it runs)"),
	STARTUP("~/.local/share/mise",
		"mise's trusted configs and the tools it runs"),
	/* Podman's and Buildah's: containers.conf names hook directories
	 * and helper binaries; the storage holds the images they run. */
	STARTUP("~/.config/containers",
		"podman's config (hooks and helpers it runs)"),
	STARTUP("$XDG_CONFIG_HOME/containers",
		"podman's config (hooks and helpers it runs)"),
	STARTUP("~/.local/share/containers",
		"podman's images (what your containers run)"),
	/* Build tools' homes: what they run from there, unasked, at the
	 * next build (Gradle runs every script in init.d). */
	STARTUP("~/.gradle", "Gradle's home (the init scripts it runs)"),
	STARTUP("~/.m2", "Maven's settings and repository (plugins it runs)"),
	STARTUP("~/.sbt", "sbt's global plugins and settings"),
	STARTUP("~/.ivy2", "Ivy's repository (jars builds run)"),
	STARTUP("~/.lein", "Leiningen's profiles and plugins"),
	STARTUP("~/.gem", "your Ruby gems"),
	STARTUP("~/.bundle", "Bundler's config"),
	STARTUP("~/.julia", "Julia's packages and startup.jl"),
	STARTUP("~/.Rprofile", "R's startup file"),
	STARTUP("~/.irbrc", "irb's startup file"),
	STARTUP("~/.pryrc", "pry's startup file"),
	STARTUP("~/.psqlrc", "psql's startup file (\\! runs commands)"),
	/* Package managers' configs: the registry, the scripts' shell, the
	 * package manager itself (yarnPath). */
	STARTUP("~/.yarnrc", "yarn's config (the yarn it runs)"),
	STARTUP("~/.yarnrc.yml", "yarn's config (the yarn it runs)"),
	STARTUP("~/.config/pip", "pip's config (where it installs from)"),
	STARTUP("$XDG_CONFIG_HOME/pip",
		"pip's config (where it installs from)"),
	STARTUP("~/.pip", "pip's config (where it installs from)"),
	STARTUP("~/.condarc", "conda's config (its channels)"),
	STARTUP("~/.conda", "conda's config and environments"),
	STARTUP("~/.config/conda", "conda's config (its channels)"),
	/* Caches that hold code the host runs without checking it again.
	 * Each gates ~/.cache too (it could make them). */
	STARTUP("~/.npm/_npx", "npx's installed packages (npx runs them)"),
	STARTUP("~/.cache/pre-commit",
		"pre-commit's hook environments (git commit runs them)"),
	STARTUP("$XDG_CACHE_HOME/pre-commit",
		"pre-commit's hook environments (git commit runs them)"),
	STARTUP("~/.cache/node/corepack",
		"corepack's package managers (yarn and pnpm run from there)"),
	STARTUP("$XDG_CACHE_HOME/node/corepack",
		"corepack's package managers (yarn and pnpm run from there)"),
	STARTUP("~/.cache/go-build",
		"Go's build cache (compiled code linked into what you build)"),
	STARTUP("$XDG_CACHE_HOME/go-build",
		"Go's build cache (compiled code linked into what you build)"),
	STARTUP("~/.cache/ms-playwright", "Playwright's browsers"),
	STARTUP("$XDG_CACHE_HOME/ms-playwright", "Playwright's browsers"),
	STARTUP("~/.cache/puppeteer", "Puppeteer's browsers"),
	STARTUP("~/.cache/pip", "pip's cache (the wheels it installs)"),
	STARTUP("$XDG_CACHE_HOME/pip", "pip's cache (the wheels it installs)"),
	STARTUP("~/.cache/uv", "uv's cache (the wheels it installs)"),
	STARTUP("$XDG_CACHE_HOME/uv", "uv's cache (the wheels it installs)"),
	STARTUP("~/.cache/yarn", "yarn's cache (the packages it installs)"),
	STARTUP("~/.cache/pypoetry",
		"Poetry's cache and virtualenvs (poetry run uses them)"),
	STARTUP("~/.cache/deno", "Deno's module cache (the code it runs)"),
	STARTUP("~/.cache/bazel", "Bazel's outputs (the tools it runs)"),
	/* Editors' plugins and settings (tasks, language servers, terminal
	 * profiles: commands they run). */
	STARTUP("~/.local/share/nvim", "Neovim's plugins"),
	STARTUP("$XDG_DATA_HOME/nvim", "Neovim's plugins"),
	STARTUP("~/.config/emacs", "your editor's config (it runs code)"),
	STARTUP("~/.config/helix", "Helix's config (language servers it runs)"),
	STARTUP("~/.config/zed", "Zed's settings (tasks, language servers)"),
	STARTUP("~/.vscode", "VS Code's extensions"),
	STARTUP("~/.vscode-server", "VS Code's remote server and extensions"),
	STARTUP("~/.vscode-oss", "VSCodium's extensions"),
	STARTUP("~/.config/Code",
		"VS Code's settings (tasks, terminal profiles)"),
	STARTUP("~/.config/VSCodium",
		"VSCodium's settings (tasks, terminal profiles)"),
	STARTUP("~/.cursor", "Cursor's extensions and MCP servers"),
	STARTUP("~/.config/Cursor",
		"Cursor's settings (tasks, terminal profiles)"),
	STARTUP("~/.config/JetBrains", "JetBrains IDEs' settings"),
	STARTUP("~/.local/share/JetBrains", "JetBrains IDEs' plugins"),
	STARTUP("~/.jupyter", "Jupyter's config (Python it runs)"),
	STARTUP("~/.config/starship.toml",
		"starship's prompt (commands it runs at every prompt)"),
	/* Terminal emulators: their configs run programs and map keys. */
	STARTUP("~/.config/kitty", "kitty's config (programs it runs)"),
	STARTUP("~/.config/wezterm", "WezTerm's config (Lua it runs)"),
	STARTUP("~/.wezterm.lua", "WezTerm's config (Lua it runs)"),
	STARTUP("~/.config/alacritty", "Alacritty's config (programs it runs)"),
	STARTUP("~/.alacritty.toml", "Alacritty's config (programs it runs)"),
	STARTUP("~/.alacritty.yml", "Alacritty's config (programs it runs)"),
	STARTUP("~/.config/ghostty", "Ghostty's config (programs it runs)"),
	STARTUP("~/.config/foot", "foot's config (programs it runs)"),
	{"/proc", "a kernel interface", LTD_UNSAFE_BIND_KERNEL, false, NULL},
	{"/sys", "a kernel interface", LTD_UNSAFE_BIND_KERNEL, false, NULL},
	{"/dev", "host devices", LTD_UNSAFE_BIND_KERNEL, false, NULL},
};

#define N_DENY	 (sizeof(deny) / sizeof(deny[0]))
#define GATE_MAX 256 /* entries really_cached() holds */

const struct ltd_gate_entry *ltd_gate_entry_at(size_t i)
{
	return i < N_DENY ? &deny[i] : NULL;
}

static const char *risk(const struct ltd_gate_entry *e)
{
	if (e->risk)
		return e->risk;
	switch (e->class) {
	case LTD_UNSAFE_BIND_HOME:
		return "the agent would see the whole house: keys, other "
		       "projects, shell history";
	case LTD_UNSAFE_BIND_CREDENTIALS:
		return "the agent could read and use them";
	case LTD_UNSAFE_BIND_SESSION:
		return "whoever connects runs commands as you outside the cage";
	case LTD_UNSAFE_BIND_DOCKER:
		return "whoever connects is root on the host";
	case LTD_UNSAFE_BIND_STARTUP:
		return "what the agent writes there runs on the host as you";
	default:
		return "it reaches the host's kernel and devices";
	}
}

/* @tmpl with its "%u" replaced by @uid (the table is ours: no format). */
static void with_uid(char *out, size_t size, const char *tmpl, unsigned uid)
{
	const char *at = strstr(tmpl, "%u");

	if (!at) {
		snprintf(out, size, "%s", tmpl);
		return;
	}
	snprintf(out, size, "%.*s%u%s", (int)(at - tmpl), tmpl, uid, at + 2);
}

/* One match of @e, at @at: let it through (recording an explicit waiver)
 * or refuse. */
static int judge(struct ltd_policy *p, const char *flag, const char *real,
		 const struct ltd_gate_entry *e, const char *at, unsigned allow,
		 struct ltd_err *err)
{
	if (!(allow & e->class))
		return ltd_err_set(err, EPERM,
				   "%s: refusing to bind '%s': it is or holds "
				   "%s (%s): %s; --%s allows it",
				   flag, real, e->what, at, risk(e),
				   ltd_unsafe_flag(e->class));
	if (!(p->unsafe & e->class))
		return 0; /* implied by the option itself (--ssh-agent...) */
	if (ltd_policy_add_note(&p->waived, &p->n_waived,
				"--%s: %s '%s': %s: %s",
				ltd_unsafe_flag(e->class), flag, real, e->what,
				risk(e)) < 0)
		return ltd_err_set(err, ENOMEM, "out of memory");
	return 0;
}

/*
 * Where @path (in @home) really is when a link on its way below @home leads
 * elsewhere (a dotfile kept in a dotfiles repository, a config directory
 * that is a link): the real path of its deepest existing ancestor, and the
 * rest.  "" when it is where it says (the common case: one lstat a
 * component, no realpath).
 */
static void really(struct ltd_lstat_memo *m, const char *home, const char *path,
		   char *out, size_t size)
{
	char head[PATH_MAX], real[PATH_MAX];
	size_t n = strlen(path), hl = strlen(home);
	bool linked = false;

	out[0] = '\0';
	if (n >= sizeof(head) || strncmp(path, home, hl) != 0)
		return;
	memcpy(head, path, n + 1);
	for (size_t i = hl + 1; i <= n && !linked; i++) {
		if (head[i] != '/' && head[i])
			continue;
		head[i] = '\0';
		switch (ltd_lstat_memo(m, head)) {
		case LTD_LSTAT_MISSING:
			return; /* missing from here: where it says */
		case LTD_LSTAT_LINK:
			linked = true;
		}
		head[i] = path[i];
	}
	if (!linked)
		return;
	for (;;) {
		char *slash;

		if (realpath(head, real)) {
			if (strcmp(real, head) != 0)
				snprintf(out, size, "%s%s", real, path + n);
			return;
		}
		slash = strrchr(head, '/');
		if (!slash || slash == head)
			return;
		*slash = '\0';
		n = (size_t)(slash - head);
	}
}

/* really() for each entry and home, once a process (the gate runs for
 * every bind; the answers do not change meanwhile). */
static const char *really_cached(struct ltd_lstat_memo *m, size_t entry, int h,
				 const char *home, const char *path)
{
	static struct {
		char home[PATH_MAX];
		bool done[GATE_MAX];
		char *at[GATE_MAX];
	} cache[2];
	char out[PATH_MAX];

	if (entry >= GATE_MAX)
		return "";
	if (strcmp(cache[h].home, home) != 0) {
		for (size_t i = 0; i < GATE_MAX; i++) {
			free(cache[h].at[i]);
			cache[h].at[i] = NULL;
			cache[h].done[i] = false;
		}
		snprintf(cache[h].home, sizeof(cache[h].home), "%s", home);
	}
	if (!cache[h].done[entry]) {
		really(m, home, path, out, sizeof(out));
		cache[h].at[entry] = out[0] ? strdup(out) : NULL;
		cache[h].done[entry] = true;
	}
	return cache[h].at[entry] ? cache[h].at[entry] : "";
}

/* Entry @d's path for @home (the "~/" of it), or false when it has none
 * here (an XDG variable unset, no home). */
static bool entry_path(const char *d, const char *home, unsigned uid,
		       char *path, size_t size)
{
	if (d[0] == '$') {
		char var[32], real[PATH_MAX];
		const char *rest = strchr(d, '/'), *x;

		snprintf(var, sizeof(var), "%.*s", (int)(rest - d - 1), d + 1);
		x = getenv(var);
		if (!x || x[0] != '/')
			return false;
		snprintf(path, size, "%s%s", x, rest);
		/* Where the kernel (and the code that keeps it there)
		 * really reaches: "x/../p", "//p" or a link in the
		 * variable's value must not pass for another place. */
		if (ltd_realpath_existing(path, real, sizeof(real)) == 0)
			snprintf(path, size, "%s", real);
	} else if (d[0] == '~') {
		if (!home)
			return false;
		snprintf(path, size, "%s%s", home, d + 1);
	} else if (d[0] == '@') {
		with_uid(path, size, d + 1, uid);
	} else {
		snprintf(path, size, "%s", d);
	}
	return true;
}

/* @real, bound (@writable or not), against one gated place @path. */
static int check(struct ltd_policy *p, const char *flag, const char *real,
		 bool writable, const char *path,
		 const struct ltd_gate_entry *e, unsigned allow,
		 struct ltd_err *err)
{
	struct stat st;

	if (e->class == LTD_UNSAFE_BIND_STARTUP && !writable)
		return 0; /* reading them is no risk */
	/* Inside it, or a directory holding it: when it exists, or, bound
	 * writable, when the cage could make it. */
	if (ltd_path_is_under(real, path) ||
	    (ltd_path_is_under(path, real) &&
	     ((e->holds_missing && writable) || lstat(path, &st) == 0)))
		return judge(p, flag, real, e, path, allow, err);
	return 0;
}

/* The directories on the launcher's PATH that lie in a home: what the
 * agent writes there runs whenever the user types its name.  Not those in
 * the project (a direnv `PATH_add bin`): the project is the agent's to
 * write, like its Makefile. */
static int check_path_dirs(struct ltd_policy *p, const char *flag,
			   const char *real, bool writable,
			   const char *const homes[2], unsigned allow,
			   struct ltd_err *err)
{
	static const struct ltd_gate_entry path_dir =
		STARTUP("", "a directory on your PATH");
	const char *env = getenv("PATH");
	_cleanup_free_ char *copy = env ? strdup(env) : NULL;
	char *save = NULL;
	int ret = 0;

	for (char *d = copy ? strtok_r(copy, ":", &save) : NULL; d && !ret;
	     d = strtok_r(NULL, ":", &save))
		for (int h = 0; h < 2 && !ret; h++)
			if (d[0] == '/' && homes[h] &&
			    ltd_path_is_under(d, homes[h]) &&
			    strcmp(d, homes[h]) != 0 &&
			    !(p->project && ltd_path_is_under(d, p->project)))
				ret = check(p, flag, real, writable, d,
					    &path_dir, allow, err);
	return ret;
}

int ltd_policy_gate(struct ltd_policy *p, const char *flag, const char *real,
		    bool writable, unsigned allow, struct ltd_err *err)
{
	static const struct ltd_gate_entry home = {
		"~", "your home directory", LTD_UNSAFE_BIND_HOME, false, NULL};
	const char *homes[2] = {p->id.home, p->host_home};
	/* The home's names from one listing (homes[1], its real path, is
	 * walked only when it differs, and then name by name). */
	struct ltd_lstat_memo memo = {.list_dir = homes[0]};
	char path[PATH_MAX];
	int ret = 0;

	_Static_assert(N_DENY <= GATE_MAX, "really_cached() holds GATE_MAX");
	for (int h = 0; h < 2 && !ret; h++)
		if (homes[h] && (strcmp(real, "/") == 0 ||
				 ltd_path_is_under(homes[h], real)))
			ret = judge(p, flag, real, &home, homes[h], allow, err);
	for (size_t i = 0; !ret && i < N_DENY; i++) {
		const char *d = deny[i].path;

		for (int h = 0; h < 2 && !ret; h++) {
			if (h > 0 && (d[0] != '~' || !homes[0] || !homes[1] ||
				      !strcmp(homes[0], homes[1])))
				break;
			if (!entry_path(d, homes[h], (unsigned)p->id.uid, path,
					sizeof(path)))
				continue;
			ret = check(p, flag, real, writable, path, &deny[i],
				    allow, err);
			/* As it really is, too: ~/.bashrc may be a link
			 * into a dotfiles repository. */
			if (!ret && d[0] == '~') {
				const char *linked = really_cached(
					&memo, i, h, homes[h], path);

				if (linked[0])
					ret = check(p, flag, real, writable,
						    linked, &deny[i], allow,
						    err);
			}
		}
	}
	ltd_lstat_memo_free(&memo);
	if (!ret)
		ret = check_path_dirs(p, flag, real, writable, homes, allow,
				      err);
	return ret;
}
