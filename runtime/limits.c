// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Resource limits, the pure part: what the kernel's files say, whether the
 * cage gets a cgroup or rlimits, and what to write.  No syscalls here but
 * the rlimit executor at the end, which runs in the cage.
 */
#include "policy/limits.h"
#include "runtime/limits.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "common/mountinfo.h"

static const struct {
	const char *name;
	unsigned bit;
} controllers[] = {
	{"memory", LTD_CTL_MEMORY},
	{"cpu", LTD_CTL_CPU},
	{"pids", LTD_CTL_PIDS},
};

#define N_CTL (sizeof(controllers) / sizeof(controllers[0]))

unsigned ltd_limits_parse_controllers(const char *text)
{
	unsigned bits = 0;

	while (*text) {
		size_t len;

		text += strspn(text, " \t\n");
		len = strcspn(text, " \t\n");
		for (size_t i = 0; i < N_CTL; i++)
			if (len == strlen(controllers[i].name) &&
			    strncmp(text, controllers[i].name, len) == 0)
				bits |= controllers[i].bit;
		text += len;
	}
	return bits;
}

/* "memory cpu" for the bits in @bits. */
static void ctl_names(unsigned bits, char *buf, size_t size)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < N_CTL; i++)
		if (bits & controllers[i].bit)
			off += (size_t)snprintf(
				buf + off, off < size ? size - off : 0, "%s%s",
				off ? " " : "", controllers[i].name);
}

int ltd_limits_parse_self(const char *text, char *path, size_t size)
{
	for (const char *l = text; l && *l;
	     l = strchr(l, '\n'), l = l ? l + 1 : l) {
		size_t len;

		if (strncmp(l, "0::", 3) != 0)
			continue;
		l += 3;
		len = strcspn(l, "\n");
		if (len == 0 || l[0] != '/' || len >= size)
			return -EINVAL;
		memcpy(path, l, len);
		path[len] = '\0';
		return 0;
	}
	return -ENOENT;
}

int ltd_limits_parse_mountinfo(const char *text, char *mnt, size_t size)
{
	for (const char *l = text; l && *l;
	     l = strchr(l, '\n'), l = l ? l + 1 : l) {
		size_t llen = strcspn(l, "\n");
		const char *sep = strstr(l, " - cgroup2 ");
		const char *f = l;

		if (!sep || sep > l + llen)
			continue;
		/* id parent maj:min root MOUNTPOINT ... */
		for (int field = 0; field < 4; field++) {
			f = strchr(f, ' ');
			if (!f || f > sep)
				return -EINVAL;
			f++;
		}
		return ltd_mountinfo_unescape(f, strcspn(f, " "), mnt, size);
	}
	return -ENOENT;
}

void ltd_limits_values(const struct ltd_policy *p, struct ltd_limits_plan *pl)
{
	/* cpu.max: quota per period; a 100 ms period, as the kernel's
	 * default, and 1000 milli-CPUs = one period's worth. */
	snprintf(pl->memory_max, sizeof(pl->memory_max), "%llu",
		 (unsigned long long)p->memory_bytes);
	snprintf(pl->cpu_max, sizeof(pl->cpu_max), "%llu 100000",
		 (unsigned long long)p->cpus_milli * 100);
	snprintf(pl->pids_max, sizeof(pl->pids_max), "%u", p->pids_limit);
}

static void why_not(const struct ltd_cg_facts *f, char *buf, size_t size)
{
	char names[32];

	if (!f->v2) {
		snprintf(buf, size, "no cgroup v2 hierarchy");
	} else if (!f->writable) {
		snprintf(buf, size, "cgroup %s is not delegated to you",
			 f->dir);
	} else if ((f->available & LTD_CTL_ALL) != LTD_CTL_ALL) {
		ctl_names(LTD_CTL_ALL & ~f->available, names, sizeof(names));
		snprintf(buf, size, "cgroup %s lacks the controllers: %s",
			 f->dir, names);
	} else {
		snprintf(buf, size,
			 "other processes share cgroup %s; start ltd-native "
			 "in a scope of its own (systemd-run --user --scope "
			 "-p Delegate=yes)",
			 f->dir);
	}
}

int ltd_limits_decide(const struct ltd_policy *p, const struct ltd_cg_facts *f,
		      struct ltd_limits_plan *pl, struct ltd_err *err)
{
	unsigned need = LTD_CTL_ALL;

	*pl = (struct ltd_limits_plan){0};
	ltd_limits_values(p, pl);
	if (f->v2 && f->writable && (f->available & need) == need &&
	    ((f->enabled & need) == need || f->alone)) {
		pl->cgroup = true;
		pl->enable = need & ~f->enabled;
		/* A cgroup that enables controllers for its children may hold
		 * no process itself: the launcher moves to a leaf first. */
		pl->evacuate = pl->enable != 0;
		return 0;
	}
	why_not(f, pl->missing, sizeof(pl->missing));
	if (!p->allow_unenforced_limits) {
		if (p->limits_explicit & LTD_LIMIT_MEMORY)
			return ltd_err_set(err, ENOTSUP,
					   "--memory: cannot be enforced for "
					   "the whole cage here (%s); "
					   "--allow-unenforced-limits runs "
					   "with a per-process bound only "
					   "(see 'ltd-native doctor')",
					   pl->missing);
		if (p->limits_explicit & LTD_LIMIT_CPUS)
			return ltd_err_set(err, ENOTSUP,
					   "--cpus: cannot be enforced here "
					   "(%s); --allow-unenforced-limits "
					   "runs without a CPU bound (see "
					   "'ltd-native doctor')",
					   pl->missing);
		if ((p->limits_explicit & LTD_LIMIT_PIDS) &&
		    !f->nproc_per_userns)
			return ltd_err_set(err, ENOTSUP,
					   "--pids-limit: cannot be enforced "
					   "here (%s; RLIMIT_NPROC is not "
					   "counted per user namespace before "
					   "Linux 5.14); "
					   "--allow-unenforced-limits runs "
					   "without it",
					   pl->missing);
	}
	/* Per process, counting only private writable memory: see
	 * docs/decisions/0039-rlimits-without-cgroup.md on RLIMIT_DATA.
	 * RLIMIT_NPROC is set by the cage's init inside its own user
	 * namespace, where the kernel counts it per namespace (Linux 5.14):
	 * a bound on the cage alone.  On an older kernel it counts all the
	 * user's processes: not set. */
	pl->rlimit_data = p->memory_bytes;
	pl->rlimit_nproc = f->nproc_per_userns ? p->pids_limit : 0;
	return 0;
}

bool ltd_limits_warning(const struct ltd_policy *p,
			const struct ltd_limits_plan *pl, char *buf,
			size_t size)
{
	char pids[64];

	if (pl->cgroup)
		return false;
	if (pl->rlimit_nproc)
		snprintf(pids, sizeof(pids), "pids per cage (RLIMIT_NPROC %s)",
			 pl->pids_max);
	else
		snprintf(pids, sizeof(pids), "pids not at all");
	snprintf(buf, size,
		 "no cgroup for the cage (%s): memory is bounded per process "
		 "only (RLIMIT_DATA %s bytes), CPU not at all, %s; see "
		 "'ltd-native doctor'",
		 pl->missing, pl->memory_max, pids);
	return true;
}

bool ltd_limits_kernel_at_least(const char *release, unsigned major,
				unsigned minor)
{
	unsigned ma = 0, mi = 0;

	if (sscanf(release, "%u.%u", &ma, &mi) != 2)
		return false;
	return ma > major || (ma == major && mi >= minor);
}

/* Lower both soft and hard limits to @v; never raise (that needs
 * CAP_SYS_RESOURCE, and a lower host limit is the user's choice). */
static int lower_rlimit(int resource, const char *name, uint64_t v,
			struct ltd_err *err)
{
	struct rlimit r;

	if (v == 0)
		return 0;
	if (getrlimit(resource, &r) < 0)
		return ltd_err_sys(err, "getrlimit %s", name);
	if (r.rlim_max != RLIM_INFINITY && r.rlim_max < v)
		v = r.rlim_max;
	r.rlim_cur = r.rlim_max = v;
	if (setrlimit(resource, &r) < 0)
		return ltd_err_sys(err, "setrlimit %s", name);
	return 0;
}

int ltd_limits_apply_rlimits(const struct ltd_limits_plan *pl,
			     struct ltd_err *err)
{
	int ret =
		lower_rlimit(RLIMIT_DATA, "RLIMIT_DATA", pl->rlimit_data, err);

	return ret < 0 ? ret
		       : lower_rlimit(RLIMIT_NPROC, "RLIMIT_NPROC",
				      pl->rlimit_nproc, err);
}
