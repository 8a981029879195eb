// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command resolver (agents/resolve.h) on fake install trees in a
 * temporary directory: npm prefixes, Claude Code's native installer, nvm
 * and fnm Node versions, pipx and uv tools, cargo, a Nix profile and its
 * closure, `#!` lines.  What is bound, which links are made again, which
 * commands get a link on the cage's PATH; never the prefix's etc/, never
 * the home.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agents/resolve.h"
#include "policy/policy.h"
#include "tests/common/fixture.h"

static char dir[64];
static char home[128], pathvar[1024];
static struct ltd_resolver r;
static struct ltd_err err;

/* "D/..." with D the test's directory, in a static ring of buffers. */
static const char *at(const char *fmt, ...)
{
	static char ring[8][1024];
	static int k;
	char rel[900];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	k = (k + 1) % 8;
	snprintf(ring[k], sizeof(ring[k]), "%s/%s", dir, rel);
	return ring[k];
}

static void mkdirs(const char *path)
{
	char buf[1024];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *c = buf + 1; *c; c++) {
		if (*c != '/')
			continue;
		*c = '\0';
		mkdir(buf, 0755);
		*c = '/';
	}
	mkdir(buf, 0755);
}

/* A file with @text, its directories made; executable when @x. */
static void file(const char *path, const char *text, bool x)
{
	char d[1024];
	FILE *f;

	snprintf(d, sizeof(d), "%s", path);
	*strrchr(d, '/') = '\0';
	mkdirs(d);
	f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
	chmod(path, x ? 0755 : 0644);
}

static void link_at(const char *path, const char *target)
{
	char d[1024];

	snprintf(d, sizeof(d), "%s", path);
	*strrchr(d, '/') = '\0';
	mkdirs(d);
	cr_assert_eq(symlink(target, path), 0, "%s", path);
}

static void setup(void)
{
	memset(&err, 0, sizeof(err));
	fx_tmpdir(dir, sizeof(dir), "resolve");
	snprintf(home, sizeof(home), "%s/home/u", dir);
	mkdirs(home);
	r = (struct ltd_resolver){.cage_path = LTD_CAGE_PATH,
				  .home = home,
				  .store = NULL,
				  .system_shown = true,
				  .why = "test"};
}

static void teardown(void)
{
	ltd_resolver_free(&r);
	fx_rm_rf(dir);
}

TestSuite(resolve, .init = setup, .fini = teardown);

static void set_path(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(pathvar, sizeof(pathvar), fmt, ap);
	va_end(ap);
	r.path = pathvar;
}

static bool bound(const char *path)
{
	for (size_t i = 0; i < r.n_binds; i++)
		if (!strcmp(r.binds[i].path, path))
			return true;
	return false;
}

static const char *link_to(const struct ltd_link *v, size_t n, const char *path)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].path, path))
			return v[i].target;
	return NULL;
}

static const char *cmd(const char *name)
{
	return link_to(r.cmds, r.n_cmds, name);
}

/* An npm user prefix: the package and the link that names it, not the
 * prefix (its etc/npmrc holds the registry token). */
Test(resolve, npm_prefix_binds_the_package_not_the_prefix)
{
	const char *pkg = "home/u/.npm-global/lib/node_modules/"
			  "@anthropic-ai/claude-code";

	file(at("%s/bin/claude.exe", pkg), "\177ELF", true);
	file(at("%s/node_modules/@anthropic-ai/claude-code-linux-x64/claude",
		pkg),
	     "\177ELF", true);
	file(at("home/u/.npm-global/etc/npmrc"), "//registry/:_authToken=x",
	     false);
	link_at(at("home/u/.npm-global/bin/claude"),
		"../lib/node_modules/@anthropic-ai/claude-code/bin/claude.exe");
	set_path("%s/home/u/.npm-global/bin:/usr/bin:/bin", dir);

	cr_assert_eq(ltd_resolve_command(&r, "claude", &err), 0, "%s", err.msg);
	cr_assert_eq(r.n_binds, 1);
	cr_assert(bound(at("%s", pkg)), "%s", r.binds[0].path);
	cr_assert_str_eq(link_to(r.links, r.n_links,
				 at("home/u/.npm-global/bin/claude")),
			 "../lib/node_modules/@anthropic-ai/claude-code/bin/"
			 "claude.exe");
	cr_assert_str_eq(cmd("claude"), at("home/u/.npm-global/bin/claude"));
	for (size_t i = 0; i < r.n_binds; i++)
		cr_assert_null(strstr(r.binds[i].path, "/etc"));
}

/* `#!/usr/bin/env node` with node from nvm: the package, and nvm's Node
 * version without its etc/, and a link for node on the cage's PATH. */
Test(resolve, env_node_from_nvm)
{
	const char *v = "home/u/.nvm/versions/node/v22.1.0";

	file(at("home/u/.npm-global/lib/node_modules/@openai/codex/bin/"
		"codex.js"),
	     "#!/usr/bin/env node\nimport x from 'y';\n", true);
	link_at(at("home/u/.npm-global/bin/codex"),
		"../lib/node_modules/@openai/codex/bin/codex.js");
	file(at("%s/bin/node", v), "\177ELF", true);
	file(at("%s/lib/node_modules/npm/package.json", v), "{}", false);
	file(at("%s/include/node/node.h", v), "", false);
	file(at("%s/etc/npmrc", v), "//registry/:_authToken=x", false);
	set_path("%s/home/u/.npm-global/bin:%s/%s/bin:/usr/bin:/bin", dir, dir,
		 v);

	cr_assert_eq(ltd_resolve_command(&r, "codex", &err), 0, "%s", err.msg);
	cr_assert(bound(at("home/u/.npm-global/lib/node_modules/@openai/"
			   "codex")));
	cr_assert(bound(at("%s/bin", v)));
	cr_assert(bound(at("%s/lib", v)));
	cr_assert(bound(at("%s/include", v)));
	cr_assert(!bound(at("%s/etc", v)), "never a prefix's etc/");
	cr_assert_eq(r.n_binds, 4);
	cr_assert_str_eq(cmd("codex"), at("home/u/.npm-global/bin/codex"));
	cr_assert_str_eq(cmd("node"), at("%s/bin/node", v));
}

/* env -S and its options, VAR=VALUE words skipped. */
Test(resolve, env_dash_s_names_the_program)
{
	file(at("home/u/tools/bin/t"),
	     "#!/usr/bin/env -S LC_ALL=C mynode --max-old-space-size=100\n",
	     true);
	file(at("home/u/rt/bin/mynode"), "\177ELF", true);
	set_path("%s/home/u/tools/bin:%s/home/u/rt/bin", dir, dir);

	cr_assert_eq(ltd_resolve_command(&r, "t", &err), 0, "%s", err.msg);
	cr_assert_str_eq(cmd("mynode"), at("home/u/rt/bin/mynode"));
	cr_assert(bound(at("home/u/rt/bin/mynode")));
	cr_assert(bound(at("home/u/tools/bin/t")));
}

/* Claude Code's native installer: the version file, and ~/.local/bin's
 * link made again, never the rest of ~/.local/bin. */
Test(resolve, claude_native_installer)
{
	const char *ver = at("home/u/.local/share/claude/versions/2.1.197");

	file(ver, "\177ELF", true);
	file(at("home/u/.local/bin/other-tool"), "\177ELF", true);
	link_at(at("home/u/.local/bin/claude"), ver);
	set_path("%s/home/u/.local/bin:/usr/bin", dir);

	cr_assert_eq(ltd_resolve_command(&r, "claude", &err), 0, "%s", err.msg);
	cr_assert_eq(r.n_binds, 1);
	cr_assert(bound(ver));
	cr_assert_str_eq(
		link_to(r.links, r.n_links, at("home/u/.local/bin/claude")),
		ver);
	cr_assert_str_eq(cmd("claude"), at("home/u/.local/bin/claude"));
	cr_assert_null(cmd("other-tool"));
}

/* pipx: ~/.local/bin/aider -> the venv's script, whose `#!` names the
 * venv's python, a link to the system's. */
Test(resolve, pipx_venv)
{
	const char *venv = "home/u/.local/share/pipx/venvs/aider-chat";
	char shebang[512];

	snprintf(shebang, sizeof(shebang), "#!%s/%s/bin/python\nimport x\n",
		 dir, venv);
	file(at("%s/bin/aider", venv), shebang, true);
	file(at("%s/pyvenv.cfg", venv), "home = /usr/bin\n", false);
	link_at(at("%s/bin/python", venv), "/usr/bin/env");
	link_at(at("home/u/.local/bin/aider"), at("%s/bin/aider", venv));
	set_path("%s/home/u/.local/bin:/usr/bin", dir);

	cr_assert_eq(ltd_resolve_command(&r, "aider", &err), 0, "%s", err.msg);
	cr_assert_eq(r.n_binds, 1);
	cr_assert(bound(at("%s", venv)));
	cr_assert_str_eq(cmd("aider"), at("home/u/.local/bin/aider"));
}

/* uv tool: the tool's environment and uv's own Python. */
Test(resolve, uv_tool_and_uv_python)
{
	const char *tool = "home/u/.local/share/uv/tools/ruff";
	const char *py = "home/u/.local/share/uv/python/"
			 "cpython-3.12.4-linux-x86_64-gnu";
	char shebang[512];

	file(at("%s/bin/python3.12", py), "\177ELF", true);
	file(at("%s/lib/python3.12/os.py", py), "", false);
	snprintf(shebang, sizeof(shebang), "#!%s/%s/bin/python\n", dir, tool);
	file(at("%s/bin/ruff", tool), shebang, true);
	file(at("%s/pyvenv.cfg", tool), "", false);
	link_at(at("%s/bin/python", tool), at("%s/bin/python3.12", py));
	link_at(at("home/u/.local/bin/ruff"), at("%s/bin/ruff", tool));
	set_path("%s/home/u/.local/bin", dir);

	cr_assert_eq(ltd_resolve_command(&r, "ruff", &err), 0, "%s", err.msg);
	cr_assert(bound(at("%s", tool)));
	cr_assert(bound(at("%s", py)));
	cr_assert_eq(r.n_binds, 2);
}

/* fnm: PATH names a per-shell link; the Node version is bound, and the
 * cage's link names the real file (the way there has a link in it). */
Test(resolve, fnm_multishell)
{
	const char *inst = "home/u/.local/share/fnm/node-versions/v20.11.0/"
			   "installation";

	file(at("%s/bin/node", inst), "\177ELF", true);
	file(at("%s/lib/node_modules/npm/x", inst), "", false);
	link_at(at("run/fnm_multishells/4242_1"), at("%s", inst));
	set_path("%s/run/fnm_multishells/4242_1/bin", dir);

	cr_assert_eq(ltd_resolve_command(&r, "node", &err), 0, "%s", err.msg);
	cr_assert(bound(at("%s/bin", inst)));
	cr_assert(bound(at("%s/lib", inst)));
	cr_assert_str_eq(cmd("node"), at("%s/bin/node", inst));
	cr_assert_eq(r.n_links, 0, "no link on a way that has one in it");
}

/* ~/.cargo/bin: the program alone. */
Test(resolve, cargo_bin_is_the_file_alone)
{
	file(at("home/u/.cargo/bin/rg"), "\177ELF", true);
	file(at("home/u/.cargo/bin/cargo"), "\177ELF", true);
	set_path("%s/home/u/.cargo/bin", dir);

	cr_assert_eq(ltd_resolve_command(&r, "rg", &err), 0, "%s", err.msg);
	cr_assert_eq(r.n_binds, 1);
	cr_assert(bound(at("home/u/.cargo/bin/rg")));
}

#define H1 "0123456789abcdfghijklmnpqrsvwxyz"
#define H2 "11111111111111111111111111111111"
#define H3 "22222222222222222222222222222222"
#define H4 "33333333333333333333333333333333"

/* A Nix profile: the program's store path and its closure (found in its
 * files as Nix finds references), not the rest of the store. */
Test(resolve, nix_profile_and_closure)
{
	char text[1024], store[256];

	snprintf(store, sizeof(store), "%s/nix/store", dir);
	r.store = store;
	snprintf(text, sizeof(text),
		 "#!%s/" H2 "-bash-5.2/bin/bash\nexec %s/" H1
		 "-hello-2.12/bin/.hello-wrapped\n",
		 store, store);
	file(at("nix/store/" H1 "-hello-2.12/bin/hello"), text, true);
	snprintf(text, sizeof(text), "\177ELF..%s/" H3 "-glibc-2.39/lib..",
		 store);
	file(at("nix/store/" H1 "-hello-2.12/bin/.hello-wrapped"), text, true);
	snprintf(text, sizeof(text), "\177ELF..%s/" H3 "-glibc-2.39/lib..",
		 store);
	file(at("nix/store/" H2 "-bash-5.2/bin/bash"), text, true);
	file(at("nix/store/" H3 "-glibc-2.39/lib/libc.so.6"), "\177ELF", false);
	file(at("nix/store/" H4 "-unrelated/x"), "", false);
	mkdirs(at("nix/store/" H4 "-profile/bin"));
	link_at(at("nix/store/" H4 "-profile/bin/hello"),
		at("nix/store/" H1 "-hello-2.12/bin/hello"));
	link_at(at("nix/var/nix/profiles/per-user/u/profile"),
		at("nix/store/" H4 "-profile"));
	link_at(at("home/u/.nix-profile"),
		at("nix/var/nix/profiles/per-user/u/profile"));
	set_path("%s/home/u/.nix-profile/bin", dir);

	cr_assert_eq(ltd_resolve_command(&r, "hello", &err), 0, "%s", err.msg);
	cr_assert(bound(at("nix/store/" H1 "-hello-2.12")));
	cr_assert(bound(at("nix/store/" H2 "-bash-5.2")));
	cr_assert(bound(at("nix/store/" H3 "-glibc-2.39")));
	cr_assert(!bound(at("nix/store/" H4 "-unrelated")));
	cr_assert_eq(r.n_binds, 3);
	cr_assert_str_eq(cmd("hello"),
			 at("nix/store/" H1 "-hello-2.12/bin/hello"));
}

Test(resolve, not_found_names_where_it_looked)
{
	set_path("%s/home/u/bin:/usr/bin", dir);
	cr_assert_eq(ltd_resolve_command(&r, "no-such-agent", &err), -ENOENT);
	cr_assert(strstr(err.msg, "home/u/bin:/usr/bin"), "%s", err.msg);
	cr_assert(strstr(err.msg, LTD_CAGE_PATH), "%s", err.msg);
}

/* A system command needs nothing: no bind, no link, PATH unchanged. */
Test(resolve, system_command_needs_nothing)
{
	set_path("/usr/bin:/bin");
	cr_assert_eq(ltd_resolve_command(&r, "sh", &err), 0, "%s", err.msg);
	cr_assert_eq(r.n_binds + r.n_links + r.n_cmds, 0);
}

/* The project (or a bind at its own path) shows its files already. */
Test(resolve, command_in_a_shown_place)
{
	char *shown[] = {(char *)at("home/u/proj")};

	file(at("home/u/proj/node_modules/.bin/tsc"), "\177ELF", true);
	r.shown = shown;
	r.n_shown = 1;
	set_path("%s/home/u/proj/node_modules/.bin", dir);
	cr_assert_eq(ltd_resolve_command(&r, "tsc", &err), 0, "%s", err.msg);
	cr_assert_eq(r.n_binds, 0);
	cr_assert_str_eq(cmd("tsc"), at("home/u/proj/node_modules/.bin/tsc"));
	r.shown = NULL;
	r.n_shown = 0;
}

/* Never the home, nor what holds it. */
Test(resolve, never_the_home)
{
	cr_assert_eq(ltd_resolve_add_bind(&r, home, &err), -EPERM);
	cr_assert_eq(ltd_resolve_add_bind(&r, at("home"), &err), -EPERM);
	file(at("home/u/mytool"), "\177ELF", true);
	set_path("%s/home/u", dir);
	cr_assert_eq(ltd_resolve_command(&r, "mytool", &err), 0, "%s", err.msg);
	cr_assert_eq(r.n_binds, 1);
	cr_assert(bound(at("home/u/mytool")));
}

/* An absolute command the cage shows, or that the host lacks, is left to
 * the cage; one outside it is placed. */
Test(resolve, absolute_commands)
{
	cr_assert_eq(ltd_resolve_command(&r, "/bin/sh", &err), 0);
	cr_assert_eq(ltd_resolve_command(&r, "/nonexistent/x", &err), 0);
	cr_assert_eq(r.n_binds, 0);
	file(at("opt/tool/bin/t"), "\177ELF", true);
	cr_assert_eq(ltd_resolve_command(&r, at("opt/tool/bin/t"), &err), 0);
	cr_assert(bound(at("opt/tool/bin/t")), "not anchored at /opt: file");
	cr_assert_eq(r.n_cmds, 0, "called by its path: no PATH link");
}

/* A bind inside another is dropped; one holding earlier ones replaces
 * them. */
Test(resolve, binds_nest_once)
{
	mkdirs(at("a/b/c"));
	cr_assert_eq(ltd_resolve_add_bind(&r, at("a/b/c"), &err), 0);
	cr_assert_eq(ltd_resolve_add_bind(&r, at("a/b"), &err), 0);
	cr_assert_eq(ltd_resolve_add_bind(&r, at("a/b/c"), &err), 0);
	cr_assert_eq(r.n_binds, 1);
	cr_assert(bound(at("a/b")));
}

/* A link loop is an error naming the path, not a hang. */
Test(resolve, link_loop)
{
	link_at(at("home/u/bin/x"), "y");
	link_at(at("home/u/bin/y"), "x");
	cr_assert_lt(ltd_resolve_command(&r, at("home/u/bin/x"), &err), 0);
}
