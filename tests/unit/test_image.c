// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading an image's layout with an expected image digest (`ltd-rootfs
 * import --digest`): the value of the flag, which manifest of an index it
 * selects, and the refusal when the image is not the one named.  Layouts
 * are written by hand in a temporary directory; layer blobs are listed,
 * never read, so only the JSON blobs exist.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "rootfs-tools/image.h"
#include "tests/common/fixture.h"

#define MT_MANIFEST "application/vnd.oci.image.manifest.v1+json"
#define MT_INDEX    "application/vnd.oci.image.index.v1+json"
#define ZEROS	    "0000000000000000000000000000000000000000000000000000000000000000"

#if defined(__x86_64__)
#define ARCH "amd64"
#elif defined(__aarch64__)
#define ARCH "arm64"
#else
#define ARCH ""
#endif

static char dir[64];
static int dfd = -1;
static struct ltd_err err;

static void put(const char *rel, const char *content)
{
	fx_put(dir, rel, content);
}

/* A blob of @content; its digest into @hex. */
static void blob(const char *content, char hex[LTD_HEX_LEN + 1])
{
	char rel[128];

	ltd_sha256_hex(content, strlen(content), hex);
	snprintf(rel, sizeof(rel), "blobs/sha256/%s", hex);
	put(rel, content);
}

/* A manifest of one layer whose digest is 64 times @layer, with its
 * config; the manifest's digest into @hex. */
static void manifest(char layer, char hex[LTD_HEX_LEN + 1])
{
	char cfg[LTD_HEX_LEN + 1], lhex[LTD_HEX_LEN + 1], buf[1024];

	memset(lhex, layer, LTD_HEX_LEN);
	lhex[LTD_HEX_LEN] = '\0';
	snprintf(buf, sizeof(buf),
		 "{\"rootfs\":{\"type\":\"layers\",\"diff_ids\":"
		 "[\"sha256:%s\"]}}",
		 lhex);
	blob(buf, cfg);
	snprintf(buf, sizeof(buf),
		 "{\"schemaVersion\":2,\"mediaType\":\"" MT_MANIFEST "\","
		 "\"config\":{\"mediaType\":"
		 "\"application/vnd.oci.image.config.v1+json\","
		 "\"digest\":\"sha256:%s\",\"size\":1},\"layers\":[{"
		 "\"mediaType\":\"application/vnd.oci.image.layer.v1.tar\","
		 "\"digest\":\"sha256:%s\",\"size\":1}]}",
		 cfg, lhex);
	blob(buf, hex);
}

/* An index listing descriptors @a and @b (b may be NULL): index.json when
 * @hex is NULL, else a blob whose digest goes into @hex. */
static void index_of(const char *a, const char *b, char *hex)
{
	char buf[2048];

	snprintf(buf, sizeof(buf),
		 "{\"schemaVersion\":2,\"manifests\":[%s%s%s]}", a,
		 b ? "," : "", b ? b : "");
	if (hex)
		blob(buf, hex);
	else
		put("index.json", buf);
}

/* A descriptor of @mt sha256:@hex for linux/@arch (none when NULL). */
static char *desc(const char *mt, const char *hex, const char *arch)
{
	char *s = NULL;

	if (arch)
		cr_assert_geq(asprintf(&s,
				       "{\"mediaType\":\"%s\",\"digest\":"
				       "\"sha256:%s\",\"size\":1,\"platform\":"
				       "{\"os\":\"linux\",\"architecture\":"
				       "\"%s\"}}",
				       mt, hex, arch),
			      0);
	else
		cr_assert_geq(asprintf(&s,
				       "{\"mediaType\":\"%s\",\"digest\":"
				       "\"sha256:%s\",\"size\":1}",
				       mt, hex),
			      0);
	return s;
}

static void make_oci(void)
{
	fx_tmpdir(dir, sizeof(dir), "image");
	fx_mkdir(dir, "blobs", 0700);
	fx_mkdir(dir, "blobs/sha256", 0700);
	put("oci-layout", "{\"imageLayoutVersion\":\"1.0.0\"}");
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cr_assert_geq(dfd, 0);
}

static void drop(void)
{
	close(dfd);
	fx_rm_rf(dir);
}

/* The layer @img lists is 64 times @c. */
static void assert_layer(const struct ltd_image *img, char c)
{
	char want[LTD_HEX_LEN + 1];

	memset(want, c, LTD_HEX_LEN);
	want[LTD_HEX_LEN] = '\0';
	cr_assert_eq(img->n, 1);
	cr_assert_str_eq(img->l[0].hex, want);
}

/* --- the flag's value ---------------------------------------------------- */

Test(image_digest, parses_sha256_and_64_lowercase_hex)
{
	char hex[LTD_HEX_LEN + 1];
	static const char *const bad[] = {
		"",
		ZEROS,
		"sha256:",
		"sha256:" ZEROS "0",
		"sha256:0000000000000000000000000000000000000000000000000000000"
		"00000000",
		"sha512:" ZEROS,
		"SHA256:" ZEROS,
		"sha256:ABCDEF0000000000000000000000000000000000000000000000000"
		"000000000",
		"sha256:" ZEROS "\n",
	};

	cr_assert_eq(
		ltd_image_digest_parse("--digest", "sha256:" ZEROS, hex, &err),
		0, "%s", err.msg);
	cr_assert_str_eq(hex, ZEROS);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_assert_lt(
			ltd_image_digest_parse("--digest", bad[i], hex, &err),
			0, "accepted case %zu", i);
		cr_assert(strncmp(err.msg, "--digest: ", 10) == 0,
			  "the error names the flag: %s", err.msg);
	}
}

/* --- OCI layouts ---------------------------------------------------------- */

Test(image_digest, the_manifest_digest_imports, .init = make_oci, .fini = drop)
{
	char m[LTD_HEX_LEN + 1];
	_cleanup_free_ char *d = NULL;
	struct ltd_image img;

	manifest('a', m);
	d = desc(MT_MANIFEST, m, ARCH);
	index_of(d, NULL, NULL);
	cr_assert_eq(ltd_image_read(dfd, m, &img, &err), 0, "%s", err.msg);
	cr_assert_str_eq(img.digest, m);
	assert_layer(&img, 'a');
	ltd_image_free(&img);
	/* Without --digest: the same image, its digest said. */
	cr_assert_eq(ltd_image_read(dfd, NULL, &img, &err), 0, "%s", err.msg);
	cr_assert_str_eq(img.digest, m);
	ltd_image_free(&img);
}

Test(image_digest, another_digest_is_refused_naming_both, .init = make_oci,
     .fini = drop)
{
	char m[LTD_HEX_LEN + 1], want[256];
	_cleanup_free_ char *d = NULL;
	struct ltd_image img;

	manifest('a', m);
	d = desc(MT_MANIFEST, m, ARCH);
	index_of(d, NULL, NULL);
	cr_assert_lt(ltd_image_read(dfd, ZEROS, &img, &err), 0);
	snprintf(want, sizeof(want), "expected sha256:%s, found sha256:%s",
		 ZEROS, m);
	cr_assert(strstr(err.msg, want), "%s", err.msg);
	cr_assert_eq(img.n, 0);
	/* The config's digest is not the image's in an OCI layout. */
	cr_assert_lt(ltd_image_read(dfd,
				    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
				    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
				    &img, &err),
		     0);
}

Test(image_digest, selects_one_of_several_manifests, .init = make_oci,
     .fini = drop)
{
	char a[LTD_HEX_LEN + 1], b[LTD_HEX_LEN + 1];
	_cleanup_free_ char *da = NULL, *db = NULL;
	struct ltd_image img;

	manifest('a', a);
	manifest('b', b);
	da = desc(MT_MANIFEST, a, ARCH);
	db = desc(MT_MANIFEST, b, "s390x");
	index_of(da, db, NULL);
	/* Without --digest, as before: this machine's. */
	cr_assert_eq(ltd_image_read(dfd, NULL, &img, &err), 0, "%s", err.msg);
	assert_layer(&img, 'a');
	cr_assert_str_eq(img.digest, a);
	ltd_image_free(&img);
	/* --digest picks the one it names, whatever its platform. */
	cr_assert_eq(ltd_image_read(dfd, b, &img, &err), 0, "%s", err.msg);
	assert_layer(&img, 'b');
	cr_assert_str_eq(img.digest, b);
	ltd_image_free(&img);
	cr_assert_eq(ltd_image_read(dfd, a, &img, &err), 0, "%s", err.msg);
	assert_layer(&img, 'a');
	ltd_image_free(&img);
	/* None matching: every digest listed is named. */
	cr_assert_lt(ltd_image_read(dfd, ZEROS, &img, &err), 0);
	cr_assert(strstr(err.msg, a) && strstr(err.msg, b) &&
			  strstr(err.msg, "expected sha256:" ZEROS),
		  "%s", err.msg);
}

Test(image_digest, two_tags_of_no_platform_are_told_apart, .init = make_oci,
     .fini = drop)
{
	char a[LTD_HEX_LEN + 1], b[LTD_HEX_LEN + 1];
	_cleanup_free_ char *da = NULL, *db = NULL;
	struct ltd_image img;

	manifest('a', a);
	manifest('b', b);
	da = desc(MT_MANIFEST, a, NULL);
	db = desc(MT_MANIFEST, b, NULL);
	index_of(da, db, NULL);
	/* Without --digest, as before: no way to choose. */
	cr_assert_lt(ltd_image_read(dfd, NULL, &img, &err), 0);
	cr_assert_eq(ltd_image_read(dfd, b, &img, &err), 0, "%s", err.msg);
	assert_layer(&img, 'b');
	ltd_image_free(&img);
}

/* index.json -> a multi-arch index -> its manifests: the index's digest
 * (what a registry shows for a multi-arch tag) or one manifest's. */
Test(image_digest, a_nested_index_or_its_manifest, .init = make_oci,
     .fini = drop)
{
	char a[LTD_HEX_LEN + 1], b[LTD_HEX_LEN + 1], idx[LTD_HEX_LEN + 1];
	_cleanup_free_ char *da = NULL, *db = NULL, *di = NULL;
	struct ltd_image img;

	manifest('a', a);
	manifest('b', b);
	da = desc(MT_MANIFEST, a, ARCH);
	db = desc(MT_MANIFEST, b, "s390x");
	index_of(da, db, idx);
	di = desc(MT_INDEX, idx, NULL);
	index_of(di, NULL, NULL);
	cr_assert_eq(ltd_image_read(dfd, idx, &img, &err), 0, "%s", err.msg);
	assert_layer(&img, 'a'); /* this machine's, in the index named */
	cr_assert_str_eq(img.digest, idx);
	ltd_image_free(&img);
	cr_assert_eq(ltd_image_read(dfd, b, &img, &err), 0, "%s", err.msg);
	assert_layer(&img, 'b');
	cr_assert_str_eq(img.digest, b);
	ltd_image_free(&img);
	cr_assert_eq(ltd_image_read(dfd, NULL, &img, &err), 0, "%s", err.msg);
	assert_layer(&img, 'a');
	cr_assert_str_eq(img.digest, idx);
	ltd_image_free(&img);
	cr_assert_lt(ltd_image_read(dfd, ZEROS, &img, &err), 0);
	cr_assert(strstr(err.msg, idx), "%s", err.msg);
}

/* A descriptor that names the digest but whose blob is another's: the
 * blob is verified, so the name alone selects nothing. */
Test(image_digest, the_named_blob_must_hash_to_it, .init = make_oci,
     .fini = drop)
{
	char a[LTD_HEX_LEN + 1], b[LTD_HEX_LEN + 1], from[512], to[512];
	_cleanup_free_ char *da = NULL;
	struct ltd_image img;

	manifest('a', a);
	manifest('b', b);
	da = desc(MT_MANIFEST, a, ARCH);
	index_of(da, NULL, NULL);
	snprintf(from, sizeof(from), "%s/blobs/sha256/%s", dir, b);
	snprintf(to, sizeof(to), "%s/blobs/sha256/%s", dir, a);
	cr_assert_eq(rename(from, to), 0);
	cr_assert_lt(ltd_image_read(dfd, a, &img, &err), 0);
	cr_assert(strstr(err.msg, "expected sha256:"), "%s", err.msg);
}

/* --- docker save ---------------------------------------------------------- */

/* manifest.json listing images whose configs list one layer each, 64
 * times @a and @b (b may be 0); the configs' digests into @ca, @cb. */
static void make_docker(char a, char b, char ca[LTD_HEX_LEN + 1],
			char cb[LTD_HEX_LEN + 1])
{
	char buf[1024], rel[128], l[LTD_HEX_LEN + 1];
	char *cfg[2] = {ca, cb}, c[2] = {a, b};

	fx_tmpdir(dir, sizeof(dir), "docker");
	for (int i = 0; i < 2 && c[i]; i++) {
		memset(l, c[i], LTD_HEX_LEN);
		l[LTD_HEX_LEN] = '\0';
		snprintf(buf, sizeof(buf),
			 "{\"rootfs\":{\"type\":\"layers\",\"diff_ids\":"
			 "[\"sha256:%s\"]}}",
			 l);
		ltd_sha256_hex(buf, strlen(buf), cfg[i]);
		snprintf(rel, sizeof(rel), "%s.json", cfg[i]);
		put(rel, buf);
	}
	if (b)
		snprintf(buf, sizeof(buf),
			 "[{\"Config\":\"%s.json\",\"Layers\":[\"a/"
			 "layer.tar\"]},"
			 "{\"Config\":\"%s.json\",\"Layers\":[\"b/"
			 "layer.tar\"]}]",
			 ca, cb);
	else
		snprintf(buf, sizeof(buf),
			 "[{\"Config\":\"%s.json\",\"Layers\":[\"a/"
			 "layer.tar\"]}]",
			 ca);
	put("manifest.json", buf);
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cr_assert_geq(dfd, 0);
}

Test(image_digest, docker_save_is_pinned_by_its_image_id, .fini = drop)
{
	char cfg[LTD_HEX_LEN + 1], none[LTD_HEX_LEN + 1], want[256];
	struct ltd_image img;

	make_docker('a', 0, cfg, none);
	cr_assert_eq(ltd_image_read(dfd, cfg, &img, &err), 0, "%s", err.msg);
	assert_layer(&img, 'a');
	cr_assert_str_eq(img.digest, cfg);
	ltd_image_free(&img);
	cr_assert_lt(ltd_image_read(dfd, ZEROS, &img, &err), 0);
	snprintf(want, sizeof(want), "expected sha256:%s, found sha256:%s",
		 ZEROS, cfg);
	cr_assert(strstr(err.msg, want), "%s", err.msg);
	cr_assert(strstr(err.msg, "image ID"), "%s", err.msg);
}

Test(image_digest, docker_save_of_two_images_selects_one, .fini = drop)
{
	char ca[LTD_HEX_LEN + 1], cb[LTD_HEX_LEN + 1];
	struct ltd_image img;

	make_docker('a', 'b', ca, cb);
	/* Without --digest, as before: refused. */
	cr_assert_lt(ltd_image_read(dfd, NULL, &img, &err), 0);
	cr_assert_eq(ltd_image_read(dfd, cb, &img, &err), 0, "%s", err.msg);
	assert_layer(&img, 'b');
	ltd_image_free(&img);
	cr_assert_eq(ltd_image_read(dfd, ca, &img, &err), 0, "%s", err.msg);
	assert_layer(&img, 'a');
	ltd_image_free(&img);
	cr_assert_lt(ltd_image_read(dfd, ZEROS, &img, &err), 0);
	cr_assert(strstr(err.msg, ca) && strstr(err.msg, cb), "%s", err.msg);
}

/* A hostile layout: four levels of indexes, each listing the one below 30
 * times (~800,000 reads if each were followed).  The search reads a bounded
 * number of indexes and says so. */
Test(image_digest, nested_indexes_are_read_a_bounded_number_of_times,
     .init = make_oci, .fini = drop, .timeout = 60)
{
	char a[LTD_HEX_LEN + 1], hex[LTD_HEX_LEN + 1];
	_cleanup_free_ char *d = NULL;
	char buf[16384];
	struct ltd_image img;

	manifest('a', a);
	d = desc(MT_MANIFEST, a, ARCH);
	for (int level = 0; level <= 4; level++) {
		int n = snprintf(buf, sizeof(buf),
				 "{\"schemaVersion\":2,\"manifests\":[");

		for (int k = 0; k < (level ? 30 : 1); k++)
			n += snprintf(buf + n, sizeof(buf) - (size_t)n, "%s%s",
				      k ? "," : "", d);
		snprintf(buf + n, sizeof(buf) - (size_t)n, "]}");
		if (level == 4) {
			put("index.json", buf);
			break;
		}
		blob(buf, hex);
		free(d);
		d = desc(MT_INDEX, hex, NULL);
	}
	cr_assert_lt(ltd_image_read(dfd, ZEROS, &img, &err), 0);
	cr_assert(strstr(err.msg, "indexes"), "%s", err.msg);
}
