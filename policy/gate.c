// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The gate: host paths that are never bound unless the user says, with the
 * --unsafe-... flag of their class, that they accept the named risk.  It
 * looks at real paths (validation resolved them; a link to ~/.ssh is
 * ~/.ssh), and at the home directory both as passwd names it and as it
 * really is, so a home reached through a link hides nothing.
 */
#include "policy/option.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const struct {
	const char *path; /* "~/": under home; "@": "%u" is the uid */
	const char *what;
	unsigned class;
} deny[] = {
	{"~/.ssh", "your SSH keys", LTD_UNSAFE_BIND_CREDENTIALS},
	{"~/.gnupg", "your GnuPG keys", LTD_UNSAFE_BIND_CREDENTIALS},
	{"~/.aws", "your AWS credentials", LTD_UNSAFE_BIND_CREDENTIALS},
	{"~/.config/gh", "your GitHub CLI token", LTD_UNSAFE_BIND_CREDENTIALS},
	{"~/.config/gcloud", "your Google Cloud credentials",
	 LTD_UNSAFE_BIND_CREDENTIALS},
	{"~/.azure", "your Azure credentials", LTD_UNSAFE_BIND_CREDENTIALS},
	{"~/.docker", "your Docker credentials", LTD_UNSAFE_BIND_CREDENTIALS},
	{"~/.kube", "your Kubernetes credentials", LTD_UNSAFE_BIND_CREDENTIALS},
	{"~/.netrc", "your .netrc passwords", LTD_UNSAFE_BIND_CREDENTIALS},
	{"~/.npmrc", "your npm token", LTD_UNSAFE_BIND_CREDENTIALS},
	{"~/.pypirc", "your PyPI token", LTD_UNSAFE_BIND_CREDENTIALS},
	{"~/.cargo/credentials", "your crates.io token",
	 LTD_UNSAFE_BIND_CREDENTIALS},
	{"~/.cargo/credentials.toml", "your crates.io token",
	 LTD_UNSAFE_BIND_CREDENTIALS},
	{"~/.git-credentials", "your git credentials",
	 LTD_UNSAFE_BIND_CREDENTIALS},
	{"~/.password-store", "your pass store", LTD_UNSAFE_BIND_CREDENTIALS},
	{"~/.local/share/keyrings", "your keyrings",
	 LTD_UNSAFE_BIND_CREDENTIALS},
	{"~/.claude/.credentials.json", "your Claude login",
	 LTD_UNSAFE_BIND_CREDENTIALS},
	{"~/.config/ltd-native",
	 "ltd-native's policy and approvals (the "
	 "cage could widen its next run)",
	 LTD_UNSAFE_BIND_CREDENTIALS},
	{"~/.local/share/ltd-native",
	 "ltd-native's pinned root filesystems "
	 "(the cage could change what the next "
	 "run starts)",
	 LTD_UNSAFE_BIND_CREDENTIALS},
	{"$XDG_DATA_HOME/ltd-native",
	 "ltd-native's pinned root filesystems "
	 "(the cage could change what the next "
	 "run starts)",
	 LTD_UNSAFE_BIND_CREDENTIALS},
	{"@/run/user/%u",
	 "your session's sockets (ssh-agent, D-Bus, "
	 "systemd --user)",
	 LTD_UNSAFE_BIND_SESSION},
	{"@/run/user/%u/docker.sock", "the rootless Docker socket",
	 LTD_UNSAFE_BIND_DOCKER},
	{"@/run/user/%u/docker", "rootless Docker's sockets",
	 LTD_UNSAFE_BIND_DOCKER},
	{"@/run/user/%u/podman", "the rootless Podman socket",
	 LTD_UNSAFE_BIND_DOCKER},
	{"@/tmp/tmux-%u", "your tmux server's socket", LTD_UNSAFE_BIND_SESSION},
	{"/run/docker.sock", "the Docker socket", LTD_UNSAFE_BIND_DOCKER},
	{"/var/run/docker.sock", "the Docker socket", LTD_UNSAFE_BIND_DOCKER},
	{"/run/podman", "the Podman socket", LTD_UNSAFE_BIND_DOCKER},
	{"/run/containerd", "the containerd socket", LTD_UNSAFE_BIND_DOCKER},
	/* What the host runs code from: gated only writable (a read-only
	 * bind implies LTD_UNSAFE_BIND_STARTUP, see validate.c). */
	{"~/.bashrc", "a shell startup file", LTD_UNSAFE_BIND_STARTUP},
	{"~/.bash_profile", "a shell startup file", LTD_UNSAFE_BIND_STARTUP},
	{"~/.bash_login", "a shell startup file", LTD_UNSAFE_BIND_STARTUP},
	{"~/.bash_logout", "a shell startup file", LTD_UNSAFE_BIND_STARTUP},
	{"~/.profile", "a shell startup file", LTD_UNSAFE_BIND_STARTUP},
	{"~/.zshenv", "a shell startup file", LTD_UNSAFE_BIND_STARTUP},
	{"~/.zprofile", "a shell startup file", LTD_UNSAFE_BIND_STARTUP},
	{"~/.zshrc", "a shell startup file", LTD_UNSAFE_BIND_STARTUP},
	{"~/.zlogin", "a shell startup file", LTD_UNSAFE_BIND_STARTUP},
	{"~/.config/fish", "fish's startup files", LTD_UNSAFE_BIND_STARTUP},
	{"~/.gitconfig", "git's global config (hooks, fsmonitor)",
	 LTD_UNSAFE_BIND_STARTUP},
	{"~/.config/git", "git's global config (hooks, fsmonitor)",
	 LTD_UNSAFE_BIND_STARTUP},
	{"~/.local/bin", "programs on your PATH", LTD_UNSAFE_BIND_STARTUP},
	{"~/bin", "programs on your PATH", LTD_UNSAFE_BIND_STARTUP},
	{"~/.local/lib", "Python's user site-packages (run at startup)",
	 LTD_UNSAFE_BIND_STARTUP},
	{"~/.config/systemd", "your systemd user units",
	 LTD_UNSAFE_BIND_STARTUP},
	{"~/.config/autostart", "your session's autostart entries",
	 LTD_UNSAFE_BIND_STARTUP},
	{"~/.config/environment.d", "your session's environment",
	 LTD_UNSAFE_BIND_STARTUP},
	{"~/.xprofile", "your X session's startup", LTD_UNSAFE_BIND_STARTUP},
	{"~/.xsessionrc", "your X session's startup", LTD_UNSAFE_BIND_STARTUP},
	{"~/.xinitrc", "your X session's startup", LTD_UNSAFE_BIND_STARTUP},
	{"~/.pam_environment", "your login environment",
	 LTD_UNSAFE_BIND_STARTUP},
	{"/proc", "a kernel interface", LTD_UNSAFE_BIND_KERNEL},
	{"/sys", "a kernel interface", LTD_UNSAFE_BIND_KERNEL},
	{"/dev", "host devices", LTD_UNSAFE_BIND_KERNEL},
};

static const char *risk(unsigned class)
{
	switch (class) {
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

static bool is_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return path[0] == '/';
	return strncmp(path, dir, n) == 0 && (path[n] == '/' || !path[n]);
}

/* One match: let it through (recording an explicit waiver) or refuse. */
static int judge(struct ltd_policy *p, const char *flag, const char *real,
		 const char *what, const char *at, unsigned class,
		 unsigned allow, struct ltd_err *err)
{
	if (!(allow & class))
		return ltd_err_set(err, EPERM,
				   "%s: refusing to bind '%s': it is or holds "
				   "%s (%s): %s; --%s allows it",
				   flag, real, what, at, risk(class),
				   ltd_unsafe_flag(class));
	if (!(p->unsafe & class))
		return 0; /* implied by the option itself (--ssh-agent...) */
	if (ltd_policy_add_note(&p->waived, &p->n_waived,
				"--%s: %s '%s': %s: %s", ltd_unsafe_flag(class),
				flag, real, what, risk(class)) < 0)
		return ltd_err_set(err, ENOMEM, "out of memory");
	return 0;
}

int ltd_policy_gate(struct ltd_policy *p, const char *flag, const char *real,
		    unsigned allow, struct ltd_err *err)
{
	const char *homes[2] = {p->id.home, p->host_home};
	char path[PATH_MAX];
	struct stat st;
	int ret = 0;

	for (int h = 0; h < 2 && !ret; h++)
		if (homes[h] &&
		    (strcmp(real, "/") == 0 || is_under(homes[h], real)))
			ret = judge(p, flag, real, "your home directory",
				    homes[h], LTD_UNSAFE_BIND_HOME, allow, err);
	for (size_t i = 0; !ret && i < sizeof(deny) / sizeof(deny[0]); i++) {
		const char *d = deny[i].path;

		for (int h = 0; h < 2 && !ret; h++) {
			if (d[0] == '~' && !homes[h])
				continue;
			if (d[0] != '~' && h > 0)
				break;
			if (d[0] == '$') {
				/* The store moves with XDG_DATA_HOME. */
				const char *x = getenv("XDG_DATA_HOME");

				if (!x || x[0] != '/')
					continue;
				snprintf(path, sizeof(path), "%s%s", x,
					 strchr(d, '/'));
			} else if (d[0] == '~')
				snprintf(path, sizeof(path), "%s%s", homes[h],
					 d + 1);
			else if (d[0] == '@')
				with_uid(path, sizeof(path), d + 1,
					 (unsigned)p->id.uid);
			else
				snprintf(path, sizeof(path), "%s", d);
			/* Inside it, or (when it exists) a directory
			 * holding it. */
			if (is_under(real, path) ||
			    (is_under(path, real) && lstat(path, &st) == 0))
				ret = judge(p, flag, real, deny[i].what, path,
					    deny[i].class, allow, err);
		}
	}
	return ret;
}
