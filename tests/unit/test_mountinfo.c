// SPDX-License-Identifier: GPL-2.0-or-later
/* The mount table (common/mountinfo.c): parsed, and the names a bind
 * mount hides, through the other mounts of its filesystem. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/mountinfo.h"

/* A host where ~u/proj is a bind mount of /srv/ws/proj (fs 8:1), /srv is
 * also bound at /mnt/s, /srv/ws/other has a tmpfs over it, and /data is
 * another filesystem (8:2) holding a bind of its own. */
static const char table[] =
	"20 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw\n"
	"21 20 0:20 / /proc rw - proc proc rw\n"
	"30 20 8:1 /srv/ws/proj /home/u/proj rw - ext4 /dev/sda1 rw\n"
	"31 20 8:1 /srv /mnt/s rw - ext4 /dev/sda1 rw\n"
	"32 20 8:2 / /data rw - ext4 /dev/sda2 rw\n"
	"33 30 8:2 /x/y /home/u/proj/sub rw - ext4 /dev/sda2 rw\n"
	"34 20 0:40 / /srv/ws/other rw - tmpfs tmpfs rw\n"
	"35 20 8:1 /w\\040s /home/u/sp\\040ace rw - ext4 /dev/sda1 rw\n"
	"36 20 0:4 net:[4026531833] /run/netns/x rw - nsfs nsfs rw\n";

struct seen {
	char names[16][128];
	int on[16];
	size_t n;
};

static int collect(const char *alias, int on, void *ctx)
{
	struct seen *s = ctx;

	cr_assert_lt(s->n, 16);
	snprintf(s->names[s->n], sizeof(s->names[0]), "%s", alias);
	s->on[s->n++] = on;
	return 0;
}

static bool has(const struct seen *s, const char *name, int on)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->names[i], name) && s->on[i] == on)
			return true;
	return false;
}

Test(mountinfo, parses_fields_and_escapes)
{
	struct ltd_mountinfo mi;
	const struct ltd_mount_ent *e;

	cr_assert_eq(ltd_mountinfo_parse(table, &mi), 0);
	cr_assert_eq(mi.n, 9);
	e = ltd_mountinfo_find(&mi, 30);
	cr_assert_not_null(e);
	cr_assert_eq(e->parent, 20);
	cr_assert_eq(e->major, 8);
	cr_assert_eq(e->minor, 1);
	cr_assert_str_eq(e->root, "/srv/ws/proj");
	cr_assert_str_eq(e->mnt, "/home/u/proj");
	e = ltd_mountinfo_find(&mi, 35);
	cr_assert_str_eq(e->root, "/w s");
	cr_assert_str_eq(e->mnt, "/home/u/sp ace");
	cr_assert_null(ltd_mountinfo_find(&mi, 99));
	ltd_mountinfo_free(&mi);
}

Test(mountinfo, refuses_a_broken_line)
{
	struct ltd_mountinfo mi;

	cr_assert_eq(ltd_mountinfo_parse("20 1 8:1 / / rw\n21 x\n", &mi),
		     -EINVAL);
	cr_assert_eq(mi.n, 0);
	cr_assert_eq(ltd_mountinfo_parse("20 1 8:1 / rel rw\n", &mi), -EINVAL);
	cr_assert_eq(ltd_mountinfo_parse("", &mi), 0);
	cr_assert_eq(mi.n, 0);
}

Test(mountinfo, names_what_a_bind_mount_hides)
{
	struct ltd_mountinfo mi;
	struct seen s = {0};

	cr_assert_eq(ltd_mountinfo_parse(table, &mi), 0);
	cr_assert_eq(ltd_mountinfo_aliases_above(&mi, 30, collect, &s), 0);
	/* fs:/srv/ws and fs:/srv through / and through /mnt/s; fs:/ at /. */
	cr_assert(has(&s, "/srv/ws", 20));
	cr_assert(has(&s, "/srv", 20));
	cr_assert(has(&s, "/", 20));
	cr_assert(has(&s, "/mnt/s/ws", 31));
	cr_assert(has(&s, "/mnt/s", 31));
	/* Not through another filesystem, nor the mount itself. */
	for (size_t i = 0; i < s.n; i++)
		cr_assert(s.on[i] == 20 || s.on[i] == 31, "%s on %d",
			  s.names[i], s.on[i]);
	cr_assert_eq(s.n, 5);
	ltd_mountinfo_free(&mi);
}

Test(mountinfo, follows_the_mounts_crossed_going_up)
{
	struct ltd_mountinfo mi;
	struct seen s = {0};

	cr_assert_eq(ltd_mountinfo_parse(table, &mi), 0);
	/* ~u/proj/sub shows fs2:/x/y: fs2:/x at /data/x; then its parent
	 * mount, ~u/proj, as above. */
	cr_assert_eq(ltd_mountinfo_aliases_above(&mi, 33, collect, &s), 0);
	cr_assert(has(&s, "/data/x", 32));
	cr_assert(has(&s, "/data", 32));
	cr_assert(has(&s, "/srv/ws", 20));
	cr_assert(has(&s, "/mnt/s/ws", 31));
	ltd_mountinfo_free(&mi);
}

Test(mountinfo, nothing_above_a_whole_filesystem)
{
	struct ltd_mountinfo mi;
	struct seen s = {0};

	cr_assert_eq(ltd_mountinfo_parse(table, &mi), 0);
	cr_assert_eq(ltd_mountinfo_aliases_above(&mi, 32, collect, &s), 0);
	cr_assert_eq(s.n, 0);
	cr_assert_eq(ltd_mountinfo_aliases_above(&mi, 99, collect, &s), 0);
	cr_assert_eq(s.n, 0);
	ltd_mountinfo_free(&mi);
}

static int stop(const char *alias, int on, void *ctx)
{
	(*(int *)ctx)++;
	return 7;
}

Test(mountinfo, stops_when_told)
{
	struct ltd_mountinfo mi;
	int calls = 0;

	cr_assert_eq(ltd_mountinfo_parse(table, &mi), 0);
	cr_assert_eq(ltd_mountinfo_aliases_above(&mi, 30, stop, &calls), 7);
	cr_assert_eq(calls, 1);
	ltd_mountinfo_free(&mi);
}

Test(mountinfo, a_parent_loop_ends)
{
	struct ltd_mountinfo mi;
	struct seen s = {0};

	cr_assert_eq(ltd_mountinfo_parse("1 2 8:1 /a/b /x rw\n"
					 "2 1 8:1 /a /y rw\n",
					 &mi),
		     0);
	cr_assert_eq(ltd_mountinfo_aliases_above(&mi, 1, collect, &s), 0);
	cr_assert(has(&s, "/y", 2));
	ltd_mountinfo_free(&mi);
}

/* A namespace file bound somewhere (ip netns add, docker, snapd) shows a
 * root that is no path: the table is kept (the attacker's review: it was
 * refused whole, and the refusal of aliased binds with it), and that
 * mount names nothing. */
Test(mountinfo, a_namespace_file_mount_is_no_path)
{
	struct ltd_mountinfo mi;
	struct seen s = {0};

	cr_assert_eq(ltd_mountinfo_parse(table, &mi), 0);
	cr_assert_str_eq(ltd_mountinfo_find(&mi, 36)->root, "net:[4026531833]");
	cr_assert_eq(ltd_mountinfo_aliases_above(&mi, 30, collect, &s), 0);
	cr_assert_eq(s.n, 5);
	cr_assert_eq(ltd_mountinfo_aliases_above(&mi, 36, collect, &s), 0);
	cr_assert_eq(s.n, 5);
	ltd_mountinfo_free(&mi);
	cr_assert_eq(
		ltd_mountinfo_parse("1 0 0:4 mnt:[4026531841] /run/snapd/ns/"
				    "x.mnt rw - nsfs nsfs rw\n"
				    "20 1 8:1 / / rw - ext4 /dev/sda1 rw\n",
				    &mi),
		0);
	cr_assert_eq(mi.n, 2);
	ltd_mountinfo_free(&mi);
}
