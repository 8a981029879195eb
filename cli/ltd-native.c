// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The CLI: one table of commands; each parses its words, calls one library
 * entry point, says what went wrong and picks the exit status.  The
 * library prints no usage and chooses no exit status.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buildinfo.h" /* build/gen/: tools/buildinfo.sh */
#include "common/base.h"
#include "cli/review.h"
#include "common/text.h"
#include "policy/option.h"
#include "policy/policy.h"
#include "protect/protected.h"
#include "runtime/doctor.h"
#include "runtime/exec.h"
#include "runtime/hostuser.h"
#include "runtime/run.h"

extern char **environ;

struct command {
	const char *name;
	const char *usage; /* after "ltd-native ", one or more lines */
	int (*run)(int argc, char **argv, char **launcher_argv);
};

static int cmd_run(int argc, char **argv, char **launcher_argv);
static int cmd_exec(int argc, char **argv, char **launcher_argv);
static int cmd_ps(int argc, char **argv, char **launcher_argv);
static int cmd_kill(int argc, char **argv, char **launcher_argv);
static int cmd_policy(int argc, char **argv, char **launcher_argv);
static int cmd_doctor(int argc, char **argv, char **launcher_argv);

static const struct command commands[] = {
	{"run", "run [OPTIONS] -- COMMAND [ARGS...]", cmd_run},
	{"exec", "exec NAME [--] COMMAND [ARGS...]", cmd_exec},
	{"ps", "ps [--json]", cmd_ps},
	{"kill", "kill NAME [SIGNAL]", cmd_kill},
	{"policy",
	 "policy show [OPTIONS] [-- COMMAND...]\n"
	 "policy allow [--project DIR]",
	 cmd_policy},
	{"review", "review [NAME] [--json]", ltd_cli_review},
	{"diff",
	 "diff NAME [--stat] [--color=auto|always|never] [--no-pager] "
	 "[PATH...]",
	 ltd_cli_diff},
	{"apply", "apply NAME [--include-protected] [PATH...]", ltd_cli_apply},
	{"discard", "discard NAME", ltd_cli_discard},
	{"doctor", "doctor [--json] [--acknowledge]", cmd_doctor},
};

/* @c's usage lines, the first after *@lead, the rest aligned with it. */
static void print_usage(FILE *out, const struct command *c, const char **lead)
{
	for (const char *u = c->usage; *u;) {
		size_t n = strcspn(u, "\n");

		fprintf(out, "%sltd-native %.*s\n", *lead, (int)n, u);
		*lead = "       ";
		u += n + (u[n] == '\n');
	}
}

static void usage(FILE *out)
{
	const char *lead = "usage: ";

	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		print_usage(out, &commands[i], &lead);
	fputs("       ltd-native --help | --version\n"
	      "\n"
	      "Run COMMAND in a rootless cage: its own user, mount, pid, net,\n"
	      "ipc, uts and cgroup namespaces; the host's /usr read-only; the\n"
	      "project read-write; a fresh home; no capabilities.\n"
	      "\n"
	      "Exit status: COMMAND's own; 128+N if it died of signal N;\n"
	      "125 for an error of ltd-native; 126 if COMMAND cannot be\n"
	      "executed; 127 if it is not found.\n"
	      "\n"
	      "Options come from ~/.config/ltd-native/policy, the project's\n"
	      ".ltd-native/policy (once approved with 'policy allow'),\n"
	      "--policy FILE, LTD_MODEL/LTD_PROXY_URL and the command line,\n"
	      "later ones winning; 'policy show' prints the result.\n"
	      "\n"
	      "Run options most runs need ('ltd-native run --help' lists them\n"
	      "all; ltd-native(1) says more):\n",
	      out);
	ltd_policy_print_help(out, LTD_OPT_SUMMARY);
}

/* A usage error: the command's usage line(s), exit 125.  Each line says
 * whose it is, as every message of ltd-native's on stderr does. */
static int usage_of(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		const char *lead = LTD_USAGE_LEAD;

		if (strcmp(commands[i].name, name) != 0)
			continue;
		for (const char *u = commands[i].usage; *u;) {
			size_t n = strcspn(u, "\n");

			fprintf(stderr, "%sltd-native %.*s\n", lead, (int)n, u);
			u += n + (u[n] == '\n');
		}
	}
	return LTD_EXIT_RUNTIME;
}

/* An error of ltd-native outside the cage: its message names the flag or
 * the file at fault (the launcher's step is not the user's business). */
static int failed(const struct ltd_err *err)
{
	struct ltd_err said = *err;

	said.step[0] = '\0';
	ltd_term_plain(stderr);
	ltd_err_print(&said);
	return LTD_EXIT_RUNTIME;
}

static int wait_status_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return LTD_EXIT_RUNTIME;
}

/* A command that could not be executed: 127 if it is not there. */
static int exec_failed(const struct ltd_err *err)
{
	ltd_err_print(err);
	return err->code == ENOENT ? LTD_EXIT_NOT_FOUND : LTD_EXIT_CANNOT_EXEC;
}

static int run_exit_code(const struct ltd_run_result *r)
{
	switch (r->end) {
	case LTD_RUN_EXITED:
		return wait_status_code(r->status);
	case LTD_RUN_KILLED:
		fprintf(stderr, "ltd-native: the cage was killed (signal %d)\n",
			WTERMSIG(r->status));
		return r->cmd_exited ? wait_status_code(r->cmd_status)
				     : 128 + WTERMSIG(r->status);
	case LTD_RUN_EXEC_FAILED:
		return exec_failed(&r->err);
	case LTD_RUN_FAILED:
		break;
	}
	if (!r->in_cage)
		return failed(&r->err);
	/* Everything a user can fix was checked before clone: what fails in
	 * the cage is the host refusing something. */
	ltd_err_print(&r->err);
	if (strcmp(r->err.step, "chdir") != 0)
		fprintf(stderr, "ltd-native: 'ltd-native doctor' checks what "
				"this host supports\n");
	return LTD_EXIT_RUNTIME;
}

static int cmd_run(int argc, char **argv, char **launcher_argv)
{
	struct ltd_policy_input in = {.user = ltd_host_user(),
				      .argc = argc,
				      .argv = argv,
				      .need_command = true,
				      .env = environ};
	struct ltd_run_host host = LTD_RUN_HOST_INIT;
	struct ltd_run_result res;
	struct ltd_policy p;
	struct ltd_err err = {0};
	int ret;

	for (int i = 0; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--help") == 0) {
			printf("usage: ltd-native run [OPTIONS] -- COMMAND "
			       "[ARGS...]\n\noptions:\n");
			ltd_policy_print_help(stdout, 0);
			return 0;
		}
	}
	ltd_policy_init(&p);
	ret = ltd_policy_resolve(&p, &in, &err);
	if (!ret)
		ret = ltd_run_resolve(&p, &host, &err);
	if (ret < 0 && strcmp(err.step, "exec") == 0) {
		/* The command is nowhere: 127, as the cage would say. */
		ret = exec_failed(&err);
	} else if (ret < 0) {
		ret = failed(&err);
	} else {
		ltd_run(&p, &host, launcher_argv, &res);
		ret = run_exit_code(&res);
	}
	/* The policy's and the host's memory go with the process: freeing
	 * them would write to pages shared with init (decision 0132). */
	ltd_run_host_end(&host);
	return ret;
}

/* `exec NAME [--] COMMAND [ARGS...]`. */
static int cmd_exec(int argc, char **argv, char **launcher_argv)
{
	struct ltd_err err = {0};
	int status = 0;
	char **cmd;

	if (argc < 2 || (strcmp(argv[1], "--") == 0 && argc < 3))
		return usage_of("exec");
	cmd = argv + (strcmp(argv[1], "--") == 0 ? 2 : 1);
	if (ltd_exec(argv[0], cmd, &status, &err) == 0)
		return status;
	if (strcmp(err.step, "exec") == 0)
		return exec_failed(&err);
	/* A step of the command's in the cage says which. */
	ltd_term_plain(stderr);
	ltd_err_print(&err);
	return LTD_EXIT_RUNTIME;
}

static int cmd_ps(int argc, char **argv, char **launcher_argv)
{
	struct ltd_err err = {0};

	if (argc > 1 || (argc == 1 && strcmp(argv[0], "--json") != 0))
		return usage_of("ps");
	return ltd_ps(argc == 1, stdout, &err) < 0 ? failed(&err) : 0;
}

static int cmd_kill(int argc, char **argv, char **launcher_argv)
{
	struct ltd_err err = {0};

	if (argc < 1 || argc > 2)
		return usage_of("kill");
	if (ltd_kill(argv[0], argc == 2 ? argv[1] : NULL, &err) < 0)
		return failed(&err);
	return 0;
}

/* `policy show [run flags]`, `policy allow [--project DIR]`. */
static int cmd_policy(int argc, char **argv, char **launcher_argv)
{
	struct ltd_policy_input in = {.user = ltd_host_user(),
				      .argc = argc - 1,
				      .argv = argv + 1,
				      .env = environ};
	struct ltd_err err = {0};
	struct ltd_protected prot = {0};
	struct ltd_policy p;
	int ret;

	if (argc >= 1 && strcmp(argv[0], "allow") == 0)
		return ltd_policy_allow(&in, stdout, &err) < 0 ? failed(&err)
							       : 0;
	if (argc < 1 || strcmp(argv[0], "show") != 0)
		return usage_of("policy");
	ltd_policy_init(&p);
	ret = ltd_policy_resolve(&p, &in, &err);
	if (!ret)
		ret = ltd_run_check(&p, &prot, &err);
	if (!ret)
		ltd_policy_show(stdout, &p,
				&(struct ltd_policy_show_extra){
					prot.paths, prot.n, prot.warnings,
					prot.n_warnings});
	ltd_protected_free(&prot);
	ltd_policy_free(&p);
	return ret < 0 ? failed(&err) : 0;
}

/* `doctor [--json] [--acknowledge]`: exit 1 when a default run will not
 * work here.  A test (LTD_NATIVE_TEST_HOOKS=1) may also give
 * --test-landlock-abi N, as to `run`. */
static int cmd_doctor(int argc, char **argv, char **launcher_argv)
{
	struct ltd_doctor_opts o = {.test_landlock_abi = -1};
	const char *hooks = getenv(LTD_TEST_HOOKS_VAR);

	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			o.json = true;
		else if (strcmp(argv[i], "--acknowledge") == 0)
			o.acknowledge = true;
		else if (strcmp(argv[i], "--test-landlock-abi") == 0 &&
			 i + 1 < argc && hooks && strcmp(hooks, "1") == 0 &&
			 argv[i + 1][0] >= '0' && argv[i + 1][0] <= '9')
			o.test_landlock_abi = atoi(argv[++i]);
		else
			return usage_of("doctor");
	}
	return ltd_doctor(&o);
}

int main(int argc, char **argv)
{
	struct ltd_err unknown = {0};

	if (argc < 2) {
		fputs("ltd-native: no command given (see 'ltd-native "
		      "--help')\n",
		      stderr);
		return LTD_EXIT_RUNTIME;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("ltd-native %s\n%s", LTD_VERSION, LTD_BUILD_INFO);
		return 0;
	}
	/* Not in --help: the option table for the man page and the shell
	 * completions (policy/optdump.c). */
	if (strcmp(argv[1], "--complete-options") == 0) {
		ltd_policy_print_options(stdout);
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 2, argv + 2, argv);
	ltd_err_set(&unknown, EINVAL,
		    "unknown command '%s' (see 'ltd-native --help')", argv[1]);
	ltd_err_print(&unknown);
	return LTD_EXIT_RUNTIME;
}
