// SPDX-License-Identifier: GPL-2.0-or-later
/* The Landlock ruleset is a pure function of the mount plan and the policy;
 * the decision what a kernel's ABI means for a run is one too. */
#include <criterion/criterion.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "confine/landlock.h"
#include "runtime/landlock_rules.h"

static struct ltd_policy p;
static struct ltd_protected prot;
static struct ltd_hostfs host;
static struct ltd_plan plan;
static struct ltd_landlock ll;
static struct ltd_err err;

static void setup(void)
{
	ltd_policy_init(&p);
	p.project = strdup("/home/u/src/app");
	p.protect_git = true;
	prot.project = p.project;
	cr_assert_eq(ltd_protected_add(&prot, "/home/u/src/app/.git", &err), 0);
	cr_assert_eq(
		ltd_protected_add(&prot, "/home/u/src/app/.git/config", &err),
		0);
	cr_assert_eq(
		ltd_protected_add(&prot, "/home/u/src/app/.git/hooks", &err),
		0);
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
	host.n_top = 2;
	strcpy(host.etc[0], "ssl");
	host.n_etc = 1;
	memset(&err, 0, sizeof(err));
	memset(&plan, 0, sizeof(plan));
	memset(&ll, 0, sizeof(ll));
}

static void teardown(void)
{
	ltd_landlock_free(&ll);
	ltd_plan_free(&plan);
	ltd_policy_free(&p);
	ltd_protected_free(&prot);
}

TestSuite(landlock, .init = setup, .fini = teardown);

static void add_mount(enum ltd_user_mount_kind kind, const char *src,
		      const char *dst, bool derived)
{
	p.mounts = realloc(p.mounts, (p.n_mounts + 1) * sizeof(*p.mounts));
	p.mounts[p.n_mounts++] = (struct ltd_user_mount){
		.kind = kind,
		.src = src ? strdup(src) : NULL,
		.dst = strdup(dst),
		.flag = kind == LTD_UM_TMPFS  ? "tmpfs"
			: kind == LTD_UM_BIND ? "bind"
					      : "ro-bind",
		.derived = derived,
	};
}

static void build(int abi)
{
	cr_assert_eq(ltd_plan_build(&p, &prot, &host, &plan, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(ltd_landlock_build(&plan, &p, abi, &ll, &err), 0, "%s",
		     err.msg);
}

/* The rule for @path: its rights; -1 when there is none. */
static long long rule(const char *path)
{
	long long found = -1;

	for (size_t i = 0; i < ll.n_rules; i++)
		if (strcmp(ll.rules[i].path, path) == 0) {
			cr_assert_eq(found, -1, "two rules for %s", path);
			found = (long long)ll.rules[i].access;
		}
	return found;
}

#define ALL_FS_7 ((LTD_LL_FS_IOCTL_DEV << 1) - 1)

Test(landlock, default_plan_reads_everywhere_writes_where_mounted_rw)
{
	build(7);
	cr_assert_eq(ll.handled_fs, ALL_FS_7, "every right of ABI 7 handled");
	cr_assert_eq(ll.rules[0].access, LTD_LL_READ);
	cr_assert_str_eq(ll.rules[0].path, "/", "the cage's root first");
	cr_assert_eq(rule("/usr"), LTD_LL_READ);
	cr_assert_eq(rule("/lib64"), LTD_LL_READ);
	cr_assert_eq(rule("/etc/ssl"), LTD_LL_READ);
	cr_assert_eq(rule("/home/u/src/app"), LTD_LL_WRITE);
	cr_assert_eq(rule("/tmp"), LTD_LL_WRITE);
	cr_assert_eq(rule("/home/u"), LTD_LL_WRITE);
	cr_assert_eq(rule("/dev/shm"), LTD_LL_WRITE);
	cr_assert_eq(rule("/dev/null"), LTD_LL_DEVICE);
	cr_assert_eq(rule("/dev/tty"), LTD_LL_DEVICE);
	cr_assert_eq(rule("/dev/pts"), LTD_LL_DEVICE | LTD_LL_FS_READ_DIR);
	cr_assert_eq(rule("/proc"), LTD_LL_PROC);
	cr_assert(
		!(LTD_LL_WRITE & (LTD_LL_FS_MAKE_CHAR | LTD_LL_FS_MAKE_BLOCK)),
		"no device nodes made anywhere");
	cr_assert(!(LTD_LL_READ & ~(LTD_LL_FS_EXECUTE | LTD_LL_FS_READ_FILE |
				    LTD_LL_FS_READ_DIR)));
	/* Generated files and links live in the root's tmpfs: "/" covers
	 * them, read-only. */
	cr_assert_eq(rule("/etc/passwd"), -1);
	cr_assert_eq(rule("/bin"), -1);
	/* A read-only rule under the project's write rule would add
	 * nothing (grants add up): the read-only mounts stay the wall. */
	cr_assert_eq(rule("/home/u/src/app/.git/config"), -1);
	cr_assert_eq(rule("/home/u/src/app/.git/hooks"), -1);
	cr_assert_eq(rule("/home/u/src/app/.git"), -1);
	cr_assert_eq(rule("/proc/sys"), -1);
	cr_assert_eq(ll.scoped, 0,
		     "the namespaces scope signals and abstract sockets");
	cr_assert_eq(ll.handled_net, 0, "TCP ports only when asked");
	cr_assert_eq(ll.n_ports, 0);
}

Test(landlock, every_rule_is_a_destination_of_the_plan)
{
	add_mount(LTD_UM_BIND, "/srv/data", "/data", false);
	build(7);
	for (size_t i = 1; i < ll.n_rules; i++) {
		bool in_plan = false;

		for (size_t j = 0; j < plan.n; j++)
			in_plan |= strcmp(plan.e[j].dst, ll.rules[i].path) == 0;
		cr_assert(in_plan, "%s is no destination of the plan",
			  ll.rules[i].path);
		cr_assert_eq(ll.rules[i].access & ~ll.handled_fs, 0);
	}
}

Test(landlock, user_binds_and_tmpfs)
{
	add_mount(LTD_UM_BIND, "/srv/data", "/data", false);
	add_mount(LTD_UM_RO_BIND, "/srv/ref", "/ref", false);
	add_mount(LTD_UM_TMPFS, NULL, "/scratch", false);
	add_mount(LTD_UM_RO_BIND, "/srv/docs", "/home/u/src/app/docs", false);
	build(7);
	cr_assert_eq(rule("/data"), LTD_LL_WRITE);
	cr_assert_eq(rule("/ref"), LTD_LL_READ);
	cr_assert_eq(rule("/scratch"), LTD_LL_WRITE);
	/* Read-only inside the writable project: a rule that adds nothing
	 * to the project's, kept (it ends the path walk early); the mount
	 * is what keeps it read-only. */
	cr_assert_eq(rule("/home/u/src/app/docs"), LTD_LL_READ);
}

Test(landlock, the_policy_models_persistent_state_is_writable)
{
	/* What the trust tier derives: transcripts and the auth dir, bound
	 * read-write into the fresh home. */
	add_mount(LTD_UM_BIND, "/home/u/.claude/projects",
		  "/home/u/.claude/projects", true);
	add_mount(LTD_UM_BIND, "/home/u/.cache/lamp-the-djinn/auth",
		  "/home/u/.config/ltd-auth", true);
	build(7);
	cr_assert_eq(rule("/home/u/.claude/projects"), LTD_LL_WRITE);
	cr_assert_eq(rule("/home/u/.config/ltd-auth"), LTD_LL_WRITE);
	cr_assert_eq(rule("/home/u"), LTD_LL_WRITE, "the home tmpfs too");
}

Test(landlock, a_later_mount_over_an_entry_takes_its_rule_away)
{
	/* /x/y's rule would land on whatever /b shows at y. */
	add_mount(LTD_UM_BIND, "/a", "/x/y", false);
	add_mount(LTD_UM_RO_BIND, "/b", "/x", false);
	/* The plan's writable /tmp, then a read-only bind over it. */
	add_mount(LTD_UM_RO_BIND, "/srv/t", "/tmp", false);
	build(7);
	cr_assert_eq(rule("/x/y"), -1);
	cr_assert_eq(rule("/x"), LTD_LL_READ);
	cr_assert_eq(rule("/tmp"), LTD_LL_READ, "only the mount on top counts");
}

Test(landlock, rights_follow_the_abi)
{
	build(1);
	cr_assert_eq(ll.handled_fs, (LTD_LL_FS_MAKE_SYM << 1) - 1);
	cr_assert_eq(rule("/tmp"),
		     LTD_LL_WRITE & ((LTD_LL_FS_MAKE_SYM << 1) - 1));
	cr_assert_eq(rule("/dev/null"),
		     LTD_LL_FS_READ_FILE | LTD_LL_FS_WRITE_FILE);
	cr_assert_eq(ll.scoped, 0);
	ltd_landlock_free(&ll);
	cr_assert_eq(ltd_landlock_build(&plan, &p, 3, &ll, &err), 0);
	cr_assert(ll.handled_fs & LTD_LL_FS_TRUNCATE);
	cr_assert(!(ll.handled_fs & LTD_LL_FS_IOCTL_DEV));
	ltd_landlock_free(&ll);
	cr_assert_eq(ltd_landlock_build(&plan, &p, 0, &ll, &err), 0);
	cr_assert_eq(ll.n_rules, 0, "no Landlock, no rules");
	cr_assert_eq(ll.handled_fs, 0);
}

static void allow(const char *s)
{
	p.allow = realloc(p.allow, (p.n_allow + 1) * sizeof(*p.allow));
	cr_assert_eq(ltd_cidr_dest_parse(s, "--allow-cidr", &p.allow[p.n_allow],
					 &err),
		     0, "%s", err.msg);
	p.n_allow++;
}

Test(landlock, tcp_ports_are_the_policys)
{
	static const uint16_t want[] = {53, 80, 443, 4000, 8000, 8001, 8002};

	p.restrict_tcp_ports = true;
	p.network = LTD_NET_ALLOWLIST;
	allow("192.0.2.0/24:443,8000-8002");
	allow("198.51.100.7:443");
	p.host_ports = malloc(sizeof(uint16_t));
	p.host_ports[0] = 4000;
	p.n_host_ports = 1;
	cr_assert_eq(
		ltd_domains_add(&p.domains, "registry.npmjs.org", "t", &err),
		0);
	build(4);
	cr_assert_eq(ll.handled_net, LTD_LL_NET_CONNECT_TCP,
		     "connect handled, bind not");
	cr_assert_eq(ll.n_ports, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < ll.n_ports; i++)
		cr_assert_eq(ll.ports[i], want[i], "port %zu: %u", i,
			     ll.ports[i]);
	cr_assert_eq(ll.scoped, 0, "ABI 4 has no scopes");
}

Test(landlock, tcp_ports_none_mode_has_no_resolver)
{
	p.restrict_tcp_ports = true;
	p.network = LTD_NET_NONE;
	build(7);
	cr_assert_eq(ll.handled_net, LTD_LL_NET_CONNECT_TCP);
	cr_assert_eq(ll.n_ports, 0, "nothing to connect to");
}

Test(landlock, tcp_ports_udp_only_block_adds_none)
{
	p.restrict_tcp_ports = true;
	p.network = LTD_NET_ALLOWLIST;
	allow("192.0.2.0/24:443");
	p.allow[0].only_proto = IPPROTO_UDP;
	build(7);
	cr_assert_eq(ll.n_ports, 1);
	cr_assert_eq(ll.ports[0], 53);
}

Test(landlock, tcp_ports_refuse_a_block_open_on_every_port)
{
	p.restrict_tcp_ports = true;
	allow("10.0.0.0/8");
	cr_assert_eq(ltd_plan_build(&p, &prot, &host, &plan, &err), 0);
	cr_assert_eq(ltd_landlock_build(&plan, &p, 7, &ll, &err), -EINVAL);
	cr_assert(strstr(err.msg, "--restrict-tcp-ports") &&
			  strstr(err.msg, "10.0.0.0/8"),
		  "%s", err.msg);
	cr_assert_eq(ll.n_rules, 0);
}

/* ltd_landlock_decide: 0 and the warning, or the error's message. */
static int decide(int abi, char *warning)
{
	memset(&err, 0, sizeof(err));
	return ltd_landlock_decide(&p, abi, warning, 256, &err);
}

Test(landlock, decide_without_landlock_warns)
{
	char w[256];

	cr_assert_eq(decide(0, w), 0);
	cr_assert(strstr(w, "no Landlock"), "%s", w);
}

/* A layer skipped in part is named too (DESIGN: a layer that cannot be
 * set up is skipped with a warning naming what is missing). */
Test(landlock, decide_names_what_an_older_abi_leaves_out)
{
	char w[256];

	p.network = LTD_NET_ALLOWLIST;
	cr_assert_eq(decide(2, w), 0);
	cr_assert(strstr(w, "ABI 2") && strstr(w, "trunca") &&
			  strstr(w, "pasta") && strstr(w, "doctor"),
		  "%s", w);
	cr_assert_eq(decide(3, w), 0);
	cr_assert(strstr(w, "ABI 3") && !strstr(w, "trunca") &&
			  strstr(w, "pasta"),
		  "%s", w);
	cr_assert_eq(decide(4, w), 0);
	cr_assert_str_empty(w);
	cr_assert_eq(decide(7, w), 0);
	cr_assert_str_empty(w);
	/* Without pasta there is no port wall to miss. */
	p.network = LTD_NET_NONE;
	cr_assert_eq(decide(1, w), 0);
	cr_assert(strstr(w, "ABI 1") && strstr(w, "trunca") &&
			  !strstr(w, "pasta"),
		  "%s", w);
	cr_assert_eq(decide(3, w), 0);
	cr_assert_str_empty(w);
}

Test(landlock, decide_require_landlock)
{
	char w[256];

	p.require_landlock = true;
	cr_assert_eq(decide(0, w), -ENOTSUP);
	cr_assert(strstr(err.msg, "--require-landlock") &&
			  strstr(err.msg, "no Landlock") &&
			  strstr(err.msg, "doctor"),
		  "%s", err.msg);
	cr_assert_eq(decide(2, w), -ENOTSUP, "ABI 2 cannot refuse truncate");
	cr_assert(strstr(err.msg, "ABI 2"), "%s", err.msg);
	cr_assert_eq(decide(3, w), 0);
	p.network = LTD_NET_HOST;
	cr_assert_eq(decide(5, w), -ENOTSUP,
		     "host network: abstract sockets must be scoped");
	cr_assert_eq(decide(6, w), 0);
}

Test(landlock, decide_restrict_tcp_ports_needs_abi_4)
{
	char w[256];

	p.restrict_tcp_ports = true;
	cr_assert_eq(decide(3, w), -ENOTSUP);
	cr_assert(strstr(err.msg, "--restrict-tcp-ports"), "%s", err.msg);
	cr_assert_eq(decide(0, w), -ENOTSUP, "an explicit wall, not a warning");
	cr_assert_eq(decide(4, w), 0);
}

/* pasta's wall (ltd_landlock_build_egress): the ports pasta may connect to
 * on the cage's behalf, nothing of the filesystem. */
static char note[LTD_ERR_MSG_MAX];

static int build_egress(int abi)
{
	memset(&err, 0, sizeof(err));
	return ltd_landlock_build_egress(&p, abi, &ll, note, sizeof(note),
					 &err);
}

Test(landlock, egress_wall_is_the_policys_ports_without_the_resolver)
{
	static const uint16_t want[] = {80, 443, 4000, 8000, 8001, 8002};

	p.network = LTD_NET_ALLOWLIST;
	allow("192.0.2.0/24:443,8000-8002");
	allow("198.51.100.7:443");
	p.host_ports = malloc(sizeof(uint16_t));
	p.host_ports[0] = 4000;
	p.n_host_ports = 1;
	cr_assert_eq(
		ltd_domains_add(&p.domains, "registry.npmjs.org", "t", &err),
		0);
	cr_assert_eq(build_egress(4), 0, "%s", err.msg);
	cr_assert_eq(ll.abi, 4);
	cr_assert_eq(ll.handled_net,
		     LTD_LL_NET_CONNECT_TCP | LTD_LL_NET_BIND_TCP,
		     "connect to the ports, bind nowhere");
	cr_assert_eq(ll.handled_fs, 0, "pasta's files are its own business");
	cr_assert_eq(ll.scoped, 0);
	cr_assert_eq(ll.n_rules, 0);
	cr_assert_eq(ll.n_ports, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < ll.n_ports; i++)
		cr_assert_eq(ll.ports[i], want[i], "port %zu: %u", i,
			     ll.ports[i]);
}

Test(landlock, egress_wall_with_nothing_allowed_allows_no_port)
{
	p.network = LTD_NET_ALLOWLIST;
	cr_assert_eq(build_egress(7), 0, "%s", err.msg);
	cr_assert_eq(ll.abi, 7);
	cr_assert_eq(ll.handled_net,
		     LTD_LL_NET_CONNECT_TCP | LTD_LL_NET_BIND_TCP);
	cr_assert_eq(ll.n_ports, 0, "fail closed");
}

Test(landlock, egress_wall_leaves_out_udp_only_blocks)
{
	p.network = LTD_NET_ALLOWLIST;
	allow("192.0.2.0/24:5353");
	p.allow[0].only_proto = IPPROTO_UDP;
	cr_assert_eq(build_egress(7), 0, "%s", err.msg);
	cr_assert_eq(ll.n_ports, 0);
}

Test(landlock, egress_wall_is_off_where_it_cannot_say_ports)
{
	p.network = LTD_NET_ALLOWLIST;
	allow("192.0.2.0/24:443");
	cr_assert_eq(build_egress(3), 0, "%s", err.msg);
	cr_assert_eq(ll.abi, 0, "ABI 3 has no network rules");
	cr_assert_str_empty(note, "ABI 3: doctor says so, not every run");
	cr_assert_eq(build_egress(7), 0, "%s", err.msg);
	cr_assert_str_empty(note, "a full wall: nothing to say");
	allow("10.0.0.0/8");
	cr_assert_eq(build_egress(7), 0, "not an error: the user's policy");
	cr_assert(strstr(note, "--allow-cidr 10.0.0.0/8 allows every port") &&
			  strstr(note, "CIDR:PORTS"),
		  "the run says why the wall is open: %s", note);
	cr_assert_eq(ll.handled_net, LTD_LL_NET_BIND_TCP,
		     "a block open on every port: no connect wall, still no "
		     "bind");
	cr_assert_eq(ll.n_ports, 0);
	p.n_allow = 1;
	allow("10.0.0.0/8:1-2000");
	cr_assert_eq(build_egress(7), 0, "%s", err.msg);
	cr_assert_eq(ll.handled_net, LTD_LL_NET_BIND_TCP,
		     "more ports than a ruleset holds");
	cr_assert(strstr(note, "more than 1024"), "%s", note);
	cr_assert_eq(ll.n_ports, 0);
}

Test(landlock, egress_wall_only_in_allowlist_mode)
{
	allow("192.0.2.0/24:443");
	p.network = LTD_NET_NONE;
	cr_assert_eq(build_egress(7), 0);
	cr_assert_eq(ll.abi, 0);
	p.network = LTD_NET_HOST;
	cr_assert_eq(build_egress(7), 0);
	cr_assert_eq(ll.abi, 0);
}

Test(landlock, egress_wall_does_not_open_for_a_test_firewall_hole)
{
	struct ltd_net_dest hole;

	p.network = LTD_NET_ALLOWLIST;
	allow("192.0.2.0/24:443");
	cr_assert_eq(ltd_cidr_dest_parse("192.0.2.0/24:9090",
					 "--test-firewall-hole", &hole, &err),
		     0);
	p.fw_holes = malloc(sizeof(hole));
	p.fw_holes[0] = hole;
	p.n_fw_holes = 1;
	cr_assert_eq(build_egress(7), 0, "%s", err.msg);
	cr_assert_eq(ll.n_ports, 1);
	cr_assert_eq(ll.ports[0], 443);
}
