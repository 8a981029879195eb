// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The launcher's set-up, as a table (ltd_launch_steps): everything a user
 * can get wrong was checked by ltd_run_resolve(); here everything that can
 * be built is built before clone() (compile before clone), the few things
 * the host must hold are made, and the cage's init is cloned.  The order
 * is the table's; test_steps.c checks the orders security rests on.
 */
#include "runtime/launch.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/pidfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <jansson.h>

#include "common/cleanup.h"
#include "common/signals.h"
#include "common/text.h"
#include "dnsd/dnsd.h"
#include "netfilter/audit.h"
#include "netfilter/pasta.h"
#include "policy/env.h"
#include "protect/agentinstr.h"
#include "protect/gitdir.h"
#include "runtime/cage.h"
#include "runtime/cagens.h"
#include "runtime/landlock_rules.h"
#include "runtime/outputs.h"
#include "runtime/pty.h"
#include "runtime/run.h"
#include "runtime/standing.h"
#include "runtime/state.h"

extern char **environ;

#define LTD_CLONE_FLAGS                                                        \
	(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC |           \
	 CLONE_NEWUTS | CLONE_NEWCGROUP | CLONE_NEWNET)

/* Cgroup or rlimits, from what the host delegates. */
static int step_limits(void *ctx, struct ltd_err *err)
{
	struct ltd_launch *l = ctx;

	return ltd_limits_decide(l->p, &l->host->cg, &l->limits, err);
}

static int step_state(void *ctx, struct ltd_err *err)
{
	struct ltd_launch *l = ctx;

	return ltd_state_create(l->p, err);
}

/* --review: the review created or continued, and locked for the run. */
static int step_review(void *ctx, struct ltd_err *err)
{
	struct ltd_launch *l = ctx;

	static const struct ltd_review_run none = LTD_REVIEW_RUN_INIT;

	if (!l->p->review)
		return 0;
	l->review = malloc(sizeof(*l->review));
	if (!l->review)
		return ltd_err_set(err, ENOMEM, "--review");
	*l->review = none;
	return ltd_review_begin(l->p, l->review, err);
}

/* The kernel's Landlock ABI, or the lower one a test asks for
 * (--test-landlock-abi, a test hook). */
static int landlock_abi(const struct ltd_policy *p)
{
	int abi = ltd_landlock_abi();

	return p->test_landlock_abi >= 0 && p->test_landlock_abi < abi
		       ? p->test_landlock_abi
		       : abi;
}

/*
 * Allowlist: pasta's arguments and wall, the cage's user and network
 * namespaces (runtime/cagens.c), and pasta started in them.  First of the
 * steps that take time: pasta's own start-up is most of a run's, and from
 * here on everything else, init's set-up included, happens beside it
 * (docs/decisions/0150-namespaces-before-init.md).  Nothing runs in the
 * namespace before init, which installs the firewall before anything
 * else; the command waits for pasta and the DNS filter both.
 */
static int step_network(void *ctx, struct ltd_err *err)
{
	struct ltd_launch *l = ctx;
	const struct ltd_policy *p = l->p;
	char warning[LTD_ERR_MSG_MAX];
	int ret;

	if (p->network != LTD_NET_ALLOWLIST)
		return 0;
	ret = ltd_pasta_build(&l->host->pasta, p->n_host_ports > 0, p->publish,
			      p->n_publish, err);
	/* Its wall, before it runs: built here, not with the cage's
	 * ruleset (step landlock). */
	if (!ret)
		ret = ltd_landlock_build_egress(p, landlock_abi(p),
						&l->host->pasta.wall, warning,
						sizeof(warning), err);
	if (!ret && warning[0] && !p->quiet)
		ltd_warn(warning);
	if (!ret)
		ret = ltd_cagens_make(&l->ns, p->id.uid, p->id.gid, err);
	if (!ret)
		ret = ltd_pasta_spawn(&l->host->pasta, l->ns.user, l->ns.net,
				      err);
	return ret;
}

static int step_firewall(void *ctx, struct ltd_err *err)
{
	struct ltd_launch *l = ctx;
	const struct ltd_policy *p = l->p;
	struct ltd_nft_spec spec = {
		.host_ports = p->host_ports,
		.n_host_ports = p->n_host_ports,
	};
	_cleanup_free_ struct ltd_net_dest *dests = NULL;
	uint16_t published[LTD_PUBLISH_MAX];
	int ret;

	if (p->network != LTD_NET_ALLOWLIST)
		return 0;
	/* What pasta brings in through its tap: the cage ports published
	 * beyond the host's loopback (from loopback they come over lo). */
	spec.published = published;
	for (size_t i = 0; i < p->n_publish; i++) {
		bool have = ltd_publish_loopback(&p->publish[i]);

		for (size_t k = 0; k < spec.n_published; k++)
			have |= published[k] == p->publish[i].cage_port;
		if (!have)
			published[spec.n_published++] = p->publish[i].cage_port;
	}
	/* The user's blocks only: the cage's resolver is on its loopback
	 * (the DNS filter), and nothing admits pasta's.  A test's holes
	 * (--test-firewall-hole) are the firewall's, not pasta's wall's. */
	spec.dests = p->allow;
	spec.n_dests = p->n_allow;
	if (p->n_fw_holes) {
		dests = calloc(p->n_allow + p->n_fw_holes, sizeof(*dests));
		if (!dests)
			return ltd_err_set(err, ENOMEM, "out of memory");
		memcpy(dests, p->allow, p->n_allow * sizeof(*dests));
		memcpy(dests + p->n_allow, p->fw_holes,
		       p->n_fw_holes * sizeof(*dests));
		spec.dests = dests;
		spec.n_dests = p->n_allow + p->n_fw_holes;
	}
	inet_pton(AF_INET, LTD_NET_GW4, &spec.gw4);
	inet_pton(AF_INET6, LTD_NET_GW6, &spec.gw6);
	ret = ltd_nft_build(&spec, &l->nft[0], err);
	/* The same without logging, for a kernel without NFLOG: the
	 * firewall matters, the report of its refusals does not. */
	spec.no_log = true;
	return ret < 0 ? ret : ltd_nft_build(&spec, &l->nft[1], err);
}

/*
 * LTD_DNS_MIN_TTL: for tests and debugging, a lower floor (seconds) for
 * the time an address stays open, so that expiry can be seen in seconds.
 * It can only shorten what the cage is allowed, never lengthen it.
 */
static uint32_t ttl_floor(void)
{
	const char *s = getenv("LTD_DNS_MIN_TTL");
	char *end;
	unsigned long v;

	if (!s || !*s)
		return LTD_DNS_TTL_FLOOR;
	v = strtoul(s, &end, 10);
	if (*end || v < 1 || v > LTD_DNS_TTL_FLOOR)
		return LTD_DNS_TTL_FLOOR;
	return (uint32_t)v;
}

/* No link followed (one planted in the project would aim the log at any
 * file), no FIFO waited on: a regular file. */
static int open_audit_log(const char *path, FILE **out, struct ltd_err *err)
{
	struct stat st;
	int ret, fd = open(path,
			   O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC |
				   O_NOCTTY | O_NOFOLLOW | O_NONBLOCK,
			   0600);

	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		fd = -1;
		errno = EINVAL;
	}
	if (fd < 0 || !(*out = fdopen(fd, "a"))) {
		ret = ltd_err_sys(err, "--audit-log '%s'", path);
		if (fd >= 0)
			close(fd);
		return ret;
	}
	return 0;
}

static int step_dns(void *ctx, struct ltd_err *err)
{
	struct ltd_launch *l = ctx;
	const struct ltd_policy *p = l->p;
	struct ltd_dnsd_config *cfg = &l->dns_cfg;
	int ret = 0;

	if (p->network != LTD_NET_ALLOWLIST)
		return 0;
	*cfg = (struct ltd_dnsd_config){
		.domains = &p->domains,
		.static_dests = p->allow,
		.n_static = p->n_allow,
		.ttl_floor = ttl_floor(),
		.ttl_ceiling = LTD_DNS_TTL_CEILING,
		.quiet = p->quiet,
		/* As the cage's /etc/hosts names them (runtime/mountplan.c). */
		.host_names = p->n_host_ports > 0,
	};
	if (p->dns_upstream)
		ret = ltd_dns_upstream_parse(p->dns_upstream, &cfg->upstream,
					     &cfg->upstream_len, err);
	else if (p->domains.n > 0) {
		struct ltd_err why = {0};

		/* No upstream: allowed names fail (SERVFAIL), the rest of
		 * the cage works; said unless --quiet. */
		if (ltd_dns_upstream_from_resolv(
			    "/etc/resolv.conf", &cfg->upstream,
			    &cfg->upstream_len, &why) < 0 &&
		    !p->quiet)
			ltd_warn(why.msg);
	}
	if (!ret && p->audit_log)
		ret = open_audit_log(p->audit_log, &cfg->audit, err);
	return ret;
}

static int step_mount_plan(void *ctx, struct ltd_err *err)
{
	struct ltd_launch *l = ctx;
	struct ltd_hostfs host = {0};
	int ret = ltd_hostfs_probe(&host, err);

	/* A pinned rootfs replaces what the host's root would give. */
	if (!ret && l->p->rootfs)
		host.pinned = &l->host->pinned;
	/* --review: the project is the review's overlay. */
	if (!ret && l->p->review)
		host.review = &l->review->layers;
	if (!ret)
		ret = ltd_plan_build(l->p, &l->host->protected, &host, &l->plan,
				     err);
	ltd_hostfs_free(&host);
	return ret < 0 ? ret : ltd_plan_check_host(&l->plan, err);
}

static int step_environment(void *ctx, struct ltd_err *err)
{
	struct ltd_launch *l = ctx;

	l->envp = ltd_env_build(l->p, environ, err);
	return l->envp ? 0 : -ENOMEM;
}

/* Landlock's ruleset from the plan, or the reason the run cannot have it
 * (--require-landlock, --restrict-tcp-ports).  What an older ABI leaves
 * out is a standing warning of this host's. */
static int step_landlock(void *ctx, struct ltd_err *err)
{
	struct ltd_launch *l = ctx;
	char warning[LTD_ERR_MSG_MAX], facts[32];
	struct ltd_standing s;
	int abi = landlock_abi(l->p);
	int ret = ltd_landlock_decide(l->p, abi, warning, sizeof(warning), err);

	if (ret < 0)
		return ret;
	if (warning[0]) {
		snprintf(facts, sizeof(facts), "abi %d", abi);
		ltd_standing_set(&s, "landlock", facts, warning);
		ltd_standing_say(&l->host->acks, &s);
	}
	return ltd_landlock_build(&l->plan, l->p, abi, &l->ll, err);
}

/* The audit log's first line of a run: the project and every risk the
 * user waived for it (DESIGN: a waived risk is logged). */
static void audit_start(FILE *audit, const struct ltd_policy *p)
{
	json_t *o, *w;

	if (!audit || !(o = json_object()))
		return;
	w = json_array();
	for (size_t i = 0; w && i < p->n_waived; i++)
		json_array_append_new(w, json_string(p->waived[i]));
	json_object_set_new(o, "event", json_string("start"));
	json_object_set_new(o, "project", json_string(p->project));
	if (w)
		json_object_set_new(o, "waived", w);
	ltd_audit_emit(audit, o);
}

static int step_say(void *ctx, struct ltd_err *err)
{
	struct ltd_launch *l = ctx;
	const struct ltd_policy *p = l->p;

	for (size_t i = 0; i < p->n_waived; i++)
		ltd_warn(p->waived[i]);
	audit_start(l->dns_cfg.audit, p);
	for (size_t i = 0; i < p->n_warnings; i++)
		ltd_warn(p->warnings[i]);
	for (size_t i = 0; !p->quiet && i < p->n_notes; i++)
		ltd_line_shown("ltd-native: note: ", p->notes[i], NULL);
	for (size_t i = 0; i < l->host->protected.n_warnings; i++)
		ltd_warn(l->host->protected.warnings[i]);
	return 0;
}

static int step_cgroup(void *ctx, struct ltd_err *err)
{
	struct ltd_launch *l = ctx;
	char warning[LTD_ERR_MSG_MAX + LTD_CG_PATH_MAX];
	char facts[LTD_STANDING_FACT];
	struct ltd_standing s;
	int ret = 0;

	if (l->limits.cgroup) {
		ret = ltd_cgroup_create(l->host->cg.dir, &l->limits, getpid(),
					&l->cg, err);
		if (ret < 0) {
			size_t n = strlen(err->msg);

			snprintf(err->msg + n, sizeof(err->msg) - n,
				 " (see 'ltd-native doctor')");
			return ret;
		}
	}
	/* No cgroup: a standing warning of this host's. */
	if (ltd_limits_warning(l->p, &l->limits, warning, sizeof(warning))) {
		ltd_standing_cgroup_facts(&l->host->cg, facts, sizeof(facts));
		ltd_standing_set(&s, "cgroup", facts, warning);
		ltd_standing_say(&l->host->acks, &s);
	}
	return ret;
}

static int step_dns_helper(void *ctx, struct ltd_err *err)
{
	struct ltd_launch *l = ctx;
	struct ltd_nflog_config nc = {.audit = l->dns_cfg.audit,
				      .quiet = l->p->quiet};
	int ret;

	if (l->p->network != LTD_NET_ALLOWLIST)
		return 0;
	ret = ltd_dnsproc_prepare(&l->dns, &l->dns_cfg, err);
	l->dns_on = ret == 0;
	l->net = (struct ltd_launch_net){
		.dns = &l->dns,
		.nflog = &l->nflog,
		.audit_fd = l->dns_cfg.audit ? fileno(l->dns_cfg.audit) : -1,
	};
	ltd_nflog_init(&l->nflog, &nc);
	return ret;
}

static int step_register(void *ctx, struct ltd_err *err)
{
	struct ltd_launch *l = ctx;

	return ltd_life_prepare(&l->life, l->p, l->envp, &l->limits, &l->ll,
				err);
}

static int step_outputs(void *ctx, struct ltd_err *err)
{
	struct ltd_launch *l = ctx;

	l->want_pty = ltd_pty_wanted();
	if (l->want_pty) {
		ioctl(STDIN_FILENO, TIOCGWINSZ, &l->ws);
		return 0;
	}
	return ltd_outputs_prepare(&l->life.outs, err);
}

static int step_channel(void *ctx, struct ltd_err *err)
{
	struct ltd_launch *l = ctx;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, l->sv) < 0)
		return ltd_err_sys(err, "socketpair");
	l->self_pidfd = pidfd_open(getpid(), 0);
	if (l->self_pidfd < 0)
		return ltd_err_sys(err, "pidfd_open");
	return ltd_signals_block(err);
}

static int step_snapshot(void *ctx, struct ltd_err *err)
{
	struct ltd_launch *l = ctx;

	l->protected_before = ltd_protected_ids(&l->host->protected);
	if (!l->p->review)
		l->instr_before = ltd_agentinstr_ids(l->p->project);
	l->root_was_gitdir = l->p->protect_git && ltd_gitdir_is(l->p->project);
	/* The exit walk's index, where there is none yet: before the time
	 * below, as before the command. */
	l->walk_dir = ltd_run_walk_dir(l->p);
	ltd_run_prime_walks(l->p, l->walk_dir);
	/* Coarse, as the ctimes the repository walk compares with it. */
	clock_gettime(CLOCK_REALTIME_COARSE, &l->started);
	return 0;
}

/*
 * --network none: the network namespace is made beside init's mounts by a
 * helper (runtime/netns.c) when the launcher may run on a second CPU; on
 * one, that would only add a fork, and clone3 makes it as before.
 */
static bool net_helper_pays(const struct ltd_policy *p)
{
	cpu_set_t cpus;

	return p->network == LTD_NET_NONE &&
	       sched_getaffinity(0, sizeof(cpus), &cpus) == 0 &&
	       CPU_COUNT(&cpus) >= 2;
}

/* In the child: become the cage's init; never returns. */
__attribute__((noreturn)) static void be_init(struct ltd_launch *l)
{
	const struct ltd_policy *p = l->p;
	struct ltd_cage c = {
		.policy = p,
		.plan = &l->plan,
		.seccomp = ltd_cage_filter(p->seccomp),
		.landlock = &l->ll,
		.nft = p->network == LTD_NET_ALLOWLIST ? &l->nft[0] : NULL,
		.nft_plain = &l->nft[1],
		.limits = &l->limits,
		.envp = l->envp,
		.sock = l->sv[1],
		.launcher_pidfd = l->self_pidfd,
		.launcher_argv = l->launcher_argv,
		.send_ns = p->name || p->status_fd >= 0 || p->info_fd >= 0,
		.want_pty = l->want_pty,
		.outputs = {l->life.outs.cmd[0], l->life.outs.cmd[1]},
		.ws = l->ws,
		.keep_running = p->keep_running,
		.net_helper = l->net_helper,
		.ns_made = l->ns.user >= 0,
	};

	close(l->sv[0]);
	ltd_cage_init(&c);
}

/* ltd_cagens_clone()'s child. */
__attribute__((noreturn)) static void init_main(void *l)
{
	be_init(l);
}

/*
 * Init in new namespaces, into the cage's cgroup (@l->cg.fd >= 0) from the
 * start: nothing of the cage ever runs outside its limits.  With
 * CLONE_NEWCGROUP the kernel roots the new cgroup namespace there too.
 * Allowlist: in the user and network namespaces pasta already serves
 * (runtime/cagens.c), the child running init; else clone3 makes them all
 * and init returns here with 0.
 */
static pid_t clone_init(struct ltd_launch *l, struct ltd_err *err)
{
	const struct ltd_policy *p = l->p;
	/* --network host (gated): the host's network namespace;
	 * the helper's: made later; allowlist: made already. */
	bool new_net =
		p->network != LTD_NET_HOST && !l->net_helper && l->ns.user < 0;
	struct clone_args args = {
		.flags = (LTD_CLONE_FLAGS | CLONE_PIDFD) &
			 ~(new_net ? 0ULL : (__u64)CLONE_NEWNET) &
			 ~(l->ns.user >= 0 ? (__u64)CLONE_NEWUSER : 0ULL),
		.pidfd = (__u64)(uintptr_t)&l->init_pidfd,
		.exit_signal = SIGCHLD,
	};
	long pid;

	if (l->cg.fd >= 0) {
		args.flags |= CLONE_INTO_CGROUP;
		args.cgroup = (__u64)l->cg.fd;
	}
	if (l->ns.user >= 0)
		return ltd_cagens_clone(&l->ns, &args, init_main, l, err);
	pid = syscall(SYS_clone3, &args, sizeof(args));
	if (pid < 0) {
		int ret = ltd_err_sys(err, "cannot create the cage's "
					   "namespaces (clone3)");
		if (errno == EPERM || errno == ENOSPC)
			ltd_cagens_userns_hint(err);
		return ret;
	}
	return (pid_t)pid;
}

static int step_clone(void *ctx, struct ltd_err *err)
{
	struct ltd_launch *l = ctx;

	l->net_helper = net_helper_pays(l->p);
	l->init = clone_init(l, err);
	if (l->init < 0) {
		int ret = l->init;

		l->init = -1;
		return ret;
	}
	if (l->init == 0)
		be_init(l);
	close(l->sv[1]);
	l->sv[1] = -1;
	/* Init and pasta hold the namespaces now. */
	ltd_cagens_close(&l->ns);
	ltd_life_cloned(&l->life, l->init, l->cg.fd);
	return 0;
}

const struct ltd_step ltd_launch_steps[] = {
	{"limits",
	 "an explicit limit the host cannot enforce stops the run before "
	 "anything is created on the host",
	 step_limits},
	{"state",
	 "the persistent state the policy binds, where missing: the only "
	 "thing ltd-native creates on the host",
	 step_state},
	{"review",
	 "--review: the review created or continued and locked, its layers "
	 "resolved (no path of them is taken on trust later)",
	 step_review},
	{"network",
	 "allowlist: the cage's user and network namespaces, and pasta "
	 "started in them, walled: its start-up overlaps with all that follows",
	 step_network},
	{"firewall", "allowlist: the nftables batch", step_firewall},
	{"dns", "the DNS filter's upstream and audit log", step_dns},
	{"mount-plan",
	 "the cage's mounts, checked against the host: nothing would be "
	 "created in a host bind",
	 step_mount_plan},
	{"environment", "the command's environment, from the policy",
	 step_environment},
	{"landlock", "the second wall's rules, for the command", step_landlock},
	{"say",
	 "waived risks and warnings, before anything runs (notes unless "
	 "--quiet)",
	 step_say},
	{"cgroup", "the cage's own cgroup, entered at clone", step_cgroup},
	{"dns-helper",
	 "ltd-dnsd found and configured: a missing one stops "
	 "the run here",
	 step_dns_helper},
	{"register",
	 "a name is claimed before the cage exists: a second cage of that "
	 "name stops here",
	 step_register},
	{"outputs", "the terminal's size, or the relay's pipes", step_outputs},
	{"channel",
	 "init's report socket and the launcher's pidfd (init dies with "
	 "it); signals blocked, so that init inherits the mask",
	 step_channel},
	{"snapshot",
	 "what the post-run checks compare with: the protected paths as "
	 "they are, the time",
	 step_snapshot},
	{"clone",
	 "init in new namespaces (allowlist: in those pasta serves), in the "
	 "cage's cgroup from the start",
	 step_clone},
	{NULL, NULL, NULL},
};
