// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The user's JSON configs, read and filtered for the cage (jansson): a
 * file of the user's is read without following a link, and what names a
 * credential is taken out of the copy, by name.
 */
#include "agents/adapters.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"

#define JSON_MAX (16u << 20)

json_t *ltd_json_read(const char *path, bool *bad)
{
	_cleanup_close_ int fd =
		open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	_cleanup_free_ char *buf = NULL;
	size_t len = 0;
	struct stat st;
	json_t *j;

	*bad = false;
	if (fd < 0) {
		*bad = errno != ENOENT && errno != ENOTDIR;
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (size_t)st.st_size > JSON_MAX ||
	    !(buf = malloc((size_t)st.st_size + 1))) {
		*bad = true;
		return NULL;
	}
	while (len < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + len, (size_t)st.st_size - len);

		if (n <= 0)
			break;
		len += (size_t)n;
	}
	j = json_loadb(buf, len, JSON_REJECT_DUPLICATES, NULL);
	if (!json_is_object(j)) {
		json_decref(j);
		*bad = true;
		return NULL;
	}
	return j;
}

int ltd_json_file(struct ltd_agent_ctx *c, const char *dst, json_t *j,
		  mode_t mode, struct ltd_err *err)
{
	_cleanup_free_ char *text =
		json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	_cleanup_free_ char *nl = NULL;

	if (!text || asprintf(&nl, "%s\n", text) < 0) {
		nl = NULL;
		return ltd_err_set(err, ENOMEM, "out of memory");
	}
	return ltd_policy_add_file(c->p, dst, nl, strlen(nl), mode, c->why,
				   err);
}

bool ltd_secret_name(const char *name)
{
	static const char *const words[] = {"key",    "token",	    "secret",
					    "passw",  "credential", "oauth",
					    "cookie", "bearer"};

	for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++)
		for (const char *s = name; *s; s++)
			if (!strncasecmp(s, words[i], strlen(words[i])))
				return true;
	return false;
}

void ltd_names_add(char *removed, size_t size, const char *prefix,
		   const char *name)
{
	size_t n = strlen(removed);

	snprintf(removed + n, size - n, "%s%s%s", n ? ", " : "", prefix, name);
}

void ltd_json_scrub(json_t *o, const char *prefix, char *removed, size_t size)
{
	const char *k;
	json_t *v;
	void *tmp;

	if (!json_is_object(o))
		return;
	json_object_foreach_safe(o, tmp, k, v)
	{
		if (!ltd_secret_name(k))
			continue;
		ltd_names_add(removed, size, prefix, k);
		json_object_del(o, k);
	}
}
