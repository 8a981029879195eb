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

/*
 * A host path that ltd-native binds must exist and be named as it is: no
 * symbolic link anywhere in it.  A link inside a project is the agent's to
 * plant, and following it would hand the next run whatever it points at
 * (~/.ssh, a tmux socket).  The cage opens the path again without
 * following links (runtime/mounts.c), so a link swapped in later fails.
 */
static int resolve_existing(char **slot, const char *flag, const char *path,
			    struct ltd_err *err)
{
	char clean[PATH_MAX];
	size_t len = strlen(path);
	char *real;

	if (len >= sizeof(clean))
		return ltd_err_set(err, ENAMETOOLONG, "%s: path too long",
				   flag);
	memcpy(clean, path, len + 1);
	while (len > 1 && clean[len - 1] == '/')
		clean[--len] = '\0';
	real = realpath(clean, NULL);
	if (!real)
		return ltd_err_sys(err, "%s: '%s'", flag, path);
	if (strcmp(real, clean) != 0) {
		ltd_err_set(err, ELOOP,
			    "%s: '%s' is or passes through a symbolic link "
			    "(to '%s'); ltd-native binds no path through a "
			    "link: name the real path",
			    flag, path, real);
		free(real);
		return -ELOOP;
	}
	free(*slot);
	*slot = real;
	return 0;
}

static bool is_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return strncmp(path, dir, n) == 0 && (path[n] == '/' || !path[n]);
}

/*
 * Host paths that are never bound: the whole house, and the keys to it.
 * Binding one of them, anything inside one, or a directory that contains
 * one is refused.  (Opt-in flags for the few who must come with the policy
 * model; until then, no way round.)
 */
static int refuse_sensitive(const char *flag, const char *real,
			    const struct ltd_identity *id, struct ltd_err *err)
{
	/* Relative to the home directory ("~"), per uid ("@" + uid), or
	 * absolute. */
	static const struct {
		const char *path;
		const char *what;
	} deny[] = {
		{ "~/.ssh", "your SSH keys" },
		{ "~/.gnupg", "your GnuPG keys" },
		{ "~/.aws", "your AWS credentials" },
		{ "~/.config/gh", "your GitHub CLI token" },
		{ "~/.docker", "your Docker credentials" },
		{ "~/.kube", "your Kubernetes credentials" },
		{ "@/run/user/", "your session's sockets (ssh-agent, D-Bus)" },
		{ "@/tmp/tmux-", "your tmux server's socket" },
		{ "/run/docker.sock", "the Docker socket" },
		{ "/var/run/docker.sock", "the Docker socket" },
		{ "/run/podman", "the Podman socket" },
		{ "/proc", "a kernel interface" },
		{ "/sys", "a kernel interface" },
		{ "/dev", "host devices" },
	};
	char path[PATH_MAX];
	struct stat st;

	if (strcmp(real, "/") == 0 || is_under(id->home, real))
		return ltd_err_set(err, EPERM,
				   "%s: refusing to bind '%s': it is / or "
				   "contains your home directory",
				   flag, real);
	for (size_t i = 0; i < sizeof(deny) / sizeof(deny[0]); i++) {
		const char *d = deny[i].path;

		if (d[0] == '~')
			snprintf(path, sizeof(path), "%s%s", id->home, d + 1);
		else if (d[0] == '@')
			snprintf(path, sizeof(path), "%s%u", d + 1,
				 (unsigned)id->uid);
		else
			snprintf(path, sizeof(path), "%s", d);
		/* Inside it, or (when it exists) a directory holding it. */
		if (is_under(real, path) ||
		    (is_under(path, real) && lstat(path, &st) == 0))
			return ltd_err_set(err, EPERM,
					   "%s: refusing to bind '%s': it is "
					   "or holds %s (%s)",
					   flag, real, deny[i].what, path);
	}
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
	return refuse_sensitive("--project", p->project, &p->id, err);
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
			ret = refuse_sensitive(flag, m->src, &p->id, err);
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
	if (!ret && p->protect_git)
		ret = ltd_git_protected(p, err);
	if (!ret)
		ret = validate_mounts(p, err);
	if (!ret && p->chdir && !path_is_normal(p->chdir))
		ret = ltd_err_set(err, EINVAL,
				  "--chdir: '%s' must be a normalized absolute "
				  "path",
				  p->chdir);
	return ret;
}
