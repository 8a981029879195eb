// SPDX-License-Identifier: GPL-2.0-or-later
#include "runtime/standing.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/path.h"
#include "common/text.h"
#include "policy/policy.h"
#include "runtime/hostuser.h"

#define ACKS_FILE_MAX 4096

void ltd_standing_set(struct ltd_standing *s, const char *key,
		      const char *facts, const char *text)
{
	snprintf(s->key, sizeof(s->key), "%s", key);
	snprintf(s->facts, sizeof(s->facts), "%s", facts);
	snprintf(s->text, sizeof(s->text), "%s", text);
}

void ltd_acks_parse(const char *text, size_t len, struct ltd_acks *a)
{
	const char *end = text + len;

	a->n = 0;
	while (text < end && a->n < LTD_ACKS_MAX) {
		const char *nl = memchr(text, '\n', (size_t)(end - text));
		const char *eol = nl ? nl : end;
		const char *sp = memchr(text, ' ', (size_t)(eol - text));
		size_t kl = sp ? (size_t)(sp - text) : 0;
		size_t fl = sp ? (size_t)(eol - sp - 1) : 0;

		if (text[0] != '#' && sp && kl && kl < LTD_STANDING_KEY && fl &&
		    fl < LTD_STANDING_FACT) {
			memcpy(a->v[a->n].key, text, kl);
			a->v[a->n].key[kl] = '\0';
			memcpy(a->v[a->n].facts, sp + 1, fl);
			a->v[a->n].facts[fl] = '\0';
			a->n++;
		}
		text = eol + (nl != NULL);
	}
}

bool ltd_acks_cover(const struct ltd_acks *a, const struct ltd_standing *s)
{
	for (size_t i = 0; a && i < a->n; i++)
		if (strcmp(a->v[i].key, s->key) == 0 &&
		    strcmp(a->v[i].facts, s->facts) == 0)
			return true;
	return false;
}

char *ltd_acks_text(const struct ltd_standing *s, size_t n)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	fputs("# Written by 'ltd-native doctor --acknowledge': runs do not "
	      "repeat these\n# warnings while the host's facts stay as "
	      "below.  Delete this file to hear\n# them again.\n",
	      f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s %s\n", s[i].key, s[i].facts);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

void ltd_standing_cgroup_facts(const struct ltd_cg_facts *f, char *buf,
			       size_t size)
{
	const char *why = "shared";
	char lacks[48] = "lacks";

	if (!f->v2) {
		why = "no-v2";
	} else if (!f->writable) {
		why = "not-delegated";
	} else if ((f->available & LTD_CTL_ALL) != LTD_CTL_ALL) {
		if (!(f->available & LTD_CTL_MEMORY))
			strcat(lacks, "-memory");
		if (!(f->available & LTD_CTL_CPU))
			strcat(lacks, "-cpu");
		if (!(f->available & LTD_CTL_PIDS))
			strcat(lacks, "-pids");
		why = lacks;
	}
	snprintf(buf, size, "%s %s", why,
		 f->nproc_per_userns ? "nproc-per-userns" : "nproc-per-user");
}

int ltd_acks_path(char *buf, size_t size, struct ltd_err *err)
{
	const struct ltd_host_user *u = ltd_host_user();

	if (!u || !u->home || u->home[0] != '/' || strcmp(u->home, "/") == 0)
		return ltd_err_set(err, ENOENT, "no home directory");
	return ltd_path_fmt(buf, size, "%s" LTD_ACK_FILE, u->home) < 0
		       ? ltd_err_set(err, ENAMETOOLONG, "home path too long")
		       : 0;
}

int ltd_acks_load(struct ltd_acks *a, struct ltd_err *err)
{
	char path[PATH_MAX], text[ACKS_FILE_MAX];
	_cleanup_close_ int fd = -1;
	struct stat st;
	ssize_t n;
	int ret;

	a->n = 0;
	ret = ltd_acks_path(path, sizeof(path), err);
	if (ret < 0)
		return ret == -ENOENT ? 0 : ret;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0)
		return ltd_err_sys(err, "'%s'", path);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != getuid())
		return ltd_err_set(err, EPERM,
				   "'%s' is not a regular file of yours", path);
	n = read(fd, text, sizeof(text));
	if (n < 0)
		return ltd_err_sys(err, "'%s'", path);
	ltd_acks_parse(text, (size_t)n, a);
	return 0;
}

/* @path's directory and its parent (~/.config), made 0700 where missing. */
static int make_parents(const char *path, struct ltd_err *err)
{
	for (int up = 2; up > 0; up--) {
		char d[PATH_MAX], *slash = NULL;

		snprintf(d, sizeof(d), "%s", path);
		for (int i = 0; i < up; i++) {
			slash = strrchr(d, '/');
			if (!slash || slash == d)
				return 0;
			*slash = '\0';
		}
		if (mkdir(d, 0700) < 0 && errno != EEXIST)
			return ltd_err_sys(err, "create '%s'", d);
	}
	return 0;
}

int ltd_acks_store(const struct ltd_standing *s, size_t n, struct ltd_err *err)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	_cleanup_free_ char *text = ltd_acks_text(s, n);
	_cleanup_close_ int fd = -1;
	size_t len = text ? strlen(text) : 0;
	int ret = text ? ltd_acks_path(path, sizeof(path), err)
		       : ltd_err_set(err, ENOMEM, "out of memory");

	if (!ret)
		ret = make_parents(path, err);
	if (ret < 0)
		return ret;
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0)
		return ltd_err_sys(err, "create '%s'", tmp);
	if (write(fd, text, len) != (ssize_t)len || fsync(fd) < 0)
		return ltd_err_sys(err, "write '%s'", tmp);
	if (rename(tmp, path) < 0)
		return ltd_err_sys(err, "rename to '%s'", path);
	return 0;
}

void ltd_standing_say(const struct ltd_acks *a, const struct ltd_standing *s)
{
	if (!ltd_acks_cover(a, s))
		ltd_warn(s->text);
}
