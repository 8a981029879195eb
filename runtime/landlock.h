/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LTD_LANDLOCK_H
#define LTD_LANDLOCK_H

#include "runtime/error.h"

/* The kernel's Landlock ABI version, 0 when Landlock is unavailable. */
int ltd_landlock_abi(void);

/* Confine the calling thread (no_new_privs set) to the cage's root. */
int ltd_landlock_confine(int abi, struct ltd_err *err);

#endif
