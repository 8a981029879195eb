// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The registry's claim of a name: one live entry per name, a stale one
 * replaced, and nothing in the directory but NAME.json at any moment, so
 * that a launcher killed mid-claim leaves nothing behind.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "common/error.h"
#include "runtime/registry.h"
#include "tests/common/fixture.h"

static char dir[PATH_MAX];
static int dfd = -1;

static void setup(void)
{
	fx_tmpdir(dir, sizeof(dir), "registry");
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cr_assert_geq(dfd, 0);
}

static void teardown(void)
{
	close(dfd);
	fx_rm_rf(dir);
}

TestSuite(registry, .init = setup, .fini = teardown);

/* The names in the directory, one per line, in readdir's order. */
static void names_in(char *buf, size_t size)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t len = 0;

	cr_assert_not_null(d);
	buf[0] = '\0';
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		len += (size_t)snprintf(buf + len, size - len, "%s\n",
					e->d_name);
		cr_assert_lt(len, size);
	}
	closedir(d);
}

/* Whether someone holds the lock on @name (as a live launcher does). */
static bool held(const char *name)
{
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
	bool busy;

	cr_assert_geq(fd, 0, "%s: %s", name, strerror(errno));
	busy = flock(fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK;
	close(fd);
	return busy;
}

Test(registry, claim_is_one_live_entry_and_a_stale_one_is_replaced)
{
	struct ltd_err err = {0};
	int fd = ltd_registry_claim(dfd, "web", &err), again;
	char names[256];

	cr_assert_geq(fd, 0, "%s", err.msg);
	names_in(names, sizeof(names));
	cr_expect_str_eq(names, "web.json\n");
	cr_expect(held("web.json"), "the claimed entry is not locked");
	again = ltd_registry_claim(dfd, "web", &err);
	cr_expect_eq(again, -EEXIST, "a second claim of a live name: %d",
		     again);
	cr_expect(strstr(err.msg, "already running"), "%s", err.msg);
	names_in(names, sizeof(names));
	cr_expect_str_eq(names, "web.json\n", "the refused claim left: %s",
			 names);
	/* Its launcher gone, the entry is stale: the next claim takes it. */
	close(fd);
	fd = ltd_registry_claim(dfd, "web", &err);
	cr_assert_geq(fd, 0, "%s", err.msg);
	cr_expect(held("web.json"), "the new claim's entry is not locked");
	close(fd);
	cr_expect(!held("web.json"), "the entry stays locked after close");
}

/* Every name a claim makes in the directory: a launcher can be killed
 * between any two of its system calls, and a name made for a moment is
 * a name left for good. */
Test(registry, claim_names_nothing_but_the_entry)
{
	struct ltd_err err = {0};
	char ev[4096]
		__attribute__((aligned(__alignof__(struct inotify_event))));
	int in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC), fd, made = 0;
	ssize_t n;

	cr_assert_geq(in, 0);
	cr_assert_geq(inotify_add_watch(in, dir, IN_CREATE | IN_MOVED_TO), 0);
	fd = ltd_registry_claim(dfd, "api", &err);
	cr_assert_geq(fd, 0, "%s", err.msg);
	while ((n = read(in, ev, sizeof(ev))) > 0) {
		for (char *p = ev; p < ev + n;) {
			struct inotify_event *e = (struct inotify_event *)p;

			cr_expect_str_eq(e->name, "api.json",
					 "the claim made '%s' in the registry",
					 e->name);
			made++;
			p += sizeof(*e) + e->len;
		}
	}
	cr_expect_eq(made, 1, "names made: %d", made);
	close(fd);
	close(in);
}
