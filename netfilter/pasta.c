// SPDX-License-Identifier: GPL-2.0-or-later
#include "netfilter/pasta.h"

#include "common/signals.h"
#include "common/spawn.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <sys/platform/x86.h>
#endif

#include "common/cleanup.h"
#include "common/text.h"

/* pasta's descriptors: the readiness pipe, the namespaces it joins. */
#define READY_FD  3
#define USERNS_FD 4
#define NETNS_FD  5

/* The child's stack: ltd_signals_reset's buffer and the Landlock calls. */
#define SPAWN_STACK (64 * 1024)

/* Fixed places only: the launcher's PATH is the user's to change, but the
 * program that enforces the network boundary should not follow it. */
static const char *const pasta_paths[] = {
	"/usr/bin/pasta",
	"/usr/local/bin/pasta",
	"/bin/pasta",
};

/* "crw-rw-rw-", as ls shows it. */
static void strmode_ls(unsigned mode, char out[11])
{
	static const char rwx[] = "rwxrwxrwx";

	out[0] = S_ISCHR(mode)	 ? 'c'
		 : S_ISBLK(mode) ? 'b'
		 : S_ISDIR(mode) ? 'd'
		 : S_ISLNK(mode) ? 'l'
				 : '-';
	for (int i = 0; i < 9; i++)
		out[1 + i] = mode & (0400u >> i) ? rwx[i] : '-';
	out[10] = '\0';
}

int ltd_pasta_locate(struct ltd_pasta *pa, struct ltd_err *err)
{
	pa->pid = 0;
	pa->ready_fd = -1;
	pa->path[0] = '\0';
	for (size_t i = 0; i < sizeof(pasta_paths) / sizeof(*pasta_paths); i++)
		if (access(pasta_paths[i], X_OK) == 0) {
			snprintf(pa->path, sizeof(pa->path), "%s",
				 pasta_paths[i]);
			return 0;
		}
	return ltd_err_set(err, ENOENT,
			   "pasta not found (install Debian's "
			   "'passt' package)");
}

void ltd_pasta_tun_says(unsigned mode, unsigned owner, int open_errno,
			char *out, size_t size)
{
	char perms[11];

	out[0] = '\0';
	if (!open_errno)
		return;
	if (!mode) {
		snprintf(out, size,
			 "/dev/net/tun is missing (modprobe tun; it must be "
			 "readable and writable by you, mode 0666)");
		return;
	}
	strmode_ls(mode, perms);
	snprintf(out, size,
		 "/dev/net/tun is %s (mode %04o, owner uid %u): %s; it must "
		 "be readable and writable by you (mode 0666)",
		 perms, mode & 07777, owner, strerror(open_errno));
}

int ltd_pasta_tun_check(char *out, size_t size)
{
	struct stat st;
	int e = 0;

	/* pasta opens the tun device from inside the cage's user namespace,
	 * where only the "other" permission bits apply (0666 on Debian). */
	if (access("/dev/net/tun", R_OK | W_OK) < 0)
		e = errno;
	if (!e) {
		out[0] = '\0';
		return 0;
	}
	if (stat("/dev/net/tun", &st) < 0)
		st.st_mode = 0;
	ltd_pasta_tun_says(st.st_mode, st.st_mode ? st.st_uid : 0, e, out,
			   size);
	return -ENOENT;
}

int ltd_pasta_find(struct ltd_pasta *pa, struct ltd_err *err)
{
	char says[200];
	int ret = ltd_pasta_locate(pa, err);

	if (!ret && ltd_pasta_tun_check(says, sizeof(says)) < 0)
		ret = ltd_err_set(err, ENOENT, "pasta cannot work here: %s",
				  says);
	if (ret < 0)
		pa->path[0] = '\0';
	return ret;
}

/* "-t" "ADDR/HOST_PORT:CAGE_PORT" for each of @pub into @argv; returns
 * how many. */
static size_t publish_args(struct ltd_pasta *pa, const struct ltd_publish *pub,
			   size_t n_pub, char **argv)
{
	size_t n = 0;

	for (size_t i = 0; i < n_pub; i++) {
		char a[INET6_ADDRSTRLEN];

		inet_ntop(pub[i].family, pub[i].addr, a, sizeof(a));
		snprintf(pa->spec[i], sizeof(pa->spec[i]), "%s/%u:%u", a,
			 pub[i].host_port, pub[i].cage_port);
		argv[n++] = "-t";
		argv[n++] = pa->spec[i];
	}
	return n;
}

/*
 * The program pasta would run: on x86-64 with AVX2, pasta's first act
 * (passt's arch.c) is to exec the AVX2 build beside its own resolved path,
 * "<realpath>.avx2", if there is one: a second exec and dynamic load of
 * the whole program, ~3-12 ms of every allowlist run on the reference VM.
 * We exec that build ourselves (argv[0] still names pasta, which selects
 * its mode; an exe ending in ".avx2" does not exec again); anything else,
 * or anything missing, and we exec @pa->path as before.
 * docs/decisions/0152-pasta-avx2-build-directly.md
 */
static void pick_exe(struct ltd_pasta *pa)
{
	snprintf(pa->exe, sizeof(pa->exe), "%s", pa->path);
#if defined(__x86_64__)
	char real[PATH_MAX], avx2[sizeof(pa->exe)];
	int n;

	/* What glibc's loader found (no cpuid here): libgcc's
	 * __builtin_cpu_supports would link its constructor, 13 cpuid at
	 * every start, ~10 us each in a VM that traps them. */
	if (!CPU_FEATURE_ACTIVE(AVX2) || !realpath(pa->path, real))
		return;
	n = snprintf(avx2, sizeof(avx2), "%s.avx2", real);
	if (n > 0 && (size_t)n < sizeof(avx2) && access(avx2, X_OK) == 0)
		memcpy(pa->exe, avx2, sizeof(avx2));
#endif
}

int ltd_pasta_build(struct ltd_pasta *pa, bool map_gw,
		    const struct ltd_publish *pub, size_t n_pub,
		    struct ltd_err *err)
{
	/* Every forwarding off: -t/-u (host -> cage) and -T/-U (the cage's
	 * loopback -> the host's) default to "auto", which forwards every
	 * bound port; -t gets the published ports below, and -u stays
	 * "none" even then (pasta would mirror them for UDP).  No DHCP/RA:
	 * the namespace is configured directly.
	 * No DNS at all (-D none, no --dns-forward): the cage's resolver is
	 * the launcher's filter, and a forwarder of pasta's would carry any
	 * name to the host's resolver. */
	static const char *const fixed[] = {
		"-f",
		"-q",
		"--config-net",
		"-t",
		"none",
		"-u",
		"none",
		"-T",
		"none",
		"-U",
		"none",
		"-a",
		LTD_NET_ADDR4,
		"-n",
		LTD_NET_PREFIX4,
		"-g",
		LTD_NET_GW4,
		"-a",
		LTD_NET_ADDR6,
		"-g",
		LTD_NET_GW6,
		"-D",
		"none",
		"--no-dhcp",
		"--no-dhcpv6",
		"--no-ra",
		"-P",
		"/proc/self/fd/3",
		"--userns",
		"/proc/self/fd/4",
		"--netns",
		"/proc/self/fd/5",
		/* It would watch /proc/self/fd for the path's removal. */
		"--no-netns-quit",
	};
	size_t n = 0;

	if (n_pub > LTD_PUBLISH_MAX)
		return ltd_err_set(err, E2BIG, "--publish: at most %d ports",
				   LTD_PUBLISH_MAX);
	pa->argv[n++] = pa->path;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(*fixed); i++) {
		/* "-t none" unless a port is published; then one -t each,
		 * pasta's spec ADDR/PORT:TARGET (an IPv6 address bare). */
		if (strcmp(fixed[i], "-t") == 0 && n_pub) {
			i++;
			n += publish_args(pa, pub, n_pub, &pa->argv[n]);
			continue;
		}
		pa->argv[n++] = (char *)fixed[i];
	}
	if (!map_gw)
		pa->argv[n++] = "--no-map-gw";
	pa->argv[n] = NULL;
	if (n >= LTD_PASTA_MAX_ARGS)
		return ltd_err_set(err, E2BIG, "pasta: too many arguments");
	pick_exe(pa);
	return 0;
}

/* Bind @at's host address and port as pasta will; 0 or -errno. */
static int try_bind(const struct ltd_publish *at)
{
	struct sockaddr_storage ss = {0};
	struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
	_cleanup_close_ int fd =
		socket(at->family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int one = 1;

	if (fd < 0)
		return -errno;
	if (at->family == AF_INET) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons(at->host_port);
		memcpy(&s4->sin_addr, at->addr, 4);
	} else {
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(at->host_port);
		memcpy(&s6->sin6_addr, at->addr, 16);
	}
	/* As pasta binds: SO_REUSEADDR, so a port in TIME_WAIT is free to
	 * it, and to us. */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss,
		 at->family == AF_INET ? sizeof(*s4) : sizeof(*s6)) < 0)
		return -errno;
	return 0;
}

int ltd_pasta_check_publish(const struct ltd_publish *pub, size_t n,
			    struct ltd_err *err)
{
	for (size_t i = 0; i < n; i++) {
		char text[64], host[INET6_ADDRSTRLEN + 2];
		int e = -try_bind(&pub[i]);

		if (!e)
			continue;
		ltd_publish_format(&pub[i], text, sizeof(text));
		ltd_publish_host(&pub[i], host, sizeof(host));
		if (e == EADDRINUSE)
			return ltd_err_set(err, e,
					   "--publish %s: host port %u is in "
					   "use at %s",
					   text, pub[i].host_port, host);
		if (e == EACCES)
			return ltd_err_set(err, e,
					   "--publish %s: host port %u needs "
					   "privileges (ports below "
					   "net.ipv4.ip_unprivileged_port_start"
					   "); choose a higher one",
					   text, pub[i].host_port);
		if (e == EADDRNOTAVAIL)
			return ltd_err_set(err, e,
					   "--publish %s: %s is not an address "
					   "of this host",
					   text, host);
		errno = e;
		return ltd_err_sys(err, "--publish %s", text);
	}
	return 0;
}

/* The pipe's write end and the namespaces at READY_FD, USERNS_FD and
 * NETNS_FD (without close-on-exec): all moved above them first, so that
 * none lands on another before it has moved. */
static int place_fds(int wr, int user, int net)
{
	int from[3] = {wr, user, net};

	for (int i = 0; i < 3; i++) {
		from[i] = fcntl(from[i], F_DUPFD_CLOEXEC, NETNS_FD + 1);
		if (from[i] < 0)
			return -1;
	}
	for (int i = 0; i < 3; i++)
		if (dup2(from[i], READY_FD + i) < 0)
			return -1;
	return 0;
}

/* Our stderr for pasta's own messages, but never for reading: a terminal
 * the user's shell opened read-write is reopened write-only (or, another
 * user's, replaced by /dev/null). */
static int write_only_stderr(void)
{
	int flags = fcntl(STDERR_FILENO, F_GETFL), fd;

	if (flags < 0 || (flags & O_ACCMODE) == O_WRONLY)
		return 0;
	fd = open("/proc/self/fd/2", O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || dup2(fd, STDERR_FILENO) < 0)
		return -1;
	close(fd);
	return 0;
}

/* What the child needs, on the launcher's stack (the child runs in the
 * launcher's memory until it execs). */
struct spawn_arg {
	struct ltd_pasta *pa;
	int wr;	  /* the readiness pipe's write end */
	int user; /* the cage's user namespace */
	int net;  /* its network namespace */
	pid_t parent;
};

/* A child sharing the launcher's memory (common/spawn.h): system calls
 * only, until execv; its own descriptor table and signal handlers. */
static int child(void *arg)
{
	const struct spawn_arg *a = arg;
	struct ltd_pasta *pa = a->pa;
	struct ltd_err err = {0};
	int null, out;

	/* Dies with the launcher, also when that is SIGKILLed; the parent
	 * may already be gone by the time the line above takes effect. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != a->parent)
		return 127;
	/* Default dispositions, nothing blocked: pasta refuses to start when
	 * it inherits SIGPIPE ignored (as from Python's posix_spawn). */
	ltd_signals_reset(&err);
	/* A session of its own: what the terminal sends the launcher's
	 * process group (Ctrl-C, Ctrl-\\, Ctrl-Z, a hang-up) is not for
	 * pasta, and a pasta it killed would end the run. */
	if (setsid() < 0)
		return 127;
	/* Nothing of the launcher's but stderr (pasta's own messages), the
	 * pipe and the namespaces: should the cage's packets ever take pasta
	 * over, no descriptor the caller left open is within reach. */
	null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	out = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null < 0 || out < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 ||
	    write_only_stderr() < 0 || place_fds(a->wr, a->user, a->net) < 0 ||
	    close_range(NETNS_FD + 1, ~0U, 0) < 0) {
		perror("ltd-native: pasta: descriptors");
		return 127;
	}
	/* The wall: TCP connect only to the policy's ports, from here on
	 * and for good (no_new_privs: pasta gains nothing at exec). */
	if (pa->wall.abi > 0 && (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
				 ltd_landlock_confine(&pa->wall, &err) < 0)) {
		fputs("ltd-native: pasta: ", stderr);
		ltd_fput_shown(stderr, err.msg[0] ? err.msg : "no_new_privs");
		fputc('\n', stderr);
		return 127;
	}
	execv(pa->exe, pa->argv);
	return 127;
}

int ltd_pasta_spawn(struct ltd_pasta *pa, int userns, int netns,
		    struct ltd_err *err)
{
	struct spawn_arg a = {
		.pa = pa, .user = userns, .net = netns, .parent = getpid()};
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return ltd_err_sys(err, "pasta: pipe");
	a.wr = p[1];
	/* Its own descriptor table: it rearranges it for pasta. */
	pid = ltd_spawn_shared(child, &a, 0, SPAWN_STACK, NULL, err);
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		ltd_err_prefix(err, "pasta");
		return pid;
	}
	pa->pid = pid;
	pa->ready_fd = p[0];
	return 0;
}

int ltd_pasta_ready(struct ltd_pasta *pa, struct ltd_err *err)
{
	char buf[32];
	ssize_t n;
	int status;

	do
		n = read(pa->ready_fd, buf, sizeof(buf));
	while (n < 0 && errno == EINTR);
	ltd_closep(&pa->ready_fd);
	pa->ready_fd = -1;
	if (n > 0)
		return 0;
	if (pa->pid > 0 && waitpid(pa->pid, &status, 0) == pa->pid) {
		pa->pid = 0;
		if (WIFEXITED(status))
			return ltd_err_set(err, ENETDOWN,
					   "pasta exited with status %d "
					   "before the network was ready (see "
					   "'ltd-native doctor')",
					   WEXITSTATUS(status));
		return ltd_err_set(err, ENETDOWN,
				   "pasta was killed by signal %d before "
				   "the network was ready (see 'ltd-native "
				   "doctor')",
				   WTERMSIG(status));
	}
	return ltd_err_set(err, ENETDOWN,
			   "pasta did not become ready (see "
			   "'ltd-native doctor')");
}

void ltd_pasta_kill(struct ltd_pasta *pa)
{
	if (pa->pid > 0)
		kill(pa->pid, SIGKILL);
}

void ltd_pasta_stop(struct ltd_pasta *pa)
{
	if (pa->ready_fd >= 0) {
		close(pa->ready_fd);
		pa->ready_fd = -1;
	}
	if (pa->pid > 0) {
		kill(pa->pid, SIGKILL);
		while (waitpid(pa->pid, NULL, 0) < 0 && errno == EINTR)
			;
		pa->pid = 0;
	}
	ltd_landlock_free(&pa->wall);
}
