/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Who runs ltd-native: a host fact the policy is resolved from. */
#ifndef LTD_RUNTIME_HOSTUSER_H
#define LTD_RUNTIME_HOSTUSER_H

#include "policy/policy.h"

/*
 * The calling user as the host's user database says (/etc/passwd and
 * /etc/group themselves where nsswitch.conf puts "files" first, else
 * getpwuid and getgrgid; decision 0153; the shell checked for execution),
 * read once a process: resolution and validation both need it.
 * Never NULL: a user without an entry has only ids.
 */
const struct ltd_host_user *ltd_host_user(void);

/*
 * The fast path's parts, for the tests.  ltd_nss_files_first(): the
 * nsswitch.conf text @conf has one line for database @db and it names
 * "files" first (with no action after it).  ltd_dbfile_find(): the first
 * entry of @text (/etc/passwd or /etc/group: blank and '#' lines skipped,
 * as glibc's files module skips them) whose third field is @id, split into
 * its @n fields (pointers into @text, which is changed): 1; 0 when no entry
 * has it; -1 when a line before it is one this stricter reader does not
 * accept (not exactly @n fields, an id or gid not all digits, a NIS "+name" or
 * "-name" line): then NSS answers.
 */
bool ltd_nss_files_first(const char *conf, const char *db);
int ltd_dbfile_find(char *text, unsigned long id, char **f, size_t n);

#endif
