/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Claude Code's state for the project outside it (~/.claude/projects/<the
 * project>: its transcripts and its memory), bound writable so that a later
 * run can continue a session: Claude Code on the host reads it as the cage
 * left it, and loads memory/ into every session there.  Looked at when the
 * run ends (docs/decisions/0160-claude-state-looked-at-exit.md).
 */
#ifndef LTD_AGENTSTATE_H
#define LTD_AGENTSTATE_H

#include <stdio.h>
#include <time.h>

/* How deep and how many entries of it are looked at; past either, said. */
#define LTD_AGENTSTATE_MAX_DEPTH   8
#define LTD_AGENTSTATE_MAX_ENTRIES 100000

/*
 * In the directory @dir (a host path, opened without following a link):
 * each symbolic link, FIFO, socket or device made during the run (its
 * ctime at or after @since), which Claude Code would follow or block on,
 * moved aside (NAME.ltd-native-quarantine) and said on @out; each file
 * under memory/ made or changed during the run said, left where it is.
 */
void ltd_agentstate_report(FILE *out, const char *dir, struct timespec since);

#endif
