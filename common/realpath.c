// SPDX-License-Identifier: GPL-2.0-or-later
#include "common/realpath.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/path.h"

int ltd_realpath_existing(const char *in, char *out, size_t size)
{
	char head[PATH_MAX], real[PATH_MAX];
	size_t len = strlen(in);
	int ret;

	if (in[0] != '/')
		return -EINVAL;
	if (len >= sizeof(head))
		return -ENAMETOOLONG;
	memcpy(head, in, len + 1);
	/* Shorten to the part that exists ("/" always does). */
	while (!realpath(head, real)) {
		char *slash = strrchr(head, '/');

		if (slash == head) {
			strcpy(real, "/");
			len = 0;
			break;
		}
		*slash = '\0';
		len = (size_t)(slash - head);
	}
	ret = ltd_path_fmt(out, size, "%s/%s", real, in + len);
	if (ret == 0)
		ltd_path_normalize(out);
	return ret;
}
