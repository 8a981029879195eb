/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The instruction files the agents on the host load into their prompt by
 * themselves from the project: CLAUDE.md, CLAUDE.local.md,
 * .claude/CLAUDE.md, AGENTS.md, AGENTS.override.md, GEMINI.md, and what
 * .claude/rules holds (Claude Code loads its files, links followed).  Their
 * text is the project's, as its README's; but one the command made a
 * symbolic link out of the project would have the agent read any file of
 * the user's into its prompt (docs/decisions/0160-claude-state-looked-at-
 * exit.md).  A link there before the run that still leads where it led is
 * the user's, wherever that is.
 */
#ifndef LTD_AGENTINSTR_H
#define LTD_AGENTINSTR_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>

/* .claude/rules is looked at this deep and this wide at most (each
 * directory once, links among the rules followed); past it, said. */
#define LTD_AGENTINSTR_RULES_DEPTH 16
#define LTD_AGENTINSTR_MAX	   512	 /* links and special files kept */
#define LTD_AGENTINSTR_DIRS	   256	 /* directories walked */
#define LTD_AGENTINSTR_ENTRIES	   10000 /* entries looked at */

struct ltd_agentinstr;

/* The links and special files among the instruction files of @project
 * now, and where each leads (NULL: out of memory: then every one is
 * judged at the end).  Free with ltd_agentinstr_free(). */
struct ltd_agentinstr *ltd_agentinstr_ids(const char *project);
void ltd_agentinstr_free(struct ltd_agentinstr *ids);

/*
 * Each link or special file among them that leads out of the project (a
 * link whose resolution on the host lies outside it or that leads nowhere;
 * a FIFO, socket or device), unless @before holds it at the same place
 * leading to the same place (the user's own), moved aside and said on
 * @out: one of .claude/rules out of it, into .claude, for Claude Code
 * reads every name there.  A directory link among the rules that stays
 * in the project is followed (Claude Code reads what it holds).
 */
void ltd_agentinstr_report(FILE *out, const char *project,
			   const struct ltd_agentinstr *before);

/* Who loads an instruction file named @name into its prompt by itself
 * ("Claude Code" for CLAUDE.md), wherever it lies; NULL for none. */
const char *ltd_agentinstr_who(const char *name);

/* What such a file (@st, not followed) is when it is no text: a link, a
 * FIFO, a socket or device, in words. */
const char *ltd_agentinstr_kind(const struct stat *st);

/* @name in @dir (@st) leads out of @project: a link resolving (on the
 * host, from @dir itself) outside it or nowhere; a FIFO, socket or
 * device.  A regular file or directory never does. */
bool ltd_agentinstr_leads_out(int dir, const char *name, const struct stat *st,
			      const char *project);

#endif
