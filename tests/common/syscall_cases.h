/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The syscalls the filter must refuse, and the socket families it must
 * refuse or admit, with the errno each must return.  Shared by the unit
 * test (a forked child loads the filter) and the probe (inside the real
 * cage), so both check the same list.
 */
#ifndef LTD_TESTS_SYSCALL_CASES_H
#define LTD_TESTS_SYSCALL_CASES_H

#include <errno.h>
#include <linux/netlink.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#ifndef AF_VSOCK
#define AF_VSOCK 40
#endif
#ifndef AF_ALG
#define AF_ALG 38
#endif
#ifndef TIOCLINUX
#define TIOCLINUX 0x541C
#endif
struct call {
	const char *name;
	long nr;
	unsigned long a[6];
	int want; /* expected errno; 0: the call must succeed */
};

/*
 * Arguments are harmless and, where possible, invalid, so that a call the
 * filter wrongly lets through fails with the kernel's own errno (EFAULT,
 * EBADF, EINVAL) instead of EPERM, and the test tells the difference.
 */
static const struct call denied[] __attribute__((unused)) = {
	{"unshare(CLONE_NEWUSER)", SYS_unshare, {CLONE_NEWUSER}, EPERM},
	{"unshare(CLONE_NEWNS)", SYS_unshare, {CLONE_NEWNS}, EPERM},
	{"unshare(CLONE_NEWTIME)", SYS_unshare, {0x80}, EPERM},
	{"clone(CLONE_NEWUSER)", SYS_clone, {CLONE_NEWUSER | SIGCHLD}, EPERM},
	{"clone(CLONE_NEWNET)", SYS_clone, {CLONE_NEWNET | SIGCHLD}, EPERM},
	{"clone3", SYS_clone3, {0, 0}, ENOSYS},
	{"setns", SYS_setns, {-1UL, 0}, EPERM},
	{"mount", SYS_mount, {0}, EPERM},
	{"umount2", SYS_umount2, {0}, EPERM},
	{"pivot_root", SYS_pivot_root, {0}, EPERM},
	{"move_mount", SYS_move_mount, {-1UL, 0, -1UL}, EPERM},
	{"open_tree", SYS_open_tree, {-1UL, 0}, EPERM},
	{"fsopen", SYS_fsopen, {0}, EPERM},
	{"fsmount", SYS_fsmount, {-1UL}, EPERM},
	{"fsconfig", SYS_fsconfig, {-1UL}, EPERM},
	{"fspick", SYS_fspick, {-1UL, 0}, EPERM},
	{"mount_setattr", SYS_mount_setattr, {-1UL}, EPERM},
	{"chroot", SYS_chroot, {0}, EPERM},
	{"bpf", SYS_bpf, {-1UL}, EPERM},
	{"perf_event_open", SYS_perf_event_open, {0, 0, -1UL, -1UL}, EPERM},
	{"userfaultfd", SYS_userfaultfd, {-1UL}, EPERM},
	{"keyctl", SYS_keyctl, {-1UL}, EPERM},
	{"add_key", SYS_add_key, {0}, EPERM},
	{"request_key", SYS_request_key, {0}, EPERM},
	{"io_uring_setup", SYS_io_uring_setup, {0, 0}, EPERM},
	{"io_uring_enter", SYS_io_uring_enter, {-1UL}, EPERM},
	{"io_uring_register", SYS_io_uring_register, {-1UL}, EPERM},
	{"open_by_handle_at", SYS_open_by_handle_at, {-1UL, 0}, EPERM},
	{"name_to_handle_at", SYS_name_to_handle_at, {-1UL, 0}, EPERM},
	{"kexec_load", SYS_kexec_load, {0, 0, 0, -1UL}, EPERM},
	{"kexec_file_load",
	 SYS_kexec_file_load,
	 {-1UL, -1UL, 0, 0, -1UL},
	 EPERM},
	{"init_module", SYS_init_module, {0}, EPERM},
	{"finit_module", SYS_finit_module, {-1UL}, EPERM},
	{"delete_module", SYS_delete_module, {0}, EPERM},
	{"reboot", SYS_reboot, {0}, EPERM},
	{"swapon", SYS_swapon, {0}, EPERM},
	{"swapoff", SYS_swapoff, {0}, EPERM},
	{"acct", SYS_acct, {1}, EPERM},
	{"settimeofday", SYS_settimeofday, {1, 1}, EPERM},
	{"clock_settime", SYS_clock_settime, {-1UL, 0}, EPERM},
	{"clock_adjtime", SYS_clock_adjtime, {-1UL, 0}, EPERM},
	{"adjtimex", SYS_adjtimex, {0}, EPERM},
	{"quotactl", SYS_quotactl, {0}, EPERM},
	{"lookup_dcookie", SYS_lookup_dcookie, {0}, EPERM},
	{"process_vm_writev", SYS_process_vm_writev, {0}, EPERM},
	{"personality(0x1234)", SYS_personality, {0x1234}, EPERM},
	{"personality(READ_IMPLIES_EXEC)", SYS_personality, {0x0400000}, EPERM},
	{"ioctl(TIOCSTI)", SYS_ioctl, {-1UL, TIOCSTI}, EPERM},
	{"ioctl(TIOCLINUX)", SYS_ioctl, {-1UL, TIOCLINUX}, EPERM},
	/* CVE-2019-10063: the kernel ignores the high half of the request */
	{"ioctl(TIOCSTI, high bits)",
	 SYS_ioctl,
	 {-1UL, 0xdeadbeef00005412UL},
	 EPERM},
	{"ioctl(TIOCLINUX, high bits)",
	 SYS_ioctl,
	 {-1UL, 0xffffffff0000541cUL},
	 EPERM},
	/* not in the allowlist at all: the ENOSYS default */
	{"syscall 1000", 1000, {0}, ENOSYS},
	{"modify_ldt (known, not allowed)", SYS_modify_ldt, {0}, ENOSYS},
	{"kcmp (known, not allowed)", SYS_kcmp, {0}, ENOSYS},
};

static const struct call sockets[] __attribute__((unused)) = {
	{"socket(AF_PACKET)",
	 SYS_socket,
	 {AF_PACKET, SOCK_RAW, 0},
	 EAFNOSUPPORT},
	{"socket(AF_VSOCK)",
	 SYS_socket,
	 {AF_VSOCK, SOCK_STREAM, 0},
	 EAFNOSUPPORT},
	{"socket(AF_ALG)",
	 SYS_socket,
	 {AF_ALG, SOCK_SEQPACKET, 0},
	 EAFNOSUPPORT},
	{"socket(AF_KEY)", SYS_socket, {AF_KEY, SOCK_RAW, 2}, EAFNOSUPPORT},
	{"socket(AF_BLUETOOTH)",
	 SYS_socket,
	 {AF_BLUETOOTH, SOCK_RAW, 0},
	 EAFNOSUPPORT},
	{"socket(AF_PACKET, high bits)",
	 SYS_socket,
	 {(1UL << 32) | AF_PACKET, SOCK_RAW, 0},
	 EAFNOSUPPORT},
	{"socket(AF_NETLINK, NETLINK_NETFILTER)",
	 SYS_socket,
	 {AF_NETLINK, SOCK_RAW, NETLINK_NETFILTER},
	 EPROTONOSUPPORT},
	{"socket(AF_NETLINK, NETLINK_AUDIT)",
	 SYS_socket,
	 {AF_NETLINK, SOCK_RAW, NETLINK_AUDIT},
	 EPROTONOSUPPORT},
	{"socketpair(AF_INET)",
	 SYS_socketpair,
	 {AF_INET, SOCK_STREAM, 0},
	 EAFNOSUPPORT},
	{"socket(AF_UNIX)", SYS_socket, {AF_UNIX, SOCK_STREAM, 0}, 0},
	{"socket(AF_INET)", SYS_socket, {AF_INET, SOCK_STREAM, 0}, 0},
	{"socket(AF_INET6)", SYS_socket, {AF_INET6, SOCK_DGRAM, 0}, 0},
	{"socket(AF_NETLINK, NETLINK_ROUTE)",
	 SYS_socket,
	 {AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE},
	 0},
};

#define LTD_N_CASES(a) (sizeof(a) / sizeof((a)[0]))

#endif
