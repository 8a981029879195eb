// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `diff NAME --stat`'s lines (see statfmt.h).
 */
#include "review/statfmt.h"

#include <string.h>

#include "common/text.h"

#define C_NEW  "\033[32m"
#define C_OLD  "\033[31m"
#define C_NOTE "\033[33m"
#define C_OFF  "\033[m"

static void color(FILE *out, bool on, const char *c)
{
	if (on)
		fputs(c, out);
}

void ltd_statfmt(FILE *out, const struct ltd_statf *f, size_t n, bool on)
{
	unsigned add = 0, del = 0, width = 0, modes = 0;

	for (size_t i = 0; i < n; i++)
		if (strlen(f[i].path) > width)
			width = (unsigned)strlen(f[i].path);
	if (width > 60)
		width = 60;
	for (size_t i = 0; i < n; i++) {
		const struct ltd_statf *s = &f[i];
		unsigned sum = s->add + s->del;
		bool mode = s->flags & LTD_STATF_MODE;

		modes += mode;
		fputc(' ', out);
		ltd_fput_shown(out, s->path);
		fprintf(out, "%*s | ",
			(int)(width > strlen(s->path) ? width - strlen(s->path)
						      : 0),
			"");
		if (s->flags & LTD_STATF_BINARY) {
			fputs(mode ? "Bin (mode)" : "Bin", out);
			fputs(s->flags & LTD_STATF_CONFLICT ? " (conflict)\n"
							    : "\n",
			      out);
			continue;
		}
		fprintf(out, "%u%s", sum, mode && !sum ? " (mode)" : " ");
		color(out, on, C_NEW);
		for (unsigned k = 0; k < s->add && k < 40; k++)
			fputc('+', out);
		color(out, on, C_OLD);
		for (unsigned k = 0; k < s->del && k < 40; k++)
			fputc('-', out);
		color(out, on, C_OFF);
		/* As diff marks it: apply would refuse it. */
		if (s->flags & LTD_STATF_CONFLICT) {
			color(out, on, C_NOTE);
			fputs(" (conflict)", out);
			color(out, on, C_OFF);
		}
		fputc('\n', out);
		add += s->add;
		del += s->del;
	}
	fprintf(out, " %zu file%s changed, %u insertion%s(+), %u deletion%s(-)",
		n, n == 1 ? "" : "s", add, add == 1 ? "" : "s", del,
		del == 1 ? "" : "s");
	if (modes)
		fprintf(out, ", %u mode change%s", modes,
			modes == 1 ? "" : "s");
	fputc('\n', out);
}
