// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --publish, the pure parts: the option's syntax, its gate (loopback only
 * unless --unsafe-publish-external; none and host refused), what pasta is
 * told, pasta's Landlock wall (bind the host port, connect the cage port),
 * the firewall's input chain, and the cage's /etc/hosts.  No privileges.
 */
#include <criterion/criterion.h>

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "netfilter/pasta.h"
#include "netfilter/ruleset.h"
#include "policy/option.h"
#include "policy/publish.h"
#include "runtime/landlock_rules.h"
#include "runtime/mountplan.h"
#include "runtime/run.h"
#include "tests/common/fixture.h"

static struct ltd_err err;

static struct ltd_publish parse_ok(const char *s)
{
	struct ltd_publish p;

	memset(&err, 0, sizeof(err));
	cr_assert_eq(ltd_publish_parse(s, "--publish", &p, &err), 0, "%s: %s",
		     s, err.msg);
	return p;
}

static const char *formatted(const char *s)
{
	static char buf[64];
	struct ltd_publish p = parse_ok(s);

	ltd_publish_format(&p, buf, sizeof(buf));
	return buf;
}

Test(publish, forms)
{
	struct ltd_publish p = parse_ok("8080:80");

	cr_assert_eq(p.family, AF_INET);
	cr_assert_eq(p.host_port, 8080);
	cr_assert_eq(p.cage_port, 80);
	cr_assert(ltd_publish_loopback(&p));
	cr_assert_str_eq(formatted("8080:80"), "127.0.0.1:8080:80",
			 "the host's side is 127.0.0.1 unless given");
	cr_assert_str_eq(formatted("localhost:8080:80"), "127.0.0.1:8080:80");
	cr_assert_str_eq(formatted("127.0.0.2:1:65535/tcp"),
			 "127.0.0.2:1:65535");
	cr_assert_str_eq(formatted("[::1]:3000:3000"), "[::1]:3000:3000");
	p = parse_ok("[::1]:3000:3000");
	cr_assert_eq(p.family, AF_INET6);
	cr_assert(ltd_publish_loopback(&p));
	p = parse_ok("0.0.0.0:8080:80");
	cr_assert_not(ltd_publish_loopback(&p), "any address is not loopback");
	p = parse_ok("[::]:8080:80");
	cr_assert_not(ltd_publish_loopback(&p));
	p = parse_ok("192.0.2.7:8080:80");
	cr_assert_not(ltd_publish_loopback(&p));
}

Test(publish, malformed)
{
	static const char *const bad[] = {
		"",
		"8080",
		":80",
		"8080:",
		"0:80",
		"8080:0",
		"65536:80",
		"8080:65536",
		"a:8080:80",
		"::1:8080:80",
		"[::1:8080:80",
		"1.2.3:8080:80",
		"8080:80/sctp",
		"8080:80/udp",
		"[127.0.0.1]:1:2",
		"x8080:80",
		"8080:8x0",
		"[]:8080:80",
		" 8080:80",
		"8080:80 ",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ltd_publish p;

		memset(&err, 0, sizeof(err));
		cr_assert_lt(ltd_publish_parse(bad[i], "--publish", &p, &err),
			     0, "'%s' accepted", bad[i]);
		cr_assert(strstr(err.msg, "--publish"), "%s", err.msg);
	}
	memset(&err, 0, sizeof(err));
	{
		struct ltd_publish p;

		ltd_publish_parse("8080:80/udp", "--publish", &p, &err);
		cr_assert(strstr(err.msg, "only TCP"), "%s", err.msg);
	}
}

/* pasta forwards a port once, whatever the address it listens on. */
Test(publish, a_host_port_once)
{
	struct ltd_publish *list = NULL, a = parse_ok("8080:80"),
			   b = parse_ok("[::1]:8080:81"),
			   c = parse_ok("8081:80");
	size_t n = 0;

	cr_assert_eq(ltd_publish_add(&list, &n, &a, "--publish", &err), 0);
	cr_assert_eq(ltd_publish_add(&list, &n, &c, "--publish", &err), 0,
		     "another host port to the same cage port is fine");
	cr_assert_eq(ltd_publish_add(&list, &n, &b, "--publish", &err),
		     -EINVAL);
	cr_assert(strstr(err.msg, "host port 8080 is published already"), "%s",
		  err.msg);
	cr_assert_eq(n, 2);
	free(list);
}

/* ---- the gate ----------------------------------------------------------- */

static struct ltd_policy pol;
static char dir[32];

static void setup(void)
{
	ltd_policy_init(&pol);
	memset(&err, 0, sizeof(err));
	fx_tmpdir(dir, sizeof(dir), "publish");
}

static void teardown(void)
{
	ltd_policy_free(&pol);
	fx_rm_rf(dir);
}

static int check(const char *const *args, size_t n)
{
	struct ltd_protected prot = {0};
	char *argv[16];
	size_t k = 0;
	int ret;

	ltd_policy_free(&pol);
	ltd_policy_init(&pol);
	for (size_t i = 0; i < n; i++)
		argv[k++] = (char *)args[i];
	argv[k++] = "--project";
	argv[k++] = dir;
	argv[k++] = "--";
	argv[k++] = "true";
	memset(&err, 0, sizeof(err));
	if (ltd_policy_parse_run(&pol, (int)k, argv, &err) < 0)
		return -EINVAL;
	ret = ltd_run_check(&pol, &prot, &err);
	ltd_protected_free(&prot);
	return ret;
}

#define CHECK(...)                                                             \
	({                                                                     \
		const char *const a_[] = {__VA_ARGS__};                        \
		check(a_, sizeof(a_) / sizeof(a_[0]));                         \
	})

Test(publish_gate, loopback_needs_nothing, .init = setup, .fini = teardown)
{
	cr_assert_eq(
		CHECK("--publish", "8080:80", "--publish", "[::1]:9090:90"), 0,
		"%s", err.msg);
	cr_assert_eq(pol.n_publish, 2);
	cr_assert_eq(pol.n_waived, 0);
}

Test(publish_gate, beyond_loopback_is_gated, .init = setup, .fini = teardown)
{
	cr_assert_eq(CHECK("--publish", "0.0.0.0:8080:80"), -EPERM);
	cr_assert(strstr(err.msg, "--unsafe-publish-external"), "%s", err.msg);
	cr_assert(strstr(err.msg, "0.0.0.0:8080:80"), "%s", err.msg);
	cr_assert_eq(CHECK("--publish", "0.0.0.0:8080:80",
			   "--unsafe-publish-external"),
		     0, "%s", err.msg);
	cr_assert_eq(pol.n_waived, 1, "a waived risk, said and logged");
	cr_assert(strstr(pol.waived[0], "--unsafe-publish-external: the "
					"cage's port 80 is served at "
					"0.0.0.0:8080"),
		  "%s", pol.waived[0]);
}

Test(publish_gate, not_without_a_network, .init = setup, .fini = teardown)
{
	cr_assert_eq(CHECK("--network", "none", "--publish", "8080:80"),
		     -EINVAL);
	cr_assert(strstr(err.msg, "--network none has no network to forward "
				  "through"),
		  "%s", err.msg);
	cr_assert_eq(CHECK("--network", "host", "--unsafe-host-network",
			   "--publish", "8080:80"),
		     -EINVAL);
	cr_assert(strstr(err.msg, "on the host's network already"), "%s",
		  err.msg);
}

/* Refused in a project's policy file, as every --unsafe flag is; the
 * option itself (loopback only) is not. */
Test(publish_gate, project_files)
{
	struct ltd_opt_list l = {0};
	const char *ok = "publish 8080:80\n", *no = "unsafe-publish-external\n";

	cr_assert_eq(ltd_opts_from_text(&l, ok, strlen(ok), "P", "/home/u",
					LTD_OPT_CLI_ONLY | LTD_OPT_NOT_PROJECT,
					&err),
		     0, "%s", err.msg);
	ltd_opts_free(&l);
	cr_assert_lt(ltd_opts_from_text(&l, no, strlen(no), "P", "/home/u",
					LTD_OPT_CLI_ONLY | LTD_OPT_NOT_PROJECT,
					&err),
		     0);
	ltd_opts_free(&l);
}

/* ---- what pasta, its wall and the firewall are told --------------------- */

Test(publish, pasta_forwards_the_published_ports_only)
{
	struct ltd_pasta pa = {.path = "/usr/bin/pasta"};
	struct ltd_publish pub[2] = {parse_ok("8080:80"),
				     parse_ok("[::1]:9090:3000")};
	char joined[2048] = "";

	cr_assert_eq(ltd_pasta_build(&pa, false, pub, 2, &err), 0, "%s",
		     err.msg);
	for (char **a = pa.argv; *a; a++) {
		strcat(joined, *a);
		strcat(joined, " ");
	}
	cr_assert(strstr(joined, " -t 127.0.0.1/8080:80 -t ::1/9090:3000 "
				 "-u none -T none -U none "),
		  "%s", joined);
	cr_assert_null(strstr(joined, "-t none"), "%s", joined);
}

Test(publish, pastas_wall_binds_the_host_port_and_connects_the_cage_port)
{
	struct ltd_policy p;
	struct ltd_landlock ll;
	char note[LTD_ERR_MSG_MAX];
	struct ltd_publish pub = parse_ok("8080:3000");

	ltd_policy_init(&p);
	p.publish = malloc(sizeof(pub));
	p.publish[0] = pub;
	p.n_publish = 1;
	cr_assert_eq(
		ltd_landlock_build_egress(&p, 4, &ll, note, sizeof(note), &err),
		0, "%s", err.msg);
	cr_assert_eq(ll.handled_net,
		     LTD_LL_NET_CONNECT_TCP | LTD_LL_NET_BIND_TCP);
	cr_assert_eq(ll.n_bind_ports, 1);
	cr_assert_eq(ll.bind_ports[0], 8080, "pasta listens there");
	cr_assert_eq(ll.n_ports, 1);
	cr_assert_eq(ll.ports[0], 3000,
		     "it connects to the cage's port on the cage's loopback");
	ltd_landlock_free(&ll);
	ltd_policy_free(&p);
}

Test(publish, the_input_chain_admits_the_published_ports_only)
{
	static const uint16_t published[] = {3000, 8000};
	struct ltd_nft_spec sp = {0};
	struct ltd_nft_batch b;
	char *text = NULL, *rule;
	size_t len = 0;
	FILE *f;

	inet_pton(AF_INET, LTD_NET_GW4, &sp.gw4);
	inet_pton(AF_INET6, LTD_NET_GW6, &sp.gw6);
	sp.published = published;
	sp.n_published = 2;
	cr_assert_eq(ltd_nft_build(&sp, &b, &err), 0, "%s", err.msg);
	f = open_memstream(&text, &len);
	cr_assert_eq(ltd_nft_batch_print(&b, f, &err), 0, "%s", err.msg);
	fclose(f);
	ltd_nft_batch_free(&b);
	rule = strstr(text, "[ lookup reg 1 set published ]");
	cr_assert_not_null(rule, "%s", text);
	/* In the input chain, for TCP's destination port. */
	cr_assert(strstr(text, "inet ltd input\n"
			       "  [ meta load l4proto => reg 1 ]\n"
			       "  [ cmp eq reg 1 0x00000006 ]\n"
			       "  [ payload load 2b @ transport header + 2 => "
			       "reg 1 ]\n"
			       "  [ lookup reg 1 set published ]\n"
			       "  [ immediate reg 0 accept ]"),
		  "%s", text);
	cr_assert_null(strstr(rule + 8, "lookup reg 1 set published"),
		       "one rule, in one chain");
	free(text);
	sp.n_published = 0;
	cr_assert_eq(ltd_nft_build(&sp, &b, &err), 0);
	text = NULL;
	f = open_memstream(&text, &len);
	ltd_nft_batch_print(&b, f, &err);
	fclose(f);
	ltd_nft_batch_free(&b);
	cr_assert_null(strstr(text, "published"), "none without --publish");
	free(text);
}

/* With a port published, the cage's localhost is 127.0.0.1 alone: a
 * server that listens on "localhost" (Node would pick ::1 where both are
 * named) is where a connection from the host's 127.0.0.1 arrives. */
static const char *etc_hosts(struct ltd_plan *plan)
{
	for (size_t i = 0; i < plan->n; i++)
		if (plan->e[i].op == LTD_OP_FILE &&
		    strcmp(plan->e[i].dst, "/etc/hosts") == 0)
			return plan->e[i].content;
	return "";
}

Test(publish, localhost_is_127_0_0_1_when_publishing)
{
	struct ltd_policy p;
	struct ltd_hostfs host = {0};
	struct ltd_protected prot = {0};
	struct ltd_plan plan = {0};

	ltd_policy_init(&p);
	p.project = strdup("/home/u/src/app");
	p.id = (struct ltd_identity){.uid = 1000,
				     .gid = 1000,
				     .user = strdup("u"),
				     .group = strdup("g"),
				     .home = strdup("/home/u"),
				     .shell = strdup("/bin/bash")};
	cr_assert_eq(ltd_plan_build(&p, &prot, &host, &plan, &err), 0, "%s",
		     err.msg);
	cr_assert(strstr(etc_hosts(&plan),
			 "::1\tlocalhost ip6-localhost ip6-loopback\n"),
		  "%s", etc_hosts(&plan));
	ltd_plan_free(&plan);
	memset(&plan, 0, sizeof(plan));
	p.publish = malloc(sizeof(*p.publish));
	p.publish[0] = parse_ok("8080:80");
	p.n_publish = 1;
	cr_assert_eq(ltd_plan_build(&p, &prot, &host, &plan, &err), 0, "%s",
		     err.msg);
	cr_assert(strstr(etc_hosts(&plan), "127.0.0.1\tlocalhost "), "%s",
		  etc_hosts(&plan));
	cr_assert(strstr(etc_hosts(&plan), "::1\tip6-localhost ip6-loopback\n"),
		  "%s", etc_hosts(&plan));
	ltd_plan_free(&plan);
	ltd_policy_free(&p);
}
