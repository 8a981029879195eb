// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The launcher's and init's messages with descriptors (runtime/cage.h:
 * struct ltd_msg and SCM_RIGHTS), both ends: out of runtime/cage.c, which
 * is init's.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "runtime/cage.h"

int ltd_msg_send_fds(int sock, int type, int value, const int *fds, size_t n)
{
	struct ltd_msg m = {.type = type, .value = value};
	char ctl[CMSG_SPACE(LTD_MSG_MAX_FDS * sizeof(int))] = {0};
	struct iovec iov = {&m, sizeof(m)};
	struct msghdr mh = {.msg_iov = &iov,
			    .msg_iovlen = 1,
			    .msg_control = n ? ctl : NULL,
			    .msg_controllen =
				    n ? CMSG_SPACE(n * sizeof(int)) : 0};
	struct cmsghdr *cm;

	if (n > LTD_MSG_MAX_FDS)
		return -EINVAL;
	if (n) {
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(n * sizeof(int));
		memcpy(CMSG_DATA(cm), fds, n * sizeof(int));
	}
	if (sendmsg(sock, &mh, MSG_NOSIGNAL) != (ssize_t)sizeof(m))
		return -errno;
	return 0;
}

size_t ltd_msg_take_fds(struct msghdr *mh, int *fds, size_t max)
{
	size_t n_fds = 0;

	for (struct cmsghdr *cm = CMSG_FIRSTHDR(mh); cm;
	     cm = CMSG_NXTHDR(mh, cm)) {
		size_t k = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);

		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		for (size_t i = 0; i < k; i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int),
			       sizeof(fd));
			if (n_fds < max)
				fds[n_fds++] = fd;
			else
				close(fd);
		}
	}
	return n_fds;
}
