// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A git index the command wrote, read as git reads it (see gitindex.h).
 *
 * The layout is git's Documentation/gitformat-index.txt, read the way
 * read-cache.c's create_from_disk() reads it: a name's length is the one
 * in the entry's flags (but 0xfff: then up to its NUL), a v4 name is the
 * previous one less a varint's count of bytes, then a NUL-terminated
 * suffix.  What git would read differently from a plain sequential reading
 * is refused: a length in the flags that is not the name's, a v4 prefix
 * longer than the previous name, and an IEOT extension (git's threads read
 * the entries from its offsets, each block's first name uncompressed) that
 * does not name the entries' own blocks.
 */
#include "protect/gitindex.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/text.h"
#include "protect/protected.h"

#define NAMEMASK 0x0fffu
#define EXTENDED 0x4000u
/* ctime, mtime (8 each), dev, ino, mode, uid, gid, size (4 each). */
#define STAT_PART 40u
#define MODE_AT	  24u
#define MODE_DIR  0040000u

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* An HFS+ ignorable code point (git's utf8.c next_hfs_char()): its UTF-8
 * length at @s, 0 if none. */
static size_t hfs_ignorable(const unsigned char *s, size_t len)
{
	if (len >= 3 && s[0] == 0xe2 && s[1] == 0x80 &&
	    ((s[2] >= 0x8c && s[2] <= 0x8f) || (s[2] >= 0xaa && s[2] <= 0xae)))
		return 3;
	if (len >= 3 && s[0] == 0xe2 && s[1] == 0x81 && s[2] >= 0xaa &&
	    s[2] <= 0xaf)
		return 3;
	if (len >= 3 && s[0] == 0xef && s[1] == 0xbb && s[2] == 0xbf)
		return 3;
	return 0;
}

bool ltd_gitindex_is_dotgit(const char *name, size_t len)
{
	const unsigned char *s = (const unsigned char *)name;
	char c[16];
	size_t n = 0, k;

	/* NTFS: what follows a ':' is a stream of the file before it. */
	for (k = 0; k < len; k++)
		if (s[k] == ':') {
			len = k;
			break;
		}
	for (k = 0; k < len;) {
		size_t skip = hfs_ignorable(s + k, len - k);

		if (skip) {
			k += skip;
			continue;
		}
		if (n == sizeof(c))
			return false; /* longer than any name of .git */
		c[n++] = (char)s[k++];
	}
	/* NTFS drops trailing dots and spaces. */
	while (n && (c[n - 1] == '.' || c[n - 1] == ' '))
		n--;
	if (n == 4 && !strncasecmp(c, ".git", 4))
		return true;
	/* The 8.3 short name of .git, and its siblings'. */
	if (n >= 5 && !strncasecmp(c, "git~", 4)) {
		for (k = 4; k < n && c[k] >= '0' && c[k] <= '9'; k++)
			;
		return k == n;
	}
	return false;
}

/* @path (@len bytes, no NUL) is one git would add, for an entry of @mode. */
static const char *bad_path(const char *path, size_t len, uint32_t mode)
{
	size_t start = 0;

	/* A split index's entry that replaces one of the shared index
	 * has no name of its own (checked by extensions()). */
	if (!len)
		return NULL;
	if (path[0] == '/')
		return "an absolute path";
	/* A sparse index's directory entry: "dir/". */
	if ((mode & 0170000u) == MODE_DIR && len > 1 && path[len - 1] == '/')
		len--;
	for (size_t k = 0; k <= len; k++) {
		size_t n;

		if (k < len && path[k] != '/' && path[k] != '\\')
			continue;
		n = k - start;
		if (ltd_gitindex_is_dotgit(path + start, n))
			return "a component git takes for .git";
		if (k == len || path[k] == '/') {
			if (n == 0)
				return "an empty component";
			if ((n == 1 && path[start] == '.') ||
			    (n == 2 && path[start] == '.' &&
			     path[start + 1] == '.'))
				return "a . or .. component";
		}
		start = k + 1;
	}
	return NULL;
}

/* git's decode_varint() (each continuation adds one: 0x80 0x00 is 128):
 * 0 bytes read on overflow or at the end. */
static size_t varint(const unsigned char *p, size_t avail, uint64_t *out)
{
	uint64_t val;
	unsigned char c;
	size_t k = 0;

	if (!avail)
		return 0;
	c = p[k++];
	val = c & 127;
	while (c & 128) {
		val += 1;
		if (!val || val >> 57 || k >= avail)
			return 0;
		c = p[k++];
		val = (val << 7) + (c & 127);
	}
	*out = val;
	return k;
}

struct parse {
	const unsigned char *buf;
	size_t end; /* where the entries must end: before the checksum */
	uint32_t version, count;
	size_t hash; /* 20 or 32 */
	char name[PATH_MAX];
	char view[NAMEMASK + 1]; /* git_view()'s */
	size_t name_len;
	unsigned long nameless; /* entries without a name */
	size_t entries_end;	/* after the last entry */
	/* IEOT: git's blocks of entries (NULL: none). */
	const unsigned char *ieot;
	size_t ieot_n;
};

static int fault(struct ltd_gitindex_fault *f, const char *why,
		 const char *path, size_t len)
{
	f->why = why;
	if (len >= sizeof(f->path))
		len = sizeof(f->path) - 1;
	memcpy(f->path, path, len);
	f->path[len] = '\0';
	return -EINVAL;
}

/* A path fault: -EPERM (a layout that parses this far may be git's). */
static int refused(struct ltd_gitindex_fault *f, const char *why,
		   const char *path, size_t len)
{
	fault(f, why, path, len);
	return -EPERM;
}

/*
 * The name as git reads it (the length in the flags, but 0xfff), judged
 * before anything git does not check itself: @name (@avail bytes to the
 * end) after the @copied bytes of the previous name, for an entry whose
 * flags give @len.  git copies the bytes whatever they hold: the path is
 * the name up to a NUL in it.
 */
static int git_view(struct parse *p, const unsigned char *name, size_t avail,
		    size_t copied, size_t len, uint32_t mode,
		    struct ltd_gitindex_fault *f)
{
	char *v = p->view;
	const char *why;
	size_t n;

	if (len == NAMEMASK)
		return 0; /* to its NUL: the sequential reading's */
	if (len < copied || len - copied > avail)
		return fault(f,
			     "a name whose length is not the one its "
			     "entry gives",
			     p->name, copied);
	memcpy(v, p->name, copied);
	memcpy(v + copied, name, len - copied);
	n = strnlen(v, len);
	why = bad_path(v, n, mode);
	return why ? refused(f, why, v, n) : 0;
}

/* The entry at *@off, its name into p->name: *@off moved past it;
 * @copied: the bytes of the name a v4 entry took from the previous. */
static int entry(struct parse *p, size_t *off, size_t *copied,
		 struct ltd_gitindex_fault *f)
{
	size_t fixed = STAT_PART + p->hash + 2, at = *off, len, n, avail;
	const unsigned char *e = p->buf + at, *name, *nul;
	uint32_t flags, mode;
	uint64_t strip = 0;
	size_t vn = 0;
	const char *why;
	int ret;

	if (p->end - at < fixed)
		return fault(f, "an entry past the end of the file", "", 0);
	mode = be32(e + MODE_AT);
	flags = (uint32_t)e[fixed - 2] << 8 | e[fixed - 1];
	if (flags & EXTENDED) {
		if (p->version < 3)
			return fault(f, "extended flags in a version 2 index",
				     "", 0);
		fixed += 2;
		if (p->end - at < fixed)
			return fault(f, "an entry past the end of the file", "",
				     0);
	}
	name = e + fixed;
	len = flags & NAMEMASK;
	*copied = 0;
	if (p->version == 4) {
		vn = varint(name, p->end - at - fixed, &strip);
		if (!vn || strip > p->name_len)
			return fault(f,
				     "a name that strips more than the "
				     "previous one has",
				     p->name, p->name_len);
		name += vn;
		*copied = p->name_len - (size_t)strip;
	}
	avail = p->end - (size_t)(name - p->buf);
	ret = git_view(p, name, avail, *copied, len, mode, f);
	if (ret < 0)
		return ret;
	nul = memchr(name, 0, avail);
	if (!nul)
		return fault(f, "a name past the end of the file", "", 0);
	n = *copied + (size_t)(nul - name);
	if (n >= sizeof(p->name))
		return fault(f, "a name longer than a path can be", p->name,
			     *copied);
	memcpy(p->name + *copied, name, (size_t)(nul - name));
	p->name_len = n;
	p->nameless += !n;
	if (p->version == 4) {
		*off = (size_t)(nul - p->buf) + 1;
	} else {
		/* Padded with NULs to a multiple of 8 (git's writer). */
		size_t size = (fixed + n + 8) & ~(size_t)7;

		if (size > p->end - at)
			return fault(f, "an entry past the end of the file",
				     p->name, n);
		for (size_t k = fixed + n; k < size; k++)
			if (e[k])
				return fault(f,
					     "an entry's padding is not NULs",
					     p->name, n);
		*off = at + size;
	}
	/* git takes the length from the flags: it must be the name's. */
	if (len != NAMEMASK ? len != n : n < NAMEMASK)
		return fault(f,
			     "a name whose length is not the one its "
			     "entry gives",
			     p->name, n);
	why = bad_path(p->name, n, mode);
	return why ? refused(f, why, p->name, n) : 0;
}

/* The extensions after the entries: each within the file; the IEOT kept. */
static int extensions(struct parse *p, struct ltd_gitindex_fault *f)
{
	size_t at = p->entries_end;
	bool link = false;

	p->ieot = NULL;
	while (p->end - at >= 8) {
		uint32_t size = be32(p->buf + at + 4);
		const unsigned char *sig = p->buf + at;

		if (size > p->end - at - 8)
			return fault(f, "an extension past the end of the file",
				     "", 0);
		if (!memcmp(sig, "IEOT", 4)) {
			if (size < 4 || be32(sig + 8) != 1 || (size - 4) % 8)
				return fault(f,
					     "an IEOT extension git would "
					     "not read",
					     "", 0);
			p->ieot = sig + 12;
			p->ieot_n = (size - 4) / 8;
		}
		if (!memcmp(sig, "EOIE", 4) &&
		    (size < 4 || be32(sig + 8) != p->entries_end))
			return fault(f,
				     "an EOIE extension that does not point "
				     "after the entries",
				     "", 0);
		link = link || !memcmp(sig, "link", 4);
		at += 8 + size;
	}
	if (at != p->end)
		return fault(f, "an extension past the end of the file", "", 0);
	return p->nameless && !link ? refused(f, "an empty path", "", 0) : 0;
}

/* Every entry; the second time round (@blocks), against the IEOT's. */
static int entries(struct parse *p, bool blocks, struct ltd_gitindex_fault *f)
{
	size_t off = 12, copied, block = 0, next = 0;
	int ret;

	p->name_len = 0;
	for (uint32_t i = 0; i < p->count; i++) {
		size_t at = off;

		ret = entry(p, &off, &copied, f);
		if (ret < 0)
			return ret;
		if (!blocks || i != next)
			continue;
		/* A block of git's threads starts here: at this entry, with
		 * nothing taken from the previous name. */
		if (block >= p->ieot_n || be32(p->ieot + block * 8) != at ||
		    copied || !be32(p->ieot + block * 8 + 4))
			return fault(f,
				     "an IEOT extension that does not name "
				     "the entries' blocks",
				     p->name, p->name_len);
		next += be32(p->ieot + block * 8 + 4);
		block++;
	}
	p->entries_end = off;
	if (blocks && (block != p->ieot_n || next != p->count))
		return fault(f,
			     "an IEOT extension that does not name the "
			     "entries' blocks",
			     "", 0);
	return 0;
}

/* The index read with hashes of @hash bytes: 0, or 1 when it does not
 * parse (a layout git might not use), or -EINVAL for a path it refuses. */
static int check_as(const unsigned char *buf, size_t len, size_t hash,
		    struct ltd_gitindex_fault *f)
{
	_cleanup_free_ struct parse *p = calloc(1, sizeof(*p));
	int ret;

	if (!p) {
		fault(f, "out of memory", "", 0);
		return -EINVAL;
	}
	if (len < 12 + hash) {
		fault(f, "a file too short for an index", "", 0);
		return 1;
	}
	p->buf = buf;
	p->end = len - hash;
	p->version = be32(buf + 4);
	p->count = be32(buf + 8);
	p->hash = hash;
	ret = entries(p, false, f);
	/* A path git would refuse, in entries that parse so far: whether
	 * this is git's layout or not, refused. */
	if (ret == -EPERM)
		return -EINVAL;
	if (ret < 0)
		return 1;
	ret = extensions(p, f);
	if (ret == -EPERM)
		return -EINVAL;
	if (ret < 0)
		return 1;
	if (p->ieot && entries(p, true, f) < 0)
		return -EINVAL;
	return 0;
}

int ltd_gitindex_check(const void *buf, size_t len, bool sha256,
		       struct ltd_gitindex_fault *f)
{
	const unsigned char *b = buf;
	struct ltd_gitindex_fault g = {0};
	uint32_t version;
	int ret;

	*f = (struct ltd_gitindex_fault){0};
	if (len < 12 || memcmp(b, "DIRC", 4))
		return fault(f, "not an index (no DIRC)", "", 0);
	version = be32(b + 4);
	if (version < 2 || version > 4)
		return fault(f, "an index version git does not write", "", 0);
	ret = check_as(b, len, 20, f);
	if (ret <= 0)
		return ret;
	/* Read as SHA-1 it does not parse: as SHA-256, where the
	 * repository may be one. */
	if (sha256 && (ret = check_as(b, len, 32, &g)) <= 0) {
		if (ret < 0)
			*f = g;
		return ret;
	}
	if (!f->why)
		f->why = "entries that do not parse";
	return -EINVAL;
}

/* The config in @dir names SHA-256 (its objectformat; read loosely: any
 * mention lets the index be read as SHA-256 too). */
static bool config_names_sha256(int dir)
{
	char buf[65536];
	ssize_t n;
	int fd = openat(dir, "config",
			O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	for (ssize_t k = 0; k < n; k++)
		if (!buf[k])
			buf[k] = ' ';
	return strcasestr(buf, "sha256") != NULL;
}

/* The common directory of the linked worktree's git directory @gitdir,
 * or -1.  Its commondir file is the cage's to write: only what git itself
 * writes there is followed ("../..", no link, no other mount), and only
 * when @gitdir really sits in that directory's worktrees/, so no place
 * the cage names elsewhere on the host is ever opened or read. */
static int common_dir(int gitdir)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS |
			   RESOLVE_NO_XDEV,
	};
	struct stat parent, worktrees;
	char rel[16];
	ssize_t n;
	int fd = openat(gitdir, "commondir",
			O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, rel, sizeof(rel) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	rel[n] = '\0';
	if (strcmp(rel, "../..") && strcmp(rel, "../..\n") &&
	    strcmp(rel, "../../\n"))
		return -1;
	fd = (int)syscall(SYS_openat2, gitdir, "../..", &how, sizeof(how));
	if (fd < 0)
		return -1;
	if (fstatat(gitdir, "..", &parent, AT_SYMLINK_NOFOLLOW) < 0 ||
	    fstatat(fd, "worktrees", &worktrees, AT_SYMLINK_NOFOLLOW) < 0 ||
	    parent.st_dev != worktrees.st_dev ||
	    parent.st_ino != worktrees.st_ino) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The git directory @gitdir may be a SHA-256 repository's: its own
 * config says so, or, for a linked worktree's (which has none), its
 * common directory's.  Only the index's format depends on it: either way
 * each entry is checked the same. */
static bool maybe_sha256(int gitdir)
{
	bool yes;
	int common;

	if (config_names_sha256(gitdir))
		return true;
	common = common_dir(gitdir);
	if (common < 0)
		return false;
	yes = config_names_sha256(common);
	close(common);
	return yes;
}

/* What was found in @name of the git directory shown as @shown, and what
 * was done: moved aside to @to, or not (@ret < 0). */
static void say(FILE *out, const char *shown, const char *name,
		const struct ltd_gitindex_fault *f, const char *to, int ret)
{
	_cleanup_free_ char *line = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&line, &len);

	if (!m)
		return;
	fputs("ltd-native: warning: ", m);
	ltd_fput_shown(m, shown);
	fputc('/', m);
	ltd_fput_shown(m, name);
	fputs(": the command left in this git index ", m);
	fputs(f->why, m);
	if (f->path[0]) {
		fputs(" (", m);
		ltd_fput_shown(m, f->path);
		fputc(')', m);
	}
	fputs(", which git on the host would not check before it writes "
	      "that path (`git checkout -- .`: a hook in .git, or a file out "
	      "of the repository)",
	      m);
	if (ret < 0) {
		fprintf(m,
			", and it could NOT be moved aside (%s): remove it "
			"before you run git there on the host\n",
			strerror(-ret));
	} else {
		fputs(": moved ", m);
		ltd_fput_shown(m, name);
		fputs(" aside to ", m);
		ltd_fput_shown(m, to);
		fputs(" in its directory; review it, or run `git reset` there "
		      "to make the index again from HEAD (what was staged is "
		      "lost, the files are not)\n",
		      m);
	}
	if (fclose(m) == 0)
		fwrite(line, 1, len, out);
}

/* @name in @gitdir, when it changed from @since on: checked, and moved
 * aside when it fails. */
static void judge(FILE *out, int gitdir, const char *shown, const char *name,
		  struct timespec since)
{
	struct ltd_gitindex_fault f = {0};
	char to[NAME_MAX + 64];
	struct stat st;
	void *map;
	int fd, ret;

	if (fstatat(gitdir, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return;
	if (st.st_ctim.tv_sec < since.tv_sec ||
	    (st.st_ctim.tv_sec == since.tv_sec &&
	     st.st_ctim.tv_nsec < since.tv_nsec))
		return;
	if (!S_ISREG(st.st_mode)) {
		f.why = "a symbolic link or another file in place of an index "
			"(git follows it)";
	} else if ((fd = openat(gitdir, name,
				O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
					O_CLOEXEC)) < 0 ||
		   fstat(fd, &st) < 0) {
		f.why = "an index ltd-native could not read";
		if (fd >= 0)
			close(fd);
	} else {
		map = st.st_size ? mmap(NULL, (size_t)st.st_size, PROT_READ,
					MAP_PRIVATE, fd, 0)
				 : MAP_FAILED;
		close(fd);
		if (map == MAP_FAILED) {
			f.why = st.st_size
					? "an index ltd-native could not read"
					: "an empty index";
		} else {
			ret = ltd_gitindex_check(map, (size_t)st.st_size,
						 maybe_sha256(gitdir), &f);
			munmap(map, (size_t)st.st_size);
			if (!ret)
				return;
		}
	}
	ret = ltd_protected_move_aside(gitdir, name, to, sizeof(to));
	say(out, shown, name, &f, to, ret);
}

void ltd_gitindex_judge(FILE *out, int gitdir, const char *shown,
			struct timespec since)
{
	int fd = openat(gitdir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *e;
	DIR *d;

	judge(out, gitdir, shown, "index", since);
	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	/* A split index's entries are in sharedindex.<hash> too. */
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "sharedindex.", 12) &&
		    !strstr(e->d_name, ".ltd-native-quarantine"))
			judge(out, gitdir, shown, e->d_name, since);
	closedir(d);
}
