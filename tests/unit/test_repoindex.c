// SPDX-License-Identifier: GPL-2.0-or-later
/* The planted-repository walk's index: its file (what decodes and what
 * does not), the comparison, and the walk with an index against the
 * attacks on it: a repository planted where the index says nothing
 * changed, in a directory made between two runs, moved into place,
 * behind a damaged index. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/sha256.h"
#include "protect/repoindex.h"
#include "protect/repos.h"
#include "tests/common/fixture.h"
#include "repoindex_fixture.h"

/* A tree: the root, a (b, c (d)), e. */
static void small(struct ltd_rindex *x)
{
	static const struct {
		const char *name;
		unsigned depth;
	} t[] = {{"", 0}, {"a", 1}, {"b", 2}, {"c", 2}, {"d", 3}, {"e", 1}};
	uint32_t at;

	*x = (struct ltd_rindex){.dev = 7, .ino = 100};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		cr_assert_eq(ltd_rindex_add(x, t[i].name, strlen(t[i].name),
					    t[i].depth, &at),
			     0);
		cr_assert_eq(at, i);
		x->v[at].ino = 100 + i;
		x->v[at].ctime = ltd_rindex_ns(1000 + (int64_t)i, 5);
		x->v[at].flags = i == 4 ? LTD_RN_HEAD | LTD_RN_MAKES : 0;
	}
}

static void encoded(struct ltd_rindex *x, void **buf, size_t *len)
{
	small(x);
	cr_assert_eq(ltd_rindex_encode(x, buf, len), 0);
}

Test(repoindex, what_is_encoded_decodes_to_the_same_tree)
{
	struct ltd_rindex x, y;
	uint32_t *kids;
	void *buf;
	size_t len;

	encoded(&x, &buf, &len);
	cr_assert_eq(ltd_rindex_decode(buf, len, 7, 100, &y), 0);
	cr_assert_eq(y.n, 6);
	cr_assert_eq(memcmp(x.v, y.v, 6 * sizeof(*x.v)), 0);
	/* The subtrees: a holds b, c and d; c holds d. */
	cr_assert_eq(y.end[0], 6);
	cr_assert_eq(y.end[1], 5);
	cr_assert_eq(y.end[2], 3);
	cr_assert_eq(y.end[3], 5);
	cr_assert_eq(ltd_rindex_children(&y, 0, &kids), 2);
	cr_assert_eq(ltd_rindex_find(&y, kids, 2, "e"), 5);
	cr_assert_eq(ltd_rindex_find(&y, kids, 2, "a"), 1);
	cr_assert_eq(ltd_rindex_find(&y, kids, 2, "b"), UINT32_MAX);
	cr_assert_eq(ltd_rindex_find(&y, kids, 2, "aa"), UINT32_MAX);
	free(kids);
	free(buf);
	ltd_rindex_free(&x);
	ltd_rindex_free(&y);
}

Test(repoindex, a_damaged_file_is_no_index)
{
	struct ltd_rindex x, y;
	unsigned char *buf;
	size_t len;

	encoded(&x, (void **)&buf, &len);
	/* Another root, or the same path now another directory. */
	cr_assert_eq(ltd_rindex_decode(buf, len, 7, 101, &y), -EINVAL);
	cr_assert_eq(ltd_rindex_decode(buf, len, 8, 100, &y), -EINVAL);
	/* Cut short, or longer, anywhere. */
	for (size_t n = 0; n < len; n++)
		cr_assert_eq(ltd_rindex_decode(buf, n, 7, 100, &y), -EINVAL,
			     "cut at %zu", n);
	/* Any byte changed (the checksum, or what it covers). */
	for (size_t i = 0; i < len; i++) {
		buf[i] ^= 0x40;
		cr_assert_eq(ltd_rindex_decode(buf, len, 7, 100, &y), -EINVAL,
			     "byte %zu", i);
		buf[i] ^= 0x40;
	}
	cr_assert_eq(ltd_rindex_decode(buf, len, 7, 100, &y), 0);
	ltd_rindex_free(&y);
	free(buf);
	ltd_rindex_free(&x);
}

/* Nodes that do not make a tree are refused even with a right checksum. */
Test(repoindex, nodes_that_make_no_tree_are_no_index)
{
	struct ltd_rindex x, y;
	void *buf;
	size_t len;

	for (int c = 0; c < 6; c++) {
		small(&x);
		if (c == 5) /* an empty name below the root */
			x.v[5].name_len = 0;
		if (c == 0)
			x.v[2].depth = 3; /* a jump down */
		if (c == 1)
			x.names[x.v[5].name] = '/'; /* "e" made "/" */
		if (c == 2)
			x.v[3].name = 4000; /* a name beyond the names */
		if (c == 3)
			x.v[1].flags = 0x80; /* unknown flags */
		if (c == 4)
			x.v[0].ino = 5; /* the root is not the root */
		cr_assert_eq(ltd_rindex_encode(&x, &buf, &len), 0);
		cr_assert_eq(ltd_rindex_decode(buf, len, 7, 100, &y), -EINVAL,
			     "case %d", c);
		free(buf);
		ltd_rindex_free(&x);
	}
	small(&x);
	cr_assert_eq(ltd_rindex_add(&x, "a/b", 3, 1, &(uint32_t){0}), -EINVAL);
	cr_assert_eq(ltd_rindex_add(&x, "", 0, 1, &(uint32_t){0}), -EINVAL);
	{
		char long_name[NAME_MAX + 2];

		memset(long_name, 'a', sizeof(long_name));
		cr_assert_eq(ltd_rindex_add(&x, long_name, NAME_MAX + 1, 1,
					    &(uint32_t){0}),
			     -EINVAL);
	}
	ltd_rindex_free(&x);
}

/* A file of another version (version 1's 32-byte nodes, or a version 1
 * header over these nodes) is no index even with a right checksum: the
 * first run after an upgrade reads the whole tree. */
Test(repoindex, another_version_is_no_index_even_with_its_checksum)
{
	struct ltd_rindex x, y;
	unsigned char *buf;
	uint32_t v1 = 1, size32 = 32;
	size_t len;

	encoded(&x, (void **)&buf, &len);
	/* The test's checksum is the writer's: a re-summed file decodes. */
	resum(buf, len);
	cr_assert_eq(ltd_rindex_decode(buf, len, 7, 100, &y), 0);
	ltd_rindex_free(&y);
	memcpy(buf + 8, &v1, sizeof(v1));
	resum(buf, len);
	cr_assert_eq(ltd_rindex_decode(buf, len, 7, 100, &y), -EINVAL);
	memcpy(buf + 12, &size32, sizeof(size32));
	resum(buf, len);
	cr_assert_eq(ltd_rindex_decode(buf, len, 7, 100, &y), -EINVAL);
	free(buf);
	ltd_rindex_free(&x);
}

Test(repoindex, a_node_holds_only_for_the_same_inode_and_ctime)
{
	struct ltd_rnode n = {.ino = 9, .ctime = ltd_rindex_ns(100, 7)};
	struct ltd_rstat s = {.ino = 9, .sec = 100, .nsec = 7, .ok = true};

	cr_assert(ltd_rindex_same(&n, &s));
	s.nsec = 8; /* changed since: later */
	cr_assert_not(ltd_rindex_same(&n, &s));
	s.nsec = 6; /* or earlier: any difference */
	cr_assert_not(ltd_rindex_same(&n, &s));
	s.nsec = 7;
	s.ino = 10; /* another directory in its place */
	cr_assert_not(ltd_rindex_same(&n, &s));
	s.ino = 9;
	s.ok = false; /* gone, not a directory, another mount */
	cr_assert_not(ltd_rindex_same(&n, &s));
	s.ok = true;
	n.flags = LTD_RN_RACY;
	cr_assert_not(ltd_rindex_same(&n, &s));
	n.flags = LTD_RN_NOFACT;
	cr_assert_not(ltd_rindex_same(&n, &s));
	n.flags = LTD_RN_HEAD | LTD_RN_MAKES | LTD_RN_GITFILE;
	cr_assert(ltd_rindex_same(&n, &s));
	/* A second more is not a nanosecond more: one number, not a sum. */
	s.sec = 101;
	s.nsec = 6;
	cr_assert_not(ltd_rindex_same(&n, &s));
	s.sec = 99;
	s.nsec = 8;
	cr_assert_not(ltd_rindex_same(&n, &s));
}

Test(repoindex, a_ctime_close_to_the_walk_is_racy)
{
	struct timespec t0 = {1000, 500000000};

	const long long m = LTD_RINDEX_RACY_NS;

	cr_assert_eq(m, 2000000000LL);
	cr_assert(ltd_rindex_racy(1000, 500000000, t0, m));
	cr_assert(ltd_rindex_racy(1001, 0, t0, m)); /* after the start */
	cr_assert(ltd_rindex_racy(998, 500000001, t0, m));
	cr_assert_not(ltd_rindex_racy(998, 500000000, t0, m));
	cr_assert_not(ltd_rindex_racy(900, 0, t0, m));
	cr_assert(ltd_rindex_racy(1000, 450000001, t0, 50000000));
	cr_assert_not(ltd_rindex_racy(1000, 450000000, t0, 50000000));
}

/* --- the walk with an index --------------------------------------------- */

TestSuite(walk, .init = setup, .fini = teardown);

Test(walk, a_repository_planted_deep_in_a_known_tree_is_found)
{
	char *r;

	indexed_tree();
	plant("n/a/b/c/d/e/f/r");
	r = report(true);
	assert_found(r, "n/a/b/c/d/e/f/r");
	free(r);
	/* And again with the index this walk wrote. */
	r = report(true);
	assert_found(r, "n/a/b/c/d/e/f/r");
	free(r);
}

Test(walk, a_directory_made_between_runs_then_planted_is_found)
{
	char *r;

	indexed_tree();
	/* The user makes a directory; a run that plants nothing walks it
	 * (the index now knows it); the next run plants in it. */
	sh("mkdir -p '%s/n/g/h/new/deeper'", proj);
	usleep(RIPE_US);
	r = report(true);
	cr_assert_str_empty(r, "%s", r);
	free(r);
	plant("n/g/h/new/deeper/r");
	r = report(true);
	assert_found(r, "n/g/h/new/deeper/r");
	free(r);
}

Test(walk, a_tree_moved_into_place_is_found)
{
	char *r;

	indexed_tree();
	/* Made elsewhere in the project, known to the index, then planted
	 * in and moved under a known directory. */
	sh("mkdir -p '%s/m/x/stash/inner'", proj);
	usleep(RIPE_US);
	free(report(true));
	plant("m/x/stash/inner/r");
	sh("mv '%s/m/x/stash' '%s/n/a/b/moved'", proj);
	r = report(true);
	assert_found(r, "n/a/b/moved/inner/r");
	free(r);
	/* Two known directories swapping places. */
	sh("cd '%s' && mv n/g t && mv m/x n/g && mv t m/x", proj);
	plant("m/x/h/r2");
	r = report(true);
	assert_found(r, "m/x/h/r2");
	free(r);
}

Test(walk, a_damaged_index_falls_back_to_the_whole_walk)
{
	char file[400];
	struct stat st;
	char *r;

	indexed_tree();
	index_file(file, sizeof(file));
	cr_assert_eq(truncate(file, 100), 0);
	plant("n/a/b/c/r");
	r = report(true);
	assert_found(r, "n/a/b/c/r");
	free(r);
	/* Written again, whole. */
	cr_assert_eq(stat(file, &st), 0);
	cr_assert_gt(st.st_size, 100);
	/* Garbage of the right size, and a link in its place. */
	sh("cd '%s' && for f in *; do head -c $(stat -c %%s $f) /dev/urandom "
	   "> $f; done",
	   idx);
	plant("n/g/h/r");
	r = report(true);
	assert_found(r, "n/g/h/r");
	free(r);
	cr_assert_eq(unlink(file), 0);
	cr_assert_eq(symlink("/dev/null", file), 0);
	plant("m/x/r");
	r = report(true);
	assert_found(r, "m/x/r");
	free(r);
}

Test(walk, an_index_of_another_tree_is_not_used)
{
	char *r;

	indexed_tree();
	/* The project replaced by another directory of the same name: its
	 * root's inode differs from the index's. */
	sh("mv '%s' '%s.old' && mkdir -p '%s/n'", proj);
	plant("n/r");
	r = report(true);
	assert_found(r, "n/r");
	free(r);
}

Test(walk, what_is_said_is_what_the_whole_walk_says)
{
	char *a, *b;

	indexed_tree();
	plant("n/a/r1");
	plant("m/r2");
	sh("cd '%s' && mkdir -p s && echo 'gitdir: /elsewhere' > s/.git", proj);
	a = report(false);
	b = report(true);
	cr_assert_str_eq(b, a);
	cr_assert_not_null(strstr(a, "/s/.git"), "%s", a);
	free(b);
	/* A second time: from the index just written, nothing read. */
	b = report(true);
	cr_assert_str_eq(b, a);
	free(a);
	free(b);
}

#define ZEROS100                                                               \
	"00000000000000000000000000000000000000000000000000000000000000000000" \
	"00"                                                                   \
	"000000000000000000000000000000"
#define LONG_DIR "w/3/L" ZEROS100 "/M" ZEROS100 "/N" ZEROS100

/* Past 1,024 directories the statx go through io_uring when the build
 * has it (and on threads past 4,096): the same findings. */
Test(walk, a_big_tree_is_looked_at_in_batches_and_the_same)
{
	char *a, *b;

	sh("cd '%s' && awk 'BEGIN { for (i = 0; i < 50; i++) for (j = 0; j < "
	   "100; j++) print \"w/\" i \"/\" j }' | xargs mkdir -p",
	   proj);
	/* A path past io_uring's slots (240 bytes): statted by a system
	 * call instead. */
	sh("cd '%s' && mkdir -p w/3/L$(printf '%%0100d' 0)/"
	   "M$(printf '%%0100d' 0)/N$(printf '%%0100d' 0)",
	   proj);
	usleep(RIPE_US);
	free(report(true));
	plant("w/7/42/r");
	plant("w/49/99/deep/r");
	plant(LONG_DIR "/r");
	a = report(false);
	b = report(true);
	assert_found(b, "w/7/42/r");
	assert_found(b, "w/49/99/deep/r");
	assert_found(b, LONG_DIR "/r");
	cr_assert_str_eq(b, a);
	free(a);
	free(b);
}

/* Two runs on one project at once: each writes a temporary file of its
 * own and renames it; what is left is one whole index or the other. */
Test(walk, two_walks_at_once_leave_a_whole_index)
{
	char file[400];
	struct ltd_rindex x;
	struct stat st;
	pid_t pid[2];
	char *r;

	indexed_tree();
	for (int i = 0; i < 2; i++) {
		pid[i] = fork();
		cr_assert_geq(pid[i], 0);
		if (pid[i] == 0) {
			for (int k = 0; k < 20; k++) {
				char p[300];

				snprintf(p, sizeof(p), "%s/m/x/%d-%d", proj, i,
					 k);
				mkdir(p, 0755);
				free(report(true));
			}
			_exit(0);
		}
	}
	for (int i = 0; i < 2; i++)
		cr_assert_eq(waitpid(pid[i], NULL, 0), pid[i]);
	index_file(file, sizeof(file));
	cr_assert_eq(stat(proj, &st), 0);
	cr_assert_eq(ltd_rindex_load(AT_FDCWD, file, st.st_dev, st.st_ino, &x),
		     0);
	ltd_rindex_free(&x);
	sh("ls '%s' | grep -c tmp && exit 1 || exit 0", idx);
	plant("m/x/1-19/r");
	r = report(true);
	assert_found(r, "m/x/1-19/r");
	free(r);
}

/* Past 100 warnings the rest are counted on one line, which names the
 * project (it named the too-deep place said just before it). */
Test(walk, the_count_of_warnings_not_shown_names_the_project)
{
	char want[PATH_MAX];
	char *r, *line;

	sh("cd '%s' && for i in $(seq 105); do mkdir -p r$i/.git/objects "
	   "r$i/.git/refs && echo 'ref: refs/heads/main' > r$i/.git/HEAD && "
	   "printf '[core]\\n\\tfsmonitor = touch ran\\n' > r$i/.git/config; "
	   "done && mkdir -p $(printf 'd/%%.0s' $(seq 140))",
	   proj);
	r = report(false);
	line = strstr(r, "more warnings");
	cr_assert_not_null(line, "%s", r);
	while (line > r && line[-1] != '\n')
		line--;
	snprintf(want, sizeof(want), "ltd-native: warning: %s: and ", proj);
	cr_assert(strncmp(line, want, strlen(want)) == 0, "%.200s", line);
	free(r);
}
