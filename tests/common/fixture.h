/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the unit tests share: a temporary directory per test, files and
 * directories made in it by relative name, its removal.  Each helper fails
 * the running test (Criterion) when it cannot do what it says.
 */
#ifndef LTD_TESTS_FIXTURE_H
#define LTD_TESTS_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* A fresh directory /tmp/ltd-unit-TAG.XXXXXX into @buf (of @size). */
void fx_tmpdir(char *buf, size_t size, const char *tag);

/* Remove the tree at @path without following links (nothing if absent). */
void fx_rm_rf(const char *path);

/* @dir/@rel into @buf (of @size); the test fails if it does not fit. */
void fx_path(char *buf, size_t size, const char *dir, const char *rel);

/* Write @text as the file @dir/@rel (made or truncated). */
void fx_put(const char *dir, const char *rel, const char *text);

/* Make the directory @dir/@rel (its parent must exist). */
void fx_mkdir(const char *dir, const char *rel, mode_t mode);

/* mkdir -p of the directories of @rel (not its last name) under @dir. */
void fx_mkdirs(const char *dir, const char *rel);

/* @dir/@rel exists (lstat). */
bool fx_exists(const char *dir, const char *rel);

#endif
