// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The policy model: policy files, precedence, provenance, approval of a
 * project's file, the provider seam (the gate: test_gate.c).
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
#include "policy/env.h"
#include "policy_fixture.h"
#include "runtime/hostuser.h"

TestSuite(policy, .init = setup, .fini = teardown);

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
