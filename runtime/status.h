/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a launcher of ltd-native reads: --json-status-fd events (one JSON
 * object per line) and the --info-fd object (bubblewrap's format).  The
 * builders are pure and return malloc'd text; ltd_status_write() is the
 * one executor.
 */
#ifndef LTD_STATUS_H
#define LTD_STATUS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "policy/publish.h"
#include "runtime/registry.h"

struct ltd_status {
	const char *name;  /* NULL: not named */
	pid_t cage_pid;	   /* the cage's init, as the host sees it */
	pid_t command_pid; /* the command, as the host sees it */
	pid_t command_pid_in_cage;
	uint64_t ns[LTD_NS_COUNT]; /* namespace inode numbers, 0 unknown */
	const char *network;
	char *const *waived;
	size_t n_waived;
	const struct ltd_publish *published; /* --publish */
	size_t n_published;
};

/* {"event":"started",...,"published":[{"address":"127.0.0.1",
 * "host_port":8080,"cage_port":80}]}\n */
char *ltd_status_started(const struct ltd_status *s);

/* {"event":"exited","exit_code":N} or with "signal" for a signal; the
 * exit code is what ltd-native itself returns for it (128+N). */
char *ltd_status_exited(int wait_status);

/* {"event":"ended"}: a --keep-running cage is gone (after "exited"). */
char *ltd_status_ended(void);

/* bubblewrap's --info-fd object: child-pid and *-namespace ids. */
char *ltd_status_info(const struct ltd_status *s);

/* Write all of @text to @fd (EINTR, short writes); frees @text. */
int ltd_status_write(int fd, char *text);

/* Network mode as text: "none", "allowlist", "host". */
const char *ltd_network_name(int mode);

#endif
