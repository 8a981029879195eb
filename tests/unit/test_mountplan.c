// SPDX-License-Identifier: GPL-2.0-or-later
/* The mount plan is a pure function of the policy and the host facts. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/path.h"
#include "runtime/mountplan.h"

static struct ltd_policy p;
static struct ltd_protected prot;
static struct ltd_hostfs host;
static struct ltd_plan plan;
static struct ltd_err err;

static void setup(void)
{
	ltd_policy_init(&p);
	p.project = strdup("/home/u/src/app");
	p.id = (struct ltd_identity){.uid = 1000,
				     .gid = 1000,
				     .user = strdup("u"),
				     .group = strdup("g"),
				     .home = strdup("/home/u"),
				     .shell = strdup("/bin/bash")};
	host = (struct ltd_hostfs){0};
	strcpy(host.top[0].name, "bin");
	strcpy(host.top[0].target, "usr/bin");
	strcpy(host.top[1].name, "lib64");
	host.top[1].target[0] = '\0'; /* a real directory */
	host.n_top = 2;
	strcpy(host.etc[0], "ld.so.cache");
	strcpy(host.etc[1], "ssl");
	host.n_etc = 2;
	memset(&err, 0, sizeof(err));
	memset(&plan, 0, sizeof(plan));
}

static void teardown(void)
{
	ltd_plan_free(&plan);
	ltd_policy_free(&p);
	ltd_protected_free(&prot);
}

TestSuite(mountplan, .init = setup, .fini = teardown);

static long find(enum ltd_plan_op op, const char *dst)
{
	for (size_t i = 0; i < plan.n; i++)
		if (plan.e[i].op == op && strcmp(plan.e[i].dst, dst) == 0)
			return (long)i;
	return -1;
}

static void add_user_mount(enum ltd_user_mount_kind kind, const char *src,
			   const char *dst)
{
	p.mounts = realloc(p.mounts, (p.n_mounts + 1) * sizeof(*p.mounts));
	p.mounts[p.n_mounts++] = (struct ltd_user_mount){
		.kind = kind,
		.src = src ? strdup(src) : NULL,
		.dst = strdup(dst),
		.flag = "bind",
	};
}

Test(mountplan, rootfs_from_host_facts)
{
	cr_assert_eq(ltd_plan_build(&p, &prot, &host, &plan, &err), 0, "%s",
		     err.msg);
	cr_assert_geq(find(LTD_OP_BIND_RO, "/usr"), 0);
	long bin = find(LTD_OP_SYMLINK, "/bin");
	cr_assert_geq(bin, 0);
	cr_assert_str_eq(plan.e[bin].src, "usr/bin");
	cr_assert_geq(find(LTD_OP_BIND_RO, "/lib64"), 0);
	cr_assert_geq(find(LTD_OP_BIND_RO, "/etc/ld.so.cache"), 0);
	cr_assert_geq(find(LTD_OP_BIND_RO, "/etc/ssl"), 0);
	/* Nothing the host facts did not name. */
	cr_assert_eq(find(LTD_OP_BIND_RO, "/etc/gitconfig"), -1);
	cr_assert_eq(find(LTD_OP_SYMLINK, "/sbin"), -1);
}

Test(mountplan, order_of_layers)
{
	cr_assert_eq(ltd_plan_build(&p, &prot, &host, &plan, &err), 0);
	long usr = find(LTD_OP_BIND_RO, "/usr");
	long passwd = find(LTD_OP_FILE, "/etc/passwd");
	long null = find(LTD_OP_DEV, "/dev/null");
	long proc = find(LTD_OP_PROC, "/proc");
	long kcore = find(LTD_OP_MASK, "/proc/kcore");
	long tmp = find(LTD_OP_SCRATCH, "/tmp");
	long home = find(LTD_OP_SCRATCH, "/home/u");
	long proj = find(LTD_OP_BIND_RW, "/home/u/src/app");
	long seal_root = find(LTD_OP_SEAL, "/");

	cr_assert(usr >= 0 && passwd > usr && null > passwd && proc > null &&
		  kcore > proc && tmp > kcore && home > tmp && proj > home &&
		  seal_root > proj);
	cr_assert_eq(find(LTD_OP_TMPFS, "/dev"), -1,
		     "/dev lives in the root tmpfs, sealed with it");
	cr_assert_eq((size_t)seal_root, plan.n - 1, "the root is sealed last");
}

Test(mountplan, user_mounts_come_after_the_project_in_order)
{
	add_user_mount(LTD_UM_TMPFS, NULL, "/a");
	add_user_mount(LTD_UM_RO_BIND, "/srv", "/a/b");
	cr_assert_eq(ltd_plan_build(&p, &prot, &host, &plan, &err), 0);
	long proj = find(LTD_OP_BIND_RW, "/home/u/src/app");
	long a = find(LTD_OP_TMPFS, "/a");
	long b = find(LTD_OP_BIND_RO, "/a/b");

	cr_assert(proj < a && a < b);
	cr_assert_eq(plan.e[b].cover, a);
	cr_assert(plan.e[b].flags & LTD_PF_CREATE, "inside our tmpfs");
}

Test(mountplan, project_inside_home_tmpfs_may_be_created)
{
	cr_assert_eq(ltd_plan_build(&p, &prot, &host, &plan, &err), 0);
	long home = find(LTD_OP_SCRATCH, "/home/u");
	long proj = find(LTD_OP_BIND_RW, "/home/u/src/app");

	cr_assert_eq(plan.e[proj].cover, home);
	cr_assert(plan.e[proj].flags & LTD_PF_CREATE);
}

Test(mountplan, mount_point_inside_a_host_bind_is_never_created)
{
	add_user_mount(LTD_UM_BIND, "/srv", "/home/u/src/app/data");
	add_user_mount(LTD_UM_TMPFS, NULL, "/usr/local/x");
	cr_assert_eq(ltd_plan_build(&p, &prot, &host, &plan, &err), 0);
	long proj = find(LTD_OP_BIND_RW, "/home/u/src/app");
	long data = find(LTD_OP_BIND_RW, "/home/u/src/app/data");
	long x = find(LTD_OP_TMPFS, "/usr/local/x");

	cr_assert_eq(plan.e[data].cover, proj);
	cr_assert_not(plan.e[data].flags & LTD_PF_CREATE);
	cr_assert_eq(plan.e[x].cover, find(LTD_OP_BIND_RO, "/usr"));
	cr_assert_not(plan.e[x].flags & LTD_PF_CREATE);
}

static void set_protected(void)
{
	static const char *paths[] = {"/home/u/src/app/.git",
				      "/home/u/src/app/.git/config",
				      "/home/u/src/app/.git/hooks"};

	for (int i = 0; i < 3; i++)
		cr_assert_eq(ltd_protected_add(&prot, paths[i], &err), 0);
}

Test(mountplan, protected_git_paths)
{
	set_protected();
	cr_assert_eq(ltd_plan_build(&p, &prot, &host, &plan, &err), 0);
	long hooks = find(LTD_OP_RO_OVER, "/home/u/src/app/.git/hooks");
	long config = find(LTD_OP_RO_OVER, "/home/u/src/app/.git/config");

	long git = find(LTD_OP_PIN, "/home/u/src/app/.git");

	cr_assert_gt(git, find(LTD_OP_BIND_RW, "/home/u/src/app"));
	cr_assert_gt(hooks, git, ".git is pinned before what is inside it");
	cr_assert(plan.e[git].flags & LTD_PF_OPTIONAL);
	cr_assert_geq(config, 0);
	cr_assert(plan.e[hooks].flags & LTD_PF_OPTIONAL);
	cr_assert_not(plan.e[hooks].flags & LTD_PF_CREATE);
}

/* --review: the project is an overlay instead of a bind, and the
 * protected paths are read-only on top of it all the same. */
Test(mountplan, review_overlay_with_protected_paths_on_top)
{
	struct ltd_review_layers layers = {0};

	set_protected();
	host.review = &layers;
	cr_assert_eq(ltd_plan_build(&p, &prot, &host, &plan, &err), 0);
	long ov = find(LTD_OP_OVERLAY, "/home/u/src/app");

	cr_assert_geq(ov, 0);
	cr_assert_lt(find(LTD_OP_BIND_RW, "/home/u/src/app"), 0,
		     "no writable bind of the project");
	cr_assert_eq(plan.e[ov].layers, &layers);
	cr_assert_gt(find(LTD_OP_RO_OVER, "/home/u/src/app/.git/hooks"), ov);
	cr_assert_gt(find(LTD_OP_PIN, "/home/u/src/app/.git"), ov);
	cr_assert_eq(plan.e[find(LTD_OP_RO_OVER, "/home/u/src/app/.git/hooks")]
			     .cover,
		     find(LTD_OP_PIN, "/home/u/src/app/.git"));
}

/* A directory between the project and a protected path is pinned (moved
 * aside, it would take the read-only file with it); .git only once. */
Test(mountplan, parents_of_protected_paths_are_pinned)
{
	static const char *paths[] = {"/home/u/src/app/.git",
				      "/home/u/src/app/.git/config",
				      "/home/u/src/app/.claude/settings.json",
				      "/home/u/src/app/tools/git/hooks"};
	size_t pins = 0;

	for (int i = 0; i < 4; i++)
		cr_assert_eq(ltd_protected_add(&prot, paths[i], &err), 0);
	cr_assert_eq(ltd_plan_build(&p, &prot, &host, &plan, &err), 0);
	long claude = find(LTD_OP_PIN, "/home/u/src/app/.claude");
	long tools = find(LTD_OP_PIN, "/home/u/src/app/tools");
	long tools_git = find(LTD_OP_PIN, "/home/u/src/app/tools/git");

	cr_assert_geq(claude, 0);
	cr_assert(plan.e[claude].flags & LTD_PF_OPTIONAL);
	cr_assert_gt(
		find(LTD_OP_RO_OVER, "/home/u/src/app/.claude/settings.json"),
		claude, "the parent first");
	cr_assert_gt(tools_git, tools);
	cr_assert_lt(find(LTD_OP_PIN, "/home/u/src/app/tools/git/hooks"), 0,
		     "the protected path itself is read-only, not pinned");
	for (size_t i = 0; i < plan.n; i++)
		pins += plan.e[i].op == LTD_OP_PIN &&
			!strcmp(plan.e[i].dst, "/home/u/src/app/.git");
	cr_assert_eq(pins, 1);
}

/* --unsafe-writable-git: validation leaves git's paths out of the list;
 * the project's policy directory stays read-only, and nothing is pinned. */
Test(mountplan, protected_git_paths_can_be_turned_off)
{
	cr_assert_eq(
		ltd_protected_add(&prot, "/home/u/src/app/.ltd-native", &err),
		0);
	p.protect_git = false;
	cr_assert_eq(ltd_plan_build(&p, &prot, &host, &plan, &err), 0);
	cr_assert_eq(find(LTD_OP_RO_OVER, "/home/u/src/app/.git/hooks"), -1);
	cr_assert_eq(find(LTD_OP_PIN, "/home/u/src/app/.ltd-native"), -1);
	cr_assert_geq(find(LTD_OP_RO_OVER, "/home/u/src/app/.ltd-native"), 0);
}

Test(mountplan, copies_land_in_the_fresh_home)
{
	p.copies = calloc(1, sizeof(*p.copies));
	p.copies[0] =
		(struct ltd_copy){strdup("/h/.claude/settings.json"),
				  strdup("/home/u/.claude/settings.json")};
	p.n_copies = 1;
	cr_assert_eq(ltd_plan_build(&p, &prot, &host, &plan, &err), 0, "%s",
		     err.msg);
	long c = find(LTD_OP_COPY, "/home/u/.claude/settings.json");
	long home = find(LTD_OP_SCRATCH, "/home/u");

	cr_assert_gt(c, home);
	cr_assert_eq(plan.e[c].cover, home, "copied into the home tmpfs");
	cr_assert(plan.e[c].flags & LTD_PF_CREATE);
	cr_assert_str_eq(plan.e[c].src, "/h/.claude/settings.json");
}

Test(mountplan, a_copy_into_a_host_bind_is_refused)
{
	p.copies = calloc(1, sizeof(*p.copies));
	p.copies[0] = (struct ltd_copy){strdup("/h/x"), strdup("/usr/x")};
	p.n_copies = 1;
	cr_assert_lt(ltd_plan_build(&p, &prot, &host, &plan, &err), 0);
	cr_assert(strstr(err.msg, "cannot create"), "%s", err.msg);
}

Test(mountplan, proc_masks_and_read_only_entries)
{
	const char *masked[] = {"/proc/kcore", "/proc/keys",
				"/proc/sysrq-trigger", "/proc/timer_list",
				"/proc/kmsg"};

	cr_assert_eq(ltd_plan_build(&p, &prot, &host, &plan, &err), 0);
	for (size_t i = 0; i < sizeof(masked) / sizeof(masked[0]); i++) {
		long m = find(LTD_OP_MASK, masked[i]);

		cr_assert_geq(m, 0, "%s not masked", masked[i]);
		cr_assert(plan.e[m].flags & LTD_PF_OPTIONAL);
		cr_assert_eq(plan.e[m].cover, find(LTD_OP_PROC, "/proc"));
	}
	cr_assert_geq(find(LTD_OP_RO_OVER, "/proc/sys"), 0);
}

Test(mountplan, minimal_dev)
{
	const char *nodes[] = {"null",	 "zero",    "full",
			       "random", "urandom", "tty"};
	size_t n_dev = 0;
	char path[32];

	cr_assert_eq(ltd_plan_build(&p, &prot, &host, &plan, &err), 0);
	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		snprintf(path, sizeof(path), "/dev/%s", nodes[i]);
		cr_assert_geq(find(LTD_OP_DEV, path), 0, "%s", path);
	}
	for (size_t i = 0; i < plan.n; i++)
		n_dev += plan.e[i].op == LTD_OP_DEV;
	cr_assert_eq(n_dev, 6, "no other host device");
	cr_assert_geq(find(LTD_OP_DEVPTS, "/dev/pts"), 0);
	cr_assert_geq(find(LTD_OP_SYMLINK, "/dev/ptmx"), 0);
	cr_assert_geq(find(LTD_OP_SCRATCH, "/dev/shm"), 0);
}

Test(mountplan, generated_identity_files)
{
	cr_assert_eq(ltd_plan_build(&p, &prot, &host, &plan, &err), 0);
	long pw = find(LTD_OP_FILE, "/etc/passwd");
	long gr = find(LTD_OP_FILE, "/etc/group");
	long hn = find(LTD_OP_FILE, "/etc/hostname");

	cr_assert(strstr(plan.e[pw].content,
			 "u:x:1000:1000:u:/home/u:/bin/bash\n"));
	cr_assert(strstr(plan.e[gr].content, "g:x:1000:\n"));
	cr_assert_str_eq(plan.e[hn].content, LTD_DEFAULT_HOSTNAME "\n");
	cr_assert_null(strstr(plan.e[pw].content, "root:"),
		       "no root entry: nothing maps to uid 0");
}

Test(mountplan, check_host_refuses_a_missing_mount_point_in_a_bind)
{
	char dir[] = "/tmp/ltd-plan.XXXXXX", dst[64];

	cr_assert_not_null(mkdtemp(dir));
	free(p.project);
	p.project = strdup(dir);
	snprintf(dst, sizeof(dst), "%s/missing", dir);
	add_user_mount(LTD_UM_RO_BIND, "/usr/share", dst);
	cr_assert_eq(ltd_plan_build(&p, &prot, &host, &plan, &err), 0);
	cr_assert_eq(ltd_plan_check_host(&plan, &err), -ENOENT);
	cr_assert(strstr(err.msg, "will not create"));
	cr_assert_eq(access(dst, F_OK), -1, "nothing created");
	/* Once it exists, the plan passes. */
	cr_assert_eq(mkdir(dst, 0755), 0);
	memset(&err, 0, sizeof(err));
	for (size_t i = 0; i < plan.n; i++)
		if (plan.e[i].op != LTD_OP_BIND_RW &&
		    plan.e[i].op != LTD_OP_BIND_RO &&
		    plan.e[i].op != LTD_OP_DEV)
			continue;
		else if (strncmp(plan.e[i].src, "/usr", 4) &&
			 strcmp(plan.e[i].src, dir) &&
			 strncmp(plan.e[i].src, "/dev", 4))
			plan.e[i].flags |= LTD_PF_OPTIONAL; /* fake host etc */
	cr_assert_eq(ltd_plan_check_host(&plan, &err), 0, "%s", err.msg);
	rmdir(dst);
	rmdir(dir);
}

Test(mountplan, path_is_under)
{
	cr_assert(ltd_path_is_under("/a/b", "/a"));
	cr_assert(ltd_path_is_under("/a", "/a"));
	cr_assert(ltd_path_is_under("/a", "/"));
	cr_assert_not(ltd_path_is_under("/ab", "/a"));
	cr_assert_not(ltd_path_is_under("/a", "/a/b"));
}

Test(mountplan, writable_tmpfs_are_capped_at_memory)
{
	long i;

	p.memory_bytes = 256ULL << 20;
	add_user_mount(LTD_UM_TMPFS, NULL, "/scratch");
	cr_assert_eq(ltd_plan_build(&p, &prot, &host, &plan, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(plan.root_size, 256ULL << 20,
		     "the root tmpfs holds /tmp, $HOME and /dev/shm: capped");
	i = find(LTD_OP_TMPFS, "/scratch");
	cr_assert_eq(plan.e[i].size, 256ULL << 20);
}

/* One superblock for the cage's scratch places (decision 0105): each is a
 * directory of the root tmpfs, not a tmpfs of its own, so they share one
 * --memory cap; with their modes. */
Test(mountplan, scratch_places_share_the_root_tmpfs)
{
	static const struct {
		const char *dst;
		mode_t mode;
	} want[] = {{"/tmp", 01777}, {"/home/u", 0700}, {"/dev/shm", 01777}};

	cr_assert_eq(ltd_plan_build(&p, &prot, &host, &plan, &err), 0, "%s",
		     err.msg);
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		long i = find(LTD_OP_SCRATCH, want[k].dst);

		cr_assert_geq(i, 0, "%s is a scratch place", want[k].dst);
		cr_assert_eq(plan.e[i].mode, want[k].mode, "%s", want[k].dst);
		cr_assert_eq(plan.e[i].cover, -1, "%s lies in the root tmpfs",
			     want[k].dst);
		cr_assert(plan.e[i].flags & LTD_PF_CREATE);
		cr_assert_eq(find(LTD_OP_TMPFS, want[k].dst), -1,
			     "%s: no tmpfs of its own", want[k].dst);
	}
}

/* Generated files and the resolver's links: made in the cage's own tmpfs
 * after every mount (the managed settings in the root, sealed with it). */
Test(mountplan, generated_files_and_links)
{
	cr_assert_eq(ltd_policy_add_file(
			     &p, "/etc/claude-code/managed-settings.json", "{}",
			     2, 0644, "agent claude", &err),
		     0);
	cr_assert_eq(ltd_policy_add_file(&p, "/home/u/.claude.json", "{}", 2, 0,
					 "agent claude", &err),
		     0);
	cr_assert_eq(ltd_policy_add_link(&p, "/run/ltd/bin/claude",
					 "/home/u/.local/bin/claude",
					 "command claude", &err),
		     0);
	cr_assert_eq(ltd_plan_build(&p, &prot, &host, &plan, &err), 0, "%s",
		     err.msg);
	long f = find(LTD_OP_FILE, "/etc/claude-code/managed-settings.json");
	long h = find(LTD_OP_FILE, "/home/u/.claude.json");
	long l = find(LTD_OP_SYMLINK, "/run/ltd/bin/claude");
	long seal = find(LTD_OP_SEAL, "/");

	cr_assert(f >= 0 && h >= 0 && l >= 0);
	cr_assert_eq(plan.e[f].mode, 0644);
	cr_assert_eq(plan.e[h].mode, 0600, "0600 unless said");
	cr_assert_str_eq(plan.e[l].src, "/home/u/.local/bin/claude");
	cr_assert_lt(l, seal, "sealed read-only with the root");
	cr_assert_gt(h, find(LTD_OP_SCRATCH, "/home/u"));
	cr_assert(plan.e[f].flags & LTD_PF_CREATE);
	cr_assert_str_eq(plan.e[f].why, "agent claude");
}

/* A generated file never lands in a bind: that would write the host. */
Test(mountplan, a_generated_file_in_a_bind_is_refused)
{
	add_user_mount(LTD_UM_BIND, "/home/u/.codex", "/home/u/.codex");
	cr_assert_eq(ltd_policy_add_file(&p, "/home/u/.codex/config.toml", "x",
					 1, 0600, "agent codex", &err),
		     0);
	cr_assert_eq(ltd_plan_build(&p, &prot, &host, &plan, &err), -EINVAL);
	cr_assert(strstr(err.msg, "config.toml"), "%s", err.msg);
}

/* The same destination twice: the later one replaces it. */
Test(mountplan, a_later_file_replaces_an_earlier_one)
{
	ltd_policy_add_file(&p, "/home/u/x", "one", 3, 0600, "a", &err);
	ltd_policy_add_link(&p, "/home/u/x", "two", "b", &err);
	cr_assert_eq(p.n_files, 1);
	cr_assert_eq(p.files[0].mode, 0);
	cr_assert_str_eq(p.files[0].content, "two");
}
