// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Options as written, before they are applied: collected from one source
 * into an entry list (the command line here; policy files and the
 * environment in files.c and resolve.c), then applied to the policy in
 * order of precedence, each recorded with where it came from.
 */
#include "policy/option.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

static int copy_argv(char ***out, int argc, char **argv, struct ltd_err *err)
{
	char **v = calloc((size_t)argc + 1, sizeof(char *));

	if (!v)
		return ltd_err_set(err, ENOMEM, "out of memory");
	*out = v;
	for (int i = 0; i < argc; i++) {
		v[i] = strdup(argv[i]);
		if (!v[i])
			return ltd_err_set(err, ENOMEM, "out of memory");
	}
	return 0;
}

int ltd_opts_add(struct ltd_opt_list *l, const struct ltd_option *opt,
		 char *const *args, const char *source, struct ltd_err *err)
{
	struct ltd_opt_entry *e;

	e = ltd_vec_push(&l->e, l->n);
	if (!e)
		return ltd_err_set(err, ENOMEM, "out of memory");
	*e = (struct ltd_opt_entry){.opt = opt, .source = strdup(source)};
	for (int i = 0; i < opt->nargs; i++)
		e->args[i] = strdup(args[i]);
	if (!e->source || (opt->nargs > 0 && !e->args[0]) ||
	    (opt->nargs > 1 && !e->args[1])) {
		free(e->source);
		free(e->args[0]);
		free(e->args[1]);
		return ltd_err_set(err, ENOMEM, "out of memory");
	}
	l->n++;
	return 0;
}

void ltd_opts_free(struct ltd_opt_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->e[i].args[0]);
		free(l->e[i].args[1]);
		free(l->e[i].source);
	}
	free(l->e);
	*l = (struct ltd_opt_list){0};
}

int ltd_opts_from_argv(struct ltd_opt_list *l, int argc, char **argv,
		       bool need_cmd, char ***cmd, struct ltd_err *err)
{
	int i = 0, ret;

	*cmd = NULL;
	while (i < argc) {
		const struct ltd_option *opt;
		const char *arg = argv[i];

		if (strcmp(arg, "--") == 0) {
			if (i + 1 >= argc)
				return ltd_err_set(err, EINVAL,
						   "no command after '--'");
			return copy_argv(cmd, argc - i - 1, &argv[i + 1], err);
		}
		if (strncmp(arg, "--", 2) != 0)
			return ltd_err_set(
				err, EINVAL,
				"'%s': expected a flag or '--' before "
				"the command",
				arg);
		opt = ltd_option_find(arg + 2);
		if (!opt && ltd_option_renamed(arg + 2))
			return ltd_err_set(err, EINVAL,
					   "'%s' is now '--%s' (%s)", arg,
					   ltd_option_renamed(arg + 2)->now,
					   ltd_option_renamed(arg + 2)->why);
		if (!opt)
			return ltd_err_set(err, EINVAL,
					   "unknown flag '%s' (see 'ltd-native "
					   "run --help')",
					   arg);
		if (i + opt->nargs >= argc)
			return ltd_err_set(
				err, EINVAL, "%s needs %d argument%s: %s", arg,
				opt->nargs, opt->nargs > 1 ? "s" : "",
				opt->metavar);
		ret = ltd_opts_add(l, opt, &argv[i + 1], LTD_SRC_CLI, err);
		if (ret < 0)
			return ret;
		i += 1 + opt->nargs;
	}
	if (need_cmd)
		return ltd_err_set(err, EINVAL,
				   "missing '--' before the command");
	return 0;
}

static int add_origin(struct ltd_policy *p, const struct ltd_opt_entry *e,
		      struct ltd_err *err)
{
	struct ltd_origin *o;

	o = ltd_vec_push(&p->origins, p->n_origins);
	if (!o)
		return ltd_err_set(err, ENOMEM, "out of memory");
	*o = (struct ltd_origin){.opt = e->opt->name};
	o->source = strdup(e->source);
	for (int i = 0; i < e->opt->nargs; i++)
		o->args[i] = strdup(e->args[i]);
	p->n_origins++;
	if (!o->source || (e->opt->nargs > 0 && !o->args[0]) ||
	    (e->opt->nargs > 1 && !o->args[1]))
		return ltd_err_set(err, ENOMEM, "out of memory");
	return 0;
}

int ltd_opts_apply(struct ltd_policy *p, const struct ltd_opt_list *l,
		   struct ltd_err *err)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct ltd_opt_entry *e = &l->e[i];
		int ret = e->opt->apply(p, e->opt, (char **)e->args, err);

		if (ret < 0) {
			/* "--bind: ..." from a file: say which line. */
			if (strcmp(e->source, LTD_SRC_CLI) != 0)
				ltd_err_prefix(err, "%s", e->source);
			return ret;
		}
		ret = add_origin(p, e, err);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int ltd_policy_parse_run(struct ltd_policy *p, int argc, char **argv,
			 struct ltd_err *err)
{
	struct ltd_opt_list l = {0};
	int ret;

	ret = ltd_opts_from_argv(&l, argc, argv, true, &p->argv, err);
	if (!ret)
		ret = ltd_opts_apply(p, &l, err);
	ltd_opts_free(&l);
	return ret;
}
