# shellcheck shell=bash
# Review mode as a new user meets it: `review NAME --json`; conflicts
# (the host edited a path after the review began) marked before apply;
# one count everywhere; an empty review removed; usage errors that say
# what is wrong; mode changes in `diff`; a review store the cage could
# write refused, and a planted record or journal refused by apply.
# Every run here is --network none.

UXP=$(as_user mktemp -d "$U_HOME/e2e-revux.XXXXXX")
UXS=$(as_user mktemp -d "$U_HOME/e2e-revux-state.XXXXXX")
as_user chmod 755 "$UXP"
UX_TMP=$(mktemp -d /tmp/ltd-e2e-revux.XXXXXX)
chmod 777 "$UX_TMP"

ux() { ltd_in "$UXP" "$UXS" "$@"; }
uxrun() {
	ux run --ro-bind "$STAGE" "$STAGE" --network none "$@"
}
# stdout alone (JSON), stderr dropped.
uxout() {
	OUT=$(cd "$UXP" && as_user env XDG_STATE_HOME="$UXS" "$LTD" "$@" 2>/dev/null)
	RC=$?
}

ux doctor
if ! printf '%s\n' "$OUT" | grep -q '^ok  *review mode'; then
	skip "review mode (ux)" "doctor says it does not work here"
	return 0 2>/dev/null || exit 0
fi

# --- one review with every kind of change; the host edits one path ------
as_user sh -c "cd '$UXP' && echo old > edit.txt && echo bye > del.txt &&
	echo 'the same bytes' > ren.txt && echo '#!/bin/sh' > mode.sh &&
	mkdir dm && echo in > dm/f && echo host > conflict.txt && ln -s t1 lnk &&
	mkdir gone && echo g > gone/g"
sleep 0.1 # the review begins after the project was made (coarse ctimes)
uxrun --review u1 -- sh -c 'echo new > edit.txt && rm del.txt &&
	mv ren.txt ren2.txt && chmod 755 ren2.txt && chmod 755 mode.sh &&
	chmod 700 dm && echo cage > conflict.txt && rm lnk && ln -s t2 lnk &&
	mkdir -p new/sub && echo n > new/sub/n && mkdir empty && rm -r gone &&
	mkdir .vscode && echo "{}" > .vscode/tasks.json'
expect_rc "a review run with every kind of change" 0
summary=$(printf '%s\n' "$OUT" | sed -n 's/^ltd-native: review u1: //p')
as_user sh -c "echo host-edit >> '$UXP/conflict.txt'"

# 3. One count: the run's summary, `review` and `review NAME` agree.
ux review
listed=$(printf '%s\n' "$OUT" | sed -n 's/^u1  .*  [0-9-]* [0-9:]*  //p')
ux review u1
expect_rc "review NAME" 0
named=$(printf '%s\n' "$OUT" | sed -n 's/^## u1: //p')
expect_true "the summary counts directories, as review NAME lists them" \
	sh -c "printf '%s\n' '$summary' | grep -q '5 directories'"
expect_true "review and review NAME count the same (the conflict on top)" \
	test "$listed" = "$named"
expect_true "the summary counted the same before the host's edit" \
	test "$summary, 1 conflict" = "$named"
lines=$(printf '%s\n' "$OUT" | grep -vc '^## ')
uxout review u1 --json
expect_true "the counts add up to review NAME's lines" \
	python3 -c 'import json,sys; r=json.loads(sys.argv[1]); c=r["changes"]
kinds=("added","changed","deleted","renamed","modes","types","links","dirs")
assert sum(c[k] for k in kinds) + c["refused"] == len(r["paths"]) == int(sys.argv[2]), (c, sys.argv[2])' "$OUT" "$lines"

# 1. review NAME --json.
expect_true "review NAME --json: the review, as review --json lists it" \
	python3 -c 'import json,sys; r=json.loads(sys.argv[1]); assert r["name"]=="u1" and r["project"]==sys.argv[2] and "paths" in r' "$OUT" "$UXP"
expect_true "review NAME --json: each change's path, kind, held, conflict" \
	python3 -c 'import json,sys; r=json.loads(sys.argv[1]); p={x["path"]:x for x in r["paths"]}
want={"edit.txt":"changed","del.txt":"deleted","ren2.txt":"renamed","mode.sh":"mode","lnk":"link","new":"dir","new/sub/n":"added","empty":"dir"}
for k,v in want.items(): assert p[k]["kind"]==v, (k,p[k])
assert p["ren2.txt"]["from"]=="ren.txt" and p["ren2.txt"]["mode"]=="755"
t=p[".vscode/tasks.json"]; assert t["held"] is True and t["reason"], t
assert p["edit.txt"]["held"] is False and p["edit.txt"]["conflict"] is False
c=p["conflict.txt"]; assert c["conflict"] is True and "since the review began" in c["conflict_reason"], c' "$OUT"
ux review --json
list_json=$OUT
uxout review u1 --json
expect_true "review NAME --json counts with the list's keys" \
	python3 -c 'import json,sys; l=json.loads(sys.argv[1]); n=json.loads(sys.argv[2]); e=[x for x in l if x["name"]=="u1"][0]
assert e["changes"]==n["changes"], (e["changes"], n["changes"])
assert set(k for k in e) <= set(n), (e.keys(), n.keys())' "$list_json" "$OUT"

# 2. The host's edit is a conflict before apply, in review NAME and diff.
ux review u1
expect_out "review NAME marks the host's edit as a conflict" "^MC conflict\.txt  \[conflict: changed in the project since the review began\]$"
expect_out "and only it" "^M  edit\.txt$"
ux diff u1 conflict.txt
expect_out "diff says the project's copy changed on the host" "^# conflict: the project's copy changed on the host since the review began: this diff is against the host's newer copy"
expect_out "diff shows the host's line as the old side" "^-host-edit$"
ux diff u1 edit.txt
expect_no_out "no conflict note where the host changed nothing" "^# conflict"

# 6. Mode changes in diff, git's way; --stat counts them.
ux diff u1
expect_out "diff: a mode change alone" "^old mode 100644$"
expect_out "diff: its new mode" "^new mode 100755$"
expect_out "diff: a directory's mode change" "^diff --git a/dm b/dm$"
expect_out "diff: the directory's modes as they are" "^new mode 040700$"
expect_true "diff: a rename's mode change" sh -c "printf '%s\n' \"\$1\" | grep -A4 '^diff --git a/ren.txt b/ren2.txt' | grep -q '^new mode 100755$'" _ "$OUT"
ux diff u1 --stat
expect_out "diff --stat: a mode change counted" "^ mode\.sh +\| +0 \(mode\)$"
expect_out "diff --stat: the mode changes in the totals" "files changed, .*, 3 mode changes$"
ux review u1
expect_out "review NAME: a rename's mode change" "^R  ren\.txt -> ren2\.txt  \(mode 644 -> 755\)$"
ux apply u1
expect_rc "apply still refuses the conflict" 1
ux discard u1

# 4. A run that changed nothing leaves no review behind.
uxrun --review e1 -- cat edit.txt
expect_rc "a review run that writes nothing" 0
expect_out "it says the review is removed" "^ltd-native: review e1: no changes, removed$"
ux review
expect_no_out "and review does not list it" "^e1 "
expect_true "its directory is gone" test ! -e "$UXS/ltd-native/reviews/e1"
uxrun --quiet --review e2 -- touch edit.txt
expect_no_out "--quiet: not said" "no changes"
expect_true "--quiet: removed all the same (a touch changes nothing apply lands)" test ! -e "$UXS/ltd-native/reviews/e2"
uxrun --review e3 -- sh -c 'echo x > keep.txt'
uxrun --review e3 -- true
expect_no_out "a continued review with changes is not removed" "removed"
ux review
expect_out "it is still listed" "^e3  "
ux discard e3
: >"$UX_TMP/ek.status"
chmod 666 "$UX_TMP/ek.status"
(cd "$UXP" && exec "${USER_CMD[@]}" env XDG_STATE_HOME="$UXS" "$LTD" run --ro-bind "$STAGE" "$STAGE" \
	--network none --name e2e-revux-k --keep-running --review ek --json-status-fd 3 \
	-- true 3>"$UX_TMP/ek.status" </dev/null >"$UX_TMP/ek.out" 2>&1) &
for _ in $(seq 3600); do
	grep -q exited "$UX_TMP/ek.status" 2>/dev/null &&
		as_user env XDG_STATE_HOME="$UXS" "$LTD" ps | grep -q '^e2e-revux-k ' && break
	sleep 0.05
done
ux kill e2e-revux-k
wait
ux review
expect_out "--keep-running: the empty review is kept" "^ek  "
ux discard ek

# 5. Usage errors say what is wrong, name the command, list the reviews.
uxrun --review p1 -- sh -c 'echo p > pending.txt'
for cmd in diff apply discard; do
	ux "$cmd"
	expect_rc "$cmd without NAME: a usage error (125, as every usage error)" 125
	expect_out "$cmd without NAME: says so, naming the command" "^ltd-native: $cmd: which review\? NAME is missing$"
	expect_out "$cmd without NAME: its usage" "^ltd-native: usage: ltd-native $cmd NAME"
	expect_out "$cmd without NAME: the pending reviews" "^ltd-native: pending reviews: p1$"
	ux "$cmd" nope
	expect_rc "$cmd with an unknown NAME" 125
	expect_out "$cmd with an unknown NAME: says so, naming the command" "^ltd-native: $cmd: there is no review 'nope'$"
	expect_out "$cmd with an unknown NAME: the pending reviews" "^ltd-native: pending reviews: p1$"
done
ux review nope
expect_out "review with an unknown NAME: the pending reviews" "^ltd-native: pending reviews: p1$"
ux review p1 extra
expect_rc "review with two names" 125
expect_out "review with two names: says so" "^ltd-native: review: one NAME at most"
ux diff p1 --bogus
expect_out "an unknown option named" "^ltd-native: diff: unknown option '--bogus'$"
ux discard p1

# 7. The reviews store, wherever XDG_STATE_HOME puts it, is not the
# cage's to write; a record or journal planted there is refused.
uxrun --review s1 -- true
uxrun --bind "$UXS" "$UXS" -- true
expect_rc "a writable bind of a custom XDG_STATE_HOME is refused" 125
expect_out "naming the flag and the store" "^ltd-native: --bind: .*ltd-native's reviews"
uxrun --bind "$UXS/ltd-native/reviews" "/tmp/r" -- true
expect_rc "a writable bind of the store itself is refused" 125
expect_out "naming the flag" "^ltd-native: --bind: .*ltd-native's reviews"
as_user sh -c "cd '$UXP' && mkdir .state"
OUT=$(cd "$UXP" && as_user env XDG_STATE_HOME="$UXP/.state" "$LTD" run --network none --review s2 -- true 2>&1)
RC=$?
expect_rc "reviews kept in the project are refused" 125
expect_out "with review's own message, not the gate's" "^ltd-native: --review: reviews are kept in .*, which lies in the project"
OUT=$(cd "$UXP" && as_user env XDG_STATE_HOME="$UXP/.state" "$LTD" run --network none -- true 2>&1)
RC=$?
expect_rc "a plain run of a project that holds the store is gated" 125
expect_out "by the gate's row" "^ltd-native: --project: .*ltd-native's reviews"
as_user rm -rf "$UXP/.state"

VICTIM=$(as_user mktemp -d "$U_HOME/e2e-revux-victim.XXXXXX")
as_user sh -c "echo mine > '$VICTIM/precious'"
victim_before=$(cd "$VICTIM" && ls -la --time-style=+ . && md5sum precious)
# A hand-made review: its record names a project by a path not normal.
plant() { # NAME PROJECT
	local d="$UXS/ltd-native/reviews/$1"
	as_user mkdir -p "$d/upper" "$d/work"
	as_user chmod 700 "$d" "$d/upper" "$d/work"
	as_user sh -c "echo planted > '$d/upper/precious'"
	printf '{"name": "%s", "project": "%s", "began": [1, 0], "runs": 1}\n' "$1" "$2" |
		as_user sh -c "cat > '$d/meta.json'"
}
plant bad1 "$VICTIM/../$(basename "$VICTIM")"
ux apply bad1
expect_rc "apply refuses a record whose project path is not normal" 125
expect_out "naming the file at fault" "reviews/bad1: meta\.json: not a review's record"
plant bad2 "e2e-relative"
ux review bad2
expect_rc "review NAME refuses a record whose project path is relative" 125
plant bad3 "$VICTIM"
as_user sh -c "sed -i 's/\"bad3\"/\"other\"/' '$UXS/ltd-native/reviews/bad3/meta.json'"
ux apply bad3
expect_rc "apply refuses a record made for another review" 125
expect_out "naming it" "bad3/meta\.json names another review"
# A journal of an interrupted apply that names another project than the
# review's: the next command refuses it, lands nothing.
plant bad4 "$UXP"
printf '{"state": "landing", "project": "%s", "staging": ".ltd-native-apply.bad4.1", "ops": [["remove", "precious", 0, 0]], "landed": ["precious"]}\n' "$VICTIM" |
	as_user sh -c "cat > '$UXS/ltd-native/reviews/bad4/journal.json'"
ux review bad4
expect_rc "a journal naming another project is refused" 125
expect_out "naming the journal" "bad4/journal\.json names the project $VICTIM, not the review's"
ux apply bad4
expect_rc "apply refuses it too" 125
plant bad5 "$UXP"
printf '{"state": "landing", "project": "relative/x", "staging": ".ltd-native-apply.bad5.1", "ops": [], "landed": []}\n' |
	as_user sh -c "cat > '$UXS/ltd-native/reviews/bad5/journal.json'"
ux apply bad5
expect_rc "a journal whose project path is not absolute is refused" 125
expect_out "naming the file" "bad5: journal\.json: "
expect_true "nothing of the planted reviews reached the victim" \
	test "$(cd "$VICTIM" && ls -la --time-style=+ . && md5sum precious)" = "$victim_before"
expect_true "nor the project" test ! -e "$UXP/precious"

as_user rm -rf "$UXP" "$VICTIM"
as_user chmod -R u+rwx "$UXS"
as_user rm -rf "$UXS"
rm -rf "$UX_TMP"
