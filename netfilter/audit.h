/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --audit-log FILE: one JSON object per line (jansson), each stamped with
 * "time" (UTC, milliseconds).  Shared by the DNS filter and the refused
 * destinations (netfilter/nflog.h).
 */
#ifndef LTD_NET_AUDIT_H
#define LTD_NET_AUDIT_H

#include <stdio.h>

#include <jansson.h>

/* Add "time", write @o as one line on @f and flush; takes @o (NULL is
 * ignored, and so is a NULL @f). */
void ltd_audit_emit(FILE *f, json_t *o);

#endif
