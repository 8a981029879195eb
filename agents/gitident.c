// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cage's ~/.gitconfig: the user's identity and a short list of
 * harmless settings, as git on the host would resolve them for this
 * project from the global config (includes followed, and includeIf's
 * gitdir:, gitdir/i: and onbranch: conditions judged for this project
 * with git's own matching), written out as plain values.  Never an
 * include, a credential helper, an alias, a hooks path or anything else
 * git runs as a command: only the listed keys come in.  Commit signing
 * only where the key is reachable: SSH signing with --ssh-agent.
 * docs/decisions/0124-git-identity-in-the-cage.md
 */
#include "agents/adapters.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base.h"
#include "common/cleanup.h"
#include "common/path.h"
#include "protect/gitconfig.h"

#define MAX_INCLUDE 10
#define MAX_CONFIG  (1u << 20)
#define MAX_KEYS    64

/* What comes in, as "section.key" (git's names are case-insensitive). */
static const char *const carried[] = {
	"user.name",
	"user.email",
	"author.name",
	"author.email",
	"committer.name",
	"committer.email",
	"init.defaultbranch",
	"core.autocrlf",
	"core.eol",
	"core.safecrlf",
	"core.quotepath",
	"core.whitespace",
	"pull.rebase",
	"pull.ff",
	"push.default",
	"push.autosetupremote",
	"merge.conflictstyle",
	"merge.ff",
	"rebase.autosquash",
	"rebase.autostash",
	"rebase.updaterefs",
	"fetch.prune",
	"diff.algorithm",
	"diff.colormoved",
	"diff.renames",
	"color.ui",
	"column.ui",
	"branch.sort",
	"tag.sort",
	"commit.verbose",
	"rerere.enabled",
	"status.showuntrackedfiles",
	"log.date",
	/* signing: kept only when the key is reachable (signing()) */
	"gpg.format",
	"user.signingkey",
	"commit.gpgsign",
	"tag.gpgsign",
};

struct ident {
	const char *home;
	char gitdir[PATH_MAX]; /* the project's git directory, "" if none */
	char branch[256];      /* its checked-out branch, "" if none */
	int depth;
	char *keys[MAX_KEYS]; /* "section.key" */
	char *vals[MAX_KEYS];
	size_t n;
};

/* git's wildmatch() with WM_PATHNAME: '*' and '?' stop at '/', '**'
 * crosses them, "**" + "/" matches no directory too, [...] classes. */
static bool wm(const char *p, const char *t, bool fold);

static bool wm_class(const char **pp, char c, bool fold)
{
	const char *p = *pp + 1;
	bool neg = *p == '!' || *p == '^', hit = false;

	if (neg)
		p++;
	for (bool first = true; *p && (first || *p != ']'); first = false) {
		char lo = *p++, hi = lo;

		if (*p == '-' && p[1] && p[1] != ']') {
			hi = p[1];
			p += 2;
		}
		if ((c >= lo && c <= hi) ||
		    (fold && tolower(c) >= tolower(lo) &&
		     tolower(c) <= tolower(hi)))
			hit = true;
	}
	*pp = *p ? p : p - 1;
	return hit != neg;
}

static bool wm_star(const char *p, const char *t, bool fold)
{
	if (p[1] == '*') {
		while (*p == '*')
			p++;
		if (*p == '/') /* "**" "/": zero or more directories */
			for (const char *s = t;; s++) {
				if ((s == t || s[-1] == '/') &&
				    wm(p + 1, s, fold))
					return true;
				if (!*s)
					return false;
			}
		for (const char *s = t;; s++) {
			if (wm(p, s, fold))
				return true;
			if (!*s)
				return false;
		}
	}
	for (const char *s = t;; s++) {
		if (wm(p + 1, s, fold))
			return true;
		if (!*s || *s == '/')
			return false;
	}
}

static bool wm(const char *p, const char *t, bool fold)
{
	for (; *p; p++, t++) {
		if (*p == '*')
			return wm_star(p, t, fold);
		if (!*t)
			return false;
		if (*p == '?') {
			if (*t == '/')
				return false;
		} else if (*p == '[') {
			if (*t == '/' || !wm_class(&p, *t, fold))
				return false;
		} else {
			if (*p == '\\' && p[1])
				p++;
			if (fold ? tolower((unsigned char)*p) !=
					    tolower((unsigned char)*t)
				 : *p != *t)
				return false;
		}
	}
	return !*t;
}

/* "~/x" under the user's home (git's $HOME), anything else as it is. */
static const char *expand(const struct ident *id, const char *v, char *buf,
			  size_t size)
{
	if (strncmp(v, "~/", 2) != 0 || !id->home)
		return v;
	if (ltd_path_fmt(buf, size, "%s/%s", id->home, v + 2) < 0)
		return "";
	return buf;
}

/* An includeIf condition, judged for this project as git judges it.
 * @dir is the directory of the file that holds it. */
static bool condition(const struct ident *id, const char *cond, const char *dir)
{
	char pat[PATH_MAX + 8], home[PATH_MAX];
	bool fold = false;
	const char *v;
	size_t n;

	if (!strncmp(cond, "onbranch:", 9)) {
		snprintf(pat, sizeof(pat), "%s%s", cond + 9,
			 cond[strlen(cond) - 1] == '/' ? "**" : "");
		return id->branch[0] && wm(pat, id->branch, false);
	}
	if (!strncmp(cond, "gitdir/i:", 9))
		fold = true;
	else if (strncmp(cond, "gitdir:", 7))
		return false; /* hasconfig:... and the unknown: not here */
	v = cond + (fold ? 9 : 7);
	if (!id->gitdir[0])
		return false;
	if (!strncmp(v, "./", 2))
		snprintf(pat, sizeof(pat), "%s/%s", dir, v + 2);
	else if (v[0] == '~' && v[1] == '/')
		snprintf(pat, sizeof(pat), "%s",
			 expand(id, v, home, sizeof(home)));
	else if (v[0] != '/')
		snprintf(pat, sizeof(pat), "**/%s", v);
	else
		snprintf(pat, sizeof(pat), "%s", v);
	n = strlen(pat);
	if (n && pat[n - 1] == '/' && n + 2 < sizeof(pat))
		strcat(pat, "**");
	return wm(pat, id->gitdir, fold);
}

static int read_config(struct ident *id, const char *path);

static bool carried_key(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(carried); i++)
		if (!strcasecmp(carried[i], name))
			return true;
	return false;
}

static void put(struct ident *id, const char *name, const char *val)
{
	char *k, *v;

	for (size_t i = 0; i < id->n; i++)
		if (!strcasecmp(id->keys[i], name)) {
			v = strdup(val);
			if (v) {
				free(id->vals[i]);
				id->vals[i] = v;
			}
			return;
		}
	if (id->n == MAX_KEYS || !(k = strdup(name)) || !(v = strdup(val)))
		return;
	for (char *c = k; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	id->keys[id->n] = k;
	id->vals[id->n++] = v;
}

struct reading {
	struct ident *id;
	const char *dir; /* of the file being read */
};

static int on_key(void *ctx, const char *section, const char *key,
		  const char *val)
{
	struct reading *r = ctx;
	char name[320], path[PATH_MAX], home[PATH_MAX];
	const char *inc = NULL;

	if (!strcasecmp(key, "path") && !strcmp(section, "include"))
		inc = val;
	else if (!strcasecmp(key, "path") &&
		 !strncmp(section, "includeif.", 10) &&
		 condition(r->id, section + 10, r->dir))
		inc = val;
	if (inc) {
		inc = expand(r->id, inc, home, sizeof(home));
		if (inc[0] != '/' &&
		    ltd_path_fmt(path, sizeof(path), "%s/%s", r->dir, inc) == 0)
			inc = path;
		if (inc[0] == '/')
			read_config(r->id, inc);
		return 0;
	}
	if (strchr(section, '.'))
		return 0; /* a subsection: remotes, branches, urls... */
	snprintf(name, sizeof(name), "%s.%s", section, key);
	/* Listed keys run nothing; asked anyway, in case git grows. */
	if (carried_key(name) &&
	    !ltd_gitconfig_command(section, key, val, path, sizeof(path)))
		put(r->id, name, val);
	return 0;
}

static int read_config(struct ident *id, const char *path)
{
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *text = NULL;
	char dir[PATH_MAX];
	struct reading r = {.id = id, .dir = dir};
	struct stat st;
	ssize_t len;

	if (id->depth >= MAX_INCLUDE)
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > MAX_CONFIG || !(text = malloc((size_t)st.st_size + 1)))
		return 0;
	len = read(fd, text, (size_t)st.st_size);
	if (len < 0)
		return 0;
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	id->depth++;
	ltd_gitconfig_parse(text, (size_t)len, on_key, &r);
	id->depth--;
	return 0;
}

/* The project's git directory and branch, as git finds them from it. */
static void find_repo(struct ident *id, const char *project)
{
	char dir[PATH_MAX], dotgit[PATH_MAX + 8], head[512];
	struct stat st;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s", project);
	for (;;) {
		snprintf(dotgit, sizeof(dotgit), "%s/.git", dir);
		if (stat(dotgit, &st) == 0)
			break;
		if (!strrchr(dir, '/') || dir[1] == '\0')
			return;
		*strrchr(dir, '/') = '\0';
		if (!dir[0])
			strcpy(dir, "/");
	}
	if (S_ISREG(st.st_mode) && (f = fopen(dotgit, "re"))) {
		char line[PATH_MAX + 16];

		if (fgets(line, sizeof(line), f) &&
		    !strncmp(line, "gitdir: ", 8)) {
			line[strcspn(line, "\n")] = '\0';
			if (ltd_path_fmt(dotgit, sizeof(dotgit), "%s%s%s",
					 line[8] == '/' ? "" : dir,
					 line[8] == '/' ? "" : "/",
					 line + 8) < 0)
				dotgit[0] = '\0';
		}
		fclose(f);
	}
	if (!realpath(dotgit, id->gitdir))
		id->gitdir[0] = '\0';
	snprintf(head, sizeof(head), "%s/HEAD", id->gitdir);
	f = id->gitdir[0] ? fopen(head, "re") : NULL;
	if (f && fgets(head, sizeof(head), f) &&
	    !strncmp(head, "ref: refs/heads/", 16)) {
		head[strcspn(head, "\n")] = '\0';
		if (ltd_path_fmt(id->branch, sizeof(id->branch), "%s",
				 head + 16) < 0)
			id->branch[0] = '\0';
	}
	if (f)
		fclose(f);
}

static const char *value(const struct ident *id, const char *name)
{
	for (size_t i = 0; i < id->n; i++)
		if (!strcmp(id->keys[i], name))
			return id->vals[i];
	return NULL;
}

/*
 * SSH signing with the key in the agent (--ssh-agent): git needs the
 * public key, which ~/.ssh does not give the cage: given as "key::".
 * Anything else cannot sign in the cage: no signing, so commits work.
 */
static void signing(struct ident *id, bool ssh_agent)
{
	const char *fmt = value(id, "gpg.format"), *key;
	char path[PATH_MAX], buf[PATH_MAX], pub[8192];
	bool ok = false;
	FILE *f;

	key = value(id, "user.signingkey");
	if (ssh_agent && fmt && !strcmp(fmt, "ssh") && key) {
		if (!strncmp(key, "key::", 5) || !strncmp(key, "ssh-", 4)) {
			ok = true;
		} else {
			key = expand(id, key, buf, sizeof(buf));
			f = ltd_path_fmt(path, sizeof(path), "%s%s", key,
					 strstr(key, ".pub") ? "" : ".pub") == 0
				    ? fopen(path, "re")
				    : NULL;
			if (f && fgets(pub + 5, (int)sizeof(pub) - 5, f) &&
			    !strncmp(pub + 5, "ssh-", 4)) {
				memcpy(pub, "key::", 5);
				pub[strcspn(pub, "\n")] = '\0';
				put(id, "user.signingkey", pub);
				ok = true;
			}
			if (f)
				fclose(f);
		}
	}
	if (ok)
		return;
	for (size_t i = 0; i < id->n; i++)
		if (!strcmp(id->keys[i], "commit.gpgsign") ||
		    !strcmp(id->keys[i], "tag.gpgsign") ||
		    !strcmp(id->keys[i], "user.signingkey") ||
		    !strcmp(id->keys[i], "gpg.format"))
			id->vals[i][0] = '\0';
}

/* A value as git reads it back: quoted, \ " and controls escaped. */
static void write_value(FILE *f, const char *v)
{
	fputc('"', f);
	for (; *v; v++) {
		if (*v == '"' || *v == '\\')
			fprintf(f, "\\%c", *v);
		else if (*v == '\n')
			fputs("\\n", f);
		else if (*v == '\t')
			fputs("\\t", f);
		else if ((unsigned char)*v >= 0x20)
			fputc(*v, f);
	}
	fputc('"', f);
}

static char *render(const struct ident *id)
{
	char *text = NULL, section[64] = "";
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	fputs("# Written by ltd-native from your global git config, as git "
	      "resolves it\n# for this project (docs/guide/agents.md): "
	      "values only.\n",
	      f);
	for (size_t i = 0; i < id->n; i++) {
		const char *dot = strchr(id->keys[i], '.');
		size_t sl = (size_t)(dot - id->keys[i]);

		if (!id->vals[i][0] && strcmp(id->keys[i], "user.name") &&
		    strcmp(id->keys[i], "user.email"))
			continue;
		if (strlen(section) != sl ||
		    strncmp(section, id->keys[i], sl)) {
			snprintf(section, sizeof(section), "%.*s", (int)sl,
				 id->keys[i]);
			fprintf(f, "[%s]\n", section);
		}
		fprintf(f, "\t%s = ", dot + 1);
		write_value(f, id->vals[i]);
		fputc('\n', f);
	}
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* The global config files git reads, in its order. */
static void read_global(struct ident *id, const char *home)
{
	const char *g = getenv("GIT_CONFIG_GLOBAL"), *x;
	char path[PATH_MAX];

	if (g && *g) {
		read_config(id, g);
		return;
	}
	x = getenv("XDG_CONFIG_HOME");
	if (x && x[0] == '/')
		snprintf(path, sizeof(path), "%s/git/config", x);
	else
		snprintf(path, sizeof(path), "%s/.config/git/config", home);
	read_config(id, path);
	snprintf(path, sizeof(path), "%s/.gitconfig", home);
	read_config(id, path);
}

int ltd_git_identity(struct ltd_policy *p, struct ltd_err *err)
{
	struct ident id = {.home = p->host_home};
	char dst[PATH_MAX];
	_cleanup_free_ char *text = NULL;
	int ret = 0;

	if (!p->host_home || !p->project)
		return 0;
	find_repo(&id, p->project);
	read_global(&id, p->host_home);
	signing(&id, p->ssh_agent);
	if (id.n) {
		text = render(&id);
		if (!text)
			ret = ltd_err_set(err, ENOMEM, "out of memory");
		else if (ltd_path_fmt(dst, sizeof(dst), "%s/.gitconfig",
				      p->id.home) == 0)
			ret = ltd_policy_add_file(p, dst, text, strlen(text),
						  0644, "git identity", err);
	}
	for (size_t i = 0; i < id.n; i++) {
		free(id.keys[i]);
		free(id.vals[i]);
	}
	return ret;
}
