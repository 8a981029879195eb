# shellcheck shell=bash
# A terminal on stdout and stderr that ltd-native cannot reopen write-only
# (another user's, as after `su` or `sudo -u` from root's terminal, stdin
# piped): the command writes to a pipe and the launcher relays it to the
# terminal.  The terminal is a pty that root opens (foreign_tty.py).

if [ "$AS_ROOT" != 1 ] || ! command -v python3 >/dev/null; then
	skip "terminal relay tests" "need root (a terminal of another user's) and python3"
	return 0 2>/dev/null || exit 0
fi

FT=$(mktemp -d /tmp/ltd-e2e-relay.XXXXXX)
FP=$(as_user mktemp -d "$U_HOME/e2e-relay.XXXXXX")

# foreign_tty [--term-after BYTES | --hold] ARGS...: ltd-native ARGS as
# the test user in $FP, stdout and stderr on root's terminal; what reaches
# the terminal in $FT/out and $OUT, the exit status in $RC.
foreign_tty() {
	local opts=()

	if [ "$1" = --term-after ]; then
		opts=(--term-after "$2")
		shift 2
	elif [ "$1" = --hold ]; then
		opts=(--hold)
		shift
	fi
	(cd "$FP" && python3 "$here/foreign_tty.py" "${opts[@]}" "$FT/out" -- \
		"${USER_CMD[@]}" "$LTD" "$@")
	RC=$?
	OUT=$(tr -d '\0' <"$FT/out")
}

# relay_run [OPTION] CMD...: foreign_tty, ltd-native run CMD.
relay_run() {
	local opts=()

	case $1 in --term-after) opts=("$1" "$2") && shift 2 ;; --hold) opts=("$1") && shift ;; esac
	foreign_tty "${opts[@]}" run --ro-bind "$STAGE" "$STAGE" --project "$FP" \
		--network none -- "$@"
}

relay_run sh -c "$PROBE read-fd 1; $PROBE read-fd 2; echo relayed-ok"
expect_rc "relay: a terminal that cannot be reopened does not refuse the run" 0
expect_out "relay: the command's output reaches the terminal" "^relayed-ok$"
expect_out "relay: the command cannot read from stdout" "^read-fd 1 err EBADF$"
expect_out "relay: the command cannot read from stderr" "^read-fd 2 err EBADF$"

relay_run seq 1 500000
seq 1 500000 >"$FT/want"
if grep -av 'ltd-native: ' "$FT/out" | cmp -s - "$FT/want"; then
	pass "relay: 3.4 MB of output arrive whole and in order"
else
	fail "relay: 3.4 MB of output arrive whole and in order (exit $RC)" \
		"$(wc -c <"$FT/out") bytes; $(grep -av 'ltd-native: ' "$FT/out" | cmp - "$FT/want" 2>&1)"
fi

# What the command writes last is in the pipe when it exits (--hold stops
# the terminal until then): it reaches the terminal, and before what the
# launcher says after the command's end.
relay_run --hold sh -c 'echo go; read x; seq 1 11000; mkdir .git; exit 3'
expect_rc "relay: the exit status passes through" 3
{ echo go; seq 1 11000; } >"$FT/want"
if grep -av 'ltd-native: ' "$FT/out" | cmp -s - "$FT/want"; then
	pass "relay: output still in the pipe when the command exits is not lost"
else
	fail "relay: output still in the pipe when the command exits is not lost" \
		"$(wc -c <"$FT/out") bytes; $(tail -c 300 "$FT/out")"
fi
if awk '/^11000$/ { s = NR } /warning: the command created/ { w = NR }
	END { exit !(s && w > s) }' "$FT/out"; then
	pass "relay: the launcher's report follows the command's last output"
else
	fail "relay: the launcher's report follows the command's last output" "$(tail -c 300 "$FT/out")"
fi
as_user rm -rf "$FP/.git"

# A flood does not keep the launcher from its other duties: SIGTERM, sent
# while output pours in, reaches the command, and its answer is relayed.
relay_run --term-after 1000000 sh -c 'yes & trap "kill \$!; echo got-term; exit 9" TERM; wait'
expect_rc "relay: a signal reaches the command during an output flood" 9
expect_out "relay: the command's answer to the signal is relayed" "^got-term$"

# exec into a named cage, the same way.
(cd "$FP" && exec "${USER_CMD[@]}" "$LTD" run --ro-bind "$STAGE" "$STAGE" --project "$FP" \
	--network none --name e2e-relay -- sleep 300 </dev/null >/dev/null 2>&1) &
relaycage=$!
for _ in $(seq 100); do
	as_user "$LTD" ps 2>/dev/null | grep -q '^e2e-relay ' && break
	sleep 0.05
done
foreign_tty --hold exec e2e-relay -- sh -c "$PROBE read-fd 1; $PROBE read-fd 2; seq 1 300000; echo go; read x; seq 1 11000; exit 5"
expect_rc "relay: exec is not refused either; the exit status passes through" 5
expect_out "relay: exec's command cannot read from stdout" "^read-fd 1 err EBADF$"
expect_out "relay: exec's command cannot read from stderr" "^read-fd 2 err EBADF$"
{ seq 1 300000; echo go; seq 1 11000; } >"$FT/want"
if grep -v '^ltd-native: \|^read-fd ' "$FT/out" | cmp -s - "$FT/want"; then
	pass "relay: exec's output arrives whole, and what is in the pipe at its exit"
else
	fail "relay: exec's output arrives whole, and what is in the pipe at its exit" \
		"$(wc -c <"$FT/out") bytes; $(tail -c 300 "$FT/out")"
fi
as_user "$LTD" kill e2e-relay >/dev/null 2>&1
wait "$relaycage" 2>/dev/null

as_user rm -rf "$FP"
rm -rf "$FT"
