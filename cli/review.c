// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The review commands' words: each parses its own and calls one entry
 * point of review/review.h.
 */
#include "cli/review.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "review/pager.h"
#include "review/review.h"
#include "runtime/hostuser.h"
#include "runtime/run.h"

static int fail(const struct ltd_err *err)
{
	ltd_err_print(err);
	return LTD_EXIT_RUNTIME;
}

static int usage(const char *text)
{
	fprintf(stderr, LTD_USAGE_LEAD "ltd-native %s\n", text);
	return LTD_EXIT_RUNTIME;
}

/* `review` or `review --json`: every review; `review NAME`: its changes. */
int ltd_cli_review(int argc, char **argv, char **launcher_argv)
{
	struct ltd_err err = {0};
	bool json = false;
	const char *name = NULL;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (argv[i][0] == '-' || name)
			return usage("review [NAME] [--json]");
		else
			name = argv[i];
	}
	if (name && json)
		return usage("review [NAME] [--json]");
	if (name ? ltd_review_status(stdout, name, ltd_host_user(), &err) < 0
		 : ltd_review_list_print(stdout, json, &err) < 0)
		return fail(&err);
	return 0;
}

/* `diff NAME [--stat] [--color=WHEN] [--no-pager] [--] [PATH...]`. */
int ltd_cli_diff(int argc, char **argv, char **launcher_argv)
{
	static const char use[] = "diff NAME [--stat] [--color=auto|always|"
				  "never] [--no-pager] [--] [PATH...]";
	struct ltd_diff_opts o = {.user = ltd_host_user()};
	struct ltd_err err = {0};
	bool tty = isatty(STDOUT_FILENO), pager = true, dashes = false;
	const char *name = NULL, *when = "auto";
	char *paths[argc > 0 ? argc : 1];
	pid_t pid;
	int ret;

	for (int i = 0; i < argc; i++) {
		if (!dashes && !strcmp(argv[i], "--"))
			dashes = true;
		else if (!dashes && !strcmp(argv[i], "--stat"))
			o.stat = true;
		else if (!dashes && !strcmp(argv[i], "--no-pager"))
			pager = false;
		else if (!dashes && !strncmp(argv[i], "--color=", 8))
			when = argv[i] + 8;
		else if (!dashes && argv[i][0] == '-')
			return usage(use);
		else if (!name)
			name = argv[i];
		else
			paths[o.n_paths++] = argv[i];
	}
	if (!name || (strcmp(when, "auto") && strcmp(when, "always") &&
		      strcmp(when, "never")))
		return usage(use);
	o.paths = paths;
	o.color = !strcmp(when, "always") || (tty && !strcmp(when, "auto"));
	/* The cage chose the bytes: on a terminal, no escape sequence of
	 * theirs reaches it. */
	o.shown = tty;
	pid = pager ? ltd_pager_start() : -1;
	ret = ltd_review_diff(stdout, name, &o, &err);
	ltd_pager_end(pid);
	return ret < 0 ? fail(&err) : 0;
}

/* `apply NAME [--include-protected] [--] [PATH...]`. */
int ltd_cli_apply(int argc, char **argv, char **launcher_argv)
{
	static const char use[] = "apply NAME [--include-protected] [--] "
				  "[PATH...]";
	struct ltd_apply_opts o = {.user = ltd_host_user()};
	struct ltd_err err = {0};
	const char *name = NULL;
	char *paths[argc > 0 ? argc : 1];
	bool dashes = false;

	for (int i = 0; i < argc; i++) {
		if (!dashes && !strcmp(argv[i], "--"))
			dashes = true;
		else if (!dashes && !strcmp(argv[i], "--include-protected"))
			o.include_protected = true;
		else if (!dashes && argv[i][0] == '-')
			return usage(use);
		else if (!name)
			name = argv[i];
		else
			paths[o.n_paths++] = argv[i];
	}
	if (!name)
		return usage(use);
	o.paths = paths;
	if (ltd_review_apply(stdout, name, &o, &err) < 0) {
		ltd_err_print(&err);
		return err.code == EEXIST ? 1 : LTD_EXIT_RUNTIME;
	}
	return 0;
}

/* `discard NAME`. */
int ltd_cli_discard(int argc, char **argv, char **launcher_argv)
{
	struct ltd_err err = {0};

	if (argc != 1 || argv[0][0] == '-')
		return usage("discard NAME");
	return ltd_review_discard(stdout, argv[0], &err) < 0 ? fail(&err) : 0;
}
