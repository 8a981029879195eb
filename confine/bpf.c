// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * From profile to BPF blob, with libseccomp.  Runs at build time (see
 * cli/seccomp-gen.c) and in the tests; the runtime only loads the blob
 * (confine/load.c) and does not link libseccomp at all.
 */
#include "confine/profile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/cleanup.h"

void ltd_bpf_free(struct ltd_bpf *bpf)
{
	free(bpf->insns);
	bpf->insns = NULL;
	bpf->len = 0;
}

/* Read all of @fd (positioned at 0) into @buf of @size bytes. */
static int read_all(int fd, void *buf, size_t size, struct ltd_err *err)
{
	size_t done = 0;
	ssize_t n;

	while (done < size) {
		n = pread(fd, (char *)buf + done, size - done, done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return ltd_err_sys(err, "seccomp: cannot read the BPF");
		if (n == 0)
			return ltd_err_set(err, EIO,
					   "seccomp: BPF export truncated");
		done += n;
	}
	return 0;
}

/*
 * libseccomp 2.5 exports BPF only to a file descriptor
 * (seccomp_export_bpf_mem() arrived in 2.6): export into an anonymous
 * memfd and read it back.
 */
int ltd_seccomp_export_bpf(scmp_filter_ctx ctx, struct ltd_bpf *out,
			   struct ltd_err *err)
{
	_cleanup_close_ int fd = -1;
	_cleanup_free_ struct sock_filter *insns = NULL;
	struct stat st;
	size_t len;
	int ret;

	fd = memfd_create("ltd-seccomp-bpf", MFD_CLOEXEC);
	if (fd < 0)
		return ltd_err_sys(err, "seccomp: memfd_create");
	ret = seccomp_export_bpf(ctx, fd);
	if (ret < 0)
		return ltd_err_set(err, -ret, "seccomp: cannot export BPF: %s",
				   strerror(-ret));
	if (fstat(fd, &st) < 0)
		return ltd_err_sys(err, "seccomp: fstat on the BPF memfd");
	if (st.st_size <= 0 || st.st_size % sizeof(struct sock_filter))
		return ltd_err_set(
			err, EIO, "seccomp: exported BPF has a bad size (%lld)",
			(long long)st.st_size);
	len = st.st_size / sizeof(struct sock_filter);
	/* The kernel's limit; also what fits in sock_fprog.len. */
	if (len > BPF_MAXINSNS)
		return ltd_err_set(err, E2BIG,
				   "seccomp: filter has %zu instructions, the "
				   "kernel takes at most %d",
				   len, BPF_MAXINSNS);
	insns = malloc(st.st_size);
	if (!insns)
		return ltd_err_set(err, ENOMEM, "seccomp: out of memory");
	ret = read_all(fd, insns, st.st_size, err);
	if (ret < 0)
		return ret;

	out->insns = ltd_steal_ptr(&insns);
	out->len = (unsigned short)len;
	return 0;
}

int ltd_seccomp_build(enum ltd_seccomp_mode mode, struct ltd_bpf *out,
		      struct ltd_err *err)
{
	_cleanup_seccomp_ scmp_filter_ctx ctx = NULL;
	int ret;

	out->insns = NULL;
	out->len = 0;
	if (mode == LTD_SECCOMP_OFF)
		return 0;
	ret = ltd_seccomp_profile_new(mode, &ctx, err);
	if (ret < 0)
		return ret;
	return ltd_seccomp_export_bpf(ctx, out, err);
}

int ltd_seccomp_export_pfc(enum ltd_seccomp_mode mode, int fd,
			   struct ltd_err *err)
{
	static const char off[] =
		"#\n# seccomp: off (--unsafe-no-seccomp)\n#\n";
	_cleanup_seccomp_ scmp_filter_ctx ctx = NULL;
	int ret;

	if (mode == LTD_SECCOMP_OFF) {
		if (write(fd, off, sizeof(off) - 1) != sizeof(off) - 1)
			return ltd_err_sys(err, "seccomp: cannot write PFC");
		return 0;
	}
	ret = ltd_seccomp_profile_new(mode, &ctx, err);
	if (ret < 0)
		return ret;
	ret = seccomp_export_pfc(ctx, fd);
	if (ret < 0)
		return ltd_err_set(err, -ret, "seccomp: cannot export PFC: %s",
				   strerror(-ret));
	return 0;
}
