// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Validation: resolve the policy against the host and refuse what cannot or
 * must not run, before any namespace exists.  Reads the host, changes
 * nothing on it.
 */
#include "policy/policy.h"

#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int dup_into(char **slot, const char *s, struct ltd_err *err)
{
	free(*slot);
	*slot = strdup(s);
	return *slot ? 0 : ltd_err_set(err, ENOMEM, "out of memory");
}

/* Absolute, no "." or ".." components, no "//", no trailing '/'. */
static bool path_is_normal(const char *p)
{
	if (p[0] != '/' || (p[1] == '\0'))
		return p[0] == '/';
	for (const char *c = p; *c; c++) {
		if (*c != '/')
			continue;
		if (c[1] == '/' || c[1] == '\0')
			return false;
		if (c[1] == '.' && (c[2] == '/' || c[2] == '\0'))
			return false;
		if (c[1] == '.' && c[2] == '.' && (c[3] == '/' || c[3] == '\0'))
			return false;
	}
	return true;
}

static int resolve_identity(struct ltd_identity *id, struct ltd_err *err)
{
	struct passwd *pw;
	struct group *gr;
	char buf[PATH_MAX];
	int ret;

	id->uid = getuid();
	id->gid = getgid();
	pw = getpwuid(id->uid);
	if (pw && pw->pw_name[0]) {
		ret = dup_into(&id->user, pw->pw_name, err);
	} else {
		snprintf(buf, sizeof(buf), "user%u", (unsigned)id->uid);
		ret = dup_into(&id->user, buf, err);
	}
	if (ret)
		return ret;
	/* A home of "/" or none would cover the whole cage with a tmpfs. */
	if (pw && pw->pw_dir[0] == '/' && pw->pw_dir[1] != '\0' &&
	    path_is_normal(pw->pw_dir))
		ret = dup_into(&id->home, pw->pw_dir, err);
	else {
		snprintf(buf, sizeof(buf), "/home/%s", id->user);
		ret = dup_into(&id->home, buf, err);
	}
	if (ret)
		return ret;
	gr = getgrgid(id->gid);
	ret = dup_into(&id->group, gr ? gr->gr_name : id->user, err);
	if (ret)
		return ret;
	/* The shell must exist inside: only /usr and its links go in. */
	if (pw && pw->pw_shell[0] == '/' && access(pw->pw_shell, X_OK) == 0 &&
	    (strncmp(pw->pw_shell, "/usr/", 5) == 0 ||
	     strncmp(pw->pw_shell, "/bin/", 5) == 0))
		return dup_into(&id->shell, pw->pw_shell, err);
	return dup_into(&id->shell, "/bin/sh", err);
}

/* realpath() into @slot, naming @flag when the path is not there. */
static int resolve_existing(char **slot, const char *flag, const char *path,
			    struct ltd_err *err)
{
	char *real = realpath(path, NULL);

	if (!real)
		return ltd_err_sys(err, "%s: '%s'", flag, path);
	free(*slot);
	*slot = real;
	return 0;
}

/* Binding / or the home directory (or any parent of it) is the whole house. */
static int refuse_whole_house(const char *flag, const char *real,
			      const char *home, struct ltd_err *err)
{
	size_t n = strlen(real);

	if (strcmp(real, "/") == 0 ||
	    (strncmp(home, real, n) == 0 && (home[n] == '/' || !home[n])))
		return ltd_err_set(err, EPERM,
				   "%s: refusing to bind '%s': it is / or "
				   "contains your home directory",
				   flag, real);
	return 0;
}

static int validate_project(struct ltd_policy *p, struct ltd_err *err)
{
	char cwd[PATH_MAX];
	struct stat st;
	int ret;

	if (!p->project) {
		if (!getcwd(cwd, sizeof(cwd)))
			return ltd_err_sys(err, "--project: current directory");
		ret = dup_into(&p->project, cwd, err);
		if (ret)
			return ret;
	}
	if (p->project[0] != '/')
		return ltd_err_set(err, EINVAL,
				   "--project: '%s' is not an absolute path",
				   p->project);
	ret = resolve_existing(&p->project, "--project", p->project, err);
	if (ret)
		return ret;
	if (stat(p->project, &st) < 0)
		return ltd_err_sys(err, "--project: '%s'", p->project);
	if (!S_ISDIR(st.st_mode))
		return ltd_err_set(err, ENOTDIR,
				   "--project: '%s' is not a directory",
				   p->project);
	return refuse_whole_house("--project", p->project, p->id.home, err);
}

static int validate_mounts(struct ltd_policy *p, struct ltd_err *err)
{
	for (size_t i = 0; i < p->n_mounts; i++) {
		struct ltd_user_mount *m = &p->mounts[i];
		char flag[32];
		int ret;

		snprintf(flag, sizeof(flag), "--%s", m->flag);
		if (!path_is_normal(m->dst) || strcmp(m->dst, "/") == 0)
			return ltd_err_set(err, EINVAL,
					   "%s: destination '%s' must be an "
					   "absolute path other than / without "
					   "'.', '..' or trailing '/'",
					   flag, m->dst);
		if (!m->src)
			continue;
		if (m->src[0] != '/')
			return ltd_err_set(err, EINVAL,
					   "%s: source '%s' is not an absolute "
					   "path",
					   flag, m->src);
		ret = resolve_existing(&m->src, flag, m->src, err);
		if (!ret)
			ret = refuse_whole_house(flag, m->src, p->id.home, err);
		if (ret)
			return ret;
	}
	return 0;
}

int ltd_policy_validate(struct ltd_policy *p, struct ltd_err *err)
{
	int ret;

	ret = resolve_identity(&p->id, err);
	if (!ret)
		ret = validate_project(p, err);
	if (!ret)
		ret = validate_mounts(p, err);
	if (!ret && p->chdir && !path_is_normal(p->chdir))
		ret = ltd_err_set(err, EINVAL,
				  "--chdir: '%s' must be a normalized absolute "
				  "path",
				  p->chdir);
	return ret;
}
