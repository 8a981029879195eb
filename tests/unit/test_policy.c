// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The policy model: policy files, precedence, provenance, approval of a
 * project's file, the gate and its --unsafe-... flags, the provider seam.
 * Everything in a temporary directory; no privileges.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/sha256.h"
#include "policy/option.h"
#include "runtime/hostuser.h"
#include "runtime/run.h"

static struct ltd_policy p;
static struct ltd_protected prot;
static struct ltd_err err;
static char dir[] = "/tmp/ltd-policy.XXXXXX";
static char cfg[128], proj[128];

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

static void setup(void)
{
	char path[192];

	ltd_policy_init(&p);
	memset(&err, 0, sizeof(err));
	cr_assert_not_null(mkdtemp(dir));
	snprintf(cfg, sizeof(cfg), "%s/cfg", dir);
	snprintf(proj, sizeof(proj), "%s/proj", dir);
	mkdir(cfg, 0700);
	mkdir(proj, 0755);
	snprintf(path, sizeof(path), "%s/.ltd-native", proj);
	mkdir(path, 0755);
}

static void teardown(void)
{
	char cmd[64];

	ltd_policy_free(&p);
	ltd_protected_free(&prot);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	(void)!system(cmd);
	strcpy(dir, "/tmp/ltd-policy.XXXXXX");
}

TestSuite(policy, .init = setup, .fini = teardown);

static int resolve_env(char **env, int argc, char **argv)
{
	struct ltd_policy_input in = {.user = ltd_host_user(),
				      .argc = argc,
				      .argv = argv,
				      .env = env,
				      .config_dir = cfg,
				      .cwd = proj};

	return ltd_policy_resolve(&p, &in, &err);
}

#define RESOLVE(...)                                                           \
	({                                                                     \
		char *args[] = {__VA_ARGS__};                                  \
		resolve_env(NULL, sizeof(args) / sizeof(args[0]), args);       \
	})

static struct ltd_opt_list l;

static int parse_text(const char *text, unsigned forbid)
{
	ltd_opts_free(&l);
	return ltd_opts_from_text(&l, text, strlen(text), "F", "/home/u",
				  forbid, &err);
}

/* --- the file syntax -------------------------------------------------------
 */

Test(policy, file_comments_blank_lines_quotes)
{
	cr_assert_eq(parse_text("# a comment\n"
				"\n"
				"   \t\n"
				"ro-bind \"/a b/c\" '/d e'   # trailing\n"
				"setenv X \"say \\\"hi\\\" \\\\ #x\"\n"
				"tmpfs ~/scratch\n"
				"tmpfs \"~/literal\"\n",
				0),
		     0, "%s", err.msg);
	cr_assert_eq(l.n, 4);
	cr_assert_str_eq(l.e[0].opt->name, "ro-bind");
	cr_assert_str_eq(l.e[0].args[0], "/a b/c");
	cr_assert_str_eq(l.e[0].args[1], "/d e");
	cr_assert_str_eq(l.e[0].source, "F:4");
	cr_assert_str_eq(l.e[1].args[1], "say \"hi\" \\ #x");
	cr_assert_str_eq(l.e[2].args[0], "/home/u/scratch");
	cr_assert_str_eq(l.e[3].args[0], "~/literal");
	ltd_opts_free(&l);
}

Test(policy, file_errors_name_file_and_line)
{
	cr_assert_lt(parse_text("hostname a\n\nno-such-option x\n", 0), 0);
	cr_assert(strstr(err.msg, "F:3"), "%s", err.msg);
	cr_assert(strstr(err.msg, "no-such-option"), "%s", err.msg);
	cr_assert_lt(parse_text("--bind /a /b\n", 0), 0);
	cr_assert(strstr(err.msg, "F:1") && strstr(err.msg, "without"), "%s",
		  err.msg);
	cr_assert_lt(parse_text("bind /a\n", 0), 0);
	cr_assert(strstr(err.msg, "F:1") && strstr(err.msg, "takes 2"), "%s",
		  err.msg);
	cr_assert_lt(parse_text("setenv X \"open\n", 0), 0);
	cr_assert(strstr(err.msg, "unterminated"), "%s", err.msg);
	cr_assert_lt(parse_text("policy /x\n", LTD_OPT_CLI_ONLY), 0);
	cr_assert(strstr(err.msg, "command line"), "%s", err.msg);
	ltd_opts_free(&l);
}

/* --allow-clipboard from a user's policy file; never from a project's. */
Test(policy, allow_clipboard_in_files)
{
	cr_assert_eq(parse_text("allow-clipboard\n", 0), 0, "%s", err.msg);
	cr_assert_eq(l.n, 1);
	cr_assert_str_eq(l.e[0].opt->name, "allow-clipboard");
	cr_assert_lt(parse_text("allow-clipboard\n", LTD_OPT_NOT_PROJECT), 0);
	cr_assert(strstr(err.msg, "F:1"), "%s", err.msg);
	ltd_opts_free(&l);
}

/* From the review: "bind ~/.bashrc /tmp/b\r# harmless" shows as the comment
 * alone on a terminal. */
Test(policy, control_bytes_are_refused)
{
	cr_assert_lt(parse_text("hostname a\nbind /a /b\r# harmless\n", 0), 0);
	cr_assert(strstr(err.msg, "F:2") && strstr(err.msg, "0x0d"), "%s",
		  err.msg);
	cr_assert_lt(parse_text("hostname \x1b[8ma\n", 0), 0);
	cr_assert(strstr(err.msg, "0x1b"), "%s", err.msg);
	cr_assert_lt(parse_text("hostname \xc2\x9b"
				"8ma\n",
				0),
		     0);
	cr_assert_eq(parse_text("setenv X \"caf\xc3\xa9\"\tok\n", 0), -EINVAL,
		     "a tab is fine but 'ok' is a third word");
	cr_assert_eq(parse_text("setenv X \"caf\xc3\xa9\"\n", 0), 0, "%s",
		     err.msg);
	ltd_opts_free(&l);
}

/* Bytes that are no text, and characters that change how the text around
 * them displays: "setenv X \"\u202Egpj.sh\"" reads as another value on a
 * terminal or in a review. */
Test(policy, invalid_utf8_bidi_and_zero_width_are_refused)
{
	cr_assert_lt(parse_text("hostname a\n"
				"hostname b\x9b"
				"31m\n",
				0),
		     0, "a lone C1 byte");
	cr_assert(strstr(err.msg, "F:2") && strstr(err.msg, "UTF-8") &&
			  strstr(err.msg, "0x9b"),
		  "%s", err.msg);
	cr_assert_lt(parse_text("setenv X \"caf\xe9\"\n", 0), 0, "Latin-1");
	cr_assert(strstr(err.msg, "UTF-8"), "%s", err.msg);
	cr_assert_lt(parse_text("hostname \xc0\xaf\n", 0), 0, "overlong");
	cr_assert_lt(parse_text("setenv X \xc3", 0), 0, "cut by the end");
	cr_assert(strstr(err.msg, "UTF-8"), "%s", err.msg);
	cr_assert_lt(parse_text("setenv X \"\xe2\x80\xae"
				"gpj.sh\"\n",
				0),
		     0, "U+202E");
	cr_assert(strstr(err.msg, "F:1") && strstr(err.msg, "U+202E"), "%s",
		  err.msg);
	cr_assert_lt(parse_text("setenv X \"a\xe2\x81\xa6"
				"b\"\n",
				0),
		     0, "U+2066");
	cr_assert_lt(parse_text("setenv X a\xe2\x80\x8b"
				"b\n",
				0),
		     0, "U+200B");
	cr_assert(strstr(err.msg, "U+200B"), "%s", err.msg);
	cr_assert_lt(parse_text("\xef\xbb\xbf"
				"hostname a\n",
				0),
		     0, "U+FEFF");
	cr_assert_lt(parse_text("setenv X a\xd8\x9c"
				"b\n",
				0),
		     0, "U+061C");
	cr_assert_eq(
		parse_text("setenv X \"\xe2\x82\xac \xf0\x9f\x94\x92\"\n", 0),
		0, "%s", err.msg);
	ltd_opts_free(&l);
}

Test(policy, apply_errors_name_file_and_line)
{
	char path[192];

	snprintf(path, sizeof(path), "%s/policy", cfg);
	put(path, "# mine\nhostname ok\nchdir relative\n");
	cr_assert_lt(RESOLVE("--", "true"), 0);
	cr_assert(strstr(err.msg, "/cfg/policy:3: --chdir"), "%s", err.msg);
}

/* --- precedence and provenance ------------------------------------------- */

Test(policy, precedence_and_provenance)
{
	char user[192], extra[192], show[8192] = "";
	char *env[] = {"LTD_MODEL=from-env",
		       "LTD_PROXY_URL=http://127.0.0.1:4001", NULL};
	char *args[] = {"--policy", extra, "--hostname",
			"from-cli", "--",  "true"};
	FILE *f;

	snprintf(user, sizeof(user), "%s/policy", cfg);
	snprintf(extra, sizeof(extra), "%s/extra", dir);
	put(user, "hostname from-user\nsetenv A user\nmodel from-user\n");
	put(extra, "hostname from-file\nsetenv B file\n");
	cr_assert_eq(resolve_env(env, 6, args), 0, "%s", err.msg);
	cr_assert_str_eq(p.hostname, "from-cli");
	cr_assert_str_eq(p.model, "from-env", "the environment beats files");
	cr_assert_str_eq(p.proxy_url, "http://127.0.0.1:4001");
	cr_assert_str_eq(p.env[0].key, "A",
			 "lists keep every source, in order");
	cr_assert_str_eq(p.env[1].key, "B");

	f = fmemopen(show, sizeof(show) - 1, "w");
	ltd_policy_show(f, &p, NULL);
	fclose(f);
	cr_assert(strstr(show, "hostname from-cli"), "%s", show);
	cr_assert_not(strstr(show, "hostname from-user"), "%s", show);
	cr_assert(strstr(show, "# command line"), "%s", show);
	cr_assert(strstr(show, "setenv A user") &&
			  strstr(show, "/cfg/policy:2"),
		  "%s", show);
	cr_assert(strstr(show, "/extra:2"), "%s", show);
	cr_assert(strstr(show, "environment (LTD_MODEL)"), "%s", show);
	cr_assert(strstr(show, "network allowlist") &&
			  strstr(show, "# built-in"),
		  "%s", show);
	cr_assert(strstr(show, "policy ") && strstr(show, extra), "%s", show);
}

/* Paths from the user's tree (the project, what git's configuration
 * names) and values from the command line may hold control bytes: shown
 * as '?', so no line of the output can be forged and no escape sequence
 * reaches the terminal. */
Test(policy, show_escapes_control_bytes)
{
	char show[16384] = "";
	struct ltd_err perr = {0};
	FILE *f;

	cr_assert_eq(
		RESOLVE("--setenv", "A", "x\n# forged setenv", "--", "true"), 0,
		"%s", err.msg);
	free(p.project);
	p.project = strdup("/tmp/p\n#   read-only inside: /forged");
	prot.project = p.project;
	cr_assert_eq(
		ltd_protected_add(&prot, "/tmp/p/.git\x1b]0;title\x07", &perr),
		0);
	f = fmemopen(show, sizeof(show) - 1, "w");
	ltd_policy_show(f, &p,
			&(struct ltd_policy_show_extra){.readonly = prot.paths,
							.n_readonly = prot.n});
	fclose(f);
	cr_assert_null(strchr(show, '\x1b'), "%s", show);
	cr_assert_null(strchr(show, '\x07'), "%s", show);
	cr_assert_null(strstr(show, "\n#   read-only inside: /forged"), "%s",
		       show);
	cr_assert_null(strstr(show, "\n# forged setenv"), "%s", show);
	cr_assert(strstr(show, "#   project /tmp/p?#   read-only inside"), "%s",
		  show);
	cr_assert(strstr(show, "#   read-only inside: /tmp/p/.git?]0;title?"),
		  "%s", show);
	cr_assert(strstr(show, "env A=x?# forged setenv"), "%s", show);
}

Test(policy, a_later_tier_wins)
{
	char user[192];

	snprintf(user, sizeof(user), "%s/policy", cfg);
	put(user, "trusted\n");
	cr_assert_eq(RESOLVE("--", "true"), 0, "%s", err.msg);
	cr_assert_eq(p.tier, LTD_TIER_TRUSTED);
	ltd_policy_free(&p);
	ltd_policy_init(&p);
	cr_assert_eq(RESOLVE("--strict", "--", "true"), 0, "%s", err.msg);
	cr_assert_eq(p.tier, LTD_TIER_STRICT);
}

Test(policy, show_needs_no_command)
{
	cr_assert_eq(resolve_env(NULL, 0, NULL), 0, "%s", err.msg);
	cr_assert_null(p.argv);
	{
		char *args[] = {"--hostname", "x"};
		struct ltd_policy_input in = {.user = ltd_host_user(),
					      .argc = 2,
					      .argv = args,
					      .need_command = true,
					      .config_dir = cfg,
					      .cwd = proj};

		cr_assert_lt(ltd_policy_resolve(&p, &in, &err), 0,
			     "run needs '--'");
	}
}

/* --- the project's policy file and its approval ------------------------- */

Test(policy, sha256)
{
	char hex[65];

	ltd_sha256_hex("abc", 3, hex);
	cr_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223"
			      "b00361a396177a9cb410ff61f20015ad");
}

Test(policy, project_policy_needs_approval)
{
	char pol[192];
	struct ltd_policy_input in = {.user = ltd_host_user(),
				      .env = NULL,
				      .config_dir = cfg,
				      .cwd = proj};
	FILE *devnull = fopen("/dev/null", "w");

	snprintf(pol, sizeof(pol), "%s/.ltd-native/policy", proj);
	put(pol, "setenv FROM_PROJECT yes\n");
	cr_assert_eq(RESOLVE("--", "true"), -EPERM);
	cr_assert(strstr(err.msg, "not approved") &&
			  strstr(err.msg, "policy allow"),
		  "%s", err.msg);

	cr_assert_eq(ltd_policy_allow(&in, devnull, &err), 0, "%s", err.msg);
	ltd_policy_free(&p);
	ltd_policy_init(&p);
	cr_assert_eq(RESOLVE("--", "true"), 0, "%s", err.msg);
	cr_assert_str_eq(p.env[0].val, "yes");

	put(pol, "setenv FROM_PROJECT changed\n");
	ltd_policy_free(&p);
	ltd_policy_init(&p);
	cr_assert_eq(RESOLVE("--", "true"), -EPERM);
	cr_assert(strstr(err.msg, "changed since you approved") &&
			  strstr(err.msg, "again"),
		  "%s", err.msg);
	fclose(devnull);
}

/* What `policy allow` prints of the project: its path (the user's tree,
 * any bytes) shown as '?' where it holds a control byte. */
Test(policy, allow_shows_what_it_approves)
{
	char ep[192], pol[224], out[4096] = "";
	struct ltd_policy_input in = {
		.user = ltd_host_user(), .config_dir = cfg, .cwd = ep};
	FILE *f;

	snprintf(ep, sizeof(ep), "%s/p\x1b]0;title\x07", dir);
	cr_assert_eq(mkdir(ep, 0755), 0);
	snprintf(pol, sizeof(pol), "%s/.ltd-native", ep);
	cr_assert_eq(mkdir(pol, 0755), 0);
	snprintf(pol, sizeof(pol), "%s/.ltd-native/policy", ep);
	put(pol, "setenv A \"caf\xc3\xa9\"\nhostname h");
	f = fmemopen(out, sizeof(out) - 1, "w");
	cr_assert_eq(ltd_policy_allow(&in, f, &err), 0, "%s", err.msg);
	fclose(f);
	cr_assert_null(strchr(out, '\x1b'), "%s", out);
	cr_assert_null(strchr(out, '\x07'), "%s", out);
	cr_assert(
		strstr(out, "approved ") &&
			strstr(out, "/p?]0;title?/.ltd-native/policy (sha256 "),
		"%s", out);
	cr_assert(strstr(out, "):\nsetenv A \"caf\xc3\xa9\"\nhostname h\n"),
		  "%s", out);
}

Test(policy, project_policy_cannot_loosen_the_cage)
{
	char pol[192];
	struct ltd_policy_input in = {
		.user = ltd_host_user(), .config_dir = cfg, .cwd = proj};
	FILE *devnull = fopen("/dev/null", "w");

	snprintf(pol, sizeof(pol), "%s/.ltd-native/policy", proj);
	put(pol, "unsafe-bind-credentials\n");
	cr_assert_lt(ltd_policy_allow(&in, devnull, &err), 0);
	cr_assert(strstr(err.msg, "not allowed in a project"), "%s", err.msg);
	put(pol, "trusted\n");
	cr_assert_lt(ltd_policy_allow(&in, devnull, &err), 0);
	/* Host paths, secrets and sockets: only from the user. */
	put(pol, "ro-bind /etc /x\n");
	cr_assert_lt(ltd_policy_allow(&in, devnull, &err), 0);
	put(pol, "bind /home/u/.bashrc /tmp/b\n");
	cr_assert_lt(ltd_policy_allow(&in, devnull, &err), 0);
	put(pol, "secret npm=/home/u/.npmrc\n");
	cr_assert_lt(ltd_policy_allow(&in, devnull, &err), 0);
	put(pol, "ssh-agent\n");
	cr_assert_lt(ltd_policy_allow(&in, devnull, &err), 0);
	fclose(devnull);
}

Test(policy, project_policy_through_a_link_is_refused)
{
	char pol[192], target[192];

	snprintf(pol, sizeof(pol), "%s/.ltd-native/policy", proj);
	snprintf(target, sizeof(target), "%s/elsewhere", dir);
	put(target, "hostname x\n");
	cr_assert_eq(symlink(target, pol), 0);
	cr_assert_eq(RESOLVE("--", "true"), -ELOOP);
	cr_assert(strstr(err.msg, "symbolic link"), "%s", err.msg);
}

/* --- the gate ----------------------------------------------------------------
 */

static void fake_home(const char *home, const char *host_home)
{
	free(p.id.home);
	free(p.host_home);
	p.id.home = strdup(home);
	p.host_home = host_home ? strdup(host_home) : NULL;
	p.id.uid = 4242;
}

Test(policy, gate_each_class_refused_then_waived)
{
	static const struct {
		const char *rel; /* under the home when it starts with '/' */
		unsigned class;
		const char *risk;
	} cases[] = {
		{"", LTD_UNSAFE_BIND_HOME, "whole house"},
		{"/.ssh", LTD_UNSAFE_BIND_CREDENTIALS, "read and use"},
		{"/.aws/credentials", LTD_UNSAFE_BIND_CREDENTIALS, "read"},
		{"/.config/ltd-native", LTD_UNSAFE_BIND_CREDENTIALS, "widen"},
		{"@/run/user/4242/bus", LTD_UNSAFE_BIND_SESSION, "outside"},
		{"@/run/docker.sock", LTD_UNSAFE_BIND_DOCKER, "root"},
		{"@/sys/kernel", LTD_UNSAFE_BIND_KERNEL, "kernel"},
		{"@/", LTD_UNSAFE_BIND_HOME, "whole house"},
	};
	char home[192], path[256];

	snprintf(home, sizeof(home), "%s/home", dir);
	mkdir(home, 0700);
	fake_home(home, home);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (cases[i].rel[0] == '@')
			snprintf(path, sizeof(path), "%s", cases[i].rel + 1);
		else
			snprintf(path, sizeof(path), "%s%s", home,
				 cases[i].rel);
		/* The home read-only: writable it also holds what the host
		 * runs code from and ltd-native's policy (gated below). */
		bool writable = cases[i].class != LTD_UNSAFE_BIND_HOME;

		p.unsafe = 0;
		cr_assert_eq(ltd_policy_gate(&p, "--bind", path, writable,
					     p.unsafe, &err),
			     -EPERM, "%s", path);
		cr_assert(strstr(err.msg, cases[i].risk), "%s", err.msg);
		cr_assert(strstr(err.msg, ltd_unsafe_flag(cases[i].class)),
			  "%s", err.msg);
		if (strcmp(path, "/") == 0)
			continue; /* "/" also holds everything else */
		p.unsafe = cases[i].class;
		cr_assert_eq(ltd_policy_gate(&p, "--bind", path, writable,
					     p.unsafe, &err),
			     0, "%s: %s", path, err.msg);
		cr_assert_gt(p.n_waived, 0);
		cr_assert(strstr(p.waived[p.n_waived - 1],
				 ltd_unsafe_flag(cases[i].class)));
	}
}

Test(policy, gate_a_parent_that_holds_a_key_store)
{
	char home[192], ssh[224], sub[224];

	snprintf(home, sizeof(home), "%s/home", dir);
	snprintf(ssh, sizeof(ssh), "%s/.ssh", home);
	snprintf(sub, sizeof(sub), "%s/.config", home);
	mkdir(home, 0700);
	fake_home(home, home);
	cr_assert_eq(ltd_policy_gate(&p, "--ro-bind", sub, false, 0, &err), 0,
		     "~/.config does not hold ~/.config/gh when it is absent");
	snprintf(sub, sizeof(sub), "%s/.config/gh", home);
	mkdir(ssh, 0700);
	cr_assert_eq(ltd_policy_gate(&p, "--bind", "/nonexistent-ltd/x", true,
				     0, &err),
		     0);
}

/* Writable, a directory that could hold what the host runs code from, or
 * ltd-native's own policy, is gated before either exists (the cage would
 * make it: ~/.config/git/config, ~/.config/ltd-native/policy). */
Test(policy, gate_a_writable_parent_before_its_child_exists)
{
	char home[192], path[256];

	snprintf(home, sizeof(home), "%s/home", dir);
	mkdir(home, 0700);
	snprintf(path, sizeof(path), "%s/.config", home);
	mkdir(path, 0700);
	fake_home(home, home);
	cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, 0, &err),
		     -EPERM);
	cr_assert(strstr(err.msg, "ltd-native's policy") ||
			  strstr(err.msg, "git"),
		  "%s", err.msg);
	p.unsafe = LTD_UNSAFE_BIND_CREDENTIALS;
	cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, p.unsafe, &err),
		     -EPERM, "one class waived is not the other");
	cr_assert(strstr(err.msg, "--unsafe-bind-startup-files"), "%s",
		  err.msg);
	snprintf(path, sizeof(path), "%s/.local", home);
	mkdir(path, 0700);
	cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, 0, &err), -EPERM,
		     "~/.local would hold ~/.local/bin and lib");
	cr_assert_eq(ltd_policy_gate(&p, "--ro-bind", path, false, 0, &err), 0,
		     "read-only, nothing can be made there");
}

/* lamp-the-djinn's machine-local allowlist (~/.config/lamp-the-djinn/
 * allowed-domains.txt, read by every run) is gated as ltd-native's own
 * config: a cage that writes it widens the next run's egress. */
Test(policy, gate_the_launchers_allowlist_directory)
{
	char home[192], path[256], xdg[192];
	const char *old = getenv("XDG_CONFIG_HOME");
	char *saved = old ? strdup(old) : NULL;

	snprintf(home, sizeof(home), "%s/home", dir);
	mkdir(home, 0700);
	snprintf(path, sizeof(path), "%s/.config", home);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/.config/lamp-the-djinn", home);
	mkdir(path, 0700);
	fake_home(home, home);
	unsetenv("XDG_CONFIG_HOME");
	cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, 0, &err), -EPERM,
		     "writable");
	cr_assert(strstr(err.msg, "lamp-the-djinn's allowed domains") &&
			  strstr(err.msg, "--unsafe-bind-credentials"),
		  "%s", err.msg);
	cr_assert_eq(ltd_policy_gate(&p, "--ro-bind", path, false, 0, &err),
		     -EPERM, "read-only too, as ltd-native's own");
	p.unsafe = LTD_UNSAFE_BIND_CREDENTIALS;
	cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, p.unsafe, &err),
		     0, "%s", err.msg);
	p.unsafe = 0;
	/* Under $XDG_CONFIG_HOME, and before it exists when bound writable:
	 * the cage would create it. */
	snprintf(xdg, sizeof(xdg), "%s/xdg", dir);
	mkdir(xdg, 0700);
	setenv("XDG_CONFIG_HOME", xdg, 1);
	snprintf(path, sizeof(path), "%s/lamp-the-djinn", xdg);
	mkdir(path, 0700);
	cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, 0, &err),
		     -EPERM);
	cr_assert(strstr(err.msg, "lamp-the-djinn's allowed domains"), "%s",
		  err.msg);
	rmdir(path);
	cr_assert_eq(ltd_policy_gate(&p, "--bind", xdg, true, 0, &err), -EPERM,
		     "a writable $XDG_CONFIG_HOME would hold it");
	if (saved)
		setenv("XDG_CONFIG_HOME", saved, 1);
	else
		unsetenv("XDG_CONFIG_HOME");
	free(saved);
}

/* The reviews store in use, wherever $XDG_STATE_HOME puts it: a journal
 * or record the cage wrote there would steer the next apply.  Gated, and
 * so is a writable directory that holds it, before it exists. */
Test(policy, gate_the_reviews_store_wherever_xdg_state_home_is)
{
	char home[192], xdg[192], path[256];
	const char *old = getenv("XDG_STATE_HOME");
	char *saved = old ? strdup(old) : NULL;

	snprintf(home, sizeof(home), "%s/home", dir);
	mkdir(home, 0700);
	fake_home(home, home);
	snprintf(xdg, sizeof(xdg), "%s/elsewhere-state", dir);
	mkdir(xdg, 0700);
	setenv("XDG_STATE_HOME", xdg, 1);
	cr_assert_eq(ltd_policy_gate(&p, "--bind", xdg, true, 0, &err), -EPERM,
		     "a writable $XDG_STATE_HOME would hold the store");
	cr_assert(strstr(err.msg, "ltd-native's reviews") &&
			  strstr(err.msg, "--bind"),
		  "%s", err.msg);
	snprintf(path, sizeof(path), "%s/ltd-native", xdg);
	mkdir(path, 0700);
	cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, 0, &err),
		     -EPERM);
	snprintf(path, sizeof(path), "%s/ltd-native/reviews", xdg);
	mkdir(path, 0700);
	cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, 0, &err),
		     -EPERM);
	snprintf(path, sizeof(path), "%s/ltd-native/agents", xdg);
	mkdir(path, 0700);
	cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, 0, &err), 0,
		     "beside the store: %s", err.msg);
	if (saved)
		setenv("XDG_STATE_HOME", saved, 1);
	else
		unsetenv("XDG_STATE_HOME");
	free(saved);
}

/* A dotfile kept as a link into a dotfiles repository: the repository is
 * gated as what it holds. */
Test(policy, gate_sees_through_linked_dotfiles)
{
	char home[192], repo[224], from[256], to[256];

	snprintf(home, sizeof(home), "%s/home", dir);
	snprintf(repo, sizeof(repo), "%s/dotfiles", home);
	mkdir(home, 0700);
	mkdir(repo, 0700);
	snprintf(to, sizeof(to), "%s/bashrc", repo);
	close(open(to, O_CREAT | O_WRONLY, 0600));
	snprintf(from, sizeof(from), "%s/.bashrc", home);
	cr_assert_eq(symlink(to, from), 0);
	snprintf(to, sizeof(to), "%s/ssh", repo);
	mkdir(to, 0700);
	snprintf(from, sizeof(from), "%s/.ssh", home);
	cr_assert_eq(symlink(to, from), 0);
	fake_home(home, home);
	cr_assert_eq(ltd_policy_gate(&p, "--project", repo, true, 0, &err),
		     -EPERM);
	cr_assert(strstr(err.msg, "SSH keys") || strstr(err.msg, "startup"),
		  "%s", err.msg);
	cr_assert_eq(ltd_policy_gate(&p, "--ro-bind", repo, false, 0, &err),
		     -EPERM, "the keys, even read-only");
	cr_assert(strstr(err.msg, "SSH keys"), "%s", err.msg);
}

/* A directory of the user's PATH in the home: programs typed by name. */
Test(policy, gate_path_directories_in_the_home)
{
	char home[192], tools[224], path[512];
	const char *old = getenv("PATH");
	char *saved = old ? strdup(old) : NULL;

	snprintf(home, sizeof(home), "%s/home", dir);
	snprintf(tools, sizeof(tools), "%s/tools/bin", home);
	mkdir(home, 0700);
	fake_home(home, home);
	snprintf(path, sizeof(path), "/usr/bin:%s", tools);
	setenv("PATH", path, 1);
	cr_assert_eq(ltd_policy_gate(&p, "--bind", tools, true, 0, &err),
		     -EPERM);
	cr_assert(strstr(err.msg, "on your PATH"), "%s", err.msg);
	snprintf(tools, sizeof(tools), "%s/tools", home);
	cr_assert_eq(ltd_policy_gate(&p, "--bind", tools, true, 0, &err),
		     -EPERM, "a directory that would hold it");
	cr_assert_eq(ltd_policy_gate(&p, "--ro-bind", tools, false, 0, &err),
		     0);
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
}

/* What the host runs code from: refused writable, read-only implied. */
Test(policy, gate_startup_files_only_when_writable)
{
	/* Also the agents' own: Claude Code's user settings (hooks) and
	 * ~/.claude.json (MCP servers it starts), Codex's config. */
	static const char *const rels[] = {
		"/.bashrc",	    "/.config/git",
		"/.local/bin",	    "/.zshenv",
		"/.config/systemd", "/.claude.json",
		"/.claude",	    "/.claude/settings.json",
		"/.claude/hooks",   "/.codex/config.toml",
		"/.config/tmux",
	};
	char home[192], path[256];
	size_t waived;

	snprintf(home, sizeof(home), "%s/home", dir);
	mkdir(home, 0700);
	snprintf(path, sizeof(path), "%s/.config", home);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/.local", home);
	mkdir(path, 0700);
	fake_home(home, home);
	for (size_t i = 0; i < sizeof(rels) / sizeof(rels[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", home, rels[i]);
		p.unsafe = 0;
		cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, 0, &err),
			     -EPERM, "%s", path);
		cr_assert(
			strstr(err.msg, "runs on the host") &&
				strstr(err.msg, "--unsafe-bind-startup-files"),
			"%s", err.msg);
		waived = p.n_waived;
		cr_assert_eq(
			ltd_policy_gate(&p, "--ro-bind", path, false, 0, &err),
			0, "read-only: %s", err.msg);
		cr_assert_eq(p.n_waived, waived, "implied, not waived");
		p.unsafe = LTD_UNSAFE_BIND_STARTUP;
		cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, p.unsafe,
					     &err),
			     0, "%s", err.msg);
		cr_assert_gt(p.n_waived, 0);
	}
	/* A directory that holds one, once it exists. */
	snprintf(path, sizeof(path), "%s/.config/git", home);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/.config", home);
	p.unsafe = LTD_UNSAFE_BIND_CREDENTIALS;
	cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, p.unsafe, &err),
		     -EPERM);
	cr_assert(strstr(err.msg, "--unsafe-bind-startup-files"), "%s",
		  err.msg);
}

/* A home reached through a link: its real path is gated too. */
Test(policy, gate_sees_through_a_linked_home)
{
	char real[192], link[192], ssh[224];

	snprintf(real, sizeof(real), "%s/realhome", dir);
	snprintf(link, sizeof(link), "%s/homelink", dir);
	snprintf(ssh, sizeof(ssh), "%s/.ssh", real);
	mkdir(real, 0700);
	cr_assert_eq(symlink(real, link), 0);
	fake_home(link, real);
	cr_assert_eq(ltd_policy_gate(&p, "--bind", ssh, true, 0, &err), -EPERM);
	cr_assert(strstr(err.msg, "SSH"), "%s", err.msg);
	cr_assert_eq(ltd_policy_gate(&p, "--project", real, true, 0, &err),
		     -EPERM);
}

/* The ssh-agent's own socket is allowed under /run/user; nothing else. */
Test(policy, gate_implicit_waiver_is_narrow)
{
	fake_home("/home/nobody-ltd", NULL);
	cr_assert_eq(ltd_policy_gate(&p, "--ssh-agent",
				     "/run/user/4242/ssh.sock", false,
				     LTD_UNSAFE_BIND_SESSION, &err),
		     0);
	cr_assert_eq(p.n_waived, 0, "an implicit waiver is not an unsafe one");
	cr_assert_eq(ltd_policy_gate(&p, "--ssh-agent", "/run/docker.sock",
				     false, LTD_UNSAFE_BIND_SESSION, &err),
		     -EPERM);
	/* Rootless Docker lives under /run/user too: root-equivalent for
	 * the user's containers, never implied by --ssh-agent. */
	cr_assert_eq(ltd_policy_gate(&p, "--ssh-agent",
				     "/run/user/4242/docker.sock", false,
				     LTD_UNSAFE_BIND_SESSION, &err),
		     -EPERM);
	cr_assert(strstr(err.msg, "--unsafe-bind-docker"), "%s", err.msg);
}

Test(policy, host_network_is_gated)
{
	p.project = strdup(dir);
	p.network = LTD_NET_HOST;
	cr_assert_eq(ltd_run_check(&p, &prot, &err), -EPERM);
	cr_assert(strstr(err.msg, "--unsafe-host-network"), "%s", err.msg);
	ltd_policy_free(&p);
	ltd_policy_init(&p);
	cr_assert_eq(RESOLVE("--network", "host", "--unsafe-host-network",
			     "--project", dir, "--", "true"),
		     0, "%s", err.msg);
	cr_assert_eq(ltd_run_check(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert_eq(p.n_waived, 1);
	cr_assert(strstr(p.waived[0], "no egress filter"));
}

Test(policy, no_seccomp_is_recorded)
{
	cr_assert_eq(
		RESOLVE("--unsafe-no-seccomp", "--project", dir, "--", "true"),
		0, "%s", err.msg);
	cr_assert_eq(ltd_run_check(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert(strstr(p.waived[0], "--unsafe-no-seccomp"));
}

/* LOG mode refuses nothing: waived like --unsafe-no-seccomp, with what it
 * lets through. */
Test(policy, seccomp_log_is_recorded)
{
	cr_assert_eq(
		RESOLVE("--unsafe-seccomp-log", "--project", dir, "--", "true"),
		0, "%s", err.msg);
	cr_assert_eq(ltd_run_check(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert_eq(p.n_waived, 1);
	cr_assert(strstr(p.waived[0], "--unsafe-seccomp-log") &&
			  strstr(p.waived[0], "refuses nothing"),
		  "%s", p.waived[0]);
}

/* A project's file may not turn the filter into a log, by either name. */
Test(policy, project_policy_cannot_log_instead_of_refusing)
{
	static const char *const lines[] = {"unsafe-seccomp-log\n",
					    "seccomp-log\n"};
	char pol[192];
	struct ltd_policy_input in = {
		.user = ltd_host_user(), .config_dir = cfg, .cwd = proj};
	FILE *devnull = fopen("/dev/null", "w");

	snprintf(pol, sizeof(pol), "%s/.ltd-native/policy", proj);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		put(pol, lines[i]);
		cr_assert_lt(ltd_policy_allow(&in, devnull, &err), 0, "%s",
			     lines[i]);
		cr_assert(strstr(err.msg, ".ltd-native/policy:1") &&
				  strstr(err.msg, "seccomp-log"),
			  "%s", err.msg);
		ltd_policy_free(&p);
		ltd_policy_init(&p);
		cr_assert_lt(RESOLVE("--", "true"), 0);
		cr_assert_eq(p.seccomp, LTD_FILTER_ENFORCE);
	}
	fclose(devnull);
}

/* --- test hooks ---------------------------------------------------------- */

#define RESOLVE_ENV(env, ...)                                                  \
	({                                                                     \
		char *args[] = {__VA_ARGS__};                                  \
		resolve_env(env, sizeof(args) / sizeof(args[0]), args);        \
	})

/* Test-only options: only where LTD_NATIVE_TEST_HOOKS=1 says a test runs. */
Test(policy, test_hooks_need_the_variable)
{
	char *off[] = {"LTD_NATIVE_TEST_HOOKS=0", NULL};

	cr_assert_eq(RESOLVE("--test-firewall-hole", "192.0.2.1/32:9090",
			     "--project", dir, "--", "true"),
		     -EPERM);
	cr_assert(strstr(err.msg, "--test-firewall-hole") &&
			  strstr(err.msg, "LTD_NATIVE_TEST_HOOKS=1"),
		  "%s", err.msg);
	ltd_policy_free(&p);
	ltd_policy_init(&p);
	cr_assert_eq(RESOLVE_ENV(off, "--test-landlock-hole", dir, "/opt/hole",
				 "--project", dir, "--", "true"),
		     -EPERM);
	cr_assert(strstr(err.msg, "--test-landlock-hole") &&
			  strstr(err.msg, "LTD_NATIVE_TEST_HOOKS=1"),
		  "%s", err.msg);
	cr_assert_eq(p.n_mounts, 0);
}

Test(policy, test_hooks_are_waived)
{
	char *on[] = {"LTD_NATIVE_TEST_HOOKS=1", NULL};

	cr_assert_eq(RESOLVE_ENV(on, "--test-firewall-hole",
				 "192.0.2.1/32:9090", "--test-landlock-hole",
				 dir, "/opt/hole", "--project", dir, "--",
				 "true"),
		     0, "%s", err.msg);
	cr_assert_eq(p.n_fw_holes, 1);
	cr_assert_eq(ltd_run_check(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert_eq(p.n_waived, 2);
	cr_assert(strstr(p.waived[0], "--test-firewall-hole") &&
			  strstr(p.waived[0], "192.0.2.1/32:9090"),
		  "%s", p.waived[0]);
	cr_assert(strstr(p.waived[1], "--test-landlock-hole") &&
			  strstr(p.waived[1], "/opt/hole"),
		  "%s", p.waived[1]);
}

/* Never from a file, the variable set or not: a file outlives the test. */
Test(policy, test_hooks_never_from_a_policy_file)
{
	char *on[] = {"LTD_NATIVE_TEST_HOOKS=1", NULL};
	char user[192], other[192], pol[192];
	struct ltd_policy_input in = {.user = ltd_host_user(),
				      .env = on,
				      .config_dir = cfg,
				      .cwd = proj};
	FILE *devnull = fopen("/dev/null", "w");

	snprintf(user, sizeof(user), "%s/policy", cfg);
	put(user, "test-firewall-hole 192.0.2.1/32:9090\n");
	cr_assert_lt(RESOLVE_ENV(on, "--project", dir, "--", "true"), 0);
	cr_assert(strstr(err.msg, user) &&
			  strstr(err.msg, "test-firewall-hole"),
		  "%s", err.msg);
	cr_assert_eq(p.n_fw_holes, 0);
	unlink(user);

	snprintf(other, sizeof(other), "%s/other", dir);
	put(other, "test-landlock-hole /tmp /opt/hole\n");
	ltd_policy_free(&p);
	ltd_policy_init(&p);
	cr_assert_lt(RESOLVE_ENV(on, "--policy", other, "--project", dir, "--",
				 "true"),
		     0);
	cr_assert(strstr(err.msg, other) &&
			  strstr(err.msg, "test-landlock-hole"),
		  "%s", err.msg);

	snprintf(pol, sizeof(pol), "%s/.ltd-native/policy", proj);
	put(pol, "test-landlock-hole /tmp /opt/hole\n");
	cr_assert_lt(ltd_policy_allow(&in, devnull, &err), 0);
	cr_assert(strstr(err.msg, "test-landlock-hole"), "%s", err.msg);
	fclose(devnull);
}

/* Through --bind in a policy file, the gate still applies. */
Test(policy, bind_from_a_file_is_gated_with_its_source)
{
	char user[192];

	snprintf(user, sizeof(user), "%s/policy", cfg);
	put(user, "bind /proc /hostproc\n");
	cr_assert_eq(RESOLVE("--project", dir, "--", "true"), 0, "%s", err.msg);
	cr_assert_eq(ltd_run_check(&p, &prot, &err), -EPERM);
	cr_assert(strstr(err.msg, "unsafe-bind-kernel"), "%s", err.msg);
}

/* --- provider seam, secrets, ssh-agent ------------------------------------ */

Test(policy, proxy_url_parse)
{
	char cage[256];
	uint16_t port = 0;

	cr_assert_eq(ltd_proxy_url_parse("http://127.0.0.1:4000/v1", cage,
					 sizeof(cage), &port),
		     0);
	cr_assert_str_eq(cage, "http://host.ltd.internal:4000/v1");
	cr_assert_eq(port, 4000);
	cr_assert_eq(ltd_proxy_url_parse("http://localhost", cage, sizeof(cage),
					 &port),
		     0);
	cr_assert_eq(port, 80);
	cr_assert_eq(ltd_proxy_url_parse("https://[::1]:8443", cage,
					 sizeof(cage), &port),
		     0);
	cr_assert_str_eq(cage, "https://host.ltd.internal:8443");
	cr_assert_lt(ltd_proxy_url_parse("http://example.com:4000", cage,
					 sizeof(cage), &port),
		     0, "not this host");
	cr_assert_lt(ltd_proxy_url_parse("ftp://127.0.0.1:1", cage,
					 sizeof(cage), &port),
		     0);
	cr_assert_lt(ltd_proxy_url_parse("http://127.0.0.1:99999", cage,
					 sizeof(cage), &port),
		     0);
	cr_assert_lt(ltd_proxy_url_parse("http://127.0.0.1.evil:1", cage,
					 sizeof(cage), &port),
		     0);
}

Test(policy, provider_env_and_port)
{
	char **envp;
	bool url = false, key = false, model = false;

	cr_assert_eq(RESOLVE("--model", "m1", "--project", dir, "--", "true"),
		     0, "%s", err.msg);
	cr_assert_eq(ltd_run_check(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert_eq(p.n_host_ports, 1);
	cr_assert_eq(p.host_ports[0], 4000, "--model alone: LiteLLM's port");
	envp = ltd_env_build(&p, (char *[]){"OPENAI_API_KEY=sk-real", NULL},
			     &err);
	for (char **e = envp; *e; e++) {
		url |= !strcmp(*e, "ANTHROPIC_BASE_URL=http://host.ltd."
				   "internal:4000");
		key |= !strcmp(*e, "OPENAI_API_KEY=" LTD_PLACEHOLDER_KEY);
		model |= !strcmp(*e, "ANTHROPIC_MODEL=m1");
		cr_assert_not(strstr(*e, "sk-real"), "%s", *e);
	}
	cr_assert(url && key && model);
	ltd_env_free(envp);
}

Test(policy, no_provider_no_proxy)
{
	char **envp;

	cr_assert_eq(RESOLVE("--project", dir, "--", "true"), 0, "%s", err.msg);
	cr_assert_eq(ltd_run_check(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert_eq(p.n_host_ports, 0);
	envp = ltd_env_build(&p, NULL, &err);
	for (char **e = envp; *e; e++)
		cr_assert_not(strstr(*e, "BASE_URL"), "%s", *e);
	ltd_env_free(envp);
}

Test(policy, proxy_needs_a_network)
{
	cr_assert_eq(RESOLVE("--proxy-url", "http://127.0.0.1:4000",
			     "--network", "none", "--project", dir, "--",
			     "true"),
		     0, "%s", err.msg);
	cr_assert_lt(ltd_run_check(&p, &prot, &err), 0);
	cr_assert(strstr(err.msg, "--network none"), "%s", err.msg);
}

Test(policy, secrets_are_files_at_run_secrets)
{
	char file[192];

	snprintf(file, sizeof(file), "%s/tok", dir);
	put(file, "s3cret\n");
	cr_assert_eq(RESOLVE("--secret", "bad/name=/x", "--", "true"), -EINVAL);
	ltd_policy_free(&p);
	ltd_policy_init(&p);
	cr_assert_lt(RESOLVE("--secret", "tok=relative", "--", "true"), 0);
	ltd_policy_free(&p);
	ltd_policy_init(&p);
	cr_assert_eq(RESOLVE("--secret", "api.tok=/nonexistent", "--secret",
			     (char *)"api.tok=placeholder", "--", "true") < 0,
		     true);
	ltd_policy_free(&p);
	ltd_policy_init(&p);
	{
		char arg[224];

		snprintf(arg, sizeof(arg), "tok=%s", file);
		cr_assert_eq(RESOLVE("--secret", arg, "--project", dir, "--",
				     "true"),
			     0, "%s", err.msg);
	}
	cr_assert_eq(ltd_run_check(&p, &prot, &err), 0, "%s", err.msg);
	for (size_t i = 0; i < p.n_mounts; i++)
		if (!strcmp(p.mounts[i].dst, "/run/secrets/tok")) {
			cr_assert_eq(p.mounts[i].kind, LTD_UM_RO_BIND);
			cr_assert_str_eq(p.mounts[i].src, file);
			return;
		}
	cr_assert_fail("no /run/secrets/tok mount");
}

Test(policy, secret_must_be_a_regular_file)
{
	char sub[256], arg[300];

	/* A directory of the test's own (/tmp may hold a tmux socket
	 * directory, which the gate refuses first). */
	snprintf(sub, sizeof(sub), "%s/a-dir", dir);
	cr_assert_eq(mkdir(sub, 0700), 0);
	snprintf(arg, sizeof(arg), "d=%s", sub);
	cr_assert_eq(RESOLVE("--secret", arg, "--project", dir, "--", "true"),
		     0, "%s", err.msg);
	cr_assert_eq(ltd_run_check(&p, &prot, &err), -EINVAL);
	cr_assert(strstr(err.msg, "regular file"), "%s", err.msg);
}

Test(policy, ssh_agent_needs_the_variable)
{
	cr_assert_eq(RESOLVE("--ssh-agent", "--", "true"), -EINVAL);
	cr_assert(strstr(err.msg, "SSH_AUTH_SOCK"), "%s", err.msg);
}

Test(policy, ssh_agent_must_be_a_socket)
{
	char *env[] = {"SSH_AUTH_SOCK=/etc/hostname", NULL};
	char *args[] = {"--ssh-agent", "--project", dir, "--", "true"};

	cr_assert_eq(resolve_env(env, 5, args), 0, "%s", err.msg);
	cr_assert_eq(ltd_run_check(&p, &prot, &err), -EINVAL);
	cr_assert(strstr(err.msg, "not a socket"), "%s", err.msg);
}

/* --- files the next run reads ------------------------------------------------
 */

static bool is_protected(const char *path)
{
	for (size_t i = 0; i < prot.n; i++)
		if (strcmp(prot.paths[i], path) == 0)
			return true;
	return false;
}

/* A --policy file in the project: read-only inside. */
Test(policy, a_policy_file_in_the_project_is_protected)
{
	char file[192];

	snprintf(file, sizeof(file), "%s/run.policy", proj);
	put(file, "hostname from-file\n");
	cr_assert_eq(RESOLVE("--project", proj, "--policy", file, "--", "true"),
		     0, "%s", err.msg);
	cr_assert_eq(ltd_run_check(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert(is_protected(file), "not protected: %s", file);
}

/* ... and in a writable bind: refused, naming the option and the fix. */
Test(policy, a_policy_file_in_a_writable_bind_is_refused)
{
	char share[192], file[224];

	snprintf(share, sizeof(share), "%s/share", dir);
	mkdir(share, 0755);
	snprintf(file, sizeof(file), "%s/run.policy", share);
	put(file, "hostname from-file\n");
	cr_assert_eq(RESOLVE("--project", proj, "--policy", file, "--bind",
			     share, "/mnt", "--", "true"),
		     0, "%s", err.msg);
	cr_assert_eq(ltd_run_check(&p, &prot, &err), -EPERM);
	cr_assert(strstr(err.msg, "--policy") && strstr(err.msg, file) &&
			  strstr(err.msg, "--ro-bind"),
		  "%s", err.msg);
}

/* LTD_ALLOW_DOMAINS_FILE is the option's: judged as it is. */
Test(policy, the_allow_domains_file_variable_is_judged_as_the_option)
{
	char file[192], var[256];

	snprintf(file, sizeof(file), "%s/allowed.txt", proj);
	put(file, "ok.test\n");
	snprintf(var, sizeof(var), "LTD_ALLOW_DOMAINS_FILE=%s", file);
	char *env[] = {var, NULL};
	char *args[] = {"--project", proj, "--", "true"};

	cr_assert_eq(resolve_env(env, 4, args), 0, "%s", err.msg);
	cr_assert_eq(ltd_run_check(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert(is_protected(file), "not protected: %s", file);
}

/* The gate's table is documented entry by entry: docs/guide/filesystem.md
 * has a row for each place, with its class's flag (run from the top of
 * the repository, as make check does). */
Test(policy, gate_table_documented)
{
	FILE *f = fopen("docs/guide/filesystem.md", "r");
	char *doc = NULL;
	size_t cap = 0, n_entries = 0;
	ssize_t len;

	cr_assert_not_null(f, "docs/guide/filesystem.md");
	len = getdelim(&doc, &cap, '\0', f);
	fclose(f);
	cr_assert_gt(len, 0);
	for (const struct ltd_gate_entry *e; (e = ltd_gate_entry_at(n_entries));
	     n_entries++) {
		char row[256], shown[128];
		const char *at, *eol, *flag = ltd_unsafe_flag(e->class);

		/* "@/run/user/%u" is shown as "/run/user/UID". */
		snprintf(shown, sizeof(shown), "%s",
			 e->path + (e->path[0] == '@'));
		if ((at = strstr(shown, "%u")))
			snprintf(shown + (at - shown),
				 sizeof(shown) - (size_t)(at - shown), "UID%s",
				 e->path + (e->path[0] == '@') + (at - shown) +
					 2);
		snprintf(row, sizeof(row), "\n| `%s` | ", shown);
		at = strstr(doc, row);
		cr_assert_not_null(at, "no row for %s in filesystem.md", shown);
		eol = strchr(at + 1, '\n');
		cr_assert(eol && memmem(at, (size_t)(eol - at), flag,
					strlen(flag)),
			  "the row of %s names --%s", shown, flag);
	}
	cr_assert_gt(n_entries, 150);
	free(doc);
}

/* Build tools' homes, caches that hold code, editors' plugins, tools'
 * configs: refused writable (even before a cache's directory exists, in
 * a ~/.cache that could hold it), read-only allowed. */
Test(policy, gate_build_tools_caches_editors)
{
	static const char *const rels[] = {
		"/.gradle",
		"/.m2",
		"/.sbt",
		"/.ivy2",
		"/.lein",
		"/.cache",
		"/.cache/pre-commit",
		"/.cache/node/corepack",
		"/.cache/go-build",
		"/.cache/ms-playwright",
		"/.cache/pip/wheels",
		"/.npm/_npx",
		"/.local/share/nvim",
		"/.vscode",
		"/.config/Code",
		"/.yarnrc",
		"/.yarnrc.yml",
		"/.config/pip",
		"/.condarc",
		"/.inputrc",
		"/.psqlrc",
		"/.config/starship.toml",
		"/.ipython/profile_default/startup",
		"/.config/kitty",
		"/.config/wezterm",
		"/.config/alacritty",
	};
	char home[192], path[256];

	snprintf(home, sizeof(home), "%s/home", dir);
	mkdir(home, 0700);
	fake_home(home, home);
	for (size_t i = 0; i < sizeof(rels) / sizeof(rels[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", home, rels[i]);
		cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, 0, &err),
			     -EPERM, "%s", path);
		cr_assert(strstr(err.msg, "--unsafe-bind-startup-files"),
			  "%s: %s", rels[i], err.msg);
		cr_assert_eq(
			ltd_policy_gate(&p, "--ro-bind", path, false, 0, &err),
			0, "read-only: %s", err.msg);
	}
	/* A cache of no tool's code is the user's to give. */
	snprintf(path, sizeof(path), "%s/.cache/thumbnails", home);
	cr_assert_eq(ltd_policy_gate(&p, "--bind", path, true, 0, &err), 0,
		     "%s", err.msg);
	/* ~/.npmrc: its token as before (credentials, also read-only). */
	snprintf(path, sizeof(path), "%s/.npmrc", home);
	close(open(path, O_CREAT | O_WRONLY, 0600));
	cr_assert_eq(ltd_policy_gate(&p, "--ro-bind", path, false, 0, &err),
		     -EPERM);
	cr_assert(strstr(err.msg, "--unsafe-bind-credentials"), "%s", err.msg);
}
