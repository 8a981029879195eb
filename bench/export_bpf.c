// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Write the seccomp program that ltd-native loads (enforce mode, the very
 * bytes compiled into the binary) as raw struct sock_filter to a file, for
 * `bwrap --seccomp FD` in bench/seccomp.sh.
 *   export_bpf FILE
 */
#include <stdio.h>

#include "confine/seccomp.h"

int main(int argc, char **argv)
{
	const struct ltd_bpf *bpf = ltd_seccomp_program(LTD_SECCOMP_ENFORCE);
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: export_bpf FILE\n");
		return 2;
	}
	if (!bpf || bpf->len == 0) {
		fprintf(stderr, "export_bpf: no enforce program in libltd\n");
		return 1;
	}
	f = fopen(argv[1], "wb");
	if (!f ||
	    fwrite(bpf->insns, sizeof(*bpf->insns), bpf->len, f) != bpf->len ||
	    fclose(f) != 0) {
		perror(argv[1]);
		return 1;
	}
	fprintf(stderr, "export_bpf: %u instructions to %s\n", bpf->len,
		argv[1]);
	return 0;
}
