// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Resource limits: the kernel files' parsers, the cgroup-or-rlimits
 * decision, the files' contents, and the cgroup executor against a fake
 * tree laid out like cgroupfs (no privileges).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy/limits.h"
#include "runtime/limits.h"

static struct ltd_policy p;
static struct ltd_err err;

static void setup(void)
{
	ltd_policy_init(&p);
	memset(&err, 0, sizeof(err));
}

static void teardown(void)
{
	ltd_policy_free(&p);
}

TestSuite(cgroup, .init = setup, .fini = teardown);

Test(cgroup, controllers)
{
	cr_assert_eq(
		ltd_limits_parse_controllers("cpuset cpu io memory hugetlb "
					     "pids rdma misc\n"),
		LTD_CTL_ALL);
	cr_assert_eq(ltd_limits_parse_controllers("hugetlb\n"), 0);
	cr_assert_eq(ltd_limits_parse_controllers("memory pids"),
		     LTD_CTL_MEMORY | LTD_CTL_PIDS);
	cr_assert_eq(ltd_limits_parse_controllers("cpuset cpuacct"), 0,
		     "cpuset is not cpu");
	cr_assert_eq(ltd_limits_parse_controllers(""), 0);
}

Test(cgroup, proc_self_cgroup)
{
	char path[64];

	cr_assert_eq(
		ltd_limits_parse_self("0::/user.slice/user-1000.slice/"
				      "user@1000.service/app.slice/x.scope\n",
				      path, sizeof(path)),
		0);
	cr_assert_str_eq(path, "/user.slice/user-1000.slice/user@1000.service/"
			       "app.slice/x.scope");
	/* hybrid: v1 lines first */
	cr_assert_eq(ltd_limits_parse_self("4:memory:/a\n1:cpu:/\n0::/\n", path,
					   sizeof(path)),
		     0);
	cr_assert_str_eq(path, "/");
	cr_assert_eq(ltd_limits_parse_self("4:memory:/a\n1:cpu:/\n", path,
					   sizeof(path)),
		     -ENOENT, "v1 only");
	cr_assert_eq(
		ltd_limits_parse_self("0::/a/very/long/path/beyond/the/buffer"
				      "/size/of/sixty/four/bytes/and/more\n",
				      path, sizeof(path)),
		-EINVAL);
}

Test(cgroup, mountinfo)
{
	char mnt[64];
	const char *hybrid =
		"31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw\n"
		"35 31 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,"
		"memory\n"
		"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 "
		"cgroup2 rw\n";

	cr_assert_eq(ltd_limits_parse_mountinfo(hybrid, mnt, sizeof(mnt)), 0);
	cr_assert_str_eq(mnt, "/sys/fs/cgroup/unified");
	cr_assert_eq(
		ltd_limits_parse_mountinfo("29 1 0:26 / /sys/fs/cgroup rw "
					   "shared:4 - cgroup2 cgroup2 rw\n",
					   mnt, sizeof(mnt)),
		0);
	cr_assert_str_eq(mnt, "/sys/fs/cgroup");
	cr_assert_eq(
		ltd_limits_parse_mountinfo("9 1 0:2 / /cg\\040x rw - cgroup2 "
					   "none rw\n",
					   mnt, sizeof(mnt)),
		0);
	cr_assert_str_eq(mnt, "/cg x", "octal escapes undone");
	cr_assert_eq(ltd_limits_parse_mountinfo(hybrid + 0, mnt, 8),
		     -ENAMETOOLONG);
	cr_assert_eq(
		ltd_limits_parse_mountinfo("35 31 0:32 / /m rw - cgroup cgroup"
					   " rw\n",
					   mnt, sizeof(mnt)),
		-ENOENT);
}

Test(cgroup, file_contents)
{
	struct ltd_limits_plan pl = {0};

	p.memory_bytes = 1ULL << 30;
	p.cpus_milli = 1500;
	p.pids_limit = 64;
	ltd_limits_values(&p, &pl);
	cr_assert_str_eq(pl.memory_max, "1073741824");
	cr_assert_str_eq(pl.cpu_max, "150000 100000");
	cr_assert_str_eq(pl.pids_max, "64");
	p.cpus_milli = 10;
	ltd_limits_values(&p, &pl);
	cr_assert_str_eq(pl.cpu_max, "1000 100000", "0.01 CPU: 1 ms per 100");
}

static const struct ltd_cg_facts delegated = {
	.v2 = true,
	.dir = "/sys/fs/cgroup/user.slice/user-1000.slice/user@1000.service/"
	       "app.slice/run-1.scope",
	.writable = true,
	.available = LTD_CTL_ALL,
	.alone = true,
	.nproc_per_userns = true,
};

Test(cgroup, delegated_scope_gets_a_cgroup)
{
	struct ltd_limits_plan pl;
	char w[256];

	cr_assert_eq(ltd_limits_decide(&p, &delegated, &pl, &err), 0);
	cr_assert(pl.cgroup);
	cr_assert(pl.evacuate, "the launcher leaves the cgroup it enables");
	cr_assert_eq(pl.enable, LTD_CTL_ALL);
	cr_assert_eq(pl.rlimit_data, 0);
	cr_assert_eq(pl.rlimit_nproc, 0);
	cr_assert_not(ltd_limits_warning(&p, &pl, w, sizeof(w)));
}

Test(cgroup, already_enabled_needs_no_evacuation)
{
	struct ltd_cg_facts f = delegated;
	struct ltd_limits_plan pl;

	f.enabled = LTD_CTL_MEMORY | LTD_CTL_CPU | LTD_CTL_PIDS;
	f.alone = false;
	cr_assert_eq(ltd_limits_decide(&p, &f, &pl, &err), 0);
	cr_assert(pl.cgroup);
	cr_assert_not(pl.evacuate);
	cr_assert_eq(pl.enable, 0);
}

static void expect_rlimits(const struct ltd_cg_facts *f, const char *why)
{
	struct ltd_limits_plan pl;
	char w[1024];

	cr_assert_eq(ltd_limits_decide(&p, f, &pl, &err), 0, "%s", err.msg);
	cr_assert_not(pl.cgroup);
	cr_assert(strstr(pl.missing, why), "'%s' lacks '%s'", pl.missing, why);
	cr_assert_eq(pl.rlimit_data, 4ULL << 30);
	cr_assert_eq(pl.rlimit_nproc, f->nproc_per_userns ? 512 : 0);
	cr_assert(ltd_limits_warning(&p, &pl, w, sizeof(w)));
	cr_assert(strstr(w, why) && strstr(w, "CPU not at all") &&
			  strstr(w, "ltd-native doctor") && !strchr(w, '\n'),
		  "%s", w);
}

Test(cgroup, no_cgroup_falls_back_to_rlimits)
{
	struct ltd_cg_facts f = delegated;

	f.v2 = false;
	expect_rlimits(&f, "no cgroup v2");
	f = delegated;
	f.writable = false;
	expect_rlimits(&f, "not delegated to you");
	f = delegated;
	f.available = LTD_CTL_MEMORY | LTD_CTL_PIDS;
	expect_rlimits(&f, "lacks the controllers: cpu");
	f = delegated;
	f.alone = false;
	expect_rlimits(&f, "other processes share");
	f.nproc_per_userns = false;
	expect_rlimits(&f, "other processes share");
}

Test(cgroup, explicit_limits_that_cannot_be_enforced)
{
	struct ltd_cg_facts f = {.nproc_per_userns = true};
	struct ltd_limits_plan pl;

	p.limits_explicit = LTD_LIMIT_PIDS;
	cr_assert_eq(ltd_limits_decide(&p, &f, &pl, &err), 0,
		     "pids hold per user namespace");
	p.limits_explicit = LTD_LIMIT_MEMORY;
	cr_assert_eq(ltd_limits_decide(&p, &f, &pl, &err), -ENOTSUP);
	cr_assert(strstr(err.msg, "--memory") &&
			  strstr(err.msg, "--allow-unenforced-limits"),
		  "%s", err.msg);
	p.limits_explicit = LTD_LIMIT_CPUS;
	cr_assert_eq(ltd_limits_decide(&p, &f, &pl, &err), -ENOTSUP);
	cr_assert(strstr(err.msg, "--cpus"), "%s", err.msg);
	f.nproc_per_userns = false;
	p.limits_explicit = LTD_LIMIT_PIDS;
	cr_assert_eq(ltd_limits_decide(&p, &f, &pl, &err), -ENOTSUP);
	cr_assert(strstr(err.msg, "--pids-limit"), "%s", err.msg);
	p.allow_unenforced_limits = true;
	p.limits_explicit = LTD_LIMIT_MEMORY | LTD_LIMIT_CPUS | LTD_LIMIT_PIDS;
	cr_assert_eq(ltd_limits_decide(&p, &f, &pl, &err), 0);
}

Test(cgroup, kernel_versions)
{
	cr_assert(ltd_limits_kernel_at_least("6.18.44-fc", 5, 14));
	cr_assert(ltd_limits_kernel_at_least("5.14.0", 5, 14));
	cr_assert_not(ltd_limits_kernel_at_least("5.13.19", 5, 14));
	cr_assert_not(ltd_limits_kernel_at_least("4.19.0", 5, 14));
	cr_assert_not(ltd_limits_kernel_at_least("junk", 5, 14));
}

/* --- the executor, against a fake cgroupfs ------------------------------ */

static char tree[64];

static void make_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

static char *slurp(const char *dir, const char *name)
{
	static char buf[256];
	char path[512];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void fake_tree(pid_t self)
{
	char procs[24];

	snprintf(tree, sizeof(tree), "/tmp/ltd-cgtest.XXXXXX");
	cr_assert_not_null(mkdtemp(tree));
	snprintf(procs, sizeof(procs), "%d\n", (int)self);
	make_file(tree, "cgroup.controllers", "cpuset cpu io memory pids\n");
	make_file(tree, "cgroup.subtree_control", "");
	make_file(tree, "cgroup.procs", procs);
}

static void remove_files(const char *dir, const char *const *names)
{
	char path[512];

	for (; *names; names++) {
		snprintf(path, sizeof(path), "%s/%s", dir, *names);
		unlink(path);
	}
}

Test(cgroup, probe_a_fake_delegated_cgroup)
{
	struct ltd_cg_facts f = {0};

	fake_tree(4242);
	cr_assert_eq(ltd_cgroup_read_dir(tree, 4242, &f, &err), 0);
	cr_assert(f.v2 && f.writable && f.alone);
	cr_assert_eq(f.available, LTD_CTL_ALL);
	cr_assert_eq(f.enabled, 0);
	cr_assert_eq(ltd_cgroup_read_dir(tree, 1, &f, &err), 0);
	cr_assert_not(f.alone, "another pid in cgroup.procs");
	remove_files(tree, (const char *const[]){"cgroup.controllers",
						 "cgroup.subtree_control",
						 "cgroup.procs", NULL});
	rmdir(tree);
}

Test(cgroup, create_and_destroy_in_a_fake_tree)
{
	static const char *const cage_files[] = {"memory.max", "cpu.max",
						 "pids.max", NULL};
	static const char *const leaf_files[] = {"cgroup.procs", NULL};
	struct ltd_cg_facts f = {0};
	struct ltd_limits_plan pl;
	struct ltd_cgroup cg;
	char cage[128], leaf[128];
	struct stat st;

	fake_tree(4242);
	p.memory_bytes = 256ULL << 20;
	p.cpus_milli = 500;
	p.pids_limit = 32;
	cr_assert_eq(ltd_cgroup_read_dir(tree, 4242, &f, &err), 0);
	f.nproc_per_userns = true;
	cr_assert_eq(ltd_limits_decide(&p, &f, &pl, &err), 0);
	cr_assert(pl.cgroup && pl.evacuate);

	cr_assert_eq(ltd_cgroup_create(tree, &pl, 4242, &cg, &err), 0, "%s",
		     err.msg);
	snprintf(cage, sizeof(cage), "%s/ltd-4242", tree);
	snprintf(leaf, sizeof(leaf), "%s/ltd-4242.launcher", tree);
	cr_assert_str_eq(cg.cage, cage);
	cr_assert_str_eq(cg.leaf, leaf);
	cr_assert_geq(cg.fd, 0, "a directory fd for CLONE_INTO_CGROUP");
	cr_assert_str_eq(slurp(leaf, "cgroup.procs"), "4242",
			 "the launcher moved to its leaf");
	cr_assert_str_eq(slurp(tree, "cgroup.subtree_control"),
			 "+memory +cpu +pids");
	cr_assert_str_eq(slurp(cage, "memory.max"), "268435456");
	cr_assert_str_eq(slurp(cage, "cpu.max"), "50000 100000");
	cr_assert_str_eq(slurp(cage, "pids.max"), "32");
	cr_assert_null(slurp(cage, "memory.swap.max"),
		       "written only where the kernel has it");

	/* cgroupfs removes a directory's files with it; a fake tree
	 * cannot. */
	remove_files(cage, cage_files);
	remove_files(leaf, leaf_files);
	ltd_cgroup_destroy(&cg, 4242);
	cr_assert_eq(cg.fd, -1);
	cr_assert_neq(stat(cage, &st), 0, "the cage's cgroup is gone");
	cr_assert_neq(stat(leaf, &st), 0, "the launcher's leaf is gone");
	cr_assert_str_eq(slurp(tree, "cgroup.subtree_control"),
			 "-memory -cpu -pids", "controllers off again");
	cr_assert_str_eq(slurp(tree, "cgroup.procs"), "4242",
			 "the launcher moved back");
	remove_files(tree, (const char *const[]){"cgroup.controllers",
						 "cgroup.subtree_control",
						 "cgroup.procs", NULL});
	rmdir(tree);
}

Test(cgroup, create_fails_cleanly)
{
	struct ltd_cg_facts f = {0};
	struct ltd_limits_plan pl;
	struct ltd_cgroup cg;
	char cage[128];
	struct stat st;

	fake_tree(4242);
	cr_assert_eq(ltd_cgroup_read_dir(tree, 4242, &f, &err), 0);
	cr_assert_eq(ltd_limits_decide(&p, &f, &pl, &err), 0);
	/* A cage directory that cannot be made: a file in the way. */
	make_file(tree, "ltd-4242", "");
	cr_assert_lt(ltd_cgroup_create(tree, &pl, 4242, &cg, &err), 0);
	cr_assert(strstr(err.msg, "ltd-4242"), "%s", err.msg);
	cr_assert_str_eq(slurp(tree, "cgroup.subtree_control"),
			 "-memory -cpu -pids", "controllers off again");
	cr_assert_str_eq(slurp(tree, "cgroup.procs"), "4242",
			 "the launcher moved back");
	/* (its leaf still holds the fake's cgroup.procs file) */
	snprintf(cage, sizeof(cage), "%s/ltd-4242.launcher", tree);
	remove_files(cage, (const char *const[]){"cgroup.procs", NULL});
	cr_assert_eq(rmdir(cage), 0);
	cr_assert_neq(stat(cage, &st), 0);
	remove_files(tree,
		     (const char *const[]){"cgroup.controllers",
					   "cgroup.subtree_control",
					   "cgroup.procs", "ltd-4242", NULL});
	rmdir(tree);
}
