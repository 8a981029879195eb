// SPDX-License-Identifier: GPL-2.0-or-later
/* The index a walk keeps (decision 0155): until the tree first differs
 * from the previous index the walk's index is that one, not a copy; what
 * it keeps after any change is byte for byte what a whole walk keeps,
 * wherever the difference lies (a re-read, past the depth limit, a
 * directory not opened, a node without facts but with children). */
#include <errno.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/wait.h>

#include "repoindex_fixture.h"

TestSuite(walkkept, .init = setup, .fini = teardown);

/* The index file's bytes, or NULL when there is none. */
static char *index_bytes(size_t *len)
{
	char file[400], *buf = NULL;
	FILE *f;

	index_file(file, sizeof(file));
	if (!(f = fopen(file, "r")))
		return NULL;
	buf = malloc(1 << 20);
	cr_assert_not_null(buf);
	*len = fread(buf, 1, 1 << 20, f);
	fclose(f);
	return buf;
}

/* The report with the index in idx/ under @l, and the index then kept
 * (into @idx_bytes, @idx_len); NULL when either is missing.  No
 * assertion: a test's child process uses it too. */
static char *report_keeping(const struct ltd_repos_limits *l, char **idx_bytes,
			    size_t *idx_len)
{
	char *text = report_since(all, l, true);

	if (!text)
		return NULL;
	if (!(*idx_bytes = index_bytes(idx_len))) {
		free(text);
		return NULL;
	}
	return text;
}

/* Whether the report with the index under @l is the one a walk without
 * index gives, and so is the index it keeps, byte for byte (a walk with
 * an index builds its own only from the first node where the tree
 * differs from the index: decision 0155): NULL, or what differs. */
static const char *kept_as_whole(const struct ltd_repos_limits *l)
{
	char *a, *b = NULL, *ia = NULL, *ib = NULL, file[400];
	size_t la = 0, lb = 0;
	const char *why = NULL;

	index_file(file, sizeof(file));
	if (!(a = report_keeping(l, &ia, &la)))
		why = "no index kept with one";
	else if (unlink(file) < 0)
		why = "unlink";
	else if (!(b = report_keeping(l, &ib, &lb)))
		why = "no index kept without one";
	else if (strcmp(a, b))
		why = "the reports differ";
	else if (la != lb || memcmp(ia, ib, la))
		why = "the indexes differ";
	free(a);
	free(b);
	free(ia);
	free(ib);
	return why;
}

static void assert_kept_as_whole(const struct ltd_repos_limits *l,
				 const char *what)
{
	const char *why = kept_as_whole(l);

	cr_assert_null(why, "%s: %s", what, why);
}

/* Where the tree first differs from the index (first, in the middle,
 * last; a directory added, gone, renamed, planted; under the depth
 * limit): the index kept is byte for byte the one a whole walk keeps. */
Test(walkkept, the_index_kept_is_the_one_a_whole_walk_keeps)
{
	static const struct {
		const char *cmd, *what;
	} change[] = {
		{"mkdir n/a/b/c/d/e/f/g", "a directory added last of n"},
		{"rmdir n/a/b/c/d/e/f/g && mkdir m/y", "one gone, one added"},
		{"mv n/g m/g", "a subtree moved"},
		{"mkdir 0first aaa zzz", "directories at the top"},
		{"rmdir m/x", "a leaf gone"},
		{"touch n/a/b/f && mkdir q", "a file, then a directory"},
	};
	struct ltd_repos_limits shallow = lim;

	indexed_tree();
	for (size_t i = 0; i < sizeof(change) / sizeof(change[0]); i++) {
		char cmd[512];

		snprintf(cmd, sizeof(cmd), "cd '%s' && %s", proj,
			 change[i].cmd);
		cr_assert_eq(system(cmd), 0, "%s", cmd);
		usleep(RIPE_US);
		assert_kept_as_whole(&lim, change[i].what);
	}
	plant("n/a/r");
	usleep(RIPE_US);
	assert_kept_as_whole(&lim, "a repository planted");
	/* Nodes past the depth limit are listed with no facts, and the
	 * index of a deeper walk has facts there. */
	shallow.depth = 3;
	sh("cd '%s' && for s in s0 s1 s2 s3; do mkdir -p n/a/$s/t; done", proj);
	usleep(RIPE_US);
	free(report(true));
	/* The change after the nodes past the limit, in the walk's order
	 * (the directory's own, as ls -f lists it). */
	sh("cd '%s/n/a' && mkdir \"$(ls -f | grep '^s' | tail -n 1)/u\"", proj);
	usleep(RIPE_US);
	assert_kept_as_whole(&shallow, "past the depth limit");
	sh("cd '%s' && mkdir n/a/b/c/d/e/f/i n/a/y", proj);
	usleep(RIPE_US);
	assert_kept_as_whole(&shallow, "past it, from its own index");
}

/* Nothing changed: nothing is written (the file is the same inode). */
Test(walkkept, an_unchanged_tree_leaves_the_index_alone)
{
	char file[400];
	struct stat a, b;
	char *r;

	indexed_tree();
	index_file(file, sizeof(file));
	cr_assert_eq(stat(file, &a), 0);
	r = report(true);
	cr_assert_str_empty(r, "%s", r);
	free(r);
	cr_assert_eq(stat(file, &b), 0);
	cr_assert_eq(a.st_ino, b.st_ino);
	cr_assert_eq(a.st_mtim.tv_nsec, b.st_mtim.tv_nsec);
}

/* The first and the last directory whose name starts with @prefix in
 * @rel, in the order the walk reads them (the directory's own: ls -f),
 * as paths; @last with "/u" after it. */
static void first_last(const char *rel, const char *prefix, char *first,
		       char *last, size_t size)
{
	char cmd[600], line[NAME_MAX + 2];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "ls -f '%s/%s' | grep '^%s'", proj, rel,
		 prefix);
	cr_assert_not_null(f = popen(cmd, "r"));
	first[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!first[0])
			snprintf(first, size, "%s/%s/%s", proj, rel, line);
		snprintf(last, size, "%s/%s/%s/u", proj, rel, line);
	}
	pclose(f);
	cr_assert(first[0] && last[0]);
}

/* A directory the walk cannot open (another mount, so EXDEV; or, not
 * root, its permissions), met before the first change: it is listed
 * without facts, as a whole walk lists it, where the index had them. */
Test(walkkept, a_directory_not_opened_is_kept_without_facts)
{
	char first[PATH_MAX], last[PATH_MAX];
	int status;
	pid_t pid;

	sh("cd '%s' && for s in s0 s1 s2 s3; do mkdir -p n/a/$s/t; done", proj);
	usleep(RIPE_US);
	free(report(true));
	first_last("n/a", "s", first, last, sizeof(first));
	if (geteuid() != 0) {
		cr_assert_eq(chmod(first, 0), 0);
		cr_assert_eq(mkdir(last, 0755), 0);
		usleep(RIPE_US);
		assert_kept_as_whole(&lim, "a directory of mode 000");
		cr_assert_eq(chmod(first, 0755), 0);
		return;
	}
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		if (unshare(CLONE_NEWNS) < 0 ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
		    mount("tmpfs", first, "tmpfs", 0, NULL) < 0 ||
		    mkdir(last, 0755) < 0)
			_exit(2);
		usleep(RIPE_US);
		_exit(kept_as_whole(&lim) ? 1 : 0);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "a mount on a directory: status %d (1: the indexes or "
		  "reports differ)",
		  status);
}

/* An index whose node has no facts but children (what a directory the
 * walk could not read whole leaves): past the depth limit the walk lists
 * the node and not its children, so the next name it meets is not the
 * index's next node.  The shadow ends there (record()'s check); the
 * attacker's review of the shadow found the case. */
Test(walkkept, a_node_without_facts_but_children_ends_the_shadow)
{
	struct ltd_repos_limits two = lim;
	char first[PATH_MAX], last[PATH_MAX], file[400], *buf;
	struct ltd_rindex x;
	struct stat st;
	size_t len = 0;
	uint32_t at = UINT32_MAX;
	FILE *f;

	sh("cd '%s' && for q in q1 q2; do mkdir -p p/$q/X/child p/$q/Y/c2; "
	   "done",
	   proj);
	usleep(RIPE_US);
	free(report(true));
	first_last("p", "q", first, last, sizeof(first));
	/* The first q's first child: no facts, its own child kept. */
	index_file(file, sizeof(file));
	cr_assert_eq(stat(proj, &st), 0);
	cr_assert_eq(ltd_rindex_load(AT_FDCWD, file, st.st_dev, st.st_ino, &x),
		     0);
	for (uint32_t q = 0; q < x.n; q++) {
		const char *base = strrchr(first, '/') + 1;

		if (x.v[q].depth != 2 || x.v[q].name_len != strlen(base) ||
		    memcmp(ltd_rindex_name(&x, q), base, strlen(base)))
			continue;
		at = q + 1; /* its first child (X or Y), which has one */
	}
	ltd_rindex_free(&x);
	cr_assert_neq(at, UINT32_MAX, "no %s in the index", first);
	cr_assert_not_null(buf = index_bytes(&len));
	memset(buf + 112 + (size_t)at * 24, 0, 16); /* ino, ctime */
	buf[112 + (size_t)at * 24 + 23] = LTD_RN_NOFACT;
	resum((unsigned char *)buf, len);
	cr_assert_not_null(f = fopen(file, "w"));
	cr_assert_eq(fwrite(buf, 1, len, f), len);
	fclose(f);
	free(buf);
	/* A change after it, in the walk's order. */
	cr_assert_eq(mkdir(last, 0755), 0);
	usleep(RIPE_US);
	two.depth = 2;
	assert_kept_as_whole(&two, "a node without facts but children");
}
