// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The planted-repository walk's index (see repoindex.h): its file, its
 * tree, and the statx of every node it knows.
 */
#include "protect/repoindex.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#ifdef LTD_HAVE_LIBURING
#include <liburing.h>
#endif

#include "common/cleanup.h"
#include "common/sha256.h"

#define MAGIC "ltdwalk\n"

struct hdr {
	char magic[8];
	uint32_t version;
	uint32_t node_size;
	uint64_t dev, ino; /* the root's */
	uint64_t n, names_len;
	char sum[LTD_SHA256_HEX_LEN]; /* of the header (this zeroed), then
					 the nodes and the names */
};

/* Far beyond LTD_REPOS_MAX_DIRS: a bound for what a file may claim. */
#define MAX_NODES (1u << 24)

_Static_assert(sizeof(struct ltd_rnode) == 24, "an index node is 24 bytes");

int ltd_rindex_add(struct ltd_rindex *x, const char *name, size_t len,
		   unsigned depth, uint32_t *at)
{
	if (x->blob || len > NAME_MAX || depth > LTD_RINDEX_MAX_DEPTH ||
	    (depth && !len) || x->n >= MAX_NODES || memchr(name, '/', len))
		return -EINVAL;
	if (x->n == x->cap) {
		size_t cap = x->cap ? x->cap * 2 : 256;
		struct ltd_rnode *v = realloc(x->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		x->v = v;
		x->cap = cap;
	}
	if (x->names_len + len > x->names_cap) {
		size_t cap = x->names_cap ? x->names_cap * 2 : 4096;
		char *s;

		while (cap < x->names_len + len)
			cap *= 2;
		if (!(s = realloc(x->names, cap)))
			return -ENOMEM;
		x->names = s;
		x->names_cap = cap;
	}
	if (len) /* the root's "": names may still be NULL */
		memcpy(x->names + x->names_len, name, len);
	x->v[x->n] = (struct ltd_rnode){
		.name = (uint32_t)x->names_len,
		.name_len = (uint8_t)len,
		.depth = (uint16_t)depth,
		.flags = LTD_RN_NOFACT,
	};
	x->names_len += len;
	*at = (uint32_t)x->n++;
	return 0;
}

static void checksum(const struct hdr *h, const void *nodes, size_t nodes_len,
		     const void *names, size_t names_len,
		     char out[LTD_SHA256_HEX_LEN + 1])
{
	struct hdr zero = *h;
	struct ltd_sha256 s;

	memset(zero.sum, 0, sizeof(zero.sum));
	ltd_sha256_init(&s);
	ltd_sha256_update(&s, &zero, sizeof(zero));
	ltd_sha256_update(&s, nodes, nodes_len);
	ltd_sha256_update(&s, names, names_len);
	ltd_sha256_done(&s, out);
}

int ltd_rindex_encode(const struct ltd_rindex *x, void **buf, size_t *len)
{
	struct hdr h = {
		.version = LTD_RINDEX_VERSION,
		.node_size = sizeof(struct ltd_rnode),
		.dev = x->dev,
		.ino = x->ino,
		.n = x->n,
		.names_len = x->names_len,
	};
	size_t nodes_len = x->n * sizeof(struct ltd_rnode);
	char sum[LTD_SHA256_HEX_LEN + 1];
	char *b;

	memcpy(h.magic, MAGIC, sizeof(h.magic));
	checksum(&h, x->v, nodes_len, x->names, x->names_len, sum);
	memcpy(h.sum, sum, sizeof(h.sum));
	*len = sizeof(h) + nodes_len + x->names_len;
	if (!(b = malloc(*len)))
		return -ENOMEM;
	memcpy(b, &h, sizeof(h));
	if (nodes_len)
		memcpy(b + sizeof(h), x->v, nodes_len);
	if (x->names_len)
		memcpy(b + sizeof(h) + nodes_len, x->names, x->names_len);
	*buf = b;
	return 0;
}

/* Each node's name is one, its depth at most one below the one before,
 * the root first and only there; one past each subtree into x->end.
 * The stack holds one node a depth (0 to LTD_RINDEX_MAX_DEPTH). */
static int tree_of(struct ltd_rindex *x)
{
	uint32_t stack[LTD_RINDEX_MAX_DEPTH + 1];
	size_t top = 0;

	if (!x->n || x->v[0].depth || x->v[0].name_len || x->v[0].ino != x->ino)
		return -EINVAL;
	if (!(x->end = malloc(x->n * sizeof(*x->end))))
		return -ENOMEM;
	for (size_t i = 0; i < x->n; i++) {
		const struct ltd_rnode *v = &x->v[i];
		const char *s = x->names + v->name;

		if ((v->flags & ~LTD_RN_ALL) ||
		    (size_t)v->name + v->name_len > x->names_len)
			return -EINVAL;
		if (i && (!v->depth || v->depth > x->v[i - 1].depth + 1 ||
			  v->depth > LTD_RINDEX_MAX_DEPTH || !v->name_len ||
			  memchr(s, '/', v->name_len) ||
			  memchr(s, '\0', v->name_len) ||
			  (v->name_len == 1 && s[0] == '.') ||
			  (v->name_len == 2 && s[0] == '.' && s[1] == '.')))
			return -EINVAL;
		while (top && x->v[stack[top - 1]].depth >= v->depth)
			x->end[stack[--top]] = (uint32_t)i;
		stack[top++] = (uint32_t)i;
	}
	while (top)
		x->end[stack[--top]] = (uint32_t)x->n;
	return 0;
}

/* A decoded index's bytes given back: a mapping or a malloc'd copy. */
static void blob_free(char *b, size_t len, bool mapped)
{
	if (mapped)
		munmap(b, len);
	else
		free(b);
}

/* ltd_rindex_decode() of @b (@mapped: the file's mapping, else
 * malloc'd), which @x then holds: a decoded index's nodes and names lie
 * in those bytes, no copy. */
static int decode_in(char *b, size_t len, bool mapped, uint64_t dev,
		     uint64_t ino, struct ltd_rindex *x)
{
	char sum[LTD_SHA256_HEX_LEN + 1];
	size_t nodes_len;
	struct hdr h;
	int ret;

	*x = (struct ltd_rindex){0};
	if (len < sizeof(h)) {
		blob_free(b, len, mapped);
		return -EINVAL;
	}
	memcpy(&h, b, sizeof(h));
	if (memcmp(h.magic, MAGIC, sizeof(h.magic)) ||
	    h.version != LTD_RINDEX_VERSION ||
	    h.node_size != sizeof(struct ltd_rnode) || h.dev != dev ||
	    h.ino != ino || h.n > MAX_NODES ||
	    h.names_len > (uint64_t)MAX_NODES * NAME_MAX ||
	    len != sizeof(h) + h.n * sizeof(struct ltd_rnode) + h.names_len) {
		blob_free(b, len, mapped);
		return -EINVAL;
	}
	nodes_len = h.n * sizeof(struct ltd_rnode);
	checksum(&h, b + sizeof(h), nodes_len, b + sizeof(h) + nodes_len,
		 h.names_len, sum);
	if (memcmp(sum, h.sum, sizeof(h.sum))) {
		blob_free(b, len, mapped);
		return -EINVAL;
	}
	x->dev = dev;
	x->ino = ino;
	x->n = h.n;
	x->names_len = h.names_len;
	x->blob = b; /* sizeof(h) is a multiple of 8: the nodes are aligned */
	x->blob_len = len;
	x->mapped = mapped;
	x->v = (struct ltd_rnode *)(void *)(b + sizeof(h));
	x->names = b + sizeof(h) + nodes_len;
	ret = tree_of(x);
	if (ret)
		ltd_rindex_free(x);
	return ret;
}

int ltd_rindex_decode(const void *buf, size_t len, uint64_t dev, uint64_t ino,
		      struct ltd_rindex *x)
{
	char *b = malloc(len ? len : 1);

	*x = (struct ltd_rindex){0};
	if (!b)
		return -ENOMEM;
	memcpy(b, buf, len);
	return decode_in(b, len, false, dev, ino, x);
}

int ltd_rindex_load(int dir, const char *name, uint64_t dev, uint64_t ino,
		    struct ltd_rindex *x)
{
	_cleanup_close_ int fd = openat(
		dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	void *m;

	*x = (struct ltd_rindex){0};
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    st.st_size < (off_t)sizeof(struct hdr) ||
	    (uint64_t)st.st_size >
		    (uint64_t)MAX_NODES * (sizeof(struct ltd_rnode) + 256))
		return -EINVAL;
	/* Mapped, not read: the page cache's pages, where a copy would
	 * cost a fault a page (decision 0155). */
	m = mmap(NULL, (size_t)st.st_size, PROT_READ,
		 MAP_PRIVATE | MAP_POPULATE, fd, 0);
	if (m == MAP_FAILED)
		return -errno;
	return decode_in(m, (size_t)st.st_size, true, dev, ino, x);
}

bool ltd_rindex_is_of(int dir, const char *name, uint64_t dev, uint64_t ino)
{
	_cleanup_close_ int fd = openat(
		dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct hdr h;

	return fd >= 0 && pread(fd, &h, sizeof(h), 0) == (ssize_t)sizeof(h) &&
	       !memcmp(h.magic, MAGIC, sizeof(h.magic)) &&
	       h.version == LTD_RINDEX_VERSION && h.dev == dev && h.ino == ino;
}

/*
 * The new file is written unnamed (O_TMPFILE) and locked, then linked as
 * NAME.tmp and renamed over NAME, the lock held throughout: a writer
 * killed before its link leaves nothing; one killed between its link and
 * its rename leaves a NAME.tmp no one holds, which the next store of that
 * name removes (the stress test's random kills leave nothing behind).  A
 * NAME.tmp that is held is another run's store of the same project, which
 * is let win.  A filesystem without O_TMPFILE gets NAME.PID.tmp, named
 * from its creation, as before.
 */
static int tmp_open(int dir, const char *name, char *tmp, bool *named)
{
	int fd = openat(dir, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	*named = fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR);
	if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) < 0) {
		close(fd);
		return -ENOLCK;
	}
	if (!*named)
		return fd >= 0 ? fd : -errno;
	snprintf(tmp, NAME_MAX + 1, "%s.%d.tmp", name, (int)getpid());
	unlinkat(dir, tmp, 0);
	fd = openat(dir, tmp,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	return fd >= 0 ? fd : -errno;
}

/* Remove @tmp if no one holds it (its writer is gone); whether it is. */
static bool drop_unheld(int dir, const char *tmp)
{
	int fd = openat(dir, tmp,
			O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat a, b;
	bool gone = false;

	if (fd < 0)
		return errno == ENOENT;
	if (flock(fd, LOCK_EX | LOCK_NB) == 0 && fstat(fd, &a) == 0 &&
	    fstatat(dir, tmp, &b, AT_SYMLINK_NOFOLLOW) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		gone = unlinkat(dir, tmp, 0) == 0;
	close(fd);
	return gone;
}

static int tmp_link(int dir, int fd, const char *tmp)
{
	char self[32];

	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	for (int tries = 0; tries < 2; tries++) {
		if (linkat(AT_FDCWD, self, dir, tmp, AT_SYMLINK_FOLLOW) == 0)
			return 0;
		if (errno != EEXIST)
			return -errno;
		if (!drop_unheld(dir, tmp))
			break;
	}
	return -EBUSY;
}

static int write_all(int fd, const char *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t w = write(fd, buf + done, len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		done += (size_t)w;
	}
	return 0;
}

int ltd_rindex_store(int dir, const char *name, const struct ltd_rindex *x)
{
	_cleanup_free_ void *buf = NULL;
	char tmp[NAME_MAX + 1];
	size_t len;
	bool named, ours;
	int fd, ret;

	/* Either name fits (the longer checked). */
	if (snprintf(tmp, sizeof(tmp), "%s.%d.tmp", name, (int)getpid()) >=
	    (int)sizeof(tmp))
		return -ENAMETOOLONG;
	snprintf(tmp, sizeof(tmp), "%s.tmp", name);
	ret = ltd_rindex_encode(x, &buf, &len);
	if (ret)
		return ret;
	fd = tmp_open(dir, name, tmp, &named);
	if (fd < 0)
		return fd;
	ret = write_all(fd, buf, len);
	ours = named;
	if (!ret && !named)
		ours = !(ret = tmp_link(dir, fd, tmp));
	if (!ret && renameat(dir, tmp, dir, name) < 0)
		ret = -errno;
	if (ret && ours)
		unlinkat(dir, tmp, 0);
	if (close(fd) < 0 && !ret)
		ret = -errno;
	return ret;
}

int ltd_rindex_reserve(struct ltd_rindex *x, size_t n, size_t names_len)
{
	struct ltd_rnode *v;
	char *s;

	if (x->blob)
		return -EINVAL;
	if (n > x->cap) {
		if (!(v = realloc(x->v, n * sizeof(*v))))
			return -ENOMEM;
		x->v = v;
		x->cap = n;
	}
	if (names_len > x->names_cap) {
		if (!(s = realloc(x->names, names_len)))
			return -ENOMEM;
		x->names = s;
		x->names_cap = names_len;
	}
	return 0;
}

void ltd_rindex_free(struct ltd_rindex *x)
{
	if (x->blob) {
		blob_free(x->blob, x->blob_len, x->mapped);
	} else {
		free(x->v);
		free(x->names);
	}
	free(x->end);
	*x = (struct ltd_rindex){0};
}

static int by_name(const void *a, const void *b, void *ctx)
{
	const struct ltd_rindex *x = ctx;
	const struct ltd_rnode *p = &x->v[*(const uint32_t *)a];
	const struct ltd_rnode *q = &x->v[*(const uint32_t *)b];
	size_t n = p->name_len < q->name_len ? p->name_len : q->name_len;
	int c = memcmp(x->names + p->name, x->names + q->name, n);

	return c ? c : (int)p->name_len - (int)q->name_len;
}

long ltd_rindex_children(const struct ltd_rindex *x, uint32_t i, uint32_t **out)
{
	size_t n = 0;
	uint32_t *v;

	*out = NULL;
	for (uint32_t j = i + 1; j < x->end[i]; j = x->end[j])
		n++;
	if (!n)
		return 0;
	if (!(v = malloc(n * sizeof(*v))))
		return -ENOMEM;
	n = 0;
	for (uint32_t j = i + 1; j < x->end[i]; j = x->end[j])
		v[n++] = j;
	qsort_r(v, n, sizeof(*v), by_name, (void *)x);
	*out = v;
	return (long)n;
}

uint32_t ltd_rindex_find(const struct ltd_rindex *x, const uint32_t *kids,
			 size_t n, const char *name)
{
	size_t lo = 0, hi = n, len = strlen(name);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct ltd_rnode *v = &x->v[kids[mid]];
		size_t m = v->name_len < len ? v->name_len : len;
		int c = memcmp(x->names + v->name, name, m);

		if (!c)
			c = (int)v->name_len - (int)len;
		if (!c)
			return kids[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return UINT32_MAX;
}

bool ltd_rindex_same(const struct ltd_rnode *node, const struct ltd_rstat *now)
{
	return now->ok && !(node->flags & (LTD_RN_NOFACT | LTD_RN_RACY)) &&
	       node->ino == now->ino &&
	       node->ctime == ltd_rindex_ns(now->sec, now->nsec);
}

bool ltd_rindex_racy(int64_t sec, uint32_t nsec, struct timespec t0,
		     long long margin)
{
	__int128 c = (__int128)sec * 1000000000 + nsec;
	__int128 t = (__int128)t0.tv_sec * 1000000000 + t0.tv_nsec;

	return c > t - margin;
}

struct share {
	const struct ltd_rindex *x;
	int root;
	uint64_t mnt_id;
	uint8_t *holds;
	size_t from, to; /* nodes [from, to) */
};

/* What statx said (@st) of node @i: whether it still holds. */
static void stat_check(const struct share *s, const struct statx *st, size_t i)
{
	struct ltd_rstat r = {0};

	if ((st->stx_mask & (STATX_TYPE | STATX_INO | STATX_CTIME)) ==
		    (STATX_TYPE | STATX_INO | STATX_CTIME) &&
	    (st->stx_mask & STATX_MNT_ID) && S_ISDIR(st->stx_mode) &&
	    st->stx_mnt_id == s->mnt_id &&
	    makedev(st->stx_dev_major, st->stx_dev_minor) == s->x->dev)
		r = (struct ltd_rstat){.ino = st->stx_ino,
				       .sec = st->stx_ctime.tv_sec,
				       .nsec = st->stx_ctime.tv_nsec,
				       .ok = true};
	s->holds[i] = ltd_rindex_same(&s->x->v[i], &r);
}

#define STAT_FLAGS (AT_SYMLINK_NOFOLLOW | AT_STATX_SYNC_AS_STAT)
#define STAT_MASK  (STATX_TYPE | STATX_INO | STATX_CTIME | STATX_MNT_ID)

#ifdef LTD_HAVE_LIBURING
/*
 * The same statx through io_uring, QD in flight on each thread's ring
 * (bench/walk.sh: ~25 % less than one system call each on two CPUs, the
 * kernel's workers doing the path walks).  Each request's path and
 * result stay in a slot of their own until it completes.
 */
#define QD 64
/* A longer path is statted at once, by a system call: slots this size
 * keep a ring's 64 within 8 pages (with PATH_MAX each, ~70 pages that
 * each cost a fault on the first touch: ~2.5 ms a walk on this VM). */
#define SLOT_PATH 240

struct slot {
	struct statx st;
	uint32_t node;
	char path[SLOT_PATH];
};

struct uq {
	struct io_uring ring;
	struct slot *slots;
	unsigned free[QD], n_free, queued;
};

static bool uq_init(struct uq *q)
{
	struct io_uring_probe *probe;
	bool ok;

	if (io_uring_queue_init(QD, &q->ring, 0) < 0)
		return false;
	probe = io_uring_get_probe_ring(&q->ring);
	ok = probe && io_uring_opcode_supported(probe, IORING_OP_STATX);
	io_uring_free_probe(probe);
	if (ok && !(q->slots = calloc(QD, sizeof(*q->slots))))
		ok = false;
	if (!ok) {
		io_uring_queue_exit(&q->ring);
		return false;
	}
	for (unsigned i = 0; i < QD; i++)
		q->free[i] = i;
	q->n_free = QD;
	q->queued = 0;
	return true;
}

/* Submit what is queued, wait for one completion, take all there are. */
static void uq_reap(struct uq *q, const struct share *s)
{
	struct io_uring_cqe *cqe;

	q->queued = 0;
	if (io_uring_submit_and_wait(&q->ring, 1) < 0 &&
	    io_uring_wait_cqe(&q->ring, &cqe) < 0)
		return;
	while (io_uring_peek_cqe(&q->ring, &cqe) == 0) {
		struct slot *sl = &q->slots[io_uring_cqe_get_data64(cqe)];

		if (cqe->res == 0)
			stat_check(s, &sl->st, sl->node);
		q->free[q->n_free++] = (unsigned)io_uring_cqe_get_data64(cqe);
		io_uring_cqe_seen(&q->ring, cqe);
	}
}

static void uq_statx(struct uq *q, const struct share *s, const char *path,
		     size_t len, size_t node)
{
	struct io_uring_sqe *sqe;
	struct slot *sl;
	unsigned id;

	while (!q->n_free)
		uq_reap(q, s);
	id = q->free[--q->n_free];
	sl = &q->slots[id];
	memcpy(sl->path, path, len + 1);
	sl->node = (uint32_t)node;
	while (!(sqe = io_uring_get_sqe(&q->ring)))
		io_uring_submit(&q->ring);
	io_uring_prep_statx(sqe, s->root, sl->path, STAT_FLAGS, STAT_MASK,
			    &sl->st);
	io_uring_sqe_set_data64(sqe, id);
	if (++q->queued >= QD / 2) {
		io_uring_submit(&q->ring);
		q->queued = 0;
	}
}

static void uq_finish(struct uq *q, const struct share *s)
{
	while (q->n_free < QD)
		uq_reap(q, s);
	io_uring_queue_exit(&q->ring);
	free(q->slots);
}
#endif

/* Nodes [from, to): each one's path is its parent's and its name, so
 * the first one's ancestors are found first. */
static void *stat_range(void *arg)
{
	const struct share *s = arg;
	const struct ltd_rindex *x = s->x;
	size_t off[LTD_RINDEX_MAX_DEPTH + 1];
	uint32_t chain[LTD_RINDEX_MAX_DEPTH + 1];
	_cleanup_free_ char *path = malloc(PATH_MAX);
	unsigned d = x->v[s->from].depth;
	size_t i = s->from;
	struct statx st;
#ifdef LTD_HAVE_LIBURING
	struct uq q;
	bool ring = s->to - s->from >= 1024 && uq_init(&q);
#endif

	if (!path)
		return NULL;
	/* The first node's ancestors, from the root down. */
	for (size_t j = i; d > 1;) {
		while (x->v[--j].depth != d - 1)
			;
		chain[--d] = (uint32_t)j;
	}
	off[0] = 0;
	for (unsigned k = 1; k < x->v[i].depth; k++) {
		const struct ltd_rnode *v = &x->v[chain[k]];
		size_t at = k > 1 ? off[k - 1] + 1 : 0;

		off[k] = at + v->name_len;
		if (off[k] < PATH_MAX) {
			if (k > 1)
				path[at - 1] = '/';
			memcpy(path + at, x->names + v->name, v->name_len);
		}
	}
	for (; i < s->to; i++) {
		const struct ltd_rnode *v = &x->v[i];
		unsigned k = v->depth;
		size_t at = k > 1 ? off[k - 1] + 1 : 0;

		off[k] = at + v->name_len;
		s->holds[i] = 0;
		if (off[k] >= PATH_MAX || (k > 1 && off[k - 1] >= PATH_MAX))
			continue;
		if (k > 1)
			path[at - 1] = '/';
		memcpy(path + at, x->names + v->name, v->name_len);
		path[off[k]] = '\0';
		if (v->flags & (LTD_RN_NOFACT | LTD_RN_RACY))
			continue;
#ifdef LTD_HAVE_LIBURING
		if (ring && off[k] < SLOT_PATH) {
			uq_statx(&q, s, path, off[k], i);
			continue;
		}
#endif
		if (statx(s->root, path, STAT_FLAGS, STAT_MASK, &st) == 0)
			stat_check(s, &st, i);
	}
#ifdef LTD_HAVE_LIBURING
	if (ring)
		uq_finish(&q, s);
#endif
	return NULL;
}

void ltd_rindex_statx(const struct ltd_rindex *x, int root, uint64_t mnt_id,
		      uint8_t *holds, unsigned threads)
{
	struct share sh[8];
	pthread_t tid[8];
	bool started[8] = {false};
	size_t per;

	if (x->n < 2)
		return;
	if (threads < 1)
		threads = 1;
	if (threads > 8)
		threads = 8;
	/* Below a few thousand, a thread costs more than it saves. */
	if (x->n < 4096)
		threads = 1;
	per = (x->n - 1 + threads - 1) / threads;
	for (unsigned t = 0; t < threads; t++) {
		size_t from = 1 + t * per, to = from + per;

		sh[t] = (struct share){x,     root, mnt_id,
				       holds, from, to > x->n ? x->n : to};
		if (sh[t].from >= sh[t].to)
			continue;
		if (t + 1 < threads &&
		    pthread_create(&tid[t], NULL, stat_range, &sh[t]) == 0)
			started[t] = true;
		else
			stat_range(&sh[t]);
	}
	for (unsigned t = 0; t < threads; t++)
		if (started[t])
			pthread_join(tid[t], NULL);
}
