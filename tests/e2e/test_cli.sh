# shellcheck shell=bash
# Every message ltd-native writes to stderr says whose it is: each line
# of a subcommand's error, its usage errors included, begins with
# "ltd-native: " (a list under such a line is indented).  A new user
# found `discard`'s lines without it.

# $@ as the test user, in the project: stderr alone in $ERR.
cli_err() {
	ERR=$(cd "$PROJ" && as_user "$LTD" "$@" 2>&1 >/dev/null </dev/null)
	RC=$?
}

cli_prefixed() { # WHAT ARGS...
	local what=$1 bad
	shift
	cli_err "$@"
	bad=$(printf '%s\n' "$ERR" | grep -v -e '^ltd-native: ' -e '^[[:space:]]' -e '^$')
	if [ -z "$ERR" ]; then
		fail "$what: says something on stderr (exit $RC)"
	elif [ -n "$bad" ]; then
		fail "$what: every line on stderr begins with 'ltd-native: '" "$ERR"
	elif [ "$RC" = 0 ]; then
		fail "$what: exits non-zero" "$ERR"
	else
		pass "$what: 'ltd-native: ' on every line of its error (exit $RC)"
	fi
}

cli_prefixed "no command"
cli_prefixed "an unknown command" bogus
cli_prefixed "run without --" run
cli_prefixed "run with an unknown flag" run --bogus -- true
cli_prefixed "exec without a name" exec
cli_prefixed "exec of no such cage" exec no-such-cage -- true
cli_prefixed "ps with a bad flag" ps --bogus
cli_prefixed "kill without a name" kill
cli_prefixed "kill of no such cage" kill no-such-cage
cli_prefixed "policy without a subcommand" policy
cli_prefixed "policy with a bad one" policy bogus
cli_prefixed "doctor with a bad flag" doctor --bogus
cli_prefixed "review with a bad flag" review --bogus
cli_prefixed "review of no such review" review no-such-review
cli_prefixed "diff without a name" diff
cli_prefixed "diff of no such review" diff no-such-review --no-pager
cli_prefixed "apply without a name" apply
cli_prefixed "apply of no such review" apply no-such-review
cli_prefixed "discard without a name" discard
cli_prefixed "discard with a flag" discard -x
cli_prefixed "discard of no such review" discard no-such-review

# And what discard says when it did its work, as apply does.
ltd run --network none --review cli-e2e -- sh -c 'echo x > cli-e2e-file'
if [ "$RC" = 0 ]; then
	ltd discard cli-e2e
	expect_rc "discard NAME of a pending review" 0
	expect_out "says so with the prefix the rest of the CLI uses" "^ltd-native: discarded review cli-e2e\$"
else
	skip "discard's own message" "run --review could not run here: $OUT"
fi
