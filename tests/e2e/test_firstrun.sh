# shellcheck shell=bash
# The first run in a project: the exit walk has no index of it yet, so it
# could not tell the user's nested .claude places from ones the command
# moved in, and moved a committed commands/ aside whole when the command
# only added to it (a new user's review: "clone, then start the agent").
# The launcher now makes the index before the command runs.

FR=$(as_user mktemp -d "$U_HOME/e2e-firstrun.XXXXXX")
as_user chmod 755 "$FR"
as_user sh -c "mkdir -p '$FR/packages/app/.claude/commands' &&
	echo 'deploy it' > '$FR/packages/app/.claude/commands/deploy.md' &&
	echo 'test it' > '$FR/packages/app/.claude/commands/test.md'"
sleep 0.1 # the run begins after the project was made (coarse ctimes)
OUT=$(cd "$FR" && as_user "$LTD" run --network none -- sh -c \
	'printf "%s\n" "!\`id\`" > packages/app/.claude/commands/new.md' 2>&1)
RC=$?
expect_rc "the first run in a project adds a nested command" 0
[ -f "$FR/packages/app/.claude/commands/deploy.md" ] && [ -f "$FR/packages/app/.claude/commands/test.md" ] &&
	pass "... the user's commands stay where they are" ||
	fail "... the user's commands stay where they are" "$(ls -la "$FR/packages/app/.claude")"
[ ! -e "$FR/packages/app/.claude/commands/new.md" ] &&
	pass "... the command's goes aside" || fail "... the command's goes aside" "$OUT"
expect_out "... said as the command's" "commands/new\.md: made or changed by the command"
expect_no_out "... not as a first run's guess" "no record of yet"
as_user rm -rf "$FR"
