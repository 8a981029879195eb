# shellcheck shell=bash
# Review mode: `run --review NAME` keeps the command's writes in an overlay's
# upper directory; `review` lists them, `diff` shows them, `discard` drops
# them.  Nothing reaches the project.

RVP=$(as_user mktemp -d "$U_HOME/e2e-review.XXXXXX")
RVS=$(as_user mktemp -d "$U_HOME/e2e-review-state.XXXXXX")
RVO=$(as_user mktemp -d "$U_HOME/e2e-review-outside.XXXXXX")
as_user chmod 755 "$RVP" "$RVO"
RV_TMP=$(mktemp -d /tmp/ltd-e2e-review.XXXXXX)
chmod 777 "$RV_TMP"
GITC=(git -c user.name=e2e -c user.email=e2e@example.invalid -c init.defaultBranch=main)

# ltd-native in the project $RVP with the reviews under $RVS.
rv() {
	OUT=$(cd "$RVP" && as_user env XDG_STATE_HOME="$RVS" "$LTD" "$@" 2>&1)
	RC=$?
}
rvrun() {
	rv run --ro-bind "$STAGE" "$STAGE" --network none "$@"
}
# What the project holds: every path, its type, mode, link text, content.
snapshot() {
	(cd "$1" && find . -path ./.git -prune -o -printf '%p %y %m %l\n' | LC_ALL=C sort &&
		find . -path ./.git -prune -o -type f -print0 | LC_ALL=C sort -z | xargs -0 -r md5sum)
}
check() { # NAME CONDITION...
	local name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name" "$OUT"; fi
}

rv doctor
if ! printf '%s\n' "$OUT" | grep -q '^ok  *review mode'; then
	skip "review mode" "doctor says it does not work here: $(printf '%s\n' "$OUT" | grep 'review mode')"
	return 0 2>/dev/null || exit 0
fi
pass "doctor says review mode works here"

# --- every kind of change, held aside -----------------------------------
as_user sh -c "cd '$RVP' && echo keep > keep.txt && echo old > edit.txt &&
	echo bye > del.txt && echo 'rename me, please' > ren-old.txt &&
	echo '#!/bin/sh' > mode.sh && chmod 644 mode.sh && ln -s target1 lnk &&
	ln -s '$RVO' linkdir && mkdir olddir && echo a > olddir/a &&
	echo b > olddir/b && echo file > becomes-dir"
as_user sh -c "echo keep > '$RVO/x'"
before=$(snapshot "$RVP")
sleep 0.1 # the review begins after the project was made (coarse ctimes)
rvrun --review r1 -- sh -c 'echo new > edit.txt && echo added > new.txt &&
	rm del.txt && mv ren-old.txt ren-new.txt && chmod 755 mode.sh &&
	rm lnk && ln -s target2 lnk && rm linkdir && mkdir linkdir &&
	echo inside > linkdir/f && rm -r olddir && echo now-a-file > olddir &&
	rm becomes-dir && mkdir becomes-dir && echo in > becomes-dir/f &&
	mkdir -p nested/a/b && echo deep > nested/a/b/c &&
	printf "\000\001\002" > bin.dat && cat edit.txt'
expect_rc "a review run exits with the command's status" 0
expect_out "the command sees its own writes" "^new$"
expect_out "at exit the run names the review and what it holds" "review r1: .*added.*changed.*deleted"
check "the project on the host has not changed" test "$(snapshot "$RVP")" = "$before"

rv review r1
expect_out "review NAME: an addition" "^A  new\.txt$"
expect_out "review NAME: a change" "^M  edit\.txt$"
expect_out "review NAME: a deletion" "^D  del\.txt$"
expect_out "review NAME: a rename, found by content" "^R  ren-old\.txt -> ren-new\.txt$"
expect_out "review NAME: a mode change" "^M  mode\.sh  \(mode 644 -> 755\)$"
expect_out "review NAME: a link's new text" "^M  lnk -> target2$"
expect_out "review NAME: a directory replacing a link" "^T  linkdir/  \(link -> directory\)$"
expect_out "review NAME: a file replacing a directory" "^T  olddir  \(directory -> file\)$"
expect_out "review NAME: nested directories" "^A  nested/a/b/c$"
rv review
expect_out "review lists the pending review with its project" "^r1  $RVP  .*added"
rv review --json
check "review --json is JSON naming the review and its project" \
	python3 -c 'import json,sys; r=json.loads(sys.argv[1]); assert r[0]["name"]=="r1" and r[0]["project"]==sys.argv[2] and r[0]["changes"]["added"]>=1' "$OUT" "$RVP"
rv diff r1
expect_out "diff: a unified diff of a changed file" "^\+new$"
expect_out "diff: git's header for a mode change" "^new mode 100755$"
expect_out "diff: a rename" "^rename from ren-old\.txt$"
expect_out "diff: a binary file named as such" "^Binary files /dev/null and b/bin\.dat differ$"
expect_out "diff: a link named as such" "^\+link lnk -> target2$"
rv diff r1 --stat
expect_out "diff --stat: the totals" "files changed, [0-9]+ insertions"
rv diff r1 edit.txt
expect_no_out "diff PATH: only that path" "new\.txt"

rv discard r1
check "discard leaves the project as it was" test "$(snapshot "$RVP")" = "$before"

# --- continuing a review; it belongs to one project ----------------------
rvrun --review r2 -- sh -c 'echo one > cont.txt'
rvrun --review r2 -- sh -c 'cat cont.txt && echo two >> cont.txt'
expect_out "a pending review continues where it left off" "^one$"
check "and the project still has nothing of it" test ! -e "$RVP/cont.txt"
OTHER=$(as_user mktemp -d "$U_HOME/e2e-review-other.XXXXXX")
OUT=$(cd "$OTHER" && as_user env XDG_STATE_HOME="$RVS" "$LTD" run --network none --review r2 -- true 2>&1)
RC=$?
expect_rc "continuing a review from another project is refused" 125
expect_out "naming the project it belongs to" "belongs to the project $RVP"
OUT=$(cd "$RVP" && as_user env XDG_STATE_HOME="$RVP/.state" "$LTD" run --network none --review r9 -- true 2>&1)
RC=$?
expect_rc "reviews kept inside the project are refused" 125
expect_out "saying where they are kept" "lies in the project"
as_user rm -rf "$RVP/.state"
rv discard r2
expect_rc "discard removes a review" 0
rv review
expect_no_out "a discarded review is gone" "^r2 "
check "and nothing of it landed" test ! -e "$RVP/cont.txt"
check "its directory is gone" test ! -e "$RVS/ltd-native/reviews/r2"

# --- two review runs of one project at once -----------------------------
: >"$RV_TMP/ra.status"
chmod 666 "$RV_TMP/ra.status"
(cd "$RVP" && exec "${USER_CMD[@]}" env XDG_STATE_HOME="$RVS" "$LTD" run --ro-bind "$STAGE" "$STAGE" \
	--network none --name e2e-rva --keep-running --review ra --json-status-fd 3 \
	-- sh -c 'echo A > shared.txt' 3>"$RV_TMP/ra.status" </dev/null >"$RV_TMP/ra.out" 2>&1) &
# Its first command has ended and the cage is registered (a generous bound:
# a loaded machine starts cages slowly).
for _ in $(seq 3600); do
	grep -q exited "$RV_TMP/ra.status" 2>/dev/null &&
		as_user env XDG_STATE_HOME="$RVS" "$LTD" ps | grep -q '^e2e-rva ' && break
	sleep 0.05
done
check "a review cage with --name --keep-running starts" grep -q exited "$RV_TMP/ra.status"
rvrun --review rb -- sh -c 'cat shared.txt 2>/dev/null; echo B > shared.txt'
expect_no_out "the second review does not see the first one's writes" "^A$"
rv exec e2e-rva -- cat shared.txt
expect_out "exec into a review cage sees its overlay" "^A$"
rv discard ra
expect_rc "a review whose cage runs is not discarded" 125
rv kill e2e-rva
wait
rv discard ra
rv discard rb

# --- git: a commit inside and a planted hook, held aside ----------------
GP=$(as_user mktemp -d "$U_HOME/e2e-review-git.XXXXXX")
as_user sh -c "cd '$GP' && ${GITC[*]} init -q && echo one > f && git add f && ${GITC[*]} commit -qm one && rm -rf .git/hooks"
sleep 0.1
OUT=$(cd "$GP" && as_user env XDG_STATE_HOME="$RVS" "$LTD" run --network none --review rg -- sh -c \
	"echo two >> f && ${GITC[*]} commit -qam two && mkdir -p .git/hooks && printf '#!/bin/sh\ntouch /tmp/planted\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit && mkdir .vscode && echo '{}' > .vscode/tasks.json" 2>&1)
RC=$?
expect_rc "a commit in a review run" 0
expect_out "the summary marks the planted hook held back" "^  A! \.git/hooks/pre-commit"
OUT=$(cd "$GP" && as_user env XDG_STATE_HOME="$RVS" "$LTD" review rg 2>&1)
expect_out "review NAME marks them" "A! \.vscode/tasks\.json"
OUT=$(cd "$GP" && as_user env XDG_STATE_HOME="$RVS" "$LTD" diff rg 2>&1)
expect_out "diff marks a held-back change" "^# held back: "
check "the commit is not in the project" as_user sh -c "cd '$GP' && ! git log --oneline | grep -q two"
OUT=$(cd "$GP" && as_user env XDG_STATE_HOME="$RVS" "$LTD" discard rg 2>&1)

as_user rm -rf "$RVP" "$OTHER" "$GP" "$RVO"
as_user chmod -R u+rwx "$RVS"
as_user rm -rf "$RVS"
rm -rf "$RV_TMP"
