// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Build the mount plan.  Pure: everything it knows about the host comes in
 * through struct ltd_hostfs, so tests can feed it any host they like.
 */
#include "runtime/mountplan.h"

#include "common/cleanup.h"
#include "dnsd/dnsd.h"
#include "netfilter/pasta.h"

#include <errno.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/base.h"
#include "common/path.h"
#include "common/vec.h"

/* Device nodes bound from the host; nothing else of /dev goes in. */
static const char *const dev_nodes[] = {"null",	  "zero",    "full",
					"random", "urandom", "tty"};

/* /proc entries that leak host state or poke the kernel.  Masked while
 * init may still be in the host's network namespace (--network none joins
 * the helper's just before pivot_root): nothing here may be per network
 * namespace (/proc/sys/net, /proc/net), or its mask would land on the
 * host's entries and not apply in the cage. */
static const char *const proc_masked[] = {
	"/proc/kcore",	      "/proc/keys",	   "/proc/latency_stats",
	"/proc/timer_list",   "/proc/sched_debug", "/proc/sysrq-trigger",
	"/proc/kallsyms",     "/proc/kpagecount",  "/proc/kpageflags",
	"/proc/kpagecgroup",  "/proc/config.gz",   "/proc/acpi",
	"/proc/scsi",	      "/proc/asound",	   "/proc/firmware",
	"/proc/driver",	      "/proc/kmsg",	   "/proc/slabinfo",
	"/proc/pagetypeinfo", "/proc/vmallocinfo", "/proc/buddyinfo",
};
static const char *const proc_ro[] = {"/proc/sys", "/proc/irq", "/proc/bus",
				      "/proc/fs"};

const char *ltd_plan_op_name(enum ltd_plan_op op)
{
	static const char *const names[] = {
		[LTD_OP_BIND_RO] = "ro-bind", [LTD_OP_BIND_RW] = "bind",
		[LTD_OP_DEV] = "dev",	      [LTD_OP_TMPFS] = "tmpfs",
		[LTD_OP_SYMLINK] = "symlink", [LTD_OP_FILE] = "file",
		[LTD_OP_PROC] = "proc",	      [LTD_OP_DEVPTS] = "devpts",
		[LTD_OP_MASK] = "mask",	      [LTD_OP_RO_OVER] = "ro-over",
		[LTD_OP_SEAL] = "seal",	      [LTD_OP_PIN] = "pin",
		[LTD_OP_COPY] = "copy",	      [LTD_OP_SCRATCH] = "scratch",
		[LTD_OP_OVERLAY] = "overlay",
	};

	return op < ARRAY_SIZE(names) ? names[op] : "?";
}

static int add(struct ltd_plan *plan, enum ltd_plan_op op, const char *src,
	       const char *dst, const char *why, struct ltd_err *err)
{
	struct ltd_plan_entry *e;

	e = ltd_vec_push(&plan->e, plan->n);
	if (!e)
		return ltd_err_set(err, ENOMEM, "out of memory");
	*e = (struct ltd_plan_entry){.op = op, .why = why, .cover = -1};
	e->dst = strdup(dst);
	e->src = src ? strdup(src) : NULL;
	if (!e->dst || (src && !e->src)) {
		free(e->dst);
		free(e->src);
		return ltd_err_set(err, ENOMEM, "out of memory");
	}
	plan->n++;
	return 0;
}

/* add() returning the new entry, or NULL with @err filled. */
static struct ltd_plan_entry *add_e(struct ltd_plan *plan, enum ltd_plan_op op,
				    const char *src, const char *dst,
				    const char *why, struct ltd_err *err)
{
	return add(plan, op, src, dst, why, err) < 0 ? NULL
						     : &plan->e[plan->n - 1];
}

static int add_file(struct ltd_plan *plan, const char *dst, char *content,
		    mode_t mode, struct ltd_err *err)
{
	struct ltd_plan_entry *e;

	if (!content)
		return ltd_err_set(err, ENOMEM, "out of memory");
	e = add_e(plan, LTD_OP_FILE, NULL, dst, "generated", err);
	if (!e) {
		free(content);
		return -ENOMEM;
	}
	e->content = content;
	e->len = strlen(content);
	e->mode = mode;
	return 0;
}

/* A copy of a host file: @data holds @len bytes, NULs allowed. */
static int add_copy(struct ltd_plan *plan, const char *dst, const char *data,
		    size_t len, struct ltd_err *err)
{
	struct ltd_plan_entry *e;
	char *copy = malloc(len + 1);

	if (!copy)
		return ltd_err_set(err, ENOMEM, "out of memory");
	memcpy(copy, data, len);
	copy[len] = '\0';
	e = add_e(plan, LTD_OP_FILE, NULL, dst, "rootfs", err);
	if (!e) {
		free(copy);
		return -ENOMEM;
	}
	e->content = copy;
	e->len = len;
	e->mode = 0644;
	return 0;
}

/* @size 0: the kernel's default (half of RAM), only for tmpfs mounts the
 * command cannot write (none today: the root is sealed). */
static int add_tmpfs(struct ltd_plan *plan, const char *dst, mode_t mode,
		     uint64_t size, const char *why, struct ltd_err *err)
{
	struct ltd_plan_entry *e =
		add_e(plan, LTD_OP_TMPFS, NULL, dst, why, err);

	if (!e)
		return -ENOMEM;
	e->mode = mode;
	e->size = size;
	return 0;
}

/* A writable place of the root tmpfs (its cap: plan->root_size). */
static int add_scratch(struct ltd_plan *plan, const char *dst, mode_t mode,
		       const char *why, struct ltd_err *err)
{
	struct ltd_plan_entry *e =
		add_e(plan, LTD_OP_SCRATCH, NULL, dst, why, err);

	if (!e)
		return -ENOMEM;
	e->mode = mode;
	return 0;
}

static char *passwd_content(const struct ltd_identity *id)
{
	char *s = NULL;

	if (asprintf(&s,
		     "%s:x:%u:%u:%s:%s:%s\n"
		     "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/"
		     "nologin\n",
		     id->user, (unsigned)id->uid, (unsigned)id->gid, id->user,
		     id->home, id->shell) < 0)
		return NULL;
	return s;
}

static char *group_content(const struct ltd_identity *id)
{
	char *s = NULL;

	if (asprintf(&s, "%s:x:%u:\nnogroup:x:65534:\n", id->group,
		     (unsigned)id->gid) < 0)
		return NULL;
	return s;
}

/*
 * With a host port allowed, the host is the gateway address, under the
 * names tools expect from Docker too.  With a port published, localhost
 * is 127.0.0.1 alone: a server that listens on "localhost" then listens
 * where a published port leads (pasta brings a connection from the host's
 * 127.0.0.1 to the cage's; a server on the cage's ::1 only, as Node picks
 * for "localhost", would not be reached).  See
 * docs/decisions/0111-publish-through-pasta.md.
 */
static char *hosts_content(const char *hostname, bool host_names,
			   bool v4_localhost)
{
	char *s = NULL;

	if (asprintf(&s,
		     "127.0.0.1\tlocalhost %s\n"
		     "::1\t%sip6-localhost ip6-loopback\n%s",
		     hostname, v4_localhost ? "" : "localhost ",
		     host_names ? LTD_NET_GW4 "\t" LTD_NET_HOST_NAME
					      " " LTD_NET_HOST_NAME_DOCKER "\n"
				: "") < 0)
		return NULL;
	return s;
}

/* The image's top-level entries that the cage makes itself. */
static bool pinned_skips_top(const char *name)
{
	static const char *const own[] = {"dev", "proc", "sys",
					  "tmp", "home", "etc"};

	for (size_t i = 0; i < ARRAY_SIZE(own); i++)
		if (strcmp(name, own[i]) == 0)
			return true;
	return false;
}

/* Generated over the image's (plan_generated_etc). */
static bool pinned_skips_etc(const char *name)
{
	static const char *const gen[] = {"passwd", "group", "hosts",
					  "hostname", "resolv.conf"};

	for (size_t i = 0; i < ARRAY_SIZE(gen); i++)
		if (strcmp(name, gen[i]) == 0)
			return true;
	return false;
}

static int plan_pinned_ent(struct ltd_plan *plan, const char *tree,
			   const char *dir, const struct ltd_pinned_ent *e,
			   struct ltd_err *err)
{
	char dst[PATH_MAX], src[PATH_MAX];
	struct ltd_plan_entry *pe;

	if (ltd_path_join(dst, sizeof(dst), dir, e->name) < 0 ||
	    ltd_path_fmt(src, sizeof(src), "%s%s", tree, dst) < 0)
		return ltd_err_set(err, ENAMETOOLONG,
				   "--rootfs: '%s/%s' is too long a path", dir,
				   e->name);
	if (e->type == 'l')
		return add(plan, LTD_OP_SYMLINK, e->target, dst, "--rootfs",
			   err);
	if (e->data) {
		if (add_copy(plan, dst, e->data, e->len, err) < 0)
			return -ENOMEM;
		pe = &plan->e[plan->n - 1];
		pe->why = "--rootfs";
		pe->mode = e->mode;
		return 0;
	}
	return add(plan, LTD_OP_BIND_RO, src, dst, "--rootfs", err);
}

/*
 * A pinned root: the root stays a fresh tmpfs of ours, and the image's
 * top-level directories are bound into it read-only, its links recreated;
 * its /etc is a directory of that tmpfs holding the image's entries
 * (small files copied, the rest bound), so that the generated files can
 * sit beside them.  The image's /dev, /proc, /sys, /tmp and /home are the
 * cage's own.
 */
static int plan_pinned(struct ltd_plan *plan, const struct ltd_pinned *pin,
		       struct ltd_err *err)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < pin->n_top; i++)
		if (!pinned_skips_top(pin->top[i].name))
			ret = plan_pinned_ent(plan, pin->tree, "", &pin->top[i],
					      err);
	for (size_t i = 0; !ret && i < pin->n_etc; i++)
		if (!pinned_skips_etc(pin->etc[i].name))
			ret = plan_pinned_ent(plan, pin->tree, "/etc",
					      &pin->etc[i], err);
	return ret;
}

static int plan_rootfs(struct ltd_plan *plan, const struct ltd_hostfs *h,
		       struct ltd_err *err)
{
	char path[64];
	int ret;

	if (h->pinned)
		return plan_pinned(plan, h->pinned, err);
	ret = add(plan, LTD_OP_BIND_RO, "/usr", "/usr", "rootfs", err);
	for (size_t i = 0; ret == 0 && i < h->n_top; i++) {
		snprintf(path, sizeof(path), "/%s", h->top[i].name);
		if (h->top[i].target[0])
			ret = add(plan, LTD_OP_SYMLINK, h->top[i].target, path,
				  "rootfs", err);
		else
			ret = add(plan, LTD_OP_BIND_RO, path, path, "rootfs",
				  err);
	}
	/* A link (os-release, localtime) is recreated as the same text: it
	 * resolves inside the cage as it does on the host, without a mount. */
	for (size_t i = 0; ret == 0 && i < h->n_etc; i++) {
		snprintf(path, sizeof(path), "/etc/%s", h->etc[i]);
		if (h->etc_link[i][0])
			ret = add(plan, LTD_OP_SYMLINK, h->etc_link[i], path,
				  "rootfs", err);
		else if (h->etc_data[i])
			ret = add_copy(plan, path, h->etc_data[i],
				       h->etc_len[i], err);
		else
			ret = add(plan, LTD_OP_BIND_RO, path, path, "rootfs",
				  err);
	}
	/* Probed a moment ago: a source that vanished since is skipped. */
	for (size_t i = 0; ret == 0 && i < plan->n; i++)
		plan->e[i].flags |= LTD_PF_OPTIONAL;
	return ret;
}

static int plan_generated_etc(struct ltd_plan *plan, const struct ltd_policy *p,
			      const struct ltd_hostfs *h, struct ltd_err *err)
{
	const char *host = p->hostname ? p->hostname : LTD_DEFAULT_HOSTNAME;
	char *name = NULL;
	int ret;

	ret = add_file(plan, "/etc/passwd", passwd_content(&p->id), 0644, err);
	if (!ret)
		ret = add_file(plan, "/etc/group", group_content(&p->id), 0644,
			       err);
	if (!ret)
		ret = add_file(plan, "/etc/hosts",
			       hosts_content(host,
					     p->network == LTD_NET_ALLOWLIST &&
						     p->n_host_ports,
					     p->n_publish > 0),
			       0644, err);
	if (!ret && asprintf(&name, "%s\n", host) >= 0)
		ret = add_file(plan, "/etc/hostname", name, 0644, err);
	else if (!ret)
		ret = ltd_err_set(err, ENOMEM, "out of memory");
	/* No resolver in --network none: say so rather than point anywhere.
	 * In allowlist mode, the launcher's DNS filter (dnsd/dnsd.h). */
	if (!ret && p->network == LTD_NET_ALLOWLIST)
		ret = add_file(plan, "/etc/resolv.conf",
			       strdup("# ltd-native: the DNS filter (names "
				      "outside the allowlist are refused)\n"
				      "nameserver " LTD_DNS_ADDR4 "\n"),
			       0644, err);
	else if (!ret && p->network == LTD_NET_HOST)
		ret = add_file(plan, "/etc/resolv.conf", strdup(h->resolv_conf),
			       0644, err);
	else if (!ret)
		ret = add_file(
			plan, "/etc/resolv.conf",
			strdup("# ltd-native: no DNS (--network none)\n"), 0644,
			err);
	return ret;
}

static int plan_dev(struct ltd_plan *plan, struct ltd_err *err)
{
	static const char *const links[][2] = {
		{"/proc/self/fd", "/dev/fd"},
		{"/proc/self/fd/0", "/dev/stdin"},
		{"/proc/self/fd/1", "/dev/stdout"},
		{"/proc/self/fd/2", "/dev/stderr"},
		{"pts/ptmx", "/dev/ptmx"},
	};
	char path[32];
	int ret;

	/* /dev is a directory of the root tmpfs (sealed read-only with it),
	 * not a tmpfs of its own: one mount less at every start. */
	ret = 0;
	for (size_t i = 0; !ret && i < ARRAY_SIZE(dev_nodes); i++) {
		snprintf(path, sizeof(path), "/dev/%s", dev_nodes[i]);
		ret = add(plan, LTD_OP_DEV, path, path, "dev", err);
	}
	for (size_t i = 0; !ret && i < ARRAY_SIZE(links); i++)
		ret = add(plan, LTD_OP_SYMLINK, links[i][0], links[i][1], "dev",
			  err);
	if (!ret)
		ret = add(plan, LTD_OP_DEVPTS, NULL, "/dev/pts", "dev", err);
	if (!ret)
		ret = add_scratch(plan, "/dev/shm", 01777, "dev", err);
	return ret;
}

static int plan_proc(struct ltd_plan *plan, struct ltd_err *err)
{
	int ret = add(plan, LTD_OP_PROC, NULL, "/proc", "proc", err);

	for (size_t i = 0; !ret && i < ARRAY_SIZE(proc_masked); i++)
		ret = add(plan, LTD_OP_MASK, NULL, proc_masked[i], "proc", err);
	for (size_t i = 0; !ret && i < ARRAY_SIZE(proc_ro); i++)
		ret = add(plan, LTD_OP_RO_OVER, NULL, proc_ro[i], "proc", err);
	/* Masks and read-only entries that this kernel lacks are skipped. */
	for (size_t i = 0; i < plan->n; i++)
		if (plan->e[i].op == LTD_OP_MASK ||
		    plan->e[i].op == LTD_OP_RO_OVER)
			plan->e[i].flags |= LTD_PF_OPTIONAL;
	return ret;
}

/*
 * The directories between the project and a protected path are pinned:
 * one moved aside would take the read-only path with it, and a new one in
 * its place would hold what the command wrote there.  (A pin is a bind of
 * the directory over itself; rename and rmdir of a mount point fail.)
 */
static int plan_protected_parents(struct ltd_plan *plan, const char *project,
				  const struct ltd_protected *prot,
				  struct ltd_err *err)
{
	for (size_t i = 0; i < prot->n; i++) {
		const char *path = prot->paths[i];
		const char *rel = ltd_path_below(path, project);

		if (!rel)
			continue;
		for (const char *c = strchr(rel, '/'); c;
		     c = strchr(c + 1, '/')) {
			_cleanup_free_ char *dir =
				strndup(path, (size_t)(c - path));
			struct ltd_plan_entry *e;
			bool planned = false;

			if (!dir)
				return ltd_err_set(err, ENOMEM,
						   "out of memory");
			for (size_t j = 0; j < plan->n && !planned; j++)
				planned = plan->e[j].op == LTD_OP_PIN &&
					  !strcmp(plan->e[j].dst, dir);
			if (planned || ltd_protected_has(prot, dir))
				continue;
			e = add_e(plan, LTD_OP_PIN, NULL, dir, "protected",
				  err);
			if (!e)
				return -ENOMEM;
			e->flags |= LTD_PF_OPTIONAL;
		}
	}
	return 0;
}

/*
 * The project, read-write; then .git pinned (a mount point cannot be renamed
 * or removed, so the read-only mounts below cannot be carried away with it)
 * and the paths git executes from made read-only.
 */
static int plan_project(struct ltd_plan *plan, const struct ltd_policy *p,
			const struct ltd_protected *prot,
			const struct ltd_hostfs *h, struct ltd_err *err)
{
	struct ltd_plan_entry *e;
	int ret;

	/* --review: the project below an overlay whose upper is the
	 * review's; protected paths are read-only on top of it all the
	 * same. */
	ret = add(plan, h->review ? LTD_OP_OVERLAY : LTD_OP_BIND_RW, p->project,
		  p->project, h->review ? "--review" : "--project", err);
	if (!ret && h->review)
		plan->e[plan->n - 1].layers = h->review;
	if (!ret)
		ret = plan_protected_parents(plan, p->project, prot, err);
	/* With git protected, [0] is .git: pinned, the rest read-only.  The
	 * project's policy directory is read-only either way. */
	for (size_t i = 0; !ret && i < prot->n; i++) {
		e = add_e(plan,
			  i == 0 && p->protect_git ? LTD_OP_PIN
						   : LTD_OP_RO_OVER,
			  NULL, prot->paths[i], "protected", err);
		if (!e)
			return -ENOMEM;
		e->flags |= LTD_PF_OPTIONAL;
	}
	return ret;
}

static int plan_user_mounts(struct ltd_plan *plan, const struct ltd_policy *p,
			    struct ltd_err *err)
{
	static const enum ltd_plan_op ops[] = {
		[LTD_UM_RO_BIND] = LTD_OP_BIND_RO,
		[LTD_UM_BIND] = LTD_OP_BIND_RW,
		[LTD_UM_TMPFS] = LTD_OP_TMPFS,
	};
	int ret = 0;

	for (size_t i = 0; !ret && i < p->n_mounts; i++) {
		const struct ltd_user_mount *m = &p->mounts[i];

		if (m->kind == LTD_UM_TMPFS)
			ret = add_tmpfs(plan, m->dst, 0755, p->memory_bytes,
					m->flag, err);
		else
			ret = add(plan, ops[m->kind], m->src, m->dst, m->flag,
				  err);
		if (!ret && strcmp(m->flag, LTD_TEST_LANDLOCK_HOLE) == 0)
			plan->e[plan->n - 1].flags |= LTD_PF_NO_LANDLOCK;
	}
	return ret;
}

/*
 * Generated files and the resolver's links, after every mount: each goes
 * into a tmpfs of the cage's own (the root, the home); one that a bind
 * would hold is an error of plan_resolve_covers(), never a write to the
 * host.  The root's are sealed read-only with it (a managed settings file
 * the command cannot change).
 */
static int plan_files(struct ltd_plan *plan, const struct ltd_policy *p,
		      struct ltd_err *err)
{
	for (size_t i = 0; i < p->n_files; i++) {
		const struct ltd_cage_file *f = &p->files[i];
		struct ltd_plan_entry *e;
		char *c;

		if (!f->mode) {
			if (add(plan, LTD_OP_SYMLINK, f->content, f->dst,
				f->why, err) < 0)
				return -ENOMEM;
			continue;
		}
		c = malloc(f->len + 1);
		if (!c)
			return ltd_err_set(err, ENOMEM, "out of memory");
		memcpy(c, f->content, f->len + 1);
		e = add_e(plan, LTD_OP_FILE, NULL, f->dst, f->why, err);
		if (!e) {
			free(c);
			return -ENOMEM;
		}
		e->content = c;
		e->len = f->len;
		e->mode = f->mode;
	}
	return 0;
}

static bool makes_mount(enum ltd_plan_op op)
{
	return op != LTD_OP_SYMLINK && op != LTD_OP_FILE && op != LTD_OP_SEAL &&
	       op != LTD_OP_COPY;
}

/* The strict tier's disposable copies, into the fresh home. */
static int plan_copies(struct ltd_plan *plan, const struct ltd_policy *p,
		       struct ltd_err *err)
{
	for (size_t i = 0; i < p->n_copies; i++) {
		struct ltd_plan_entry *e =
			add_e(plan, LTD_OP_COPY, p->copies[i].src,
			      p->copies[i].dst, "strict tier", err);

		if (!e)
			return -ENOMEM;
		e->flags |= LTD_PF_OPTIONAL; /* gone since: nothing to copy */
	}
	return 0;
}

/*
 * For each entry, find the mount that holds its mount point: the latest
 * earlier entry whose destination is dst or an ancestor of it.  A mount
 * point may be created only inside a tmpfs of ours; anywhere else it would
 * be created on the host (or in procfs, where it cannot be).
 */
static int plan_resolve_covers(struct ltd_plan *plan, struct ltd_err *err)
{
	for (size_t j = 0; j < plan->n; j++) {
		struct ltd_plan_entry *e = &plan->e[j];
		enum ltd_plan_op cover_op = LTD_OP_TMPFS; /* the root */

		e->cover = -1;
		for (size_t i = j; i-- > 0;) {
			if (makes_mount(plan->e[i].op) &&
			    ltd_path_is_under(e->dst, plan->e[i].dst)) {
				e->cover = (long)i;
				cover_op = plan->e[i].op;
				break;
			}
		}
		if (cover_op == LTD_OP_TMPFS || cover_op == LTD_OP_SCRATCH)
			e->flags |= LTD_PF_CREATE;
		else if (e->op == LTD_OP_FILE || e->op == LTD_OP_SYMLINK ||
			 e->op == LTD_OP_COPY)
			return ltd_err_set(err, EINVAL,
					   "%s: cannot create '%s' inside %s "
					   "'%s'",
					   e->why, e->dst,
					   ltd_plan_op_name(cover_op),
					   plan->e[e->cover].dst);
	}
	return 0;
}

int ltd_plan_build(const struct ltd_policy *p, const struct ltd_protected *prot,
		   const struct ltd_hostfs *h, struct ltd_plan *plan,
		   struct ltd_err *err)
{
	int ret;

	/* The root tmpfs holds what the command may write in memory (its
	 * scratch places): capped at --memory as a whole.
	 * docs/decisions/0114-one-tmpfs-for-the-cage.md */
	*plan = (struct ltd_plan){.root_size = p->memory_bytes};
	ret = plan_rootfs(plan, h, err);
	if (!ret)
		ret = plan_generated_etc(plan, p, h, err);
	if (!ret)
		ret = plan_dev(plan, err);
	if (!ret)
		ret = plan_proc(plan, err);
	/* /tmp, $HOME and /dev/shm are places of the root tmpfs, bound
	 * writable: no superblock each to make at start and kill at exit,
	 * and one cap, --memory, for all the command writes there (without
	 * a cgroup nothing else stops it filling the host's RAM: tmpfs
	 * pages are not process memory; with one, they are charged to the
	 * cage's memory.max as well).
	 * docs/decisions/0040-tmpfs-capped-at-memory.md,
	 * docs/decisions/0114-one-tmpfs-for-the-cage.md */
	if (!ret)
		ret = add_scratch(plan, "/tmp", 01777, "tmp", err);
	if (!ret)
		ret = add_scratch(plan, p->id.home, 0700, "home", err);
	if (!ret)
		ret = plan_copies(plan, p, err);
	if (!ret)
		ret = plan_project(plan, p, prot, h, err);
	if (!ret)
		ret = plan_user_mounts(plan, p, err);
	if (!ret)
		ret = plan_files(plan, p, err);
	if (!ret)
		ret = add(plan, LTD_OP_SEAL, NULL, "/", "rootfs", err);
	if (!ret)
		ret = plan_resolve_covers(plan, err);
	if (ret < 0)
		ltd_plan_free(plan);
	return ret;
}

void ltd_plan_free(struct ltd_plan *plan)
{
	for (size_t i = 0; i < plan->n; i++) {
		free(plan->e[i].src);
		free(plan->e[i].dst);
		free(plan->e[i].content);
	}
	free(plan->e);
	*plan = (struct ltd_plan){0};
}
