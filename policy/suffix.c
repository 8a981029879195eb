// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Wildcards over a public suffix.  "*.com" admits every .com site: one
 * typo ("*.com" for "*.corp.com") from an exfiltration channel.  A
 * wildcard directly over a suffix in the ICANN section of the public
 * suffix list (com, co.uk, and what a wildcard rule of the list makes
 * one: *.ck) is refused unless --unsafe-wildcard-public-suffix; one over
 * the list's private section (github.io, githubusercontent.com: every
 * customer's site of one company) passes (the built-in list needs
 * *.githubusercontent.com) and is documented as what it opens.
 *
 * The list is Debian's (the publicsuffix package, read by libpsl: the
 * newer of its file and libpsl's built-in copy), and it is read only when
 * there is a wildcard to judge: a run without one pays nothing.
 */
#include "policy/option.h"

#include <errno.h>
#include <libpsl.h>

static int judge(struct ltd_policy *p, const struct ltd_domain *d,
		 struct ltd_err *err)
{
	if (!(p->unsafe & LTD_UNSAFE_PUBLIC_SUFFIX))
		return ltd_err_set(err, EPERM,
				   "%s: '*.%s' is a wildcard over the public "
				   "suffix '%s': it admits every site under "
				   "it, any that anyone registers; name the "
				   "site ('example.%s', '*.example.%s'), or "
				   "--unsafe-wildcard-public-suffix allows it",
				   d->source, d->name, d->name, d->name,
				   d->name);
	if (ltd_policy_add_note(&p->waived, &p->n_waived,
				"--unsafe-wildcard-public-suffix: %s: '*.%s' "
				"admits every site under the public suffix "
				"'%s'",
				d->source, d->name, d->name) < 0)
		return ltd_err_set(err, ENOMEM, "out of memory");
	return 0;
}

int ltd_policy_check_wildcards(struct ltd_policy *p, size_t from,
			       struct ltd_err *err)
{
	psl_ctx_t *psl = NULL;
	int ret = 0;

	for (size_t i = from; !ret && i < p->domains.n; i++) {
		const struct ltd_domain *d = &p->domains.v[i];

		if (!d->wildcard)
			continue;
		/* The newest of Debian's file and the built-in list. */
		if (!psl && !(psl = psl_latest(NULL)))
			return ltd_err_set(err, ENOENT,
					   "%s: '*.%s': cannot read the "
					   "public suffix list (Debian's "
					   "publicsuffix package)",
					   d->source, d->name);
		/* Listed suffixes only: without NO_STAR_RULE any unlisted
		 * top level ("test", "internal") would count as one. */
		if (psl_is_public_suffix2(psl, d->name,
					  PSL_TYPE_ICANN |
						  PSL_TYPE_NO_STAR_RULE))
			ret = judge(p, d, err);
	}
	psl_free(psl);
	return ret;
}
