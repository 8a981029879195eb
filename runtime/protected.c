// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A protected path that did not exist when the cage started cannot be
 * mounted read-only (its mount point would have to be created on the host),
 * so the command may create it.  Say so when it did: code there runs when
 * the user next uses git in the project.
 */
#include "runtime/protected.h"

#include <stdlib.h>
#include <sys/stat.h>

#include "runtime/mountplan.h"

struct ltd_protected_id *ltd_protected_ids(const struct ltd_policy *p)
{
	struct ltd_protected_id *ids = calloc(p->n_protected + 1, sizeof(*ids));
	struct stat st;

	for (size_t i = 0; ids && i < p->n_protected; i++)
		if (lstat(p->protected[i], &st) == 0)
			ids[i] = (struct ltd_protected_id){st.st_dev, st.st_ino,
							   st.st_mode & S_IFMT};
	return ids;
}

/* Any path created or replaced during the run; control bytes shown as '?'
 * (the names come from git's configuration). */
void ltd_protected_report(FILE *out, const struct ltd_policy *p,
			  const struct ltd_protected_id *before,
			  const struct ltd_protected_id *after)
{
	const char *covered = NULL;

	for (size_t i = 0; before && after && i < p->n_protected; i++) {
		const struct ltd_protected_id *a = &after[i], *b = &before[i];

		if (!a->type || (a->type == b->type && a->dev == b->dev &&
				 a->ino == b->ino))
			continue;
		/* A new .git covers all that lies in it. */
		if (covered && ltd_path_is_under(p->protected[i], covered))
			continue;
		fputs("ltd-native: warning: the command created ", out);
		for (const char *c = p->protected[i]; *c; c++)
			fputc((unsigned char)*c < 0x20 || *c == 0x7f ? '?' : *c,
			      out);
		fputs(", which git or ltd-native executes from or reads its "
		      "configuration from: review it before running git or "
		      "ltd-native on the host\n",
		      out);
		covered = p->protected[i];
	}
}
