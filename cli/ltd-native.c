// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The CLI: pick the subcommand, call one library entry point, choose the
 * exit status.  Nothing else lives here.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "policy/policy.h"
#include "runtime/doctor.h"
#include "runtime/exec.h"
#include "runtime/run.h"

#ifndef LTD_VERSION
#define LTD_VERSION "0.1.0"
#endif

static void usage(FILE *out)
{
	fputs("usage: ltd-native run [OPTIONS] -- COMMAND [ARGS...]\n"
	      "       ltd-native exec NAME [--] COMMAND [ARGS...]\n"
	      "       ltd-native ps [--json]\n"
	      "       ltd-native kill NAME [SIGNAL]\n"
	      "       ltd-native policy show [OPTIONS] [-- COMMAND...]\n"
	      "       ltd-native policy allow [--project DIR]\n"
	      "       ltd-native doctor [--json]\n"
	      "       ltd-native --help | --version\n"
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
	      "'ltd-native run --help' lists the run options.\n",
	      out);
}

extern char **environ;

static int cmd_run(int argc, char **argv, char **launcher_argv)
{
	struct ltd_policy_input in = {.argc = argc,
				      .argv = argv,
				      .need_command = true,
				      .env = environ};
	struct ltd_policy p;
	struct ltd_err err = {0};
	int ret;

	for (int i = 0; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--help") == 0) {
			printf("usage: ltd-native run [OPTIONS] -- COMMAND "
			       "[ARGS...]\n\noptions:\n");
			ltd_policy_print_help(stdout);
			return 0;
		}
	}
	ltd_policy_init(&p);
	ret = ltd_policy_resolve(&p, &in, &err);
	if (ret < 0) {
		ltd_err_print(&err);
		ltd_policy_free(&p);
		return LTD_EXIT_RUNTIME;
	}
	ret = ltd_run(&p, launcher_argv);
	ltd_policy_free(&p);
	return ret;
}

/* `policy show [run flags]`, `policy allow [--project DIR]`. */
static int cmd_policy(int argc, char **argv)
{
	struct ltd_policy_input in = {
		.argc = argc - 1, .argv = argv + 1, .env = environ};
	struct ltd_err err = {0};
	struct ltd_policy p;
	int ret;

	if (argc >= 1 && strcmp(argv[0], "allow") == 0) {
		ret = ltd_policy_allow(&in, stdout, &err);
	} else if (argc >= 1 && strcmp(argv[0], "show") == 0) {
		ltd_policy_init(&p);
		ret = ltd_policy_resolve(&p, &in, &err);
		if (!ret)
			ret = ltd_run_check(&p, &err);
		if (!ret)
			ltd_policy_show(stdout, &p);
		ltd_policy_free(&p);
	} else {
		ret = ltd_err_set(&err, EINVAL,
				  "usage: ltd-native policy "
				  "show|allow [OPTIONS]");
	}
	if (ret < 0) {
		ltd_err_print(&err);
		return LTD_EXIT_RUNTIME;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct ltd_err unknown = {0};

	if (argc < 2) {
		usage(stderr);
		return LTD_EXIT_RUNTIME;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("ltd-native %s\n", LTD_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "run") == 0)
		return cmd_run(argc - 2, argv + 2, argv);
	if (strcmp(argv[1], "policy") == 0)
		return cmd_policy(argc - 2, argv + 2);
	if (strcmp(argv[1], "exec") == 0)
		return ltd_exec(argc - 2, argv + 2);
	if (strcmp(argv[1], "ps") == 0) {
		if (argc == 2 || (argc == 3 && strcmp(argv[2], "--json") == 0))
			return ltd_ps(argc == 3);
		fprintf(stderr, "usage: ltd-native ps [--json]\n");
		return LTD_EXIT_RUNTIME;
	}
	if (strcmp(argv[1], "kill") == 0)
		return ltd_kill(argc - 2, argv + 2);
	if (strcmp(argv[1], "doctor") == 0) {
		if (argc == 2 || (argc == 3 && strcmp(argv[2], "--json") == 0))
			return ltd_doctor(argc == 3);
		fprintf(stderr, "usage: ltd-native doctor [--json]\n");
		return LTD_EXIT_RUNTIME;
	}
	ltd_err_set(&unknown, EINVAL,
		    "unknown command '%s' (see 'ltd-native --help')", argv[1]);
	ltd_err_print(&unknown);
	return LTD_EXIT_RUNTIME;
}
