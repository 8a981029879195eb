/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Who runs ltd-native: a host fact the policy is resolved from. */
#ifndef LTD_RUNTIME_HOSTUSER_H
#define LTD_RUNTIME_HOSTUSER_H

#include "policy/policy.h"

/*
 * The calling user as the host's user database says (getpwuid, getgrgid;
 * the shell checked for execution), read once a process: resolution and
 * validation both need it, and glibc reads /etc/passwd again each time.
 * Never NULL: a user without an entry has only ids.
 */
const struct ltd_host_user *ltd_host_user(void);

#endif
