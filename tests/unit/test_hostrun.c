// SPDX-License-Identifier: GPL-2.0-or-later
/* The project files other host programs run (protect/hostrun.c): which
 * paths the table names, what it adds to the protected set, what is moved
 * aside when the command created it, and that the guide lists every row. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "protect/hostrun.h"
#include "protect/protected.h"
#include "tests/common/fixture.h"

static const char *program(const char *rel)
{
	const struct ltd_hostrun *h = ltd_hostrun_find(rel);

	return h ? h->program : NULL;
}

Test(hostrun, a_file_entry_is_that_file_only)
{
	cr_assert_str_eq(program(".vscode/tasks.json"), "VS Code");
	cr_assert_str_eq(program(".gemini/settings.json"), "Gemini CLI");
	cr_assert_str_eq(program(".cursor/mcp.json"), "Cursor");
	cr_assert_str_eq(program(".codex/config.toml"), "Codex");
	cr_assert_null(program(".vscode/tasks.jsonx"));
	cr_assert_null(program(".vscode/tasks.json/x"));
	cr_assert_null(program("sub/.vscode/tasks.json"));
	cr_assert_null(program(".vscode"), "a directory holding entries is "
					   "not one");
	cr_assert_null(program("src/main.c"));
}

Test(hostrun, a_directory_entry_covers_what_it_holds)
{
	cr_assert_str_eq(program(".devcontainer"), "Dev Containers");
	cr_assert_str_eq(program(".devcontainer/devcontainer.json"),
			 "Dev Containers");
	cr_assert_str_eq(program(".gemini/extensions/x/gemini-extension.json"),
			 "Gemini CLI");
	cr_assert_null(program(".devcontainerx"));
}

Test(hostrun, a_pattern_matches_at_the_top_only)
{
	cr_assert_str_eq(program("app.code-workspace"), "VS Code");
	cr_assert_null(program("sub/app.code-workspace"));
	cr_assert_null(program("app.code-workspace.bak"));
}

/* --- the protected set ------------------------------------------------- */

static char dir[40];
static struct ltd_protected prot;

static void setup(void)
{
	fx_tmpdir(dir, sizeof(dir), "hostrun");
	prot.project = dir;
}

static void fini(void)
{
	ltd_protected_free(&prot);
	fx_rm_rf(dir);
}

static bool has(const char *rel)
{
	char path[512];

	fx_path(path, sizeof(path), dir, rel);
	return ltd_protected_has(&prot, path);
}

Test(hostrun, every_entry_joins_the_protected_set, .init = setup, .fini = fini)
{
	struct ltd_err err = {0};

	fx_put(dir, "app.code-workspace", "{}");
	fx_mkdir(dir, "sub", 0755);
	fx_put(dir, "sub/other.code-workspace", "{}");
	cr_assert_eq(ltd_hostrun_protect(&prot, &err), 0, "%s", err.msg);
	/* Present or not: a missing one is watched at exit. */
	cr_assert(has(".vscode/tasks.json"));
	cr_assert(has(".devcontainer"));
	cr_assert(has(".envrc"));
	cr_assert(has("app.code-workspace"));
	cr_assert_not(has("sub/other.code-workspace"));
	cr_assert_not(has("*.code-workspace"), "a pattern is not a path");
}

/* The attack: with no .vscode at the start (nothing to bind read-only),
 * the command writes a folderOpen task, which VS Code on the host would
 * run when the user opens the folder.  At exit it is moved aside, and the
 * warning says who runs it. */
Test(hostrun, a_created_task_file_is_moved_aside, .init = setup, .fini = fini)
{
	struct ltd_protected_id *before, *after;
	struct ltd_err err = {0};
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	cr_assert_eq(ltd_hostrun_protect(&prot, &err), 0, "%s", err.msg);
	before = ltd_protected_ids(&prot);
	cr_assert_not_null(before);
	fx_mkdir(dir, ".vscode", 0755);
	fx_put(dir, ".vscode/tasks.json",
	       "{\"tasks\":[{\"command\":\"sh evil\","
	       "\"runOptions\":{\"runOn\":\"folderOpen\"}}]}");
	fx_mkdir(dir, ".devcontainer", 0755);
	fx_put(dir, ".devcontainer/devcontainer.json", "{}");
	after = ltd_protected_ids(&prot);
	cr_assert_not_null(after);
	out = open_memstream(&text, &len);
	ltd_protected_quarantine(out, &prot, before, after);
	fclose(out);
	cr_assert_not(fx_exists(dir, ".vscode/tasks.json"));
	cr_assert(fx_exists(dir, ".vscode/tasks.json.ltd-native-quarantine"));
	cr_assert_not(fx_exists(dir, ".devcontainer"));
	cr_assert(fx_exists(dir, ".devcontainer.ltd-native-quarantine"));
	cr_assert_not_null(strstr(text, "VS Code on the host"), "%s", text);
	cr_assert_not_null(strstr(text, "folderOpen"), "%s", text);
	cr_assert_not_null(strstr(text, "Dev Containers"), "%s", text);
	/* What lies in a moved directory is not said again. */
	cr_assert_null(strstr(text, "devcontainer.json"), "%s", text);
	free(text);
	free(before);
	free(after);
}

/* A file that was there at the start is the user's: never moved. */
Test(hostrun, a_file_present_at_the_start_stays, .init = setup, .fini = fini)
{
	struct ltd_protected_id *before, *after;
	struct ltd_err err = {0};
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	fx_put(dir, ".envrc", "export A=1\n");
	cr_assert_eq(ltd_hostrun_protect(&prot, &err), 0, "%s", err.msg);
	before = ltd_protected_ids(&prot);
	after = ltd_protected_ids(&prot);
	out = open_memstream(&text, &len);
	ltd_protected_quarantine(out, &prot, before, after);
	fclose(out);
	cr_assert(fx_exists(dir, ".envrc"));
	cr_assert_str_eq(text, "");
	free(text);
	free(before);
	free(after);
}

/* docs/guide/filesystem.md lists the table row by row: "| `PATH` |
 * PROGRAM | ...", and no row the code does not hold. */
Test(hostrun, the_guide_lists_every_row)
{
	FILE *f = fopen("docs/guide/filesystem.md", "r");
	char *text = NULL, *at, *end;
	size_t len = 0, rows = 0;

	cr_assert_not_null(f, "docs/guide/filesystem.md");
	cr_assert(getdelim(&text, &len, '\0', f) > 0);
	fclose(f);
	at = strstr(text, "## Project files other programs run");
	cr_assert_not_null(at, "no section for the table");
	for (size_t i = 0; i < ltd_hostrun_count; i++) {
		const struct ltd_hostrun *h = &ltd_hostrun_table[i];
		char row[256];

		snprintf(row, sizeof(row), "| `%s%s` | %s |", h->path,
			 h->kind == LTD_HOSTRUN_DIR ? "/" : "", h->program);
		cr_assert_not_null(strstr(at, row), "no row %s", row);
	}
	end = strstr(at + 1, "\n## ");
	for (char *l = strstr(at, "\n| `"); l && (!end || l < end);
	     l = strstr(l + 1, "\n| `"))
		rows++;
	cr_assert_eq(rows, ltd_hostrun_count, "%zu rows for %zu entries", rows,
		     ltd_hostrun_count);
	free(text);
}
