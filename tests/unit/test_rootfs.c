// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The pure parts of pinned root filesystems: the manifest format and its
 * digest, tar path cleaning, link targets, whiteouts, pins and references,
 * and the mount plan of a pinned root.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/names.h"
#include "rootfs-tools/layer.h"
#include "rootfs/manifest.h"
#include "rootfs/store.h"
#include "runtime/mountplan.h"

static struct ltd_err err;

/* --- manifest ---------------------------------------------------------- */

Test(manifest, formats_each_type)
{
	struct ltd_mf_entry d = {.type = 'd', .mode = 0755, .path = "/"};
	struct ltd_mf_entry f = {.type = 'f',
				 .mode = 04755,
				 .uid = 0,
				 .gid = 42,
				 .size = 3,
				 .path = "/bin/su"};
	struct ltd_mf_entry l = {.type = 'l',
				 .mode = 0644,
				 .path = "/bin/sh",
				 .target = "busybox"};
	char *s;

	memset(f.hash, 'a', LTD_HEX_LEN);
	s = ltd_manifest_format(&d);
	cr_assert_str_eq(s, "d 0755 0:0 - - /\n");
	free(s);
	s = ltd_manifest_format(&f);
	cr_assert_str_eq(s, "f 4755 0:42 3 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
			    "aaaaaaaaaaaaaaaaaaaaaaaaaaaa /bin/su\n");
	free(s);
	s = ltd_manifest_format(&l); /* a link's mode is always 0777 */
	cr_assert_str_eq(s, "l 0777 0:0 - busybox /bin/sh\n");
	free(s);
}

Test(manifest, escapes_spaces_newlines_and_percent)
{
	struct ltd_mf_entry l = {
		.type = 'l', .path = "/a b\n%", .target = "x y"};
	char *s = ltd_manifest_format(&l);
	char buf[] = "a%20b%0A%25";

	cr_assert_str_eq(s, "l 0777 0:0 - x%20y /a%20b%0A%25\n");
	free(s);
	cr_assert_eq(ltd_manifest_unescape(buf), 0);
	cr_assert_str_eq(buf, "a b\n%");
}

Test(manifest, refuses_ambiguous_escapes)
{
	char nul[] = "a%00", needless[] = "%41", raw[] = "a b", bad[] = "%G1";

	cr_assert_eq(ltd_manifest_unescape(nul), -EINVAL);
	cr_assert_eq(ltd_manifest_unescape(needless),
		     -EINVAL); /* two spellings */
	cr_assert_eq(ltd_manifest_unescape(raw), -EINVAL);
	cr_assert_eq(ltd_manifest_unescape(bad), -EINVAL);
}

static const char good[] = LTD_MANIFEST_HEADER
	"d 0755 0:0 - - /\n"
	"d 0755 0:0 - - /bin\n"
	"f 0755 0:0 5 "
	"3d9f2889d6782537624a4e1a10e68a2ddd53e0ee8bac02676f27308f42ec6bf6 "
	"/bin/busybox\n"
	"l 0777 0:0 - busybox /bin/sh\n";

Test(manifest, parses_what_it_formats)
{
	struct ltd_manifest m;
	char *line;

	cr_assert_eq(ltd_manifest_parse(good, strlen(good), &m, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(m.n, 4);
	cr_assert_eq(m.e[2].size, 5);
	cr_assert_str_eq(m.e[3].target, "busybox");
	cr_assert_not_null(ltd_manifest_find(&m, "/bin/sh"));
	cr_assert_null(ltd_manifest_find(&m, "/bin/bash"));
	line = ltd_manifest_format(&m.e[2]);
	cr_assert(strstr(good, line) != NULL);
	free(line);
	ltd_manifest_free(&m);
}

Test(manifest, refuses_malformed)
{
	static const char *const bad[] = {
		"not a manifest\n",
		LTD_MANIFEST_HEADER "d 0755 0:0 - - /",	     /* no newline */
		LTD_MANIFEST_HEADER "d 0755 0:0 - - /bin\n", /* root first */
		LTD_MANIFEST_HEADER "d 0755 0:0 - - /\nf 0644 0:0 1 xyz /a\n",
		LTD_MANIFEST_HEADER "d 0755 0:0 - - /\nd 0755 0:0 - abc /a\n",
		LTD_MANIFEST_HEADER "d 0755 0:0 - - /\nd 0755 0:0 - - a\n",
		LTD_MANIFEST_HEADER "d 0755 0:0 - - /\nd 0755 0:0 - - /a x\n",
		LTD_MANIFEST_HEADER "d 0755 0:0 - - /\nd 9755 0:0 - - /a\n",
		LTD_MANIFEST_HEADER "d 0755 00:0 - - /\n",
	};
	struct ltd_manifest m;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_lt(
			ltd_manifest_parse(bad[i], strlen(bad[i]), &m, &err), 0,
			"accepted case %zu", i);
}

Test(manifest, digest_is_the_sha256_of_its_bytes)
{
	char hex[LTD_HEX_LEN + 1];

	ltd_sha256_hex("abc", 3, hex);
	cr_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9c"
			      "b410ff61f20015ad");
	cr_assert(ltd_hex_ok(hex));
	cr_assert_not(ltd_hex_ok("BA7816"));
}

/* The streaming hash (layers, files) agrees with the one-shot one across
 * block boundaries: FIPS 180-2's million 'a's, fed in uneven pieces. */
Test(manifest, streamed_digest_matches_across_blocks)
{
	static char a[1000];
	char one[LTD_HEX_LEN + 1], hex[LTD_HEX_LEN + 1];
	struct ltd_sha256 h;
	size_t done = 0, step = 1;

	memset(a, 'a', sizeof(a));
	ltd_sha256_init(&h);
	while (done < 1000000) {
		size_t n = step < 1000000 - done ? step : 1000000 - done;

		ltd_sha256_update(&h, a, n > sizeof(a) ? sizeof(a) : n);
		done += n > sizeof(a) ? sizeof(a) : n;
		step = step * 7 % 997 + 1;
	}
	ltd_sha256_done(&h, hex);
	cr_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e"
			      "046d39ccc7112cd0");
	ltd_sha256_hex("", 0, one);
	cr_assert_str_eq(one, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934c"
			      "a495991b7852b855");
}

Test(manifest, disk_modes_are_read_only_and_owner_readable)
{
	cr_assert_eq(ltd_manifest_disk_mode('f', 04755), 0555);
	cr_assert_eq(ltd_manifest_disk_mode('f', 0600), 0400);
	cr_assert_eq(ltd_manifest_disk_mode('f', 0000), 0400);
	cr_assert_eq(ltd_manifest_disk_mode('d', 01777), 0555);
	cr_assert_eq(ltd_manifest_disk_mode('d', 0700), 0500);
}

/* --- tar paths and links ------------------------------------------------ */

static const char *clean(const char *in)
{
	static char out[256];

	return ltd_tar_path_clean(in, out, sizeof(out)) < 0 ? NULL : out;
}

Test(tarpath, cleans_harmless_spellings)
{
	cr_assert_str_eq(clean("./usr/bin/env"), "usr/bin/env");
	cr_assert_str_eq(clean("usr//bin/./env/"), "usr/bin/env");
	cr_assert_str_eq(clean("./"), "");
	cr_assert_str_eq(clean("a..b/..c"), "a..b/..c");
}

Test(tarpath, refuses_absolute_and_dotdot)
{
	cr_assert_null(clean("/etc/passwd"));
	cr_assert_null(clean("../x"));
	cr_assert_null(clean("a/../../x"));
	cr_assert_null(clean("a/.."));
	cr_assert_eq(ltd_tar_path_clean("abcdef", (char[4]){0}, 4),
		     -ENAMETOOLONG);
}

Test(tarpath, link_targets_stay_inside)
{
	cr_assert(ltd_link_target_ok("bin/sh", "busybox"));
	cr_assert(ltd_link_target_ok("lib", "usr/lib"));
	cr_assert(ltd_link_target_ok("usr/lib/x/y", "../../../etc/z"));
	/* Absolute targets resolve in the cage's root. */
	cr_assert(
		ltd_link_target_ok("etc/localtime", "/usr/share/zoneinfo/UTC"));
	cr_assert_not(ltd_link_target_ok("up", ".."));
	cr_assert_not(ltd_link_target_ok("a/b", "../../x"));
	cr_assert_not(ltd_link_target_ok("a/b", "c/../../../x"));
	cr_assert_not(ltd_link_target_ok("a", ""));
}

/* --- whiteouts ------------------------------------------------------------ */

Test(whiteout, kinds)
{
	char v[256];

	cr_assert_eq(ltd_whiteout_kind("usr/bin/env", v, sizeof(v)),
		     LTD_WH_NONE);
	cr_assert_eq(ltd_whiteout_kind("etc/.wh.motd", v, sizeof(v)),
		     LTD_WH_FILE);
	cr_assert_str_eq(v, "etc/motd");
	cr_assert_eq(ltd_whiteout_kind(".wh.gone", v, sizeof(v)), LTD_WH_FILE);
	cr_assert_str_eq(v, "gone");
	cr_assert_eq(ltd_whiteout_kind("var/cache/.wh..wh..opq", v, sizeof(v)),
		     LTD_WH_OPAQUE);
	cr_assert_str_eq(v, "var/cache");
	cr_assert_eq(ltd_whiteout_kind(".wh..wh..opq", v, sizeof(v)),
		     LTD_WH_OPAQUE);
	cr_assert_str_eq(v, "");
	cr_assert_eq(ltd_whiteout_kind("a/.wh..wh.plnk", v, sizeof(v)),
		     LTD_WH_IGNORE);
	cr_assert_lt(ltd_whiteout_kind("a/.wh.", v, sizeof(v)), 0);
	cr_assert_lt(ltd_whiteout_kind("a/.wh...", v, sizeof(v)), 0);
}

static void put(struct ltd_meta_map *m, const char *path, unsigned layer)
{
	struct ltd_meta meta = {.mode = 0644, .layer = layer};

	cr_assert_eq(ltd_meta_put(m, path, &meta), 0);
}

/* Layer 1 wrote dir/{a,sub/x} and f; layer 2 writes dir/c and dir/sub,
 * then an opaque whiteout on dir, and a whiteout for f. */
Test(whiteout, applies_to_lower_layers_only)
{
	struct ltd_meta_map m = {0};

	put(&m, "dir", 1);
	put(&m, "dir/a", 1);
	put(&m, "dir/sub", 1);
	put(&m, "dir/sub/x", 1);
	put(&m, "f", 1);
	put(&m, "dir/c", 2); /* before the opaque entry in the archive */
	put(&m, "dir/sub", 2);
	cr_assert(ltd_whiteout_hides(&m, "dir/a", 2));
	cr_assert_not(ltd_whiteout_hides(&m, "dir/c", 2));
	/* A directory this layer wrote stays; its lower content goes. */
	cr_assert_not(ltd_whiteout_hides(&m, "dir/sub", 2));
	cr_assert(ltd_whiteout_hides(&m, "dir/sub/x", 2));
	cr_assert(ltd_whiteout_hides(&m, "f", 2));
	/* A path no layer named (an implied parent) is lower content. */
	cr_assert(ltd_whiteout_hides(&m, "dir/unnamed", 2));
	ltd_meta_free(&m);
}

Test(whiteout, drop_forgets_a_subtree)
{
	struct ltd_meta_map m = {0};

	put(&m, "a", 1);
	put(&m, "a/b", 1);
	put(&m, "a/b/c", 1);
	put(&m, "a-b", 1);
	put(&m, "ab", 1);
	ltd_meta_drop(&m, "a");
	cr_assert_null(ltd_meta_get(&m, "a"));
	cr_assert_null(ltd_meta_get(&m, "a/b/c"));
	cr_assert_not_null(ltd_meta_get(&m, "a-b"));
	cr_assert_not_null(ltd_meta_get(&m, "ab"));
	cr_assert_eq(m.n, 2);
	ltd_meta_free(&m);
}

/* --- pins and references ---------------------------------------------------
 */

#define HEX "2f0a91a38fa16603cb2743580d4a93df26d3b6ea140778529ecdfbbc7e418104"

Test(pin, parses_a_pin_file)
{
	char hex[LTD_HEX_LEN + 1];
	const char ok[] = "sha256:" HEX "\n";

	cr_assert_eq(ltd_pin_parse(ok, strlen(ok), hex, &err), 0);
	cr_assert_str_eq(hex, HEX);
	cr_assert_lt(ltd_pin_parse(ok, strlen(ok) - 1, hex, &err), 0);
	cr_assert_lt(ltd_pin_parse("sha512:" HEX "\n", 72, hex, &err), 0);
	cr_assert_lt(ltd_pin_parse("sha256:" HEX "\n\n", 73, hex, &err), 0);
}

Test(pin, references)
{
	char hex[LTD_HEX_LEN + 1];

	cr_assert_eq(ltd_ref_parse("sha256:" HEX, hex, &err), 1);
	cr_assert_str_eq(hex, HEX);
	cr_assert_eq(ltd_ref_parse("debian-12.dev_1", hex, &err), 0);
	cr_assert_lt(ltd_ref_parse("sha256:ABC", hex, &err), 0);
	cr_assert_lt(ltd_ref_parse("../etc", hex, &err), 0);
	cr_assert_lt(ltd_ref_parse(".hidden", hex, &err), 0);
	cr_assert_lt(ltd_ref_parse("a/b", hex, &err), 0);
	cr_assert_lt(ltd_ref_parse("", hex, &err), 0);
}

/* --- the mount plan of a pinned root ----------------------------------------
 */

Test(pinned_plan, binds_the_top_level_and_generates_etc)
{
	struct ltd_pinned_ent top[] = {
		{.type = 'd', .name = "usr"},
		{.type = 'l', .name = "bin", .target = "usr/bin"},
		{.type = 'd', .name = "dev"},
		{.type = 'd', .name = "home"},
		{.type = 'd', .name = "etc"},
	};
	struct ltd_pinned_ent etc[] = {
		{.type = 'f',
		 .name = "passwd",
		 .data = "root:x:0:0::/:/bin/sh\n",
		 .len = 22,
		 .mode = 0444},
		{.type = 'f',
		 .name = "os-release",
		 .data = "ID=x\n",
		 .len = 5,
		 .mode = 0444},
		{.type = 'd', .name = "ssl"},
	};
	struct ltd_pinned pin = {.tree = "/s/tree",
				 .top = top,
				 .n_top = 5,
				 .etc = etc,
				 .n_etc = 3};
	struct ltd_hostfs host = {.pinned = &pin};
	struct ltd_policy p;
	struct ltd_plan plan;
	int passwd = 0;
	bool usr = false, bin = false, ssl = false, osr = false, dev = false;

	ltd_policy_init(&p);
	p.project = strdup("/work/app");
	p.id = (struct ltd_identity){.uid = 1000,
				     .gid = 1000,
				     .user = strdup("u"),
				     .group = strdup("g"),
				     .home = strdup("/home/u"),
				     .shell = strdup("/bin/sh")};
	cr_assert_eq(ltd_plan_build(&p, &(struct ltd_protected){0}, &host,
				    &plan, &err),
		     0, "%s", err.msg);
	for (size_t i = 0; i < plan.n; i++) {
		const struct ltd_plan_entry *e = &plan.e[i];

		usr |= e->op == LTD_OP_BIND_RO && !strcmp(e->dst, "/usr") &&
		       !strcmp(e->src, "/s/tree/usr");
		bin |= e->op == LTD_OP_SYMLINK && !strcmp(e->dst, "/bin") &&
		       !strcmp(e->src, "usr/bin");
		ssl |= e->op == LTD_OP_BIND_RO && !strcmp(e->dst, "/etc/ssl");
		osr |= e->op == LTD_OP_FILE &&
		       !strcmp(e->dst, "/etc/os-release");
		passwd +=
			e->op == LTD_OP_FILE && !strcmp(e->dst, "/etc/passwd");
		dev |= e->op == LTD_OP_BIND_RO && !strcmp(e->dst, "/dev");
		cr_assert(e->op != LTD_OP_BIND_RO || strcmp(e->dst, "/home"),
			  "the image's /home covers the cage's");
		cr_assert(e->op != LTD_OP_BIND_RO || strcmp(e->src, "/usr"),
			  "the host's /usr with a pinned root");
	}
	cr_assert(usr && bin && ssl && osr);
	cr_assert_not(dev, "the image's /dev is bound");
	cr_assert_eq(passwd, 1, "the image's passwd is not replaced");
	ltd_plan_free(&plan);
	ltd_policy_free(&p);
}
