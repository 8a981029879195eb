/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The planted-repository walk's index (docs/decisions/0127-exit-walk-
 * index.md): what the previous walk learnt of each directory of a tree,
 * so that the next one reads (getdents) only the directories that changed
 * since and looks at the others with one statx each.
 *
 * A node is a fact about one inode: "when directory (dev, ino) had this
 * ctime, its entries were these" (the child directories, in the order
 * read, each a node of its own; and whether it held HEAD, objects/refs/
 * commondir, a .git that is not a directory).  Any change of a
 * directory's entries (create, unlink, rename in or out, a link) moves
 * its ctime, which a process can move forward but never set back; so a
 * directory whose identity and ctime equal its node's still has the
 * entries the node lists, wherever it now lies, and the next walk trusts
 * the node and reads only its children's statx.  The ctime is read
 * (fstat) before the entries (getdents): a change between the two leaves
 * a node that only looks older.  A ctime not clearly older than the walk
 * (LTD_RINDEX_RACY_NS: the clock's tick, a second on filesystems that
 * keep seconds) is racy: a change in the same tick would leave it equal,
 * so the node is kept as one to read again (as git does with racy index
 * entries).  A child the walk could not read (its permissions, another
 * mount, too deep, past the directory limit) is listed with no facts:
 * looked at again every time, and what the walk finds there once it can
 * is judged as new (repos.c's unseen(), decision 0159).
 *
 * The file: a header (magic, version, node size, the root's dev and ino,
 * counts, the SHA-256 of all the rest), the nodes in depth-first order
 * (each with its depth), their names.  Anything that does not decode to
 * exactly that is no index: the walk reads every directory, as with none.
 * It is kept in ltd-native's own state directory (never in the tree it
 * describes), written to a temporary file and renamed into place, so two
 * runs on one project leave one whole index or the other.
 */
#ifndef LTD_REPOINDEX_H
#define LTD_REPOINDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define LTD_RINDEX_VERSION 2
/* A ctime this close to the walk's start (or later) is racy. */
#define LTD_RINDEX_RACY_NS 2000000000LL
/* Filled by the walk from its entries, the same way for every directory. */
#define LTD_RN_HEAD    0x01u /* HEAD, of any type */
#define LTD_RN_MAKES   0x02u /* objects, refs or commondir, of any type */
#define LTD_RN_GITFILE 0x04u /* a .git that is not a directory */
#define LTD_RN_NOFACT  0x08u /* not read (or not whole): read it next time */
#define LTD_RN_RACY    0x10u /* ctime too recent to trust next time */
#define LTD_RN_CLAUDE  0x20u /* a .claude that is not a directory */
#define LTD_RN_MCP     0x40u /* a .mcp.json (Claude Code's MCP servers) */
#define LTD_RN_ALL     0x7fu
/* Deeper than the walk ever looks (LTD_REPOS_MAX_DEPTH and one). */
#define LTD_RINDEX_MAX_DEPTH 1024

/* 24 bytes (version 1's were 32): a 20,000-directory index and the one a
 * walk builds are each ~40 pages smaller, and every page a walk touches
 * costs a fault. */
struct ltd_rnode {
	uint64_t ino;
	uint64_t ctime;	  /* ltd_rindex_ns() of the ctime */
	uint32_t name;	  /* offset in names */
	uint16_t depth;	  /* 0: the root */
	uint8_t name_len; /* 0 for the root only; NAME_MAX fits */
	uint8_t flags;	  /* LTD_RN_* */
};

/* A ctime as one number: nanoseconds since the epoch (modulo 2^64, so
 * that no value overflows; two ctimes 584 years apart would compare
 * equal). */
static inline uint64_t ltd_rindex_ns(int64_t sec, uint32_t nsec)
{
	return (uint64_t)sec * 1000000000u + nsec;
}

struct ltd_rindex {
	uint64_t dev, ino; /* the root's */
	struct ltd_rnode *v;
	size_t n, cap;
	char *names;
	size_t names_len, names_cap;
	uint32_t *end; /* decoded: one past node i's subtree */
	char *blob;    /* decoded: the file's bytes, v and names lie in */
	size_t blob_len;
	bool mapped; /* blob is the file's mapping (read-only), not malloc'd */
};

/* What one statx said of a node's path now. */
struct ltd_rstat {
	uint64_t ino;
	int64_t sec;
	uint32_t nsec;
	bool ok; /* a directory on the root's filesystem and mount */
};

/* Append a node (@name of @len bytes at @depth) and say where (@at);
 * -ENOMEM, or -EINVAL for a name that is not one. */
int ltd_rindex_add(struct ltd_rindex *x, const char *name, size_t len,
		   unsigned depth, uint32_t *at);

/* Room for @n nodes and @names_len bytes of names (not for a decoded
 * index: -EINVAL). */
int ltd_rindex_reserve(struct ltd_rindex *x, size_t n, size_t names_len);

/* The file's bytes (malloc'd). */
int ltd_rindex_encode(const struct ltd_rindex *x, void **buf, size_t *len);

/* @buf as an index of the root (@dev, @ino), or -EINVAL: anything short,
 * long, of another version or root, with a wrong checksum, or whose
 * nodes do not make one tree. */
int ltd_rindex_decode(const void *buf, size_t len, uint64_t dev, uint64_t ino,
		      struct ltd_rindex *x);

/* @name in the directory @dir (a regular file of ours, no link), mapped
 * read-only (a file cut short under the mapping would be SIGBUS: the
 * state directory is the user's alone, and ltd_rindex_store() never
 * writes a file in place); a negative errno when there is none to use. */
int ltd_rindex_load(int dir, const char *name, uint64_t dev, uint64_t ino,
		    struct ltd_rindex *x);

/* @name in @dir is an index of this version for the root @dev/@ino, by
 * its header alone (no checksum: ltd_rindex_load() checks the whole). */
bool ltd_rindex_is_of(int dir, const char *name, uint64_t dev, uint64_t ino);

/* Replace @name in @dir with @x: a temporary file renamed into place. */
int ltd_rindex_store(int dir, const char *name, const struct ltd_rindex *x);

void ltd_rindex_free(struct ltd_rindex *x);

/* The node's name (not terminated; name_len bytes). */
static inline const char *ltd_rindex_name(const struct ltd_rindex *x,
					  uint32_t i)
{
	return x->names + x->v[i].name;
}

/* The children of node @i (decoded), sorted by name into @out
 * (malloc'd); their count, or -ENOMEM. */
long ltd_rindex_children(const struct ltd_rindex *x, uint32_t i,
			 uint32_t **out);

/* The child named @name among @kids (from ltd_rindex_children()), or
 * UINT32_MAX. */
uint32_t ltd_rindex_find(const struct ltd_rindex *x, const uint32_t *kids,
			 size_t n, const char *name);

/* The node still holds: it has facts, not racy, and the directory now
 * has its inode and its ctime. */
bool ltd_rindex_same(const struct ltd_rnode *node, const struct ltd_rstat *now);

/* A ctime not clearly older than @t0 (the walk's start): less than
 * @margin ns before it. */
bool ltd_rindex_racy(int64_t sec, uint32_t nsec, struct timespec t0,
		     long long margin);

/* One statx of every node of @x but the root with facts (its path from
 * @root, the last component not followed), on @threads threads; @mnt_id,
 * x->dev: the root's.  @holds (x->n bytes, zeroed) says which nodes still
 * hold (ltd_rindex_same()): a byte, not the statx's 24, a node (a 20,000-
 * directory walk touched 117 more pages for them, each a fault). */
void ltd_rindex_statx(const struct ltd_rindex *x, int root, uint64_t mnt_id,
		      uint8_t *holds, unsigned threads);

#endif
