// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Git repositories planted in the project (see repos.h): the walk.
 *
 * One walk, after the cage is gone: every directory is opened beneath the
 * one above it (or beneath the root) with openat2 (no link, no other
 * mount), so the walk goes nowhere the command could send it.  What a
 * directory holds that matters is the same for every directory, read or
 * known: its child directories, and whether it holds HEAD, objects, refs
 * or commondir, or a .git that is not a directory (entry_flags());
 * repojudge.c judges the git directories and .git files.
 *
 * With an index of the previous walk (repoindex.h, decision 0129), a
 * directory whose inode and ctime equal its node's is known without
 * reading it: its children are looked at (one statx each, made for the
 * whole index up front on every CPU), and it is opened only to judge a
 * git directory or a .git file there, as on every run.  Any other
 * directory (changed, new, racy, unknown) is read whole, and its
 * children matched with the index's by name, each trusted only as far as
 * its own inode and ctime say.  The walk writes what it found as the
 * next index when it differs from the previous one (what it did not
 * look in listed without facts: a later walk judges what it finds there
 * as new, decision 0159); until the tree first differs from the index,
 * its index is the previous one, not a copy (decision 0155: every page
 * touched costs a fault).
 */
#include "protect/repos.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/sha256.h"
#include "protect/agentinstr.h"
#include "protect/githookspath.h"
#include "protect/gitwalk.h"
#include "protect/repoindex.h"
#include "protect/repowalk.h"

#define NONE UINT32_MAX

static void say(struct walk *w, const char *name, const char *what)
{
	ltd_repos_say_at(w, NULL, name, what, NULL);
}

/* The current directory, relative to the root ("." for the root). */
static const char *here(const struct walk *w)
{
	const char *r = w->path + w->root_len;

	return r[0] == '/' ? r + 1 : ".";
}

/* @name in @dir, or (@dir < 0) the current directory's @name beneath the
 * root (@name NULL: the current directory). */
static int open_dir(struct walk *w, int dir, const char *name)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
	};

	if (dir < 0) {
		dir = w->root;
		name = here(w);
	}
	return (int)syscall(SYS_openat2, dir, name, &how, sizeof(how));
}

/* What an entry tells of its directory: the one test for every
 * directory the walk reads, whose result the index keeps. */
static unsigned entry_flags(const char *name, bool is_dir)
{
	if (!strcmp(name, "HEAD"))
		return LTD_RN_HEAD;
	/* git asks only that these be reachable, of any type. */
	if (!strcmp(name, "commondir") || !strcmp(name, "objects") ||
	    !strcmp(name, "refs"))
		return LTD_RN_MAKES;
	if (!is_dir && !strcmp(name, ".git"))
		return LTD_RN_GITFILE;
	/* A link the sweep follows (repoagentsweep.c). */
	if (!is_dir && !strcmp(name, ".claude"))
		return LTD_RN_CLAUDE;
	if (!strcmp(name, ".mcp.json"))
		return LTD_RN_MCP;
	return 0;
}

/* A directory's entries as the walk needs them: its flags, and its
 * child directories' names (each ended by a NUL), in the order read. */
struct listing {
	unsigned flags;
	bool whole; /* read to its end */
	bool instr; /* an agent's instruction file's name (repoagent.c) */
	char *names;
	size_t len, cap, n;
};

#define DENTS_SIZE 32768

static int list_add(struct listing *l, const char *name)
{
	size_t n = strlen(name) + 1;

	if (l->len + n > l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 1024;
		char *s;

		while (cap < l->len + n)
			cap *= 2;
		if (!(s = realloc(l->names, cap)))
			return -ENOMEM;
		l->names = s;
		l->cap = cap;
	}
	memcpy(l->names + l->len, name, n);
	l->len += n;
	l->n++;
	return 0;
}

/* Read the directory at @fd whole (getdents64: opendir() would cost two
 * fcntl and an fstat a directory). */
static void list_read(struct walk *w, int fd, struct listing *l)
{
	long len;

	l->whole = true;
	while ((len = syscall(SYS_getdents64, fd, w->dents, DENTS_SIZE)) > 0) {
		for (long off = 0; off < len;) {
			struct dirent64 *e = (void *)(w->dents + off);
			unsigned char type = e->d_type;
			struct stat st;

			off += e->d_reclen;
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			if (type == DT_UNKNOWN) {
				if (fstatat(fd, e->d_name, &st,
					    AT_SYMLINK_NOFOLLOW) < 0)
					continue;
				type = S_ISDIR(st.st_mode) ? DT_DIR : DT_REG;
			}
			l->flags |= entry_flags(e->d_name, type == DT_DIR);
			/* An instruction file, a .claude that is no
			 * directory, a .mcp.json (repoagent.c judges them). */
			if (type != DT_DIR && !l->instr)
				l->instr =
					ltd_agentinstr_who(e->d_name) != NULL ||
					!strcmp(e->d_name, ".claude") ||
					!strcmp(e->d_name, ".mcp.json");
			if (type == DT_DIR && list_add(l, e->d_name) < 0)
				l->whole = false;
		}
	}
	if (len < 0)
		l->whole = false;
}

/* This walk's index becomes its own: the previous one's first @upto
 * nodes copied whole, then its nodes up to w->same (at most the one
 * being entered) with their names and depths only, no facts yet. */
static void own_index(struct walk *w, uint32_t upto)
{
	const struct ltd_rindex *x = w->old;
	uint32_t at;

	w->shadow = false;
	for (uint32_t i = 1; i < w->same; i++)
		if (ltd_rindex_add(w->new, ltd_rindex_name(x, i),
				   x->v[i].name_len, x->v[i].depth, &at) < 0) {
			w->new_lost = true;
			return;
		}
	for (uint32_t i = 0; i < upto; i++) {
		w->new->v[i].ino = x->v[i].ino;
		w->new->v[i].ctime = x->v[i].ctime;
		w->new->v[i].flags = x->v[i].flags;
	}
}

/* A node of this walk's index for @name at @depth, with no facts yet:
 * NONE when none is kept. */
static uint32_t record(struct walk *w, const char *name, unsigned depth)
{
	size_t len = strlen(name);
	uint32_t at;

	if (!w->new || w->new_lost)
		return NONE;
	if (w->shadow) {
		/* Every directory so far was a known one, whose children
		 * come from the index in its order; but a node past the
		 * depth limit is listed without its children, which an
		 * index may hold even for a node without facts (a
		 * directory once not read whole): the next name met is
		 * then not the index's next node. */
		const struct ltd_rnode *o = &w->old->v[w->same];

		if (w->same < w->old->n && o->depth == depth &&
		    o->name_len == len &&
		    !memcmp(ltd_rindex_name(w->old, w->same), name, len))
			return w->same++;
		own_index(w, w->same);
		if (w->new_lost)
			return NONE;
	}
	if (ltd_rindex_add(w->new, name, len, depth, &at) < 0) {
		w->new_lost = true;
		return NONE;
	}
	return at;
}

/* This walk's node @rec, to be given facts; NULL when none is kept, or
 * while it is the previous walk's node at the same place and its facts
 * are to be those of the previous walk's node @same_as. */
static struct ltd_rnode *to_set(struct walk *w, uint32_t rec, uint32_t same_as)
{
	if (rec == NONE)
		return NULL;
	if (w->shadow) {
		if (rec == same_as)
			return NULL;
		own_index(w, rec);
	}
	return !w->new_lost && rec < w->new->n ? &w->new->v[rec] : NULL;
}

/* This walk's node @rec keeps no facts (the directory was not read). */
static void no_facts(struct walk *w, uint32_t rec)
{
	const struct ltd_rnode *o;

	if (rec == NONE || !w->shadow)
		return;
	o = &w->old->v[rec];
	if (o->ino || o->ctime || o->flags != LTD_RN_NOFACT)
		own_index(w, rec);
}

static void enter(struct walk *w, int dir, const char *name, uint32_t old,
		  unsigned depth);

/* The previous walk read the directory (@l: read now; @old its node) and
 * did not find it a git directory. */
static bool not_a_gitdir(const struct walk *w, const struct listing *l,
			 uint32_t old)
{
	unsigned f;

	if (!l || old == NONE)
		return false;
	f = w->old->v[old].flags;
	return !(f & LTD_RN_NOFACT) && (f & (LTD_RN_HEAD | LTD_RN_MAKES)) !=
					       (LTD_RN_HEAD | LTD_RN_MAKES);
}

/* What the directory (@fd, or -1: not opened yet) holds, @flags and its
 * children (@l, or the index's children of @old when @l is NULL): a
 * .git file judged, the children entered, a git directory judged. */
static void visit(struct walk *w, int fd, unsigned flags,
		  const struct listing *l, uint32_t old, unsigned depth)
{
	_cleanup_free_ uint32_t *kids = NULL;
	size_t len = strlen(w->path);
	unsigned long n_unseen = w->n_unseen;
	long n_kids = 0;
	char name[NAME_MAX + 1];

	if ((flags & (LTD_RN_GITFILE | LTD_RN_HEAD)) && fd < 0)
		fd = open_dir(w, -1, NULL);
	if ((flags & LTD_RN_GITFILE) && fd >= 0)
		ltd_repos_judge_gitfile(w, fd, false);
	else if (w->lower >= 0 && fd >= 0)
		ltd_repos_judge_below(w, fd);
	if (!l) {
		const struct ltd_rindex *x = w->old;

		for (uint32_t j = old + 1; j < x->end[old]; j = x->end[j]) {
			memcpy(name, ltd_rindex_name(x, j), x->v[j].name_len);
			name[x->v[j].name_len] = '\0';
			w->up_read = false;
			enter(w, fd, name, j, depth + 1);
		}
	} else {
		if (old != NONE &&
		    (n_kids = ltd_rindex_children(w->old, old, &kids)) < 0)
			n_kids = 0;
		for (const char *s = l->names; s < l->names + l->len;
		     s += strlen(s) + 1) {
			w->up_read = true;
			enter(w, fd, s,
			      n_kids ? ltd_rindex_find(w->old, kids,
						       (size_t)n_kids, s)
				     : NONE,
			      depth + 1);
		}
	}
	/* A review's upper: the index is not kept there (see report()). */
	if (w->lower >= 0 && (flags & (LTD_RN_HEAD | LTD_RN_MAKES)) !=
				     (LTD_RN_HEAD | LTD_RN_MAKES))
		flags = ltd_repos_lower_makes(w, flags);
	if ((flags & LTD_RN_HEAD) && (flags & LTD_RN_MAKES) && fd >= 0 &&
	    !((w->skip & LTD_REPOS_SKIP_ROOT) && len == w->root_len) &&
	    !((w->skip & LTD_REPOS_SKIP_ROOT_GIT) &&
	      !strcmp(w->path + w->root_len, "/.git")))
		ltd_repos_judge_gitdir(w, fd,
				       w->n_unseen != n_unseen ||
					       not_a_gitdir(w, l, old));
	/* Once what it holds was walked under the names the command gave. */
	if (l && fd >= 0)
		ltd_repos_judge_agent(w, fd, old, l->instr);
	ltd_closep(&fd);
}

/* The directory at @fd (w->path; closed here), read: its facts (the
 * ctime before the entries) into this walk's node @rec. */
static void read_dir(struct walk *w, int fd, uint32_t old, uint32_t rec,
		     unsigned depth)
{
	struct listing l = {0};
	struct ltd_rnode *v;
	struct stat st;
	bool facts = fstat(fd, &st) == 0;

	w->n_read++;
	list_read(w, fd, &l);
	if ((v = to_set(w, rec, NONE))) {
		v->flags = (uint8_t)l.flags;
		if (facts && l.whole) {
			v->ino = st.st_ino;
			v->ctime = ltd_rindex_ns(st.st_ctim.tv_sec,
						 (uint32_t)st.st_ctim.tv_nsec);
			if (ltd_rindex_racy(st.st_ctim.tv_sec,
					    (uint32_t)st.st_ctim.tv_nsec, w->t0,
					    w->lim.racy_ns))
				v->flags |= LTD_RN_RACY;
		} else {
			v->flags |= LTD_RN_NOFACT;
		}
	}
	visit(w, fd, l.flags, &l, old, depth);
	free(l.names);
}

/* The directory known from the index's node @old, as it was (@fd: open
 * already, or -1). */
static void known(struct walk *w, int fd, uint32_t old, uint32_t rec,
		  unsigned depth)
{
	const struct ltd_rnode *o = &w->old->v[old];
	struct ltd_rnode *v = to_set(w, rec, old);

	if (v) {
		v->ino = o->ino;
		v->ctime = o->ctime;
		v->flags = o->flags;
	}
	visit(w, fd, o->flags, NULL, old, depth);
}

/* Whether the index's node @old still holds for the current directory. */
static bool holds(const struct walk *w, uint32_t old)
{
	return w->old && old != NONE && w->holds[old];
}

/*
 * The directory at @fd, to be read (@old its node in the index), holds
 * what no earlier walk looked at, made before this run perhaps, which
 * "changed during the run" would not say: judged as new (decision 0159).
 * Its node has no facts (the walk that wrote the index could not open
 * it, or did not: past the depth or directory limit, a path too long);
 * or, when the index lists such a directory (a place a tree could come
 * from), the index knew no directory of this inode at this place and
 * its ctime moved during the run: a tree moved up from where the walk
 * did not look keeps the ctimes of the run that made it.
 */
static bool unseen(struct walk *w, int fd, uint32_t old)
{
	struct stat st;

	if (!w->old || (!w->since.tv_sec && !w->since.tv_nsec))
		return false; /* no index, or judged as new already */
	if (old != NONE && (w->old->v[old].flags & LTD_RN_NOFACT))
		return true;
	if (fstat(fd, &st) < 0 ||
	    (old != NONE && w->old->v[old].ino == st.st_ino) ||
	    st.st_ctim.tv_sec < w->since.tv_sec ||
	    (st.st_ctim.tv_sec == w->since.tv_sec &&
	     st.st_ctim.tv_nsec < w->since.tv_nsec))
		return false;
	/* Once a walk, and only here: a directory the user made between
	 * two runs is new to the index too. */
	for (size_t i = 0; w->old_hid < 0 && i <= w->old->n; i++)
		if (i == w->old->n || (w->old->v[i].flags & LTD_RN_NOFACT))
			w->old_hid = i < w->old->n;
	return w->old_hid > 0;
}

/* @name, a directory in @dir (-1: not opened; @name is then found from
 * the root), one level below @depth; @old its node in the index. */
static void enter(struct walk *w, int dir, const char *name, uint32_t old,
		  unsigned depth)
{
	size_t len = strlen(w->path), n = strlen(name);
	struct timespec since;
	unsigned agent = w->agent;
	uint32_t rec;
	struct stat st;
	bool hid;
	int fd;

	/* Listed whatever comes of it: a child not read now (past a
	 * limit too) is one to look at next time, as new (unseen()). */
	rec = record(w, name, depth);
	if (w->full) {
		no_facts(w, rec);
		return;
	}
	if (depth > w->lim.depth || len + 1 + n >= sizeof(w->path)) {
		if (!w->n_deep++)
			snprintf(w->deep, sizeof(w->deep), "%s", w->path);
		no_facts(w, rec);
		return;
	}
	if (w->dirs >= w->lim.dirs) {
		w->full = true;
		no_facts(w, rec);
		return;
	}
	w->path[len] = '/';
	memcpy(w->path + len + 1, name, n + 1);
	if (holds(w, old)) {
		w->dirs++;
		known(w, -1, old, rec, depth);
		w->path[len] = '\0';
		return;
	}
	fd = open_dir(w, dir, dir < 0 ? NULL : name);
	if (fd < 0) {
		/* A mount (EXDEV), or gone.  One the user may read but the
		 * walk may not is said on every run: what it hides could
		 * have been planted in any run since it was closed. */
		bool said = errno == EACCES &&
			    (fstatat(dir < 0 ? w->root : dir,
				     dir < 0 ? here(w) : name, &st,
				     AT_SYMLINK_NOFOLLOW) < 0 ||
			     st.st_uid == geteuid());

		w->path[len] = '\0';
		no_facts(w, rec);
		w->n_shut += said;
		if (said)
			say(w, name,
			    "ltd-native cannot look in this directory (its "
			    "permissions) for git repositories, or Claude "
			    "Code's places and agents' instruction files, the "
			    "command may have planted");
		return;
	}
	w->dirs++;
	since = w->since;
	/* Judged against the run's start (the one above's since) before
	 * what it holds is judged as new. */
	hid = unseen(w, fd, old);
	ltd_repos_agent_enter(w, fd, old, hid);
	if (hid) {
		w->since = (struct timespec){0, 0};
		w->n_unseen++;
	}
	read_dir(w, fd, old, rec, depth);
	w->since = since;
	w->agent = agent;
	w->path[len] = '\0';
}

/* Filesystems whose directories' ctime moves with every change of their
 * entries, in nanoseconds or at worst seconds (LTD_RINDEX_RACY_NS covers
 * a second): the index is kept on these only.  Not FAT (two seconds),
 * network and FUSE filesystems (a server's clock, cached attributes),
 * overlayfs (a lower layer's directory). */
bool ltd_repos_indexable(int fd)
{
	static const long ok[] = {
		EXT4_SUPER_MAGIC, XFS_SUPER_MAGIC,	BTRFS_SUPER_MAGIC,
		TMPFS_MAGIC,	  0x2fc12fc1 /* zfs */, F2FS_SUPER_MAGIC,
	};
	struct statfs sf;

	if (fstatfs(fd, &sf) < 0)
		return false;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if ((long)sf.f_type == ok[i])
			return true;
	return false;
}

static unsigned cpus(void)
{
	cpu_set_t set;
	int n;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return 1;
	n = CPU_COUNT(&set);
	return n < 1 ? 1 : n > 4 ? 4 : (unsigned)n;
}

/* The index's file for @root in @dir: the SHA-256 of its path. */
void ltd_repos_index_name(const char *root, char name[LTD_SHA256_HEX_LEN + 1])
{
	ltd_sha256_hex(root, strlen(root), name);
}

/* The previous walk's index of the root at @fd, and what statx says of
 * its nodes now; this walk's index started.  Nothing is kept (w->old,
 * w->new NULL) where it cannot be. */
static void index_start(struct walk *w, int fd, int dir, const char *name,
			struct ltd_rindex *old, struct ltd_rindex *new,
			uint8_t **holds)
{
	struct statx st;
	uint64_t dev;
	uint32_t at;

	if (dir < 0 || !ltd_repos_indexable(fd) ||
	    statx(fd, "", AT_EMPTY_PATH, STATX_INO | STATX_MNT_ID, &st) < 0 ||
	    !(st.stx_mask & STATX_MNT_ID))
		return;
	dev = makedev(st.stx_dev_major, st.stx_dev_minor);
	*new = (struct ltd_rindex){.dev = dev, .ino = st.stx_ino};
	if (ltd_rindex_add(new, "", 0, 0, &at) < 0)
		return;
	w->new = new;
	if (ltd_rindex_load(dir, name, dev, st.stx_ino, old) < 0)
		return;
	/* As big as the last one and a little more: no growing on the way. */
	ltd_rindex_reserve(new, old->n + 256, old->names_len + 4096);
	if (!(*holds = calloc(old->n, 1))) {
		ltd_rindex_free(old);
		return;
	}
	/* The root through its descriptor; the rest by their paths. */
	{
		struct stat rs;

		if (fstat(fd, &rs) == 0)
			(*holds)[0] = ltd_rindex_same(
				&old->v[0],
				&(struct ltd_rstat){
					.ino = rs.st_ino,
					.sec = rs.st_ctim.tv_sec,
					.nsec = (uint32_t)rs.st_ctim.tv_nsec,
					.ok = true,
				});
	}
	ltd_rindex_statx(old, fd, st.stx_mnt_id, *holds, cpus());
	w->old = old;
	w->holds = *holds;
	/* The roots are alike (tree_of()): node 0 of both. */
	w->shadow = true;
	w->same = 1;
}

/* The root, at @fd (closed here): known or read, as any directory. */
static void walk_root(struct walk *w, int fd)
{
	uint32_t rec = w->new ? 0 : NONE;

	if (holds(w, 0)) {
		known(w, fd, 0, rec, 0);
	} else {
		read_dir(w, fd, w->old ? 0 : NONE, rec, 0);
	}
}

/* What the walk could not do, said once each. */
static void say_limits(struct walk *w, const char *root)
{
	char what[384];

	memcpy(w->path, root, w->root_len + 1);
	if (w->full) {
		snprintf(what, sizeof(what),
			 "ltd-native stopped after %lu directories looking for "
			 "git repositories, or Claude Code's places and "
			 "agents' instruction files, the command may have "
			 "planted",
			 w->lim.dirs);
		say(w, NULL, what);
	}
	if (w->n_deep) {
		memcpy(w->path, w->deep, sizeof(w->path));
		snprintf(what, sizeof(what),
			 "ltd-native did not look below it for git "
			 "repositories, or Claude Code's places and agents' "
			 "instruction files, the command may have planted "
			 "(deeper than %u directories or a longer path; %lu "
			 "such place%s)",
			 w->lim.depth, w->n_deep, w->n_deep == 1 ? "" : "s");
		say(w, NULL, what);
	}
	if (w->default_hooks_lost ||
	    (w->default_hooks && w->default_hooks->over)) {
		memcpy(w->path, root, w->root_len + 1);
		snprintf(what, sizeof(what),
			 "ltd-native did not look for hooks under every "
			 "core.hooksPath your system and global git "
			 "configuration set (more than %d relative ones, or "
			 "more than %d files to read): in a repository that "
			 "sets none, the command may have planted one there",
			 LTD_GIT_HOOKS_PATHS_MAX, LTD_GIT_MAX_CONFIG_FILES);
		say(w, NULL, what);
	}
	if ((w->full || w->n_deep || w->n_shut) && (!w->new || w->new_lost)) {
		memcpy(w->path, root, w->root_len + 1);
		say(w, NULL,
		    "ltd-native keeps no index of its walk here, so once it "
		    "can look where it could not, it will not tell what the "
		    "command hid there: review those places yourself");
	}
	if (w->over) {
		/* The project's, not the too-deep place named above. */
		memcpy(w->path, root, w->root_len + 1);
		w->said = 0;
		snprintf(what, sizeof(what),
			 "and %lu more warnings about git repositories, or "
			 "Claude Code's places and agents' instruction files, "
			 "the command may have planted here, not shown",
			 w->over);
		say(w, NULL, what);
	}
}

/* What a walk is given besides its root: see ltd_repos_report(). */
struct walk_args {
	FILE *out;
	int lower; /* ltd_repos_report_upper()'s, or -1 */
	unsigned skip;
	struct timespec since;
	const struct ltd_repos_limits *lim;
	int index_dir; /* -1: none (always with a lower) */
	void (*hook_fn)(void *ctx, const char *rel);
	void *hook_ctx;
};

/* The walk of the directory @fd (a negative errno: it could not be
 * opened), shown as @root. */
static void report(int fd, const char *root, const struct walk_args *a);

/* @path opened as the walk's root: no link on the way. */
static int open_root(int at, const char *path)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS,
	};
	int fd = (int)syscall(SYS_openat2, at, path, &how, sizeof(how));

	return fd < 0 ? -errno : fd;
}

void ltd_repos_report(FILE *out, const char *root, unsigned skip,
		      struct timespec since, const struct ltd_repos_limits *lim,
		      int index_dir)
{
	report(open_root(AT_FDCWD, root), root,
	       &(struct walk_args){.out = out,
				   .lower = -1,
				   .skip = skip,
				   .since = since,
				   .lim = lim,
				   .index_dir = index_dir});
}

void ltd_repos_report_upper(FILE *out, const char *upper, const char *project,
			    unsigned skip, struct timespec since,
			    const struct ltd_repos_limits *lim)
{
	int lower = open_root(AT_FDCWD, project);

	if (lower >= 0) {
		report(open_root(AT_FDCWD, upper), project,
		       &(struct walk_args){.out = out,
					   .lower = lower,
					   .skip = skip,
					   .since = since,
					   .lim = lim,
					   .index_dir = -1});
		close(lower);
	}
}

void ltd_repos_upper_hooks(int upper, int project, const char *project_path,
			   void (*fn)(void *ctx, const char *rel), void *ctx)
{
	int lower = open_root(project, ".");

	if (lower >= 0) {
		report(open_root(upper, "."), project_path,
		       &(struct walk_args){.lower = lower,
					   .index_dir = -1,
					   .hook_fn = fn,
					   .hook_ctx = ctx});
		close(lower);
	}
}

/* The walk's state for @a, shown as @root; false when it cannot be. */
static bool walk_init(struct walk *w, const char *root,
		      const struct walk_args *a)
{
	w->out = a->out;
	w->since = a->since;
	w->skip = a->skip;
	w->lower = a->lower;
	w->lower_dir = -1;
	w->old_hid = -1;
	w->hook_fn = a->hook_fn;
	w->hook_ctx = a->hook_ctx;
	w->lim = a->lim ? *a->lim
			: (struct ltd_repos_limits){LTD_REPOS_MAX_DEPTH,
						    LTD_REPOS_MAX_DIRS, 0};
	if (w->lim.racy_ns <= 0)
		w->lim.racy_ns = LTD_RINDEX_RACY_NS;
	w->root_len = strlen(root);
	if (w->root_len >= sizeof(w->path))
		return false;
	memcpy(w->path, root, w->root_len + 1);
	return true;
}

static void report(int fd, const char *root, const struct walk_args *a)
{
	_cleanup_free_ struct walk *w = calloc(1, sizeof(*w));
	struct ltd_rindex old = {0}, new = {0};
	_cleanup_free_ uint8_t *holds = NULL;
	char name[LTD_SHA256_HEX_LEN + 1];

	if (!w || !walk_init(w, root, a)) {
		if (fd >= 0)
			close(fd);
		return;
	}
	if (fd < 0 || (w->root = dup(fd)) < 0) {
		ltd_repos_say_at(w, NULL, NULL,
				 "ltd-native could not look in it for git "
				 "repositories the command may have planted",
				 strerror(fd < 0 ? -fd : errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	if (!(w->dents = malloc(DENTS_SIZE))) {
		close(fd);
		close(w->root);
		return;
	}
	clock_gettime(CLOCK_REALTIME, &w->t0);
	ltd_repos_index_name(root, name);
	if (w->lim.depth < LTD_RINDEX_MAX_DEPTH)
		index_start(w, fd, a->index_dir, name, &old, &new, &holds);
	walk_root(w, fd);
	ltd_repos_agent_sweep(w);
	say_limits(w, root);
	/* Whole (past the limits, what the walk did not look in is listed
	 * without facts) and not the previous one (the shadow ended: a
	 * directory was read, or a node lost its facts). */
	if (w->new && !w->shadow && !w->new_lost)
		ltd_rindex_store(a->index_dir, name, w->new);
	ltd_rindex_free(&old);
	ltd_rindex_free(&new);
	close(w->root);
	if (w->lower_dir >= 0)
		close(w->lower_dir);
	free(w->dents);
	free(w->default_hooks);
}
