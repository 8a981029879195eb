# shellcheck shell=bash
# Review mode's records on the disk (decision 0145): the overlay is
# volatile (its unmount syncs nothing); a review that stays is synced once
# by the launcher at the end of its run, a review that ends empty never;
# a run's mark in the review's lock says, at the next run, that a run
# ended without that sync (a killed launcher: nothing to say; the machine
# stopped: said); a review with what a cage wrote but no record is
# refused, not adopted by another project.

DP=$(as_user mktemp -d "$U_HOME/e2e-rdur.XXXXXX")
DS=$(as_user mktemp -d "$U_HOME/e2e-rdur-state.XXXXXX")
DO=$(as_user mktemp -d "$U_HOME/e2e-rdur-other.XXXXXX")
D_TMP=$(mktemp -d /tmp/ltd-e2e-rdur.XXXXXX)
chmod 777 "$D_TMP"
as_user chmod 755 "$DP" "$DO"
DR=$DS/ltd-native/reviews

dv() { ltd_in "$DP" "$DS" "$@"; }
dvrun() {
	dv run --ro-bind "$STAGE" "$STAGE" --network none "$@"
}

dv doctor
if ! printf '%s\n' "$OUT" | grep -q '^ok  *review mode'; then
	skip "review records" "doctor says review mode does not work here"
	return 0 2>/dev/null || exit 0
fi

# --- the overlay is volatile; a review that stays is whole at the end ----
dvrun --review d1 -- sh -c 'grep " overlay " /proc/self/mountinfo; echo one > one.txt'
expect_rc "a review run that writes exits 0" 0
expect_out "the cage's overlay is volatile (no sync of the host's filesystem at its unmount)" "fsync=volatile"
expect_out "the run names what the review holds" "review d1: 1 added"
expect_true "the run's mark is cleared once the review was synced" test ! -s "$DR/d1/lock"
expect_true "the review's record is there" grep -q '"runs": 1' "$DR/d1/meta.json"
dvrun --review d1 -- sh -c 'cat one.txt; echo two > two.txt'
expect_rc "a second run mounts the review again (the volatile mount's scratch cleared)" 0
expect_out "and sees the first run's file" "^one$"
expect_true "a continued review's record counts its runs" grep -q '"runs": 2' "$DR/d1/meta.json"
expect_true "no record is left half-written" test ! -e "$DR/d1/meta.json.tmp"

# --- an empty review leaves nothing, synced or not -----------------------
dvrun --review d0 -- true
expect_out "a review run that wrote nothing removes its review" "review d0: no changes, removed"
expect_true "its directory is gone" test ! -e "$DR/d0"

# --- a killed launcher: its review goes on, nothing to say ---------------
: >"$D_TMP/dk.status"
chmod 666 "$D_TMP/dk.status"
(cd "$DP" && "${USER_CMD[@]}" env XDG_STATE_HOME="$DS" "$LTD" run --ro-bind "$STAGE" "$STAGE" \
	--network none --name e2e-rdk --review d1 --json-status-fd 3 \
	-- sh -c 'echo three > three.txt && sleep 600' 3>"$D_TMP/dk.status" </dev/null >"$D_TMP/dk.out" 2>&1
	true) 2>/dev/null &
dk_init=
for _ in $(seq 3600); do
	dk_init=$(as_user env XDG_STATE_HOME="$DS" "$LTD" ps 2>/dev/null | awk '$1 == "e2e-rdk" {print $2}')
	[ -n "$dk_init" ] && test -e "$DR/d1/upper/three.txt" && break
	sleep 0.05
done
dk_launcher=$(awk '/^PPid:/ {print $2}' "/proc/$dk_init/status" 2>/dev/null)
expect_true "a review run started and wrote" test -n "$dk_launcher"
expect_true "while it runs, the review's lock holds its mark (this boot's id)" \
	grep -qxF "$(cat /proc/sys/kernel/random/boot_id)" "$DR/d1/lock"
[ -n "$dk_launcher" ] && kill -KILL "$dk_launcher"
wait
for _ in $(seq 3600); do
	as_user env XDG_STATE_HOME="$DS" "$LTD" ps 2>/dev/null | grep -q '^e2e-rdk ' || break
	sleep 0.05
done
expect_true "the killed run's mark stays" test -s "$DR/d1/lock"
dvrun --review d1 -- cat three.txt
expect_rc "the next run of a review whose launcher was killed mounts it" 0
expect_out "and sees what the killed run wrote" "^three$"
expect_no_out "a killed launcher in this boot is no stopped machine" "machine stopped"

# --- a run's mark from another boot: the machine stopped mid-run ---------
as_user sh -c "printf '00000000-0000-4000-8000-000000000000\n' > '$DR/d1/lock'"
STOPPED="review 'd1': the machine stopped .*during a run of it"
dv review d1
expect_out "review NAME says the machine stopped during a run of it (before any run since)" "$STOPPED"
dv diff d1
expect_out "... so does diff" "$STOPPED"
dv review --json
expect_out "... review --json has it" '"stopped": true'
dv review
expect_out "... and review's list" "^d1 .*\(the machine stopped during a run\)"
dvrun --review d1 -- cat two.txt
expect_rc "a review whose run the machine stopped still runs" 0
expect_out "saying that what that run wrote may not all be on the disk" "$STOPPED"
expect_out "the run sees the review" "^two$"
dv review d1
expect_out "after that run (its own mark now), review NAME still says it" "$STOPPED"
dv apply d1 one.txt
expect_out "... and apply says it before it lands anything" "$STOPPED"

# --- what a cage wrote, with no record: refused, not adopted -------------
dvrun --review d2 -- sh -c 'echo secret > planted.txt'
as_user rm "$DR/d2/meta.json"
OUT=$(cd "$DO" && as_user env XDG_STATE_HOME="$DS" "$LTD" run --ro-bind "$STAGE" "$STAGE" \
	--network none --review d2 -- cat planted.txt 2>&1)
RC=$?
expect_rc "a review with an upper but no record is refused" 125
expect_out "saying why and what to do" "has no record .meta\.json.*discard d2"
expect_no_out "another project's cage never sees that upper" "^secret$"
dv review
expect_out "review lists a review with no record, saying what removes it" "^d2  \(no record: .*'ltd-native discard d2' removes it\)"
dv review --json
expect_out "... review --json as one with no record" '"record": false'
dv apply d2
expect_out "apply of it says where its files are and what removes it" "review 'd2' has no record .*$DR/d2/upper.*discard d2"
dv discard d2
expect_rc "and discard removes it" 0
expect_true "its directory is gone" test ! -e "$DR/d2"

# A review run that stops before its cage (a later step fails: here its
# --name is taken) leaves no review it began, and no mark that a later
# boot would take for a stopped machine.
(cd "$DP" && "${USER_CMD[@]}" env XDG_STATE_HOME="$DS" "$LTD" run --ro-bind "$STAGE" "$STAGE" \
	--network none --name e2e-rdhold -- sleep 600 </dev/null >/dev/null 2>&1 &)
for _ in $(seq 3600); do
	as_user env XDG_STATE_HOME="$DS" "$LTD" ps 2>/dev/null | grep -q '^e2e-rdhold ' && break
	sleep 0.05
done
dvrun --name e2e-rdhold --review d3 -- true
expect_rc "a review run whose --name is taken stops" 125
expect_true "... leaving no review it began" test ! -e "$DR/d3"
dvrun --name e2e-rdhold --review d1 -- true
expect_rc "... a pending review's run likewise" 125
expect_true "... leaves its review without a mark" test ! -s "$DR/d1/lock"
dv kill e2e-rdhold
for _ in $(seq 3600); do
	as_user env XDG_STATE_HOME="$DS" "$LTD" ps 2>/dev/null | grep -q '^e2e-rdhold ' || break
	sleep 0.05
done

# The cage makes its upper deeper than any bound (4,200 levels): discard
# removes it all the same, and leaves nothing hidden in the store.
dvrun --review deep -- python3 -c 'import os
for _ in range(4200):
    os.mkdir("d"); os.chdir("d")
open("f", "w").close()'
dv discard deep
expect_rc "a 4,200-level upper is discarded" 0
expect_true "... leaving nothing of it in the store" \
	test -z "$(find "$DR" -maxdepth 1 -name '.*' ! -name '.apply-*' ! -path "$DR")"

dv discard d1
as_user rm -rf "$DP" "$DO"
as_user chmod -R u+rwx "$DS"
as_user rm -rf "$DS"
rm -rf "$D_TMP"
