// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The probe: runs inside the cage and reports what it can see or do, one
 * "key value" line at a time, so the end-to-end tests can assert on it.
 * Exit status 0 when the probed action succeeded, 1 when it failed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/common/syscall_cases.h"

extern char **environ;

static int report_errno(const char *what)
{
	printf("%s err %s\n", what, strerrorname_np(errno));
	return 1;
}

static int cmd_status(void)
{
	static const char *const keys[] = {
		"Uid:",	       "Gid:",	   "Groups:", "CapInh:",
		"CapPrm:",     "CapEff:",  "CapBnd:", "CapAmb:",
		"NoNewPrivs:", "Seccomp:", NULL};
	char line[512];
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return report_errno("status");
	while (fgets(line, sizeof(line), f))
		for (int i = 0; keys[i]; i++)
			if (strncmp(line, keys[i], strlen(keys[i])) == 0)
				fputs(line, stdout);
	fclose(f);
	printf("uid %u\ngid %u\n", getuid(), getgid());
	return 0;
}

static int cmd_read(const char *path)
{
	char buf[4096];
	ssize_t n, total = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return report_errno("read");
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	if (n < 0)
		return report_errno("read");
	printf("read ok %zd\n", total);
	return 0;
}

static int cmd_write(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		return report_errno("write");
	if (write(fd, text, strlen(text)) < 0)
		return report_errno("write");
	close(fd);
	printf("write ok\n");
	return 0;
}

static int cmd_open_rw(const char *path)
{
	int fd = open(path, O_RDWR);

	if (fd < 0)
		return report_errno("open-rw");
	printf("open-rw ok\n");
	return 0;
}

/* A read on descriptor @arg that the probe did not open (stdout, stderr):
 * what the command could take from the terminal behind it. */
static int cmd_read_fd(const char *arg)
{
	char buf[256], what[32];
	int fd = atoi(arg);
	ssize_t n = read(fd, buf, sizeof(buf));

	snprintf(what, sizeof(what), "read-fd %d", fd);
	if (n < 0)
		return report_errno(what);
	printf("%s ok %zd\n", what, n);
	return 0;
}

static int cmd_pids(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;

	if (!d)
		return report_errno("pids");
	while ((e = readdir(d)))
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9')
			printf("pid %s\n", e->d_name);
	closedir(d);
	return 0;
}

static int cmd_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;

	if (!d)
		return report_errno("fds");
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && atoi(e->d_name) != dirfd(d))
			printf("fd %s\n", e->d_name);
	closedir(d);
	return 0;
}

static int cmd_environ(void)
{
	for (char **e = environ; *e; e++)
		printf("env %s\n", *e);
	return 0;
}

static volatile sig_atomic_t last_signal;

static void on_signal(int sig)
{
	last_signal = sig;
}

/* Print each forwarded signal as it arrives; exit after SIGTERM. */
static int cmd_signals(const char *ready_file)
{
	static const int sigs[] = {SIGINT,  SIGTERM, SIGHUP,   SIGQUIT,
				   SIGUSR1, SIGUSR2, SIGWINCH, 0};
	struct sigaction sa = {.sa_handler = on_signal};

	for (int i = 0; sigs[i]; i++)
		sigaction(sigs[i], &sa, NULL);
	if (cmd_write(ready_file, "ready\n"))
		return 1;
	fflush(stdout);
	for (;;) {
		pause();
		if (last_signal) {
			int sig = last_signal;

			last_signal = 0;
			printf("signal %d\n", sig);
			fflush(stdout);
			if (sig == SIGTERM)
				return 0;
		}
	}
}

/*
 * A bounded fork bomb: fork children that only wait (and die on their own
 * after 30 s in any case) until a fork fails or @max is reached; report how
 * many, then kill and reap them all.
 */
static int cmd_forks(const char *max_s)
{
	int max = atoi(max_s), n = 0, saved = 0;
	pid_t kids[4096];

	if (max < 1 || max > 4096)
		return 2;
	for (; n < max; n++) {
		kids[n] = fork();
		if (kids[n] < 0) {
			saved = errno;
			break;
		}
		if (kids[n] == 0) {
			alarm(30);
			pause();
			_exit(0);
		}
	}
	for (int i = 0; i < n; i++)
		kill(kids[i], SIGKILL);
	while (wait(NULL) > 0)
		;
	if (saved) {
		printf("forks %d err %s\n", n, strerrorname_np(saved));
		return 1;
	}
	printf("forks %d ok\n", n);
	return 0;
}

/* Allocate and touch @mb MiB of private memory. */
static int cmd_alloc(const char *mb_s)
{
	size_t len = (size_t)atoi(mb_s) << 20;
	char *p = malloc(len);

	if (!p)
		return report_errno("alloc");
	memset(p, 1, len);
	printf("alloc ok %s\n", mb_s);
	free(p);
	return 0;
}

static int cmd_ptrace(const char *pid)
{
	if (ptrace(PTRACE_ATTACH, atoi(pid), 0, 0) < 0)
		return report_errno("ptrace");
	printf("ptrace ok\n");
	return 0;
}

static int cmd_mkdir(const char *path)
{
	if (mkdir(path, 0755) < 0)
		return report_errno("mkdir");
	printf("mkdir ok\n");
	return 0;
}

/*
 * Run @argv as on a kernel without Landlock: landlock_create_ruleset fails
 * with ENOSYS for it and everything it starts (a seccomp filter, kept
 * across execve).  Runs on the host, around ltd-native.
 */
static int cmd_no_landlock(char **argv)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_landlock_create_ruleset,
			 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {.len = sizeof(f) / sizeof(f[0]), .filter = f};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0)
		return report_errno("no-landlock");
	execvp(argv[0], argv);
	return report_errno("exec");
}

/* Each case of the shared table: "ok NAME" or "bad NAME ...". */
static int run_cases(const struct call *cases, size_t n)
{
	int bad = 0;

	for (size_t i = 0; i < n; i++) {
		const struct call *c = &cases[i];
		long ret;

		errno = 0;
		ret = syscall(c->nr, c->a[0], c->a[1], c->a[2], c->a[3],
			      c->a[4], c->a[5]);
		if (ret == 0 && c->nr == SYS_clone)
			_exit(0); /* a child the filter should have refused */
		if (c->want ? (ret == -1 && errno == c->want) : ret >= 0) {
			printf("ok %s\n", c->name);
		} else {
			printf("bad %s ret %ld errno %s want %s\n", c->name,
			       ret, strerrorname_np(errno),
			       c->want ? strerrorname_np(c->want) : "success");
			bad++;
		}
		if (ret > 2 && c->nr == SYS_socket)
			close((int)ret);
	}
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(cmd, "status"))
		return cmd_status();
	if (!strcmp(cmd, "read") && argc == 3)
		return cmd_read(argv[2]);
	if (!strcmp(cmd, "write") && argc == 4)
		return cmd_write(argv[2], argv[3]);
	if (!strcmp(cmd, "open-rw") && argc == 3)
		return cmd_open_rw(argv[2]);
	if (!strcmp(cmd, "mkdir") && argc == 3)
		return cmd_mkdir(argv[2]);
	if (!strcmp(cmd, "no-landlock") && argc >= 3)
		return cmd_no_landlock(argv + 2);
	if (!strcmp(cmd, "read-fd") && argc == 3)
		return cmd_read_fd(argv[2]);
	if (!strcmp(cmd, "pids"))
		return cmd_pids();
	if (!strcmp(cmd, "fds"))
		return cmd_fds();
	if (!strcmp(cmd, "environ"))
		return cmd_environ();
	if (!strcmp(cmd, "signals") && argc == 3)
		return cmd_signals(argv[2]);
	if (!strcmp(cmd, "forks") && argc == 3)
		return cmd_forks(argv[2]);
	if (!strcmp(cmd, "alloc") && argc == 3)
		return cmd_alloc(argv[2]);
	if (!strcmp(cmd, "ptrace") && argc == 3)
		return cmd_ptrace(argv[2]);
	if (!strcmp(cmd, "syscalls"))
		return run_cases(denied, LTD_N_CASES(denied)) |
		       run_cases(sockets, LTD_N_CASES(sockets));
	if (!strcmp(cmd, "exit") && argc == 3)
		return atoi(argv[2]);
	if (!strcmp(cmd, "raise") && argc == 3) {
		signal(atoi(argv[2]), SIG_DFL);
		raise(atoi(argv[2]));
		return 0;
	}
	fprintf(stderr, "probe: unknown command\n");
	return 2;
}
