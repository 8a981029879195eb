// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * netfilter/: the egress firewall batch, built from a fixed spec, parsed
 * back from its bytes with libnftnl and printed (rules as `nft
 * --debug=netlink` prints them), compared with a golden file.  No
 * privileges needed.  Plus the --allow-cidr parser and the checks that the
 * builder makes before clone (overlaps).
 *
 * Refreshing the golden file, when the ruleset changes on purpose:
 *
 *   LTD_UPDATE_GOLDEN=1 ./build/unit-tests --filter 'ruleset/golden_*'
 *   git diff tests/unit/golden/nft-allowlist.txt   # review every line
 *
 * and commit it with the builder change.  Without the variable the test
 * compares byte for byte and fails on any difference.  To check a change
 * against nft itself, load the same rules with `nft -d netlink -f FILE`
 * in a scratch namespace (unshare -Urn) and compare the expressions.
 */
#include <criterion/criterion.h>
#include <unistd.h>
#include <fcntl.h>

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "netfilter/pasta.h"
#include "netfilter/ruleset.h"
#include "policy/cidr.h"

#ifndef LTD_GOLDEN_DIR
#define LTD_GOLDEN_DIR "tests/unit/golden"
#endif
#define GOLDEN_ALLOWLIST LTD_GOLDEN_DIR "/nft-allowlist.txt"

static void parse(const char *s, struct ltd_net_dest *d)
{
	struct ltd_err err = {0};

	cr_assert_eq(ltd_cidr_dest_parse(s, "--allow-cidr", d, &err), 0,
		     "%s: %s", s, err.msg);
}

static char *print_batch(const struct ltd_nft_spec *sp)
{
	struct ltd_err err = {0};
	struct ltd_nft_batch b;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	cr_assert_eq(ltd_nft_build(sp, &b, &err), 0, "%s", err.msg);
	f = open_memstream(&text, &len);
	cr_assert_not_null(f);
	cr_assert_eq(ltd_nft_batch_print(&b, f, &err), 0, "%s", err.msg);
	fclose(f);
	ltd_nft_batch_free(&b);
	return text;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	size_t len = 0;
	FILE *m;
	int c;

	if (!f)
		return NULL;
	m = open_memstream(&text, &len);
	while ((c = fgetc(f)) != EOF)
		fputc(c, m);
	fclose(m);
	fclose(f);
	return text;
}

/* The spec the runtime builds for two --allow-cidr, a v6 block, host
 * ports and a single address with a port. */
static void sample_spec(struct ltd_nft_spec *sp, struct ltd_net_dest *d)
{
	static const uint16_t host_ports[] = {4000, 8080};

	parse("10.200.1.0/24:8080,9000-9010", &d[0]);
	parse("192.0.2.7", &d[1]);
	parse("fd00:200::/64:443", &d[2]);
	parse("198.18.93.3:53", &d[3]);
	memset(sp, 0, sizeof(*sp));
	sp->dests = d;
	sp->n_dests = 4;
	inet_pton(AF_INET, LTD_NET_GW4, &sp->gw4);
	inet_pton(AF_INET6, LTD_NET_GW6, &sp->gw6);
	sp->host_ports = host_ports;
	sp->n_host_ports = 2;
}

Test(ruleset, golden_allowlist)
{
	struct ltd_net_dest d[4];
	struct ltd_nft_spec sp;
	char *text, *golden;

	sample_spec(&sp, d);
	text = print_batch(&sp);
	if (getenv("LTD_UPDATE_GOLDEN")) {
		FILE *f = fopen(GOLDEN_ALLOWLIST, "we");

		cr_assert_not_null(f, "%s: %s", GOLDEN_ALLOWLIST,
				   strerror(errno));
		fputs(text, f);
		fclose(f);
		cr_log_warn("rewrote %s: review the diff", GOLDEN_ALLOWLIST);
	}
	golden = slurp(GOLDEN_ALLOWLIST);
	cr_assert_not_null(golden,
			   "%s: %s (create it with LTD_UPDATE_GOLDEN=1)",
			   GOLDEN_ALLOWLIST, strerror(errno));
	/* Not vacuous: the golden file itself shows the default deny. */
	cr_assert(strstr(golden, "policy drop"));
	cr_assert(strstr(golden, "[ reject type 1 code 0 ]"));
	cr_assert_str_eq(text, golden,
			 "the batch differs from %s; if on purpose, refresh it "
			 "(see the top of this file)",
			 GOLDEN_ALLOWLIST);
	free(text);
	free(golden);
}

/* No host ports: no host_ports set, and nothing reaches the gateway. */
Test(ruleset, no_host_ports_no_gateway_rule)
{
	struct ltd_nft_spec sp = {0};
	char *text;

	inet_pton(AF_INET, LTD_NET_GW4, &sp.gw4);
	text = print_batch(&sp);
	cr_assert_null(strstr(text, "host_ports"));
	cr_assert(strstr(text, "policy drop"));
	cr_assert(strstr(text, "[ lookup reg 1 set allow4 ]"));
	cr_assert(strstr(text, "[ lookup reg 1 set allow6 ]"));
	free(text);
}

/* The batch for a kernel without NFLOG: the same refusals, not logged. */
Test(ruleset, plain_batch_refuses_without_logging)
{
	struct ltd_nft_spec sp = {0};
	char *logged, *plain;

	inet_pton(AF_INET, LTD_NET_GW4, &sp.gw4);
	logged = print_batch(&sp);
	sp.no_log = true;
	plain = print_batch(&sp);
	cr_assert(strstr(logged, "[ log"), "the default batch logs refusals");
	cr_assert_null(strstr(plain, "[ log"));
	cr_assert(strstr(plain, "[ reject type 1 code 3 ]") ||
			  strstr(plain, "reject"),
		  "%s", plain);
	cr_assert(strstr(plain, "policy drop"));
	free(logged);
	free(plain);
}

Test(ruleset, every_message_named_for_errors)
{
	struct ltd_net_dest d[4];
	struct ltd_nft_spec sp;
	struct ltd_err err = {0};
	struct ltd_nft_batch b;
	const struct ltd_nft_obj *o;

	sample_spec(&sp, d);
	cr_assert_eq(ltd_nft_build(&sp, &b, &err), 0);
	cr_assert_gt(b.n_objs, 10);
	o = ltd_nft_batch_obj(&b, b.seq_begin + 1);
	cr_assert_not_null(o);
	cr_assert_str_eq(o->what, "table inet ltd");
	for (size_t i = 0; i < b.n_objs; i++)
		cr_assert_eq(ltd_nft_batch_obj(&b, b.objs[i].seq), &b.objs[i]);
	cr_assert(strstr(b.objs[b.n_objs - 1].what, "neighbour discovery"),
		  "the input chain's rules come last");
	bool seen_reject = false, seen_input = false;
	for (size_t i = 0; i < b.n_objs; i++) {
		seen_reject |=
			strstr(b.objs[i].what, "admin-prohibited") != NULL;
		seen_input |= strstr(b.objs[i].what, "chain input") != NULL;
	}
	cr_assert(seen_reject && seen_input);
	cr_assert_null(ltd_nft_batch_obj(&b, b.seq_end));
	ltd_nft_batch_free(&b);
}

Test(ruleset, covered_block_dropped_partial_overlap_refused)
{
	struct ltd_net_dest d[2];
	struct ltd_nft_spec sp = {.dests = d, .n_dests = 2};
	struct ltd_err err = {0};
	struct ltd_nft_batch b;
	char *text;

	parse("10.0.0.0/8", &d[0]);
	parse("10.1.0.0/16:443", &d[1]);
	text = print_batch(&sp);
	cr_assert_null(strstr(text, "10.1.0.0"), "covered: no own message");
	cr_assert_null(strstr(text, "0000010a 00000006"));
	free(text);

	parse("10.0.0.0/16:1-500", &d[0]);
	parse("10.0.0.0/8:443", &d[1]);
	cr_assert_eq(ltd_nft_build(&sp, &b, &err), -EINVAL);
	cr_assert(strstr(err.msg, "overlap"), "%s", err.msg);
	cr_assert(strstr(err.msg, "10.0.0.0/16:1-500"), "%s", err.msg);
}

Test(cidr, forms)
{
	struct ltd_net_dest d;
	char buf[96];

	parse("10.0.0.0/8", &d);
	cr_assert_eq(d.family, AF_INET);
	cr_assert_eq(d.prefix, 8);
	cr_assert_eq(d.n_ports, 0);
	parse("192.0.2.7:443", &d);
	cr_assert_eq(d.prefix, 32);
	cr_assert_eq(d.n_ports, 1);
	cr_assert_eq(d.ports[0].lo, 443);
	parse("192.0.2.0/24:80,443,8000-8100", &d);
	cr_assert_eq(d.n_ports, 3);
	cr_assert_eq(d.ports[2].lo, 8000);
	cr_assert_eq(d.ports[2].hi, 8100);
	ltd_cidr_dest_format(&d, buf, sizeof(buf));
	cr_assert_str_eq(buf, "192.0.2.0/24:80,443,8000-8100");
	parse("fd00::/64:443", &d);
	cr_assert_eq(d.family, AF_INET6);
	cr_assert_eq(d.prefix, 64);
	cr_assert_eq(d.ports[0].lo, 443);
	parse("[fd00::7]:443", &d);
	cr_assert_eq(d.prefix, 128);
	cr_assert_eq(d.n_ports, 1);
	/* A bare IPv6 address is the whole address, never "address:port". */
	parse("fd00::1:443", &d);
	cr_assert_eq(d.prefix, 128);
	cr_assert_eq(d.n_ports, 0);
}

Test(cidr, refused)
{
	static const char *const bad[] = {
		"",
		"10.0.0.0/33",
		"10.0.0.1/8",
		"10.0.0.0/8:",
		"10.0.0.0/8:0",
		"10.0.0.0/8:65536",
		"10.0.0.0/8:90-80",
		"10.0.0.0/8:80,",
		"example.com",
		"fd00::/129",
		"[fd00::1",
		"10.0.0.0/8x",
		"1.2.3.4:1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17",
	};
	struct ltd_net_dest d;

	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		struct ltd_err err = {0};

		cr_assert_lt(
			ltd_cidr_dest_parse(bad[i], "--allow-cidr", &d, &err),
			0, "'%s' accepted", bad[i]);
		cr_assert(strstr(err.msg, "--allow-cidr"), "%s", err.msg);
	}
}

Test(pasta, argv_hardened)
{
	struct ltd_pasta pa = {.path = "/usr/bin/pasta"};
	struct ltd_err err = {0};
	char joined[1024] = "";

	cr_assert_eq(ltd_pasta_build(&pa, false, NULL, 0, &err), 0);
	for (char **a = pa.argv; *a; a++) {
		strcat(joined, *a);
		strcat(joined, " ");
	}
	cr_assert(strstr(joined, " -t none -u none -T none -U none "), "%s",
		  joined);
	cr_assert(strstr(joined, " --no-map-gw "), "%s", joined);
	cr_assert(strstr(joined, " -f "), "%s", joined);
	cr_assert(strstr(joined, " -g " LTD_NET_GW4 " "), "%s", joined);
	cr_assert(strstr(joined, " -P /proc/self/fd/3 "), "%s", joined);
	/* pasta serves no DNS: the cage's resolver is the launcher's. */
	cr_assert(strstr(joined, " -D none "), "%s", joined);
	cr_assert_null(strstr(joined, "--dns-forward"), "%s", joined);
	cr_assert_eq(ltd_pasta_build(&pa, true, NULL, 0, &err), 0);
	for (char **a = pa.argv; *a; a++)
		cr_assert_str_neq(*a, "--no-map-gw");
}

/* The program exec'd: pasta, or the AVX2 build beside its resolved path
 * that pasta would exec itself (decision 0152); argv[0] names pasta
 * either way, which is what selects pasta's mode. */
Test(pasta, execs_its_avx2_build_when_pasta_would)
{
	char dir[] = "/tmp/ltd-pasta-exe.XXXXXX", passt[96], avx2[96];
	struct ltd_pasta pa = {0};
	struct ltd_err err = {0};
	int fd;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(passt, sizeof(passt), "%s/passt", dir);
	snprintf(avx2, sizeof(avx2), "%s/passt.avx2", dir);
	snprintf(pa.path, sizeof(pa.path), "%s/pasta", dir);
	fd = open(passt, O_WRONLY | O_CREAT | O_CLOEXEC, 0755);
	cr_assert_geq(fd, 0);
	close(fd);
	cr_assert_eq(symlink("passt", pa.path), 0);
	cr_assert_eq(ltd_pasta_build(&pa, false, NULL, 0, &err), 0);
	cr_assert_str_eq(pa.exe, pa.path, "no AVX2 build: pasta itself");
	fd = open(avx2, O_WRONLY | O_CREAT | O_CLOEXEC, 0755);
	cr_assert_geq(fd, 0);
	close(fd);
	cr_assert_eq(ltd_pasta_build(&pa, false, NULL, 0, &err), 0);
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx2"))
		cr_assert_str_eq(pa.exe, avx2);
	else
		cr_assert_str_eq(pa.exe, pa.path);
	cr_assert_str_eq(pa.argv[0], pa.path, "argv[0] names pasta");
	unlink(avx2);
	unlink(pa.path);
	unlink(passt);
	rmdir(dir);
}

/* The batch's bytes do not depend on what the heap held before: attribute
 * padding is zeroed (only the room each message may use is, so the pages
 * past the batch stay untouched). */
Test(ruleset, no_heap_bytes_in_the_batch)
{
	struct ltd_net_dest d[4];
	struct ltd_nft_spec sp;
	struct ltd_err err = {0};
	struct ltd_nft_batch clean, dirty;
	void *junk[8];

	sample_spec(&sp, d);
	cr_assert_eq(ltd_nft_build(&sp, &clean, &err), 0);
	/* Blocks of the batch's size, filled and freed: the next build's
	 * buffer is made of them. */
	for (int i = 0; i < 8; i++) {
		junk[i] = malloc(64 * 1024);
		cr_assert_not_null(junk[i]);
		memset(junk[i], 0xa5, 64 * 1024);
	}
	for (int i = 0; i < 8; i++)
		free(junk[i]);
	cr_assert_eq(ltd_nft_build(&sp, &dirty, &err), 0);
	cr_assert_eq(dirty.len, clean.len);
	cr_assert_eq(memcmp(dirty.buf, clean.buf, clean.len), 0,
		     "heap bytes in the batch");
	ltd_nft_batch_free(&clean);
	ltd_nft_batch_free(&dirty);
}
