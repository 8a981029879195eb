// SPDX-License-Identifier: GPL-2.0-or-later
#include "rootfs-tools/image.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/names.h"
#include "common/vec.h"
#include "rootfs-tools/layer.h"

#define JSON_MAX (8u << 20)

int ltd_open_in(int dirfd, const char *path, int flags)
{
	struct open_how how = {
		.flags = (uint64_t)flags | O_CLOEXEC,
		.mode = (flags & O_CREAT) ? 0600 : 0,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};

	return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
}

static void json_freep(json_t **j)
{
	json_decref(*j);
}
#define _cleanup_json_ __attribute__((cleanup(json_freep)))

/* Read @path whole; when @hex is given its SHA-256 must match. */
static int read_json(int dirfd, const char *path, const char *hex, json_t **out,
		     struct ltd_err *err)
{
	/* Not blocking on a FIFO: a layout directory is anyone's. */
	_cleanup_close_ int fd =
		ltd_open_in(dirfd, path, O_RDONLY | O_NONBLOCK);
	_cleanup_free_ char *buf = NULL;
	char found[LTD_HEX_LEN + 1];
	json_error_t je;
	struct stat st;
	size_t n = 0;
	ssize_t r;

	if (fd < 0 || fstat(fd, &st) < 0)
		return ltd_err_sys(err, "%s", path);
	if (!S_ISREG(st.st_mode) || (size_t)st.st_size > JSON_MAX)
		return ltd_err_set(err, EINVAL,
				   "%s: not a file of at most "
				   "8 MiB",
				   path);
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		return ltd_err_set(err, ENOMEM, "out of memory");
	while (n < (size_t)st.st_size &&
	       (r = read(fd, buf + n, (size_t)st.st_size - n)) > 0)
		n += (size_t)r;
	if (hex) {
		ltd_sha256_hex(buf, n, found);
		if (strcmp(found, hex) != 0)
			return ltd_err_set(err, EBADMSG,
					   "%s: expected sha256:%s, found "
					   "sha256:%s",
					   path, hex, found);
	}
	*out = json_loadb(buf, n, JSON_REJECT_DUPLICATES, &je);
	if (!*out)
		return ltd_err_set(err, EINVAL, "%s: line %d: %s", path,
				   je.line, je.text);
	return 0;
}

static const char *jstr(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* "sha256:HEX" -> HEX; other algorithms are refused. */
static int digest_hex(const char *digest, char hex[LTD_HEX_LEN + 1],
		      struct ltd_err *err)
{
	if (!digest || strncmp(digest, "sha256:", 7) != 0 ||
	    !ltd_hex_ok(digest + 7))
		return ltd_err_set(err, EINVAL,
				   "digest '%s': only sha256:<64 hex> is "
				   "supported",
				   digest ? digest : "(none)");
	memcpy(hex, digest + 7, LTD_HEX_LEN + 1);
	return 0;
}

int ltd_image_digest_parse(const char *opt, const char *arg,
			   char hex[LTD_HEX_LEN + 1], struct ltd_err *err)
{
	if (strncmp(arg, "sha256:", 7) != 0 || !ltd_hex_ok(arg + 7))
		return ltd_err_set(err, EINVAL,
				   "%s: '%s' is not an image digest (sha256: "
				   "and 64 lowercase hex digits)",
				   opt, arg);
	memcpy(hex, arg + 7, LTD_HEX_LEN + 1);
	return 0;
}

static int read_desc(int dirfd, json_t *desc, json_t **out, struct ltd_err *err)
{
	char hex[LTD_HEX_LEN + 1], path[128];
	int ret = digest_hex(jstr(desc, "digest"), hex, err);

	if (ret < 0)
		return ret;
	snprintf(path, sizeof(path), "blobs/sha256/%s", hex);
	return read_json(dirfd, path, hex, out, err);
}

#if defined(__x86_64__)
#define GOARCH "amd64"
#elif defined(__aarch64__)
#define GOARCH "arm64"
#else
#define GOARCH ""
#endif

/* The index's manifest for this machine (or its only one). */
static json_t *pick(json_t *index, struct ltd_err *err)
{
	json_t *ms = json_object_get(index, "manifests"), *d, *first = NULL;
	size_t i;

	json_array_foreach(ms, i, d)
	{
		json_t *plat = json_object_get(d, "platform");

		if (!first)
			first = d;
		if (plat && !strcmp(jstr(plat, "os") ?: "", "linux") &&
		    !strcmp(jstr(plat, "architecture") ?: "", GOARCH))
			return d;
	}
	if (json_array_size(ms) == 1)
		return first;
	ltd_err_set(err, ENOENT,
		    json_array_size(ms) ? "no manifest for linux/%s in the "
					  "index"
					: "the index lists no manifest%s",
		    json_array_size(ms) ? GOARCH : "");
	return NULL;
}

static bool layer_type_ok(const char *t)
{
	static const char *const ok[] = {
		"application/vnd.oci.image.layer.v1.tar",
		"application/vnd.oci.image.layer.v1.tar+gzip",
		"application/vnd.oci.image.layer.v1.tar+zstd",
		"application/vnd.docker.image.rootfs.diff.tar.gzip",
	};

	for (size_t i = 0; t && i < sizeof(ok) / sizeof(ok[0]); i++)
		if (strcmp(t, ok[i]) == 0)
			return true;
	return false;
}

static int add_layer(struct ltd_image *img, const char *path, const char *hex,
		     uint64_t size, struct ltd_err *err)
{
	struct ltd_layer_ref *l = ltd_vec_push(&img->l, img->n);

	if (!l || !(l->path = strdup(path)))
		return ltd_err_set(err, ENOMEM, "out of memory");
	l->size = size;
	memcpy(l->hex, hex, LTD_HEX_LEN + 1);
	img->n++;
	return 0;
}

static bool is_index(json_t *desc)
{
	const char *mt = jstr(desc, "mediaType") ?: "";

	return !strcmp(mt, "application/vnd.oci.image.index.v1+json") ||
	       !strcmp(mt, "application/vnd.docker.distribution.manifest."
			   "list.v2+json");
}

/* Is @desc's digest sha256:@hex? */
static bool desc_is(json_t *desc, const char *hex)
{
	const char *d = jstr(desc, "digest");

	return d && !strncmp(d, "sha256:", 7) && !strcmp(d + 7, hex);
}

/* Indexes one search may read: a layout listing the same index many times
 * over four levels would otherwise cost their product. */
#define MAX_INDEX_READS 64

/*
 * The descriptor of sha256:@want in @index, or in an index it lists (read
 * and verified, depth first, at most MAX_INDEX_READS in all, counted in
 * *@reads): 1 and a new reference in *@out, or 0.
 */
static int find_digest(int dirfd, json_t *index, const char *want, int depth,
		       unsigned *reads, json_t **out, struct ltd_err *err)
{
	json_t *ms = json_object_get(index, "manifests"), *d;
	size_t i;
	int ret;

	json_array_foreach(ms, i, d) if (desc_is(d, want))
	{
		*out = json_incref(d);
		return 1;
	}
	if (depth == 4)
		return 0;
	json_array_foreach(ms, i, d)
	{
		_cleanup_json_ json_t *sub = NULL;

		if (!is_index(d))
			continue;
		if (++*reads > MAX_INDEX_READS)
			return ltd_err_set(err, E2BIG,
					   "--digest: the image lists more "
					   "than %d nested indexes",
					   MAX_INDEX_READS);
		ret = read_desc(dirfd, d, &sub, err);
		if (ret == 0)
			ret = find_digest(dirfd, sub, want, depth + 1, reads,
					  out, err);
		if (ret != 0)
			return ret;
	}
	return 0;
}

/* The image is not sha256:@want: name it and what index.json lists (the
 * first three; their text is the layout's, so each is cut short). */
static int not_the_image(json_t *index, const char *want, struct ltd_err *err)
{
	json_t *ms = json_object_get(index, "manifests"), *d;
	size_t i, n = json_array_size(ms);
	char found[320] = "";
	int len = 0;

	json_array_foreach(ms, i, d)
	{
		if (i == 3) {
			snprintf(found + len, sizeof(found) - (size_t)len,
				 " and %zu more", n - 3);
			break;
		}
		len += snprintf(found + len, sizeof(found) - (size_t)len,
				"%s%.71s", i ? ", " : "",
				jstr(d, "digest") ?: "(no digest)");
	}
	if (n == 0)
		snprintf(found, sizeof(found), "no manifest in index.json");
	return ltd_err_set(
		err, ENOENT, "--digest: expected sha256:%s, found %s%s", want,
		found, n > 1 ? " (index.json's manifests; none is it)" : "");
}

/*
 * index.json's descriptor: the one of @want's digest, or this machine's;
 * then through any index it names, this machine's manifest, read into
 * @m.  The image's digest is the first descriptor's.
 */
static int read_oci_manifest(int dirfd, const char *want, json_t **m,
			     char digest[LTD_HEX_LEN + 1], struct ltd_err *err)
{
	_cleanup_json_ json_t *index = NULL, *desc = NULL;
	unsigned reads = 0;
	int ret;

	ret = read_json(dirfd, "index.json", NULL, &index, err);
	if (ret < 0)
		return ret;
	if (want) {
		ret = find_digest(dirfd, index, want, 0, &reads, &desc, err);
		if (ret == 0)
			return not_the_image(index, want, err);
		if (ret < 0)
			return ret;
	} else {
		desc = json_incref(pick(index, err));
		if (!desc)
			return -ENOENT;
	}
	ret = digest_hex(jstr(desc, "digest"), digest, err);
	for (int depth = 0; ret == 0; depth++) {
		ret = read_desc(dirfd, desc, m, err);
		if (ret < 0 || !is_index(desc))
			break;
		if (depth == 4)
			return ltd_err_set(err, ELOOP,
					   "indexes nested too "
					   "deep");
		json_decref(index);
		index = *m;
		*m = NULL;
		json_decref(desc);
		desc = json_incref(pick(index, err));
		if (!desc)
			return -ENOENT;
	}
	return ret;
}

static int read_oci(int dirfd, const char *want, struct ltd_image *img,
		    struct ltd_err *err)
{
	_cleanup_json_ json_t *layout = NULL, *m = NULL, *config = NULL;
	json_t *layers, *l;
	size_t i;
	int ret;

	ret = read_json(dirfd, "oci-layout", NULL, &layout, err);
	if (ret < 0)
		return ret;
	if (!jstr(layout, "imageLayoutVersion"))
		return ltd_err_set(err, EINVAL,
				   "oci-layout: no "
				   "imageLayoutVersion");
	ret = read_oci_manifest(dirfd, want, &m, img->digest, err);
	if (ret < 0)
		return ret;
	/* The config is a blob too: verified even though only the layers
	 * are used. */
	ret = read_desc(dirfd, json_object_get(m, "config"), &config, err);
	if (ret < 0)
		return ret;
	layers = json_object_get(m, "layers");
	if (!json_is_array(layers) || json_array_size(layers) == 0)
		return ltd_err_set(err, EINVAL, "the manifest lists no layers");
	json_array_foreach(layers, i, l)
	{
		char hex[LTD_HEX_LEN + 1], path[128];
		json_int_t size =
			json_integer_value(json_object_get(l, "size"));

		if (!layer_type_ok(jstr(l, "mediaType")))
			return ltd_err_set(err, ENOTSUP,
					   "layer %zu: media type '%s' is not "
					   "supported",
					   i + 1, jstr(l, "mediaType") ?: "");
		ret = digest_hex(jstr(l, "digest"), hex, err);
		if (ret < 0)
			return ret;
		snprintf(path, sizeof(path), "blobs/sha256/%s", hex);
		ret = add_layer(img, path, hex, size > 0 ? (uint64_t)size : 0,
				err);
		if (ret < 0)
			return ret;
	}
	img->format = "OCI layout";
	return 0;
}

/* A path named in manifest.json: relative, inside the image. */
static int clean_rel(const char *in, char *out, size_t size,
		     struct ltd_err *err)
{
	if (!in || ltd_tar_path_clean(in, out, size) < 0 || !out[0])
		return ltd_err_set(err, EINVAL,
				   "manifest.json: path '%s' leads out of "
				   "the image",
				   in ? in : "(none)");
	return 0;
}

/* An image of manifest.json: its config's path and digest, from its name
 * ("HEX.json" or blobs/sha256/HEX). */
static int docker_config(json_t *m, char path[4096], char hex[LTD_HEX_LEN + 1],
			 struct ltd_err *err)
{
	const char *base;
	int ret = clean_rel(jstr(m, "Config"), path, 4096, err);

	if (ret < 0)
		return ret;
	base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	snprintf(hex, LTD_HEX_LEN + 1, "%.64s", base);
	if (!ltd_hex_ok(hex) || (base[64] && strcmp(base + 64, ".json")))
		return ltd_err_set(err, EINVAL,
				   "manifest.json: config '%s' is not named "
				   "by its digest",
				   path);
	return 0;
}

/*
 * The image of manifest.json: its only one, or the one whose config's
 * digest (its image ID) is @want.  A docker save archive carries no
 * registry manifest, so no other digest can be checked.
 */
static int docker_pick(json_t *top, const char *want, json_t **m,
		       char path[4096], char hex[LTD_HEX_LEN + 1],
		       struct ltd_err *err)
{
	size_t n = json_array_size(top), i;
	char found[320] = "";
	int len = 0, ret;

	if (!want && n != 1)
		return ltd_err_set(err, EINVAL,
				   "manifest.json: expected one image, found "
				   "%zu (--digest sha256:ID chooses one)",
				   n);
	for (i = 0; i < n; i++) {
		*m = json_array_get(top, i);
		ret = docker_config(*m, path, hex, err);
		if (ret < 0)
			return ret;
		if (!want || !strcmp(hex, want))
			return 0;
		if (i < 3)
			len += snprintf(found + len,
					sizeof(found) - (size_t)len,
					"%ssha256:%s", i ? ", " : "", hex);
	}
	if (n > 3)
		snprintf(found + len, sizeof(found) - (size_t)len,
			 " and %zu more", n - 3);
	return ltd_err_set(err, ENOENT,
			   "--digest: expected sha256:%s, found %s (a docker "
			   "save archive has no registry manifest digest: "
			   "--digest names its image ID, the config's digest)",
			   want, n ? found : "no image");
}

static int read_docker(int dirfd, const char *want, struct ltd_image *img,
		       struct ltd_err *err)
{
	_cleanup_json_ json_t *top = NULL, *config = NULL;
	json_t *m = NULL, *layers, *diff_ids, *l;
	char path[4096], hex[LTD_HEX_LEN + 1];
	size_t i;
	int ret;

	ret = read_json(dirfd, "manifest.json", NULL, &top, err);
	if (ret < 0)
		return ret;
	ret = docker_pick(top, want, &m, path, img->digest, err);
	if (ret < 0)
		return ret;
	ret = read_json(dirfd, path, img->digest, &config, err);
	if (ret < 0)
		return ret;
	layers = json_object_get(m, "Layers");
	diff_ids =
		json_object_get(json_object_get(config, "rootfs"), "diff_ids");
	if (!json_array_size(layers) ||
	    json_array_size(layers) != json_array_size(diff_ids))
		return ltd_err_set(err, EINVAL,
				   "manifest.json lists %zu layers, the "
				   "config %zu",
				   json_array_size(layers),
				   json_array_size(diff_ids));
	json_array_foreach(layers, i, l)
	{
		ret = clean_rel(json_string_value(l), path, sizeof(path), err);
		if (!ret)
			ret = digest_hex(
				json_string_value(json_array_get(diff_ids, i)),
				hex, err);
		if (!ret)
			ret = add_layer(img, path, hex, 0, err);
		if (ret < 0)
			return ret;
	}
	img->format = "docker save";
	return 0;
}

int ltd_image_read(int dirfd, const char *want, struct ltd_image *img,
		   struct ltd_err *err)
{
	struct stat st;
	int ret;

	*img = (struct ltd_image){0};
	if (fstatat(dirfd, "oci-layout", &st, AT_SYMLINK_NOFOLLOW) == 0)
		ret = read_oci(dirfd, want, img, err);
	else if (fstatat(dirfd, "manifest.json", &st, AT_SYMLINK_NOFOLLOW) == 0)
		ret = read_docker(dirfd, want, img, err);
	else
		ret = ltd_err_set(err, EINVAL,
				  "neither an OCI image layout (no oci-layout) "
				  "nor a docker save archive (no "
				  "manifest.json)");
	if (ret < 0)
		ltd_image_free(img);
	return ret;
}

void ltd_image_free(struct ltd_image *img)
{
	for (size_t i = 0; i < img->n; i++)
		free(img->l[i].path);
	free(img->l);
	*img = (struct ltd_image){0};
}
