// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The review commands' words: each parses its own and calls one entry
 * point of review/review.h.
 */
#include "cli/review.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

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
	fprintf(stderr, "usage: ltd-native %s\n", text);
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

/* `discard NAME`. */
int ltd_cli_discard(int argc, char **argv, char **launcher_argv)
{
	struct ltd_err err = {0};

	if (argc != 1 || argv[0][0] == '-')
		return usage("discard NAME");
	return ltd_review_discard(stdout, argv[0], &err) < 0 ? fail(&err) : 0;
}
