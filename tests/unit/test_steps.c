// SPDX-License-Identifier: GPL-2.0-or-later
/* The setup order is a table; the orderings that security rests on. */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "runtime/cage.h"
#include "runtime/launch.h"

static int index_of(const struct ltd_step *steps, const char *name)
{
	for (int i = 0; steps[i].name; i++)
		if (strcmp(steps[i].name, name) == 0)
			return i;
	cr_assert_fail("no step '%s'", name);
	return -1;
}

static int count(const struct ltd_step *steps)
{
	int n = 0;

	while (steps[n].name)
		n++;
	return n;
}

Test(steps, init_order)
{
	const struct ltd_step *s = ltd_init_steps;

	cr_assert_eq(index_of(s, "die-with-launcher"), 0,
		     "tie the cage to the launcher before anything else");
	cr_assert_lt(index_of(s, "id-maps"), index_of(s, "non-dumpable"),
		     "maps are written while /proc/self is writable");
	cr_assert_lt(index_of(s, "close-fds"), index_of(s, "mount-plan"));
	cr_assert_lt(index_of(s, "outputs"), index_of(s, "close-fds"),
		     "the relay's pipes move to 1 and 2 before the others "
		     "close");
	cr_assert_lt(index_of(s, "mount-private"), index_of(s, "open-sources"));
	cr_assert_lt(index_of(s, "open-sources"), index_of(s, "root-tmpfs"),
		     "host sources are cloned before the root is attached");
	cr_assert_lt(index_of(s, "mount-plan"), index_of(s, "pivot-root"));
	cr_assert_lt(index_of(s, "loopback"), index_of(s, "firewall"));
	cr_assert_lt(index_of(s, "close-fds"), index_of(s, "dns-sockets"),
		     "the sockets for the launcher are opened after the purge");
	cr_assert_lt(index_of(s, "loopback"), index_of(s, "dns-sockets"),
		     "the resolver binds on the cage's loopback");
	cr_assert_lt(index_of(s, "firewall"), index_of(s, "dns-sockets"),
		     "no query is served before the firewall exists");
	cr_assert_gt(index_of(s, "rlimits"), 0,
		     "in the cage's user namespace, which counts RLIMIT_NPROC "
		     "for the cage alone");
	cr_assert_lt(index_of(s, "non-dumpable"), index_of(s, "network-start"),
		     "the network helper is a non-dumpable copy of init");
	cr_assert_lt(index_of(s, "new-session"), index_of(s, "network-start"),
		     "setsid beside a running fork of init stalls (~0.3 ms)");
	cr_assert_lt(index_of(s, "network-start"), index_of(s, "mount-plan"),
		     "the namespace is made while the mounts are");
	cr_assert_lt(index_of(s, "network-join"), index_of(s, "handover"),
		     "the namespaces handed to exec are the cage's own");
	cr_assert_eq(index_of(s, "pivot-root"), count(s) - 2);
	cr_assert_eq(index_of(s, "handover"), count(s) - 1,
		     "the root handed to exec and the pty are the cage's "
		     "own: after pivot_root");
}

Test(steps, command_order)
{
	const struct ltd_step *s = ltd_command_steps;

	cr_assert_lt(index_of(s, "close-fds"), index_of(s, "drop-caps"));
	cr_assert_lt(index_of(s, "drop-caps"), index_of(s, "no-new-privs"));
	cr_assert_eq(index_of(s, "terminal"), index_of(s, "new-session") + 1,
		     "TIOCSCTTY needs a session leader without a terminal");
	cr_assert_lt(index_of(s, "terminal"), index_of(s, "close-fds"),
		     "the pty's fd moves to 0-2 before the others close");
	cr_assert_eq(index_of(s, "seccomp"), count(s) - 1,
		     "seccomp is the last step before execve");
}

Test(steps, every_step_says_why)
{
	for (const struct ltd_step *s = ltd_init_steps; s->name; s++)
		cr_assert(s->why && s->why[0] && s->run, "%s", s->name);
	for (const struct ltd_step *s = ltd_launch_steps; s->name; s++)
		cr_assert(s->why && *s->why && s->run, "%s", s->name);
	for (const struct ltd_step *s = ltd_command_steps; s->name; s++)
		cr_assert(s->why && s->why[0] && s->run, "%s", s->name);
}

Test(steps, launch_order)
{
	const struct ltd_step *s = ltd_launch_steps;

	cr_assert_eq(index_of(s, "limits"), 0,
		     "an unenforceable limit stops the run before anything is "
		     "made on the host");
	cr_assert_eq(index_of(s, "state"), 1,
		     "the persistent state is the first (and only) thing made "
		     "on the host");
	cr_assert_lt(index_of(s, "state"), index_of(s, "mount-plan"),
		     "the plan checks that every bind's source exists");
	cr_assert_lt(index_of(s, "mount-plan"), index_of(s, "landlock"),
		     "Landlock's rules come from the plan");
	cr_assert_lt(index_of(s, "review"), index_of(s, "network"),
		     "pasta starts once the run's host side stands (a review "
		     "that cannot be locked stops the run first)");
	cr_assert_lt(index_of(s, "network"), index_of(s, "mount-plan"),
		     "pasta's start-up, the run's longest, begins before the "
		     "launcher's longer steps (decision 0150)");
	cr_assert_lt(index_of(s, "dns"), index_of(s, "dns-helper"));
	cr_assert_lt(index_of(s, "say"), index_of(s, "clone"),
		     "waived risks are said before anything runs");
	cr_assert_lt(index_of(s, "cgroup"), index_of(s, "clone"),
		     "init is cloned into the cage's cgroup");
	cr_assert_lt(index_of(s, "dns-helper"), index_of(s, "clone"),
		     "a missing DNS helper stops the run before the cage");
	cr_assert_lt(index_of(s, "register"), index_of(s, "clone"),
		     "a taken name stops the run before the cage");
	cr_assert_lt(index_of(s, "channel"), index_of(s, "clone"),
		     "signals are blocked before init inherits the mask");
	cr_assert_lt(index_of(s, "snapshot"), index_of(s, "clone"),
		     "the post-run checks compare with the paths before "
		     "anything of the cage ran");
	cr_assert_lt(index_of(s, "network"), index_of(s, "clone"),
		     "init is cloned into the namespaces pasta serves");
	cr_assert_eq(index_of(s, "clone"), count(s) - 1);
}
