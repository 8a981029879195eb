# shellcheck shell=bash
# Lifecycle (issue 8): named cages, exec, ps, kill, status events.
# Every background cage here is killed by the test that starts it; the
# sleeps inside end by themselves after 300 s in any case.

LIFE_TMP=$(mktemp -d /tmp/ltd-e2e-life.XXXXXX)
chmod 755 "$LIFE_TMP"

# start_named NAME STATUSFILE ARGS... -- CMD...: a named cage in the
# background, as the test user; returns once `ps` lists it.
start_named() {
	local name=$1 status=$2
	shift 2
	: >"$status"
	chmod 666 "$status"
	(cd "$PROJ" && exec "${USER_CMD[@]}" "$LTD" run --ro-bind "$STAGE" "$STAGE" \
		--network none --name "$name" --json-status-fd 3 "$@" \
		3>"$status" </dev/null >>"$LIFE_TMP/$name.out" 2>&1) &
	for _ in $(seq 100); do
		as_user "$LTD" ps | grep -q "^$name " && grep -q started "$status" && return 0
		sleep 0.05
	done
	return 1
}

json_field() { # FILE EVENT FIELD
	python3 -c 'import json,sys
for l in open(sys.argv[1]):
    o=json.loads(l)
    if o["event"]==sys.argv[2]:
        v=o
        for k in sys.argv[3].split("."): v=v[k]
        print(v); break' "$1" "$2" "$3"
}

# --- two named cages at once ------------------------------------------------
if start_named e2e-a "$LIFE_TMP/a.status" -- sh -c 'echo a-mark > /tmp/a-file; exec sleep 300' &&
	start_named e2e-b "$LIFE_TMP/b.status" -- sleep 300; then
	pass "two named cages run at once"
else
	fail "two named cages run at once" "$(cat "$LIFE_TMP"/*.out 2>/dev/null)"
fi

ltd run --network none --name e2e-a -- true
expect_rc "a second cage of the same name is refused" 125
expect_out "the refusal says the name is taken" "already running"

ltd exec e2e-a -- cat /tmp/a-file
expect_out "exec sees the first cage's files in /tmp" "^a-mark$"
ltd exec e2e-b -- cat /tmp/a-file
expect_rc "another cage does not see them" 1

ltd exec e2e-a -- "$PROBE" pids
n=$(printf '%s\n' "$OUT" | grep -c '^pid ')
[ "$n" -ge 3 ] && pass "exec sees the cage's processes (init, sleep, itself)" ||
	fail "exec sees the cage's processes ($n pids)" "$OUT"
ltd exec e2e-a -- sh -c 'cat /proc/*/comm'
expect_out "the first command is among them" "^sleep$"

ltd exec e2e-a -- sh -c 'pkill -0 -x sleep && echo can-signal'
expect_out "exec can signal the first command's processes" "^can-signal$"

ltd exec e2e-a -- "$PROBE" status
expect_out "exec: seccomp filter in force" "^Seccomp:[[:space:]]+2$"
for set in CapInh CapPrm CapEff CapBnd CapAmb; do
	expect_out "exec: $set is empty" "^$set:[[:space:]]+0000000000000000\$"
done
expect_out "exec: no_new_privs" "^NoNewPrivs:[[:space:]]+1\$"
expect_out "exec: the invoking user's uid" "^uid $U_UID\$"

ltd exec e2e-a -- sh -c 'pwd; hostname; echo "HOME=$HOME"; env | grep -c "^E2E_HOST_ONLY=" || true'
expect_out "exec starts in the project" "^$PROJ\$"
expect_out "exec has the cage's host name" "^ltd-sandbox\$"
expect_out "exec gets the cage's environment" "^HOME=$U_HOME\$"

OUT=$(cd "$PROJ" && as_user env E2E_HOST_ONLY=1 "$LTD" exec e2e-a -- sh -c 'echo "v=${E2E_HOST_ONLY:-unset}"' 2>&1)
expect_out "exec does not pass its own environment in" "^v=unset$"

ltd exec e2e-a -- "$PROBE" read /proc/1/environ
expect_out "exec: init stays unreadable" "^read err EACCES"
ltd exec e2e-a -- sh -c 'ls -l /proc/self/fd/ | grep -c -- "->"'
expect_out "exec: only stdio and the listing's own fd are open" "^4$"

ltd exec e2e-a -- sh -c 'exit 7'
expect_rc "exec passes the exit status through" 7
ltd exec e2e-a -- /nonexistent
expect_rc "exec of a missing command is 127" 127

head -c 300000 /dev/urandom >"$LIFE_TMP/blob"
chmod 644 "$LIFE_TMP/blob"
(cd "$PROJ" && as_user "$LTD" exec e2e-a -- cat <"$LIFE_TMP/blob" >"$LIFE_TMP/blob.out" 2>/dev/null)
cmp -s "$LIFE_TMP/blob" "$LIFE_TMP/blob.out" &&
	pass "exec without a terminal: stdin/stdout are binary-safe pipes" ||
	fail "exec without a terminal: stdin/stdout are binary-safe pipes"

ltd exec e2e-missing -- true
expect_rc "exec into a name that does not exist is 125" 125
expect_out "and says so" "no cage named 'e2e-missing'"

# --- ps ---------------------------------------------------------------------
ltd ps --json
if printf '%s' "$OUT" | python3 -c '
import json, sys
v = json.load(sys.stdin)
names = sorted(c["name"] for c in v)
assert "e2e-a" in names and "e2e-b" in names, names
for c in v:
    assert c["pid"] > 0 and c["network"] == "none" and c["uptime_seconds"] >= 0
' 2>/dev/null; then
	pass "ps --json parses and lists both cages"
else
	fail "ps --json parses and lists both cages" "$OUT"
fi
ltd ps
expect_out "ps lists name, pid, uptime, network, project" "^e2e-b +[0-9]+ +[0-9]+m[0-9]+s +none +$PROJ\$"

# --- status events ------------------------------------------------------------
cage_pid=$(json_field "$LIFE_TMP/a.status" started cage_pid)
cmd_pid=$(json_field "$LIFE_TMP/a.status" started command_pid)
ps_pid=$(as_user "$LTD" ps --json | python3 -c 'import json,sys; print([c["pid"] for c in json.load(sys.stdin) if c["name"]=="e2e-a"][0])')
[ -n "$cage_pid" ] && [ "$cage_pid" = "$ps_pid" ] &&
	pass "status: started names the cage's pid" ||
	fail "status: started names the cage's pid ($cage_pid vs ps $ps_pid)" "$(cat "$LIFE_TMP/a.status")"
[ "$(cat "/proc/$cmd_pid/comm" 2>/dev/null)" = sleep ] &&
	pass "status: started names the command's host pid" ||
	fail "status: started names the command's host pid ($cmd_pid)" "$(cat "$LIFE_TMP/a.status")"
[ "$(json_field "$LIFE_TMP/a.status" started name)" = e2e-a ] &&
	[ "$(json_field "$LIFE_TMP/a.status" started network)" = none ] &&
	[ -n "$(json_field "$LIFE_TMP/a.status" started namespaces.pid)" ] &&
	pass "status: name, network mode and namespace ids" ||
	fail "status: name, network mode and namespace ids" "$(cat "$LIFE_TMP/a.status")"
a_pidns=$(json_field "$LIFE_TMP/a.status" started namespaces.pid)
[ "$a_pidns" = "$(stat -L -c %i "/proc/$cmd_pid/ns/pid" 2>/dev/null)" ] &&
	pass "status: the pid namespace id is the command's" ||
	fail "status: the pid namespace id is the command's ($a_pidns)"

# --- kill -----------------------------------------------------------------------
ltd kill e2e-a
expect_rc "kill ends a cage" 0
ltd kill e2e-b TERM
expect_rc "kill NAME SIGNAL sends it" 0
for _ in $(seq 100); do
	as_user "$LTD" ps | grep -q "^e2e-b " || break
	sleep 0.05
done
wait
[ "$(json_field "$LIFE_TMP/a.status" exited exit_code)" = 143 ] &&
	[ "$(json_field "$LIFE_TMP/a.status" exited signal)" = 15 ] &&
	pass "status: exited says SIGTERM (143)" ||
	fail "status: exited says SIGTERM (143)" "$(cat "$LIFE_TMP/a.status")"
ltd ps --json
expect_out "kill leaves no entry" '^\[\]$'
[ -z "$(ls -A "/tmp/ltd-native-$U_UID" 2>/dev/null)" ] &&
	pass "the registry directory is empty" ||
	fail "the registry directory is empty" "$(ls -la "/tmp/ltd-native-$U_UID")"
procs=$(user_procs 'sleep 300|ltd-init|ltd-native')
[ -z "$procs" ] && pass "kill leaves no process" || fail "kill leaves no process" "$procs"

# --- a cage that died: its stale entry ------------------------------------------
start_named e2e-dead "$LIFE_TMP/d.status" -- sleep 300
lpid=$(as_user "$LTD" ps --json | python3 -c 'import json,sys; print([c["launcher_pid"] for c in json.load(sys.stdin) if c["name"]=="e2e-dead"][0])')
kill -KILL "$lpid"
{ wait; } 2>/dev/null
ltd exec e2e-dead -- true
expect_rc "exec into a cage that died is 125" 125
expect_out "its stale entry is removed" "stale entry was removed"
[ ! -e "/tmp/ltd-native-$U_UID/e2e-dead.json" ] && pass "no stale entry is left" ||
	fail "no stale entry is left"
# The kernel kills them on the launcher's death; on a loaded machine they
# may still be dying (state D/R) a moment later: wait for that, boundedly.
for _ in $(seq 50); do
	[ -z "$(user_procs 'sleep 300|ltd-init')" ] && break
	sleep 0.1
done
procs=$(user_procs 'sleep 300|ltd-init')
[ -z "$procs" ] && pass "a SIGKILLed launcher takes its cage along" ||
	fail "a SIGKILLed launcher takes its cage along" "$procs"

# --- --keep-running ---------------------------------------------------------------
if start_named e2e-keep "$LIFE_TMP/k.status" --keep-running -- sh -c 'sleep 300 >/dev/null 2>&1 & echo first done'; then
	for _ in $(seq 100); do
		grep -q exited "$LIFE_TMP/k.status" && break
		sleep 0.05
	done
	[ "$(json_field "$LIFE_TMP/k.status" exited exit_code)" = 0 ] &&
		pass "--keep-running: the first command's end is reported" ||
		fail "--keep-running: the first command's end is reported" "$(cat "$LIFE_TMP/k.status")"
	ltd exec e2e-keep -- sh -c 'cat /proc/*/comm'
	expect_out "--keep-running: the background server outlives it" "^sleep$"
	ltd kill e2e-keep
	expect_rc "--keep-running: kill ends the cage" 0
	wait
	[ "$(tail -n1 "$LIFE_TMP/k.status" | python3 -c 'import json,sys; print(json.load(sys.stdin)["event"])')" = ended ] &&
		pass "--keep-running: status says ended" ||
		fail "--keep-running: status says ended" "$(cat "$LIFE_TMP/k.status")"
	procs=$(user_procs 'sleep 300|ltd-init')
	[ -z "$procs" ] && pass "--keep-running: kill leaves no process" ||
		fail "--keep-running: kill leaves no process" "$procs"
else
	fail "--keep-running cage starts" "$(cat "$LIFE_TMP/e2e-keep.out")"
fi
ltd run --network none --keep-running -- true
expect_rc "--keep-running without --name is refused" 125

# --- ps shows a project's path as ltd_fput_shown() does ---------------------------
# A directory's name may hold an escape sequence or a bidi override: ps
# prints them as '?', and nothing of them reaches the terminal.
ESCP="$U_HOME/e2e-ps-$(printf '\033')]0;ps-title$(printf '\a')-$(printf '\342\200\256')x"
as_user mkdir -p "$ESCP"
(cd "$ESCP" && exec "${USER_CMD[@]}" "$LTD" run --network none --name e2e-esc -- sleep 300 \
	</dev/null >>"$LIFE_TMP/e2e-esc.out" 2>&1) &
for _ in $(seq 100); do
	as_user "$LTD" ps | grep -q "^e2e-esc " && break
	sleep 0.05
done
ltd ps
expect_out "ps shows a project path's escape sequence and bidi override as '?'" \
	"^e2e-esc +[0-9]+ .* $U_HOME/e2e-ps-\\?\\]0;ps-title\\?-\\?x\$"
if printf '%s' "$OUT" | tr -d '\n' | LC_ALL=C grep -q '[[:cntrl:]]' ||
	printf '%s' "$OUT" | grep -q "$(printf '\342\200\256')"; then
	fail "ps prints no control byte or bidi override of a project's path" "$(printf '%s' "$OUT" | od -c | tail -8)"
else
	pass "ps prints no control byte or bidi override of a project's path"
fi
ltd kill e2e-esc
wait
as_user rm -rf "$ESCP"

# --- the registry directory ---------------------------------------------------------
ltd run --network none --json-status-fd 9 -- true
expect_rc "a status fd that is not open is refused" 125
badxdg=$(as_user mktemp -d /tmp/ltd-e2e-xdg.XXXXXX)
as_user chmod 777 "$badxdg"
OUT=$(cd "$PROJ" && as_user env XDG_RUNTIME_DIR="$badxdg" "$LTD" ps 2>&1)
RC=$?
expect_rc "a world-writable XDG_RUNTIME_DIR is refused" 125
expect_out "and the message says why" "refusing"
as_user chmod 700 "$badxdg"
OUT=$(cd "$PROJ" && as_user env XDG_RUNTIME_DIR="$badxdg" "$LTD" ps 2>&1)
[ -d "$badxdg/ltd-native" ] && [ "$(stat -c %a "$badxdg/ltd-native")" = 700 ] &&
	pass "XDG_RUNTIME_DIR/ltd-native is created 0700" ||
	fail "XDG_RUNTIME_DIR/ltd-native is created 0700" "$OUT"
rm -rf "$badxdg"

rm -rf "$LIFE_TMP"
