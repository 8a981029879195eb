// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reviews' directory (see store.h for the layout and the locks).
 * Everything is opened beneath the checked directory fd, without following
 * links; meta.json is written to a temporary and renamed.
 */
#include "review/store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/path.h"
#include "common/sha256.h"
#include "common/text.h"
#include "review/fs.h"

#define META_MAX (16 * 1024 * 1024)

void ltd_review_meta_free(struct ltd_review_meta *m)
{
	for (size_t i = 0; i < m->n_applied; i++)
		free(m->applied[i].path);
	free(m->applied);
	m->applied = NULL;
	m->n_applied = 0;
}

static json_t *ts_json(struct timespec t)
{
	return json_pack("[II]", (json_int_t)t.tv_sec, (json_int_t)t.tv_nsec);
}

static bool ts_parse(json_t *v, struct timespec *t)
{
	json_int_t s, ns;

	if (json_unpack(v, "[II]", &s, &ns) < 0 || s < 0 || ns < 0 ||
	    ns >= 1000000000)
		return false;
	t->tv_sec = (time_t)s;
	t->tv_nsec = (long)ns;
	return true;
}

char *ltd_review_meta_format(const struct ltd_review_meta *m)
{
	json_t *o = json_object(), *ap = json_object();
	char *s = NULL, *line = NULL;

	if (!o || !ap) {
		json_decref(o);
		json_decref(ap);
		return NULL;
	}
	for (size_t i = 0; i < m->n_applied; i++)
		json_object_set_new(ap, m->applied[i].path,
				    ts_json(m->applied[i].ctime));
	json_object_set_new(o, "version", json_integer(1));
	json_object_set_new(o, "name", json_string(m->name));
	json_object_set_new(o, "project", json_string(m->project));
	json_object_set_new(o, "began", ts_json(m->began));
	json_object_set_new(o, "last_run", json_integer(m->last_run));
	json_object_set_new(o, "runs", json_integer(m->runs));
	json_object_set_new(o, "applied", ap);
	s = json_dumps(o, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	json_decref(o);
	if (s && asprintf(&line, "%s\n", s) < 0)
		line = NULL;
	free(s);
	return line;
}

static int parse_applied(json_t *ap, struct ltd_review_meta *m)
{
	const char *k;
	json_t *v;

	json_object_foreach(ap, k, v)
	{
		struct timespec t;

		if (!ts_parse(v, &t))
			return -EINVAL;
		if (ltd_review_applied_set(m, k, t) < 0)
			return -ENOMEM;
	}
	return 0;
}

int ltd_review_meta_parse(const char *text, struct ltd_review_meta *m,
			  struct ltd_err *err)
{
	json_error_t jerr;
	json_t *o = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	const char *name, *project;
	json_int_t last = 0, runs = 0;
	json_t *began = NULL, *ap = NULL;
	int ret = 0;

	*m = (struct ltd_review_meta){0};
	if (!o)
		return ltd_err_set(err, EINVAL, "meta.json: %s", jerr.text);
	if (json_unpack(o, "{s:s, s:s, s:o, s?I, s?I, s?o}", "name", &name,
			"project", &project, "began", &began, "last_run", &last,
			"runs", &runs, "applied", &ap) < 0 ||
	    !ltd_name_ok(name) || !ltd_path_is_normal(project) ||
	    !strcmp(project, "/") || strlen(project) >= sizeof(m->project) ||
	    !ts_parse(began, &m->began))
		ret = ltd_err_set(err, EINVAL,
				  "meta.json: not a review's record (a "
				  "name, an absolute and normal project "
				  "path, when it began)");
	if (!ret) {
		snprintf(m->name, sizeof(m->name), "%s", name);
		snprintf(m->project, sizeof(m->project), "%s", project);
		m->last_run = last;
		m->runs = runs > 0 ? (unsigned)runs : 0;
		if (json_is_object(ap) && parse_applied(ap, m) < 0)
			ret = ltd_err_set(err, EINVAL,
					  "meta.json: a bad 'applied' entry");
	}
	json_decref(o);
	if (ret)
		ltd_review_meta_free(m);
	return ret;
}

const struct timespec *ltd_review_applied_at(const struct ltd_review_meta *m,
					     const char *path)
{
	for (size_t i = 0; i < m->n_applied; i++)
		if (!strcmp(m->applied[i].path, path))
			return &m->applied[i].ctime;
	return NULL;
}

int ltd_review_applied_set(struct ltd_review_meta *m, const char *path,
			   struct timespec ctime)
{
	struct ltd_review_applied *a;

	for (size_t i = 0; i < m->n_applied; i++)
		if (!strcmp(m->applied[i].path, path)) {
			m->applied[i].ctime = ctime;
			return 0;
		}
	a = realloc(m->applied, (m->n_applied + 1) * sizeof(*a));
	if (!a)
		return -ENOMEM;
	m->applied = a;
	a[m->n_applied].path = strdup(path);
	if (!a[m->n_applied].path)
		return -ENOMEM;
	a[m->n_applied++].ctime = ctime;
	return 0;
}

/* $XDG_STATE_HOME, or ~/.local/state. */
static int state_home(char *buf, size_t size, struct ltd_err *err)
{
	const char *xdg = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");
	const struct passwd *pw;

	if (xdg && xdg[0] == '/')
		return ltd_path_fmt(buf, size, "%s", xdg) < 0
			       ? ltd_err_set(err, ENAMETOOLONG,
					     "XDG_STATE_HOME is too long")
			       : 0;
	if (!home || home[0] != '/') {
		pw = getpwuid(geteuid());
		home = pw ? pw->pw_dir : NULL;
	}
	if (!home || home[0] != '/')
		return ltd_err_set(err, ENOENT,
				   "no home directory to keep reviews in (set "
				   "XDG_STATE_HOME)");
	if (ltd_path_fmt(buf, size, "%s/.local/state", home) < 0)
		return ltd_err_set(err, ENAMETOOLONG, "HOME is too long");
	return 0;
}

/* mkdir -p @path from "/", as the user: each missing directory 0700. */
static int mkdir_p(const char *path)
{
	char tmp[PATH_MAX];

	if (ltd_path_fmt(tmp, sizeof(tmp), "%s", path) < 0)
		return -ENAMETOOLONG;
	for (char *s = strchr(tmp + 1, '/');; s = strchr(s + 1, '/')) {
		if (s)
			*s = '\0';
		if (mkdir(tmp, 0700) < 0 && errno != EEXIST)
			return -errno;
		if (!s)
			return 0;
		*s = '/';
	}
}

static int check_private(int fd, const char *path, struct ltd_err *err)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return ltd_err_sys(err, "stat %s", path);
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 077))
		return ltd_err_set(err, EPERM,
				   "%s must be a directory owned by uid %u "
				   "with mode 0700 (it is uid %u, mode %04o): "
				   "refusing to keep reviews there",
				   path, (unsigned)geteuid(),
				   (unsigned)st.st_uid,
				   (unsigned)(st.st_mode & 07777));
	return 0;
}

int ltd_reviews_open(bool create, char *path, struct ltd_err *err)
{
	char state[PATH_MAX], dir[PATH_MAX];
	_cleanup_close_ int base = -1, fd = -1;
	int ret = state_home(state, sizeof(state), err);

	if (ret < 0)
		return ret;
	if (ltd_path_fmt(dir, sizeof(dir), "%s/ltd-native/reviews", state) < 0)
		return ltd_err_set(err, ENAMETOOLONG, "'%s' is too long",
				   state);
	/* Made only when it is not there (a run's start: one open). */
	base = open(state, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (base < 0 && errno == ENOENT && create) {
		if (mkdir_p(state) < 0)
			return ltd_err_sys(err, "create %s", state);
		base = open(state, O_PATH | O_DIRECTORY | O_CLOEXEC);
	}
	if (base < 0)
		return errno == ENOENT && !create
			       ? -ENOENT
			       : ltd_err_sys(err, "open %s", state);
	fd = ltd_beneath(base, "ltd-native/reviews", O_RDONLY | O_DIRECTORY);
	if (fd < 0 && errno == ENOENT && create) {
		fd = ltd_mkdirs_beneath(base, "ltd-native/reviews");
		if (fd < 0) {
			errno = -fd;
			return ltd_err_sys(err, "create %s", dir);
		}
		ltd_closep(&fd);
		fd = ltd_beneath(base, "ltd-native/reviews",
				 O_RDONLY | O_DIRECTORY);
	}
	if (fd < 0)
		return errno == ENOENT && !create
			       ? -ENOENT
			       : ltd_err_sys(err,
					     "open %s (a directory, "
					     "not a link)",
					     dir);
	ret = check_private(fd, dir, err);
	if (ret < 0)
		return ret;
	if (path)
		memcpy(path, dir, strlen(dir) + 1);
	return ltd_steal_fd(&fd);
}

int ltd_reviews_path(char *buf, size_t size, struct ltd_err *err)
{
	char state[PATH_MAX];
	int ret = state_home(state, sizeof(state), err);

	if (ret < 0)
		return ret;
	if (ltd_path_fmt(buf, size, "%s/ltd-native/reviews", state) < 0)
		return ltd_err_set(err, ENAMETOOLONG, "'%s' is too long",
				   state);
	return 0;
}

int ltd_reviews_probe_dir(char *buf, size_t size, struct ltd_err *err)
{
	char state[PATH_MAX];
	struct stat st;
	int ret = state_home(state, sizeof(state), err);

	if (ret < 0)
		return ret;
	if (ltd_path_fmt(buf, size, "%s/ltd-native/reviews", state) < 0)
		return ltd_err_set(err, ENAMETOOLONG, "'%s' is too long",
				   state);
	while (stat(buf, &st) < 0 || !S_ISDIR(st.st_mode)) {
		char *slash = strrchr(buf, '/');

		if (!slash || slash == buf)
			return ltd_err_set(err, ENOENT,
					   "no directory for "
					   "reviews");
		*slash = '\0';
	}
	return 0;
}

int ltd_review_dir(int base, const char *name, bool create, struct ltd_err *err)
{
	_cleanup_close_ int fd = -1;
	int ret;

	if (!ltd_name_ok(name))
		return ltd_err_set(err, EINVAL, "'%s' is not a review's name",
				   name);
	if (create && mkdirat(base, name, 0700) < 0 && errno != EEXIST)
		return ltd_err_sys(err, "create review '%s'", name);
	fd = ltd_beneath(base, name, O_RDONLY | O_DIRECTORY);
	if (fd < 0 && errno == ENOENT)
		return ltd_err_set(err, ENOENT, "there is no review '%s'",
				   name);
	if (fd < 0)
		return ltd_err_sys(err, "review '%s'", name);
	ret = check_private(fd, name, err);
	return ret < 0 ? ret : ltd_steal_fd(&fd);
}

int ltd_review_meta_load(int dir, struct ltd_review_meta *m,
			 struct ltd_err *err)
{
	_cleanup_close_ int fd = ltd_beneath(dir, "meta.json", O_RDONLY);
	_cleanup_free_ char *text = NULL;
	size_t len;
	int ret;

	*m = (struct ltd_review_meta){0};
	if (fd < 0)
		return errno == ENOENT ? -ENOENT
				       : ltd_err_sys(err, "open meta.json");
	ret = ltd_read_fd(fd, META_MAX, &text, &len);
	if (ret < 0) {
		errno = -ret;
		return ltd_err_sys(err, "read meta.json");
	}
	return ltd_review_meta_parse(text, m, err);
}

/* @m into meta.json.tmp, synced when @sync. */
static int write_tmp(int dir, const struct ltd_review_meta *m, bool sync,
		     struct ltd_err *err)
{
	_cleanup_free_ char *text = ltd_review_meta_format(m);
	_cleanup_close_ int fd = -1;
	int ret;

	if (!text)
		return ltd_err_set(err, ENOMEM, "out of memory");
	unlinkat(dir, "meta.json.tmp", 0);
	fd = openat(dir, "meta.json.tmp",
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return ltd_err_sys(err, "write meta.json");
	ret = ltd_write_all(fd, text, strlen(text));
	if (!ret && sync && fsync(fd) < 0)
		ret = -errno;
	if (ret < 0) {
		errno = -ret;
		return ltd_err_sys(err, "write meta.json");
	}
	return 0;
}

int ltd_review_meta_stage(int dir, const struct ltd_review_meta *m,
			  struct ltd_err *err)
{
	return write_tmp(dir, m, false, err);
}

int ltd_review_meta_place(int dir, struct ltd_err *err)
{
	if (renameat(dir, "meta.json.tmp", dir, "meta.json") < 0)
		return ltd_err_sys(err, "write meta.json");
	return 0;
}

int ltd_review_meta_save(int dir, const struct ltd_review_meta *m,
			 struct ltd_err *err)
{
	int ret = write_tmp(dir, m, true, err);

	return ret < 0 ? ret : ltd_review_meta_place(dir, err);
}

static int open_lock(int dir, const char *name)
{
	return openat(dir, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
		      0600);
}

int ltd_review_lock(int dir, struct ltd_err *err)
{
	_cleanup_close_ int fd = open_lock(dir, "lock");

	if (fd < 0)
		return ltd_err_sys(err, "open the review's lock");
	if (flock(fd, LOCK_EX | LOCK_NB) < 0)
		return errno == EWOULDBLOCK
			       ? -EWOULDBLOCK
			       : ltd_err_sys(err, "lock the review");
	return ltd_steal_fd(&fd);
}

bool ltd_review_busy(int dir)
{
	_cleanup_close_ int fd = open_lock(dir, "lock");

	if (fd < 0)
		return false;
	return flock(fd, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK;
}

int ltd_review_project_lock(int base, const char *project, int how,
			    struct ltd_err *err)
{
	char hex[LTD_SHA256_HEX_LEN + 1], name[LTD_SHA256_HEX_LEN + 16];
	_cleanup_close_ int fd = -1;

	ltd_sha256_hex(project, strlen(project), hex);
	snprintf(name, sizeof(name), ".apply-%s.lock", hex);
	fd = open_lock(base, name);
	if (fd < 0)
		return ltd_err_sys(err, "open the project's apply lock");
	while (flock(fd, how) < 0) {
		if (errno == EINTR)
			continue;
		return errno == EWOULDBLOCK
			       ? -EWOULDBLOCK
			       : ltd_err_sys(err, "lock the project");
	}
	return ltd_steal_fd(&fd);
}

void ltd_boot_id(char *buf, size_t size)
{
	_cleanup_close_ int fd =
		open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, size - 1);

	if (n <= 0)
		n = snprintf(buf, size, "unknown\n");
	buf[n] = '\0';
}

bool ltd_review_stopped(int dir)
{
	char boot[64], was[64];
	struct stat st;
	_cleanup_close_ int fd = -1;
	ssize_t n;

	if (fstatat(dir, "stopped", &st, AT_SYMLINK_NOFOLLOW) == 0)
		return true;
	fd = openat(dir, "lock", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	n = fd < 0 ? -1 : pread(fd, was, sizeof(was) - 1, 0);
	if (n <= 0)
		return false;
	was[n] = '\0';
	ltd_boot_id(boot, sizeof(boot));
	return strcmp(was, boot) != 0;
}

int ltd_review_note_stopped(int dir)
{
	_cleanup_close_ int fd =
		openat(dir, "stopped",
		       O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);

	return fd < 0 ? -errno : 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct ltd_review_info *)a)->meta.name,
		      ((const struct ltd_review_info *)b)->meta.name);
}

int ltd_review_no_record(const char *name, const char *base_path,
			 struct ltd_err *err)
{
	return ltd_err_set(err, ENOENT,
			   "review '%s' has no record (meta.json): the "
			   "machine may have stopped during its first run; "
			   "what its cage wrote is in %s/%s/upper; "
			   "'ltd-native discard %s' removes it",
			   name, base_path, name, name);
}

void ltd_review_say_stopped(const char *name)
{
	char msg[600];

	snprintf(msg, sizeof(msg),
		 "review '%s': the machine stopped (or restarted after "
		 "ltd-native was killed) during a run of it: what that run's "
		 "cage wrote may not all have reached the disk (a file empty "
		 "or cut short); read it before you apply ('ltd-native diff "
		 "%s')",
		 name, name);
	ltd_warn(msg);
}

static bool has_upper(int dir)
{
	struct stat st;

	return fstatat(dir, "upper", &st, AT_SYMLINK_NOFOLLOW) == 0;
}

int ltd_review_list(int base, struct ltd_review_info **out, size_t *n,
		    struct ltd_err *err)
{
	_cleanup_close_ int fd = dup(base);
	struct ltd_review_info *v = NULL;
	struct dirent *e;
	DIR *d;

	*out = NULL;
	*n = 0;
	if (fd < 0 || lseek(fd, 0, SEEK_SET) < 0 || !(d = fdopendir(fd)))
		return ltd_err_sys(err, "list reviews");
	ltd_steal_fd(&fd);
	while ((e = readdir(d))) {
		struct ltd_err ignored = {0};
		struct ltd_review_info info = {0}, *nv;
		_cleanup_close_ int dir = -1;

		if (!ltd_name_ok(e->d_name))
			continue;
		dir = ltd_review_dir(base, e->d_name, false, &ignored);
		if (dir < 0)
			continue;
		info.record =
			ltd_review_meta_load(dir, &info.meta, &ignored) == 0;
		/* An upper with no record: a first run the machine stopped
		 * (it is listed, to be discarded); anything else unreadable
		 * is skipped. */
		if (!info.record && !has_upper(dir))
			continue;
		if (!info.record)
			snprintf(info.meta.name, sizeof(info.meta.name), "%.*s",
				 LTD_NAME_MAX, e->d_name);
		/* A directory renamed by hand is not that review. */
		if (strcmp(info.meta.name, e->d_name) != 0) {
			ltd_review_meta_free(&info.meta);
			continue;
		}
		info.live = ltd_review_busy(dir);
		info.stopped = ltd_review_stopped(dir);
		nv = realloc(v, (*n + 1) * sizeof(*v));
		if (!nv) {
			ltd_review_meta_free(&info.meta);
			break;
		}
		v = nv;
		v[(*n)++] = info;
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), by_name);
	*out = v;
	return 0;
}

void ltd_review_infos_free(struct ltd_review_info *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ltd_review_meta_free(&v[i].meta);
	free(v);
}

bool ltd_review_other_live(int base, const char *project, const char *except,
			   char *who, size_t size)
{
	struct ltd_review_info *v = NULL;
	struct ltd_err ignored = {0};
	bool found = false;
	size_t n = 0;

	if (ltd_review_list(base, &v, &n, &ignored) < 0)
		return false;
	for (size_t i = 0; i < n && !found; i++) {
		if (!v[i].live || strcmp(v[i].meta.project, project) != 0 ||
		    (except && !strcmp(v[i].meta.name, except)))
			continue;
		snprintf(who, size, "%s", v[i].meta.name);
		found = true;
	}
	ltd_review_infos_free(v, n);
	return found;
}

int ltd_review_remove(int base, const char *name, struct ltd_err *err)
{
	char gone[LTD_NAME_MAX + 32];
	int ret;

	if (!ltd_name_ok(name))
		return ltd_err_set(err, EINVAL, "'%s' is not a review's name",
				   name);
	/* Out of the way first, under a name no review can have: a crash
	 * half-way leaves no half review behind. */
	snprintf(gone, sizeof(gone), ".gone-%s.%d", name, (int)getpid());
	if (renameat(base, name, base, gone) < 0)
		return errno == ENOENT
			       ? ltd_err_set(err, ENOENT,
					     "there is no review '%s'", name)
			       : ltd_err_sys(err, "remove review '%s'", name);
	ret = ltd_remove_tree(base, gone);
	if (ret < 0) {
		errno = -ret;
		return ltd_err_sys(err, "remove review '%s'", name);
	}
	return 0;
}
