// SPDX-License-Identifier: GPL-2.0-or-later
#include "rootfs/manifest.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/names.h"

static bool needs_escape(unsigned char c)
{
	return c <= 0x20 || c >= 0x7f || c == '%';
}

char *ltd_manifest_escape(const char *in)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = 0;
	char *out, *o;

	for (const unsigned char *c = (const unsigned char *)in; *c; c++)
		n += needs_escape(*c) ? 3 : 1;
	out = malloc(n + 1);
	if (!out)
		return NULL;
	o = out;
	for (const unsigned char *c = (const unsigned char *)in; *c; c++) {
		if (needs_escape(*c)) {
			*o++ = '%';
			*o++ = hex[*c >> 4];
			*o++ = hex[*c & 15];
		} else {
			*o++ = (char)*c;
		}
	}
	*o = '\0';
	return out;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int ltd_manifest_unescape(char *s)
{
	char *o = s;

	for (char *c = s; *c; c++) {
		if (*c != '%') {
			if (needs_escape((unsigned char)*c))
				return -EINVAL;
			*o++ = *c;
			continue;
		}
		int hi = hexval(c[1]), lo = hi < 0 ? -1 : hexval(c[2]);

		/* %00 would cut the string; a needless escape would give
		 * two spellings of one path. */
		if (lo < 0 || (hi == 0 && lo == 0) ||
		    !needs_escape((unsigned char)(hi * 16 + lo)))
			return -EINVAL;
		*o++ = (char)(hi * 16 + lo);
		c += 2;
	}
	*o = '\0';
	return 0;
}

char *ltd_manifest_format(const struct ltd_mf_entry *e)
{
	char *path = ltd_manifest_escape(e->path), *fifth = NULL, *line = NULL;
	char size[24] = "-";
	int ret = -1;

	if (!path)
		return NULL;
	if (e->type == 'f') {
		snprintf(size, sizeof(size), "%" PRIu64, e->size);
		fifth = strdup(e->hash);
	} else if (e->type == 'l') {
		fifth = ltd_manifest_escape(e->target);
	} else {
		fifth = strdup("-");
	}
	if (fifth)
		ret = asprintf(&line, "%c %04o %u:%u %s %s %s\n", e->type,
			       e->type == 'l' ? 0777 : e->mode & 07777, e->uid,
			       e->gid, size, fifth, path);
	free(path);
	free(fifth);
	return ret < 0 ? NULL : line;
}

/* A decimal number without sign, leading zeros or overflow. */
static bool parse_u64(const char *s, uint64_t *v)
{
	uint64_t x = 0;

	if (!*s || (s[0] == '0' && s[1]))
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || x > (UINT64_MAX - 9) / 10)
			return false;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	return true;
}

static bool parse_owner(const char *s, unsigned *uid, unsigned *gid)
{
	char buf[32];
	char *colon;
	uint64_t u, g;

	if (strlen(s) >= sizeof(buf))
		return false;
	strcpy(buf, s);
	colon = strchr(buf, ':');
	if (!colon)
		return false;
	*colon = '\0';
	if (!parse_u64(buf, &u) || !parse_u64(colon + 1, &g) ||
	    u > UINT32_MAX || g > UINT32_MAX)
		return false;
	*uid = (unsigned)u;
	*gid = (unsigned)g;
	return true;
}

/* Parse one line (without its '\n') into @e; @line is modified. */
static int parse_line(char *line, struct ltd_mf_entry *e)
{
	char *f[6], *save = NULL, *end;
	size_t n = 0;
	unsigned long mode;

	*e = (struct ltd_mf_entry){0};
	for (char *t = strtok_r(line, " ", &save); t;
	     t = strtok_r(NULL, " ", &save)) {
		if (n == 6)
			return -EINVAL;
		f[n++] = t;
	}
	if (n != 6 || strlen(f[0]) != 1 || !strchr("dfl", f[0][0]) ||
	    strlen(f[1]) != 4)
		return -EINVAL;
	e->type = f[0][0];
	mode = strtoul(f[1], &end, 8);
	if (*end || mode > 07777 || !parse_owner(f[2], &e->uid, &e->gid))
		return -EINVAL;
	e->mode = (unsigned)mode;
	if (e->type == 'f') {
		if (!parse_u64(f[3], &e->size) || !ltd_hex_ok(f[4]))
			return -EINVAL;
		memcpy(e->hash, f[4], LTD_HEX_LEN + 1);
	} else if (strcmp(f[3], "-") != 0 ||
		   (e->type == 'd' && strcmp(f[4], "-") != 0) ||
		   (e->type == 'l' && mode != 0777)) {
		return -EINVAL;
	}
	if (ltd_manifest_unescape(f[5]) < 0 || f[5][0] != '/')
		return -EINVAL;
	if (e->type == 'l' && (ltd_manifest_unescape(f[4]) < 0 || !f[4][0]))
		return -EINVAL;
	e->path = strdup(f[5]);
	e->target = e->type == 'l' ? strdup(f[4]) : NULL;
	if (!e->path || (e->type == 'l' && !e->target)) {
		ltd_manifest_entry_free(e);
		return -ENOMEM;
	}
	return 0;
}

int ltd_manifest_parse(const char *buf, size_t len, struct ltd_manifest *m,
		       struct ltd_err *err)
{
	size_t hl = strlen(LTD_MANIFEST_HEADER), lineno = 1, cap = 0;
	const char *p = buf + hl, *end = buf + len;

	*m = (struct ltd_manifest){0};
	if (len < hl || memcmp(buf, LTD_MANIFEST_HEADER, hl) != 0)
		return ltd_err_set(err, EINVAL, "not a manifest (bad header)");
	if (memchr(buf, '\0', len))
		return ltd_err_set(err, EINVAL, "manifest holds a NUL byte");
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		char *line;
		int ret;

		lineno++;
		if (!nl) {
			ltd_manifest_free(m);
			return ltd_err_set(err, EINVAL,
					   "manifest line %zu: no newline",
					   lineno);
		}
		if (m->n == cap) {
			struct ltd_mf_entry *g;

			cap = cap ? cap * 2 : 256;
			g = realloc(m->e, cap * sizeof(*g));
			if (!g) {
				ltd_manifest_free(m);
				return ltd_err_set(err, ENOMEM,
						   "out of memory");
			}
			m->e = g;
		}
		line = strndup(p, (size_t)(nl - p));
		ret = line ? parse_line(line, &m->e[m->n]) : -ENOMEM;
		free(line);
		if (ret < 0) {
			ltd_manifest_free(m);
			return ltd_err_set(
				err, -ret, "manifest line %zu: %s", lineno,
				ret == -ENOMEM ? "out of memory" : "malformed");
		}
		m->n++;
		p = nl + 1;
	}
	if (m->n == 0 || strcmp(m->e[0].path, "/") != 0 ||
	    m->e[0].type != 'd') {
		ltd_manifest_free(m);
		return ltd_err_set(err, EINVAL,
				   "manifest does not start with its root "
				   "directory");
	}
	return 0;
}

void ltd_manifest_entry_free(struct ltd_mf_entry *e)
{
	free(e->path);
	free(e->target);
	e->path = e->target = NULL;
}

void ltd_manifest_free(struct ltd_manifest *m)
{
	for (size_t i = 0; i < m->n; i++)
		ltd_manifest_entry_free(&m->e[i]);
	free(m->e);
	*m = (struct ltd_manifest){0};
}

const struct ltd_mf_entry *ltd_manifest_find(const struct ltd_manifest *m,
					     const char *path)
{
	for (size_t i = 0; i < m->n; i++)
		if (strcmp(m->e[i].path, path) == 0)
			return &m->e[i];
	return NULL;
}

mode_t ltd_manifest_disk_mode(char type, unsigned mode)
{
	if (type == 'l')
		return 0777;
	if (type == 'd')
		return (mode & 0555) | 0500;
	return (mode & 0555) | 0400;
}
