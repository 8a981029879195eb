// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `ltd-native run`: resolve the policy against the host (ltd_run_resolve),
 * then run the launcher's steps (runtime/launch.c), supervise the cage
 * (runtime/supervise.c), and report what the post-run checks find.  The
 * launcher never enters the cage; the outcome goes back to the CLI, which
 * says it and picks the exit status.
 */
#include "runtime/run.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agents/agents.h"
#include "common/cleanup.h"
#include "common/path.h"
#include "common/text.h"
#include "policy/env.h"
#include "protect/agentinstr.h"
#include "protect/agentstate.h"
#include "protect/gitindex.h"
#include "protect/protect.h"
#include "protect/repos.h"
#include "protect/sequencer.h"
#include "runtime/cage.h"
#include "runtime/hostuser.h"
#include "runtime/launch.h"
#include "runtime/rootfs.h"
#include "runtime/state.h"
#include "runtime/testhooks.h"

int ltd_run_check(struct ltd_policy *p, struct ltd_protected *prot,
		  struct ltd_err *err)
{
	int ret = ltd_policy_validate(p, ltd_host_user(), err);

	ltd_protected_free(prot);
	if (!ret)
		ret = ltd_protect_project(p, prot, err);
	/* What the tier and the seam add, then what the command and the
	 * agents need from the host (the seam's URL is known by then): all
	 * of it judged with the user's binds below. */
	if (!ret)
		ret = ltd_policy_derive(p, err);
	if (!ret)
		ret = ltd_agents_derive(p, err);
	if (!ret)
		ret = ltd_policy_validate_binds(p, err);
	if (!ret)
		ret = ltd_protect_binds(p, prot, err);
	return ret;
}

int ltd_run_resolve(struct ltd_policy *p, struct ltd_run_host *h,
		    struct ltd_err *err)
{
	struct ltd_host_facts f = {.pasta_ok = true};
	int ret = ltd_run_check(p, &h->protected, err);

	if (!ret)
		ret = ltd_cgroup_probe(&h->cg, err);
	/* One that cannot be read acknowledges nothing: the warnings are
	 * said, as before. */
	if (!ret) {
		struct ltd_err why = {0};

		if (ltd_acks_load(&h->acks, &why) < 0)
			h->acks.n = 0;
	}
	if (!ret && p->network == LTD_NET_ALLOWLIST) {
		struct ltd_err why = {0};

		f.pasta_ok = ltd_pasta_find(&h->pasta, &why) == 0;
		memcpy(h->pasta_why, why.msg, sizeof(h->pasta_why));
		f.pasta_why = h->pasta_why;
	}
	if (!ret && p->rootfs)
		ret = ltd_rootfs_load(p, &h->pinned, &h->rootfs_lock,
				      &f.rootfs_has_shell, err);
	if (!ret)
		ret = ltd_policy_decide(p, &f, err);
	/* pasta would say nothing of a host port it cannot listen on. */
	if (!ret && p->network == LTD_NET_ALLOWLIST)
		ret = ltd_pasta_check_publish(p->publish, p->n_publish, err);
	return ret;
}

void ltd_run_host_end(struct ltd_run_host *h)
{
	ltd_pasta_stop(&h->pasta);
	ltd_closep(&h->rootfs_lock);
	h->rootfs_lock = -1;
}

/* The index of the project's own git directory, which the walk below
 * does not judge (protected, but its index the command may write): a
 * path in it git would refuse goes aside (protect/gitindex.h). */
static void own_index(FILE *out, const char *project, bool root_was_gitdir,
		      struct timespec since)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS,
	};
	_cleanup_close_ int proj =
		(int)syscall(SYS_openat2, AT_FDCWD, project, &how, sizeof(how));
	_cleanup_close_ int git = -1;
	char shown[PATH_MAX];

	if (proj < 0)
		return;
	if (root_was_gitdir)
		ltd_gitindex_judge(out, proj, project, since);
	how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
		      RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV;
	git = (int)syscall(SYS_openat2, proj, ".git", &how, sizeof(how));
	if (git >= 0 &&
	    ltd_path_fmt(shown, sizeof(shown), "%s/.git", project) == 0)
		ltd_gitindex_judge(out, git, shown, since);
}

/* A writable bind of the user's the walk looks in (the tiers' own state
 * binds are ltd-native's choice of place, not the user's). */
static bool walked_bind(const struct ltd_user_mount *m)
{
	struct stat st;

	return m->kind == LTD_UM_BIND && !m->derived && m->src &&
	       stat(m->src, &st) == 0 && S_ISDIR(st.st_mode);
}

int ltd_run_walk_dir(const struct ltd_policy *p)
{
	/* A review run with no bind of its own needs none. */
	if (!p->protect_git || (p->review && !p->n_mounts))
		return -1;
	return ltd_state_walk_dir(p);
}

void ltd_run_prime_walks(const struct ltd_policy *p, int index)
{
	struct timespec t0, t1;
	long ms;

	if (index < 0)
		return;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!p->review)
		ltd_repos_prime(p->project, index);
	for (size_t i = 0; i < p->n_mounts; i++)
		if (walked_bind(&p->mounts[i]))
			ltd_repos_prime(p->mounts[i].src, index);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* A big tree's first run waits for it, silently otherwise (18 s
	 * for 200,000 directories from a cold cache: the second attacker's
	 * review). */
	ms = (t1.tv_sec - t0.tv_sec) * 1000 +
	     (t1.tv_nsec - t0.tv_nsec) / 1000000;
	if (ms >= 1000 && !p->quiet)
		fprintf(stderr,
			"ltd-native: note: the first run here: its directories "
			"read once, in %ld.%ld s, so that what the command "
			"changes can be told at its end; later runs read only "
			"those that changed\n",
			ms / 1000, ms % 1000 / 100);
}

/* Git repositories the command planted or changed where it could write:
 * the project, and each directory the user bound writable. */
static void report_repos(FILE *out, const struct ltd_policy *p,
			 bool root_was_gitdir, struct timespec since,
			 const struct ltd_review_run *review, int index)
{
	/* The project's top: its places are protected, its instruction
	 * files judged by agentinstr.c. */
	unsigned skip = LTD_REPOS_SKIP_ROOT_GIT | LTD_REPOS_SKIP_ROOT_AGENT |
			(root_was_gitdir ? LTD_REPOS_SKIP_ROOT : 0);
	/* The walk's index (decision 0129), for the project's bind and the
	 * user's: @index, opened before the run (ltd_run_walk_dir()). */
	/* --review: what the command wrote is all in the upper, judged
	 * since the review began (it lands only by apply). */
	if (p->review) {
		ltd_repos_report_upper(
			out, review->layers.path[LTD_LAYER_UPPER], p->project,
			skip, review->meta.began, NULL);
	} else {
		own_index(out, p->project, root_was_gitdir, since);
		ltd_repos_report(out, p->project, skip, since, NULL, index);
	}
	for (size_t i = 0; i < p->n_mounts; i++)
		if (walked_bind(&p->mounts[i]))
			ltd_repos_report(out, p->mounts[i].src, 0, since, NULL,
					 index);
}

/* What the cage wrote, read once nothing in it can run any more, said
 * after a plain-text reset of the terminal (the command's last output may
 * have left it hiding what comes next). */
static void report(struct ltd_launch *l)
{
	const struct ltd_policy *p = l->p;
	const struct ltd_protected *prot = &l->host->protected;
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	if (!out)
		out = stderr;
	if (l->protected_before) {
		_cleanup_free_ struct ltd_protected_id *after =
			ltd_protected_ids(prot);

		ltd_protected_quarantine(out, prot, l->protected_before, after);
		ltd_protected_report(out, prot, l->protected_before, after);
	}
	if (p->protect_git)
		report_repos(out, p, l->root_was_gitdir, l->started, l->review,
			     l->walk_dir);
	/* --review: .git's sequencer state stays in the upper (apply holds
	 * it back); the project's is the user's own. */
	if (p->protect_git && !p->review)
		ltd_sequencer_report(out, p->project, l->started);
	/* The agents' instructions, made links to a file of the user's (a
	 * review holds back what the command made in the project). */
	if (!p->review)
		ltd_agentinstr_report(out, p->project, l->instr_before);
	/* The agents' state outside the project: no review holds it. */
	for (size_t i = 0; i < p->n_mounts; i++) {
		const struct ltd_user_mount *m = &p->mounts[i];

		if ((m->state & LTD_STATE_CLAUDE_READS) && m->src)
			ltd_agentstate_report(out, m->src,
					      LTD_AGENTSTATE_CLAUDE_PROJECT,
					      l->started);
		if ((m->state & LTD_STATE_SHARED_AUTH) && m->src)
			ltd_agentstate_report(out, m->src, LTD_AGENTSTATE_AUTH,
					      l->started);
	}
	if (p->review)
		ltd_review_summary(out, l->review, p, ltd_host_user());
	ltd_life_report(&l->life, out);
	if (l->dns_on) {
		/* The command has ended: what it was refused is queued. */
		ltd_nflog_drain(&l->nflog);
		ltd_dnsproc_finish(&l->dns, out);
		ltd_nflog_summary(&l->nflog, out);
		ltd_nflog_audit_totals(&l->nflog);
	}
	if (out != stderr && fclose(out) == 0 && len) {
		ltd_term_plain(stderr);
		fwrite(text, 1, len, stderr);
	}
}

void ltd_launch_end(struct ltd_launch *l)
{
	ltd_life_finish(&l->life);
	/* pasta does not end with the namespace's last process. */
	ltd_pasta_stop(&l->host->pasta);
	ltd_cagens_close(&l->ns);
	/* The cgroup can go only once init has: here (and only here) the
	 * launcher waits for it. */
	if (l->cg.cage[0]) {
		ltd_launch_cage_gone(l);
		ltd_cgroup_destroy(&l->cg, getpid());
	}
	ltd_dnsproc_stop(&l->dns);
	ltd_nflog_close(&l->nflog);
	if (l->dns_cfg.audit)
		fclose(l->dns_cfg.audit);
	ltd_closep(&l->sv[0]);
	ltd_closep(&l->sv[1]);
	ltd_closep(&l->self_pidfd);
	/* A review's locks outlive its overlay (decision 0125). */
	if (l->p->review)
		ltd_launch_cage_gone(l);
	ltd_closep(&l->init_pidfd);
	ltd_closep(&l->walk_dir);
	if (l->review)
		ltd_review_end(l->review);
	/* l->nft, plan, ll, envp and protected_before: decision 0132. */
}

/* What init's last word means for the CLI. */
static void result_of(const struct ltd_outcome *out, struct ltd_run_result *res)
{
	res->cmd_exited = out->cmd_exited;
	res->cmd_status = out->cmd_status;
	if (out->type == 0 && out->init_status) {
		res->end = LTD_RUN_KILLED;
		res->status = out->init_status;
		return;
	}
	switch (out->type) {
	case LTD_MSG_EXITED:
		res->end = LTD_RUN_EXITED;
		res->status = out->value;
		return;
	case LTD_MSG_EXEC_ERROR:
		res->end = LTD_RUN_EXEC_FAILED;
		res->err = out->err;
		return;
	default:
		res->end = LTD_RUN_FAILED;
		res->in_cage = true;
		res->err = out->err;
	}
}

/* Supervise, then report: only once nothing of the cage can run.  After
 * EXITED, init has killed and reaped all its children (its own exit costs
 * ~0.2 ms, not waited for then).  Processes joined from outside (`exec`
 * into a named cage, or through the namespaces a launcher got by
 * --info-fd/--json-status-fd) are not its children: only init's own exit,
 * which waits for every task of the pid namespace, says they are gone.  So
 * on those runs, and on any other way here, init is killed and reaped
 * first. */
static int run_cage(struct ltd_launch *l, struct ltd_err *err)
{
	const struct ltd_policy *p = l->p;
	int ret;

	ltd_test_stop_at("launcher", "supervise");
	ret = ltd_launch_supervise(l, err);
	/* The cage is gone (or going): pasta's exit runs beside the checks
	 * below; it is reaped in ltd_launch_end(). */
	ltd_pasta_kill(&l->host->pasta);

	/* First the terminal back, then anything else we have to say. */
	if (!ret && l->out.type == LTD_MSG_EXITED)
		ltd_life_ended(&l->life, l->out.value);
	else if (!ret && l->out.init_status)
		ltd_life_ended(&l->life, l->out.init_status);
	ltd_life_finish(&l->life);
	if (ret || l->out.type != LTD_MSG_EXITED || p->name ||
	    p->status_fd >= 0 || p->info_fd >= 0)
		ltd_launch_cage_gone(l);
	/* --review, after EXITED: init has killed and reaped every process
	 * of the cage, so nothing writes through the overlay any more; the
	 * upper is read (and perhaps removed) while init's exit unmounts it
	 * on the other CPU, and the review's locks are let go only once
	 * init is gone (ltd_launch_end()). */
	else if (p->review)
		ltd_launch_cage_kill(l);
	/* Whatever ended the run, the cage ran: its writes are judged. */
	ltd_test_stop_at("launcher", "report");
	report(l);
	return ret;
}

void ltd_run(const struct ltd_policy *p, struct ltd_run_host *h,
	     char **launcher_argv, struct ltd_run_result *res)
{
	struct ltd_launch l = LTD_LAUNCH_INIT(p, h, launcher_argv);
	int ret;

	*res = (struct ltd_run_result){.end = LTD_RUN_FAILED};
	ret = ltd_steps_run(ltd_launch_steps, &l, ltd_test_before_launch,
			    &res->err);
	if (!ret)
		ret = run_cage(&l, &res->err);
	else
		ltd_launch_cage_gone(&l); /* a step after clone failed */
	ltd_launch_end(&l);
	if (!ret)
		result_of(&l.out, res);
}
