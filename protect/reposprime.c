// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The walk's index made before a project's first run (see repos.h): the
 * walk at the run's end then judges against what was there when the
 * command started, as at every later run.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>

#include "common/cleanup.h"
#include "common/sha256.h"
#include "protect/repoindex.h"
#include "protect/repos.h"

void ltd_repos_prime(const char *root, int index_dir)
{
	/* Nothing is new since a time to come: nothing is judged. */
	const struct timespec never = {.tv_sec = (time_t)1 << 40};
	char name[LTD_SHA256_HEX_LEN + 1];
	_cleanup_close_ int fd = -1;
	struct statx sx;
	struct stat ist;
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
	/* One of another directory by the same name (a project removed and
	 * cloned again there: the second attacker's review) is none; the
	 * new one may have the old one's inode, but was born after the
	 * index was written. */
	ltd_repos_index_name(root, name);
	if (ltd_rindex_is_of(index_dir, name,
			     makedev(sx.stx_dev_major, sx.stx_dev_minor),
			     sx.stx_ino) &&
	    !(sx.stx_mask & STATX_BTIME &&
	      fstatat(index_dir, name, &ist, AT_SYMLINK_NOFOLLOW) == 0 &&
	      (sx.stx_btime.tv_sec > ist.st_mtim.tv_sec ||
	       (sx.stx_btime.tv_sec == ist.st_mtim.tv_sec &&
		sx.stx_btime.tv_nsec > (uint32_t)ist.st_mtim.tv_nsec))))
		return;
	quiet = fopen("/dev/null", "we");
	if (!quiet)
		return;
	ltd_repos_report(quiet, root, 0, never, NULL, index_dir);
	fclose(quiet);
}
