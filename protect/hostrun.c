// SPDX-License-Identifier: GPL-2.0-or-later
#include "protect/hostrun.h"

#include <fnmatch.h>
#include <string.h>

#include "common/base.h"

/* Patterns as fnmatch(3) takes them, FNM_PATHNAME; a name without '*'
 * covers what lies below it too. */
static const char *const host_run[] = {
	".vscode/tasks.json",	   ".vscode/settings.json",
	".vscode/launch.json",	   ".vscode/extensions.json",
	".vscode/mcp.json",	   ".code-workspace",
	"*.code-workspace",	   ".gemini/settings.json",
	".gemini/extensions",	   ".cursor/mcp.json",
	".cursor/rules",	   ".cursor/environment.json",
	".codex/config.toml",	   ".aider.conf.yml",
	".continue/config.json",   ".idea/workspace.xml",
	".idea/runConfigurations", ".envrc",
	".pre-commit-config.yaml", ".devcontainer",
	".devcontainer.json",	   ".ltd-native",
};

/* Directories whose files are the protected set's (Claude Code's, git's):
 * a link by their names in a review would lead those programs elsewhere. */
static const char *const protected_dirs[] = {".claude", ".git", ".githooks",
					     ".husky"};

static bool under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == '\0');
}

static bool match_here(const char *rel)
{
	for (size_t i = 0; i < ARRAY_SIZE(host_run); i++) {
		if (!strchr(host_run[i], '*') && under(rel, host_run[i]))
			return true;
		if (fnmatch(host_run[i], rel, FNM_PATHNAME) == 0)
			return true;
	}
	return false;
}

/* At any depth: an editor opened on a subdirectory, direnv entering one,
 * read its files as the top's. */
bool ltd_hostrun_match(const char *rel)
{
	for (const char *s = rel; s; s = strchr(s, '/'), s = s ? s + 1 : s)
		if (match_here(s))
			return true;
	return false;
}

bool ltd_hostrun_dir(const char *rel)
{
	const char *name = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
	size_t n = strlen(name);

	for (size_t i = 0; i < ARRAY_SIZE(host_run); i++)
		if (!strncmp(host_run[i], name, n) &&
		    (host_run[i][n] == '/' || host_run[i][n] == '\0'))
			return true;
	for (size_t i = 0; i < ARRAY_SIZE(protected_dirs); i++)
		if (!strcmp(protected_dirs[i], name))
			return true;
	return false;
}
