# shellcheck shell=bash
# The command is found where the user installed it (issue 14): the agents
# run with no flag but the command, an --agent is there for `exec`, a
# command that is nowhere exits 127 saying where it was looked for, and
# only the install trees go in (never npm's etc/, never ~/.local/bin whole,
# never past the gate).

# arun ARGS...: ltd-native ARGS as the test user in the project, with the
# agents' prefix first on PATH as the user's shell would have it; output in
# $OUT, status in $RC.
arun() {
	OUT=$(cd "$PROJ" && timeout 300 "${USER_CMD[@]}" \
		env PATH="${APATH:-$NPG/bin:/usr/local/bin:/usr/bin:/bin}" \
		"$LTD" "$@" 2>&1)
	RC=$?
}

if [ "$HAVE_CLAUDE" = 1 ]; then
	arun run -- claude --version
	expect_out "run -- claude --version, no other flag" "^2\.1\.[0-9]+ \(Claude Code\)$"
fi
if [ "$HAVE_CODEX" = 1 ]; then
	arun run -- codex --version
	expect_out "run -- codex --version, no other flag (node wrapper, musl binary)" "^codex-cli 0\.[0-9.]+$"
fi
if [ "$HAVE_GEMINI" = 1 ]; then
	arun run -- gemini --version
	expect_out "run -- gemini --version, no other flag" "^0\.[0-9.]+$"
fi

arun run -- no-such-agent --version
expect_rc "a command found nowhere exits 127" 127
expect_out "... naming what was looked up and where" "no-such-agent.*not found on your PATH \($NPG/bin:"

# npm's global config (a registry token) and the other tools of the prefix
# stay out; only the package and its link go in.
as_user mkdir -p "$NPG/etc"
as_user sh -c "echo '//registry.example/:_authToken=NPM-SECRET' > '$NPG/etc/npmrc'"
if [ "$HAVE_CODEX" = 1 ]; then
	arun run -- codex --version
	arun run --agent codex -- sh -c 'ls ~/.npm-global/bin; cat ~/.npm-global/etc/npmrc 2>&1; ls ~/.npm-global/lib/node_modules/*/'
	expect_no_out "the prefix's etc/npmrc is not in the cage" "NPM-SECRET"
	expect_no_out "the other packages of the prefix are not in the cage" "claude-code|gemini-cli"
	expect_out "the agent's link is there" "^codex$"

	# --agent: available though the command is a shell, also to exec.
	arun run --agent codex -- sh -c 'command -v codex; codex --version'
	expect_out "--agent codex is on the cage's PATH" "^/run/ltd/bin/codex$"
	expect_out "--agent codex runs from a shell" "^codex-cli "
	name=agents-exec-$$
	(cd "$PROJ" && exec "${USER_CMD[@]}" env PATH="$NPG/bin:/usr/bin:/bin" "$LTD" run \
		--network none --name "$name" --keep-running --agent codex -- sleep 300 \
		</dev/null >/dev/null 2>&1) &
	cage_pid=$!
	for _ in $(seq 100); do
		as_user "$LTD" ps | grep -q "^$name " && break
		sleep 0.1
	done
	OUT=$(cd "$PROJ" && as_user "$LTD" exec "$name" -- codex --version 2>&1)
	RC=$?
	expect_out "exec NAME -- codex in a cage started with --agent codex" "^codex-cli "
	as_user "$LTD" kill "$name" >/dev/null 2>&1
	wait "$cage_pid"
fi
as_user rm -rf "$NPG/etc"

# Claude Code's native installer: ~/.local/bin/claude -> the version file
# (a hard link of the npm binary: nothing downloaded).  Only that version
# goes in, and ~/.local/bin holds only claude inside.
if [ "$HAVE_CLAUDE" = 1 ]; then
	cv=$(installed_version @anthropic-ai/claude-code)
	as_user mkdir -p "$U_HOME/.local/bin" "$U_HOME/.local/share/claude/versions"
	as_user ln -f "$NPG/lib/node_modules/@anthropic-ai/claude-code/bin/claude.exe" \
		"$U_HOME/.local/share/claude/versions/$cv"
	as_user ln -sfn "$U_HOME/.local/share/claude/versions/$cv" "$U_HOME/.local/bin/claude"
	as_user sh -c "printf '#!/bin/sh\necho other\n' > '$U_HOME/.local/bin/other-tool'; chmod 755 '$U_HOME/.local/bin/other-tool'"
	APATH=$U_HOME/.local/bin:/usr/bin:/bin arun run -- claude --version
	expect_out "claude from the native installer (~/.local/bin -> versions/)" "^$cv \(Claude Code\)$"
	APATH=$U_HOME/.local/bin:/usr/bin:/bin arun run --agent claude -- sh -c 'ls ~/.local/bin; readlink ~/.local/bin/claude'
	expect_out "~/.local/bin/claude is the same link inside" "^$U_HOME/.local/share/claude/versions/$cv$"
	expect_no_out "the rest of ~/.local/bin stays out" "other-tool"
	as_user rm -rf "$U_HOME/.local/bin" "$U_HOME/.local/share/claude"
fi

# The gate still holds for what the resolver binds: a command installed in
# a credential store is refused, naming the gate's flag.
as_user mkdir -p "$U_HOME/.aws/bin"
as_user sh -c "printf '#!/bin/sh\necho aws-tool\n' > '$U_HOME/.aws/bin/awstool'; chmod 755 '$U_HOME/.aws/bin/awstool'"
APATH=$U_HOME/.aws/bin:/usr/bin:/bin arun run -- awstool
expect_rc "a command inside a credential store is refused" 125
expect_out "... as the gate says" "unsafe-bind-credentials"
as_user rm -rf "$U_HOME/.aws"
