// SPDX-License-Identifier: GPL-2.0-or-later
#include "runtime/hostuser.h"

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "review/fs.h"

/* A larger file (thousands of users) is left to NSS. */
#define DB_MAX (256 * 1024)

/* The whitespace-separated word at *@p (moved past it); NULL at the end of
 * the line or a comment. */
static const char *word(const char **p, size_t *len)
{
	const char *s = *p + strspn(*p, " \t");

	if (!*s || *s == '\n' || *s == '#')
		return NULL;
	*len = strcspn(s, " \t\n#");
	*p = s + *len;
	return s;
}

/* @line names database @db ("passwd:", "passwd :"): *@rest after the
 * colon. */
static bool db_line(const char *line, const char *db, const char **rest)
{
	const char *p = line + strspn(line, " \t");
	size_t n = strlen(db);

	if (strncasecmp(p, db, n) != 0)
		return false;
	p += n;
	p += strspn(p, " \t");
	if (*p != ':')
		return false;
	*rest = p + 1;
	return true;
}

bool ltd_nss_files_first(const char *conf, const char *db)
{
	int lines = 0;
	bool first = false;

	for (const char *line = conf; line && *line;) {
		const char *next = strchr(line, '\n');
		const char *p, *svc, *then;
		size_t len, tlen;

		if (db_line(line, db, &p)) {
			lines++;
			svc = word(&p, &len);
			first = svc && len == 5 &&
				strncmp(svc, "files", 5) == 0;
			/* An action after it ([SUCCESS=continue]) would change
			 * what its answer means. */
			then = first ? word(&p, &tlen) : NULL;
			if (then && *then == '[')
				first = false;
		}
		line = next ? next + 1 : NULL;
	}
	return lines == 1 && first;
}

/* 1 to 10 digits and nothing else. */
static bool all_digits(const char *s)
{
	size_t digits = strspn(s, "0123456789");

	return digits > 0 && digits <= 10 && !s[digits];
}

int ltd_dbfile_find(char *text, unsigned long id, char **f, size_t n)
{
	for (char *line = text; line && *line;) {
		char *next = strchr(line, '\n'), *p;
		size_t i = 0;
		unsigned long v;

		if (next)
			*next++ = '\0';
		line += strspn(line, " \t");
		if (!*line || *line == '#') {
			line = next;
			continue;
		}
		for (p = line; i < n; i++) {
			f[i] = p;
			p = strchr(p, ':');
			if (!p)
				break;
			if (i + 1 < n)
				*p++ = '\0';
		}
		/* Exactly @n fields, the ids all digits (the third, and a
		 * passwd line's fourth, its gid): else NSS reads the line
		 * (stricter than glibc, never different). */
		if (i + 1 != n || p || !all_digits(f[2]) ||
		    (n == 7 && !all_digits(f[3])))
			return -1;
		/* NIS's "+name" and "-name" lines, which glibc's files
		 * module passes over: NSS answers. */
		if (f[0][0] == '+' || f[0][0] == '-')
			return -1;
		v = strtoul(f[2], NULL, 10);
		if (v > 0xffffffffUL)
			return -1;
		if (v == id)
			return 1;
		line = next;
	}
	return 0;
}

static char *read_db(const char *path)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	char *buf = NULL;
	size_t len;

	if (fd < 0 || ltd_read_fd(fd, DB_MAX, &buf, &len) < 0)
		return NULL;
	buf[len] = '\0';
	if (strlen(buf) != len) { /* a NUL inside: not a text file */
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * Each of /etc/passwd and /etc/group read directly when nsswitch.conf makes
 * "files" its database's first source (decided for each separately): what
 * getpwuid() and getgrgid() would answer, without NSS's set-up (~0.4 ms a
 * start on this VM, issue 17; docs/decisions/0153-host-user-from-files-
 * without-nss.md).  Anything else (another first source, an entry not
 * found, a line this stricter reader does not accept) leaves the field to
 * NSS.
 */
static void from_files(struct ltd_host_user *u, bool *pw_done, bool *gr_done)
{
	_cleanup_free_ char *conf = read_db("/etc/nsswitch.conf");
	_cleanup_free_ char *pw = NULL, *gr = NULL;
	char *f[7];

	if (!conf)
		return;
	if (ltd_nss_files_first(conf, "passwd") &&
	    (pw = read_db("/etc/passwd")) &&
	    ltd_dbfile_find(pw, u->uid, f, 7) == 1) {
		u->name = strdup(f[0]);
		u->home = strdup(f[5]);
		u->shell = strdup(f[6]);
		*pw_done = true;
	}
	if (ltd_nss_files_first(conf, "group") &&
	    (gr = read_db("/etc/group")) &&
	    ltd_dbfile_find(gr, u->gid, f, 4) == 1) {
		u->group = strdup(f[0]);
		*gr_done = true;
	}
}

const struct ltd_host_user *ltd_host_user(void)
{
	static struct ltd_host_user u;
	static bool done;
	bool pw_done = false, gr_done = false;
	struct passwd *pw;
	struct group *gr;

	if (done)
		return &u;
	u = (struct ltd_host_user){.uid = getuid(), .gid = getgid()};
	from_files(&u, &pw_done, &gr_done);
	if (!pw_done && (pw = getpwuid(u.uid))) {
		u.name = strdup(pw->pw_name);
		u.home = strdup(pw->pw_dir);
		u.shell = strdup(pw->pw_shell);
	}
	u.shell_runs = u.shell && access(u.shell, X_OK) == 0;
	if (!gr_done && (gr = getgrgid(u.gid)))
		u.group = strdup(gr->gr_name);
	/* Out of memory: a field stays NULL, as for a user without one. */
	done = true;
	return &u;
}
