/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Named cages: where a running cage is registered so that `exec`, `ps` and
 * `kill` can find it.
 *
 * One directory per user: $XDG_RUNTIME_DIR/ltd-native, or
 * /tmp/ltd-native-UID when that is unset; owned by the user, mode 0700, or
 * refused.  A cage named NAME has NAME.json (the entry below, as JSON) and
 * NAME.sock (the launcher's control socket, served to `exec`).  The
 * launcher holds an exclusive flock on NAME.json for as long as it lives:
 * the kernel, not a pid, says whether an entry is live.  An entry whose
 * lock can be taken is stale and is removed by whoever notices.
 *
 * Pure parts (name rule, entry format, /proc/PID/stat parsing) first;
 * then the executors.
 */
#ifndef LTD_REGISTRY_H
#define LTD_REGISTRY_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/error.h"
#include "policy/policy.h"

/* The namespaces of a cage, in the order they are joined (user first: it
 * gives the capabilities the others need). */
enum {
	LTD_NS_USER,
	LTD_NS_MNT,
	LTD_NS_PID,
	LTD_NS_NET,
	LTD_NS_IPC,
	LTD_NS_UTS,
	LTD_NS_CGROUP,
	LTD_NS_COUNT,
};
extern const char *const ltd_ns_names[LTD_NS_COUNT]; /* "user", "mnt"... */
extern const int ltd_ns_types[LTD_NS_COUNT];	     /* CLONE_NEWUSER... */

struct ltd_entry {
	char name[LTD_NAME_MAX + 1];
	pid_t launcher_pid;
	unsigned long long launcher_start; /* /proc/PID/stat starttime */
	pid_t init_pid;			   /* 0 while the cage starts */
	unsigned long long init_start;
	pid_t command_pid; /* host pid of the first command */
	uint64_t ns[LTD_NS_COUNT];
	char network[16];
	char seccomp[16];
	char tier[16];
	char project[PATH_MAX];
	long long started_at; /* seconds since the epoch */
	bool keep_running;
	/* The waived risks (written only; not read back). */
	char *const *waived;
	size_t n_waived;
};

/* Pure: the entry as one JSON object and a newline; malloc'd. */
char *ltd_entry_format(const struct ltd_entry *e);

/* Pure: parse ltd_entry_format()'s output (waived is not read back). */
int ltd_entry_parse(const char *text, struct ltd_entry *e, struct ltd_err *err);

/* Pure: the starttime (field 22) of a /proc/PID/stat line. */
int ltd_stat_starttime(const char *stat, unsigned long long *start);

/* The starttime of @pid, or 0 if it is gone. */
unsigned long long ltd_proc_starttime(pid_t pid);

/* Open (create if missing) the user's registry directory, checking owner
 * and mode.  Returns an O_PATH-free directory fd or a negative errno. */
int ltd_registry_open(struct ltd_err *err);

/*
 * Claim NAME for the calling launcher: a live entry of that name is an
 * error (EEXIST), a stale one is removed first.  Returns the entry's fd,
 * locked for as long as it stays open (keep it for the cage's lifetime).
 */
int ltd_registry_claim(int dir, const char *name, struct ltd_err *err);

/* Rewrite the claimed entry's content in place (the lock stays). */
int ltd_registry_update(int fd, const struct ltd_entry *e, struct ltd_err *err);

/* Remove NAME.json and NAME.sock (the launcher, at exit). */
void ltd_registry_remove(int dir, const char *name);

/*
 * Read a live entry: -ENOENT if there is none, -ESRCH if it was stale
 * (and is now removed), -EAGAIN if the cage is still starting.
 */
int ltd_registry_load(int dir, const char *name, struct ltd_entry *e,
		      struct ltd_err *err);

/* Every live entry, stale ones removed on the way; free(*out). */
int ltd_registry_list(int dir, struct ltd_entry **out, size_t *n,
		      struct ltd_err *err);

/*
 * A pidfd for @pid if it is still the process that started at @start
 * (the pidfd pins it; the starttime check proves it is the same one).
 * -ESRCH otherwise.
 */
int ltd_pidfd_verified(pid_t pid, unsigned long long start);

#endif
