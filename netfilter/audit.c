// SPDX-License-Identifier: GPL-2.0-or-later
#include "netfilter/audit.h"

#include <time.h>

void ltd_audit_emit(FILE *f, json_t *o)
{
	struct timespec ts;
	struct tm tm;
	char t[64];
	size_t k;

	if (!o)
		return;
	if (f) {
		clock_gettime(CLOCK_REALTIME, &ts);
		gmtime_r(&ts.tv_sec, &tm);
		k = strftime(t, sizeof(t), "%Y-%m-%dT%H:%M:%S", &tm);
		snprintf(t + k, sizeof(t) - k, ".%03dZ",
			 (int)(ts.tv_nsec / 1000000));
		json_object_set_new(o, "time", json_string(t));
		json_dumpf(o, f, JSON_COMPACT | JSON_PRESERVE_ORDER);
		fputc('\n', f);
		fflush(f);
	}
	json_decref(o);
}
