// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The impure half of the mount plan: look at the host before building it,
 * and check the built plan against the host before any namespace exists.
 */
#include "runtime/mountplan.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/cleanup.h"

/* Read a small regular file of @size bytes (lstat's) whole; on any
 * failure, or if it grew past the copy limit since, leave *data NULL (it
 * is then bound instead of copied).  A read shorter than asked is its end
 * (a regular file, no link followed).  The buffer is the file's size, not
 * the limit's: 8 KiB for each of a dozen files of a few hundred bytes
 * spread the heap over pages that each cost a fault. */
static void read_small(const char *path, off_t size, char **data, size_t *len)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	/* One byte more than lstat said: a file that grew since is seen to
	 * have, and read again up to the limit. */
	size_t cap = (size_t)size + 1, n = 0;
	char *buf = fd < 0 ? NULL : malloc(cap + 1);
	ssize_t r = 0;

	*data = NULL;
	if (!buf)
		return;
	while ((r = read(fd, buf + n, cap - n)) > 0) {
		char *more;

		n += (size_t)r;
		if (n < cap)
			continue;
		if (cap > LTD_HOSTFS_COPY_MAX)
			break;
		cap = LTD_HOSTFS_COPY_MAX + 1;
		more = realloc(buf, cap + 1);
		if (!more) {
			r = -1;
			break;
		}
		buf = more;
	}
	if (r < 0 || n > LTD_HOSTFS_COPY_MAX) {
		free(buf);
		return;
	}
	*data = buf;
	*len = n;
}

void ltd_hostfs_free(struct ltd_hostfs *h)
{
	for (size_t i = 0; i < h->n_etc; i++) {
		free(h->etc_data[i]);
		h->etc_data[i] = NULL;
	}
}

int ltd_hostfs_probe(struct ltd_hostfs *h, struct ltd_err *err)
{
	static const char *const top[] = {"bin",   "sbin",  "lib",
					  "lib32", "lib64", "libx32"};
	/* What programs read at run time; every mount costs start-up time,
	 * so nothing only installers or PAM read. */
	static const char *const etc[] = {
		"ld.so.cache",	    "ssl",
		"alternatives",	    "localtime",
		"nsswitch.conf",    "gai.conf",
		"protocols",	    "services",
		"os-release",	    "bash.bashrc",
		"profile",	    "inputrc",
		"gitconfig",	    "ssh/ssh_config",
		"ssh/ssh_config.d", "java-17-openjdk",
	};
	char path[64];
	struct stat st;
	ssize_t n;
	int fd;

	*h = (struct ltd_hostfs){0};
	for (size_t i = 0; i < sizeof(top) / sizeof(top[0]); i++) {
		snprintf(path, sizeof(path), "/%s", top[i]);
		if (lstat(path, &st) < 0)
			continue;
		if (S_ISLNK(st.st_mode)) {
			n = readlink(path, h->top[h->n_top].target,
				     sizeof(h->top[0].target) - 1);
			if (n <= 0)
				continue;
			h->top[h->n_top].target[n] = '\0';
		} else if (!S_ISDIR(st.st_mode)) {
			continue;
		}
		snprintf(h->top[h->n_top].name, sizeof(h->top[0].name), "%s",
			 top[i]);
		h->n_top++;
	}
	for (size_t i = 0; i < sizeof(etc) / sizeof(etc[0]); i++) {
		char *link = h->etc_link[h->n_etc];

		n = 0;
		snprintf(path, sizeof(path), "/etc/%s", etc[i]);
		if (h->n_etc >= LTD_HOSTFS_MAX || lstat(path, &st) < 0)
			continue;
		/* A dangling link is as good as missing (one stat more, for
		 * links only). */
		if (S_ISLNK(st.st_mode)) {
			struct stat target;

			if (stat(path, &target) < 0)
				continue;
			n = readlink(path, link, sizeof(h->etc_link[0]) - 1);
		}
		link[n > 0 ? n : 0] = '\0';
		if (!link[0] && S_ISREG(st.st_mode) &&
		    st.st_size <= LTD_HOSTFS_COPY_MAX)
			read_small(path, st.st_size, &h->etc_data[h->n_etc],
				   &h->etc_len[h->n_etc]);
		snprintf(h->etc[h->n_etc++], sizeof(h->etc[0]), "%s", etc[i]);
	}
	/* Only --network host uses it; reading it costs nothing. */
	fd = open("/etc/resolv.conf", O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	n = fd < 0 ? 0 : read(fd, h->resolv_conf, sizeof(h->resolv_conf) - 1);
	h->resolv_conf[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
	(void)err;
	return 0;
}

int ltd_plan_check_host(const struct ltd_plan *plan, struct ltd_err *err)
{
	struct stat st;

	for (size_t i = 0; i < plan->n; i++) {
		const struct ltd_plan_entry *e = &plan->e[i];
		const struct ltd_plan_entry *c;
		char host[8192];

		if ((e->op == LTD_OP_BIND_RO || e->op == LTD_OP_BIND_RW ||
		     e->op == LTD_OP_DEV || e->op == LTD_OP_OVERLAY) &&
		    !(e->flags & LTD_PF_OPTIONAL) && stat(e->src, &st) < 0)
			return ltd_err_sys(err, "%s: source '%s'", e->why,
					   e->src);
		if (e->cover < 0 || (e->flags & LTD_PF_CREATE) ||
		    (e->flags & LTD_PF_OPTIONAL))
			continue;
		c = &plan->e[e->cover];
		/* An overlay's mount points are the project's (its lower
		 * layer, src): the same rule. */
		if (c->op != LTD_OP_BIND_RO && c->op != LTD_OP_BIND_RW &&
		    c->op != LTD_OP_OVERLAY)
			continue;
		/* The mount point would be inside a host directory. */
		snprintf(host, sizeof(host), "%s%s", c->src,
			 e->dst + (strcmp(c->dst, "/") ? strlen(c->dst) : 0));
		if (lstat(host, &st) < 0)
			return ltd_err_set(
				err, ENOENT,
				"%s: destination '%s' does not exist inside "
				"'%s', which is bound from the host; "
				"ltd-native will not create it there",
				e->why, e->dst, c->dst);
	}
	return 0;
}
