/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small things every folder uses. */
#ifndef LTD_COMMON_BASE_H
#define LTD_COMMON_BASE_H

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
