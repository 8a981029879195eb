/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Project files that host programs other than git and Claude Code run, or
 * read commands from, without asking: editors (a folderOpen task, a launch
 * configuration, settings naming programs), other agents (MCP servers,
 * their settings), direnv, pre-commit, dev containers.  Git's and Claude
 * Code's are the protected set's (protect.h); these are not protected in a
 * plain run (yet), but a review's apply holds them back
 * (review/held.c).  One table, here, for every reader: the hardening
 * issue's project-files table is meant to join or replace it.
 */
#ifndef LTD_PROTECT_HOSTRUN_H
#define LTD_PROTECT_HOSTRUN_H

#include <stdbool.h>

/* @rel (relative to the project) is one of the table's files, or lies
 * below a directory it names, at the top or below any directory. */
bool ltd_hostrun_match(const char *rel);

/* @rel's last name is a directory or file the table names (.vscode,
 * .claude...): a link or other non-directory by that name, anywhere,
 * would lead a host program to files of the cage's choosing. */
bool ltd_hostrun_dir(const char *rel);

#endif
