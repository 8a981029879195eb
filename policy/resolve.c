// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Resolve the policy from its sources, in order of precedence (later wins):
 *
 *   built-in defaults (ltd_policy_init)
 *   CONFIG/policy                      the user's own, CONFIG being
 *                                      ~/.config/ltd-native
 *   PROJECT/.ltd-native/policy         only if the user approved exactly
 *                                      this content (policy allow)
 *   --policy FILE ...                  in the order given
 *   LTD_MODEL, LTD_PROXY_URL           the seeds' variables
 *   the command line
 *
 * Every source is collected into an entry list first, then all are applied
 * through the one option table, each entry recording where it came from.
 * The project must be known to find its policy file, so it is taken from
 * the other sources first (a project file cannot name the project).
 */
#include "policy/option.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/sha256.h"
#include "common/text.h"

#define LTD_PROJECT_POLICY ".ltd-native/policy"

struct layers {
	struct ltd_opt_list user, project, files, env, cli;
	char **cmd;
	char cfg[PATH_MAX + 32];
	char home[PATH_MAX];
	char project_dir[PATH_MAX]; /* real path, "" when it does not resolve */
};

static void layers_free(struct layers *ly)
{
	ltd_opts_free(&ly->user);
	ltd_opts_free(&ly->project);
	ltd_opts_free(&ly->files);
	ltd_opts_free(&ly->env);
	ltd_opts_free(&ly->cli);
	for (char **a = ly->cmd; a && *a; a++)
		free(*a);
	free(ly->cmd);
}

/* snprintf for paths: too long is an error, not a truncated path. */
__attribute__((format(printf, 4, 5))) static int
pathf(char *buf, size_t size, struct ltd_err *err, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size)
		return ltd_err_set(err, ENAMETOOLONG, "path too long: '%s...'",
				   buf);
	return 0;
}

static const char *env_get(char *const *env, const char *key)
{
	size_t n = strlen(key);

	for (; env && *env; env++)
		if (strncmp(*env, key, n) == 0 && (*env)[n] == '=')
			return *env + n + 1;
	return NULL;
}

static int read_into(struct ltd_opt_list *l, int dirfd, const char *path,
		     const char *shown, const char *home, unsigned forbid,
		     bool missing_ok, char hash[65], struct ltd_err *err)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	int ret;

	ret = ltd_policy_read_file(dirfd, path, shown, &text, &len, err);
	if (ret == -ENOENT && missing_ok)
		return 1;
	if (!ret && hash)
		ltd_sha256_hex(text, len, hash);
	if (!ret)
		ret = ltd_opts_from_text(l, text, len, shown, home, forbid,
					 err);
	return ret;
}

static const char *last_arg(const struct ltd_opt_list *l, const char *opt,
			    const char *cur)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->e[i].opt->name, opt) == 0)
			cur = l->e[i].args[0];
	return cur;
}

/* A test hook on the command line: only where a test said so. */
static int check_test_hooks(const struct ltd_opt_list *cli, char *const *env,
			    struct ltd_err *err)
{
	const char *on = env_get(env, LTD_TEST_HOOKS_VAR);

	for (size_t i = 0; i < cli->n; i++)
		if ((cli->e[i].opt->flags & LTD_OPT_TEST_HOOK) &&
		    (!on || strcmp(on, "1") != 0))
			return ltd_err_set(
				err, EPERM,
				"--%s: a test hook (it weakens the "
				"cage to show that another wall "
				"holds), refused unless " LTD_TEST_HOOKS_VAR
				"=1 is in the environment",
				cli->e[i].opt->name);
	return 0;
}

/* Everything but the project's file. */
static int collect(struct layers *ly, const struct ltd_policy_input *in,
		   struct ltd_err *err)
{
	static const char *const vars[][2] = {
		{"LTD_MODEL", "model"},
		{"LTD_PROXY_URL", "proxy-url"},
		/* Judged as the option is (ltd_policy_inputs). */
		{"LTD_ALLOW_DOMAINS_FILE", "allow-domains-file"}};
	const struct ltd_host_user *u = in->user;
	const char *project = NULL;
	char path[PATH_MAX + 16], cwd[PATH_MAX];
	int ret;

	if (!u)
		return ltd_err_set(err, EINVAL,
				   "who runs ltd-native is not known");
	ret = ltd_opts_from_argv(&ly->cli, in->argc, in->argv, in->need_command,
				 &ly->cmd, err);
	if (!ret)
		ret = check_test_hooks(&ly->cli, in->env, err);
	if (ret < 0)
		return ret;
	snprintf(ly->home, sizeof(ly->home), "%s",
		 u->home && u->home[0] == '/' ? u->home : "/");
	if (in->config_dir)
		ret = pathf(ly->cfg, sizeof(ly->cfg), err, "%s",
			    in->config_dir);
	else
		ret = pathf(ly->cfg, sizeof(ly->cfg), err,
			    "%s/.config/ltd-native",
			    strcmp(ly->home, "/") ? ly->home : "");
	if (!ret)
		ret = pathf(path, sizeof(path), err, "%s/policy", ly->cfg);
	if (!ret)
		ret = read_into(&ly->user, AT_FDCWD, path, path, ly->home,
				LTD_OPT_CLI_ONLY, true, NULL, err);
	for (size_t i = 0; ret >= 0 && i < ly->cli.n; i++)
		if (strcmp(ly->cli.e[i].opt->name, "policy") == 0)
			ret = read_into(&ly->files, AT_FDCWD,
					ly->cli.e[i].args[0],
					ly->cli.e[i].args[0], ly->home,
					LTD_OPT_CLI_ONLY, false, NULL, err);
	for (size_t i = 0; ret >= 0 && i < sizeof(vars) / sizeof(vars[0]);
	     i++) {
		const char *v = env_get(in->env, vars[i][0]);
		char src[64];

		if (!v || !*v)
			continue;
		snprintf(src, sizeof(src), "environment (%s)", vars[i][0]);
		ret = ltd_opts_add(&ly->env, ltd_option_find(vars[i][1]),
				   (char *const[]){(char *)v}, src, err);
	}
	if (ret < 0)
		return ret;
	project = last_arg(&ly->user, "project", project);
	project = last_arg(&ly->files, "project", project);
	project = last_arg(&ly->cli, "project", project);
	if (!project) {
		if (in->cwd)
			project = in->cwd;
		else if ((project = getcwd(cwd, sizeof(cwd))) == NULL)
			return ltd_err_sys(err, "--project: current directory");
	}
	/* Validation refuses a project that does not resolve or is not its
	 * own real path; here it only locates the policy file. */
	if (!realpath(project, ly->project_dir))
		ly->project_dir[0] = '\0';
	return 0;
}

/* CONFIG/approved/<sha256 of the project's path>: "sha256 <hex>". */
static int approval_path(const struct layers *ly, char *out, size_t size,
			 struct ltd_err *err)
{
	char key[LTD_SHA256_HEX_LEN + 1];

	ltd_sha256_hex(ly->project_dir, strlen(ly->project_dir), key);
	return pathf(out, size, err, "%s/approved/%s", ly->cfg, key);
}

static int approved_hash(const struct layers *ly, char hash[65],
			 struct ltd_err *err)
{
	_cleanup_free_ char *text = NULL;
	char path[PATH_MAX + 80];
	size_t len = 0;
	int ret;

	hash[0] = '\0';
	ret = approval_path(ly, path, sizeof(path), err);
	if (!ret)
		ret = ltd_policy_read_file(AT_FDCWD, path, path, &text, &len,
					   err);
	if (ret == -ENOENT)
		return 0;
	if (ret < 0)
		return ret;
	if (len >= 71 && strncmp(text, "sha256 ", 7) == 0) {
		memcpy(hash, text + 7, 64);
		hash[64] = '\0';
	}
	return 0;
}

/*
 * The project's policy file, if there is one: refused unless approved.
 * The cage can write the project, so an unapproved or changed file is the
 * agent's attempt (or a stranger's repository's) to widen the next run.
 */
static int collect_project(struct layers *ly, struct ltd_err *err)
{
	_cleanup_close_ int dirfd = -1;
	char shown[PATH_MAX + 32], hash[65], ok[65];
	int ret;

	if (!ly->project_dir[0])
		return 0;
	dirfd = open(ly->project_dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return 0;
	snprintf(shown, sizeof(shown), "%s/%s", ly->project_dir,
		 LTD_PROJECT_POLICY);
	ret = read_into(&ly->project, dirfd, LTD_PROJECT_POLICY, shown,
			ly->home, LTD_OPT_CLI_ONLY | LTD_OPT_NOT_PROJECT, true,
			hash, err);
	if (ret != 0)
		return ret > 0 ? 0 : ret;
	ret = approved_hash(ly, ok, err);
	if (ret < 0)
		return ret;
	if (!ok[0])
		return ltd_err_set(err, EPERM,
				   "%s is not approved: read it, then run "
				   "'ltd-native policy allow --project %s' "
				   "(sha256 %.12s...)",
				   shown, ly->project_dir, hash);
	if (strcmp(ok, hash) != 0)
		return ltd_err_set(err, EPERM,
				   "%s changed since you approved it: review "
				   "the change, then run 'ltd-native policy "
				   "allow --project %s' again",
				   shown, ly->project_dir);
	return 0;
}

int ltd_policy_resolve(struct ltd_policy *p, const struct ltd_policy_input *in,
		       struct ltd_err *err)
{
	struct layers ly = {0};
	const struct ltd_opt_list *order[] = {&ly.user, &ly.project, &ly.files,
					      &ly.env, &ly.cli};
	int ret;

	ret = collect(&ly, in, err);
	if (!ret)
		ret = collect_project(&ly, err);
	for (size_t i = 0; !ret && i < sizeof(order) / sizeof(order[0]); i++)
		ret = ltd_opts_apply(p, order[i], err);
	if (!ret) {
		p->argv = ly.cmd;
		ly.cmd = NULL;
	}
	/* Commands are found where the caller's PATH finds them
	 * (agents/resolve.c), before the environment is cleared. */
	if (!ret && env_get(in->env, "PATH") &&
	    !(p->host_path = strdup(env_get(in->env, "PATH"))))
		ret = ltd_err_set(err, ENOMEM, "out of memory");
	if (!ret && p->ssh_agent) {
		const char *sock = env_get(in->env, "SSH_AUTH_SOCK");

		if (!sock || !*sock)
			ret = ltd_err_set(err, EINVAL,
					  "--ssh-agent: SSH_AUTH_SOCK is not "
					  "set (is an ssh-agent running?)");
		else if (!(p->ssh_auth_sock = strdup(sock)))
			ret = ltd_err_set(err, ENOMEM, "out of memory");
	}
	layers_free(&ly);
	return ret;
}

/* mkdir -p, 0700 for what it creates: the approvals are the user's. */
static int make_dirs(const char *path, struct ltd_err *err)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);

	if (len >= sizeof(buf))
		return ltd_err_set(err, ENAMETOOLONG, "'%s'", path);
	memcpy(buf, path, len + 1);
	for (char *c = buf + 1;; c++) {
		if (*c != '/' && *c != '\0')
			continue;
		char saved = *c;

		*c = '\0';
		if (mkdir(buf, 0700) < 0 && errno != EEXIST)
			return ltd_err_sys(err, "create '%s'", buf);
		*c = saved;
		if (!saved)
			return 0;
	}
}

int ltd_policy_allow(const struct ltd_policy_input *in, FILE *out,
		     struct ltd_err *err)
{
	struct layers ly = {0};
	_cleanup_close_ int dirfd = -1, fd = -1;
	_cleanup_free_ char *text = NULL;
	char shown[PATH_MAX + 32], path[PATH_MAX + 80], tmp[PATH_MAX + 96],
		hash[65], dir[PATH_MAX + 16], line[80];
	size_t len = 0;
	int ret;

	ret = collect(&ly, in, err);
	if (!ret && !ly.project_dir[0])
		ret = ltd_err_set(err, ENOENT, "--project: no such directory");
	if (!ret && (dirfd = open(ly.project_dir,
				  O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		ret = ltd_err_sys(err, "--project: '%s'", ly.project_dir);
	snprintf(shown, sizeof(shown), "%s/%s", ly.project_dir,
		 LTD_PROJECT_POLICY);
	if (!ret)
		ret = ltd_policy_read_file(dirfd, LTD_PROJECT_POLICY, shown,
					   &text, &len, err);
	/* Approve only what parses: a broken file would fail every run. */
	if (!ret)
		ret = ltd_opts_from_text(&ly.project, text, len, shown, ly.home,
					 LTD_OPT_CLI_ONLY | LTD_OPT_NOT_PROJECT,
					 err);
	if (!ret)
		ltd_sha256_hex(text, len, hash);
	if (!ret)
		ret = approval_path(&ly, path, sizeof(path), err);
	if (!ret)
		ret = pathf(dir, sizeof(dir), err, "%s/approved", ly.cfg);
	if (!ret)
		ret = make_dirs(dir, err);
	if (!ret)
		ret = pathf(tmp, sizeof(tmp), err, "%s.tmp", path);
	snprintf(line, sizeof(line), "sha256 %s\n", hash);
	if (!ret &&
	    (fd = open(tmp,
		       O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		       0600)) < 0)
		ret = ltd_err_sys(err, "create '%s'", tmp);
	if (!ret && (write(fd, line, strlen(line)) != (ssize_t)strlen(line) ||
		     fsync(fd) < 0))
		ret = ltd_err_sys(err, "write '%s'", tmp);
	if (!ret && rename(tmp, path) < 0)
		ret = ltd_err_sys(err, "rename to '%s'", path);
	/* The path is the user's tree's, the text was checked as it was
	 * parsed: both shown as ltd_fput_shown() shows them all the same. */
	if (!ret) {
		fputs("approved ", out);
		ltd_fput_shown(out, shown);
		fprintf(out, " (sha256 %s):\n", hash);
		ltd_fwrite_shown(out, text, len);
		if (len && text[len - 1] != '\n')
			fputc('\n', out);
	}
	layers_free(&ly);
	return ret;
}
