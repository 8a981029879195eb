// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What Claude Code on the host runs from the project without being asked:
 * the commands that the project's settings name (hooks, the status line,
 * the credential helpers, the environment they run with) and the MCP
 * servers of .mcp.json.  The settings themselves are protected with git's
 * paths (gitprotect.c); the files they run are protected here, so that a
 * script the agent rewrites in the cage does not run on the host at the
 * next Claude Code session there.
 *
 * Each command is read by cmdfiles.c (the files in the project it runs,
 * kept read-only); a link in the project on the way is an error here: the
 * cage could re-point it.
 */
#include "protect/agentprotect.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base.h"
#include "common/cleanup.h"
#include "protect/cmdfiles.h"
#include "protect/hostrun.h"
#define SETTINGS_MAX (4u << 20)
#define JSON_DEPTH   64

/* The keys whose string is a command line Claude Code runs. */
static bool command_key(const char *k)
{
	size_t n = strlen(k);

	return !strcmp(k, "command") || !strcmp(k, "awsAuthRefresh") ||
	       !strcmp(k, "awsCredentialExport") ||
	       (n > 6 && !strcmp(k + n - 6, "Helper"));
}

/* The directory the commands run in. */
static const char *base_of(const struct ltd_cmdfiles *s)
{
	return s->base ? s->base : s->set->project;
}

/* One entry of a *PATH variable: a directory whose programs run, by its
 * text when missing (one bare name, `bin`, is a path here: the cage could
 * make it). */
static int add_path_dir(struct ltd_cmdfiles *s, const char *part,
			struct ltd_err *err)
{
	char dir[PATH_MAX];

	if (strchr(part, '/') || part[0] == '$' || part[0] == '~' ||
	    !strcmp(part, ".") || !strcmp(part, "..") ||
	    (size_t)snprintf(dir, sizeof(dir), "./%s", part) >= sizeof(dir))
		return ltd_cmdfiles_protect(s, part, base_of(s), true, err);
	return ltd_cmdfiles_protect(s, dir, base_of(s), true, err);
}

/*
 * The environment the settings give Claude Code and its hooks: BASH_ENV,
 * NODE_OPTIONS... name files that run; a *PATH variable names directories
 * whose programs run.
 */
static int add_env(struct ltd_cmdfiles *s, json_t *env, struct ltd_err *err)
{
	const char *k;
	json_t *v;
	int ret = 0;

	json_object_foreach(env, k, v)
	{
		size_t n = strlen(k);
		bool dirs = n >= 4 && !strcmp(k + n - 4, "PATH");
		_cleanup_free_ char *list = NULL;
		char *save = NULL;

		if (!json_is_string(v))
			continue;
		if (!dirs)
			ret = ltd_cmdfiles_protect(s, json_string_value(v),
						   base_of(s), false, err);
		list = strdup(json_string_value(v));
		if (!ret && !list)
			ret = ltd_err_set(err, ENOMEM, "out of memory");
		for (char *part = list ? strtok_r(list, ":", &save) : NULL;
		     !ret && part &&
		     (dirs || strchr(json_string_value(v), ':'));
		     part = strtok_r(NULL, ":", &save))
			ret = dirs ? add_path_dir(s, part, err)
				   : ltd_cmdfiles_protect(s, part, base_of(s),
							  false, err);
		if (ret)
			return ret;
	}
	return 0;
}

static int walk(struct ltd_cmdfiles *s, json_t *j, int depth,
		struct ltd_err *err)
{
	const char *k;
	json_t *v;
	size_t i;
	int ret = 0;

	if (depth > JSON_DEPTH)
		return 0;
	if (json_is_array(j)) {
		json_array_foreach(j, i, v)
		{
			ret = walk(s, v, depth + 1, err);
			if (ret)
				return ret;
		}
		return 0;
	}
	if (!json_is_object(j))
		return 0;
	json_object_foreach(j, k, v)
	{
		if (json_is_string(v) && command_key(k)) {
			ret = ltd_cmdfiles_protect(s, json_string_value(v),
						   base_of(s), false, err);
		} else if (json_is_object(v) && !strcmp(k, "env")) {
			ret = add_env(s, v, err);
		} else if (json_is_array(v) && !strcmp(k, "args")) {
			json_t *a;

			/* An MCP server's argv: each element one word
			 * (and a `-c` line read as one). */
			json_array_foreach(v, i, a)
			{
				if (ret || !json_is_string(a))
					continue;
				ret = ltd_cmdfiles_protect(
					s, json_string_value(a), base_of(s),
					false, err);
			}
		} else {
			ret = walk(s, v, depth + 1, err);
		}
		if (ret)
			return ret;
	}
	return 0;
}

/* The settings' text as Claude Code reads it, or NULL and an error. */
static json_t *settings_json(const char *text, size_t len, const char *path,
			     int *ret, struct ltd_err *err)
{
	json_error_t jerr;
	json_t *j = json_loadb(text, len,
			       JSON_ALLOW_NUL | JSON_DECODE_INT_AS_REAL, &jerr);

	*ret = 0;
	if (!j)
		*ret = ltd_err_set(err, EINVAL,
				   "%s:%d: not JSON that ltd-native can read "
				   "(%s): it cannot tell which files Claude "
				   "Code would run from it; fix the file "
				   "(--unsafe-writable-git runs without this "
				   "protection)",
				   path, jerr.line, jerr.text);
	return j;
}

/*
 * The file's JSON; NULL with *@ret 0 when it is missing (or a link:
 * ltd_protected_check_links refuses that with its own message), NULL with
 * an error when it is there but cannot be read as JSON as Claude Code
 * reads it: then nothing would say which files it runs.
 */
int ltd_agentprotect_read(int fd, char **text, size_t *len)
{
	struct stat st;
	ssize_t r;

	*text = NULL;
	*len = 0;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_size > SETTINGS_MAX)
		return -EINVAL;
	if (!(*text = malloc((size_t)st.st_size + 1)))
		return -ENOMEM;
	while (*len < (size_t)st.st_size &&
	       (r = read(fd, *text + *len, (size_t)st.st_size - *len)) > 0)
		*len += (size_t)r;
	return 0;
}

static json_t *load(const char *path, int *ret, struct ltd_err *err)
{
	_cleanup_close_ int fd =
		open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	_cleanup_free_ char *buf = NULL;
	size_t len = 0;
	int r;

	*ret = 0;
	if (fd < 0 && (errno == ENOENT || errno == ELOOP || errno == ENOTDIR))
		return NULL;
	r = fd < 0 ? -errno : ltd_agentprotect_read(fd, &buf, &len);
	if (r == -EINVAL)
		*ret = ltd_err_set(err, EINVAL,
				   "%s: not a regular file of at most %u "
				   "bytes: ltd-native cannot tell which files "
				   "Claude Code would run from it "
				   "(--unsafe-writable-git runs without this "
				   "protection)",
				   path, SETTINGS_MAX);
	else if (r == -ENOMEM)
		*ret = ltd_err_set(err, ENOMEM, "out of memory");
	else if (r < 0)
		*ret = ltd_err_set(err, -r, "%s: %s", path, strerror(-r));
	return r < 0 ? NULL : settings_json(buf, len, path, ret, err);
}

int ltd_agentprotect_settings(const struct ltd_policy *p,
			      struct ltd_protected *set, const char *file,
			      const char *text, size_t len, struct ltd_err *err)
{
	struct ltd_cmdfiles s = {.set = set, .file = file};
	int ret;
	json_t *j = settings_json(text, len, file, &ret, err);

	ltd_protected_for(set, p);
	if (j)
		ret = walk(&s, j, 0, err);
	json_decref(j);
	return ret;
}

bool ltd_agentprotect_in_packages(const char *rel)
{
	for (const char *s = rel; s; s = strchr(s, '/'), s = s ? s + 1 : s)
		if (!strncmp(s, "node_modules", 12) && (s[12] == '/' || !s[12]))
			return true;
	return false;
}

int ltd_agentprotect_nested(struct ltd_protected *set, const char *base,
			    const char *file, const char *text, size_t len,
			    struct ltd_err *err)
{
	struct ltd_cmdfiles s = {
		.set = set, .file = file, .refuse_links = true, .base = base};
	int ret;
	json_t *j = settings_json(text, len, file, &ret, err);

	if (j)
		ret = walk(&s, j, 0, err);
	json_decref(j);
	return ret;
}

#define F LTD_HOSTRUN_FILE
#define D LTD_HOSTRUN_DIR

/* What Claude Code runs from the project besides its settings' commands:
 * read-only in the cage, moved aside when the command made them.  Its own
 * sandbox keeps its agent from writing the same places. */
static const struct ltd_hostrun claude[] = {
	/* Protected at the top with git's (gitprotect.c's fixed names);
	 * here for what is below it: a review holds a nested one back, the
	 * exit walk moves one the command made aside (new-user review). */
	{".claude/settings.json", F, "Claude Code",
	 "its settings: the hooks and commands they name, at its start there"},
	{".claude/settings.local.json", F, "Claude Code",
	 "its settings: the hooks and commands they name, at its start there"},
	{".mcp.json", F, "Claude Code",
	 "the MCP servers it starts, when started there"},
	{".claude/hooks", D, "Claude Code",
	 "the scripts its hooks run, by convention"},
	{".claude/agents", D, "Claude Code",
	 "subagents: their tools and the hooks in their frontmatter"},
	{".claude/skills", D, "Claude Code",
	 "skills: their scripts, the tools they allow, their hooks"},
	{".claude/commands", D, "Claude Code",
	 "slash commands: the shell lines (!`...`) they run and the tools "
	 "they allow, without asking, when typed"},
	{".claude/workflows", D, "Claude Code", "workflows it runs"},
	{".claude/routines", D, "Claude Code", "routines it runs"},
	{".claude/launch.json", F, "Claude Code",
	 "the commands that start its preview servers"},
	{".claude/scheduled_tasks.json", F, "Claude Code",
	 "the prompts it runs on a schedule"},
};

#undef F
#undef D

const struct ltd_hostrun *ltd_agentprotect_find(const char *rel)
{
	return ltd_hostrun_find_in(claude, ARRAY_SIZE(claude), rel);
}

const struct ltd_hostrun *ltd_agentprotect_who(const char *rel)
{
	const struct ltd_hostrun *h = ltd_agentprotect_find(rel);

	return h ? h : ltd_hostrun_find(rel);
}

int ltd_agentprotect_project(const struct ltd_policy *p,
			     struct ltd_protected *set, struct ltd_err *err)
{
	static const char *const files[] = {
		".claude/settings.json",
		".claude/settings.local.json",
		".mcp.json",
	};
	struct ltd_cmdfiles s = {.set = set};
	char path[PATH_MAX];
	int ret = 0;

	ltd_protected_for(set, p);
	for (size_t i = 0; !ret && i < ARRAY_SIZE(claude); i++)
		ret = ltd_protected_add_names(set, &claude[i].path, 1, err);
	for (size_t i = 0; !ret && i < sizeof(files) / sizeof(files[0]); i++) {
		json_t *j;

		snprintf(path, sizeof(path), "%s/%s", set->project, files[i]);
		s.file = path;
		s.said_unknown = false;
		j = load(path, &ret, err);
		if (j)
			ret = walk(&s, j, 0, err);
		json_decref(j);
	}
	return ret;
}
