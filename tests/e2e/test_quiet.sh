# shellcheck shell=bash
# --quiet and the host's standing warnings (issue 14): --quiet silences
# what is only information; a warning about what a protection leaves out
# on this host (no cgroup of the cage's own, an older Landlock ABI) is
# said on every run until `doctor --acknowledge`, and again when the
# host's facts change; what the command did and waived risks are always
# said.  --test-landlock-abi (a test hook) plays the host whose kernel
# changes.

ACK_DIR=$U_HOME/.config/ltd-native
ACK=$ACK_DIR/acknowledged
as_user rm -f "$ACK"

# stderr alone of an ltd-native run as the test user, in $ERR.
quiet_run() {
	ERR=$(cd "$PROJ" && as_user "$LTD" run --ro-bind "$STAGE" "$STAGE" "$@" 2>&1 >/dev/null)
	RC=$?
}
expect_err_empty() {
	if [ -z "$ERR" ] && [ "$RC" = 0 ]; then
		pass "$1"
	else
		fail "$1 (exit $RC)" "$ERR"
	fi
}
expect_err() {
	if printf '%s\n' "$ERR" | grep -Eq -- "$2"; then
		pass "$1"
	else
		fail "$1 (no line matches /$2/)" "$ERR"
	fi
}
expect_no_err() {
	if printf '%s\n' "$ERR" | grep -Eq -- "$2"; then
		fail "$1 (a line matches /$2/)" "$ERR"
	else
		pass "$1"
	fi
}

# Before: what this host warns of is said on every run, --quiet or not.
ltd doctor
standing=$(printf '%s\n' "$OUT" | grep -c '^runs warn: ')
quiet_run --quiet --network none -- true
if [ "$standing" -gt 0 ]; then
	expect_err "unacknowledged, a standing warning is said even with --quiet" "^ltd-native: warning: "
else
	expect_err_empty "(this host has no standing warning: --quiet says nothing)"
fi

ltd doctor --acknowledge
if [ "$RC" -le 1 ] && as_user test -f "$ACK"; then
	pass "doctor --acknowledge writes ~/.config/ltd-native/acknowledged"
else
	fail "doctor --acknowledge writes ~/.config/ltd-native/acknowledged (exit $RC)" "$OUT"
fi
[ "$(stat -c %a "$ACK" 2>/dev/null)" = 600 ] && pass "... mode 0600" || fail "... mode 0600" "$(ls -l "$ACK")"

quiet_run --quiet --network none -- true
expect_err_empty "after doctor --acknowledge, a --quiet run with --network none writes nothing to stderr"
quiet_run --quiet -- true
expect_err_empty "... nor an allowlist run"
quiet_run --quiet -- python3 -c 'import socket
try: socket.getaddrinfo("refused-name.test", 80)
except OSError: pass'
expect_err_empty "... nor one whose command was refused a name (the summary is information)"
ltd doctor --json
if [ "$standing" -gt 0 ]; then
	printf '%s\n' "$OUT" | python3 -c 'import json,sys
w = json.load(sys.stdin)["warnings"]
assert w and all(e["acknowledged"] is True and set(e) == {"check", "warning", "acknowledged"} for e in w), w' 2>&1 &&
		pass "doctor --json lists the acknowledged warnings, \"acknowledged\": true" ||
		fail "doctor --json lists the acknowledged warnings, \"acknowledged\": true" "$OUT"
fi
ltd doctor
if [ "$standing" -gt 0 ]; then
	expect_out "doctor still says the acknowledged warning" "^acknowledged: "
	expect_out "... and its check line" "^missing +cgroup delegation|^(ok|missing) +Landlock"
	quiet_run --network none -- true
	expect_no_err "acknowledged, a run without --quiet does not say it either" "warning: no cgroup|Landlock is ABI"
fi

# The host changes: its kernel's Landlock is older than acknowledged.
with_test_hooks quiet_run --quiet --network allowlist --test-landlock-abi 3 -- true
expect_err "a changed host fact brings a warning back (Landlock ABI 3)" "^ltd-native: warning: this kernel's Landlock is ABI 3: "
expect_err "... and the test hook is said as a waived risk" "warning: --test-landlock-abi: test hook"
with_test_hooks ltd doctor --acknowledge --test-landlock-abi 3
expect_out "doctor --acknowledge records the Landlock warning of that host" "^acknowledged: landlock \(abi 3\): "
with_test_hooks quiet_run --quiet --test-landlock-abi 3 -- true
expect_no_err "acknowledged for ABI 3, the run no longer says it" "Landlock is ABI"
expect_err "... but the waived risk is never silenced" "warning: --test-landlock-abi: test hook"
with_test_hooks quiet_run --quiet --test-landlock-abi 2 -- true
expect_err "the kernel changes again (ABI 2): the warning is back" "^ltd-native: warning: this kernel's Landlock is ABI 2: "
with_test_hooks ltd doctor --test-landlock-abi 2
expect_out "doctor says which warnings runs say" "^runs warn: landlock \(abi 2\): "
expect_out "... and how to acknowledge them" "doctor --acknowledge"
with_test_hooks ltd doctor --json --test-landlock-abi 2
printf '%s\n' "$OUT" | python3 -c 'import json,sys
w = [e for e in json.load(sys.stdin)["warnings"] if e["check"] == "Landlock"]
assert len(w) == 1 and w[0]["acknowledged"] is False and "ABI 2" in w[0]["warning"], w' 2>&1 &&
	pass "doctor --json says it too, under its check, \"acknowledged\": false" ||
	fail "doctor --json says it too, under its check, \"acknowledged\": false" "$OUT"
ltd doctor --test-landlock-abi 2
expect_rc "doctor's test hook is refused without LTD_NATIVE_TEST_HOOKS=1" 125

# What the command did, and waived risks, are never silenced.
quiet_run --quiet --network none --unsafe-no-seccomp -- true
expect_err "--quiet keeps a waived risk" "warning: --unsafe-no-seccomp"
quiet_run --quiet --network none -- sh -c "mkdir evil && cd evil && git init -q && git config core.fsmonitor 'touch x'"
expect_err "--quiet keeps what the command planted" "warning: .*/evil/\.git/config: .*core\.fsmonitor"
as_user rm -rf "$PROJ/evil"

# The cage cannot acknowledge for the user: ltd-native's own directory is
# never bound (its gate), and a link there is not followed.
ltd run --network none --bind "$ACK_DIR" "$ACK_DIR" -- true
expect_rc "binding ~/.config/ltd-native is refused" 125
expect_out "... naming its class" "unsafe-bind-credentials"
ltd run --network none --bind "$U_HOME/.config" "$U_HOME/.config" -- true
expect_rc "binding ~/.config writable is refused (it would hold it)" 125
if [ "$standing" -gt 0 ]; then
	as_user cp "$ACK" "$PROJ/planted-acks"
	as_user rm -f "$ACK"
	as_user ln -s "$PROJ/planted-acks" "$ACK"
	quiet_run --quiet --network none -- true
	expect_err "an acknowledgement file that is a link acknowledges nothing" "^ltd-native: warning: "
	as_user rm -f "$ACK" "$PROJ/planted-acks"
fi

as_user rm -f "$ACK"
