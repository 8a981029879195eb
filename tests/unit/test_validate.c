// SPDX-License-Identifier: GPL-2.0-or-later
/* Validation against the (real, read-only) host: no privileges needed. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy/policy.h"
#include "runtime/run.h"
#include "tests/common/fixture.h"

static struct ltd_policy p;
static struct ltd_protected prot;
static struct ltd_err err;
static char dir[32];

static void setup(void)
{
	ltd_policy_init(&p);
	memset(&err, 0, sizeof(err));
	fx_tmpdir(dir, sizeof(dir), "v");
}

static void teardown(void)
{
	ltd_policy_free(&p);
	ltd_protected_free(&prot);
	fx_rm_rf(dir);
}

TestSuite(validate, .init = setup, .fini = teardown);

/* A link in the project is the agent's to plant: never followed. */
Test(validate, project_through_a_link_is_refused)
{
	char link[64];

	snprintf(link, sizeof(link), "%s/link", dir);
	cr_assert_eq(symlink(dir, link), 0);
	p.project = strdup(link);
	cr_assert_eq(ltd_run_check(&p, &prot, &err), -ELOOP);
	cr_assert(strstr(err.msg, "--project"));
	cr_assert(strstr(err.msg, dir), "names the real path: %s", err.msg);
}

Test(validate, project_with_trailing_slash)
{
	char path[64];

	snprintf(path, sizeof(path), "%s//", dir);
	p.project = strdup(path);
	cr_assert_eq(ltd_run_check(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert_str_eq(p.project, dir);
	cr_assert_eq(p.id.uid, getuid());
	cr_assert_eq(p.id.gid, getgid());
	cr_assert_not_null(p.id.home);
	cr_assert_eq(p.id.home[0], '/');
}

Test(validate, default_project_is_cwd)
{
	char cwd[4096];

	cr_assert_not_null(getcwd(cwd, sizeof(cwd)));
	cr_assert_eq(ltd_run_check(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert_str_eq(p.project, cwd);
}

Test(validate, missing_project)
{
	p.project = strdup("/nonexistent/ltd-unit");
	cr_assert_eq(ltd_run_check(&p, &prot, &err), -ENOENT);
	cr_assert(strstr(err.msg, "--project"));
}

Test(validate, project_not_a_directory)
{
	p.project = strdup("/etc/hostname");
	cr_assert_eq(ltd_run_check(&p, &prot, &err), -ENOTDIR);
	cr_assert(strstr(err.msg, "not a directory"));
}

Test(validate, relative_project)
{
	p.project = strdup("tmp");
	cr_assert_eq(ltd_run_check(&p, &prot, &err), -EINVAL);
	cr_assert(strstr(err.msg, "absolute"));
}

Test(validate, root_as_project_is_refused)
{
	p.project = strdup("/");
	cr_assert_eq(ltd_run_check(&p, &prot, &err), -EPERM);
	cr_assert(strstr(err.msg, "refusing"));
}

static void add_mount(enum ltd_user_mount_kind kind, const char *src,
		      const char *dst, const char *flag)
{
	p.mounts = realloc(p.mounts, (p.n_mounts + 1) * sizeof(*p.mounts));
	p.mounts[p.n_mounts++] = (struct ltd_user_mount){
		.kind = kind,
		.src = src ? strdup(src) : NULL,
		.dst = strdup(dst),
		.flag = flag,
	};
}

Test(validate, bind_source_must_exist)
{
	p.project = strdup(dir);
	add_mount(LTD_UM_BIND, "/nonexistent/x", "/x", "bind");
	cr_assert_eq(ltd_run_check(&p, &prot, &err), -ENOENT);
	cr_assert(strstr(err.msg, "--bind"));
	cr_assert(strstr(err.msg, "/nonexistent/x"));
}

Test(validate, bind_source_must_be_absolute)
{
	p.project = strdup(dir);
	add_mount(LTD_UM_RO_BIND, "usr", "/x", "ro-bind");
	cr_assert_eq(ltd_run_check(&p, &prot, &err), -EINVAL);
	cr_assert(strstr(err.msg, "--ro-bind"));
}

Test(validate, destinations_must_be_normal)
{
	const char *bad[] = {"/", "/a/../etc", "/a/./b", "/a//b", "/a/"};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ltd_policy_free(&p);
		ltd_policy_init(&p);
		p.project = strdup(dir);
		add_mount(LTD_UM_TMPFS, NULL, bad[i], "tmpfs");
		cr_assert_eq(ltd_run_check(&p, &prot, &err), -EINVAL,
			     "accepted '%s'", bad[i]);
		cr_assert(strstr(err.msg, "--tmpfs"));
	}
}

Test(validate, binding_root_is_refused)
{
	p.project = strdup(dir);
	add_mount(LTD_UM_RO_BIND, "/", "/host", "ro-bind");
	cr_assert_eq(ltd_run_check(&p, &prot, &err), -EPERM);
	cr_assert(strstr(err.msg, "--ro-bind"));
}

Test(validate, binding_home_or_a_parent_is_refused)
{
	p.project = strdup(dir);
	cr_assert_eq(ltd_run_check(&p, &prot, &err), 0);
	/* Resolve the home the same way, then bind its parent. */
	char *home = strdup(p.id.home);
	char *slash = strrchr(home, '/');

	if (slash == home)
		slash[1] = '\0';
	else
		*slash = '\0';
	if (access(home, F_OK) != 0) {
		free(home);
		cr_skip_test("home's parent does not exist here");
	}
	ltd_policy_free(&p);
	ltd_policy_init(&p);
	p.project = strdup(dir);
	add_mount(LTD_UM_BIND, home, "/h", "bind");
	cr_assert_eq(ltd_run_check(&p, &prot, &err), -EPERM);
	free(home);
}

Test(validate, chdir_must_be_normal)
{
	p.project = strdup(dir);
	p.chdir = strdup("/a/../b");
	cr_assert_eq(ltd_run_check(&p, &prot, &err), -EINVAL);
	cr_assert(strstr(err.msg, "--chdir"));
}

/* dir/NAME as a git repository (what `git init` makes that git checks). */
static void make_repo(const char *name)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd),
		 "mkdir -p %s/%s/.git/objects %s/%s/.git/refs "
		 "%s/%s/.git/hooks && echo 'ref: refs/heads/main' > "
		 "%s/%s/.git/HEAD",
		 dir, name, dir, name, dir, name, dir, name);
	cr_assert_eq(system(cmd), 0);
}

/* A second repository bound read-write: its hooks and config would be the
 * cage's to write, and git on the host runs them. */
Test(validate, a_writable_bind_of_a_git_repository_is_refused)
{
	const char *binds[] = {"other", "other/.git", "other/.git/hooks"};
	char src[256], proj[256];

	make_repo("other");
	snprintf(proj, sizeof(proj), "%s/proj", dir);
	cr_assert_eq(mkdir(proj, 0755), 0);
	for (size_t i = 0; i < sizeof(binds) / sizeof(binds[0]); i++) {
		ltd_policy_free(&p);
		ltd_policy_init(&p);
		memset(&err, 0, sizeof(err));
		p.project = strdup(proj);
		snprintf(src, sizeof(src), "%s/%s", dir, binds[i]);
		add_mount(LTD_UM_BIND, src, "/x", "bind");
		cr_assert_eq(ltd_run_check(&p, &prot, &err), -EPERM,
			     "accepted --bind %s", binds[i]);
		cr_assert(strstr(err.msg, "--bind"), "%s", err.msg);
		cr_assert(strstr(err.msg, "--unsafe-writable-git"), "%s",
			  err.msg);
		cr_assert(strstr(err.msg, "--ro-bind"), "%s", err.msg);
	}
}

Test(validate, a_git_repository_bound_read_only_or_waived_is_let_through)
{
	char src[256], proj[256];

	make_repo("other");
	snprintf(proj, sizeof(proj), "%s/proj", dir);
	cr_assert_eq(mkdir(proj, 0755), 0);
	snprintf(src, sizeof(src), "%s/other", dir);
	p.project = strdup(proj);
	add_mount(LTD_UM_RO_BIND, src, "/x", "ro-bind");
	cr_assert_eq(ltd_run_check(&p, &prot, &err), 0, "%s", err.msg);
	ltd_policy_free(&p);
	ltd_policy_init(&p);
	p.project = strdup(proj);
	p.protect_git = false; /* --unsafe-writable-git */
	add_mount(LTD_UM_BIND, src, "/x", "bind");
	cr_assert_eq(ltd_run_check(&p, &prot, &err), 0, "%s", err.msg);
}

Test(validate, a_writable_bind_of_a_plain_directory_is_let_through)
{
	char src[256], proj[256], cmd[600];

	make_repo("other");
	/* A plain directory beside the repository, and the work tree's
	 * subdirectory: neither holds the repository's .git. */
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/plain %s/other/src %s/proj",
		 dir, dir, dir);
	cr_assert_eq(system(cmd), 0);
	snprintf(proj, sizeof(proj), "%s/proj", dir);
	p.project = strdup(proj);
	snprintf(src, sizeof(src), "%s/plain", dir);
	add_mount(LTD_UM_BIND, src, "/x", "bind");
	snprintf(src, sizeof(src), "%s/other/src", dir);
	add_mount(LTD_UM_BIND, src, "/y", "bind");
	cr_assert_eq(ltd_run_check(&p, &prot, &err), 0, "%s", err.msg);
}

/* --- files the next run reads (policy/inputs.c) ---------------------------
 */

static bool protected_has(const char *path)
{
	for (size_t i = 0; i < prot.n; i++)
		if (strcmp(prot.paths[i], path) == 0)
			return true;
	return false;
}

static void touch(const char *path)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f, "%s", path);
	fputs("ok.test\n", f);
	fclose(f);
}

static void add_domains_file(const char *path)
{
	p.domain_files = realloc(p.domain_files,
				 (p.n_domain_files + 1) * sizeof(char *));
	p.domain_files[p.n_domain_files++] = strdup(path);
}

/* An allowlist file in the project: read-only inside (protected), and the
 * launcher reads the real path that was judged. */
Test(validate, a_domains_file_in_the_project_is_protected)
{
	char proj[256], file[300];

	snprintf(proj, sizeof(proj), "%s/proj", dir);
	cr_assert_eq(mkdir(proj, 0755), 0);
	snprintf(file, sizeof(file), "%s/allowed.txt", proj);
	touch(file);
	p.project = strdup(proj);
	add_domains_file(file);
	cr_assert_eq(ltd_run_check(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert(protected_has(file), "not protected: %s", file);
	cr_assert_str_eq(p.domain_files[0], file);
}

/* Named relatively, from the launcher's directory: judged as the real
 * path it reads. */
Test(validate, a_relative_domains_file_is_judged_where_it_is)
{
	char proj[256], file[300], cwd[4096];

	snprintf(proj, sizeof(proj), "%s/proj", dir);
	cr_assert_eq(mkdir(proj, 0755), 0);
	snprintf(file, sizeof(file), "%s/allowed.txt", proj);
	touch(file);
	cr_assert_not_null(getcwd(cwd, sizeof(cwd)));
	cr_assert_eq(chdir(proj), 0);
	p.project = strdup(proj);
	add_domains_file("./allowed.txt");
	cr_assert_eq(ltd_run_check(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert_eq(chdir(cwd), 0);
	cr_assert(protected_has(file), "not protected: %s", file);
	cr_assert_str_eq(p.domain_files[0], file);
}

/* Through a link in the project: the command could re-point the link, and
 * the next run would read its file. */
Test(validate, a_domains_file_through_a_link_in_the_project_is_refused)
{
	char proj[256], out[256], link[300], file[320];

	snprintf(proj, sizeof(proj), "%s/proj", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	cr_assert_eq(mkdir(proj, 0755), 0);
	cr_assert_eq(mkdir(out, 0755), 0);
	snprintf(file, sizeof(file), "%s/allowed.txt", out);
	touch(file);
	snprintf(link, sizeof(link), "%s/cfg", proj);
	cr_assert_eq(symlink(out, link), 0);
	snprintf(file, sizeof(file), "%s/allowed.txt", link);
	p.project = strdup(proj);
	add_domains_file(file);
	cr_assert_eq(ltd_run_check(&p, &prot, &err), -ELOOP);
	cr_assert(strstr(err.msg, link), "%s", err.msg);
}

/* In a writable bind (the bind itself, or under it): refused, naming the
 * option, the file and the fix; read-only it is let through. */
Test(validate, a_domains_file_in_a_writable_bind_is_refused)
{
	char proj[256], share[256], file[300];

	snprintf(proj, sizeof(proj), "%s/proj", dir);
	snprintf(share, sizeof(share), "%s/share", dir);
	cr_assert_eq(mkdir(proj, 0755), 0);
	cr_assert_eq(mkdir(share, 0755), 0);
	snprintf(file, sizeof(file), "%s/allowed.txt", share);
	touch(file);
	p.project = strdup(proj);
	add_mount(LTD_UM_BIND, share, "/mnt/share", "bind");
	add_domains_file(file);
	cr_assert_eq(ltd_run_check(&p, &prot, &err), -EPERM);
	cr_assert(strstr(err.msg, "--allow-domains-file") &&
			  strstr(err.msg, file) && strstr(err.msg, "--bind") &&
			  strstr(err.msg, "--ro-bind"),
		  "%s", err.msg);

	ltd_policy_free(&p);
	ltd_policy_init(&p);
	p.project = strdup(proj);
	add_mount(LTD_UM_BIND, file, "/mnt/allowed.txt", "bind");
	add_domains_file(file);
	cr_assert_eq(ltd_run_check(&p, &prot, &err), -EPERM, "the bind itself");

	ltd_policy_free(&p);
	ltd_policy_init(&p);
	p.project = strdup(proj);
	add_mount(LTD_UM_RO_BIND, share, "/mnt/share", "ro-bind");
	add_domains_file(file);
	cr_assert_eq(ltd_run_check(&p, &prot, &err), 0, "%s", err.msg);
}

/* A project inside a writable bind: the file is the bind's to write,
 * whatever the project's protection says. */
Test(validate, a_domains_file_in_a_project_inside_a_writable_bind)
{
	char top[256], proj[256], file[300];

	snprintf(top, sizeof(top), "%s/src", dir);
	snprintf(proj, sizeof(proj), "%s/src/proj", dir);
	cr_assert_eq(mkdir(top, 0755), 0);
	cr_assert_eq(mkdir(proj, 0755), 0);
	snprintf(file, sizeof(file), "%s/allowed.txt", proj);
	touch(file);
	p.project = strdup(proj);
	add_mount(LTD_UM_BIND, top, "/mnt/src", "bind");
	add_domains_file(file);
	cr_assert_eq(ltd_run_check(&p, &prot, &err), -EPERM);
	cr_assert(strstr(err.msg, "--allow-domains-file"), "%s", err.msg);
}

/* The audit log: created by the launcher, so judged before it exists. */
Test(validate, the_audit_log_in_the_project_is_protected)
{
	char proj[256], file[300];

	snprintf(proj, sizeof(proj), "%s/proj", dir);
	cr_assert_eq(mkdir(proj, 0755), 0);
	snprintf(file, sizeof(file), "%s/audit.jsonl", proj);
	p.project = strdup(proj);
	p.audit_log = strdup(file);
	cr_assert_eq(ltd_run_check(&p, &prot, &err), 0, "%s", err.msg);
	cr_assert(protected_has(file), "not protected: %s", file);
}

Test(validate, the_audit_log_in_a_writable_bind_is_refused)
{
	char proj[256], logs[256], file[300];

	snprintf(proj, sizeof(proj), "%s/proj", dir);
	snprintf(logs, sizeof(logs), "%s/logs", dir);
	cr_assert_eq(mkdir(proj, 0755), 0);
	cr_assert_eq(mkdir(logs, 0755), 0);
	snprintf(file, sizeof(file), "%s/audit.jsonl", logs);
	p.project = strdup(proj);
	p.audit_log = strdup(file);
	add_mount(LTD_UM_BIND, logs, "/logs", "bind");
	cr_assert_eq(ltd_run_check(&p, &prot, &err), -EPERM);
	cr_assert(strstr(err.msg, "--audit-log") && strstr(err.msg, file), "%s",
		  err.msg);
}

/* The user's global git configuration names a hooks path: a writable bind
 * of it is refused (hooks there run in every repository), read-only not. */
Test(validate, a_writable_bind_of_the_global_hooks_path_is_refused)
{
	char home[256], hooks[256], proj[256], cmd[600];
	FILE *f;

	snprintf(home, sizeof(home), "%s/home", dir);
	snprintf(hooks, sizeof(hooks), "%s/home/.githooks", dir);
	snprintf(proj, sizeof(proj), "%s/proj", dir);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s %s", hooks, proj);
	cr_assert_eq(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s/.gitconfig", home);
	f = fopen(cmd, "w");
	cr_assert_not_null(f);
	fputs("[core]\n\thooksPath = ~/.githooks\n", f);
	fclose(f);
	setenv("HOME", home, 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	unsetenv("GIT_CONFIG_GLOBAL");
	unsetenv("XDG_CONFIG_HOME");
	p.project = strdup(proj);
	add_mount(LTD_UM_BIND, hooks, hooks, "bind");
	cr_assert_eq(ltd_run_check(&p, &prot, &err), -EPERM, "accepted");
	cr_assert(strstr(err.msg, "--bind"), "%s", err.msg);
	cr_assert(strstr(err.msg, "core.hooksPath"), "%s", err.msg);
	ltd_policy_free(&p);
	ltd_policy_init(&p);
	memset(&err, 0, sizeof(err));
	p.project = strdup(proj);
	add_mount(LTD_UM_RO_BIND, hooks, hooks, "ro-bind");
	cr_assert_eq(ltd_run_check(&p, &prot, &err), 0, "%s", err.msg);
	/* The project as the hooks path. */
	ltd_policy_free(&p);
	ltd_policy_init(&p);
	p.project = strdup(hooks);
	cr_assert_eq(ltd_run_check(&p, &prot, &err), -EPERM, "accepted");
	cr_assert(strstr(err.msg, "--project"), "%s", err.msg);
}

/* A subdirectory of another work tree that holds its hooks path. */
Test(validate, a_writable_bind_of_another_repositorys_hooks_path_is_refused)
{
	char src[256], proj[256], cmd[600];
	FILE *f;

	make_repo("other");
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/other/tools/hooks %s/proj", dir,
		 dir);
	cr_assert_eq(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s/other/.git/config", dir);
	f = fopen(cmd, "w");
	cr_assert_not_null(f);
	fputs("[core]\n\thooksPath = tools/hooks\n", f);
	fclose(f);
	snprintf(proj, sizeof(proj), "%s/proj", dir);
	snprintf(src, sizeof(src), "%s/other/tools", dir);
	p.project = strdup(proj);
	add_mount(LTD_UM_BIND, src, "/x", "bind");
	cr_assert_eq(ltd_run_check(&p, &prot, &err), -EPERM, "accepted");
	cr_assert(strstr(err.msg, "--bind"), "%s", err.msg);
	cr_assert(strstr(err.msg, "/other/.git/config"), "%s", err.msg);
}
