// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the sh-word reader (protect/shword.c), which reads
 * the command lines of a project's Claude Code settings and git's
 * configuration: a cloned repository's are the launcher's input before
 * any cage exists.  Checks beyond ASan + UBSan: every place returned is
 * absolute and normalized (but an unknown word, returned as written).
 *
 *   make fuzz            # with the other targets; corpus in build/
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "protect/shword.h"

#define PROJECT "/home/u/app"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ltd_shword_place *v = NULL;
	char *cmd = malloc(size + 1);
	size_t n = 0;

	if (!cmd)
		return 0;
	memcpy(cmd, data, size);
	cmd[size] = '\0';
	if (ltd_shword_places(cmd, PROJECT, "/home/u", &v, &n) == 0) {
		for (size_t i = 0; i < n; i++) {
			const char *p = v[i].path;
			size_t len = strlen(p);

			if (!len)
				abort();
			if (v[i].kind == LTD_SHWORD_UNKNOWN)
				continue;
			/* Absolute and normalized, by the text. */
			if (p[0] != '/' || strstr(p, "/../") ||
			    strstr(p, "/./") || strstr(p, "//") ||
			    (len > 1 && p[len - 1] == '/') ||
			    (len >= 3 && !strcmp(p + len - 3, "/..")) ||
			    (len >= 2 && !strcmp(p + len - 2, "/.")))
				abort();
		}
		ltd_shword_places_free(v, n);
	}
	free(cmd);
	return 0;
}
