// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Give back what only the set-up needed (runtime/memtrim.h).  Every page
 * dropped here is one the kernel could drop itself under memory pressure:
 * a clean page of a file mapping that was never written (it comes back
 * from the page cache) or stack below the live frames (it comes back as
 * zeros, and nothing reads it before writing it).  So dropping it changes
 * nothing a later step can see; it only costs a page fault if that step
 * touches the page again.
 */
#include "runtime/memtrim.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <malloc.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "common/base.h"
#include "runtime/testhooks.h"

static uintptr_t page_down(uintptr_t a, uintptr_t page)
{
	return a & ~(page - 1);
}

static uintptr_t page_up(uintptr_t a, uintptr_t page)
{
	return (a + page - 1) & ~(page - 1);
}

/* Text relocations would have written to a read-only segment (never in
 * our PIE, built with full RELRO; a library could): such an object is
 * left alone. */
static bool has_textrel(const struct dl_phdr_info *info)
{
	for (size_t i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const ElfW(Dyn) * d;

		if (ph->p_type != PT_DYNAMIC)
			continue;
		d = (const ElfW(Dyn) *)(info->dlpi_addr + ph->p_vaddr);
		for (; d->d_tag != DT_NULL; d++)
			if (d->d_tag == DT_TEXTREL ||
			    (d->d_tag == DT_FLAGS &&
			     (d->d_un.d_val & DF_TEXTREL)))
				return true;
	}
	return false;
}

/* Does [a, b) meet a segment of @info's that was ever writable (RW
 * PT_LOAD, PT_GNU_RELRO: relocated), or the vDSO? */
static bool meets_written(const struct dl_phdr_info *info, uintptr_t a,
			  uintptr_t b, uintptr_t page)
{
	uintptr_t vdso = (uintptr_t)getauxval(AT_SYSINFO_EHDR);

	for (size_t i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t s = info->dlpi_addr + ph->p_vaddr;
		uintptr_t e = s + ph->p_memsz;

		if (ph->p_type == PT_LOAD && vdso && vdso >= s && vdso < e)
			return true;
		if (!(ph->p_type == PT_GNU_RELRO ||
		      (ph->p_type == PT_LOAD && (ph->p_flags & PF_W))))
			continue;
		if (page_down(s, page) < b && page_up(e, page) > a)
			return true;
	}
	return false;
}

/* Whole pages of segments never written, to drop. */
struct ranges {
	uintptr_t page;
	size_t n;
	uintptr_t from[64], to[64];
};

/* The segments @info's object never wrote, their whole pages only. */
static int never_written(struct dl_phdr_info *info, size_t size, void *data)
{
	struct ranges *r = data;
	uintptr_t page = r->page;

	if (has_textrel(info))
		return 0;
	for (size_t i = 0; i < info->dlpi_phnum && r->n < ARRAY_SIZE(r->from);
	     i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t s = info->dlpi_addr + ph->p_vaddr;
		uintptr_t a = page_up(s, page);
		uintptr_t b = page_down(s + ph->p_filesz, page);

		if (ph->p_type != PT_LOAD || (ph->p_flags & PF_W) || a >= b ||
		    meets_written(info, a, b, page))
			continue;
		r->from[r->n] = a;
		r->to[r->n++] = b;
	}
	return 0;
}

/* The start of the mapping that holds @sp (the stack), from
 * /proc/self/maps; 0 if it cannot be read (no /proc in the cage). */
static uintptr_t mapping_start(uintptr_t sp)
{
	char buf[1024];
	size_t len = 0;
	bool mid_line = false; /* the rest of a line longer than buf */
	uintptr_t found = 0;
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return 0;
	while (!found && (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0) {
		char *line = buf, *nl;

		len += (size_t)n;
		buf[len] = '\0';
		while (!found &&
		       (nl = memchr(line, '\n', len - (size_t)(line - buf)))) {
			char *end;
			uintptr_t s = strtoul(line, &end, 16), e;

			if (!mid_line && *end == '-') {
				e = strtoul(end + 1, &end, 16);
				if (*end == ' ' && s <= sp && sp < e)
					found = s;
			}
			mid_line = false;
			line = nl + 1;
		}
		len -= (size_t)(line - buf);
		memmove(buf, line, len);
		if (len == sizeof(buf) - 1) { /* no line end in a full buffer */
			len = 0;
			mid_line = true;
		}
	}
	close(fd);
	return found;
}

/* The stack below this frame's page and the one under it (the red zone,
 * and the calls it makes: deeper than any of the wait loops' frames). */
__attribute__((noinline)) static void trim_stack(uintptr_t page)
{
	volatile char here = 0;
	uintptr_t sp = (uintptr_t)&here;
	uintptr_t low = mapping_start(sp);
	uintptr_t top = page_down(sp, page) - page;

	if (low && low < top)
		madvise((void *)low, top - low, MADV_DONTNEED);
}

/* The code dropped last, and what runs after it (this function's tail,
 * the wait loops) kept in one place: the wait then faults back one window
 * of code (the kernel maps 64 KB around a fault), not one per caller. */
LTD_WAIT_CODE void ltd_mem_trim(void)
{
	struct ranges r = {.page = (uintptr_t)sysconf(_SC_PAGESIZE)};
	int saved = errno;

	dl_iterate_phdr(never_written, &r);
	trim_stack(r.page);
	malloc_trim(0);
	for (size_t i = 0; i < r.n; i++)
		madvise((void *)r.from[i], r.to[i] - r.from[i], MADV_DONTNEED);
	errno = saved;
}

LTD_WAIT_CODE static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

LTD_WAIT_CODE void ltd_trim_start(struct ltd_trim *t)
{
	int ms = ltd_test_trim_ms();

	t->done = false;
	t->due_ms = now_ms() + (ms >= 0 ? ms : LTD_TRIM_AFTER_MS);
}

LTD_WAIT_CODE int ltd_trim_timeout(const struct ltd_trim *t)
{
	long long left;

	if (t->done)
		return -1;
	left = t->due_ms - now_ms();
	return left > 0 ? (int)(left < INT32_MAX ? left : INT32_MAX) : 0;
}

LTD_WAIT_CODE void ltd_trim_if_due(struct ltd_trim *t)
{
	if (t->done || now_ms() < t->due_ms)
		return;
	t->done = true;
	ltd_mem_trim();
}
