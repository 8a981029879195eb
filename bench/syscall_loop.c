// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Syscall-heavy microbenchmark for bench/seccomp.sh.  It times itself, so
 * the cost of starting a sandbox around it is not in its figures.
 *
 *   syscall_loop loops [ITERS]
 *       Tight loops of cheap syscalls; prints one line per loop,
 *       "NAME NS_PER_CALL":
 *         getppid     syscall(SYS_getppid): allowed by the profile without
 *                     looking at arguments (the kernel's seccomp action
 *                     cache answers it without running the BPF program)
 *         ioctl       ioctl(/dev/null, TIOCGWINSZ) (fails with ENOTTY):
 *                     the profile checks ioctl's request argument, so the
 *                     BPF program runs on every call
 *         open_close  openat(FILE) + close, on a file in the current
 *                     directory: a path walk (ns per pair)
 *       ITERS (default 1000000) is for getppid and ioctl; open_close does
 *       ITERS/10.  Each loop first runs a tenth of its count untimed.
 *
 *   syscall_loop repeat N CMD [ARGS...]
 *       Runs CMD N times (after one untimed run), stdin/stdout/stderr on
 *       /dev/null, and prints "run MS" for each timed run.  Exits non-zero
 *       if CMD does.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "syscall_loop: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void loop_getppid(long n)
{
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
}

static int null_fd = -1;

static void loop_ioctl(long n)
{
	struct winsize ws;

	for (long i = 0; i < n; i++)
		if (ioctl(null_fd, TIOCGWINSZ, &ws) == 0 || errno != ENOTTY) {
			fprintf(stderr,
				"syscall_loop: ioctl: expected ENOTTY, "
				"got %s\n",
				strerror(errno));
			exit(1);
		}
}

static const char *const oc_file = ".syscall_loop.file";

static void loop_open_close(long n)
{
	for (long i = 0; i < n; i++) {
		int fd = open(oc_file, O_RDONLY | O_CLOEXEC);

		if (fd < 0)
			die("open");
		close(fd);
	}
}

static void timed(const char *name, void (*fn)(long), long n)
{
	double t0;

	fn(n / 10 ? n / 10 : 1);
	t0 = now_ns();
	fn(n);
	printf("%s %.1f\n", name, (now_ns() - t0) / n);
}

static int loops(long iters)
{
	int fd;

	null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (null_fd < 0)
		die("/dev/null");
	/* A file of our own in the working directory for open_close. */
	fd = open(oc_file, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		die(oc_file);
	close(fd);
	timed("getppid", loop_getppid, iters);
	timed("ioctl", loop_ioctl, iters);
	timed("open_close", loop_open_close, iters / 10);
	unlink(oc_file);
	return fflush(stdout) == 0 ? 0 : 1;
}

static int run_once(char **argv, double *ms)
{
	posix_spawn_file_actions_t fa;
	double t0;
	pid_t pid;
	int status, ret;

	posix_spawn_file_actions_init(&fa);
	for (int fd = 0; fd < 3; fd++)
		posix_spawn_file_actions_addopen(&fa, fd, "/dev/null", O_RDWR,
						 0);
	t0 = now_ns();
	ret = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (ret != 0) {
		errno = ret;
		die(argv[0]);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid");
	*ms = (now_ns() - t0) / 1e6;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "syscall_loop: %s failed (status 0x%x)\n",
			argv[0], status);
		return -1;
	}
	return 0;
}

static int repeat(long n, char **argv)
{
	double ms;

	if (run_once(argv, &ms) < 0)
		return 1;
	for (long i = 0; i < n; i++) {
		if (run_once(argv, &ms) < 0)
			return 1;
		printf("run %.3f\n", ms);
	}
	return fflush(stdout) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "loops") == 0 && argc <= 3)
		return loops(argc == 3 ? atol(argv[2]) : 1000000);
	if (argc >= 4 && strcmp(argv[1], "repeat") == 0 && atol(argv[2]) > 0)
		return repeat(atol(argv[2]), argv + 3);
	fprintf(stderr, "usage: syscall_loop loops [ITERS]\n"
			"       syscall_loop repeat N CMD [ARGS...]\n");
	return 2;
}
