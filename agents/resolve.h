/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command resolver: a command is found where the user installed it.
 * Before the environment is cleared, a name is looked up on the caller's
 * PATH; what it leads to (links followed one by one, a `#!` line's
 * interpreter, `#!/usr/bin/env NAME` looked up in turn) is placed in the
 * cage: each install tree the cage does not show is bound read-only at
 * the same path (the layouts table, agents/layout.c), the links on the
 * way are made again inside, and a directory of the cage's own
 * (LTD_CMD_DIR) holds one link per command found.  Reads the host,
 * creates nothing.  docs/decisions/0120-command-resolver-binds.md
 */
#ifndef LTD_AGENTS_RESOLVE_H
#define LTD_AGENTS_RESOLVE_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"

/* A link: @path -> @target (its text); a bind has no target.  @why is
 * the resolver's @why when it was added. */
struct ltd_link {
	char *path;
	char *target;
	const char *why;
};

struct ltd_resolver {
	/* What the host gives. */
	const char *path;      /* the caller's PATH */
	const char *cage_path; /* the cage's PATH after LTD_CMD_DIR */
	const char *home;      /* the real home: never bound whole */
	const char *store;     /* the Nix store ("/nix/store") */
	bool nix_store_cmd;    /* may ask `nix-store -qR` for a closure */
	bool system_shown;     /* the host's /usr, /bin, /lib* are the
				  cage's (not --rootfs) */
	char **shown;	       /* other places the cage shows as the host
				  has them: the project, binds at their own
				  path */
	size_t n_shown;
	const char *why; /* what the next items are for ("command claude") */

	/* What the cage gets. */
	struct ltd_link *binds; /* real host paths, read-only at the same
				   path */
	size_t n_binds;
	struct ltd_link *links; /* links on the way, made again inside */
	size_t n_links;
	struct ltd_link *cmds; /* LTD_CMD_DIR/NAME -> where it was found */
	size_t n_cmds;
	char **notes; /* what the user should know (a layout not known) */
	size_t n_notes;
};

/*
 * Find @name (a bare command name, or an absolute path) and place what it
 * needs in @r.  -ENOENT when @name is not on the PATH (@err says where it
 * looked); other errors name the path at fault.
 */
int ltd_resolve_command(struct ltd_resolver *r, const char *name,
			struct ltd_err *err);

/* The path @name is found at on @path ("" when not), 0 or -ENOENT. */
int ltd_resolve_find(const char *path, const char *name, char *out,
		     size_t size);

/* @path is a place the cage shows as the host has it. */
bool ltd_resolve_shown(const struct ltd_resolver *r, const char *path);

/* Add @path to the binds (once; one under another bind is dropped). */
int ltd_resolve_add_bind(struct ltd_resolver *r, const char *path,
			 struct ltd_err *err);
int ltd_resolve_add_note(struct ltd_resolver *r, struct ltd_err *err,
			 const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

void ltd_resolver_free(struct ltd_resolver *r);

/*
 * What to bind for the real file @real (agents/layout.c): the install
 * tree its layout names (an npm package, a Node or Python version, a
 * virtual environment, a Claude Code version, a Nix store path and its
 * closure, a package in /opt), else the file alone.
 */
int ltd_layout_bind(struct ltd_resolver *r, const char *real,
		    struct ltd_err *err);

/*
 * The Nix store paths @top refers to, itself included, by scanning their
 * files for store paths as Nix does (or asking `nix-store -qR` when
 * r->nix_store_cmd); each added with ltd_resolve_add_bind().
 */
int ltd_nix_closure(struct ltd_resolver *r, const char *top,
		    struct ltd_err *err);

#endif
