// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Codex's adapter (the row "codex", agents/adapters.c): its config,
 * generated twice: /etc/codex/managed_config.toml (in the root tmpfs,
 * sealed read-only), the layer Codex reads above every other, so that
 * neither a config.toml in the cage nor a CODEX_HOME moved elsewhere (the
 * auth directory) can take the seam or the sandbox's being off away; and
 * ~/.codex/config.toml in the fresh home, the same, for a Codex without
 * that layer (the legacy managed config: measured in 0.171.0).  Codex
 * reads no base-URL variable: the seam is a provider of its own whose key
 * is the seam's placeholder (env_key).  Its sandbox needs user namespaces,
 * which the cage refuses: off.  No update check, no analytics, no daemon that
 * would outlive the command, the project trusted.  Its sessions are kept
 * by date, not by project: the row binds this project's own store of
 * them at ~/.codex/sessions.
 * docs/decisions/0123-codex-sessions-per-project.md
 */
#include "agents/adapters.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/path.h"

/* A TOML basic string: quotes, backslashes and controls escaped. */
static void toml_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20 || ch == 0x7f)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static void config(FILE *f, struct ltd_agent_ctx *c)
{
	char v1[1024];

	fputs("# Written by ltd-native for this cage (docs/guide/agents.md).\n"
	      "# The cage is the sandbox; the model is reached through the\n"
	      "# provider seam when one is given.\n",
	      f);
	if (c->url) {
		fputs("model_provider = \"ltd\"\n", f);
		if (c->p->model) {
			fputs("model = ", f);
			toml_str(f, c->p->model);
			fputc('\n', f);
		}
	}
	fputs("sandbox_mode = \"danger-full-access\"\n"
	      "check_for_update_on_startup = false\n",
	      f);
	if (c->url) {
		fputs("\n[model_providers.ltd]\n"
		      "name = \"ltd-native model proxy\"\n"
		      "base_url = ",
		      f);
		toml_str(f, ltd_agent_url_v1(c->url, v1, sizeof(v1)));
		fputs("\nenv_key = \"OPENAI_API_KEY\"\n"
		      "wire_api = \"responses\"\n",
		      f);
	}
	fputs("\n[analytics]\nenabled = false\n\n[features]\n"
	      "daemon_auto_start = false\n",
	      f);
	if (c->url)
		fputs("plugins = false\napps = false\n", f);
	fputs("\n[projects.", f);
	toml_str(f, c->p->project);
	fputs("]\ntrust_level = \"trusted\"\n", f);
}

#define MANAGED "/etc/codex/managed_config.toml"

int ltd_codex_files(struct ltd_agent_ctx *c, struct ltd_err *err)
{
	char dst[PATH_MAX], *text = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	if (ltd_path_fmt(dst, sizeof(dst), "%s/.codex/config.toml", c->home))
		return ltd_err_set(err, ENAMETOOLONG, "~/.codex/config.toml");
	f = open_memstream(&text, &len);
	if (!f)
		return ltd_err_set(err, ENOMEM, "out of memory");
	config(f, c);
	if (fclose(f) != 0) {
		free(text);
		return ltd_err_set(err, ENOMEM, "out of memory");
	}
	ret = ltd_policy_add_file(c->p, MANAGED, text, len, 0644, c->why, err);
	if (!ret)
		ret = ltd_policy_add_file(c->p, dst, text, len, 0600, c->why,
					  err);
	free(text);
	return ret;
}
