// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The registry of named cages (see registry.h for the layout and the
 * locking rule).  Everything is opened relative to the checked directory
 * fd, without following links.
 */
#include "runtime/registry.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/pidfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/names.h"

const char *const ltd_ns_names[LTD_NS_COUNT] = {
	"user", "mnt", "pid", "net", "ipc", "uts", "cgroup",
};
const int ltd_ns_types[LTD_NS_COUNT] = {
	CLONE_NEWUSER, CLONE_NEWNS,  CLONE_NEWPID,    CLONE_NEWNET,
	CLONE_NEWIPC,  CLONE_NEWUTS, CLONE_NEWCGROUP,
};

#define ENTRY_MAX (64 * 1024)

char *ltd_entry_format(const struct ltd_entry *e)
{
	json_t *o = json_object(), *ns = json_object(), *w = json_array();
	char *s, *line = NULL;

	for (int i = 0; i < LTD_NS_COUNT; i++)
		json_object_set_new(ns, ltd_ns_names[i],
				    json_integer((json_int_t)e->ns[i]));
	for (size_t i = 0; i < e->n_waived; i++)
		json_array_append_new(w, json_string(e->waived[i]));
	json_object_set_new(o, "name", json_string(e->name));
	json_object_set_new(o, "launcher_pid", json_integer(e->launcher_pid));
	json_object_set_new(o, "launcher_start",
			    json_integer((json_int_t)e->launcher_start));
	json_object_set_new(o, "init_pid", json_integer(e->init_pid));
	json_object_set_new(o, "init_start",
			    json_integer((json_int_t)e->init_start));
	json_object_set_new(o, "command_pid", json_integer(e->command_pid));
	json_object_set_new(o, "namespaces", ns);
	json_object_set_new(o, "network", json_string(e->network));
	json_object_set_new(o, "seccomp", json_string(e->seccomp));
	json_object_set_new(o, "tier", json_string(e->tier));
	json_object_set_new(o, "project", json_string(e->project));
	json_object_set_new(o, "started_at", json_integer(e->started_at));
	json_object_set_new(o, "keep_running", json_boolean(e->keep_running));
	json_object_set_new(o, "waived", w);
	s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	if (s && asprintf(&line, "%s\n", s) < 0)
		line = NULL;
	free(s);
	return line;
}

static void copy_str(char *dst, size_t size, json_t *v)
{
	const char *s = json_string_value(v);

	snprintf(dst, size, "%s", s ? s : "");
}

int ltd_entry_parse(const char *text, struct ltd_entry *e, struct ltd_err *err)
{
	json_error_t jerr;
	json_t *o = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	json_t *ns;
	int ret = 0;

	*e = (struct ltd_entry){0};
	if (!json_is_object(o)) {
		json_decref(o);
		return ltd_err_set(err, EINVAL, "registry entry: %s",
				   o ? "not an object" : jerr.text);
	}
	copy_str(e->name, sizeof(e->name), json_object_get(o, "name"));
	e->launcher_pid =
		(pid_t)json_integer_value(json_object_get(o, "launcher_pid"));
	e->launcher_start = (unsigned long long)json_integer_value(
		json_object_get(o, "launcher_start"));
	e->init_pid = (pid_t)json_integer_value(json_object_get(o, "init_pid"));
	e->init_start = (unsigned long long)json_integer_value(
		json_object_get(o, "init_start"));
	e->command_pid =
		(pid_t)json_integer_value(json_object_get(o, "command_pid"));
	ns = json_object_get(o, "namespaces");
	for (int i = 0; i < LTD_NS_COUNT; i++)
		e->ns[i] = (uint64_t)json_integer_value(
			json_object_get(ns, ltd_ns_names[i]));
	copy_str(e->network, sizeof(e->network), json_object_get(o, "network"));
	copy_str(e->seccomp, sizeof(e->seccomp), json_object_get(o, "seccomp"));
	copy_str(e->tier, sizeof(e->tier), json_object_get(o, "tier"));
	copy_str(e->project, sizeof(e->project), json_object_get(o, "project"));
	e->started_at = json_integer_value(json_object_get(o, "started_at"));
	e->keep_running = json_is_true(json_object_get(o, "keep_running"));
	if (!ltd_name_ok(e->name) || e->launcher_pid <= 0 ||
	    e->launcher_start == 0)
		ret = ltd_err_set(err, EINVAL,
				  "registry entry: no valid name "
				  "or launcher");
	json_decref(o);
	return ret;
}

int ltd_stat_starttime(const char *stat, unsigned long long *start)
{
	/* "pid (comm) state ppid ...": comm may hold anything, even ") ";
	 * fields are counted from the last ')' (field 2's end). */
	const char *p = strrchr(stat, ')');
	int field = 2;

	if (!p)
		return -EINVAL;
	for (p++; *p && field < 22; p++)
		if (*p == ' ' && p[1] && p[1] != ' ')
			field++;
	if (field != 22 || sscanf(p, "%llu", start) != 1 || *start == 0)
		return -EINVAL;
	return 0;
}

unsigned long long ltd_proc_starttime(pid_t pid)
{
	char path[32], buf[1024];
	unsigned long long start = 0;
	_cleanup_close_ int fd = -1;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return ltd_stat_starttime(buf, &start) < 0 ? 0 : start;
}

int ltd_pidfd_verified(pid_t pid, unsigned long long start)
{
	int fd;

	if (pid <= 0 || start == 0)
		return -ESRCH;
	fd = pidfd_open(pid, 0);
	if (fd < 0)
		return -errno;
	/* The pidfd now pins whatever process has @pid; if that one started
	 * at @start, it is the one we mean (a reused pid starts later). */
	if (ltd_proc_starttime(pid) != start) {
		close(fd);
		return -ESRCH;
	}
	return fd;
}

/* Owned by us, a directory, nobody else can write (or, for @private,
 * even read) it. */
static int check_dir(int fd, const char *path, bool private,
		     struct ltd_err *err)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return ltd_err_sys(err, "stat %s", path);
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & (private ? 077 : 022)))
		return ltd_err_set(err, EPERM,
				   "%s must be a directory owned by uid %u "
				   "with mode %s (it is uid %u, mode %04o): "
				   "refusing to keep the registry of named "
				   "cages there (set XDG_RUNTIME_DIR to a "
				   "private directory of yours)",
				   path, (unsigned)geteuid(),
				   private ? "0700" : "0700 or 0755",
				   (unsigned)st.st_uid,
				   (unsigned)(st.st_mode & 07777));
	return 0;
}

int ltd_registry_open(struct ltd_err *err)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	char path[PATH_MAX];
	_cleanup_close_ int base = -1, dir = -1;
	const char *leaf;
	int ret;

	if (xdg && xdg[0] == '/') {
		base = open(xdg, O_DIRECTORY | O_CLOEXEC);
		if (base < 0)
			return ltd_err_sys(err, "XDG_RUNTIME_DIR '%s'", xdg);
		ret = check_dir(base, xdg, false, err);
		if (ret < 0)
			return ret;
		leaf = "ltd-native";
		snprintf(path, sizeof(path), "%s/%s", xdg, leaf);
	} else {
		/* /tmp is shared: the directory must be ours and private, or
		 * someone else made it first and could read or plant entries.
		 */
		base = open("/tmp", O_DIRECTORY | O_CLOEXEC);
		if (base < 0)
			return ltd_err_sys(err, "/tmp");
		snprintf(path, sizeof(path), "/tmp/ltd-native-%u",
			 (unsigned)geteuid());
		leaf = path + 5;
	}
	if (mkdirat(base, leaf, 0700) < 0 && errno != EEXIST)
		return ltd_err_sys(err, "mkdir %s", path);
	dir = openat(base, leaf, O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dir < 0)
		return ltd_err_sys(err, "open %s (a directory, not a link)",
				   path);
	ret = check_dir(dir, path, true, err);
	return ret < 0 ? ret : ltd_steal_fd(&dir);
}

static void entry_file(char *buf, size_t size, const char *name,
		       const char *ext)
{
	snprintf(buf, size, "%s.%s", name, ext);
}

/* Remove a stale entry we hold the lock of, if the name still is it. */
static void remove_if_same(int dir, const char *name, int fd)
{
	char file[LTD_NAME_MAX + 8];
	struct stat a, b;

	entry_file(file, sizeof(file), name, "json");
	if (fstat(fd, &a) == 0 &&
	    fstatat(dir, file, &b, AT_SYMLINK_NOFOLLOW) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		ltd_registry_remove(dir, name);
}

/* Open NAME.json; 1 if a launcher holds it (live), 0 if it was stale and
 * is removed, negative errno otherwise. */
static int open_entry(int dir, const char *name, int *out)
{
	char file[LTD_NAME_MAX + 8];
	int fd;

	entry_file(file, sizeof(file), name, "json");
	fd = openat(dir, file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
		remove_if_same(dir, name, fd);
		close(fd);
		return 0;
	}
	if (errno != EWOULDBLOCK) {
		int e = errno;

		close(fd);
		return -e;
	}
	*out = fd;
	return 1;
}

/* The entry's file, locked before it has a name.  An O_TMPFILE has none
 * until it is linked, so a launcher killed at any moment of its claim
 * leaves nothing behind (the stress test's random kills found a named
 * temporary file left); a filesystem without O_TMPFILE gets a named one
 * in TMP, empty otherwise. */
static int entry_unnamed(int dir, const char *name, char *tmp, size_t size)
{
	int fd = openat(dir, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	tmp[0] = '\0';
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR))
		return fd;
	snprintf(tmp, size, ".%s.%d.tmp", name, (int)getpid());
	return openat(dir, tmp,
		      O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
}

static int entry_link(int dir, int fd, const char *tmp, const char *file)
{
	char self[32];

	if (tmp[0])
		return linkat(dir, tmp, dir, file, 0);
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	return linkat(AT_FDCWD, self, dir, file, AT_SYMLINK_FOLLOW);
}

static void entry_drop(int dir, const char *tmp)
{
	if (tmp[0])
		unlinkat(dir, tmp, 0);
}

int ltd_registry_claim(int dir, const char *name, struct ltd_err *err)
{
	char tmp[LTD_NAME_MAX + 32], file[LTD_NAME_MAX + 8];
	_cleanup_close_ int fd = -1;
	int ret;

	if (!ltd_name_ok(name))
		return ltd_err_set(err, EINVAL,
				   "--name: '%s' is not a valid "
				   "name",
				   name);
	/* Locked before it has its name: nobody can ever see the entry
	 * unlocked while we live. */
	entry_file(file, sizeof(file), name, "json");
	fd = entry_unnamed(dir, name, tmp, sizeof(tmp));
	if (fd < 0)
		return ltd_err_sys(err, "create the registry entry");
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		ret = ltd_err_sys(err, "lock the registry entry");
		entry_drop(dir, tmp);
		return ret;
	}
	for (int tries = 0; tries < 2; tries++) {
		_cleanup_close_ int other = -1;

		if (entry_link(dir, fd, tmp, file) == 0) {
			entry_drop(dir, tmp);
			return ltd_steal_fd(&fd);
		}
		if (errno != EEXIST)
			break;
		ret = open_entry(dir, name, &other);
		if (ret == 1) {
			entry_drop(dir, tmp);
			return ltd_err_set(err, EEXIST,
					   "--name: a cage named '%s' is "
					   "already running (see 'ltd-native "
					   "ps')",
					   name);
		}
	}
	ret = ltd_err_sys(err, "--name: cannot register '%s'", name);
	entry_drop(dir, tmp);
	return ret;
}

int ltd_registry_update(int fd, const struct ltd_entry *e, struct ltd_err *err)
{
	_cleanup_free_ char *text = ltd_entry_format(e);
	size_t len = text ? strlen(text) : 0;

	if (!text)
		return ltd_err_set(err, ENOMEM, "format the registry entry");
	if (ftruncate(fd, 0) < 0 || pwrite(fd, text, len, 0) != (ssize_t)len)
		return ltd_err_sys(err, "write the registry entry");
	return 0;
}

void ltd_registry_remove(int dir, const char *name)
{
	char file[LTD_NAME_MAX + 8];

	entry_file(file, sizeof(file), name, "sock");
	unlinkat(dir, file, 0);
	entry_file(file, sizeof(file), name, "json");
	unlinkat(dir, file, 0);
}

int ltd_registry_load(int dir, const char *name, struct ltd_entry *e,
		      struct ltd_err *err)
{
	_cleanup_close_ int fd = -1;
	char *buf;
	ssize_t n;
	int ret;

	if (!ltd_name_ok(name))
		return ltd_err_set(err, EINVAL, "'%s' is not a valid cage name",
				   name);
	ret = open_entry(dir, name, &fd);
	if (ret == -ENOENT)
		return ltd_err_set(err, ENOENT, "no cage named '%s' is running",
				   name);
	if (ret == 0)
		return ltd_err_set(err, ESRCH,
				   "no cage named '%s' is running (its stale "
				   "entry was removed)",
				   name);
	if (ret < 0)
		return ltd_err_set(err, -ret, "registry entry '%s': %s", name,
				   strerror(-ret));
	buf = calloc(1, ENTRY_MAX + 1);
	if (!buf)
		return ltd_err_set(err, ENOMEM, "out of memory");
	n = pread(fd, buf, ENTRY_MAX, 0);
	ret = n > 0 ? ltd_entry_parse(buf, e, err) : -EAGAIN;
	free(buf);
	if (ret < 0 || e->init_pid == 0)
		return ltd_err_set(err, EAGAIN,
				   "the cage '%s' is still "
				   "starting",
				   name);
	return 0;
}

int ltd_registry_list(int dir, struct ltd_entry **out, size_t *n,
		      struct ltd_err *err)
{
	int dfd = dup(dir);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	struct dirent *de;

	*out = NULL;
	*n = 0;
	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return ltd_err_sys(err, "read the registry");
	}
	while ((de = readdir(d))) {
		char name[LTD_NAME_MAX + 1];
		size_t len = strlen(de->d_name);
		struct ltd_err ignored = {0};
		struct ltd_entry e, *grown;

		if (len < 6 || len - 5 > LTD_NAME_MAX ||
		    strcmp(de->d_name + len - 5, ".json") != 0)
			continue;
		memcpy(name, de->d_name, len - 5);
		name[len - 5] = '\0';
		if (ltd_registry_load(dir, name, &e, &ignored) < 0)
			continue;
		grown = realloc(*out, (*n + 1) * sizeof(e));
		if (!grown)
			break;
		*out = grown;
		(*out)[(*n)++] = e;
	}
	closedir(d);
	return 0;
}
