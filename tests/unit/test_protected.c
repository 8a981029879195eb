// SPDX-License-Identifier: GPL-2.0-or-later
/* The protected paths before and after a run, in a real temp project. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "protect/protected.h"
#include "tests/common/fixture.h"

static struct ltd_protected prot;
static char dir[64];

static void put(const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

static void protect(const char *rel)
{
	char path[256];
	struct ltd_err err = {0};

	snprintf(path, sizeof(path), "%s/proj/%s", dir, rel);
	cr_assert_eq(ltd_protected_add(&prot, path, &err), 0);
}

/* dir/proj is the project; dir/elsewhere a directory of the host's that a
 * link made in the cage could point at. */
static void setup(void)
{
	char path[256];

	fx_tmpdir(dir, sizeof(dir), "prot");
	mkdir(strcat(strcpy(path, dir), "/proj"), 0755);
	mkdir(strcat(strcpy(path, dir), "/elsewhere"), 0755);
	put("elsewhere/config", "[core]\n");
	put("elsewhere/settings.json", "{}\n");
	prot.project = strdup(strcat(strcpy(path, dir), "/proj"));
	protect(".git");
	protect(".git/config");
	protect(".claude/settings.json");
}

static void teardown(void)
{
	free((char *)prot.project);
	ltd_protected_free(&prot);
	fx_rm_rf(dir);
}

TestSuite(protected, .init = setup, .fini = teardown);

static void link_in_project(const char *rel, const char *target)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/proj/%s", dir, rel);
	cr_assert_eq(symlink(target, path), 0, "%s", path);
}

/* The report of @before against now, as text. */
static char *report(const struct ltd_protected_id *before)
{
	struct ltd_protected_id *after = ltd_protected_ids(&prot);
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	cr_assert_not_null(after);
	cr_assert_not_null(out);
	ltd_protected_report(out, &prot, before, after);
	fclose(out);
	free(after);
	return text;
}

/* .git was missing at the start, so the command could make it a link to
 * anywhere on the host (an automount, another repository): the check
 * after the run does not walk through it. */
Test(protected, a_link_on_the_way_is_not_followed)
{
	struct ltd_protected_id *before = ltd_protected_ids(&prot), *after;
	char path[256];
	struct stat st;

	cr_assert_not_null(before);
	link_in_project(".git", "../elsewhere");
	after = ltd_protected_ids(&prot);
	cr_assert_not_null(after);
	cr_assert_eq(after[0].type, S_IFLNK, ".git itself: the link");
	snprintf(path, sizeof(path), "%s/elsewhere/config", dir);
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_not(after[1].type == S_IFREG && after[1].ino == st.st_ino &&
			      after[1].dev == st.st_dev,
		      ".git/config is not the link's target");
	free(after);
	free(before);
}

/* A directory on the way made a link: the path is reported as one the
 * command redirected, not as the file the link leads to. */
Test(protected, a_link_on_the_way_is_reported)
{
	struct ltd_protected_id *before = ltd_protected_ids(&prot);
	char *text;

	cr_assert_not_null(before);
	link_in_project(".claude", "../elsewhere");
	text = report(before);
	cr_assert_not_null(strstr(text, "/proj/.claude/settings.json"), "%s",
			   text);
	cr_assert_not_null(strstr(text, "symbolic link"), "%s", text);
	free(text);
	free(before);
}

/* Nothing changed: nothing said. */
Test(protected, an_unchanged_project_is_not_reported)
{
	struct ltd_protected_id *before;
	char path[256], *text;

	snprintf(path, sizeof(path), "%s/proj/.git", dir);
	cr_assert_eq(mkdir(path, 0755), 0);
	put("proj/.git/config", "[core]\n");
	before = ltd_protected_ids(&prot);
	cr_assert_not_null(before);
	text = report(before);
	cr_assert_str_eq(text, "");
	free(text);
	free(before);
}

/* A file made anew in place of the old one: reported, by its name. */
Test(protected, a_replaced_file_is_reported)
{
	struct ltd_protected_id *before;
	char path[256], buf[300], *text;

	snprintf(path, sizeof(path), "%s/proj/.git", dir);
	cr_assert_eq(mkdir(path, 0755), 0);
	put("proj/.git/config", "[core]\n");
	before = ltd_protected_ids(&prot);
	cr_assert_not_null(before);
	/* Made beside the old one and renamed over it: a new inode. */
	put("proj/.git/config.new", "[core]\n\tfsmonitor = x\n");
	snprintf(path, sizeof(path), "%s/proj/.git/config", dir);
	snprintf(buf, sizeof(buf), "%s.new", path);
	cr_assert_eq(rename(buf, path), 0);
	text = report(before);
	cr_assert_not_null(strstr(text, "/proj/.git/config"), "%s", text);
	free(text);
	free(before);
}

/* A protected file the command made at the project's top, which the
 * listing of the top said absent before: reported.  The same with a top
 * too big for one listing (each name looked at on its own then). */
Test(protected, a_file_made_at_the_top_is_reported)
{
	for (int big = 0; big < 2; big++) {
		struct ltd_protected_id *before;
		char path[256], *text;

		snprintf(path, sizeof(path), "%s/proj/mise.toml", dir);
		unlink(path);
		protect("mise.toml");
		for (int i = 0; big && i < 1500; i++) {
			snprintf(path, sizeof(path),
				 "proj/a-name-long-enough-to-fill-%04d", i);
			put(path, "");
		}
		before = ltd_protected_ids(&prot);
		cr_assert_not_null(before);
		cr_assert_eq(before[prot.n - 1].type, 0, "absent before");
		put("proj/mise.toml", "[tasks]\n");
		text = report(before);
		cr_assert_not_null(strstr(text, "/proj/mise.toml"), "%s", text);
		free(text);
		free(before);
	}
}

/* A name of 230 bytes or more could not take the suffix (ENAMETOOLONG):
 * said as "could NOT be moved aside", and left.  Now cut to fit, where a
 * character begins. */
Test(protected, a_long_name_is_cut_to_go_aside)
{
	char base[251], to[NAME_MAX + 64], path[512];
	_cleanup_close_ int fd = -1;
	size_t n;

	memset(base, 'a', 250);
	base[250] = '\0';
	ltd_protected_aside_name(to, sizeof(to), "", base, 0);
	n = strlen(to);
	cr_assert_eq(n, NAME_MAX, "%zu", n);
	cr_assert_str_eq(to + n - 22, ".ltd-native-quarantine");
	ltd_protected_aside_name(to, sizeof(to), "rules-", base, 3);
	cr_assert_eq(strlen(to), NAME_MAX);
	cr_assert_eq(strncmp(to, "rules-aaa", 9), 0, "%s", to);
	cr_assert_str_eq(to + NAME_MAX - 24, ".ltd-native-quarantine.3");
	/* "é" is two bytes: never half of one. */
	for (size_t i = 0; i + 1 < 250; i += 2)
		memcpy(base + i, "\xc3\xa9", 2);
	ltd_protected_aside_name(to, sizeof(to), "", base, 0);
	n = strlen(to) - 22;
	cr_assert_eq(n % 2, 0, "cut inside a character: %zu", n);
	/* And it moves. */
	memset(base, 'b', 250);
	snprintf(path, sizeof(path), "%s/proj/%s", dir, base);
	fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	cr_assert_geq(fd, 0);
	snprintf(path, sizeof(path), "%s/proj", dir);
	{
		_cleanup_close_ int d = open(path, O_RDONLY | O_DIRECTORY);

		cr_assert_eq(ltd_protected_move_aside(d, base, to, sizeof(to)),
			     0);
		cr_assert_eq(faccessat(d, to, F_OK, AT_SYMLINK_NOFOLLOW), 0);
		cr_assert_neq(faccessat(d, base, F_OK, AT_SYMLINK_NOFOLLOW), 0);
	}
}
