// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The review commands' words: each parses its own and calls one entry
 * point of review/review.h.
 */
#include "cli/review.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "common/text.h"
#include "review/pager.h"
#include "review/review.h"
#include "runtime/hostuser.h"
#include "runtime/run.h"

/* The pending reviews, for a message that wants a NAME. */
static void say_names(void)
{
	char names[1024];

	ltd_review_names(names, sizeof(names));
	if (names[0])
		fprintf(stderr, "ltd-native: pending reviews: %s\n", names);
	else
		fputs("ltd-native: there are no pending reviews\n", stderr);
}

/*
 * A usage error of command @cmd: what is wrong, the usage, and when a
 * NAME was missing the pending reviews' names.  Exit 125, as every usage
 * error of ltd-native (its own errors are 125; 1 is apply's conflicts).
 */
static int usage(const char *cmd, const char *text, bool names, const char *fmt,
		 ...)
{
	va_list ap;

	fprintf(stderr, "ltd-native: %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n" LTD_USAGE_LEAD "ltd-native %s\n", text);
	if (names)
		say_names();
	return LTD_EXIT_RUNTIME;
}

/* `CMD --help`: its usage and what its options do, on stdout, exit 0
 * (as `run --help`). */
static int help(const char *use, const char *text)
{
	printf("usage: ltd-native %s\n\n%s", use, text);
	return 0;
}

/* --help among @argv's options (before a "--"). */
static bool wants_help(int argc, char **argv)
{
	for (int i = 0; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

/* An error of review command @cmd: said; an unknown NAME with the
 * command's name and the names there are. */
static int fail_named(const char *cmd, const struct ltd_err *err)
{
	if (err->code != ENOENT || !strstr(err->msg, "there is no review")) {
		ltd_err_print(err);
		return LTD_EXIT_RUNTIME;
	}
	fprintf(stderr, "ltd-native: %s: ", cmd);
	ltd_fput_shown(stderr, err->msg);
	fputc('\n', stderr);
	say_names();
	return LTD_EXIT_RUNTIME;
}

/* `review` or `review --json`: every review; `review NAME [--json]`: its
 * changes. */
int ltd_cli_review(int argc, char **argv, char **launcher_argv)
{
	static const char use[] = "review [NAME] [--json]";
	const struct ltd_host_user *user = ltd_host_user();
	struct ltd_err err = {0};
	bool json = false;
	const char *name = NULL;

	if (wants_help(argc, argv))
		return help(use,
			    "Without NAME: the pending reviews (name, project, "
			    "when, counts).\nWith NAME: its changes, as git "
			    "status --short shows them.\n\n"
			    "  --json  as JSON\n");
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (argv[i][0] == '-')
			return usage("review", use, false,
				     "unknown option '%s'", argv[i]);
		else if (name)
			return usage("review", use, false,
				     "one NAME at most ('%s' and '%s')", name,
				     argv[i]);
		else
			name = argv[i];
	}
	if (name ? ltd_review_status(stdout, name, json, user, &err) < 0
		 : ltd_review_list_print(stdout, json, user, &err) < 0)
		return fail_named("review", &err);
	return 0;
}

/* diff's and apply's words: NAME, then PATHs. */
struct words {
	const char *name;
	char **paths;
	size_t *n_paths;
	bool dashes;
};

/* @word taken into @w ("--" once, then only NAME and PATHs), or, an
 * option before "--", returned for the command to judge. */
static const char *take_word(struct words *w, char *word)
{
	if (!w->dashes && !strcmp(word, "--")) {
		w->dashes = true;
		return NULL;
	}
	if (!w->dashes && word[0] == '-')
		return word;
	if (!w->name)
		w->name = word;
	else
		w->paths[(*w->n_paths)++] = word;
	return NULL;
}

/* --stat's width as git takes it: $COLUMNS, else the terminal's (asked
 * before a pager takes stdout), else 0 (review/statfmt.h's 80). */
static unsigned stat_width(void)
{
	const char *cols = getenv("COLUMNS");
	struct winsize ws;

	if (cols && atoi(cols) > 0)
		return (unsigned)atoi(cols);
	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws))
		return ws.ws_col;
	return 0;
}

/* `diff NAME [--stat] [--color=WHEN] [--no-pager] [--] [PATH...]`. */
int ltd_cli_diff(int argc, char **argv, char **launcher_argv)
{
	static const char use[] = "diff NAME [--stat] [--color=auto|always|"
				  "never] [--no-pager] [--] [PATH...]";
	struct ltd_diff_opts o = {.user = ltd_host_user()};
	struct ltd_err err = {0};
	bool tty = isatty(STDOUT_FILENO), pager = true;
	const char *name, *when = "auto";
	char *paths[argc > 0 ? argc : 1];
	struct words w = {.paths = paths, .n_paths = &o.n_paths};
	pid_t pid;
	int ret;

	if (wants_help(argc, argv))
		return help(use,
			    "A unified diff of the review's changes (of PATHs "
			    "only, and what is below them).\n\n"
			    "  --stat         a line per file and the totals\n"
			    "  --color=WHEN   auto (a terminal), always or "
			    "never\n"
			    "  --no-pager     no pager on a terminal\n");
	for (int i = 0; i < argc; i++) {
		const char *opt = take_word(&w, argv[i]);

		if (!opt)
			continue;
		if (!strcmp(opt, "--stat"))
			o.stat = true;
		else if (!strcmp(opt, "--no-pager"))
			pager = false;
		else if (!strncmp(opt, "--color=", 8))
			when = opt + 8;
		else
			return usage("diff", use, false, "unknown option '%s'",
				     opt);
	}
	name = w.name;
	if (!name)
		return usage("diff", use, true,
			     "which review? NAME is missing");
	if (strcmp(when, "auto") && strcmp(when, "always") &&
	    strcmp(when, "never"))
		return usage("diff", use, false,
			     "--color: '%s' is not auto, always or never",
			     when);
	o.paths = paths;
	o.color = !strcmp(when, "always") || (tty && !strcmp(when, "auto"));
	/* The cage chose the bytes: on a terminal, no escape sequence of
	 * theirs reaches it. */
	o.shown = tty;
	o.width = stat_width();
	pid = pager ? ltd_pager_start() : -1;
	ret = ltd_review_diff(stdout, name, &o, &err);
	ltd_pager_end(pid);
	return ret < 0 ? fail_named("diff", &err) : 0;
}

/* `apply NAME [--include-protected] [--] [PATH...]`. */
int ltd_cli_apply(int argc, char **argv, char **launcher_argv)
{
	static const char use[] = "apply NAME [--include-protected] [--] "
				  "[PATH...]";
	struct ltd_apply_opts o = {.user = ltd_host_user()};
	struct ltd_err err = {0};
	const char *name;
	char *paths[argc > 0 ? argc : 1];
	struct words w = {.paths = paths, .n_paths = &o.n_paths};

	if (wants_help(argc, argv))
		return help(use,
			    "Land the review's changes (of PATHs only, and "
			    "what is below them) in the project:\nall or "
			    "nothing; exit 1 when the host changed one since "
			    "the review began.\n\n"
			    "  --include-protected  land what is held back "
			    "too (files a host program runs;\n"
			    "                       nothing of a .git ever "
			    "lands)\n");
	for (int i = 0; i < argc; i++) {
		const char *opt = take_word(&w, argv[i]);

		if (!opt)
			continue;
		if (!strcmp(opt, "--include-protected"))
			o.include_protected = true;
		else
			return usage("apply", use, false, "unknown option '%s'",
				     opt);
	}
	name = w.name;
	if (!name)
		return usage("apply", use, true,
			     "which review? NAME is missing");
	o.paths = paths;
	if (ltd_review_apply(stdout, name, &o, &err) < 0) {
		if (err.code == EEXIST) {
			ltd_err_print(&err);
			return 1;
		}
		return fail_named("apply", &err);
	}
	return 0;
}

/* `discard NAME`. */
int ltd_cli_discard(int argc, char **argv, char **launcher_argv)
{
	static const char use[] = "discard NAME";
	struct ltd_err err = {0};

	if (wants_help(argc, argv))
		return help(use, "Remove the review and all its changes.\n");
	if (argc == 0)
		return usage("discard", use, true,
			     "which review? NAME is missing");
	if (argv[0][0] == '-')
		return usage("discard", use, false, "unknown option '%s'",
			     argv[0]);
	if (argc > 1)
		return usage("discard", use, false,
			     "one NAME only ('%s' and '%s')", argv[0], argv[1]);
	return ltd_review_discard(stdout, argv[0], &err) < 0
		       ? fail_named("discard", &err)
		       : 0;
}
