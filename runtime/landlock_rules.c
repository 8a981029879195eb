// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Landlock ruleset as a pure function of the mount plan and the policy
 * (confine/landlock.h).  No syscalls: the launcher builds it before clone()
 * and the unit tests feed it plans.
 */
#include "runtime/landlock_rules.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/path.h"
#include "common/vec.h"

/* Every filesystem right this ABI knows, so each one is handled. */
static uint64_t fs_rights(int abi)
{
	uint64_t r = (LTD_LL_FS_MAKE_SYM << 1) - 1; /* ABI 1 */

	if (abi >= 2)
		r |= LTD_LL_FS_REFER;
	if (abi >= 3)
		r |= LTD_LL_FS_TRUNCATE;
	if (abi >= 5)
		r |= LTD_LL_FS_IOCTL_DEV;
	return abi > 0 ? r : 0;
}

int ltd_landlock_decide(const struct ltd_policy *p, int abi, char *warning,
			size_t size, struct ltd_err *err)
{
	/* Host networking reaches the host's abstract unix sockets (X11,
	 * D-Bus...) unless Landlock scopes them (ABI 6). */
	int need = p->network == LTD_NET_HOST ? 6 : LTD_LL_MIN_REQUIRED_ABI;
	char have[48];

	warning[0] = '\0';
	if (abi > 0)
		snprintf(have, sizeof(have), "this kernel's Landlock is ABI %d",
			 abi);
	else
		snprintf(have, sizeof(have), "this kernel has no Landlock");
	if (p->restrict_tcp_ports && abi < LTD_LL_NET_ABI)
		return ltd_err_set(err, ENOTSUP,
				   "--restrict-tcp-ports: %s; TCP port rules "
				   "need ABI %d (Linux 6.7) (see 'ltd-native "
				   "doctor')",
				   have, LTD_LL_NET_ABI);
	if (p->require_landlock && abi < need)
		return ltd_err_set(err, ENOTSUP,
				   "--require-landlock: %s; the cage needs ABI "
				   "%d%s (see 'ltd-native doctor')",
				   have, need,
				   need > LTD_LL_MIN_REQUIRED_ABI
					   ? " with --network host (abstract "
					     "unix sockets scoped)"
					   : " (truncation handled)");
	if (abi == 0)
		snprintf(warning, size,
			 "this kernel has no Landlock: the cage runs without "
			 "its second wall (--require-landlock makes this an "
			 "error)");
	else if (abi < 3 ||
		 (abi < LTD_LL_NET_ABI && p->network == LTD_NET_ALLOWLIST))
		/* What an older ABI leaves to the other walls, by name. */
		snprintf(warning, size,
			 "%s: its second wall does not cover %s%s%s; see "
			 "'ltd-native doctor'",
			 have,
			 abi < 3 ? "truncating files (ABI 3, Linux "
				   "6.2)"
				 : "",
			 abi < 3 && p->network == LTD_NET_ALLOWLIST ? " nor "
								    : "",
			 p->network == LTD_NET_ALLOWLIST
				 ? "pasta's TCP ports (ABI 4, Linux 6.7: "
				   "egress rests on the firewall alone)"
				 : "");
	return 0;
}

/* The rights a plan entry's mount gives the command; 0: no rule of its own
 * (covered by the mount it lies in, or not a place of its own). */
static uint64_t entry_access(enum ltd_plan_op op)
{
	switch (op) {
	case LTD_OP_BIND_RO:
		return LTD_LL_READ;
	case LTD_OP_BIND_RW:
	case LTD_OP_OVERLAY:
	case LTD_OP_TMPFS:
	case LTD_OP_SCRATCH:
		return LTD_LL_WRITE;
	case LTD_OP_DEV:
		return LTD_LL_DEVICE;
	case LTD_OP_DEVPTS:
		return LTD_LL_DEVICE | LTD_LL_FS_READ_DIR;
	case LTD_OP_PROC:
		return LTD_LL_PROC;
	default:
		/* Symlinks, files and copies live in a tmpfs that has its
		 * rule; masks and read-only binds over the same place cannot
		 * take rights away (grants add up down the tree), so their
		 * read-only mounts are the wall; pins and the seal change no
		 * content. */
		return 0;
	}
}

/* Mounts that put other content at their destination. */
static bool hides(enum ltd_plan_op op)
{
	return op == LTD_OP_BIND_RO || op == LTD_OP_BIND_RW ||
	       op == LTD_OP_DEV || op == LTD_OP_TMPFS || op == LTD_OP_SCRATCH ||
	       op == LTD_OP_PROC || op == LTD_OP_DEVPTS || op == LTD_OP_MASK ||
	       op == LTD_OP_OVERLAY;
}

/* A later mount at the same place or above covers entry @i: a rule for
 * it would land on what that mount shows there. */
static bool hidden(const struct ltd_plan *plan, size_t i)
{
	for (size_t j = i + 1; j < plan->n; j++)
		if (hides(plan->e[j].op) &&
		    ltd_path_is_under(plan->e[i].dst, plan->e[j].dst))
			return true;
	return false;
}

static int add_rule(struct ltd_landlock *ll, const char *path, uint64_t access,
		    bool optional, const char *why, struct ltd_err *err)
{
	struct ltd_ll_rule *r;

	r = ltd_vec_push(&ll->rules, ll->n_rules);
	if (!r)
		return ltd_err_set(err, ENOMEM, "out of memory");
	*r = (struct ltd_ll_rule){
		.access = access, .optional = optional, .why = why};
	r->path = strdup(path);
	if (!r->path)
		return ltd_err_set(err, ENOMEM, "out of memory");
	ll->n_rules++;
	return 0;
}

static int build_fs(const struct ltd_plan *plan, struct ltd_landlock *ll,
		    struct ltd_err *err)
{
	uint64_t mask = ll->handled_fs;
	int ret;

	/* The cage's root tmpfs (sealed read-only): generated /etc files,
	 * /dev's directory, the mount points.  Nothing beyond the cage's
	 * tree has a rule, so a descriptor that leads into the host opens
	 * nothing there. */
	ret = add_rule(ll, "/", LTD_LL_READ & mask, false, "rootfs", err);
	for (size_t i = 0; !ret && i < plan->n; i++) {
		const struct ltd_plan_entry *e = &plan->e[i];
		uint64_t access = entry_access(e->op) & mask;

		if (!access || hidden(plan, i) ||
		    (e->flags & LTD_PF_NO_LANDLOCK))
			continue;
		ret = add_rule(ll, e->dst, access,
			       (e->flags & LTD_PF_OPTIONAL) != 0, e->why, err);
	}
	return ret;
}

static int add_port(struct ltd_landlock *ll, unsigned port, const char *flag,
		    struct ltd_err *err)
{
	size_t i = 0;

	while (i < ll->n_ports && ll->ports[i] < port)
		i++;
	if (i < ll->n_ports && ll->ports[i] == port)
		return 0;
	if (ll->n_ports == LTD_LL_MAX_PORTS)
		return ltd_err_set(err, E2BIG,
				   "more than %d TCP ports allowed (%s)",
				   LTD_LL_MAX_PORTS, flag);
	memmove(&ll->ports[i + 1], &ll->ports[i],
		(ll->n_ports - i) * sizeof(ll->ports[0]));
	ll->ports[i] = (uint16_t)port;
	ll->n_ports++;
	return 0;
}

/*
 * The TCP ports the policy lets the cage reach: --allow-cidr's,
 * --allow-host-port's, the allowed domains'.  -EINVAL (@err naming the
 * block) when a block is open on every port; -E2BIG past
 * LTD_LL_MAX_PORTS.  Landlock knows ports, not addresses: a port allowed
 * for one destination is allowed for every address.
 */
static int egress_ports(const struct ltd_policy *p, struct ltd_landlock *ll,
			struct ltd_err *err)
{
	char buf[80];
	int ret = 0;

	for (size_t i = 0; !ret && i < p->n_allow; i++) {
		const struct ltd_net_dest *d = &p->allow[i];

		if (d->n_ports && d->only_proto == IPPROTO_UDP)
			continue;
		if (d->n_ports == 0) {
			ltd_cidr_dest_format(d, buf, sizeof(buf));
			return ltd_err_set(err, EINVAL,
					   "--allow-cidr %s allows every port",
					   buf);
		}
		for (size_t r = 0; !ret && r < d->n_ports; r++)
			for (unsigned port = d->ports[r].lo;
			     !ret && port <= d->ports[r].hi; port++)
				ret = add_port(ll, port, "--allow-cidr", err);
	}
	for (size_t i = 0; !ret && i < p->n_host_ports; i++)
		ret = add_port(ll, p->host_ports[i], "--allow-host-port", err);
	for (size_t i = 0; !ret && i < p->domains.n; i++)
		for (size_t k = 0; !ret && k < p->domains.v[i].n_ports; k++)
			ret = add_port(ll, p->domains.v[i].ports[k],
				       "--allow-domain", err);
	return ret;
}

/*
 * --restrict-tcp-ports: the command's own connects, to the policy's ports
 * and the cage's resolver (DNS over TCP), the cage's loopback included.
 */
static int build_net(const struct ltd_policy *p, struct ltd_landlock *ll,
		     struct ltd_err *err)
{
	struct ltd_err why = {0};
	int ret;

	ll->handled_net = LTD_LL_NET_CONNECT_TCP;
	ret = egress_ports(p, ll, &why);
	if (!ret && p->network != LTD_NET_NONE)
		ret = add_port(ll, 53, "the resolver", &why);
	if (ret < 0)
		return ltd_err_set(
			err, -ret, "--restrict-tcp-ports: %s%s", why.msg,
			ret == -EINVAL ? "; give its ports (CIDR:PORTS)" : "");
	return 0;
}

/*
 * --publish: pasta listens on each host port (bind), and splices each
 * connection from the host's loopback into the cage by connecting to the
 * cage port on the cage's loopback (connect; a connection from elsewhere
 * comes through its tap, without a connect).  Landlock knows ports, not
 * addresses: the cage port is then open to pasta's connects everywhere,
 * where the firewall still refuses what the policy does not allow.
 */
static int egress_publish(const struct ltd_policy *p, struct ltd_landlock *ll,
			  struct ltd_err *err)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < p->n_publish; i++) {
		const struct ltd_publish *pub = &p->publish[i];
		bool have = false;

		for (size_t k = 0; k < ll->n_bind_ports; k++)
			have |= ll->bind_ports[k] == pub->host_port;
		if (!have && ll->n_bind_ports == LTD_LL_MAX_BIND_PORTS)
			return ltd_err_set(err, E2BIG,
					   "--publish: too many "
					   "ports");
		if (!have)
			ll->bind_ports[ll->n_bind_ports++] = pub->host_port;
		if (ll->handled_net & LTD_LL_NET_CONNECT_TCP)
			ret = add_port(ll, pub->cage_port, "--publish", err);
	}
	return ret;
}

int ltd_landlock_build_egress(const struct ltd_policy *p, int abi,
			      struct ltd_landlock *ll, char *note, size_t size,
			      struct ltd_err *err)
{
	struct ltd_err why = {0};
	int ret;

	*ll = (struct ltd_landlock){0};
	note[0] = '\0';
	if (p->network != LTD_NET_ALLOWLIST || abi < LTD_LL_NET_ABI)
		return 0;
	/* pasta binds no TCP port of the host but the published ones (it
	 * forwards nothing else in). */
	ll->abi = abi;
	ll->handled_net = LTD_LL_NET_CONNECT_TCP | LTD_LL_NET_BIND_TCP;
	ret = egress_ports(p, ll, &why);
	/* A block open on every port, or more ports than a ruleset holds:
	 * the user's own policy, and no port wall can say it. */
	if (ret == -EINVAL || ret == -E2BIG) {
		ll->handled_net = LTD_LL_NET_BIND_TCP;
		ll->n_ports = 0;
		snprintf(note, size,
			 "pasta's TCP port wall (the second wall behind the "
			 "firewall) is open for this run: %s; give each "
			 "block its ports (CIDR:PORTS) to keep it",
			 why.msg);
		ret = 0;
	}
	if (!ret)
		ret = egress_publish(p, ll, &why);
	return ret < 0 ? ltd_err_set(err, -ret, "%s", why.msg) : 0;
}

int ltd_landlock_build(const struct ltd_plan *plan, const struct ltd_policy *p,
		       int abi, struct ltd_landlock *ll, struct ltd_err *err)
{
	int ret;

	*ll = (struct ltd_landlock){.abi = abi, .handled_fs = fs_rights(abi)};
	if (abi <= 0)
		return 0;
	/* The pid namespace already keeps signals inside the cage, and the
	 * network namespace its abstract unix sockets.  A Landlock scope
	 * would also cut the command off from what `exec` starts in the same
	 * cage later (each gets a domain of its own).  Only with the host's
	 * network are abstract sockets the host's: scoped then. */
	if (abi >= 6 && p->network == LTD_NET_HOST)
		ll->scoped = LTD_LL_SCOPE_ABSTRACT_UNIX;
	ret = build_fs(plan, ll, err);
	if (!ret && p->restrict_tcp_ports && abi >= LTD_LL_NET_ABI)
		ret = build_net(p, ll, err);
	if (ret < 0)
		ltd_landlock_free(ll);
	return ret;
}
