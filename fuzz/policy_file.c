// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for policy files (policy/files.c, policy/options.c): a
 * project's .ltd-native/policy comes with a cloned repository.  The text
 * is read as the user's own file (every option a file may hold) and
 * applied to a policy; then as a project's.  Checks beyond ASan + UBSan:
 *   - a project's file never yields an option refused in a project
 *     (LTD_OPT_NOT_PROJECT, LTD_OPT_CLI_ONLY, test hooks);
 *   - every word read, written back as `policy show` writes it
 *     (ltd_opt_quote), reads back the same.
 * The same text is read as a domain file too (--allow-domains-file,
 * policy/domains.c): every entry admits its own name (a wildcard's, one
 * label below it).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/domains.h"
#include "policy/option.h"
#include "policy/policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define HOME "/home/u"

/* Each entry of @l, written as one line and read back: the same. */
static void round_trip(const struct ltd_opt_list *l)
{
	static char line[3 * 8192], q[2][8192 + 8];

	for (size_t i = 0; i < l->n; i++) {
		const struct ltd_opt_entry *e = &l->e[i];
		struct ltd_opt_list back = {0};
		struct ltd_err err = {0};
		int len;

		len = snprintf(line, sizeof(line), "%s", e->opt->name);
		for (int k = 0; k < e->opt->nargs; k++)
			len += snprintf(
				line + len, sizeof(line) - (size_t)len, " %s",
				ltd_opt_quote(e->args[k], q[k], sizeof(q[k])));
		if (ltd_opts_from_text(&back, line, (size_t)len, "back", HOME,
				       LTD_OPT_CLI_ONLY, &err) < 0 ||
		    back.n != 1 || back.e[0].opt != e->opt)
			abort();
		for (int k = 0; k < e->opt->nargs; k++)
			if (strcmp(back.e[0].args[k], e->args[k]) != 0)
				abort();
		ltd_opts_free(&back);
	}
}

static void domain_file(const uint8_t *data, size_t size)
{
	struct ltd_domains l = {0};
	struct ltd_err err = {0};
	char *text = malloc(size + 1), name[LTD_DOMAIN_MAX + 2];
	uint16_t ports[LTD_DOMAIN_MAX_PORTS];
	size_t np;

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	if (ltd_domains_parse_text(&l, text, "domains", &err) == 0)
		for (size_t i = 0; i < l.n; i++) {
			const struct ltd_domain *d = &l.v[i];

			snprintf(name, sizeof(name), "%s%s",
				 d->wildcard ? "x." : "", d->name);
			if (strlen(name) < LTD_DOMAIN_MAX &&
			    !ltd_domains_match(&l, name, ports, &np))
				abort();
		}
	ltd_domains_free(&l);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ltd_opt_list user = {0}, project = {0};
	struct ltd_err err = {0};
	struct ltd_policy p;
	const char *text = (const char *)data;

	if (ltd_opts_from_text(&user, text, size, "policy", HOME,
			       LTD_OPT_CLI_ONLY, &err) == 0) {
		round_trip(&user);
		ltd_policy_init(&p);
		ltd_opts_apply(&p, &user, &err);
		ltd_policy_free(&p);
	}
	if (ltd_opts_from_text(&project, text, size, "project", HOME,
			       LTD_OPT_CLI_ONLY | LTD_OPT_NOT_PROJECT,
			       &err) == 0)
		for (size_t i = 0; i < project.n; i++)
			if (project.e[i].opt->flags &
			    (LTD_OPT_CLI_ONLY | LTD_OPT_NOT_PROJECT |
			     LTD_OPT_TEST_HOOK))
				abort();
	ltd_opts_free(&user);
	ltd_opts_free(&project);
	domain_file(data, size);
	return 0;
}
