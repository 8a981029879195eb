// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for a project's Claude Code settings (.claude/
 * settings.json, .mcp.json; protect/agentprotect.c): a cloned repository's
 * JSON is read before any cage exists.  The command lines in it are read
 * as sh reads them (fuzz/command_paths.c drives that part alone); places
 * are looked up in an empty project made here.  Checks beyond ASan +
 * UBSan: every place protected is absolute and inside the project, each
 * warning is text, at most 256 places per file.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "policy/policy.h"
#include "protect/agentprotect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char project[64];

/* Nothing is made in it: only the directory is left to remove. */
static void cleanup(void)
{
	rmdir(project);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ltd_policy p;
	struct ltd_protected set = {0};
	struct ltd_err err = {0};
	size_t plen;

	if (!project[0]) {
		snprintf(project, sizeof(project), "/tmp/ltd-fuzz-proj.XXXXXX");
		if (!mkdtemp(project))
			abort();
		atexit(cleanup);
	}
	plen = strlen(project);
	ltd_policy_init(&p);
	p.project = strdup(project);
	p.id.home = strdup("/home/u");
	if (!p.project || !p.id.home)
		abort();
	ltd_agentprotect_settings(&p, &set, ".claude/settings.json",
				  (const char *)data, size, &err);
	if (set.n > 256 + 1)
		abort();
	for (size_t i = 0; i < set.n; i++) {
		const char *q = set.paths[i];

		if (q[0] != '/' || strncmp(q, project, plen) != 0 ||
		    (q[plen] != '/' && q[plen] != '\0') || strstr(q, "/../"))
			abort();
	}
	ltd_protected_free(&set);
	ltd_policy_free(&p);
	return 0;
}
