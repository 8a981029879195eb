/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Capabilities: the cage's processes keep none (confine/caps.c). */
#ifndef LTD_CONFINE_CAPS_H
#define LTD_CONFINE_CAPS_H

#include "common/error.h"

/* Drop every capability set and lock the securebits (before execve). */
int ltd_caps_drop_all(struct ltd_err *err);

/* Clear the effective, permitted and inheritable sets only (init). */
int ltd_caps_clear(struct ltd_err *err);

#endif
