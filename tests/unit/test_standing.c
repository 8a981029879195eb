// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A host's standing warnings and their acknowledgements
 * (runtime/standing.h): the file's text both ways, what an
 * acknowledgement covers (the same facts only), and the facts a cgroup
 * warning rests on.
 */
#include <criterion/criterion.h>

#include <stdlib.h>
#include <string.h>

#include "runtime/standing.h"

static struct ltd_standing standing(const char *key, const char *facts)
{
	struct ltd_standing s;

	ltd_standing_set(&s, key, facts, "the warning");
	return s;
}

Test(standing, text_reads_back)
{
	struct ltd_standing s[2] = {
		standing("cgroup", "not-delegated nproc-per-userns"),
		standing("landlock", "abi 3"),
	};
	struct ltd_acks a;
	char *text = ltd_acks_text(s, 2);

	cr_assert_not_null(text);
	cr_assert_eq(text[0], '#', "it says what it is");
	ltd_acks_parse(text, strlen(text), &a);
	cr_assert_eq(a.n, 2);
	cr_assert_str_eq(a.v[0].key, "cgroup");
	cr_assert_str_eq(a.v[0].facts, "not-delegated nproc-per-userns");
	cr_assert_str_eq(a.v[1].key, "landlock");
	cr_assert_str_eq(a.v[1].facts, "abi 3");
	cr_assert(ltd_acks_cover(&a, &s[0]));
	cr_assert(ltd_acks_cover(&a, &s[1]));
	free(text);
}

/* The point: a changed fact is a new warning. */
Test(standing, other_facts_are_not_covered)
{
	static const char text[] =
		"landlock abi 3\ncgroup no-v2 nproc-per-user";
	struct ltd_acks a;
	struct ltd_standing abi2 = standing("landlock", "abi 2");
	struct ltd_standing cg = standing("cgroup", "not-delegated "
						    "nproc-per-user");
	struct ltd_standing same = standing("cgroup", "no-v2 nproc-per-user");

	ltd_acks_parse(text, sizeof(text) - 1, &a);
	cr_assert_eq(a.n, 2, "a last line without a newline counts");
	cr_assert_not(ltd_acks_cover(&a, &abi2));
	cr_assert_not(ltd_acks_cover(&a, &cg));
	cr_assert(ltd_acks_cover(&a, &same));
	cr_assert_not(ltd_acks_cover(NULL, &same), "no file, no cover");
}

Test(standing, damaged_lines_acknowledge_nothing)
{
	char text[600];
	struct ltd_acks a;
	struct ltd_standing s = standing("landlock", "abi 3");

	snprintf(text, sizeof(text),
		 "# landlock abi 3\n"
		 "landlock\n"
		 " abi 3\n"
		 "landlockandmorethansixteen abi 3\n"
		 "landlock \n"
		 "landlock %0200d\n",
		 0);
	ltd_acks_parse(text, strlen(text), &a);
	cr_assert_eq(a.n, 0);
	cr_assert_not(ltd_acks_cover(&a, &s));
}

Test(standing, at_most_its_size)
{
	char text[LTD_ACKS_MAX * 32 + 64] = "";

	for (int i = 0; i < LTD_ACKS_MAX + 3; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text),
			 "k%d f\n", i);
	{
		struct ltd_acks a;

		ltd_acks_parse(text, strlen(text), &a);
		cr_assert_eq(a.n, LTD_ACKS_MAX);
	}
}

/* Why there is no cgroup, not where: a terminal's systemd scope is
 * another one at each login, and the acknowledgement must outlive it. */
Test(standing, cgroup_facts_leave_the_path_out)
{
	struct ltd_cg_facts f = {.v2 = true, .writable = false};
	char a[LTD_STANDING_FACT], b[LTD_STANDING_FACT];

	snprintf(f.dir, sizeof(f.dir), "/sys/fs/cgroup/user.slice/session-2");
	ltd_standing_cgroup_facts(&f, a, sizeof(a));
	snprintf(f.dir, sizeof(f.dir), "/sys/fs/cgroup/user.slice/session-7");
	ltd_standing_cgroup_facts(&f, b, sizeof(b));
	cr_assert_str_eq(a, b);
	cr_assert_str_eq(a, "not-delegated nproc-per-user");
	f.nproc_per_userns = true;
	ltd_standing_cgroup_facts(&f, a, sizeof(a));
	cr_assert_str_eq(a, "not-delegated nproc-per-userns");
	f.v2 = false;
	ltd_standing_cgroup_facts(&f, a, sizeof(a));
	cr_assert_str_eq(a, "no-v2 nproc-per-userns");
	f = (struct ltd_cg_facts){
		.v2 = true, .writable = true, .available = LTD_CTL_PIDS};
	ltd_standing_cgroup_facts(&f, a, sizeof(a));
	cr_assert_str_eq(a, "lacks-memory-cpu nproc-per-user");
	f.available = LTD_CTL_ALL;
	ltd_standing_cgroup_facts(&f, a, sizeof(a));
	cr_assert_str_eq(a, "shared nproc-per-user");
}
