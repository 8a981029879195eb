/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --memory and --cpus values, parsed (policy/limits.c). */
#ifndef LTD_POLICY_LIMITS_H
#define LTD_POLICY_LIMITS_H

#include <stdint.h>

/* "512m", "4g", "1073741824": bytes, k/m/g/t binary suffixes.  Pure. */
int ltd_limits_parse_size(const char *s, uint64_t *out);
/* "2", "0.5", "1.25": thousandths of a CPU, at most three decimals. */
int ltd_limits_parse_cpus(const char *s, unsigned *milli);

#endif
