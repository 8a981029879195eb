// SPDX-License-Identifier: GPL-2.0-or-later
/* A git index the command wrote: those real git writes pass (versions 2,
 * 3 and 4, a gitlink, a sparse index, a split index, the untracked cache,
 * git's block table for its threads), crafted ones with a path git would
 * refuse, or that do not parse, are refused; and the check after the run
 * moves a refused one aside. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/base.h"
#include "protect/gitindex.h"
#include "tests/common/fixture.h"

static char dir[256];

static void setup(void)
{
	fx_tmpdir(dir, sizeof(dir), "gitindex");
}

static void teardown(void)
{
	fx_rm_rf(dir);
}

TestSuite(gitindex, .init = setup, .fini = teardown);

/* @cmd run in the test's directory, which must succeed. */
static void sh(const char *cmd)
{
	char line[4096];

	snprintf(line, sizeof(line),
		 "cd %s && export GIT_CONFIG_NOSYSTEM=1 HOME=%s "
		 "GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t "
		 "GIT_COMMITTER_EMAIL=t@t && (%s) >/dev/null 2>&1",
		 dir, dir, cmd);
	cr_assert_eq(system(line), 0, "%s", cmd);
}

/* The file @rel of the test's directory, into *@len bytes (free()). */
static unsigned char *load(const char *rel, size_t *len)
{
	char path[512];
	unsigned char *buf;
	struct stat st;
	FILE *f;

	fx_path(path, sizeof(path), dir, rel);
	f = fopen(path, "rb");
	cr_assert_not_null(f, "%s", path);
	cr_assert_eq(fstat(fileno(f), &st), 0);
	buf = malloc((size_t)st.st_size + 1);
	cr_assert_not_null(buf);
	cr_assert_eq(fread(buf, 1, (size_t)st.st_size, f), (size_t)st.st_size);
	fclose(f);
	*len = (size_t)st.st_size;
	return buf;
}

/* .git/index (or @rel) as it is now passes. */
static void passes_as(const char *rel, bool sha256)
{
	struct ltd_gitindex_fault f;
	size_t len;
	unsigned char *buf = load(rel ? rel : ".git/index", &len);
	int ret = ltd_gitindex_check(buf, len, sha256, &f);

	cr_assert_eq(ret, 0, "%s: %s (%s)", rel ? rel : "index", f.why, f.path);
	free(buf);
}

static void passes(const char *rel)
{
	passes_as(rel, false);
}

/* @buf of @len is refused, naming @path ("": none in particular). */
static void refused(const unsigned char *buf, size_t len, const char *path)
{
	struct ltd_gitindex_fault f;

	cr_assert_eq(ltd_gitindex_check(buf, len, false, &f), -EINVAL,
		     "passed");
	cr_assert_not_null(f.why);
	if (path)
		cr_assert_str_eq(f.path, path, "%s", f.why);
}

/* A repository with ordinary files added. */
static void repo(void)
{
	sh("git init -q && mkdir -p src/deep && echo a > a.txt && "
	   "echo b > src/b.c && echo c > src/deep/c.h && echo i > .gitignore "
	   "&& mkdir .github && echo w > .github/w.yml && echo x > x.git && "
	   "git add -A");
}

Test(gitindex, real_versions_pass)
{
	repo();
	passes(NULL);
	sh("git update-index --index-version 3");
	passes(NULL);
	sh("git update-index --index-version 4");
	passes(NULL);
	/* v3's extended flags: an intent-to-add entry. */
	sh("git update-index --index-version 3 && echo n > n.txt && "
	   "git add -N n.txt");
	passes(NULL);
}

/* A v4 name that strips 128 bytes or more: a varint of two bytes. */
Test(gitindex, long_names_in_v4_pass)
{
	char cmd[512];

	repo();
	snprintf(cmd, sizeof(cmd),
		 "mkdir %0200d && touch %0200d/x zz && "
		 "git add -A && git update-index --index-version 4",
		 0, 0);
	sh(cmd);
	passes(NULL);
}

/* A SHA-256 repository's index (object ids of 32 bytes): read as one when
 * its config may say so. */
Test(gitindex, sha256_repository_passes)
{
	struct ltd_gitindex_fault f;
	unsigned char *buf;
	size_t len;

	sh("git init -q --object-format=sha256 && echo a > a && mkdir d && "
	   "echo b > d/b && git add -A");
	passes_as(NULL, true);
	buf = load(".git/index", &len);
	cr_assert_eq(ltd_gitindex_check(buf, len, false, &f), -EINVAL);
	free(buf);
	sh("git update-index --index-version 4");
	passes_as(NULL, true);
}

Test(gitindex, gitlink_sparse_split_untracked_pass)
{
	repo();
	sh("git update-index --add --cacheinfo "
	   "160000,1111111111111111111111111111111111111111,sub");
	passes(NULL);
	sh("git commit -qm one && git update-index --untracked-cache && "
	   "git status");
	passes(NULL);
	/* A sparse index: "src/" is one directory entry. */
	sh("git sparse-checkout init --cone --sparse-index && "
	   "git sparse-checkout set .github");
	passes(NULL);
	sh("git sparse-checkout disable && git update-index --split-index && "
	   "echo d > d.txt && git add d.txt");
	passes(NULL);
	sh("ls .git/sharedindex.* | head -1 | xargs -I{} cp {} shared");
	passes("shared");
}

Test(gitindex, block_table_passes)
{
	char cmd[512];

	sh("git init -q && git config index.threads 4 && "
	   "git config index.recordOffsetTable true && "
	   "git config index.recordEndOfIndexEntries true && mkdir d");
	for (int i = 0; i < 300; i++) {
		snprintf(cmd, sizeof(cmd), "%s/d/f%d", dir, i);
		fclose(fopen(cmd, "w"));
	}
	sh("git add -A");
	passes(NULL);
	sh("git update-index --index-version 4");
	passes(NULL);
}

/* Every @from in @buf's names (@len) made @to, of the same length. */
static void rewrite(unsigned char *buf, size_t len, const char *from,
		    const char *to)
{
	size_t n = strlen(from);
	bool done = false;

	for (size_t k = 12; k + n <= len; k++)
		if (!memcmp(buf + k, from, n)) {
			memcpy(buf + k, to, n);
			done = true;
		}
	cr_assert(done, "%s not in the index", from);
}

/* The security review's attack: an entry .gix/hooks/post-checkout, its
 * name rewritten to .git (git checks no path on reading). */
static void planted(const char *version, const char *from, const char *to)
{
	char cmd[512];
	unsigned char *buf;
	size_t len;

	repo();
	snprintf(cmd, sizeof(cmd),
		 "blob=$(printf '#!/bin/sh\\ntouch PWNED\\n' | "
		 "git hash-object -w --stdin) && git update-index --add "
		 "--cacheinfo 100755,$blob,.gix/hooks/post-checkout && "
		 "git update-index --index-version %s",
		 version);
	sh(cmd);
	passes(NULL);
	buf = load(".git/index", &len);
	rewrite(buf, len, from, to);
	refused(buf, len, ".git/hooks/post-checkout");
	free(buf);
}

Test(gitindex, renamed_to_dotgit_refused_v2)
{
	planted("2", ".gix", ".git");
}

Test(gitindex, renamed_to_dotgit_refused_v4)
{
	/* Its name after .github's: ".gi" taken from it, then "x/...". */
	planted("4", "x/hooks/post", "t/hooks/post");
}

/* A version 2 index of entries named @names (@n), mode @mode, SHA-1. */
static unsigned char *craft(const char *const *names, size_t n, uint32_t mode,
			    size_t *len)
{
	unsigned char *buf = calloc(1, 12 + n * (62 + 4096 + 8) + 20), *e;
	size_t off = 12;

	cr_assert_not_null(buf);
	memcpy(buf, "DIRC\0\0\0\2", 8);
	buf[11] = (unsigned char)n;
	for (size_t i = 0; i < n; i++) {
		size_t nl = strlen(names[i]);

		e = buf + off;
		e[24] = (unsigned char)(mode >> 24);
		e[25] = (unsigned char)(mode >> 16);
		e[26] = (unsigned char)(mode >> 8);
		e[27] = (unsigned char)mode;
		e[60] = (unsigned char)(nl >> 8);
		e[61] = (unsigned char)nl;
		memcpy(e + 62, names[i], nl);
		off += (62 + nl + 8) & ~(size_t)7;
	}
	*len = off + 20;
	return buf;
}

/* One entry named @name, refused. */
static void refuse_name(const char *name)
{
	size_t len;
	unsigned char *buf = craft(&name, 1, 0100644, &len);

	refused(buf, len, name);
	free(buf);
}

Test(gitindex, crafted_paths_refused)
{
	refuse_name("../x/.bashrc");
	refuse_name("a/../../x");
	refuse_name("/abs");
	refuse_name("GIT~1/hooks/x");
	refuse_name("git~1");
	refuse_name(".Git/hooks/x");
	refuse_name(".GIT");
	refuse_name(".git./hooks/x");
	refuse_name(".git  /hooks/x");
	refuse_name("sub/.git/config");
	refuse_name(".git::$INDEX_ALLOCATION/hooks/x");
	refuse_name(".g\xe2\x80\x8cit/hooks/x");
	refuse_name("\xef\xbb\xbf.git/hooks/x");
	refuse_name("a\\.git\\hooks\\x");
	refuse_name("a//b");
	refuse_name("./a");
	refuse_name("a/");
}

Test(gitindex, crafted_ordinary_names_pass)
{
	static const char *const names[] = {
		".github/w.yml", ".gitignore", ".gitmodules", "a.git/b",
		"git~1x",	 "...",	       "a/.gitx/b",   "\xe2\x80\x8c",
	};
	struct ltd_gitindex_fault f;
	size_t len;
	unsigned char *buf = craft(names, ARRAY_SIZE(names), 0100644, &len);

	cr_assert_eq(ltd_gitindex_check(buf, len, false, &f), 0, "%s (%s)",
		     f.why, f.path);
	free(buf);
}

Test(gitindex, truncated_or_overcounted_refused)
{
	unsigned char *buf;
	size_t len;

	repo();
	buf = load(".git/index", &len);
	/* Cut in the entries. */
	refused(buf, 100, NULL);
	refused(buf, 12, NULL);
	/* More entries than the file holds. */
	buf[11]++;
	refused(buf, len, NULL);
	buf[8] = 0x7f;
	refused(buf, len, NULL);
	free(buf);
	/* Not an index at all, or a version git does not write. */
	refused((const unsigned char *)"DIRX\0\0\0\2\0\0\0\0", 12, NULL);
	refused((const unsigned char *)"DIRC\0\0\0\5\0\0\0\0", 12, NULL);
}

/* A length in the flags that is not the name's: git would read the name
 * the flags say, not the one up to the NUL. */
Test(gitindex, length_in_flags_is_the_names)
{
	const char *name = ".gitx/hooks/post-checkout";
	size_t len;
	unsigned char *buf = craft(&name, 1, 0100644, &len);

	buf[12 + 61] = 4; /* git reads ".git" */
	refused(buf, len, ".git");
	free(buf);
}

/* After the run: a refused index goes aside, named in the warning; one
 * that passes, or that did not change, stays. */
Test(gitindex, judge_moves_a_refused_index_aside)
{
	char *text = NULL;
	size_t tlen = 0, len;
	FILE *out = open_memstream(&text, &tlen);
	const char *name = "../x/.bashrc";
	unsigned char *buf;
	char path[512];
	int gitdir;
	FILE *f;

	repo();
	fx_path(path, sizeof(path), dir, ".git");
	gitdir = open(path, O_RDONLY | O_DIRECTORY);
	cr_assert_geq(gitdir, 0);
	ltd_gitindex_judge(out, gitdir, path, (struct timespec){0, 0});
	fflush(out);
	cr_assert_eq(tlen, 0, "%s", text);
	cr_assert(fx_exists(dir, ".git/index"));

	buf = craft(&name, 1, 0100644, &len);
	fx_path(path, sizeof(path), dir, ".git/index");
	f = fopen(path, "wb");
	cr_assert_not_null(f);
	fwrite(buf, 1, len, f);
	fclose(f);
	free(buf);
	/* Not changed since: not read. */
	ltd_gitindex_judge(out, gitdir, "repo/.git",
			   (struct timespec){4102444800, 0});
	fflush(out);
	cr_assert_eq(tlen, 0, "%s", text);
	ltd_gitindex_judge(out, gitdir, "repo/.git", (struct timespec){0, 0});
	fclose(out);
	close(gitdir);
	cr_assert(!fx_exists(dir, ".git/index"));
	cr_assert(fx_exists(dir, ".git/index.ltd-native-quarantine"));
	cr_assert_not_null(strstr(text, "repo/.git/index:"), "%s", text);
	cr_assert_not_null(strstr(text, "(../x/.bashrc)"), "%s", text);
	cr_assert_not_null(strstr(text, "aside to index.ltd-native-quarantine"),
			   "%s", text);
	free(text);
}

/* A linked worktree of a SHA-256 repository: its index is SHA-256 too,
 * but its git directory (.git/worktrees/NAME) has no config of its own:
 * git reads the common directory's, named by the file commondir.  The
 * index is the user's and passes; it is not moved aside. */
Test(gitindex, sha256_linked_worktree_index_passes)
{
	char *text = NULL;
	size_t tlen = 0;
	FILE *out = open_memstream(&text, &tlen);
	char path[512];
	int gitdir;

	sh("git init -q --object-format=sha256 && echo a > a && git add a && "
	   "git commit -qm a && git worktree add -q wt && "
	   "echo b > wt/b && git -C wt add b");
	cr_assert(fx_exists(dir, ".git/worktrees/wt/index"));
	cr_assert(!fx_exists(dir, ".git/worktrees/wt/config"));
	fx_path(path, sizeof(path), dir, ".git/worktrees/wt");
	gitdir = open(path, O_RDONLY | O_DIRECTORY);
	cr_assert_geq(gitdir, 0);
	ltd_gitindex_judge(out, gitdir, "wt's git directory",
			   (struct timespec){0, 0});
	fclose(out);
	close(gitdir);
	cr_assert_eq(tlen, 0, "%s", text);
	cr_assert(fx_exists(dir, ".git/worktrees/wt/index"));
	free(text);
}

/* A commondir the cage wrote is followed only as git writes it, and only
 * to the directory whose worktrees/ holds the git directory: one naming a
 * place elsewhere (here a real SHA-256 repository's, whose config says
 * sha256) is not read, so the SHA-256 index beside it does not parse and
 * goes aside (an attacker's review: the host read the config of any
 * directory the cage named, and the cage learnt one bit of it). */
Test(gitindex, a_planted_commondir_is_not_followed)
{
	static const char *const planted[] = {"abs", "up"};
	char *text = NULL;
	size_t tlen = 0;
	FILE *out = open_memstream(&text, &tlen);
	char path[512], cmd[1024];
	int gitdir;

	sh("git init -q --object-format=sha256 r && echo a > r/a && "
	   "git -C r add a");
	for (size_t i = 0; i < ARRAY_SIZE(planted); i++) {
		snprintf(cmd, sizeof(cmd),
			 "mkdir -p %s/.git/objects %s/.git/refs && "
			 "echo 'ref: refs/heads/main' > %s/.git/HEAD && "
			 "cp r/.git/index %s/.git/index",
			 planted[i], planted[i], planted[i], planted[i]);
		sh(cmd);
	}
	/* Absolute, to the real repository; and git's own "../.." from a
	 * git directory that is not in a worktrees/ (it would reach the
	 * test's directory, whose config is made to say sha256 too). */
	snprintf(cmd, sizeof(cmd), "echo %s/r/.git > abs/.git/commondir", dir);
	sh(cmd);
	sh("echo ../.. > up/.git/commondir && echo objectformat=sha256 > "
	   "config");
	for (size_t i = 0; i < ARRAY_SIZE(planted); i++) {
		snprintf(path, sizeof(path), "%s/%s/.git", dir, planted[i]);
		gitdir = open(path, O_RDONLY | O_DIRECTORY);
		cr_assert_geq(gitdir, 0);
		ltd_gitindex_judge(out, gitdir, planted[i],
				   (struct timespec){0, 0});
		close(gitdir);
		snprintf(path, sizeof(path), "%s/.git/index", planted[i]);
		cr_assert(!fx_exists(dir, path), "%s: not read as SHA-256",
			  planted[i]);
	}
	fclose(out);
	free(text);
}
