// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a pass over every directory of a project costs, done the ways the
 * planted-repository check at exit could do it (issue 17; protect/repos.c
 * walks today).  A measuring tool for bench/walk.sh, not part of
 * ltd-native.
 *
 *   walkcost walk ROOT            the pass protect/repos.c makes today:
 *                                 openat2 (beneath, no link, no other
 *                                 mount) and getdents64 of every
 *                                 directory, depth first
 *   walkcost index ROOT FILE      the same pass, recording each directory
 *                                 (its path under ROOT, inode, ctime) in
 *                                 FILE, in the order met
 *   walkcost statx ROOT FILE [T]  one statx (no link followed at the end,
 *                                 ctime and inode) of each directory of
 *                                 the index, by its path from ROOT's
 *                                 descriptor; T threads share the list
 *   walkcost uring ROOT FILE [Q [T]]  the same through io_uring: Q statx
 *                                 in flight on each of T rings (threads)
 *   walkcost uring-ino ROOT FILE [Q [T]]  the same, the index sorted by
 *                                 inode first (the order of the inode
 *                                 tables on disk: what a cold pass reads)
 *   walkcost reread ROOT FILE     open + getdents64 of each directory of
 *                                 the index, flat: what re-reading a
 *                                 changed directory costs
 *   walkcost touch ROOT FILE N    change N directories of the index
 *                                 (spread evenly): create and remove an
 *                                 entry in each
 *
 * Prints "MODE dirs=N changed=N us=N" (changed: directories whose inode
 * or ctime differ from the index).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct ent {
	uint64_t ino;
	int64_t sec;
	uint32_t nsec;
	char *path; /* "" for the root */
};

static struct ent *ents;
static size_t n_ents, cap_ents;
static int root_fd;
static FILE *index_out;

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static int open_beneath(int dir, const char *name)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
	};

	return (int)syscall(SYS_openat2, dir, name, &how, sizeof(how));
}

static unsigned long n_dirs;
static char path[4096];

/* Depth first, as protect/repos.c: one buffer a depth. */
static void walk(int fd, size_t len, int depth, char **bufs)
{
	long n;

	if (!bufs[depth] && !(bufs[depth] = malloc(16384)))
		die("malloc");
	n_dirs++;
	if (index_out) {
		struct stat st;

		if (fstat(fd, &st) < 0)
			die("fstat");
		fprintf(index_out, "%llu %lld %ld %s\n",
			(unsigned long long)st.st_ino,
			(long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec,
			len ? path + 1 : ".");
	}
	while ((n = syscall(SYS_getdents64, fd, bufs[depth], 16384)) > 0) {
		for (long off = 0; off < n;) {
			struct dirent64 *e = (void *)(bufs[depth] + off);
			size_t k = strlen(e->d_name);
			int sub;

			off += e->d_reclen;
			if (e->d_type != DT_DIR || !strcmp(e->d_name, ".") ||
			    !strcmp(e->d_name, "..") || depth > 120 ||
			    len + k + 2 >= sizeof(path))
				continue;
			sub = open_beneath(fd, e->d_name);
			if (sub < 0)
				continue;
			path[len] = '/';
			memcpy(path + len + 1, e->d_name, k + 1);
			walk(sub, len + 1 + k, depth + 1, bufs);
			path[len] = '\0';
		}
	}
	close(fd);
}

static void load(const char *file)
{
	FILE *f = fopen(file, "r");
	char line[8192];

	if (!f)
		die(file);
	while (fgets(line, sizeof(line), f)) {
		struct ent e;
		unsigned long long ino;
		long long sec;
		long nsec;
		int off;

		if (sscanf(line, "%llu %lld %ld %n", &ino, &sec, &nsec, &off) <
		    3)
			continue;
		line[strcspn(line, "\n")] = '\0';
		e = (struct ent){ino, sec, (uint32_t)nsec, strdup(line + off)};
		if (n_ents == cap_ents) {
			cap_ents = cap_ents ? cap_ents * 2 : 4096;
			ents = realloc(ents, cap_ents * sizeof(*ents));
			if (!ents)
				die("realloc");
		}
		ents[n_ents++] = e;
	}
	fclose(f);
}

static int differs(const struct ent *e, const struct statx *sx)
{
	return sx->stx_ino != e->ino || sx->stx_ctime.tv_sec != e->sec ||
	       sx->stx_ctime.tv_nsec != e->nsec;
}

struct part {
	size_t from, to;
	unsigned q;
	unsigned long changed;
};

static void *statx_part(void *arg)
{
	struct part *p = arg;
	struct statx sx;

	for (size_t i = p->from; i < p->to; i++) {
		if (statx(root_fd, ents[i].path,
			  AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
			  STATX_INO | STATX_CTIME, &sx) < 0 ||
		    differs(&ents[i], &sx))
			p->changed++;
	}
	return NULL;
}

static void *uring_part(void *arg)
{
	struct part *p = arg;
	struct io_uring ring;
	struct statx *sx = calloc(p->q, sizeof(*sx));
	size_t *slot_ent = calloc(p->q, sizeof(*slot_ent));
	unsigned *free_slots = calloc(p->q, sizeof(*free_slots));
	unsigned n_free = p->q, inflight = 0;
	size_t next = p->from;

	if (!sx || !slot_ent || !free_slots)
		die("calloc");
	if (io_uring_queue_init(p->q, &ring, 0) < 0)
		die("io_uring_queue_init");
	for (unsigned i = 0; i < p->q; i++)
		free_slots[i] = i;
	while (next < p->to || inflight) {
		struct io_uring_cqe *cqe;
		unsigned queued = 0;

		while (next < p->to && n_free) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
			unsigned s = free_slots[--n_free];

			if (!sqe) {
				n_free++;
				break;
			}
			slot_ent[s] = next;
			io_uring_prep_statx(sqe, root_fd, ents[next].path,
					    AT_SYMLINK_NOFOLLOW |
						    AT_NO_AUTOMOUNT,
					    STATX_INO | STATX_CTIME, &sx[s]);
			io_uring_sqe_set_data64(sqe, s);
			next++;
			queued++;
		}
		if (io_uring_submit_and_wait(&ring, 1) < 0)
			die("io_uring_submit_and_wait");
		inflight += queued;
		unsigned head, seen = 0;

		io_uring_for_each_cqe(&ring, head, cqe)
		{
			unsigned s = (unsigned)io_uring_cqe_get_data64(cqe);

			if (cqe->res < 0 || differs(&ents[slot_ent[s]], &sx[s]))
				p->changed++;
			free_slots[n_free++] = s;
			seen++;
		}
		io_uring_cq_advance(&ring, seen);
		inflight -= seen;
	}
	io_uring_queue_exit(&ring);
	free(sx);
	free(slot_ent);
	free(free_slots);
	return NULL;
}

static int by_ino(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;

	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

static unsigned long in_parts(void *(*fn)(void *), unsigned threads, unsigned q)
{
	pthread_t t[64];
	struct part parts[64];
	unsigned long changed = 0;

	if (threads < 1 || threads > 64)
		threads = 1;
	for (unsigned i = 0; i < threads; i++) {
		parts[i] = (struct part){n_ents * i / threads,
					 n_ents * (i + 1) / threads, q, 0};
		if (i && pthread_create(&t[i], NULL, fn, &parts[i]))
			die("pthread_create");
	}
	fn(&parts[0]);
	for (unsigned i = 1; i < threads; i++)
		pthread_join(t[i], NULL);
	for (unsigned i = 0; i < threads; i++)
		changed += parts[i].changed;
	return changed;
}

static unsigned long reread(void)
{
	char *buf = malloc(16384);
	unsigned long entries = 0;

	if (!buf)
		die("malloc");
	for (size_t i = 0; i < n_ents; i++) {
		int fd = open_beneath(root_fd, ents[i].path);
		long n;

		if (fd < 0)
			continue;
		while ((n = syscall(SYS_getdents64, fd, buf, 16384)) > 0)
			entries += (unsigned long)n;
		close(fd);
	}
	free(buf);
	return entries ? 0 : 0;
}

static void touch(unsigned long n)
{
	for (unsigned long k = 0; k < n && n_ents; k++) {
		size_t i = k * n_ents / n;
		char name[8192];

		snprintf(name, sizeof(name), "%s/.walkcost-touch",
			 ents[i].path);
		if (mkdirat(root_fd, name, 0755) < 0 ||
		    unlinkat(root_fd, name, AT_REMOVEDIR) < 0)
			die(name);
	}
}

int main(int argc, char **argv)
{
	const char *mode = argc > 2 ? argv[1] : "";
	unsigned long changed = 0;
	double t0;

	if (argc < 3)
		goto usage;
	root_fd = open(argv[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root_fd < 0)
		die(argv[2]);
	if (strcmp(mode, "walk") && strcmp(mode, "index")) {
		if (argc < 4)
			goto usage;
		load(argv[3]);
	}
	t0 = now_us();
	if (!strcmp(mode, "walk") || !strcmp(mode, "index")) {
		char **bufs = calloc(130, sizeof(*bufs));

		if (!strcmp(mode, "index") &&
		    (argc < 4 || !(index_out = fopen(argv[3], "w"))))
			goto usage;
		walk(dup(root_fd), 0, 0, bufs);
		if (index_out && fclose(index_out))
			die(argv[3]);
		printf("%s dirs=%lu changed=0 us=%.0f\n", mode, n_dirs,
		       now_us() - t0);
		return 0;
	} else if (!strcmp(mode, "statx")) {
		changed = in_parts(statx_part, argc > 4 ? atoi(argv[4]) : 1, 0);
	} else if (!strcmp(mode, "uring") || !strcmp(mode, "uring-ino")) {
		unsigned q = argc > 4 ? (unsigned)atoi(argv[4]) : 64;

		if (!strcmp(mode, "uring-ino"))
			qsort(ents, n_ents, sizeof(*ents), by_ino);

		changed = in_parts(uring_part, argc > 5 ? atoi(argv[5]) : 1,
				   q ? q : 64);
	} else if (!strcmp(mode, "reread")) {
		changed = reread();
	} else if (!strcmp(mode, "touch") && argc > 4) {
		touch(strtoul(argv[4], NULL, 10));
	} else {
		goto usage;
	}
	printf("%s dirs=%zu changed=%lu us=%.0f\n", mode, n_ents, changed,
	       now_us() - t0);
	return 0;
usage:
	fprintf(stderr,
		"usage: walkcost walk ROOT | index ROOT FILE | statx "
		"ROOT FILE [T] | uring[-ino] ROOT FILE [Q [T]] | reread "
		"ROOT FILE | touch ROOT FILE N\n");
	return 2;
}
