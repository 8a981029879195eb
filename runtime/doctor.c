// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `ltd-native doctor`: the probes.  Each tries the real thing where it can
 * (a user namespace, the very firewall batch a run would send, in a
 * throwaway user+network namespace) rather than guessing from versions.
 * Nothing here changes the host: the namespaces die with their child.
 */
#include "runtime/doctor.h"
#include "runtime/dnsproc.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/text.h"
#include "confine/landlock.h"
#include "netfilter/nft.h"
#include "netfilter/pasta.h"
#include "netfilter/ruleset.h"
#include "review/overlay.h"
#include "review/run.h"
#include "review/store.h"
#include "runtime/landlock_rules.h"
#include "runtime/limits.h"
#include "runtime/standing.h"

static long read_sysctl(const char *path)
{
	char buf[32] = "";
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || read(fd, buf, sizeof(buf) - 1) <= 0)
		return -1;
	return strtol(buf, NULL, 10);
}

static int write_proc(const char *path, const char *text)
{
	_cleanup_close_ int fd = open(path, O_WRONLY | O_CLOEXEC);
	size_t len = strlen(text);

	return fd >= 0 && write(fd, text, len) == (ssize_t)len ? 0 : -1;
}

/*
 * Run @fn in a child that first enters new namespaces (@flags); its error
 * message comes back through a pipe.  Returns 0 or the child's errno.
 */
static int in_child(int flags, int (*fn)(struct ltd_err *), char *msg,
		    size_t size)
{
	struct ltd_err err = {0};
	int pfd[2], status;
	ssize_t n;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC) < 0)
		return errno;
	pid = fork();
	if (pid < 0)
		return errno;
	if (pid == 0) {
		int ret = 0;

		close(pfd[0]);
		if (flags && unshare(flags) < 0)
			ret = ltd_err_sys(&err, "unshare");
		if (!ret && fn)
			ret = fn(&err);
		if (ret < 0)
			(void)!write(pfd[1], &err, sizeof(err));
		_exit(ret < 0 ? 1 : 0);
	}
	close(pfd[1]);
	n = read(pfd[0], &err, sizeof(err));
	close(pfd[0]);
	waitpid(pid, &status, 0);
	if (n == (ssize_t)sizeof(err)) {
		err.msg[sizeof(err.msg) - 1] = '\0';
		snprintf(msg, size, "%s", err.msg);
		return err.code ? err.code : EIO;
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : EIO;
}

static void check_userns(struct ltd_check *c)
{
	struct ltd_userns_facts f = {
		.unprivileged_userns_clone = read_sysctl(
			"/proc/sys/kernel/unprivileged_userns_clone"),
		.max_user_namespaces =
			read_sysctl("/proc/sys/user/max_user_namespaces"),
		.apparmor_restrict =
			read_sysctl("/proc/sys/kernel/"
				    "apparmor_restrict_unprivileged_userns"),
	};
	char msg[LTD_ERR_MSG_MAX];

	f.unshare_errno = in_child(CLONE_NEWUSER, NULL, msg, sizeof(msg));
	ltd_doctor_userns(&f, c);
}

/* Read before unshare: inside an unmapped namespace getuid() says 65534. */
static uid_t outer_uid;

/* In the child, in a new user+net namespace: map ourselves, then send
 * the firewall batch an allowlist run sends. */
static int try_firewall(struct ltd_err *err)
{
	struct ltd_nft_spec spec = {0};
	struct ltd_nft_batch b = {0};
	struct ltd_net_dest dns;
	char map[64];
	int ret;

	snprintf(map, sizeof(map), "%u %u 1", (unsigned)outer_uid,
		 (unsigned)outer_uid);
	if (write_proc("/proc/self/setgroups", "deny") < 0 ||
	    write_proc("/proc/self/uid_map", map) < 0)
		return ltd_err_sys(err, "uid_map");
	/* One element, as an --allow-cidr gives (TEST-NET-1: reaches
	 * nothing), so that the interval set is exercised too. */
	ret = ltd_cidr_dest_parse("192.0.2.0/24:443", "doctor", &dns, err);
	if (ret < 0)
		return ret;
	spec.dests = &dns;
	spec.n_dests = 1;
	inet_pton(AF_INET, LTD_NET_GW4, &spec.gw4);
	inet_pton(AF_INET6, LTD_NET_GW6, &spec.gw6);
	ret = ltd_nft_build(&spec, &b, err);
	if (!ret)
		ret = ltd_nft_send(-1, &b, err);
	ltd_nft_batch_free(&b);
	return ret;
}

static void check_nft(struct ltd_check *c, bool userns_ok)
{
	char msg[LTD_ERR_MSG_MAX] = "";
	int e;

	c->name = "nftables in userns";
	c->required = true;
	c->network = true;
	if (!userns_ok) {
		snprintf(c->detail, sizeof(c->detail),
			 "not tried: no user namespaces");
		return;
	}
	outer_uid = getuid();
	e = in_child(CLONE_NEWUSER | CLONE_NEWNET, try_firewall, msg,
		     sizeof(msg));
	c->ok = e == 0;
	if (c->ok)
		snprintf(c->detail, sizeof(c->detail),
			 "the egress firewall batch loads in a throwaway "
			 "user+network namespace");
	else {
		snprintf(c->detail, sizeof(c->detail), "%s",
			 msg[0] ? msg : strerror(e));
		snprintf(c->fix, sizeof(c->fix),
			 "a kernel with nf_tables (CONFIG_NF_TABLES, "
			 "CONFIG_NF_TABLES_INET, CONFIG_NFT_REJECT)");
	}
}

/* The first line @argv prints on stdout (its stderr to /dev/null), into
 * @buf; "" when it cannot run or says nothing.  No shell: a path of the
 * host's is an argument, not a word to quote. */
static void first_line(char *const argv[], char *buf, size_t size)
{
	int p[2];
	pid_t pid;
	FILE *f;

	buf[0] = '\0';
	if (pipe2(p, O_CLOEXEC) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		if (dup2(p[1], 1) < 0 || (null >= 0 && dup2(null, 2) < 0))
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	f = pid > 0 ? fdopen(p[0], "r") : NULL;
	if (!f)
		close(p[0]);
	if (f && fgets(buf, (int)size, f))
		buf[strcspn(buf, "\n")] = '\0';
	if (f)
		fclose(f);
	if (pid > 0)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
}

/*
 * pasta's version as it says it, or, where its build names none (Debian
 * 12's passt says "pasta unknown version"), as dpkg knows the package
 * that owns it ("passt: /usr/bin/pasta").
 */
static void pasta_version(const char *path, char *buf, size_t size)
{
	char said[128], owner[PATH_MAX + 64] = "", pkgver[128] = "";
	char *end;

	first_line((char *const[]){(char *)path, "--version", NULL}, said,
		   sizeof(said));
	if (ltd_doctor_pasta_unversioned(said)) {
		first_line((char *const[]){"dpkg-query", "--search",
					   (char *)path, NULL},
			   owner, sizeof(owner));
		/* "passt: /usr/bin/pasta" ("passt:amd64: ..." multi-arch);
		 * a diversion's or several packages' line is no owner. */
		end = strstr(owner, ": ");
		if (end)
			*end = '\0';
		if (!end || !owner[0] || strpbrk(owner, " ,"))
			owner[0] = '\0';
		else
			first_line((char *const[]){"dpkg-query", "--show",
						   "--showformat=${Version}",
						   owner, NULL},
				   pkgver, sizeof(pkgver));
	}
	ltd_doctor_pasta_version(said, owner, pkgver, buf, size);
}

/* The run's own checks (ltd_pasta_find's two halves), so that doctor
 * says what the run's warning says. */
static void check_pasta(struct ltd_check *c)
{
	struct ltd_pasta pa = {.ready_fd = -1};
	struct ltd_err err = {0};
	char version[256] = "";
	char tun[200] = "";

	if (ltd_pasta_locate(&pa, &err) < 0)
		pa.path[0] = '\0';
	if (pa.path[0]) {
		pasta_version(pa.path, version, sizeof(version));
		ltd_pasta_tun_check(tun, sizeof(tun));
	}
	ltd_doctor_pasta(pa.path, version, tun, c);
}

/* A default run (allowlist mode) stops without its DNS filter. */
static void check_dnsd(struct ltd_check *c)
{
	struct ltd_err err = {0};
	char path[PATH_MAX];
	int fd = ltd_dnsproc_find(path, sizeof(path), &err);

	c->name = "DNS filter";
	c->required = true;
	c->network = true;
	c->ok = fd >= 0;
	if (c->ok) {
		close(fd);
		snprintf(c->detail, sizeof(c->detail), "ltd-dnsd at %.1000s",
			 path);
		return;
	}
	snprintf(c->detail, sizeof(c->detail), "%s", err.msg);
	snprintf(c->fix, sizeof(c->fix),
		 "make install (ltd-dnsd in PREFIX/libexec/ltd-native), or "
		 "build/ltd-dnsd beside the (resolved) ltd-native; writable "
		 "by you or root only");
}

/* The cgroup line, and the standing warning a default run says without
 * one (@w; its key empty when there is none). */
static void check_cgroup(struct ltd_check *c, struct ltd_standing *w)
{
	struct ltd_policy p;
	struct ltd_cg_facts f;
	struct ltd_limits_plan pl;
	struct ltd_err err = {0};
	char text[LTD_ERR_MSG_MAX + LTD_CG_PATH_MAX], facts[LTD_STANDING_FACT];

	c->name = "cgroup delegation";
	c->required = false;
	ltd_policy_init(&p);
	if (ltd_cgroup_probe(&f, &err) < 0 ||
	    ltd_limits_decide(&p, &f, &pl, &err) < 0) {
		snprintf(c->detail, sizeof(c->detail), "%s", err.msg);
		return;
	}
	c->ok = pl.cgroup;
	if (c->ok) {
		snprintf(c->detail, sizeof(c->detail),
			 "memory cpu pids at %s: --memory, --cpus and "
			 "--pids-limit hold for the whole cage",
			 f.dir);
		return;
	}
	snprintf(c->detail, sizeof(c->detail),
		 "%s; runs fall back to rlimits (memory per process, pids %s, "
		 "no CPU bound)",
		 pl.missing, f.nproc_per_userns ? "per cage" : "unbounded");
	snprintf(c->fix, sizeof(c->fix),
		 "a cgroup v2 host (systemd.unified_cgroup_hierarchy=1) and "
		 "'systemd-run --user --scope -p Delegate=yes ltd-native "
		 "run ...'");
	if (ltd_limits_warning(&p, &pl, text, sizeof(text))) {
		ltd_standing_cgroup_facts(&f, facts, sizeof(facts));
		ltd_standing_set(w, "cgroup", facts, text);
	}
}

/* The Landlock line (@abi: the kernel's, or a test's lower one), and the
 * standing warning a default run says about it (@w). */
static void check_landlock(struct ltd_check *c, int abi, struct ltd_standing *w)
{
	struct ltd_policy p;
	struct ltd_err err = {0};
	char text[LTD_ERR_MSG_MAX], facts[32];

	c->name = "Landlock";
	c->required = false;
	c->ok = abi > 0;
	ltd_policy_init(&p);
	if (ltd_landlock_decide(&p, abi, text, sizeof(text), &err) == 0 &&
	    text[0]) {
		snprintf(facts, sizeof(facts), "abi %d", abi);
		ltd_standing_set(w, "landlock", facts, text);
	}
	if (c->ok) {
		snprintf(c->detail, sizeof(c->detail), "ABI %d%s", abi,
			 abi >= 6   ? " (pasta walled to the policy's TCP "
				      "ports; abstract sockets scoped for "
				      "--network host)"
			 : abi >= 4 ? " (pasta walled to the policy's TCP "
				      "ports)"
				    : " (no TCP port rules: pasta unwalled)");
		return;
	}
	snprintf(c->detail, sizeof(c->detail),
		 "not available: runs go on without the second wall");
	snprintf(c->fix, sizeof(c->fix),
		 "a kernel with CONFIG_SECURITY_LANDLOCK and landlock in "
		 "lsm= on its command line");
}

static void check_seccomp(struct ltd_check *c)
{
	c->name = "seccomp";
	c->required = true;
	/* PR_GET_SECCOMP fails with EINVAL on a kernel without it. */
	c->ok = prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 &&
		access("/proc/sys/kernel/seccomp/actions_avail", R_OK) == 0;
	snprintf(c->detail, sizeof(c->detail), "%s",
		 c->ok ? "filter mode available" : "not available");
	if (!c->ok)
		snprintf(c->fix, sizeof(c->fix),
			 "a kernel with CONFIG_SECCOMP_FILTER");
}

/* --review: a rootless overlay, its upper on the reviews' filesystem. */
static void check_review(struct ltd_check *c, bool userns_ok)
{
	struct ltd_err err = {0};
	char dir[PATH_MAX];
	struct utsname u;

	c->name = "review mode";
	c->required = false;
	if (uname(&u) == 0 && !ltd_review_kernel_ok(u.release)) {
		snprintf(c->detail, sizeof(c->detail),
			 "Linux %.64s has no rootless overlayfs", u.release);
		snprintf(c->fix, sizeof(c->fix), "Linux 5.11 or later");
		return;
	}
	if (!userns_ok) {
		snprintf(c->detail, sizeof(c->detail),
			 "needs user namespaces (above)");
		return;
	}
	c->ok = ltd_reviews_probe_dir(dir, sizeof(dir), &err) == 0 &&
		ltd_overlay_probe(dir, &err) == 0;
	if (c->ok) {
		snprintf(c->detail, sizeof(c->detail),
			 "--review works: a rootless overlay mounts on the "
			 "filesystem of %.900s, where the reviews will be kept",
			 dir);
		return;
	}
	snprintf(c->detail, sizeof(c->detail), "--review will not run: %s",
		 err.msg);
	/* The store could not be made, or the overlay would not mount. */
	if (err.code == EACCES || err.code == EPERM || err.code == ENOENT ||
	    err.code == ENOTDIR || err.code == EROFS)
		snprintf(c->fix, sizeof(c->fix),
			 "XDG_STATE_HOME (or ~/.local/state) naming a "
			 "directory you can create and write");
	else
		snprintf(c->fix, sizeof(c->fix),
			 "a kernel with CONFIG_OVERLAY_FS, and XDG_STATE_HOME "
			 "on a filesystem with user xattrs (ext4, xfs, btrfs, "
			 "tmpfs)");
}

/*
 * Which of the standing warnings @w (runtime/standing.h) the user
 * acknowledged, into @acked; with --acknowledge, all of them, recorded
 * first (the file that makes runs quiet about them).  An unreadable file
 * acknowledges nothing: @note says why ("" otherwise).
 */
static int acknowledged(const struct ltd_standing *w, size_t n,
			bool acknowledge, bool *acked, char *note, size_t size,
			struct ltd_err *err)
{
	struct ltd_acks acks = {0};
	int ret;

	note[0] = '\0';
	if (acknowledge) {
		ret = ltd_acks_store(w, n, err);
		if (ret < 0)
			return ret;
		if (!n)
			snprintf(note, size,
				 "acknowledged: nothing (runs here have no "
				 "standing warning)");
	} else if (ltd_acks_load(&acks, err) < 0) {
		snprintf(note, size,
			 "acknowledged: %s (ignored: runs say every warning)",
			 err->msg);
		acks.n = 0;
	}
	for (size_t i = 0; i < n; i++)
		acked[i] = acknowledge || ltd_acks_cover(&acks, &w[i]);
	return 0;
}

int ltd_doctor(const struct ltd_doctor_opts *o)
{
	struct ltd_check c[8] = {0};
	struct ltd_standing w[2] = {0};
	const char *of[2] = {"cgroup delegation", "Landlock"};
	struct ltd_doctor_warning dw[2];
	struct ltd_err err = {0};
	char note[LTD_ERR_MSG_MAX + 64];
	bool acked[2] = {false, false};
	int abi = ltd_landlock_abi(), ret;
	size_t n = 0;

	if (o->test_landlock_abi >= 0 && o->test_landlock_abi < abi)
		abi = o->test_landlock_abi;
	check_userns(&c[0]);
	check_seccomp(&c[1]);
	check_pasta(&c[2]);
	check_dnsd(&c[3]);
	check_nft(&c[4], c[0].ok);
	check_cgroup(&c[5], &w[0]);
	check_landlock(&c[6], abi, &w[1]);
	check_review(&c[7], c[0].ok);
	/* Those that are set, in order. */
	for (size_t i = 0; i < 2; i++)
		if (w[i].key[0]) {
			of[n] = of[i];
			w[n++] = w[i];
		}
	ret = acknowledged(w, n, o->acknowledge, acked, note, sizeof(note),
			   &err);
	for (size_t i = 0; i < n; i++)
		dw[i] = (struct ltd_doctor_warning){of[i], &w[i], acked[i]};
	ltd_doctor_print(stdout, c, 8, dw, n, o->json);
	if (ret < 0) {
		ltd_err_print(&err);
		return LTD_DOCTOR_ACK_FAILED;
	}
	if (note[0] && !o->json) {
		ltd_fput_shown(stdout, note);
		fputc('\n', stdout);
	}
	return ltd_doctor_status(c, 8);
}
