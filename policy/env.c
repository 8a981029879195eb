// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command's environment: nothing of the host's passes except a short
 * list that describes the terminal and the locale; then the identity, the
 * provider seam, what the agents' adapters set, then --setenv/--unsetenv
 * in order.  Pure.
 */
#include "policy/env.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const passthrough[] = {"TERM", "LANG", "COLORTERM", "TZ"};

static bool passes(const char *kv)
{
	size_t n = strcspn(kv, "=");

	if (kv[n] != '=')
		return false;
	if (strncmp(kv, "LC_", 3) == 0)
		return true;
	for (size_t i = 0; i < sizeof(passthrough) / sizeof(passthrough[0]);
	     i++)
		if (strlen(passthrough[i]) == n &&
		    strncmp(kv, passthrough[i], n) == 0)
			return true;
	return false;
}

struct envbuf {
	char **v;
	size_t n;
};

static ssize_t env_find(struct envbuf *b, const char *key)
{
	size_t n = strlen(key);

	for (size_t i = 0; i < b->n; i++)
		if (strncmp(b->v[i], key, n) == 0 && b->v[i][n] == '=')
			return (ssize_t)i;
	return -1;
}

static int env_put(struct envbuf *b, const char *key, const char *val)
{
	ssize_t at = env_find(b, key);
	char *kv = NULL, **v;

	if (!val) {
		if (at >= 0) {
			free(b->v[at]);
			memmove(&b->v[at], &b->v[at + 1],
				(b->n - (size_t)at) * sizeof(char *));
			b->n--;
		}
		return 0;
	}
	if (asprintf(&kv, "%s=%s", key, val) < 0)
		return -ENOMEM;
	if (at >= 0) {
		free(b->v[at]);
		b->v[at] = kv;
		return 0;
	}
	v = realloc(b->v, (b->n + 2) * sizeof(char *));
	if (!v) {
		free(kv);
		return -ENOMEM;
	}
	b->v = v;
	b->v[b->n++] = kv;
	b->v[b->n] = NULL;
	return 0;
}

/*
 * The provider seam: both wire-format families point at the proxy, with a
 * placeholder for the key (the real one stays in the proxy, outside).
 * Before --setenv, which may still override any of them.
 */
static int provider_env(struct envbuf *b, const struct ltd_policy *p)
{
	static const char *const url_vars[] = {"OPENAI_BASE_URL",
					       "ANTHROPIC_BASE_URL"};
	static const char *const key_vars[] = {"OPENAI_API_KEY",
					       "ANTHROPIC_AUTH_TOKEN"};
	static const char *const model_vars[] = {
		"LTD_MODEL",
		"OPENAI_MODEL",
		"ANTHROPIC_MODEL",
		"ANTHROPIC_SMALL_FAST_MODEL",
	};
	int ret = 0;

	if (!p->cage_proxy_url)
		return 0;
	for (size_t i = 0; !ret && i < 2; i++)
		ret = env_put(b, url_vars[i], p->cage_proxy_url);
	for (size_t i = 0; !ret && i < 2; i++)
		ret = env_put(b, key_vars[i], LTD_PLACEHOLDER_KEY);
	for (size_t i = 0; !ret && p->model && i < 4; i++)
		ret = env_put(b, model_vars[i], p->model);
	return ret;
}

void ltd_env_free(char **envp)
{
	for (char **e = envp; e && *e; e++)
		free(*e);
	free(envp);
}

char **ltd_env_build(const struct ltd_policy *p, char *const *host,
		     struct ltd_err *err)
{
	struct envbuf b = {.v = calloc(1, sizeof(char *)), .n = 0};
	int ret = b.v ? 0 : -ENOMEM;

	for (size_t i = 0; !ret && host && host[i]; i++) {
		if (!passes(host[i]))
			continue;
		char key[256];
		size_t n = strcspn(host[i], "=");

		if (n >= sizeof(key))
			continue;
		memcpy(key, host[i], n);
		key[n] = '\0';
		ret = env_put(&b, key, host[i] + n + 1);
	}
	/* The commands the resolver found where the user installed them
	 * come first, as they did on the caller's PATH. */
	if (!ret)
		ret = env_put(&b, "PATH",
			      p->cmd_links ? LTD_CMD_DIR ":" LTD_CAGE_PATH
					   : LTD_CAGE_PATH);
	if (!ret)
		ret = env_put(&b, "HOME", p->id.home);
	if (!ret)
		ret = env_put(&b, "USER", p->id.user);
	if (!ret)
		ret = env_put(&b, "LOGNAME", p->id.user);
	if (!ret)
		ret = env_put(&b, "SHELL", p->id.shell);
	if (!ret)
		ret = provider_env(&b, p);
	for (size_t i = 0; !ret && i < p->n_derived_env; i++)
		ret = env_put(&b, p->derived_env[i].key, p->derived_env[i].val);
	if (!ret && p->ssh_agent)
		ret = env_put(&b, "SSH_AUTH_SOCK", LTD_SSH_AGENT_SOCK);
	for (size_t i = 0; !ret && i < p->n_env; i++)
		ret = env_put(&b, p->env[i].key, p->env[i].val);
	if (ret) {
		ltd_env_free(b.v);
		ltd_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	return b.v;
}
