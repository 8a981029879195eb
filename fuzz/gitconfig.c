// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for git's configuration syntax as ltd-native reads it
 * (protect/gitconfig.c): a cloned repository's .git/config and the files
 * it includes are the launcher's input before any cage exists.  Every key
 * read goes on as gitprotect.c takes it: the command line git would run
 * for it, then the places that line names (ltd_shword_places).  Checks
 * beyond ASan + UBSan: sections are lowercase as git folds them, keys are
 * names (a letter, then letters, digits and '-'), values fit PATH_MAX.
 */
#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "protect/gitconfig.h"
#include "protect/shword.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int on_key(void *ctx, const char *section, const char *key,
		  const char *val)
{
	char buf[PATH_MAX + 8], home[PATH_MAX];
	struct ltd_shword_place *v = NULL;
	const char *sub = strchr(section, '.');
	const char *cmd;
	size_t n = 0;

	(void)ctx;
	/* The section's name (before a subsection) is folded to lowercase. */
	for (const char *c = section; *c && c != sub; c++)
		if (isupper((unsigned char)*c))
			abort();
	if (!isalpha((unsigned char)key[0]))
		abort();
	for (const char *c = key; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '-')
			abort();
	if (strlen(val) >= PATH_MAX)
		abort();
	ltd_gitconfig_expand_home(val, home, sizeof(home));
	cmd = ltd_gitconfig_command(section, key, val, buf, sizeof(buf));
	if (cmd &&
	    ltd_shword_places(cmd, "/home/u/app", "/home/u", &v, &n) == 0)
		ltd_shword_places_free(v, n);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ltd_gitconfig_parse((const char *)data, size, on_key, NULL);
	return 0;
}
