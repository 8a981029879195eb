/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The agents' state outside the project that a cage writes and someone
 * else reads as it was left: Claude Code's for the project
 * (~/.claude/projects/<the project>: its transcripts and its memory, which
 * Claude Code on the host loads into every session there), and the auth
 * directory every run shares (where the guide has the agents keep their
 * login, and so their configuration, which every later run's agent reads
 * and runs the hooks of).  Looked at when the run ends
 * (docs/decisions/0160-claude-state-looked-at-exit.md).
 */
#ifndef LTD_AGENTSTATE_H
#define LTD_AGENTSTATE_H

#include <stdio.h>
#include <time.h>

/* How deep and how many entries of it are looked at; past either, said. */
#define LTD_AGENTSTATE_MAX_DEPTH   8
#define LTD_AGENTSTATE_MAX_ENTRIES 100000

enum ltd_agentstate_kind {
	LTD_AGENTSTATE_CLAUDE_PROJECT, /* memory/ at its top said */
	LTD_AGENTSTATE_AUTH, /* the agents' configuration, at any depth */
};

/*
 * In the directory @dir (a host path, opened without following a link):
 * each symbolic link, FIFO, socket or device made during the run (its
 * ctime at or after @since), which a reader would follow or block on,
 * moved aside (NAME.ltd-native-quarantine) and said on @out; each file
 * @kind says is read as instructions or configuration, made or changed
 * during the run, said and left where it is.
 */
void ltd_agentstate_report(FILE *out, const char *dir,
			   enum ltd_agentstate_kind kind,
			   struct timespec since);

#endif
