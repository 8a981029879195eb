// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The walk's index made before a project's first run (see repos.h): the
 * walk at the run's end then judges against what was there when the
 * command started, as at every later run.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/sha256.h"
#include "protect/repos.h"

void ltd_repos_prime(const char *root, int index_dir)
{
	/* Nothing is new since a time to come: nothing is judged. */
	const struct timespec never = {.tv_sec = (time_t)1 << 40};
	char name[LTD_SHA256_HEX_LEN + 1];
	_cleanup_close_ int fd = -1;
	FILE *quiet;

	if (index_dir < 0)
		return;
	ltd_repos_index_name(root, name);
	if (faccessat(index_dir, name, F_OK, AT_SYMLINK_NOFOLLOW) == 0 ||
	    errno != ENOENT)
		return;
	fd = open(root, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || !ltd_repos_indexable(fd))
		return;
	quiet = fopen("/dev/null", "we");
	if (!quiet)
		return;
	ltd_repos_report(quiet, root, 0, never, NULL, index_dir);
	fclose(quiet);
}
