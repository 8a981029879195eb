// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seccomp/: the profile as text (golden file) and as behaviour (a forked
 * child loads the real filter and makes the real syscalls).  Needs no
 * privileges: no_new_privs is enough to load a filter.
 *
 * Criterion's workers are multi-threaded and a filter binds the thread that
 * loads it (and what it forks), so every behaviour test forks first and
 * loads the filter only in the child.  The filter is built in the parent,
 * as the launcher does ("compile before clone").
 *
 * Refreshing the golden file, when the profile changes on purpose:
 *
 *   LTD_UPDATE_GOLDEN=1 ./build/unit-tests --filter 'seccomp/golden_*'
 *   git diff tests/unit/golden/seccomp-enforce.pfc   # review every line
 *
 * and commit it together with the profile change.  Without the variable the
 * test compares byte for byte and fails on any difference.  The golden file
 * is libseccomp's output: a libseccomp upgrade that prints it differently
 * shows up here too; check that only the form changed, then refresh.
 */
#include <criterion/criterion.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/netlink.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "confine/seccomp.h"
#include "dnsd/seccomp_profile.h"
#include "runtime/dnsproc.h"
#include "tests/common/syscall_cases.h"

#ifndef LTD_GOLDEN_DIR
#define LTD_GOLDEN_DIR "tests/unit/golden"
#endif
#define GOLDEN_ENFORCE LTD_GOLDEN_DIR "/seccomp-enforce.pfc"

#define X32_BIT 0x40000000L

/* What the filtered child reports: the syscall's return value and errno. */
struct result {
	long ret;
	int err;
};

typedef long (*probe_fn)(const void *arg);

static void build(enum ltd_seccomp_mode mode, struct ltd_bpf *bpf)
{
	struct ltd_err err = {0};
	int ret = mode == LTD_SECCOMP_DNSD ? ltd_dnsd_seccomp_build(bpf, &err)
					   : ltd_seccomp_build(mode, bpf, &err);

	cr_assert_eq(ret, 0, "ltd_seccomp_build: %s", err.msg);
}

/*
 * Fork; in the child set no_new_privs, load @bpf, run @fn(@arg) and send
 * its result back.  Returns the child's wait status; @res is filled only if
 * the child got as far as reporting (*reported says so).
 */
static int run_filtered(const struct ltd_bpf *bpf, probe_fn fn, const void *arg,
			struct result *res, int *reported)
{
	struct ltd_err err = {0};
	struct result r;
	int pipefd[2];
	int status = 0;
	pid_t pid;

	cr_assert_eq(pipe2(pipefd, O_CLOEXEC), 0);
	pid = fork();
	cr_assert_geq(pid, 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		close(pipefd[0]);
		alarm(10); /* a hung probe must not hang the suite */
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
			_exit(100);
		if (ltd_seccomp_load(bpf, &err) < 0)
			_exit(101);
		errno = 0;
		r.ret = fn(arg);
		r.err = r.ret < 0 ? errno : 0;
		if (write(pipefd[1], &r, sizeof(r)) != sizeof(r))
			_exit(102);
		_exit(0);
	}
	close(pipefd[1]);
	*reported = read(pipefd[0], res, sizeof(*res)) == sizeof(*res);
	close(pipefd[0]);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	return status;
}

/* Run @fn under @mode's filter; the child must report normally. */
static struct result probe(enum ltd_seccomp_mode mode, probe_fn fn,
			   const void *arg)
{
	struct result res = {0};
	struct ltd_bpf bpf;
	int reported = 0;
	int status;

	build(mode, &bpf);
	status = run_filtered(&bpf, fn, arg, &res, &reported);
	ltd_bpf_free(&bpf);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "filtered child did not exit cleanly (status 0x%x)", status);
	cr_assert(reported, "filtered child reported nothing");
	return res;
}

static long do_call(const void *arg)
{
	const struct call *c = arg;

	return syscall(c->nr, c->a[0], c->a[1], c->a[2], c->a[3], c->a[4],
		       c->a[5]);
}

static void expect_calls(enum ltd_seccomp_mode mode, const struct call *calls,
			 size_t n)
{
	struct result r;
	size_t i;

	for (i = 0; i < n; i++) {
		r = probe(mode, do_call, &calls[i]);
		if (calls[i].want) {
			cr_expect_eq(r.ret, -1, "%s: returned %ld, not -1",
				     calls[i].name, r.ret);
			cr_expect_eq(r.err, calls[i].want,
				     "%s: errno %d (%s), want %d (%s)",
				     calls[i].name, r.err, strerror(r.err),
				     calls[i].want, strerror(calls[i].want));
		} else {
			cr_expect_geq(r.ret, 0, "%s: failed with %s",
				      calls[i].name, strerror(r.err));
		}
	}
}

/* ---- the text of the profile ---------------------------------------- */

static char *slurp_fd(int fd, size_t *len)
{
	struct stat st;
	char *buf;

	cr_assert_eq(fstat(fd, &st), 0);
	buf = calloc(1, st.st_size + 1);
	cr_assert_not_null(buf);
	cr_assert_eq(pread(fd, buf, st.st_size, 0), st.st_size);
	*len = st.st_size;
	return buf;
}

static char *pfc(enum ltd_seccomp_mode mode, size_t *len)
{
	struct ltd_err err = {0};
	int fd = memfd_create("pfc", MFD_CLOEXEC);
	char *text;

	cr_assert_geq(fd, 0);
	cr_assert_eq(ltd_seccomp_export_pfc(mode, fd, &err), 0,
		     "export_pfc: %s", err.msg);
	text = slurp_fd(fd, len);
	close(fd);
	return text;
}

Test(seccomp, golden_enforce_pfc)
{
	size_t len, glen;
	char *now = pfc(LTD_SECCOMP_ENFORCE, &len);
	char *golden;
	int fd;

	if (getenv("LTD_UPDATE_GOLDEN")) {
		fd = open(GOLDEN_ENFORCE, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		cr_assert_geq(fd, 0, "%s: %s", GOLDEN_ENFORCE, strerror(errno));
		cr_assert_eq(write(fd, now, len), (ssize_t)len);
		close(fd);
		cr_log_warn("rewrote %s: review the diff", GOLDEN_ENFORCE);
	}
	fd = open(GOLDEN_ENFORCE, O_RDONLY | O_CLOEXEC);
	cr_assert_geq(fd, 0,
		      "%s: %s (run from the repo root; create it with "
		      "LTD_UPDATE_GOLDEN=1)",
		      GOLDEN_ENFORCE, strerror(errno));
	golden = slurp_fd(fd, &glen);
	close(fd);

	/* Not vacuous: the golden file itself says what the profile is. */
	cr_assert(strstr(golden, "action KILL_PROCESS;"),
		  "golden: a foreign ABI must be killed");
	cr_assert(strstr(golden, "# default action\n  action ERRNO(38);"),
		  "golden: the default must be ENOSYS");
	cr_assert(strstr(golden, "0x7e020000 == 0"),
		  "golden: clone must check the namespace flags");

	cr_assert_eq(len, glen,
		     "the profile changed (%zu bytes, golden %zu): refresh "
		     "%s as the header of this file says",
		     len, glen, GOLDEN_ENFORCE);
	cr_assert(memcmp(now, golden, len) == 0,
		  "the profile changed: refresh %s as the header of this "
		  "file says",
		  GOLDEN_ENFORCE);
	free(now);
	free(golden);
}

Test(seccomp, log_mode_is_the_same_profile_without_refusals)
{
	size_t len;
	char *text = pfc(LTD_SECCOMP_LOG, &len);

	cr_expect_null(strstr(text, "ERRNO("), "LOG mode still refuses");
	cr_expect_null(strstr(text, "KILL"), "LOG mode still kills");
	cr_expect(strstr(text, "# default action\n  action LOG;"));
	cr_expect(strstr(text, "0x7e020000 == 0"), "not the same profile");
	free(text);
}

Test(seccomp, off_builds_an_empty_program)
{
	struct ltd_err err = {0};
	struct ltd_bpf bpf = {.insns = (void *)1, .len = 7};

	cr_assert_eq(ltd_seccomp_build(LTD_SECCOMP_OFF, &bpf, &err), 0);
	cr_expect_eq(bpf.len, 0);
	cr_expect_null(bpf.insns);
}

Test(seccomp, build_is_deterministic)
{
	struct ltd_bpf a, b;

	build(LTD_SECCOMP_ENFORCE, &a);
	build(LTD_SECCOMP_ENFORCE, &b);
	cr_assert_gt(a.len, 0);
	cr_assert_eq(a.len, b.len);
	cr_expect(memcmp(a.insns, b.insns, a.len * sizeof(*a.insns)) == 0);
	ltd_bpf_free(&a);
	ltd_bpf_free(&b);
	cr_expect_null(a.insns);
	cr_expect_eq(a.len, 0);
}

/*
 * libseccomp's PFC does not print its x32 check, so look for it in the BPF:
 * "syscall nr >= __X32_SYSCALL_BIT" must exist, and KILL_PROCESS must be a
 * return value.  The behaviour test below proves it works.
 */
Test(seccomp, bpf_rejects_x32_numbers)
{
	struct ltd_bpf bpf;
	int jge_x32 = 0, kill = 0;
	unsigned short i;

	build(LTD_SECCOMP_ENFORCE, &bpf);
	for (i = 0; i < bpf.len; i++) {
		const struct sock_filter *f = &bpf.insns[i];

		if (f->code == (BPF_JMP | BPF_JGE | BPF_K) && f->k == X32_BIT)
			jge_x32 = 1;
		if (f->code == (BPF_RET | BPF_K) &&
		    f->k == SECCOMP_RET_KILL_PROCESS)
			kill = 1;
	}
	ltd_bpf_free(&bpf);
	cr_expect(jge_x32, "no x32 check in the BPF");
	cr_expect(kill, "no KILL_PROCESS in the BPF");
}

/* ---- behaviour ------------------------------------------------------ */

static long seccomp_mode_of_self(const void *arg)
{
	char buf[4096];
	ssize_t n;
	char *p;
	int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strstr(buf, "\nSeccomp:");
	return p ? strtol(p + 9, NULL, 10) : -1;
}

Test(seccomp, loaded_filter_shows_in_proc_status)
{
	struct result r =
		probe(LTD_SECCOMP_ENFORCE, seccomp_mode_of_self, NULL);

	cr_expect_eq(r.ret, SECCOMP_MODE_FILTER);
	r = probe(LTD_SECCOMP_OFF, seccomp_mode_of_self, NULL);
	cr_expect_eq(r.ret, SECCOMP_MODE_DISABLED, "OFF must load nothing");
}

Test(seccomp, denied_syscalls_fail_with_their_errno)
{
	expect_calls(LTD_SECCOMP_ENFORCE, denied,
		     sizeof(denied) / sizeof(denied[0]));
}

Test(seccomp, socket_families)
{
	expect_calls(LTD_SECCOMP_ENFORCE, sockets,
		     sizeof(sockets) / sizeof(sockets[0]));
}

static long unix_socketpair(const void *arg)
{
	int sv[2];

	return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv);
}

Test(seccomp, socketpair_unix_allowed)
{
	struct result r = probe(LTD_SECCOMP_ENFORCE, unix_socketpair, NULL);

	cr_expect_eq(r.ret, 0, "socketpair(AF_UNIX): %s", strerror(r.err));
}

/* These must pass the filter: the kernel's own answer (EBADF) comes back. */
static const struct call allowed_ioctls[] = {
	{"ioctl(TIOCGWINSZ)", SYS_ioctl, {-1UL, TIOCGWINSZ, 0}, EBADF},
	{"ioctl(TIOCSWINSZ)", SYS_ioctl, {-1UL, TIOCSWINSZ, 0}, EBADF},
	{"ioctl(TCGETS)", SYS_ioctl, {-1UL, TCGETS, 0}, EBADF},
	{"ioctl(FIONBIO)", SYS_ioctl, {-1UL, FIONBIO, 0}, EBADF},
};

Test(seccomp, ordinary_ioctls_pass)
{
	expect_calls(LTD_SECCOMP_ENFORCE, allowed_ioctls,
		     sizeof(allowed_ioctls) / sizeof(allowed_ioctls[0]));
}

static const struct call allowed_personalities[] = {
	{"personality(query)", SYS_personality, {0xffffffff}, 0},
	{"personality(PER_LINUX)", SYS_personality, {0}, 0},
	{"personality(ADDR_NO_RANDOMIZE)", SYS_personality, {0x40000}, 0},
	{"personality(UNAME26)", SYS_personality, {0x20000}, 0},
};

Test(seccomp, common_personalities_pass)
{
	expect_calls(LTD_SECCOMP_ENFORCE, allowed_personalities,
		     sizeof(allowed_personalities) /
			     sizeof(allowed_personalities[0]));
}

/* fork through raw clone(2) without namespace flags, and through glibc. */
static long clone_and_reap(const void *arg)
{
	long flags = (long)(uintptr_t)arg;
	int status;
	long pid;

	pid = flags ? syscall(SYS_clone, flags, 0, 0, 0, 0) : fork();
	if (pid < 0)
		return -1;
	if (pid == 0)
		_exit(7);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -2;
}

Test(seccomp, fork_and_clone_without_namespaces_work)
{
	struct result r;

	r = probe(LTD_SECCOMP_ENFORCE, clone_and_reap, (void *)(uintptr_t)0);
	cr_expect_eq(r.ret, 7, "fork(): %ld (%s)", r.ret, strerror(r.err));
	r = probe(LTD_SECCOMP_ENFORCE, clone_and_reap,
		  (void *)(uintptr_t)SIGCHLD);
	cr_expect_eq(r.ret, 7, "clone(SIGCHLD): %ld (%s)", r.ret,
		     strerror(r.err));
}

static void *thread_main(void *arg)
{
	return arg;
}

/* glibc >= 2.34 tries clone3 first and must fall back on ENOSYS. */
static long start_thread(const void *arg)
{
	pthread_t t;
	void *out = NULL;
	int ret = pthread_create(&t, NULL, thread_main, (void *)42);

	if (ret) {
		errno = ret;
		return -1;
	}
	pthread_join(t, &out);
	return (long)(uintptr_t)out;
}

Test(seccomp, threads_fall_back_from_clone3)
{
	struct result r = probe(LTD_SECCOMP_ENFORCE, start_thread, NULL);

	cr_expect_eq(r.ret, 42, "pthread_create: %s", strerror(r.err));
}

/* getpid through the i386 entry point (int 0x80, eax = 20). */
static long int80_getpid(const void *arg)
{
	long ret;

	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "0"(20L)
			 : "memory", "r8", "r9", "r10", "r11");
	return ret;
}

static long x32_getpid(const void *arg)
{
	return syscall(X32_BIT | SYS_getpid);
}

/* The child must die of SIGSYS, before reporting anything. */
static void expect_killed(probe_fn fn, const char *what)
{
	struct result res = {0};
	struct ltd_bpf bpf;
	int reported = 0;
	int status;

	build(LTD_SECCOMP_ENFORCE, &bpf);
	status = run_filtered(&bpf, fn, NULL, &res, &reported);
	ltd_bpf_free(&bpf);
	cr_expect(!reported, "%s returned %ld (errno %d) under the filter",
		  what, res.ret, res.err);
	cr_expect(WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS,
		  "%s: want death by SIGSYS, got status 0x%x", what, status);
}

Test(seccomp, i386_abi_is_killed)
{
	struct ltd_bpf none = {0};
	struct result res = {0};
	int reported = 0;
	int status;

	/* Without a filter, int 0x80 must work here, or the test says why. */
	status = run_filtered(&none, int80_getpid, NULL, &res, &reported);
	if (!reported || res.ret <= 0)
		cr_skip_test("int 0x80 does not work on this host (status "
			     "0x%x): no IA32 emulation",
			     status);
	expect_killed(int80_getpid, "int 0x80 getpid");
}

Test(seccomp, x32_abi_is_killed)
{
	expect_killed(x32_getpid, "x32 getpid");
}

/* LOG mode: same profile, nothing refused; the kernel's answers come back. */
static const struct call logged[] = {
	{"personality(0x1234)", SYS_personality, {0x1234}, 0},
	{"keyctl(bad op)", SYS_keyctl, {-1UL}, EOPNOTSUPP},
	{"ioctl(TIOCSTI)", SYS_ioctl, {-1UL, TIOCSTI}, EBADF},
	{"socket(AF_NETLINK, NETLINK_NETFILTER)",
	 SYS_socket,
	 {AF_NETLINK, SOCK_RAW, NETLINK_NETFILTER},
	 0},
};

Test(seccomp, log_mode_lets_denied_calls_through)
{
	expect_calls(LTD_SECCOMP_LOG, logged,
		     sizeof(logged) / sizeof(logged[0]));
}

Test(seccomp, load_of_empty_program_is_a_noop)
{
	struct ltd_err err = {0};
	struct ltd_bpf none = {0};

	cr_expect_eq(ltd_seccomp_load(&none, &err), 0);
	cr_expect_eq(err.code, 0);
}

/* The programs compiled into the binary at build time are this profile. */
Test(seccomp, embedded_programs_match_the_profile)
{
	enum ltd_seccomp_mode modes[] = {LTD_SECCOMP_ENFORCE, LTD_SECCOMP_LOG,
					 LTD_SECCOMP_DNSD};

	for (size_t i = 0; i < 3; i++) {
		const struct ltd_bpf *emb = ltd_seccomp_program(modes[i]);
		struct ltd_bpf fresh;

		build(modes[i], &fresh);
		cr_assert_not_null(emb);
		cr_assert_eq(emb->len, fresh.len, "mode %d: %u vs %u insns",
			     modes[i], emb->len, fresh.len);
		cr_assert_eq(memcmp(emb->insns, fresh.insns,
				    fresh.len * sizeof(*fresh.insns)),
			     0, "mode %d: the embedded program differs",
			     modes[i]);
		ltd_bpf_free(&fresh);
	}
	cr_assert_null(ltd_seccomp_program(LTD_SECCOMP_OFF));
}

/* ---- ltd-dnsd's own profile ----------------------------------------- */

static struct stat dnsd_stat_buf;

static const struct call dnsd_allowed_calls[] = {
	{"getrandom", SYS_getrandom, {0, 0, 0}, 0},
	{"getpid", SYS_getpid, {0}, 0},
	{"fcntl(F_GETFL)", SYS_fcntl, {0, F_GETFL}, 0},
	{"fcntl(F_GETFD)", SYS_fcntl, {0, F_GETFD}, 0},
	{"fstat(fd)", SYS_fstat, {0, (long)&dnsd_stat_buf}, 0},
	{"close(0)", SYS_close, {0}, 0},
};

static const struct call dnsd_refused_calls[] = {
	/* F_SETOWN + F_SETSIG + O_ASYNC would signal any process of the
	 * user; F_SETFL could take O_APPEND off the shared audit log. */
	{"fcntl(F_SETOWN)", SYS_fcntl, {0, F_SETOWN, 1}, ENOSYS},
	{"fcntl(F_SETSIG)", SYS_fcntl, {0, F_SETSIG, SIGKILL}, ENOSYS},
	{"fcntl(F_SETFL)", SYS_fcntl, {0, F_SETFL, 0}, ENOSYS},
	{"fcntl(F_SETOWN_EX)", SYS_fcntl, {0, F_SETOWN_EX, 0}, ENOSYS},
	{"fcntl(F_SETLEASE)", SYS_fcntl, {0, F_SETLEASE, F_RDLCK}, ENOSYS},
	{"fcntl(F_NOTIFY)", SYS_fcntl, {0, F_NOTIFY, 0}, ENOSYS},
	{"fcntl(F_SETFL | 1 << 32)",
	 SYS_fcntl,
	 {0, (long)(F_SETFL | 1ULL << 32), 0},
	 ENOSYS},
	/* The cage's socket, the one descriptor a destination may be named
	 * on, stays: closed, an upstream socket the launcher hands over
	 * next would take its number and send anywhere. */
	{"close(LTD_DNSH_FD_UDP)", SYS_close, {LTD_DNSH_FD_UDP}, ENOSYS},
	{"close(LTD_DNSH_FD_UDP | 1 << 32)",
	 SYS_close,
	 {(long)(LTD_DNSH_FD_UDP | 1ULL << 32)},
	 ENOSYS},
	/* Landlock has no right for stat: any path would answer. */
	{"newfstatat(/etc/passwd)",
	 SYS_newfstatat,
	 {AT_FDCWD, (long)"/etc/passwd", (long)&dnsd_stat_buf, 0},
	 ENOSYS},
	{"newfstatat(/etc/passwd, AT_EMPTY_PATH)",
	 SYS_newfstatat,
	 {AT_FDCWD, (long)"/etc/passwd", (long)&dnsd_stat_buf, AT_EMPTY_PATH},
	 ENOSYS},
	{"statx(/etc/passwd)",
	 SYS_statx,
	 {AT_FDCWD, (long)"/etc/passwd", 0, 0, (long)&dnsd_stat_buf},
	 ENOSYS},
	{"openat",
	 SYS_openat,
	 {AT_FDCWD, (long)"/etc/passwd", O_RDONLY},
	 ENOSYS},
	{"execve", SYS_execve, {(long)"/bin/true", 0, 0}, ENOSYS},
	/* Flags the kernel would refuse (EINVAL): never a real fork. */
	{"clone", SYS_clone, {CLONE_THREAD, 0, 0, 0, 0}, ENOSYS},
	{"kill", SYS_kill, {1, 0}, ENOSYS},
	{"ptrace(PTRACE_TRACEME)", SYS_ptrace, {0, 0, 0, 0}, ENOSYS},
	/* Its upstream sockets come from the launcher, connected. */
	{"socket(AF_INET, SOCK_DGRAM)",
	 SYS_socket,
	 {AF_INET, SOCK_DGRAM, 0},
	 ENOSYS},
	{"socket(AF_INET6, SOCK_STREAM)",
	 SYS_socket,
	 {AF_INET6, SOCK_STREAM, 0},
	 ENOSYS},
	{"socket(AF_UNIX)", SYS_socket, {AF_UNIX, SOCK_STREAM, 0}, ENOSYS},
	{"socket(AF_NETLINK)",
	 SYS_socket,
	 {AF_NETLINK, SOCK_RAW, NETLINK_NETFILTER},
	 ENOSYS},
	{"socket(AF_PACKET)", SYS_socket, {AF_PACKET, SOCK_RAW, 0}, ENOSYS},
	/* The domain is an int: junk in the high half does not pass. */
	{"socket(AF_UNIX | 1 << 32)",
	 SYS_socket,
	 {(long)(AF_UNIX | 1ULL << 32), SOCK_STREAM, 0},
	 ENOSYS},
};

Test(seccomp, dnsd_profile_serves_dns_and_nothing_else)
{
	expect_calls(LTD_SECCOMP_DNSD, dnsd_allowed_calls,
		     sizeof(dnsd_allowed_calls) /
			     sizeof(dnsd_allowed_calls[0]));
	expect_calls(LTD_SECCOMP_DNSD, dnsd_refused_calls,
		     sizeof(dnsd_refused_calls) /
			     sizeof(dnsd_refused_calls[0]));
}

/*
 * ltd-dnsd runs in the host's network namespace: under its filter it may
 * open no socket, connect nothing, and name a destination only on the
 * cage's UDP socket (LTD_DNSH_FD_UDP, whose replies stay in the cage).  An
 * upstream socket the launcher handed it reaches the upstream only.
 */
enum {
	S_SOCKET,      /* socket(AF_INET, SOCK_DGRAM) */
	S_SENDTO_ELSE, /* sendto(upstream socket, elsewhere) */
	S_SENDMSG_ELSE,
	S_SEND_UP,	/* send(upstream socket): its own peer */
	S_SENDTO_CAGE,	/* sendto(cage's UDP socket, a client) */
	S_SENDMSG_CAGE, /* sendmsg(cage's UDP socket, a client) */
	S_CONNECT,	/* connect(upstream socket, elsewhere) */
	S_N
};

static const char *const dnsd_send_names[S_N] = {
	"socket(AF_INET)",
	"sendto(upstream fd, elsewhere)",
	"sendmsg(upstream fd, elsewhere)",
	"send(upstream fd)",
	"sendto(cage fd, client)",
	"sendmsg(cage fd, client)",
	"connect(upstream fd, elsewhere)",
};

static int udp_bound(struct sockaddr_in *a)
{
	socklen_t len = sizeof(*a);
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	cr_assert_geq(fd, 0);
	memset(a, 0, sizeof(*a));
	a->sin_family = AF_INET;
	a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	cr_assert_eq(bind(fd, (struct sockaddr *)a, sizeof(*a)), 0);
	cr_assert_eq(getsockname(fd, (struct sockaddr *)a, &len), 0);
	return fd;
}

static long errno_of(long ret)
{
	return ret < 0 ? errno : 0;
}

/* Under @bpf (none: unfiltered), each call's errno (0: it worked); what
 * reached the upstream and elsewhere. */
static void dnsd_sends(const struct ltd_bpf *bpf, long res[S_N], int *up_got,
		       int *else_got)
{
	struct sockaddr_in up_a, else_a, client_a;
	int up_rx = udp_bound(&up_a), else_rx = udp_bound(&else_a);
	int client_rx = udp_bound(&client_a);
	int cage = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int up = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	struct ltd_err err = {0};
	int pipefd[2], status = 0;
	char b[8];
	pid_t pid;

	cr_assert(cage >= 0 && up >= 0);
	cr_assert_eq(connect(up, (struct sockaddr *)&up_a, sizeof(up_a)), 0);
	cr_assert_eq(pipe2(pipefd, O_CLOEXEC), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		struct iovec iov = {(void *)"m", 1};
		struct msghdr else_mh = {.msg_name = &else_a,
					 .msg_namelen = sizeof(else_a),
					 .msg_iov = &iov,
					 .msg_iovlen = 1};
		struct msghdr client_mh = else_mh;
		long r[S_N];

		client_mh.msg_name = &client_a;
		alarm(10);
		if (dup2(cage, LTD_DNSH_FD_UDP) < 0 || up == LTD_DNSH_FD_UDP)
			_exit(100);
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    ltd_seccomp_load(bpf, &err) < 0)
			_exit(101);
		r[S_SOCKET] = errno_of(socket(AF_INET, SOCK_DGRAM, 0));
		r[S_SENDTO_ELSE] = errno_of(
			sendto(up, "e", 1, 0, (void *)&else_a, sizeof(else_a)));
		r[S_SENDMSG_ELSE] = errno_of(sendmsg(up, &else_mh, 0));
		r[S_SEND_UP] = errno_of(send(up, "u", 1, 0));
		r[S_SENDTO_CAGE] =
			errno_of(sendto(LTD_DNSH_FD_UDP, "c", 1, 0,
					(void *)&client_a, sizeof(client_a)));
		r[S_SENDMSG_CAGE] =
			errno_of(sendmsg(LTD_DNSH_FD_UDP, &client_mh, 0));
		r[S_CONNECT] =
			errno_of(connect(up, (void *)&else_a, sizeof(else_a)));
		if (write(pipefd[1], r, sizeof(r)) != sizeof(r))
			_exit(102);
		_exit(0);
	}
	close(pipefd[1]);
	cr_assert_eq(read(pipefd[0], res, sizeof(long) * S_N),
		     (ssize_t)(sizeof(long) * S_N),
		     "the child reported nothing");
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	*up_got = 0;
	*else_got = 0;
	while (recv(up_rx, b, sizeof(b), MSG_DONTWAIT) > 0)
		(*up_got)++;
	while (recv(else_rx, b, sizeof(b), MSG_DONTWAIT) > 0)
		(*else_got)++;
	cr_expect_eq(recv(client_rx, b, sizeof(b), MSG_DONTWAIT), 1,
		     "the cage's client got no reply");
	close(pipefd[0]);
	close(up_rx);
	close(else_rx);
	close(client_rx);
	close(cage);
	close(up);
}

Test(seccomp, dnsd_profile_opens_and_connects_nothing)
{
	struct ltd_bpf none = {0}, bpf;
	long res[S_N];
	int up_got, else_got;

	/* Unfiltered, every call works: the test can tell. */
	dnsd_sends(&none, res, &up_got, &else_got);
	for (int i = 0; i < S_N; i++)
		cr_assert_eq(res[i], 0, "unfiltered %s: %s", dnsd_send_names[i],
			     strerror((int)res[i]));
	cr_assert_eq(else_got, 2, "unfiltered: %d datagrams elsewhere",
		     else_got);

	build(LTD_SECCOMP_DNSD, &bpf);
	dnsd_sends(&bpf, res, &up_got, &else_got);
	ltd_bpf_free(&bpf);
	for (int i = 0; i < S_N; i++) {
		bool refused = i == S_SOCKET || i == S_SENDTO_ELSE ||
			       i == S_SENDMSG_ELSE || i == S_CONNECT;

		cr_expect_eq(res[i], refused ? ENOSYS : 0, "%s: %s, want %s",
			     dnsd_send_names[i], strerror((int)res[i]),
			     refused ? "ENOSYS" : "success");
	}
	cr_expect_eq(else_got, 0, "%d datagrams reached elsewhere", else_got);
	cr_expect_eq(up_got, 1, "%d datagrams reached the upstream", up_got);
}
