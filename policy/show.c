// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `ltd-native policy show`: the resolved policy in policy-file syntax (so
 * it can be pasted into a policy file), each line followed by where it came
 * from; then, as comments, what the options imply on this host (copies,
 * persistent state, the environment, host ports; the paths protect/ keeps
 * read-only, passed in) and every waived risk.
 */
#include "policy/option.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/cleanup.h"
#include "common/text.h"
#include "policy/env.h"
#include "policy/limits.h"

/* One line of output.  Paths come from the user's tree and git's
 * configuration, values from the command line: control bytes are shown as
 * '?' (ltd_fput_shown), so none can forge a line. */
static void __attribute__((format(printf, 2, 3)))
line_out(FILE *out, const char *fmt, ...)
{
	_cleanup_free_ char *s = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		s = NULL;
		fputs("# (out of memory)\n", out);
		return;
	}
	ltd_fput_shown(out, s);
	fputc('\n', out);
}

static const char *group_of(const struct ltd_option *o)
{
	return o->group ? o->group : o->name;
}

static void print_line(FILE *out, const char *name, char *const *args,
		       int nargs, const char *source)
{
	char line[8192], q[4200];
	int n = snprintf(line, sizeof(line), "%s", name);

	for (int i = 0; i < nargs && n < (int)sizeof(line); i++)
		n += snprintf(line + n, sizeof(line) - (size_t)n, " %s",
			      ltd_opt_quote(args[i], q, sizeof(q)));
	line_out(out, "%-48s # %s", line, source);
}

/* One group of options: every entry (lists) or the last (the rest). */
static void print_group(FILE *out, const struct ltd_policy *p,
			const char *group)
{
	const struct ltd_option *def = NULL, *o;
	const struct ltd_origin *last = NULL;
	bool list = false;

	for (size_t i = 0; (o = ltd_option_at(i)); i++) {
		if (strcmp(group_of(o), group) != 0)
			continue;
		list |= o->flags & LTD_OPT_LIST;
		if (o->def && !def)
			def = o;
	}
	for (size_t i = 0; i < p->n_origins; i++) {
		const struct ltd_origin *r = &p->origins[i];

		o = ltd_option_find(r->opt);
		if (!o || strcmp(group_of(o), group) != 0)
			continue;
		if (list)
			print_line(out, r->opt, r->args, o->nargs, r->source);
		last = r;
	}
	if (!list && last)
		print_line(out, last->opt, last->args,
			   ltd_option_find(last->opt)->nargs, last->source);
	else if (!last && def)
		print_line(out, def->name, (char *const[]){(char *)def->def},
			   def->nargs, "built-in");
}

/* " (why)" for a variable an adapter set, unless --setenv changed it. */
static const char *env_origin(const struct ltd_policy *p, const char *kv)
{
	static char buf[160];
	size_t n = strcspn(kv, "=");

	for (size_t i = 0; i < p->n_env; i++)
		if (strlen(p->env[i].key) == n &&
		    !strncmp(kv, p->env[i].key, n))
			return "";
	for (size_t i = 0; i < p->n_derived_env; i++) {
		const struct ltd_env_item *e = &p->derived_env[i];

		if (strlen(e->key) == n && !strncmp(kv, e->key, n)) {
			snprintf(buf, sizeof(buf), " (%s)", e->why);
			return buf;
		}
	}
	return "";
}

/* The files and links the adapters generate in the cage, and the files
 * of the home created when missing. */
static void print_generated(FILE *out, const struct ltd_policy *p)
{
	for (size_t i = 0; i < p->n_files; i++) {
		const struct ltd_cage_file *f = &p->files[i];

		if (f->mode)
			line_out(out, "#   file %s, %zu bytes, mode %04o (%s)",
				 f->dst, f->len, (unsigned)f->mode, f->why);
		else
			line_out(out, "#   link %s -> %s (%s)", f->dst,
				 f->content, f->why);
	}
	for (size_t i = 0; i < p->n_seeds; i++)
		line_out(out,
			 "#   host file %s, %zu bytes, created 0600 when "
			 "missing (%s)",
			 p->seeds[i].dst, p->seeds[i].len, p->seeds[i].why);
}

static void print_derived(FILE *out, const struct ltd_policy *p,
			  const struct ltd_policy_show_extra *x)
{
	struct ltd_err err = {0};
	char **envp;

	line_out(out, "#");
	line_out(out, "# derived on this host:");
	line_out(out, "#   project %s, read-write", p->project);
	for (size_t i = 0; i < x->n_readonly; i++)
		line_out(out, "#   read-only inside: %s", x->readonly[i]);
	line_out(out, "#   home: a fresh tmpfs at %s (%s tier)", p->id.home,
		 p->tier == LTD_TIER_TRUSTED ? "trusted" : "strict");
	for (size_t i = 0; i < p->n_copies; i++)
		line_out(out, "#   copy %s (disposable)", p->copies[i].src);
	for (size_t i = 0; i < p->n_mounts; i++) {
		const struct ltd_user_mount *m = &p->mounts[i];

		if (!m->derived)
			continue;
		line_out(out, "#   %s %s -> %s (%s%s)",
			 m->kind == LTD_UM_RO_BIND ? "ro-bind" : "bind", m->src,
			 m->dst, m->flag,
			 m->state ? "; persistent, created 0700/0600 when "
				    "missing"
				  : "");
	}
	print_generated(out, p);
	for (size_t i = 0; i < p->n_host_ports; i++)
		line_out(out, "#   host port %u open at host.ltd.internal",
			 p->host_ports[i]);
	for (size_t i = 0; i < p->n_publish; i++) {
		const struct ltd_publish *pub = &p->publish[i];
		char host[64];

		ltd_publish_host(pub, host, sizeof(host));
		line_out(
			out,
			"#   published: the cage's TCP port %u at %s:%u on the "
			"host%s",
			pub->cage_port, host, pub->host_port,
			ltd_publish_loopback(pub) ? " (loopback only)"
						  : " (beyond loopback)");
	}
	envp = ltd_env_build(p, NULL, &err);
	for (char **e = envp; e && *e; e++)
		line_out(out, "#   env %s%s", *e, env_origin(p, *e));
	ltd_env_free(envp);
	if (p->n_waived) {
		line_out(out, "#");
		line_out(out, "# UNSAFE, waived:");
		for (size_t i = 0; i < p->n_waived; i++)
			line_out(out, "#   %s", p->waived[i]);
	}
	if (p->n_warnings || x->n_warnings) {
		line_out(out, "#");
		line_out(out, "# warnings:");
		for (size_t i = 0; i < p->n_warnings; i++)
			line_out(out, "#   %s", p->warnings[i]);
		for (size_t i = 0; i < x->n_warnings; i++)
			line_out(out, "#   %s", x->warnings[i]);
	}
	if (p->n_notes) {
		line_out(out, "#");
		line_out(out, "# notes (not said with --quiet):");
		for (size_t i = 0; i < p->n_notes; i++)
			line_out(out, "#   %s", p->notes[i]);
	}
}

void ltd_policy_show(FILE *out, const struct ltd_policy *p,
		     const struct ltd_policy_show_extra *x)
{
	static const struct ltd_policy_show_extra none = {0};
	const struct ltd_option *o;

	fprintf(out, "# ltd-native: the resolved policy (policy-file syntax; "
		     "after '#', where each line came from)\n");
	for (size_t i = 0; (o = ltd_option_at(i)); i++) {
		const struct ltd_option *first = NULL, *q;

		/* Each group once, where its first option stands. */
		for (size_t j = 0; (q = ltd_option_at(j)) && !first; j++)
			if (strcmp(group_of(q), group_of(o)) == 0)
				first = q;
		if (first == o)
			print_group(out, p, group_of(o));
	}
	print_derived(out, p, x ? x : &none);
}
