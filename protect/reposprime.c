// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The walk's index made before a project's first run (see repos.h): the
 * walk at the run's end then judges against what was there when the
 * command started, as at every later run.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>

#include "common/cleanup.h"
#include "common/sha256.h"
#include "protect/repoindex.h"
#include "protect/repos.h"

/* @name in @dir is an index of the root of @sx, written after the root
 * was born (a project removed and cloned again at the same path may get
 * the old one's inode: the second attacker's review). */
static bool index_of(int dir, const char *name, const struct statx *sx)
{
	struct stat st;

	if (!ltd_rindex_is_of(dir, name,
			      makedev(sx->stx_dev_major, sx->stx_dev_minor),
			      sx->stx_ino))
		return false;
	if (!(sx->stx_mask & STATX_BTIME) ||
	    fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return true;
	return sx->stx_btime.tv_sec < st.st_mtim.tv_sec ||
	       (sx->stx_btime.tv_sec == st.st_mtim.tv_sec &&
		sx->stx_btime.tv_nsec <= (uint32_t)st.st_mtim.tv_nsec);
}

void ltd_repos_prime(const char *root, int index_dir)
{
	/* Nothing is new since a time to come: nothing is judged. */
	const struct timespec never = {.tv_sec = (time_t)1 << 40};
	char name[LTD_SHA256_HEX_LEN + 1];
	_cleanup_close_ int fd = -1;
	struct statx sx;
	FILE *quiet;

	if (index_dir < 0)
		return;
	fd = open(root, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	/* As the walk keeps one (repos.c's index_start()): no prime where it
	 * would keep none, which would cost a second walk at every run. */
	if (fd < 0 || !ltd_repos_indexable(fd) ||
	    statx(fd, "", AT_EMPTY_PATH, STATX_INO | STATX_MNT_ID | STATX_BTIME,
		  &sx) < 0 ||
	    !(sx.stx_mask & STATX_MNT_ID))
		return;
	ltd_repos_index_name(root, name);
	if (index_of(index_dir, name, &sx) ||
	    !(quiet = fopen("/dev/null", "we")))
		return;
	ltd_repos_report(quiet, root, 0, never, NULL, index_dir);
	fclose(quiet);
}
