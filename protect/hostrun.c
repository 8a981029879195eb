// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The project files other host programs run (see hostrun.h): the table,
 * and its two uses.  Each row says who reads the file and what it runs
 * from it; docs/guide/filesystem.md lists the same rows (test_hostrun.c
 * compares them).  Build files a user runs on purpose (a Makefile,
 * package.json's scripts, .npmrc, .yarnrc.yml) are not here: they are
 * the project, reviewed as its code is.
 */
#include "protect/hostrun.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/base.h"
#include "common/cleanup.h"
#include "common/dir.h"
#include "common/vec.h"

#define F LTD_HOSTRUN_FILE
#define D LTD_HOSTRUN_DIR
#define P LTD_HOSTRUN_PATTERN

const struct ltd_hostrun ltd_hostrun_table[] = {
	{".vscode/tasks.json", F, "VS Code",
	 "a task with \"runOn\": \"folderOpen\" runs when the folder is "
	 "opened; the others when asked for"},
	{".vscode/settings.json", F, "VS Code",
	 "settings that name programs: terminal profiles, linters', "
	 "formatters' and language servers' paths"},
	{".vscode/launch.json", F, "VS Code",
	 "debug configurations and their preLaunchTask, at F5"},
	{".vscode/mcp.json", F, "VS Code", "the MCP servers it starts"},
	{".vscode/extensions.json", F, "VS Code",
	 "the extensions it offers to install"},
	{"*.code-workspace", P, "VS Code",
	 "a workspace's settings, tasks and launch configurations, when "
	 "opened"},
	{".cursor/mcp.json", F, "Cursor", "the MCP servers it starts"},
	{".cursor/hooks.json", F, "Cursor",
	 "commands run at its agent's events"},
	{".cursor/environment.json", F, "Cursor",
	 "its background agents' install and start commands"},
	{".gemini/settings.json", F, "Gemini CLI",
	 "MCP servers, the tool discovery and tool call commands, hooks"},
	{".gemini/extensions", D, "Gemini CLI",
	 "extensions: their MCP servers and commands"},
	{".qwen/settings.json", F, "Qwen Code",
	 "MCP servers, the tool discovery and tool call commands"},
	{".codex/config.toml", F, "Codex",
	 "MCP servers, the notify program, the shell environment"},
	{".aider.conf.yml", F, "aider",
	 "lint-cmd and test-cmd, run after its edits"},
	{".continue", D, "Continue", "MCP servers and their commands"},
	{".zed/settings.json", F, "Zed",
	 "language servers' binaries, run when a file opens"},
	{".zed/tasks.json", F, "Zed", "tasks, when asked for"},
	{".helix/languages.toml", F, "Helix",
	 "language servers' commands, run when a file opens"},
	{".idea/workspace.xml", F, "JetBrains IDEs",
	 "run configurations and their before-launch tasks"},
	{".idea/runConfigurations", D, "JetBrains IDEs",
	 "shared run configurations"},
	{".nvim.lua", F, "Neovim", "Lua at start, with 'exrc' (after :trust)"},
	{".nvimrc", F, "Neovim", "commands at start, with 'exrc'"},
	{".exrc", F, "Vim and Neovim", "commands at start, with 'exrc'"},
	{".vimrc", F, "Vim", "commands at start, with 'exrc'"},
	{".lazy.lua", F, "lazy.nvim", "plugin specs, at start (after trust)"},
	{".dir-locals.el", F, "Emacs",
	 "directory-local variables (eval forms after asking)"},
	{".envrc", F, "direnv",
	 "shell code at every cd into the project (once allowed)"},
	{"mise.toml", F, "mise", "hooks, tasks and env scripts (once trusted)"},
	{".mise.toml", F, "mise",
	 "hooks, tasks and env scripts (once trusted)"},
	{".pre-commit-config.yaml", F, "pre-commit",
	 "the hooks git commit runs, where pre-commit is installed"},
	{".devcontainer", D, "Dev Containers",
	 "initializeCommand, on the host, when the container is built"},
	{".devcontainer.json", F, "Dev Containers",
	 "initializeCommand, on the host, when the container is built"},
};

#undef F
#undef D
#undef P

const size_t ltd_hostrun_count =
	sizeof(ltd_hostrun_table) / sizeof(ltd_hostrun_table[0]);

/* @rel is @name, or lies below it. */
static bool is_or_under(const char *rel, const char *name)
{
	size_t n = strlen(name);

	return strncmp(rel, name, n) == 0 && (!rel[n] || rel[n] == '/');
}

const struct ltd_hostrun *ltd_hostrun_find(const char *rel)
{
	return ltd_hostrun_find_in(ltd_hostrun_table, ltd_hostrun_count, rel);
}

const struct ltd_hostrun *ltd_hostrun_find_in(const struct ltd_hostrun *table,
					      size_t n, const char *rel)
{
	for (size_t i = 0; i < n; i++) {
		const struct ltd_hostrun *h = &table[i];

		switch (h->kind) {
		case LTD_HOSTRUN_FILE:
			if (!strcmp(rel, h->path))
				return h;
			break;
		case LTD_HOSTRUN_DIR:
			if (is_or_under(rel, h->path))
				return h;
			break;
		case LTD_HOSTRUN_PATTERN:
			if (!strchr(rel, '/') && fnmatch(h->path, rel, 0) == 0)
				return h;
			break;
		}
	}
	return NULL;
}

/* The names at the project's top that a PATTERN entry matches, added. */
static int add_matches(struct ltd_protected *s, const char *pattern,
		       struct ltd_err *err)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS,
	};
	_cleanup_close_ int fd = (int)syscall(SYS_openat2, AT_FDCWD, s->project,
					      &how, sizeof(how));
	char **names = NULL;
	size_t n = 0;
	int ret;

	/* The project was opened and judged by validation: one that cannot
	 * be read now has nothing of its own to protect. */
	if (fd < 0 || ltd_dir_names(fd, 0, &names, &n) < 0)
		return 0;
	ret = 0;
	for (size_t i = 0; !ret && i < n; i++) {
		const char *one = names[i];

		if (fnmatch(pattern, one, 0) == 0)
			ret = ltd_protected_add_names(s, &one, 1, err);
	}
	ltd_strv_free(names, n);
	return ret;
}

int ltd_hostrun_protect(struct ltd_protected *s, struct ltd_err *err)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < ltd_hostrun_count; i++) {
		const struct ltd_hostrun *h = &ltd_hostrun_table[i];

		if (h->kind == LTD_HOSTRUN_PATTERN)
			ret = add_matches(s, h->path, err);
		else
			ret = ltd_protected_add_names(s, &h->path, 1, err);
	}
	return ret;
}

/* At any depth: an editor opened on a subdirectory, direnv entering one,
 * read its files as the top's (review mode holds them all back). */
bool ltd_hostrun_match(const char *rel)
{
	for (const char *s = rel; s; s = strchr(s, '/'), s = s ? s + 1 : s)
		if (*s && ltd_hostrun_find(s))
			return true;
	return false;
}

/* Directories whose files are the protected set's (Claude Code's, git's):
 * a link by their names in a review would lead those programs elsewhere. */
static const char *const protected_dirs[] = {".claude", ".git", ".githooks",
					     ".husky"};

bool ltd_hostrun_dir(const char *rel)
{
	const char *name = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
	size_t n = strlen(name);

	for (size_t i = 0; n && i < ltd_hostrun_count; i++) {
		const char *p = ltd_hostrun_table[i].path;

		if (!strncmp(p, name, n) && (p[n] == '/' || p[n] == '\0'))
			return true;
	}
	for (size_t i = 0; i < ARRAY_SIZE(protected_dirs); i++)
		if (!strcmp(protected_dirs[i], name))
			return true;
	return false;
}
