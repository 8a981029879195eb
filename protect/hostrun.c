// SPDX-License-Identifier: GPL-2.0-or-later
#include "protect/hostrun.h"

#include <fnmatch.h>
#include <string.h>

#include "common/base.h"

/* Patterns as fnmatch(3) takes them, FNM_PATHNAME; a name without '*'
 * covers what lies below it too. */
static const char *const host_run[] = {
	".vscode/tasks.json",
	".vscode/settings.json",
	".vscode/launch.json",
	".vscode/extensions.json",
	".vscode/mcp.json",
	".code-workspace",
	"*.code-workspace",
	".gemini/settings.json",
	".gemini/extensions",
	".cursor/mcp.json",
	".cursor/rules",
	".cursor/environment.json",
	".codex/config.toml",
	".aider.conf.yml",
	".continue/config.json",
	".idea/workspace.xml",
	".idea/runConfigurations",
	".envrc",
	".pre-commit-config.yaml",
	".devcontainer",
	".ltd-native",
};

static bool under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == '\0');
}

bool ltd_hostrun_match(const char *rel)
{
	for (size_t i = 0; i < ARRAY_SIZE(host_run); i++) {
		if (!strchr(host_run[i], '*') && under(rel, host_run[i]))
			return true;
		if (fnmatch(host_run[i], rel, FNM_PATHNAME) == 0)
			return true;
	}
	return false;
}
