// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `diff NAME [PATH...]`: what the review would change, as a unified diff
 * in git's shape (git apply takes it).  Headers are ltd-native's own,
 * names shown safely; the hunks come from diff(1) (diffutils), run on the
 * two files as opened here (/dev/fd/3 and 4: no path of the upper is
 * given to it, so none is followed); --stat counts the lines in process
 * where review/linecount.c can count them as diff does (decision 0163).
 * Binary files and links are named as such.  On a terminal, the content's
 * control characters are shown as '?' (the cage chose the bytes: an
 * escape sequence could hide a line), and coloured as git colours.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/text.h"
#include "review/fs.h"
#include "review/linecount.h"
#include "review/review.h"
#include "review/statfmt.h"

#define BINARY_PROBE 8000

#define C_META "\033[1m"
#define C_FRAG "\033[36m"
#define C_OLD  "\033[31m"
#define C_NEW  "\033[32m"
#define C_NOTE "\033[33m"
#define C_OFF  "\033[m"

struct diff {
	FILE *out;
	const struct ltd_diff_opts *o;
	struct ltd_review_view *v;
	struct ltd_statf *stats;
	size_t n_stats;
	char **paths;	   /* o->paths as the changes name them */
	const char *never; /* the reason of the never-landing run above */
};

static void color(struct diff *d, const char *c)
{
	if (d->o->color)
		fputs(c, d->out);
}

/*
 * A path as git writes one in a header, @pre ("a/", "b/" or "") before
 * it: C-quoted as a whole when it holds a '"', a '\\', a control or a
 * byte past ASCII (git's core.quotePath): the cage chooses the names, and
 * git apply takes an unquoted one with a '"' for the start of a second
 * name (the second attacker's review: a mode change under a crafted
 * name landed on another file through `diff NAME | git apply`).
 */
static void path_out(FILE *out, const char *pre, const char *path)
{
	static const char named[] = "\a\b\t\n\v\f\r", as[] = "abtnvfr";
	const unsigned char *s = (const unsigned char *)path;
	const char *e;

	while (*s && *s != '"' && *s != '\\' && *s >= 0x20 && *s < 0x7f)
		s++;
	if (!*s) {
		fprintf(out, "%s%s", pre, path);
		return;
	}
	fprintf(out, "\"%s", pre);
	for (s = (const unsigned char *)path; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if (*s < 0x20 && (e = strchr(named, *s)))
			fprintf(out, "\\%c", as[e - named]);
		else if (*s < 0x20 || *s >= 0x7f)
			fprintf(out, "\\%03o", *s);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

/* A header line: @a, the path @path (after @pa), @b, the path @path2
 * (after @pb); either path NULL for none. */
static void meta(struct diff *d, const char *a, const char *pa,
		 const char *path, const char *b, const char *pb,
		 const char *path2)
{
	color(d, C_META);
	fputs(a, d->out);
	if (path)
		path_out(d->out, pa, path);
	if (b)
		fputs(b, d->out);
	if (path2)
		path_out(d->out, pb, path2);
	color(d, C_OFF);
	fputc('\n', d->out);
}

/* The first bytes hold a NUL: git's test of a binary file. */
static bool binary(int fd)
{
	char buf[BINARY_PROBE];
	ssize_t n = pread(fd, buf, sizeof(buf), 0);

	return n > 0 && memchr(buf, '\0', (size_t)n) != NULL;
}

/* One line of diff's output, coloured and shown safely as asked. */
static void hunk_line(struct diff *d, const char *line, size_t len,
		      struct ltd_statf *s)
{
	const char *c = NULL;

	if (line[0] == '+')
		c = C_NEW, s->add++;
	else if (line[0] == '-')
		c = C_OLD, s->del++;
	else if (line[0] == '@')
		c = C_FRAG;
	if (d->o->stat)
		return;
	if (c)
		color(d, c);
	if (d->o->shown)
		ltd_fwrite_shown(d->out, line, len);
	else
		fwrite(line, 1, len, d->out);
	if (c)
		color(d, C_OFF);
}

/* diff -u of @old and @new (fds; -1: empty), its hunks through
 * hunk_line(). */
static int run_diff(struct diff *d, int old, int new_fd, struct ltd_statf *s)
{
	int pfd[2], status;
	pid_t pid;
	FILE *in;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned skip = 2; /* its own --- and +++ lines */

	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
		int a = fcntl(old >= 0 ? old : null, F_DUPFD_CLOEXEC, 20);
		int b = fcntl(new_fd >= 0 ? new_fd : null, F_DUPFD_CLOEXEC, 20);

		/* Copies above any of ours first: 0 and 3 then overwrite
		 * nothing still needed.  The upper's file is read from stdin:
		 * /dev/fd/N would be opened again, and one the cage made
		 * unreadable refused. */
		if (null < 0 || a < 0 || b < 0 || dup2(pfd[1], 1) < 0 ||
		    dup2(a, 3) < 0 || dup2(b, 0) < 0)
			_exit(2);
		execlp("diff", "diff", "-u", "--text", "--label", "a",
		       "--label", "b", "/dev/fd/3", "-", (char *)NULL);
		_exit(2);
	}
	close(pfd[1]);
	in = fdopen(pfd[0], "r");
	if (!in) {
		close(pfd[0]);
		waitpid(pid, NULL, 0);
		return -ENOMEM;
	}
	while ((n = getline(&line, &cap, in)) > 0) {
		if (skip && (line[0] == '-' || line[0] == '+')) {
			skip--;
			continue;
		}
		skip = 0;
		hunk_line(d, line, (size_t)n, s);
	}
	free(line);
	fclose(in);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) > 1)
		return -EIO;
	return 0;
}

/* --stat: @old's and @new_fd's counts (fds; -1: empty) without diff(1)
 * where review/linecount.c can say them exactly, as diff -u would: 0;
 * 1 when diff(1) must say (the fds back at their start); -errno. */
static int count_lines(int old, int new_fd, struct ltd_statf *s)
{
	_cleanup_free_ char *a = NULL, *b = NULL;
	size_t na = 0, nb = 0;
	struct ltd_linecount c;
	int ret = 0;

	if (old >= 0)
		ret = ltd_read_fd(old, LTD_LINECOUNT_MAX_BYTES, &a, &na);
	if (!ret && new_fd >= 0)
		ret = ltd_read_fd(new_fd, LTD_LINECOUNT_MAX_BYTES, &b, &nb);
	if (!ret)
		ret = ltd_linecount(a ? a : "", na, b ? b : "", nb, &c);
	if (!ret) {
		s->add += c.add;
		s->del += c.del;
		return 0;
	}
	if ((old >= 0 && lseek(old, 0, SEEK_SET) < 0) ||
	    (new_fd >= 0 && lseek(new_fd, 0, SEEK_SET) < 0))
		return -errno;
	return 1;
}

/* The project's regular file @path, or -1. */
static int project_file(struct diff *d, const char *path)
{
	int fd = ltd_beneath(d->v->project, path,
			     O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	struct stat st;

	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		return -1;
	}
	return fd;
}

static int upper_file(struct diff *d, const struct ltd_change *c)
{
	struct stat st = {.st_dev = c->dev,
			  .st_ino = c->ino,
			  .st_mode = c->mode,
			  .st_uid = geteuid()};
	const char *leaf;
	_cleanup_close_ int dir =
		ltd_beneath_parent(d->v->upper, c->path, &leaf);

	return dir < 0 ? -1 : ltd_open_upper_file(dir, leaf, &st);
}

static void link_line(struct diff *d, char sign, const char *path,
		      const char *target)
{
	color(d, sign == '-' ? C_OLD : C_NEW);
	fprintf(d->out, "%c", sign);
	fputs("link ", d->out);
	ltd_fput_shown(d->out, path);
	fputs(" -> ", d->out);
	ltd_fput_shown(d->out, target);
	color(d, C_OFF);
	fputc('\n', d->out);
}

/* The content part of one change: text hunks, "Binary files", links. */
static int content(struct diff *d, const struct ltd_change *c,
		   struct ltd_statf *s)
{
	_cleanup_close_ int old = -1, new_fd = -1;
	bool was_reg = S_ISREG(c->old_mode) && c->kind != LTD_CH_ADD;
	bool is_reg = S_ISREG(c->mode);
	int ret;

	if (S_ISLNK(c->old_mode) && c->old_target && c->kind != LTD_CH_ADD &&
	    !d->o->stat)
		link_line(d, '-', c->from ? c->from : c->path, c->old_target);
	if (S_ISLNK(c->mode) && c->target && !d->o->stat)
		link_line(d, '+', c->path, c->target);
	if (c->kind == LTD_CH_MODE || (c->flags & LTD_CHF_REFUSED) ||
	    (!was_reg && !is_reg && !c->from))
		return 0;
	old = was_reg	? project_file(d, c->path)
	      : c->from ? project_file(d, c->from)
			: -1;
	new_fd = is_reg ? upper_file(d, c) : -1;
	if (is_reg && new_fd < 0)
		return -errno;
	if ((old >= 0 && binary(old)) || (new_fd >= 0 && binary(new_fd))) {
		s->flags |= LTD_STATF_BINARY;
		if (d->o->stat)
			return 0;
		fputs("Binary files ", d->out);
		if (old >= 0)
			path_out(d->out, "a/", c->from ? c->from : c->path);
		else
			fputs("/dev/null", d->out);
		fputs(" and ", d->out);
		if (new_fd >= 0)
			path_out(d->out, "b/", c->path);
		else
			fputs("/dev/null", d->out);
		fputs(" differ\n", d->out);
		return 0;
	}
	if (!d->o->stat) {
		meta(d, old < 0 ? "--- /dev/null" : "--- ", "a/",
		     old < 0   ? NULL
		     : c->from ? c->from
			       : c->path,
		     NULL, NULL, NULL);
		meta(d, new_fd < 0 ? "+++ /dev/null" : "+++ ", "b/",
		     new_fd < 0 ? NULL : c->path, NULL, NULL, NULL);
	}
	ret = d->o->stat ? count_lines(old, new_fd, s) : 1;
	return ret == 1 ? run_diff(d, old, new_fd, s) : ret;
}

/* git's mode of a new or deleted file: 100644 or 100755 (120000 a link,
 * 040000 a directory). */
static const char *git_mode(char buf[16], mode_t m)
{
	snprintf(buf, 16, "%06o",
		 (unsigned)(S_ISLNK(m)	 ? 0120000
			    : S_ISDIR(m) ? 0040000
					 : 0100000 | (m & 0111 ? 0755 : 0644)));
	return buf;
}

/* A mode as it is (a mode change: 100700 is not 100755). */
static const char *exact_mode(char buf[16], mode_t m)
{
	snprintf(buf, 16, "%06o",
		 (unsigned)((S_ISDIR(m) ? 0040000 : 0100000) | (m & 07777)));
	return buf;
}

/* The line before a change whose project copy the host changed since the
 * review began: what is shown is not what the review began from. */
static void conflict_note(struct diff *d, const struct ltd_change *c)
{
	color(d, C_NOTE);
	if (c->kind == LTD_CH_ADD && !c->from)
		fprintf(d->out,
			"# conflict: %s (apply refuses it; the "
			"host's copy is not shown)",
			c->conflict);
	else if (c->kind == LTD_CH_DELETE || !c->conflict ||
		 !strncmp(c->conflict, "changed", 7))
		fputs("# conflict: the project's copy changed on the host "
		      "since the review began: this diff is against the "
		      "host's newer copy (apply refuses it)",
		      d->out);
	else
		fprintf(d->out, "# conflict: %s (apply refuses it)",
			c->conflict);
	color(d, C_OFF);
	fputc('\n', d->out);
}

/*
 * A change that never lands: comment lines only, no "diff --git" header
 * without a body (git apply of the whole diff failed on one: the new
 * user's review), its reason said once for a run of changes that share
 * it (a commit in the cage: a .git's index, objects, refs, logs).
 */
static void never_lands(struct diff *d, const struct ltd_change *c)
{
	color(d, C_NOTE);
	if (c->why != d->never) {
		fputs("# never lands: ", d->out);
		fputs(c->why ? c->why : "", d->out);
		fputs(":\n", d->out);
		d->never = c->why;
	}
	fputs("#   ", d->out);
	ltd_fput_shown(d->out, c->path);
	color(d, C_OFF);
	fputc('\n', d->out);
}

/* git's extended headers for @c. */
static void headers(struct diff *d, const struct ltd_change *c)
{
	const char *old = c->from ? c->from : c->path;
	bool add = c->kind == LTD_CH_ADD && !c->from;
	char b1[16], b2[16];
	mode_t was, now;

	if (c->flags & LTD_CHF_REFUSED) {
		never_lands(d, c);
		return;
	}
	d->never = NULL;
	if (c->flags & LTD_CHF_HELD) {
		color(d, C_NOTE);
		fputs("# held back: ", d->out);
		fputs(c->why ? c->why : "", d->out);
		color(d, C_OFF);
		fputc('\n', d->out);
	}
	if (c->flags & LTD_CHF_CONFLICT)
		conflict_note(d, c);
	meta(d, "diff --git ", "a/", old, " ", "b/", c->path);
	if (add) {
		meta(d, "new file mode ", NULL, NULL, git_mode(b1, c->mode),
		     NULL, NULL);
	} else if (c->kind == LTD_CH_DELETE) {
		meta(d, "deleted file mode ", NULL, NULL,
		     git_mode(b1, c->old_mode), NULL, NULL);
	} else if (c->kind == LTD_CH_TYPE) {
		meta(d, "deleted file mode ", NULL, NULL,
		     git_mode(b1, c->old_mode), NULL, NULL);
		meta(d, "new file mode ", NULL, NULL, git_mode(b2, c->mode),
		     NULL, NULL);
	}
	if (c->from) {
		meta(d, "rename from ", "", c->from, NULL, NULL, NULL);
		meta(d, "rename to ", "", c->path, NULL, NULL, NULL);
	}
	if (ltd_change_mode_change(c, &was, &now)) {
		meta(d, "old mode ", NULL, NULL, exact_mode(b1, was), NULL,
		     NULL);
		meta(d, "new mode ", NULL, NULL, exact_mode(b2, now), NULL,
		     NULL);
	}
}

static bool wanted(const struct diff *d, const struct ltd_change *c)
{
	if (c->flags & LTD_CHF_RENAMED)
		return false; /* its rename shows it */
	if (S_ISDIR(c->mode) && c->kind != LTD_CH_TYPE &&
	    c->kind != LTD_CH_MODE)
		return false; /* its contents show it */
	if (c->kind == LTD_CH_DELETE && S_ISDIR(c->old_mode))
		return false;
	if (!d->o->n_paths)
		return true;
	for (size_t i = 0; i < d->o->n_paths; i++)
		if (ltd_change_named(c, d->paths[i]))
			return true;
	return false;
}

int ltd_review_diff(FILE *out, const char *name, const struct ltd_diff_opts *o,
		    struct ltd_err *err)
{
	struct ltd_review_view v = LTD_REVIEW_VIEW_INIT;
	struct diff d = {.out = out, .o = o, .v = &v};
	int ret = ltd_review_view_open(&v, name, o->user, 0, err);

	if (!ret)
		ret = ltd_review_paths(&v, "diff", o->paths, o->n_paths,
				       &d.paths, err);
	if (!ret)
		d.stats = calloc(v.ch.n ? v.ch.n : 1, sizeof(*d.stats));
	if (!ret && !d.stats)
		ret = ltd_err_set(err, ENOMEM, "out of memory");
	for (size_t i = 0; !ret && i < v.ch.n; i++) {
		const struct ltd_change *c = &v.ch.v[i];
		struct ltd_statf *s = &d.stats[d.n_stats];

		if (!wanted(&d, c))
			continue;
		if (!o->stat)
			headers(&d, c);
		s->path = c->path;
		if (ltd_change_mode_change(c, &(mode_t){0}, &(mode_t){0}))
			s->flags |= LTD_STATF_MODE;
		if (c->flags & LTD_CHF_CONFLICT)
			s->flags |= LTD_STATF_CONFLICT;
		if (c->flags & LTD_CHF_REFUSED)
			s->flags |= LTD_STATF_NEVER;
		else if (c->flags & LTD_CHF_HELD)
			s->flags |= LTD_STATF_HELD;
		ret = content(&d, c, s);
		if (ret < 0)
			ret = ltd_err_set(err, -ret, "diff '%s'", c->path);
		d.n_stats++;
	}
	if (!ret && o->stat)
		ltd_statfmt(out, d.stats, d.n_stats, o->width, o->color);
	free(d.stats);
	ltd_review_paths_free(d.paths, o->n_paths);
	ltd_review_view_close(&v);
	return ret;
}
