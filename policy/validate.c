// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Validation: resolve the policy against the host and refuse what cannot or
 * must not run, before any namespace exists.  Reads the host, changes
 * nothing on it.
 */
#include "policy/option.h"
#include "common/path.h"
#include "common/realpath.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static int dup_into(char **slot, const char *s, struct ltd_err *err)
{
	free(*slot);
	*slot = strdup(s);
	return *slot ? 0 : ltd_err_set(err, ENOMEM, "out of memory");
}

/* Absolute, no "." or ".." components, no "//", no trailing '/'. */
static int resolve_identity(struct ltd_identity *id,
			    const struct ltd_host_user *u, struct ltd_err *err)
{
	char buf[PATH_MAX];
	int ret;

	id->uid = u->uid;
	id->gid = u->gid;
	if (u->name && u->name[0]) {
		ret = dup_into(&id->user, u->name, err);
	} else {
		snprintf(buf, sizeof(buf), "user%u", (unsigned)id->uid);
		ret = dup_into(&id->user, buf, err);
	}
	if (ret)
		return ret;
	/* A home of "/" or none would cover the whole cage with a tmpfs. */
	if (u->home && u->home[0] == '/' && u->home[1] != '\0' &&
	    ltd_path_is_normal(u->home))
		ret = dup_into(&id->home, u->home, err);
	else {
		snprintf(buf, sizeof(buf), "/home/%s", id->user);
		ret = dup_into(&id->home, buf, err);
	}
	if (ret)
		return ret;
	ret = dup_into(&id->group, u->group ? u->group : id->user, err);
	if (ret)
		return ret;
	/* The shell must exist inside: only /usr and its links go in. */
	if (u->shell && u->shell[0] == '/' && u->shell_runs &&
	    (strncmp(u->shell, "/usr/", 5) == 0 ||
	     strncmp(u->shell, "/bin/", 5) == 0))
		return dup_into(&id->shell, u->shell, err);
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
	/* The common case in one call: a normal path that the kernel walks
	 * without meeting a link is its own real path (realpath() would
	 * readlink each component).  Anything else takes the long way, which
	 * also names where a link leads. */
	if (ltd_path_is_normal(clean)) {
		struct open_how how = {.flags = O_PATH | O_CLOEXEC,
				       .resolve = RESOLVE_NO_SYMLINKS};
		int fd = (int)syscall(SYS_openat2, AT_FDCWD, clean, &how,
				      sizeof(how));

		if (fd >= 0) {
			close(fd);
			return dup_into(slot, clean, err);
		}
	}
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

/*
 * --review: where reviews are kept ($XDG_STATE_HOME/ltd-native/reviews,
 * as review/store.c finds it) may not lie in the project.  Said before
 * the gate, whose row for the same store would otherwise refuse the
 * project with a less helpful message.
 */
static int review_store_outside(const struct ltd_policy *p, struct ltd_err *err)
{
	const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	char store[PATH_MAX], real[PATH_MAX];
	int ret;

	if (!p->review)
		return 0;
	if (!home || home[0] != '/')
		home = p->id.home;
	if (xdg && xdg[0] == '/')
		ret = ltd_path_fmt(store, sizeof(store),
				   "%s/ltd-native/reviews", xdg);
	else if (home && home[0] == '/')
		ret = ltd_path_fmt(store, sizeof(store),
				   "%s/.local/state/ltd-native/reviews", home);
	else
		return 0; /* review/store.c says there is nowhere */
	/* As the kernel reaches it ("x/../p", a link): the text alone
	 * could name another place. */
	if (ret == 0 && ltd_realpath_existing(store, real, sizeof(real)) == 0 &&
	    ltd_path_is_under(real, p->project))
		return ltd_err_set(err, ELOOP,
				   "--review: reviews are kept in %s, which "
				   "lies in the project; set XDG_STATE_HOME "
				   "to a directory outside it",
				   store);
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
	ret = review_store_outside(p, err);
	if (ret)
		return ret;
	return ltd_policy_gate(p, "--project", p->project, true, p->unsafe,
			       err);
}

/* Persistent state that does not exist yet: created by the launcher just
 * before the run (runtime/state.c), without following links. */
static bool state_missing(const struct ltd_user_mount *m)
{
	struct stat st;

	return m->state && lstat(m->src, &st) < 0 && errno == ENOENT;
}

static int check_type(const struct ltd_user_mount *m, const char *flag,
		      const struct ltd_identity *id, struct ltd_err *err)
{
	struct stat st;

	if (!m->want)
		return 0;
	if (stat(m->src, &st) < 0)
		return ltd_err_sys(err, "%s: '%s'", flag, m->src);
	if ((st.st_mode & S_IFMT) != m->want)
		return ltd_err_set(
			err, EINVAL, "%s: '%s' is not a %s", flag, m->src,
			m->want == S_IFSOCK ? "socket" : "regular file");
	/* Another user's socket at our $SSH_AUTH_SOCK is not our agent. */
	if (m->want == S_IFSOCK && st.st_uid != id->uid)
		return ltd_err_set(err, EPERM, "%s: '%s' belongs to uid %u",
				   flag, m->src, (unsigned)st.st_uid);
	return 0;
}

static int validate_mounts(struct ltd_policy *p, struct ltd_err *err)
{
	for (size_t i = 0; i < p->n_mounts; i++) {
		struct ltd_user_mount *m = &p->mounts[i];
		char flag[48];
		int ret;

		snprintf(flag, sizeof(flag), "%s%s", m->derived ? "" : "--",
			 m->flag);
		if (!ltd_path_is_normal(m->dst) || strcmp(m->dst, "/") == 0)
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
		if (state_missing(m))
			ret = 0;
		else
			ret = resolve_existing(&m->src, flag, m->src, err);
		if (!ret)
			ret = ltd_policy_gate(p, flag, m->src,
					      m->kind != LTD_UM_RO_BIND,
					      p->unsafe | m->waive, err);
		if (!ret && !state_missing(m))
			ret = check_type(m, flag, &p->id, err);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * --publish: pasta forwards, so only in allowlist mode; another host
 * address than loopback lets other machines in, and is gated.
 */
static int check_publish(struct ltd_policy *p, struct ltd_err *err)
{
	char text[64];

	if (p->n_publish && p->network == LTD_NET_NONE)
		return ltd_err_set(err, EINVAL,
				   "--publish: --network none has no network "
				   "to forward through (pasta runs only in "
				   "allowlist mode); use --network allowlist");
	if (p->n_publish && p->network == LTD_NET_HOST)
		return ltd_err_set(err, EINVAL,
				   "--publish: with --network host the cage's "
				   "servers are on the host's network already");
	for (size_t i = 0; i < p->n_publish; i++) {
		char host[64];

		if (ltd_publish_loopback(&p->publish[i]))
			continue;
		ltd_publish_format(&p->publish[i], text, sizeof(text));
		ltd_publish_host(&p->publish[i], host, sizeof(host));
		if (!(p->unsafe & LTD_UNSAFE_PUBLISH_EXTERNAL))
			return ltd_err_set(err, EPERM,
					   "--publish %s: refusing a host "
					   "address other than loopback: other "
					   "machines could reach the cage's "
					   "server; --unsafe-publish-external "
					   "allows it",
					   text);
		if (ltd_policy_add_note(&p->waived, &p->n_waived,
					"--unsafe-publish-external: the cage's "
					"port %u is served at %s:%u, beyond "
					"this host's loopback",
					p->publish[i].cage_port, host,
					p->publish[i].host_port) < 0)
			return ltd_err_set(err, ENOMEM, "out of memory");
	}
	return 0;
}

/* Options that are their own opt-in: recorded with what they cost. */
static int gated_options(struct ltd_policy *p, struct ltd_err *err)
{
	int ret = check_publish(p, err);

	if (ret < 0)
		return ret;

	if (p->network == LTD_NET_HOST &&
	    !(p->unsafe & LTD_UNSAFE_HOST_NETWORK))
		return ltd_err_set(err, EPERM,
				   "--network host: refusing the host's "
				   "network: the agent could reach every "
				   "service on this host and the whole "
				   "network, with no egress filter; "
				   "--unsafe-host-network allows it");
	if (p->network == LTD_NET_HOST)
		ret = ltd_policy_add_note(&p->waived, &p->n_waived,
					  "--unsafe-host-network: no network "
					  "namespace, no egress filter: the "
					  "host's services and network are "
					  "reachable");
	if (!ret && p->seccomp == LTD_FILTER_OFF)
		ret = ltd_policy_add_note(&p->waived, &p->n_waived,
					  "--unsafe-no-seccomp: the command "
					  "runs without a system-call filter");
	if (!ret && p->seccomp == LTD_FILTER_LOG)
		ret = ltd_policy_add_note(
			&p->waived, &p->n_waived,
			"--unsafe-seccomp-log: the system-call "
			"filter logs and refuses nothing: "
			"nested user namespaces, io_uring, "
			"bpf... are reachable");
	if (!ret && !p->protect_git)
		ret = ltd_policy_add_note(&p->waived, &p->n_waived,
					  "--unsafe-writable-git: .git/hooks, "
					  ".git/config and what Claude Code, "
					  "editors and other agents run from "
					  "the project (.claude/settings.json, "
					  ".claude/commands, "
					  ".vscode/tasks.json...) are "
					  "writable: code planted there runs "
					  "on the host later");
	if (ret < 0)
		return ltd_err_set(err, ENOMEM, "out of memory");
	/* --allow-domain (the domain files are judged as they are read). */
	return ltd_policy_check_wildcards(p, 0, err);
}

/* Test hooks (LTD_TEST_HOOKS_VAR): each a hole in one layer, said as one. */
static int test_hooks(struct ltd_policy *p, struct ltd_err *err)
{
	char dest[128];
	int ret = 0;

	for (size_t i = 0; !ret && i < p->n_fw_holes; i++) {
		ltd_cidr_dest_format(&p->fw_holes[i], dest, sizeof(dest));
		ret = ltd_policy_add_note(
			&p->waived, &p->n_waived,
			"--test-firewall-hole: test hook: the "
			"firewall admits %s, which the policy "
			"does not allow",
			dest);
	}
	if (!ret && p->test_landlock_abi >= 0)
		ret = ltd_policy_add_note(
			&p->waived, &p->n_waived,
			"--test-landlock-abi: test hook: the run takes this "
			"kernel's Landlock to be ABI %d at most",
			p->test_landlock_abi);
	for (size_t i = 0; !ret && i < p->n_mounts; i++)
		if (strcmp(p->mounts[i].flag, LTD_TEST_LANDLOCK_HOLE) == 0)
			ret = ltd_policy_add_note(
				&p->waived, &p->n_waived,
				"--test-landlock-hole: test hook: %s is "
				"writable at %s without a Landlock rule",
				p->mounts[i].src, p->mounts[i].dst);
	return ret < 0 ? ltd_err_set(err, ENOMEM, "out of memory") : 0;
}

/* The launcher interface: a kept cage must be reachable by name, and the
 * descriptors the launcher will write to must be open now. */
static int validate_lifecycle(const struct ltd_policy *p, struct ltd_err *err)
{
	if (p->keep_running && !p->name)
		return ltd_err_set(err, EINVAL,
				   "--keep-running needs --name "
				   "(it is how 'kill' finds the "
				   "cage)");
	if (p->status_fd >= 0 && fcntl(p->status_fd, F_GETFD) < 0)
		return ltd_err_sys(err, "--json-status-fd %d", p->status_fd);
	if (p->info_fd >= 0 && fcntl(p->info_fd, F_GETFD) < 0)
		return ltd_err_sys(err, "--info-fd %d", p->info_fd);
	/* The info fd is closed after its one object: the status events
	 * would then go to a closed (or reused) descriptor. */
	if (p->info_fd >= 0 && p->info_fd == p->status_fd)
		return ltd_err_set(err, EINVAL,
				   "--info-fd and --json-status-fd must be "
				   "different descriptors");
	return 0;
}

/*
 * ltd-native itself (and ltd-dnsd beside it) in a place the cage can
 * write: what the cage leaves there runs on the host, uncaged, at the next
 * run.  Said, not refused (`make && ./build/ltd-native run --project .`
 * is how one tries it from a checkout).
 */
static int note_writable_self(struct ltd_policy *p)
{
	char exe[PATH_MAX], *slash;
	/* The kernel's own answer is already the real path: realpath()
	 * would read it, then look at each of its components again. */
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (len <= 0 || exe[0] != '/')
		return 0;
	exe[len] = '\0';
	slash = strrchr(exe, '/');
	if (slash && slash != exe)
		*slash = '\0';
	for (size_t i = 0; i <= p->n_mounts; i++) {
		const char *w = i < p->n_mounts ? p->mounts[i].src : p->project;

		if (i < p->n_mounts && p->mounts[i].kind != LTD_UM_BIND)
			continue;
		if (w && !strncmp(exe, w, strlen(w)) &&
		    (exe[strlen(w)] == '/' || !exe[strlen(w)]))
			return ltd_policy_add_note(
				&p->warnings, &p->n_warnings,
				"ltd-native runs from %s, which the cage can "
				"write (%s): what it leaves there (ltd-native, "
				"ltd-dnsd) runs on the host at your next run; "
				"install ltd-native outside what you bind",
				exe, w);
	}
	return 0;
}

int ltd_policy_validate(struct ltd_policy *p, const struct ltd_host_user *u,
			struct ltd_err *err)
{
	int ret;

	ret = resolve_identity(&p->id, u, err);
	if (!ret) {
		/* The gate and the tier look at the home as it really is. */
		free(p->host_home);
		p->host_home = realpath(p->id.home, NULL);
		ret = gated_options(p, err);
	}
	if (!ret)
		ret = test_hooks(p, err);
	if (!ret)
		ret = validate_project(p, err);
	return ret;
}

int ltd_policy_validate_binds(struct ltd_policy *p, struct ltd_err *err)
{
	int ret;

	ret = validate_mounts(p, err);
	/* Once the binds are resolved: where the cage can write. */
	if (!ret)
		ret = ltd_policy_inputs(p, err);
	if (!ret && p->chdir && !ltd_path_is_normal(p->chdir))
		ret = ltd_err_set(err, EINVAL,
				  "--chdir: '%s' must be a normalized absolute "
				  "path",
				  p->chdir);
	if (!ret)
		ret = validate_lifecycle(p, err);
	if (!ret && note_writable_self(p) < 0)
		ret = ltd_err_set(err, ENOMEM, "out of memory");
	return ret;
}
