// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The project's .git in a review: what a commit made inside leaves lands
 * only as new objects, a fast-forward of a branch, a new tag and HEAD
 * (docs/decisions/0126-review-git.md).  git on the host judges what only
 * git knows (is this commit a descendant of that one), with the upper's
 * objects as an alternate object directory: nothing is written, no hook
 * runs (merge-base, rev-parse and cat-file run none).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/path.h"
#include "review/fs.h"
#include "review/held.h"

struct gitctx {
	char git_dir[4096];
	char alt[4096 + 32]; /* GIT_ALTERNATE_OBJECT_DIRECTORIES=... */
	bool alt_ok;	     /* the upper's .git/objects is a directory */
	bool no_git;	     /* git cannot be run */
};

static const char why_no_git[] = "git is not there to check it";
static const char why_not_ff[] = "not a fast-forward of the project's branch";
static const char why_tag[] = "a tag the project has";
static const char why_bad_ref[] = "not a ref git would read (an object id)";
static const char why_missing[] = "names an object neither the project nor "
				  "the review holds";
static const char why_head[] = "HEAD names neither a branch nor an object";

/*
 * Run git with @args after the common ones, its stdout (the first line)
 * into @out.  The environment is git's own and nothing else of ours:
 * PATH and HOME for git to be found and read the user's config, GIT_DIR
 * the project's, the alternates when @alt.  Returns git's exit status, or
 * -1 when it could not run.
 */
static int run_git(struct gitctx *g, bool alt, const char *const *args,
		   char *out, size_t size)
{
	const char *path = getenv("PATH"), *home = getenv("HOME");
	char env_path[4096], env_home[4096], env_dir[4096 + 8];
	char *envp[8] = {0}, *argv[16];
	int pfd[2], status, n_env = 0, argc = 0;
	ssize_t n = 0, r;
	pid_t pid;

	snprintf(env_path, sizeof(env_path), "PATH=%s",
		 path ? path : "/usr/bin:/bin");
	envp[n_env++] = env_path;
	if (home) {
		snprintf(env_home, sizeof(env_home), "HOME=%s", home);
		envp[n_env++] = env_home;
	}
	snprintf(env_dir, sizeof(env_dir), "GIT_DIR=%s", g->git_dir);
	envp[n_env++] = env_dir;
	envp[n_env++] = "GIT_TERMINAL_PROMPT=0";
	envp[n_env++] = "GIT_OPTIONAL_LOCKS=0";
	if (alt && g->alt_ok)
		envp[n_env++] = g->alt;
	argv[argc++] = "git";
	for (size_t i = 0; args[i] && argc < 15; i++)
		argv[argc++] = (char *)args[i];
	argv[argc] = NULL;
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);

		if (null < 0 || dup2(null, 0) < 0 || dup2(pfd[1], 1) < 0 ||
		    dup2(null, 2) < 0)
			_exit(127);
		execvpe("git", argv, envp);
		_exit(127);
	}
	close(pfd[1]);
	while (size && (r = read(pfd[0], out + n, size - 1 - (size_t)n)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || (size_t)(n += r) >= size - 1)
			break;
	}
	close(pfd[0]);
	if (size) {
		out[n] = '\0';
		out[strcspn(out, "\n")] = '\0';
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	if (WEXITSTATUS(status) == 127)
		g->no_git = true;
	return WEXITSTATUS(status);
}

/* The upper's file @rel (a ref, HEAD): its first line, at most 255. */
static int read_small(int upper, const char *rel, char *buf, size_t size)
{
	_cleanup_close_ int fd =
		ltd_beneath(upper, rel, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
	struct stat st;
	ssize_t n;

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return -1;
	n = read(fd, buf, size - 1);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	if (n == (ssize_t)size - 1 && !strchr(buf, '\n'))
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static bool object_id(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	return s[n] == '\0' && (n == 40 || n == 64);
}

/* The object @id is in the project or the review. */
static bool has_object(struct gitctx *g, const char *id)
{
	const char *args[] = {"cat-file", "-e", id, NULL};

	return run_git(g, true, args, NULL, 0) == 0;
}

/* A branch (refs/heads, refs/remotes) or a tag: its new value @id. */
static const char *judge_ref(struct gitctx *g, const char *ref, const char *id)
{
	const char *get[] = {"rev-parse", "-q", "--verify", ref, NULL};
	char old[128] = "";
	int st;

	if (!object_id(id))
		return why_bad_ref;
	if (!has_object(g, id))
		return g->no_git ? why_no_git : why_missing;
	st = run_git(g, false, get, old, sizeof(old));
	if (st < 0 || g->no_git)
		return why_no_git;
	if (st != 0 || !old[0] || !strcmp(old, id))
		return NULL; /* new, or unchanged */
	if (!strncmp(ref, "refs/tags/", 10))
		return why_tag;
	{
		const char *ff[] = {"merge-base", "--is-ancestor", old, id,
				    NULL};

		st = run_git(g, true, ff, NULL, 0);
	}
	return st == 0 ? NULL : g->no_git ? why_no_git : why_not_ff;
}

static const char *judge_head(struct gitctx *g, const char *text)
{
	if (!strncmp(text, "ref: refs/heads/", 16)) {
		const char *args[] = {"check-ref-format", text + 5, NULL};
		int st = run_git(g, false, args, NULL, 0);

		return st == 0 ? NULL : g->no_git ? why_no_git : why_head;
	}
	if (object_id(text))
		return has_object(g, text) ? NULL
		       : g->no_git	   ? why_no_git
					   : why_missing;
	return why_head;
}

void ltd_review_git_check(struct ltd_changes *c, const char *project,
			  const char *upper)
{
	struct gitctx *g = calloc(1, sizeof(*g));
	_cleanup_close_ int ufd = -1, objects = -1;

	if (!g)
		return;
	ufd = ltd_open_nofollow(upper, O_RDONLY | O_DIRECTORY);
	objects = ufd < 0 ? -1
			  : ltd_beneath(ufd, ".git/objects",
					O_PATH | O_DIRECTORY);
	if (ltd_path_fmt(g->git_dir, sizeof(g->git_dir), "%s/.git", project) ==
		    0 &&
	    ltd_path_fmt(g->alt, sizeof(g->alt),
			 "GIT_ALTERNATE_OBJECT_DIRECTORIES=%s/.git/objects",
			 upper) == 0)
		g->alt_ok = objects >= 0 && !strchr(upper, ':');
	for (size_t i = 0; i < c->n; i++) {
		struct ltd_change *x = &c->v[i];
		const char *r = x->path + 5, *why = NULL;
		char text[256];

		if (!(x->flags & LTD_CHF_GIT) || !S_ISREG(x->mode))
			continue;
		if (strncmp(r, "refs/", 5) != 0 && strcmp(r, "HEAD") != 0)
			continue;
		if (ufd < 0 || read_small(ufd, x->path, text, sizeof(text)) < 0)
			why = why_bad_ref;
		else if (!strcmp(r, "HEAD"))
			why = judge_head(g, text);
		else
			why = judge_ref(g, r, text);
		if (why) {
			x->flags = (x->flags & ~LTD_CHF_GIT) | LTD_CHF_HELD;
			x->why = why;
		}
	}
	free(g);
}
