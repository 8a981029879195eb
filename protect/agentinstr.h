/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The instruction files the agents on the host load into their prompt by
 * themselves from the project: CLAUDE.md, CLAUDE.local.md,
 * .claude/CLAUDE.md, AGENTS.md, AGENTS.override.md, GEMINI.md, and what
 * .claude/rules holds (Claude Code loads its files, links followed).  Their
 * text is the project's, as its README's; but one the command made a
 * symbolic link out of the project would have the agent read any file of
 * the user's into its prompt (docs/decisions/0160-claude-state-looked-at-
 * exit.md).  Judged by identity: the links and special files there before
 * the run are the user's, whatever they lead to.
 */
#ifndef LTD_AGENTINSTR_H
#define LTD_AGENTINSTR_H

#include <stdio.h>

/* .claude/rules is looked at this deep and this wide at most. */
#define LTD_AGENTINSTR_RULES_DEPTH 4
#define LTD_AGENTINSTR_MAX	   512

struct ltd_agentinstr;

/* The links and special files among the instruction files of @project
 * now (NULL: none, or out of memory: then every one is judged at the
 * end).  Free with free(). */
struct ltd_agentinstr *ltd_agentinstr_ids(const char *project);

/*
 * Each link or special file among them that @before does not hold (by its
 * place, device and inode) and that leads out of the project (a link that
 * does not resolve beneath it; a FIFO, socket or device), moved aside and
 * said on @out: one of .claude/rules out of it, into .claude, for Claude
 * Code reads every name there.
 */
void ltd_agentinstr_report(FILE *out, const char *project,
			   const struct ltd_agentinstr *before);

#endif
