// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Gemini CLI's adapter (the row "gemini", agents/adapters.c): its
 * settings and trusted folders generated into the fresh home.  With the
 * seam its auth is the API key (the placeholder, from the row's
 * variables): a base URL without a chosen auth is refused in -p mode.
 * Usage statistics, telemetry and the updater off; its sandbox (Docker,
 * Podman) off: the cage is the sandbox.
 */
#include "agents/adapters.h"

#include <errno.h>
#include <stdio.h>

#include "common/path.h"

static json_t *settings(const struct ltd_agent_ctx *c)
{
	json_t *s =
		json_pack("{s:{s:b}, s:{s:b, s:b}, s:{s:b}, s:{s:b}}",
			  "privacy", "usageStatisticsEnabled", 0, "general",
			  "enableAutoUpdate", 0, "enableAutoUpdateNotification",
			  0, "telemetry", "enabled", 0, "tools", "sandbox", 0);

	if (s && c->url)
		json_object_set_new(s, "security",
				    json_pack("{s:{s:s}}", "auth",
					      "selectedType",
					      "gemini-api-key"));
	return s;
}

int ltd_gemini_files(struct ltd_agent_ctx *c, struct ltd_err *err)
{
	char dst[PATH_MAX];
	json_t *s = settings(c), *t = json_object();
	int ret;

	if (!s || !t ||
	    json_object_set_new(t, c->p->project, json_string("TRUST_FOLDER")))
		ret = ltd_err_set(err, ENOMEM, "out of memory");
	else if (ltd_path_fmt(dst, sizeof(dst), "%s/.gemini/settings.json",
			      c->home) < 0)
		ret = ltd_err_set(err, ENAMETOOLONG, "~/.gemini");
	else
		ret = ltd_json_file(c, dst, s, 0600, err);
	if (!ret &&
	    ltd_path_fmt(dst, sizeof(dst), "%s/.gemini/trustedFolders.json",
			 c->home) == 0)
		ret = ltd_json_file(c, dst, t, 0600, err);
	json_decref(s);
	json_decref(t);
	return ret;
}
