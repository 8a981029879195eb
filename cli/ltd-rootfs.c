// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ltd-rootfs: build, import, list, verify and remove the pinned root
 * filesystems that `ltd-native run --rootfs` uses.  One library entry
 * point per subcommand.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base.h"
#include "buildinfo.h" /* build/gen/: tools/buildinfo.sh */
#include "common/text.h"
#include "rootfs-tools/image.h"
#include "rootfs-tools/rootfs.h"

/* 2024-01-01T00:00:00Z: a fixed default, so two builds agree. */
#define DEFAULT_EPOCH "1704067200"

static void usage(FILE *out)
{
	fputs("usage: ltd-rootfs import NAME IMAGE [--digest sha256:HEX]\n"
	      "                        [--max-bytes N] [--max-file-bytes N]\n"
	      "                        [--max-entries N] [--max-layers N] "
	      "[--max-depth N]\n"
	      "       ltd-rootfs build NAME [--suite SUITE] [--packages "
	      "A,B,...]\n"
	      "                        [--mirror URL] [--source-date-epoch N]\n"
	      "       ltd-rootfs list\n"
	      "       ltd-rootfs verify NAME|sha256:DIGEST\n"
	      "       ltd-rootfs rm NAME|sha256:DIGEST\n"
	      "\n"
	      "IMAGE is an OCI image layout (a directory, or a tar of one) or\n"
	      "a `docker save` archive.  Every blob is checked against its\n"
	      "digest.  --digest names the digest the image must have, or\n"
	      "nothing is imported: for an OCI layout, its manifest's (or\n"
	      "its multi-arch index's), as `docker pull` and `skopeo\n"
	      "inspect` show it, choosing among several in index.json; for\n"
	      "a `docker save` archive, its image ID (`docker inspect\n"
	      "--format '{{.Id}}'`).  Without it, the image is trusted as\n"
	      "found.  Limits (defaults): --max-bytes 16G unpacked in all,\n"
	      "--max-file-bytes 4G for one file (holes included),\n"
	      "--max-entries 1000000, --max-layers 256, --max-depth 256.\n"
	      "The store is $XDG_DATA_HOME/ltd-native/rootfs\n"
	      "(default ~/.local/share/ltd-native/rootfs); each entry is "
	      "named\n"
	      "by the SHA-256 of its manifest, and NAME pins one.  Use it "
	      "with\n"
	      "`ltd-native run --rootfs NAME -- COMMAND`.\n",
	      out);
}

/* Each command's usage, in a line, for a misuse of it. */
static const struct {
	const char *name;
	const char *use;
} commands[] = {
	{"import", "import NAME IMAGE [--digest sha256:HEX] [--max-bytes N] "
		   "[--max-file-bytes N] [--max-entries N] [--max-layers N] "
		   "[--max-depth N]"},
	{"build",
	 "build NAME [--suite SUITE] [--packages A,B,...] [--mirror URL] "
	 "[--source-date-epoch N]"},
	{"list", "list"},
	{"verify", "verify NAME|sha256:DIGEST"},
	{"rm", "rm NAME|sha256:DIGEST"},
};

/* What is wrong with `ltd-rootfs CMD ...`, in a line; 2, the status of a
 * usage error. */
static int misuse(const char *cmd)
{
	const char *names = "import, build, list, verify or rm";

	if (!*cmd) {
		fprintf(stderr,
			"ltd-rootfs: a command is needed: %s; 'ltd-rootfs "
			"--help' says more\n",
			names);
		return 2;
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(cmd, commands[i].name)) {
			fprintf(stderr, "ltd-rootfs: usage: ltd-rootfs %s\n",
				commands[i].use);
			return 2;
		}
	fputs("ltd-rootfs: '", stderr);
	ltd_fput_shown(stderr, cmd);
	fprintf(stderr,
		"' is not a command: %s; 'ltd-rootfs --help' says more\n",
		names);
	return 2;
}

/* N, or N with a K, M, G or T suffix (powers of 1024); 1 and up. */
static int parse_count(const char *opt, const char *v, uint64_t *out,
		       struct ltd_err *err)
{
	char *end = NULL;
	unsigned long long n;
	unsigned shift = 0;

	errno = 0;
	n = strtoull(v, &end, 10);
	if (end && *end && !end[1])
		shift = *end == 'K'   ? 10
			: *end == 'M' ? 20
			: *end == 'G' ? 30
			: *end == 'T' ? 40
				      : 64;
	if (errno || end == v || v[0] == '-' || n == 0 || shift == 64 ||
	    (*end && shift == 0) || n > (UINT64_MAX >> shift))
		return ltd_err_set(err, EINVAL,
				   "%s: '%s' is not a count (N, or N with K, "
				   "M, G or T)",
				   opt, v);
	*out = (uint64_t)n << shift;
	return 0;
}

/* ltd-rootfs import's words after "import"; *@usage set when they are
 * what is wrong (exit status 2). */
static int import(const char *store, int argc, char **argv, bool *usage,
		  struct ltd_err *err)
{
	struct ltd_limits lim = LTD_LIMITS_DEFAULT;
	char hex[LTD_HEX_LEN + 1];
	const char *pos[2], *digest = NULL;
	int npos = 0, ret;

	for (int i = 0; i < argc; i++) {
		bool is_digest = !strcmp(argv[i], "--digest");
		uint64_t *slot =
			!strcmp(argv[i], "--max-bytes")	       ? &lim.bytes
			: !strcmp(argv[i], "--max-file-bytes") ? &lim.file_bytes
			: !strcmp(argv[i], "--max-entries")    ? &lim.entries
			: !strcmp(argv[i], "--max-layers")     ? &lim.layers
			: !strcmp(argv[i], "--max-depth")      ? &lim.depth
							       : NULL;

		*usage = true;
		if ((slot || is_digest) && i + 1 >= argc)
			return ltd_err_set(err, EINVAL,
					   "import: %s needs a value", argv[i]);
		if (is_digest && digest)
			return ltd_err_set(err, EINVAL,
					   "import: --digest given twice");
		if (is_digest) {
			ret = ltd_image_digest_parse(argv[i], argv[i + 1], hex,
						     err);
			if (ret < 0)
				return ret;
			digest = hex;
			i++;
		} else if (slot) {
			ret = parse_count(argv[i], argv[i + 1], slot, err);
			if (ret < 0)
				return ret;
			i++;
		} else if (argv[i][0] == '-' || npos == 2) {
			return ltd_err_set(err, EINVAL,
					   "import: unknown option or extra "
					   "argument: '%s'",
					   argv[i]);
		} else {
			pos[npos++] = argv[i];
		}
	}
	if (npos != 2)
		return ltd_err_set(err, EINVAL, "import needs NAME and IMAGE%s",
				   npos ? " (IMAGE is missing)" : "");
	*usage = false;
	return ltd_rootfs_import(store, pos[0], pos[1], &lim, digest, err);
}

/* ltd-rootfs build's words after "build" (NAME first); *@usage as
 * import's. */
static int build(const char *store, int argc, char **argv, bool *usage,
		 struct ltd_err *err)
{
	struct ltd_build_opts o = {.suite = "bookworm",
				   .epoch = getenv("SOURCE_DATE_EPOCH")};

	if (!o.epoch || !o.epoch[0])
		o.epoch = DEFAULT_EPOCH;
	for (int i = 1; i < argc; i += 2) {
		const char **slot =
			!strcmp(argv[i], "--suite")		  ? &o.suite
			: !strcmp(argv[i], "--packages")	  ? &o.packages
			: !strcmp(argv[i], "--mirror")		  ? &o.mirror
			: !strcmp(argv[i], "--source-date-epoch") ? &o.epoch
								  : NULL;

		if (!slot || i + 1 >= argc) {
			*usage = true;
			return ltd_err_set(err, EINVAL,
					   "build: unknown option or missing "
					   "value: '%s'",
					   argv[i]);
		}
		*slot = argv[i + 1];
	}
	return ltd_rootfs_build(store, argv[0], &o, err);
}

/* A usage error of @cmd: what is wrong, then its usage line; 2. */
static int usage_error(const char *cmd, const char *msg)
{
	fputs("ltd-rootfs: ", stderr);
	ltd_fput_shown(stderr, msg);
	fputc('\n', stderr);
	return misuse(cmd);
}

/* The command @cmd with its @argc words after it; 0, or -errno with
 * @err (*@usage: the words are what is wrong). */
static int dispatch(const char *store, const char *cmd, int argc, char **argv,
		    bool *usage, struct ltd_err *err)
{
	bool one = !strcmp(cmd, "verify") || !strcmp(cmd, "rm");

	if (!strcmp(cmd, "import"))
		return import(store, argc, argv, usage, err);
	*usage = true;
	if (!strcmp(cmd, "build") && argc < 1)
		return ltd_err_set(err, EINVAL, "build needs NAME");
	if (!strcmp(cmd, "list") && argc > 0)
		return ltd_err_set(err, EINVAL, "list takes no arguments");
	if (one && argc != 1)
		return ltd_err_set(err, EINVAL,
				   "%s needs one NAME or sha256:DIGEST", cmd);
	*usage = false;
	if (!strcmp(cmd, "build"))
		return build(store, argc, argv, usage, err);
	if (!strcmp(cmd, "list"))
		return ltd_rootfs_list(store, err);
	if (!strcmp(cmd, "verify"))
		return ltd_rootfs_verify(store, argv[0], err);
	return ltd_rootfs_rm(store, argv[0], err);
}

int main(int argc, char **argv)
{
	struct ltd_err err = {0};
	char *store = NULL;
	const char *cmd = argc > 1 ? argv[1] : "";
	bool usage_wrong = false, known = false;
	int ret;

	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version")) {
		printf("ltd-rootfs %s\n", LTD_VERSION);
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		known |= !strcmp(cmd, commands[i].name);
	if (!known)
		return misuse(cmd);
	ret = ltd_store_path(&store, &err);
	if (ret == 0)
		ret = dispatch(store, cmd, argc - 2, argv + 2, &usage_wrong,
			       &err);
	free(store);
	if (ret < 0 && usage_wrong)
		return usage_error(cmd, err.msg);
	if (ret < 0) {
		/* Messages name members of an image and files of a store:
		 * whatever bytes they hold, none reaches the terminal raw. */
		fputs("ltd-rootfs: ", stderr);
		ltd_fput_shown(stderr, err.msg);
		fputc('\n', stderr);
		return 1;
	}
	return 0;
}
