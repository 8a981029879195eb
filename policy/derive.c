// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the options imply beyond themselves, resolved against the host
 * before any namespace exists: the trusted tier's package caches, the
 * auth directory, the provider seam's host port and URL, the ssh-agent
 * socket.  (What the tiers do with ~/.claude is Claude Code's adapter's,
 * agents/claude.c.)  Reads the host (what exists, what is a link), creates
 * nothing: missing persistent state is marked for runtime/state.c to create.
 */
#include "policy/option.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/base.h"
#include "common/path.h"
#include "common/vec.h"

/* Package caches a trusted run may write, where they exist. */
static const char *const caches[] = {
	".npm",	       ".cache/pip",	  ".cache/uv",	     ".cache/pnpm",
	".cache/yarn", ".cargo/registry", ".cache/go-build", "go/pkg/mod",
};

/* The credential persistence of the seeds: host dir -> cage dir. */
#define LTD_AUTH_HOST ".cache/lamp-the-djinn/auth"
#define LTD_AUTH_CAGE ".config/ltd-auth"

static int oom(struct ltd_err *err)
{
	return ltd_err_set(err, ENOMEM, "out of memory");
}

/* Derived binds go before the user's, so that a user's mount can cover
 * one (e.g. a --tmpfs over a cache). */
static int add_derived(struct ltd_policy *p, size_t *at,
		       enum ltd_user_mount_kind kind, const char *why,
		       const char *src, const char *dst, unsigned state,
		       unsigned waive, struct ltd_err *err)
{
	struct ltd_user_mount *m;

	if (!ltd_vec_push(&p->mounts, p->n_mounts))
		return oom(err);
	m = p->mounts;
	memmove(&m[*at + 1], &m[*at], (p->n_mounts - *at) * sizeof(*m));
	m[*at] = (struct ltd_user_mount){.kind = kind,
					 .flag = why,
					 .state = state,
					 .waive = waive,
					 .derived = true};
	m[*at].src = strdup(src);
	m[*at].dst = strdup(dst);
	p->n_mounts++;
	(*at)++;
	if (!m[*at - 1].src || !m[*at - 1].dst)
		return oom(err);
	return 0;
}

static int warn(struct ltd_policy *p, const char *what, const char *path,
		struct ltd_err *err)
{
	if (ltd_policy_add_note(&p->warnings, &p->n_warnings,
				"%s: '%s' is a symbolic link: left out (links "
				"are never followed out of the home)",
				what, path) < 0)
		return oom(err);
	return 0;
}

/* A home so long that its tier's paths do not fit: refused, never cut. */
static int too_long(const char *home, struct ltd_err *err)
{
	return ltd_err_set(err, ENAMETOOLONG,
			   "the home directory '%s' is too long a path", home);
}

/* The package caches; ~/.claude live is Claude Code's adapter's
 * (agents/claude.c). */
static int trusted_tier(struct ltd_policy *p, size_t *at, struct ltd_err *err)
{
	const char *H = p->host_home, *C = p->id.home;
	char src[PATH_MAX], dst[PATH_MAX];
	struct stat st;
	int ret = 0;

	for (size_t i = 0; !ret && i < ARRAY_SIZE(caches); i++) {
		if (ltd_path_join(src, sizeof(src), H, caches[i]) < 0 ||
		    ltd_path_join(dst, sizeof(dst), C, caches[i]) < 0)
			return too_long(H, err);
		if (lstat(src, &st) < 0)
			continue;
		if (S_ISLNK(st.st_mode))
			ret = warn(p, "--trusted", src, err);
		else if (S_ISDIR(st.st_mode))
			/* Writable on purpose, though some hold code the host
			 * runs (the gate's ~/.cache/pip, go-build, ~/.npm/_npx:
			 * docs/guide/filesystem.md says what that exposes). */
			ret = add_derived(p, at, LTD_UM_BIND, "--trusted", src,
					  dst, 0, LTD_UNSAFE_BIND_STARTUP, err);
	}
	return ret;
}

static int provider(struct ltd_policy *p, struct ltd_err *err)
{
	const char *url = p->proxy_url ? p->proxy_url : LTD_DEFAULT_PROXY_URL;
	char cage[512];
	uint16_t port;
	uint16_t *hp;

	if (!p->model && !p->proxy_url)
		return 0;
	if (ltd_proxy_url_parse(url, cage, sizeof(cage), &port) < 0)
		return ltd_err_set(err, EINVAL, "--proxy-url: '%s'", url);
	if (p->network == LTD_NET_NONE)
		return ltd_err_set(
			err, EINVAL,
			"--%s: the model proxy is on the host, which "
			"--network none cannot reach",
			p->proxy_url ? "proxy-url" : "model");
	free(p->cage_proxy_url);
	/* The host's own network: the proxy is where the user said. */
	p->cage_proxy_url = strdup(p->network == LTD_NET_HOST ? url : cage);
	if (!p->cage_proxy_url)
		return oom(err);
	if (p->network == LTD_NET_HOST)
		return 0;
	for (size_t i = 0; i < p->n_host_ports; i++)
		if (p->host_ports[i] == port)
			return 0;
	hp = ltd_vec_push(&p->host_ports, p->n_host_ports);
	if (!hp)
		return oom(err);
	*hp = port;
	p->n_host_ports++;
	return 0;
}

int ltd_policy_derive(struct ltd_policy *p, struct ltd_err *err)
{
	char src[PATH_MAX], dst[PATH_MAX];
	size_t at = 0;
	int ret = 0;

	/* A home that does not exist on the host has nothing to give. */
	if (p->host_home) {
		if (p->tier == LTD_TIER_TRUSTED)
			ret = trusted_tier(p, &at, err);
		if (!ret && (ltd_path_join(src, sizeof(src), p->host_home,
					   LTD_AUTH_HOST) < 0 ||
			     ltd_path_join(dst, sizeof(dst), p->id.home,
					   LTD_AUTH_CAGE) < 0))
			ret = too_long(p->host_home, err);
		if (!ret)
			ret = add_derived(p, &at, LTD_UM_BIND,
					  "credential persistence", src, dst,
					  LTD_STATE_DIR | LTD_STATE_SHARED_AUTH,
					  0, err);
	}
	if (!ret)
		ret = provider(p, err);
	if (!ret && p->ssh_agent) {
		ret = add_derived(p, &at, LTD_UM_RO_BIND, "--ssh-agent",
				  p->ssh_auth_sock, LTD_SSH_AGENT_SOCK, 0,
				  LTD_UNSAFE_BIND_SESSION, err);
		if (!ret)
			p->mounts[at - 1].want = S_IFSOCK;
	}
	return ret;
}

/* Split "http[s]://HOST[:PORT][/PATH]"; HOST must be this host. */
int ltd_proxy_url_parse(const char *url, char *cage, size_t size,
			uint16_t *port)
{
	static const char *const local[] = {"127.0.0.1", "localhost", "[::1]",
					    "host.ltd.internal"};
	const char *rest, *path, *colon;
	unsigned long v = 0;
	bool https = strncmp(url, "https://", 8) == 0;
	size_t hlen;
	bool ok = false;

	if (!https && strncmp(url, "http://", 7) != 0)
		return -EINVAL;
	rest = url + (https ? 8 : 7);
	path = rest + strcspn(rest, "/?#");
	colon = memchr(rest, ']', (size_t)(path - rest));
	colon = memchr(colon ? colon : rest, ':',
		       (size_t)(path - (colon ? colon : rest)));
	hlen = (size_t)((colon ? colon : path) - rest);
	for (size_t i = 0; i < ARRAY_SIZE(local); i++)
		if (strlen(local[i]) == hlen && !strncmp(rest, local[i], hlen))
			ok = true;
	if (!ok)
		return -EINVAL;
	if (colon) {
		const char *c = colon + 1;

		if (c == path ||
		    strspn(c, "0123456789") != (size_t)(path - c) ||
		    path - c > 5)
			return -EINVAL;
		v = strtoul(c, NULL, 10);
		if (v == 0 || v > 65535)
			return -EINVAL;
	} else {
		v = https ? 443 : 80;
	}
	if (strpbrk(path, " \t\r\n\"'\\"))
		return -EINVAL;
	*port = (uint16_t)v;
	if (snprintf(cage, size, "%s://host.ltd.internal:%lu%s",
		     https ? "https" : "http", v, path) >= (int)size)
		return -ENAMETOOLONG;
	return 0;
}
