/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The grammar of the names a user types and a file is called by: a cage's
 * (--name, and the reviews that follow its rules), a pinned root
 * filesystem's, and a SHA-256 digest.  One definition, used by the policy
 * (which refuses a bad one with the option's name) and by the registry
 * and the store (which make paths of them).
 */
#ifndef LTD_COMMON_NAMES_H
#define LTD_COMMON_NAMES_H

#include <stdbool.h>

#include "common/error.h"
#include "common/sha256.h"

/* A cage's name (--name): at most this many bytes. */
#define LTD_NAME_MAX 64
/* A pinned root filesystem's name. */
#define LTD_PIN_NAME_MAX 128
#define LTD_HEX_LEN	 LTD_SHA256_HEX_LEN

/* 1-LTD_NAME_MAX letters, digits, '_', '.', '-', not starting with '.' or
 * '-'. */
bool ltd_name_ok(const char *name);

/* A pin's name: the same characters, at most LTD_PIN_NAME_MAX, not
 * starting with '.', '_' or '-'. */
bool ltd_pin_name_ok(const char *name);

/* Exactly LTD_HEX_LEN lowercase hex digits. */
bool ltd_hex_ok(const char *s);

/*
 * A root filesystem reference: "sha256:HEX" (1, the digest in @hex) or a
 * pin's name (0); a negative errno with @err naming @ref otherwise.
 */
int ltd_ref_parse(const char *ref, char hex[LTD_HEX_LEN + 1],
		  struct ltd_err *err);

#endif
