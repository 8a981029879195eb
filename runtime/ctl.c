// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `ltd-native ps` and `ltd-native kill`: the registry read, every pid
 * checked against its start time before it is shown or signalled.
 */
#include <errno.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/pidfd.h>
#include <time.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/signals.h"
#include "common/text.h"
#include "runtime/exec.h"
#include "runtime/registry.h"
#include "runtime/run.h"

/* How long `kill` waits after SIGTERM before SIGKILL. */
#define LTD_KILL_GRACE_MS 10000
/* How long it then waits for the launcher to clean up. */
#define LTD_KILL_CLEANUP_MS 5000

static json_t *entry_json(const struct ltd_entry *e, long long now)
{
	_cleanup_free_ char *text = ltd_entry_format(e);
	json_t *o = text ? json_loads(text, 0, NULL) : NULL;

	if (o) {
		json_object_del(o, "launcher_start");
		json_object_del(o, "init_start");
		json_object_del(o, "waived");
		json_object_set_new(o, "pid", json_integer(e->init_pid));
		json_object_set_new(o, "uptime_seconds",
				    json_integer(now - e->started_at));
	}
	return o;
}

static void uptime(char *buf, size_t size, long long s)
{
	if (s < 0)
		s = 0;
	if (s < 3600)
		snprintf(buf, size, "%lldm%02llds", s / 60, s % 60);
	else
		snprintf(buf, size, "%lldh%02lldm", s / 3600, s / 60 % 60);
}

int ltd_ps(bool json, FILE *out, struct ltd_err *err)
{
	_cleanup_close_ int dir = ltd_registry_open(err);
	_cleanup_free_ struct ltd_entry *v = NULL;
	long long now = (long long)time(NULL);
	size_t n = 0;
	int ret;

	if (dir < 0)
		return dir;
	ret = ltd_registry_list(dir, &v, &n, err);
	if (ret < 0)
		return ret;
	if (json) {
		json_t *a = json_array();
		char *s;

		for (size_t i = 0; i < n; i++)
			json_array_append_new(a, entry_json(&v[i], now));
		s = json_dumps(a, JSON_COMPACT | JSON_PRESERVE_ORDER);
		json_decref(a);
		fprintf(out, "%s\n", s ? s : "[]");
		free(s);
		return 0;
	}
	fprintf(out, "%-20s %8s %8s  %-9s %s\n", "NAME", "PID", "UPTIME",
		"NETWORK", "PROJECT");
	for (size_t i = 0; i < n; i++) {
		char up[32];

		uptime(up, sizeof(up), now - v[i].started_at);
		/* The name is checked when an entry is read; the network
		 * is the launcher's word; the project is any directory of
		 * the user's tree, any bytes: shown. */
		fprintf(out, "%-20s %8d %8s  ", v[i].name, (int)v[i].init_pid,
			up);
		ltd_fput_shown(out, v[i].network);
		fprintf(out, "%*s ", (int)(9 - strnlen(v[i].network, 9)), "");
		ltd_fput_shown(out, v[i].project);
		fputc('\n', out);
	}
	return 0;
}

int ltd_signal_parse(const char *s)
{
	char *end;
	long v;

	if (!s || !*s)
		return 0;
	v = strtol(s, &end, 10);
	if (*end == '\0')
		return v > 0 && v < NSIG ? (int)v : 0;
	if (strncasecmp(s, "SIG", 3) == 0)
		s += 3;
	for (int sig = 1; sig < NSIG; sig++) {
		const char *abbrev = sigabbrev_np(sig);

		if (abbrev && strcasecmp(abbrev, s) == 0)
			return sig;
	}
	return 0;
}

static bool forwarded(int sig)
{
	for (const int *s = ltd_forwarded_signals; *s; s++)
		if (*s == sig)
			return true;
	return false;
}

/* True if the process behind @pidfd ended within @ms. */
static bool wait_gone(int pidfd, int ms)
{
	struct pollfd pfd = {.fd = pidfd, .events = POLLIN};

	return poll(&pfd, 1, ms) > 0;
}

int ltd_kill(const char *name, const char *signame, struct ltd_err *err)
{
	_cleanup_close_ int dir = -1, lpidfd = -1, ipidfd = -1;
	struct ltd_entry e;
	int sig = SIGTERM, ret;

	if (signame && !(sig = ltd_signal_parse(signame)))
		return ltd_err_set(err, EINVAL, "kill: unknown signal '%s'",
				   signame);
	/* The launcher passes on what it forwards anyway; SIGKILL goes to
	 * the cage's init (the launcher then cleans up).  A stop signal to
	 * the launcher would only freeze the supervisor. */
	if (sig != SIGKILL && !forwarded(sig))
		return ltd_err_set(
			err, EINVAL,
			"kill: %s is not passed on to a cage (use INT, TERM, "
			"HUP, QUIT, USR1, USR2, WINCH or KILL)",
			sigabbrev_np(sig) ? sigabbrev_np(sig) : signame);
	dir = ltd_registry_open(err);
	if (dir < 0)
		return dir;
	ret = ltd_registry_load(dir, name, &e, err);
	if (ret < 0)
		return ret;
	lpidfd = ltd_pidfd_verified(e.launcher_pid, e.launcher_start);
	ipidfd = ltd_pidfd_verified(e.init_pid, e.init_start);
	if (lpidfd < 0 || ipidfd < 0)
		return ltd_err_set(err, ESRCH, "no cage named '%s' is running",
				   name);
	if (sig != SIGKILL) {
		pidfd_send_signal(lpidfd, sig, NULL, 0);
		if (signame)
			return 0; /* a signal, as asked: not an ending */
		if (wait_gone(lpidfd, LTD_KILL_GRACE_MS))
			return 0;
	}
	pidfd_send_signal(ipidfd, SIGKILL, NULL, 0);
	if (wait_gone(lpidfd, LTD_KILL_CLEANUP_MS))
		return 0;
	/* A launcher that does not clean up goes the hard way; the entry it
	 * leaves is stale (its lock is gone) and removed here. */
	pidfd_send_signal(lpidfd, SIGKILL, NULL, 0);
	wait_gone(lpidfd, LTD_KILL_CLEANUP_MS);
	ltd_registry_load(dir, name, &e, &(struct ltd_err){0});
	return 0;
}
