/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The mount plan: an ordered list of typed mount operations that builds the
 * cage's root.  Built in the launcher by a pure function of the policy and a
 * few facts about the host (ltd_hostfs), checked there, and executed in the
 * cage by runtime/mounts.c.  Order is application order: a later entry may
 * cover an earlier one, as with bubblewrap.
 */
#ifndef LTD_MOUNTPLAN_H
#define LTD_MOUNTPLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "policy/policy.h"
#include "protect/protected.h"
#include "review/overlay.h"

enum ltd_plan_op {
	LTD_OP_BIND_RO, /* host src -> dst, recursively read-only */
	LTD_OP_BIND_RW, /* host src -> dst */
	LTD_OP_DEV,	/* host device node src -> dst (keeps device access) */
	LTD_OP_TMPFS,	/* fresh tmpfs at dst with mode */
	LTD_OP_SYMLINK, /* symlink dst -> src (target text) */
	LTD_OP_FILE,	/* regular file dst with content, in a tmpfs */
	LTD_OP_PROC,	/* fresh procfs of the cage's pid namespace */
	LTD_OP_DEVPTS,	/* new devpts instance */
	LTD_OP_MASK,	/* hide dst: /dev/null over a file, empty ro tmpfs
			   over a directory */
	LTD_OP_RO_OVER, /* make what the cage sees at dst read-only (bind
			   it over itself) */
	LTD_OP_SEAL,	/* set the mount whose root is dst read-only */
	LTD_OP_PIN,	/* bind what the cage sees at dst over itself, so it
			   cannot be renamed or removed (a mount point) */
	LTD_OP_COPY,	/* copy host file or tree src to dst, in a tmpfs
			   (disposable; no link followed) */
	LTD_OP_SCRATCH, /* a directory of the root tmpfs at dst (mode),
			   bound over itself writable: /tmp, $HOME and
			   /dev/shm share the root's superblock and its cap
			   (docs/decisions/0114-one-tmpfs-for-the-cage.md) */
	LTD_OP_OVERLAY, /* --review: an overlay at dst, src (the project)
			   below, the review's upper above (layers) */
};

enum {
	LTD_PF_CREATE = 1 << 0,	  /* may create the mount point (in a tmpfs) */
	LTD_PF_OPTIONAL = 1 << 1, /* skip when dst (or src) is missing */
	LTD_PF_NO_LANDLOCK = 1 << 2, /* no Landlock rule (test only: shows
					that Landlock holds on its own) */
};

struct ltd_plan_entry {
	enum ltd_plan_op op;
	char *src;     /* host path, symlink target or NULL */
	char *dst;     /* absolute path inside the cage */
	char *content; /* LTD_OP_FILE */
	size_t len;    /* LTD_OP_FILE: bytes of content (may hold NULs) */
	mode_t mode;   /* LTD_OP_TMPFS, LTD_OP_FILE, LTD_OP_SCRATCH */
	uint64_t size; /* LTD_OP_TMPFS: size= in bytes, 0 = kernel default */
	unsigned flags;
	const char *why; /* where it came from: "rootfs", "--bind", ... */
	long cover;	 /* index of the entry whose mount holds dst, or -1
			    for the root tmpfs; set by ltd_plan_build() */
	const struct ltd_review_layers *layers; /* LTD_OP_OVERLAY */
};

struct ltd_plan {
	struct ltd_plan_entry *e;
	size_t n;
	uint64_t root_size; /* size= of the root tmpfs, which holds the
			       scratch places: --memory (0: kernel default) */
};

/* A pinned root filesystem's top level and /etc, from its manifest. */
struct ltd_pinned_ent {
	char type;    /* 'd', 'f' or 'l' */
	char *name;   /* "usr", "os-release" */
	char *target; /* 'l' */
	char *data;   /* 'f' in /etc, small: copied (len bytes); else bound */
	size_t len;
	mode_t mode;
};

struct ltd_pinned {
	char *tree; /* real path of the entry's tree in the store */
	struct ltd_pinned_ent *top, *etc;
	size_t n_top, n_etc;
};

/* What the host's root looks like, gathered by ltd_hostfs_probe(). */
#define LTD_HOSTFS_MAX 32
struct ltd_hostfs {
	/* top-level /bin, /sbin, /lib*: a symlink (target) or a directory */
	struct {
		char name[16];
		char target[64]; /* "" for a directory */
	} top[8];
	size_t n_top;
	/* /etc entries that exist on this host, from a fixed list: a symlink
	 * is recreated inside as a symlink, a small regular file is copied
	 * (data, len), a directory is bound read-only.  A mount costs more
	 * start-up time than a copy. */
	char etc[LTD_HOSTFS_MAX][32];
	char etc_link[LTD_HOSTFS_MAX][128];
	char *etc_data[LTD_HOSTFS_MAX];
	size_t etc_len[LTD_HOSTFS_MAX];
	size_t n_etc;
	/* the host's resolver configuration, for --network host only */
	char resolv_conf[2048];
	/* --rootfs: the root comes from this store entry instead. */
	const struct ltd_pinned *pinned;
	/* --review: the project is this overlay (review/run.h). */
	const struct ltd_review_layers *review;
};

/* Copy files up to this size; bind bigger ones (a bind costs ~10 us, a
 * copy of 40 KiB into a tmpfs more). */
#define LTD_HOSTFS_COPY_MAX (8 * 1024)

int ltd_hostfs_probe(struct ltd_hostfs *h, struct ltd_err *err);
void ltd_hostfs_free(struct ltd_hostfs *h);

/* Pure: build the plan.  Host facts come only from @h, @p and @prot (the
 * paths kept read-only in the project, protect/). */
int ltd_plan_build(const struct ltd_policy *p, const struct ltd_protected *prot,
		   const struct ltd_hostfs *h, struct ltd_plan *plan,
		   struct ltd_err *err);

/*
 * Check the plan against the host before any namespace exists: every host
 * source exists, and every mount point that lies inside a host-backed bind
 * already exists there (ltd-native never creates files on the host).
 */
int ltd_plan_check_host(const struct ltd_plan *plan, struct ltd_err *err);

void ltd_plan_free(struct ltd_plan *plan);

const char *ltd_plan_op_name(enum ltd_plan_op op);

#endif
