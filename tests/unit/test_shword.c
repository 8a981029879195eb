// SPDX-License-Identifier: GPL-2.0-or-later
/* The sh-word reader (protect/shword.c): the words of a hook's or a git
 * command's line that may name a place (pure). */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protect/shword.h"

#define PROJ "/home/u/app"
#define HOME "/home/u"

static struct ltd_shword_place *v;
static size_t n;

static void paths(const char *cmd)
{
	ltd_shword_places_free(v, n);
	v = NULL;
	n = 0;
	cr_assert_eq(ltd_shword_places(cmd, PROJ, HOME, &v, &n), 0, "%s", cmd);
}

static bool has(const char *path, enum ltd_shword_kind kind)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].path, path) && v[i].kind == kind)
			return true;
	return false;
}

static bool names(const char *path)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].path, path))
			return true;
	return false;
}

static void fini(void)
{
	ltd_shword_places_free(v, n);
	v = NULL;
	n = 0;
}

TestSuite(shword, .fini = fini);

Test(shword, the_project_dir_variable_is_expanded)
{
	paths("\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/fmt.sh");
	cr_assert(has(PROJ "/.claude/hooks/fmt.sh", LTD_SHWORD_PATH));
	paths("${CLAUDE_PROJECT_DIR}/tools/check.py --fast");
	cr_assert(has(PROJ "/tools/check.py", LTD_SHWORD_PATH));
	cr_assert_eq(n, 1, "--fast is an option");
	paths("\"${CLAUDE_PROJECT_DIR:-.}\"/a.sh ${CLAUDE_PROJECT_DIR%/}/b.sh");
	cr_assert(has(PROJ "/a.sh", LTD_SHWORD_PATH) &&
			  has(PROJ "/b.sh", LTD_SHWORD_PATH),
		  "any ${CLAUDE_PROJECT_DIR...} form");
	paths("\"$(git rev-parse --show-toplevel)\"/c.sh $PWD/d.sh");
	cr_assert(has(PROJ "/c.sh", LTD_SHWORD_PATH) &&
			  has(PROJ "/d.sh", LTD_SHWORD_PATH),
		  "the repository's top level, the working directory");
}

Test(shword, relative_paths_and_interpreters)
{
	paths("python3 tools/check.py && ./scripts/x.sh | tee log; node "
	      "hook.js");
	cr_assert(has(PROJ "/tools/check.py", LTD_SHWORD_PATH));
	cr_assert(has(PROJ "/scripts/x.sh", LTD_SHWORD_PATH));
	cr_assert(has(PROJ "/python3", LTD_SHWORD_BARE), "a bare word");
	cr_assert(has(PROJ "/hook.js", LTD_SHWORD_BARE));
	paths("node --require=./scripts/pre.js -r ./b.js hook.js");
	cr_assert(has(PROJ "/scripts/pre.js", LTD_SHWORD_PATH),
		  "an option's =value");
	cr_assert(has(PROJ "/b.js", LTD_SHWORD_PATH));
	paths("BASH_ENV=./env.sh bash -c true");
	cr_assert(has(PROJ "/env.sh", LTD_SHWORD_PATH),
		  "an assignment's value");
}

Test(shword, quotes_escapes_and_line_joins)
{
	paths("'my dir/x.sh' \"a b/c.sh\" d\\ e/f.sh bash -c 'lint/run.sh'");
	cr_assert(has(PROJ "/my dir/x.sh", LTD_SHWORD_PATH));
	cr_assert(has(PROJ "/a b/c.sh", LTD_SHWORD_PATH));
	cr_assert(has(PROJ "/d e/f.sh", LTD_SHWORD_PATH));
	cr_assert(has(PROJ "/lint/run.sh", LTD_SHWORD_PATH));
	paths("./scr\\\nipts/x.sh \"./a\\\nb.sh\"");
	cr_assert(has(PROJ "/scripts/x.sh", LTD_SHWORD_PATH),
		  "a backslash-newline joins");
	cr_assert(has(PROJ "/ab.sh", LTD_SHWORD_PATH));
}

Test(shword, cd_moves_the_base_within_its_subshell)
{
	paths("bash -c \"cd sub && ./run.sh --x\"");
	cr_assert(has(PROJ "/sub/run.sh", LTD_SHWORD_PATH),
		  "an inner line, after its cd");
	paths("(cd web && npm test); ./scripts/x.sh");
	cr_assert(has(PROJ "/scripts/x.sh", LTD_SHWORD_PATH),
		  "a subshell's cd stays in it");
	cr_assert(!names(PROJ "/web/scripts/x.sh"));
	paths("bash -c \"cd sub\"; ./run.sh");
	cr_assert(has(PROJ "/run.sh", LTD_SHWORD_PATH),
		  "nor does an inner line's");
	paths(": cd; ./a.sh; echo cd x; ./b.sh");
	cr_assert(has(PROJ "/a.sh", LTD_SHWORD_PATH) &&
			  has(PROJ "/b.sh", LTD_SHWORD_PATH),
		  "cd as an argument moves nothing");
	paths("cd; ./c.sh");
	cr_assert(!names(PROJ "/c.sh"), "a bare cd goes home: not known");
	cr_assert(has("./c.sh", LTD_SHWORD_UNKNOWN));
	paths("cd -P tools && ./t.sh");
	cr_assert(has(PROJ "/tools/t.sh", LTD_SHWORD_PATH));
}

Test(shword, keywords_keep_the_command_position)
{
	paths("if true; then cd web; ./fmt.sh; fi");
	cr_assert(has(PROJ "/web/fmt.sh", LTD_SHWORD_PATH), "cd after then");
	paths("{ cd web; ./a.sh; }; command cd lib && ./b.sh");
	cr_assert(has(PROJ "/web/a.sh", LTD_SHWORD_PATH));
	cr_assert(has(PROJ "/web/lib/b.sh", LTD_SHWORD_PATH),
		  "command cd (a { } group does not scope cd)");
	paths("pushd web && popd && ./c.sh");
	cr_assert(has("./c.sh", LTD_SHWORD_UNKNOWN), "after popd: not known");
}

Test(shword, options_that_change_the_directory)
{
	paths("uv --directory mcp run server.py; ./top.sh");
	cr_assert(has(PROJ "/mcp/server.py", LTD_SHWORD_BARE),
		  "uv --directory DIR runs there");
	cr_assert(has(PROJ "/top.sh", LTD_SHWORD_PATH),
		  "for that command only");
	paths("make -C build/x all && npm --prefix=web run t ./w.js");
	cr_assert(has(PROJ "/build/x/all", LTD_SHWORD_BARE));
	cr_assert(has(PROJ "/web/w.js", LTD_SHWORD_PATH));
	/* After a word that keeps the command position (env, nice, sudo),
	 * its own options still move the base (the attacker's review of
	 * session 6: core.fsmonitor = env -C tools ./fsm.sh). */
	paths("env -C tools ./fsm.sh; env --chdir=t2 ./t.sh; make -Cb3 ./x.sh");
	cr_assert(has(PROJ "/tools/fsm.sh", LTD_SHWORD_PATH), "env -C DIR");
	cr_assert(has(PROJ "/t2/t.sh", LTD_SHWORD_PATH), "env --chdir=DIR");
	cr_assert(has(PROJ "/b3/x.sh", LTD_SHWORD_PATH), "-CDIR");
	paths("echo $'a\\x2f.sh/b'");
	cr_assert(has("$'a\\x2f.sh/b'", LTD_SHWORD_UNKNOWN), "$'...' said");
}

Test(shword, substitutions_are_read_and_unknown_words_said)
{
	paths("echo `./sub.sh` $(./sub2.sh) \"$(./sub3.sh)\" $X/y ${X}/z");
	cr_assert(has(PROJ "/sub.sh", LTD_SHWORD_PATH) &&
			  has(PROJ "/sub2.sh", LTD_SHWORD_PATH) &&
			  has(PROJ "/sub3.sh", LTD_SHWORD_PATH),
		  "what a substitution runs is read too");
	cr_assert(has("$X/y", LTD_SHWORD_UNKNOWN) &&
			  has("${X}/z", LTD_SHWORD_UNKNOWN),
		  "another variable: said, not guessed");
	paths("cd $X && ./a.sh; /home/u/app/c.sh");
	cr_assert(has("./a.sh", LTD_SHWORD_UNKNOWN),
		  "relative words after an unknown cd");
	cr_assert(has(PROJ "/c.sh", LTD_SHWORD_PATH),
		  "an absolute one is known");
}

Test(shword, redirections)
{
	paths("npx prettier --write src/ >> .claude/hook.log 2>&1 && sh < "
	      "./in.sh 2> err/x");
	cr_assert(!names(PROJ "/.claude/hook.log"), "an output is no input");
	cr_assert(!names(PROJ "/err/x"));
	cr_assert(!names(PROJ "/2"), "2> is a descriptor");
	cr_assert(has(PROJ "/in.sh", LTD_SHWORD_PATH), "sh < script runs it");
	cr_assert(has(PROJ "/src", LTD_SHWORD_PATH),
		  "named (a directory is left out when its files are read)");
}

Test(shword, globs_homes_and_comments)
{
	paths("scripts/[x].sh x*.sh ~/bin/t ~other/x # ./not.sh");
	cr_assert(has(PROJ "/scripts/[x].sh", LTD_SHWORD_GLOB));
	cr_assert(has(PROJ "/x*.sh", LTD_SHWORD_GLOB));
	cr_assert(has(HOME "/bin/t", LTD_SHWORD_PATH), "~ is the home");
	cr_assert(has("~other/x", LTD_SHWORD_UNKNOWN));
	cr_assert(!names(PROJ "/not.sh"), "a comment");
	paths("$HOME/app/h.sh");
	cr_assert(has(PROJ "/h.sh", LTD_SHWORD_PATH),
		  "the project reached from $HOME");
}

Test(shword, nothing_strictly_inside_is_left_to_the_caller)
{
	/* The places are returned wherever they are: ltd_agentprotect_project
	 * keeps those in the project (and resolves links outside it). */
	paths("/usr/bin/jq . ../out.sh a/../../etc/z");
	cr_assert(has("/usr/bin/jq", LTD_SHWORD_PATH));
	cr_assert(has("/home/u/out.sh", LTD_SHWORD_PATH));
	cr_assert(has("/home/u/etc/z", LTD_SHWORD_PATH));
}

Test(shword, a_flood_of_words_is_refused)
{
	char *cmd = malloc(2000 * 8 + 1);

	for (int i = 0; i < 2000; i++)
		sprintf(cmd + i * 8, "./%05d ", i);
	cr_assert_eq(ltd_shword_places(cmd, PROJ, HOME, &v, &n), -E2BIG);
	v = NULL;
	n = 0;
	free(cmd);
}
