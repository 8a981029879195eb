// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The option table as data, for what is generated from it: the option
 * list of ltd-native(1) and the shell completions (`ltd-native
 * --complete-options`, not in --help).  One line per option, fields
 * separated by tabs: --NAME, the number of arguments, the metavariable
 * ("-" for none), the flags ("list", "not-project", "cli-only", "summary": also
 * in `ltd-native --help`; "-" for none), the help text.  Test hooks are left
 * out, as in --help.
 */
#include "common/base.h"
#include "policy/option.h"

static void put_field(FILE *out, const char *s)
{
	/* A tab or newline would split the line: the table has none, and
	 * a space stands in if it ever does. */
	for (; s && *s; s++)
		fputc(*s == '\t' || *s == '\n' ? ' ' : *s, out);
}

static const struct {
	unsigned bit;
	const char *word;
} flag_words[] = {
	{LTD_OPT_LIST, "list"},
	{LTD_OPT_NOT_PROJECT, "not-project"},
	{LTD_OPT_CLI_ONLY, "cli-only"},
	{LTD_OPT_SUMMARY, "summary"},
};

void ltd_policy_print_options(FILE *out)
{
	const struct ltd_option *o;

	for (size_t i = 0; (o = ltd_option_at(i)); i++) {
		const char *sep = "";

		if (o->flags & LTD_OPT_TEST_HOOK)
			continue;
		fprintf(out, "--%s\t%d\t", o->name, o->nargs);
		put_field(out, o->metavar ? o->metavar : "-");
		fputc('\t', out);
		for (size_t j = 0; j < ARRAY_SIZE(flag_words); j++) {
			if (!(o->flags & flag_words[j].bit))
				continue;
			fprintf(out, "%s%s", sep, flag_words[j].word);
			sep = ",";
		}
		fprintf(out, "%s\t", *sep ? "" : "-");
		put_field(out, o->help);
		fputc('\n', out);
	}
}
