# shellcheck shell=bash
# The launcher and init give back what only the set-up needed once the
# cage has lived a while (runtime/memtrim.h, decision 0140): their code's
# clean pages, the stack below their wait and the heap's free memory.
# Whatever runs after must see the same memory: the command's status, the
# post-run checks, exec into a named cage.  LTD_NATIVE_TEST_TRIM_MS=0
# takes the trim at once, before the command has done anything (the whole
# suite runs that way with E2E_TRIM_MS=0, see lib.sh).

MT=$(as_user mktemp -d "$U_HOME/e2e-memtrim.XXXXXX")
as_user chmod 755 "$MT"

# trimmed ARGS...: ltd-native in $MT with the trim taken at once.
trimmed() {
	OUT=$(cd "$MT" && as_user env LTD_NATIVE_TEST_HOOKS=1 \
		LTD_NATIVE_TEST_TRIM_MS=0 "$LTD" "$@" 2>&1)
	RC=$?
}

trimmed run --network none -- sh -c 'sleep 0.3; echo out; echo err >&2; exit 7'
expect_rc "after the trim, the command's exit status comes through" 7
expect_out "and its output" "^out$"
expect_out "and its standard error" "^err$"

# The post-run checks run on trimmed processes: a planted repository is
# still found and named.
trimmed run --network none -- sh -c "sleep 0.3; mkdir evil && cd evil && git init -q && git config core.fsmonitor 'touch ../ran'"
expect_rc "a run that plants a repository, trimmed" 0
expect_out "the planted repository is still named after the trim" "warning: $MT/evil/\.git/config: .*\(core\.fsmonitor\)"
as_user rm -rf "$MT/evil"

# A signal relayed by a trimmed launcher to a trimmed init, and by it to
# the command: its trap's status comes back.
as_user rm -f "$MT/ready"
(cd "$MT" && exec "${USER_CMD[@]}" env LTD_NATIVE_TEST_HOOKS=1 \
	LTD_NATIVE_TEST_TRIM_MS=0 "$LTD" run --quiet --network none -- \
	sh -c 'trap "exit 42" TERM; echo > ready; while :; do sleep 0.1; done' \
	</dev/null >/dev/null 2>&1) &
pid=$!
for _ in $(seq 100); do
	[ -e "$MT/ready" ] && break
	sleep 0.1
done
kill -TERM "$pid"
wait "$pid"
RC=$?
expect_rc "a signal reaches the command through the trimmed launcher and init" 42

# exec into a named cage whose launcher and init have trimmed.
NAME=trim$$
(cd "$MT" && as_user env LTD_NATIVE_TEST_HOOKS=1 LTD_NATIVE_TEST_TRIM_MS=0 \
	"$LTD" run --quiet --network none --name "$NAME" -- sleep 30 \
	</dev/null >/dev/null 2>&1 &)
for _ in $(seq 50); do
	OUT=$(as_user "$LTD" exec "$NAME" -- echo inside 2>&1) && break
	sleep 0.1
done
case $OUT in
inside) pass "exec into a named cage after its trim" ;;
*) fail "exec into a named cage after its trim" "$OUT" ;;
esac
OUT=$(as_user "$LTD" kill "$NAME" 2>&1)
RC=$?
expect_rc "kill ends the trimmed cage" 0
as_user rm -rf "$MT"
