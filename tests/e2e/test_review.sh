# shellcheck shell=bash
# Review mode: `run --review NAME` keeps the command's writes in an overlay's
# upper directory; `review`, `diff`, `apply`, `discard`.  Nothing reaches
# the project before `apply`; apply is all or nothing, refuses conflicts,
# holds back what the host would run, and reads the upper as hostile.

RVP=$(as_user mktemp -d "$U_HOME/e2e-review.XXXXXX")
RVS=$(as_user mktemp -d "$U_HOME/e2e-review-state.XXXXXX")
RVO=$(as_user mktemp -d "$U_HOME/e2e-review-outside.XXXXXX")
as_user chmod 755 "$RVP" "$RVO"
RV_TMP=$(mktemp -d /tmp/ltd-e2e-review.XXXXXX)
chmod 777 "$RV_TMP"
GITC=(git -c user.name=e2e -c user.email=e2e@example.invalid -c init.defaultBranch=main)

# ltd-native in the project $RVP with the reviews under $RVS.
rv() { ltd_in "$RVP" "$RVS" "$@"; }
rvrun() {
	rv run --ro-bind "$STAGE" "$STAGE" --network none "$@"
}
# What the project holds: every path, its type, mode, link text, content.
snapshot() {
	(cd "$1" && find . -path ./.git -prune -o -printf '%p %y %m %l\n' | LC_ALL=C sort &&
		find . -path ./.git -prune -o -type f -print0 | LC_ALL=C sort -z | xargs -0 -r md5sum)
}

rv doctor
if ! printf '%s\n' "$OUT" | grep -q '^ok  *review mode'; then
	skip "review mode" "doctor says it does not work here: $(printf '%s\n' "$OUT" | grep 'review mode')"
	return 0 2>/dev/null || exit 0
fi
pass "doctor says review mode works here"

# --- every kind of change, held aside, then landed exactly ---------------
as_user sh -c "cd '$RVP' && echo keep > keep.txt && echo old > edit.txt &&
	echo bye > del.txt && echo 'rename me, please' > ren-old.txt &&
	echo '#!/bin/sh' > mode.sh && chmod 644 mode.sh && ln -s target1 lnk &&
	ln -s '$RVO' linkdir && mkdir olddir && echo a > olddir/a &&
	echo b > olddir/b && echo file > becomes-dir"
as_user sh -c "echo keep > '$RVO/x'"
before=$(snapshot "$RVP")
outside=$(snapshot "$RVO")
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
expect_out "the summary names an addition" "^  A  new\.txt$"
expect_out "the summary names a change" "^  M  edit\.txt$"
expect_out "the summary names a deletion" "^  D  del\.txt$"
expect_out "the summary names a rename the content shows" "^  R  ren-old\.txt -> ren-new\.txt$"
expect_out "the summary names a mode change" "^  M  mode\.sh  \(mode 644 -> 755\)$"
expect_out "the summary names a link with its text" "^  M  lnk -> target2$"
expect_out "the summary names a type change" "^  T  linkdir/  \(link -> directory\)$"
expect_true "the project on the host has not changed" test "$(snapshot "$RVP")" = "$before"

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
expect_true "review --json is JSON naming the review and its project" \
	python3 -c 'import json,sys; r=json.loads(sys.argv[1]); assert r[0]["name"]=="r1" and r[0]["project"]==sys.argv[2] and r[0]["changes"]["added"]>=1' "$OUT" "$RVP"
rv diff r1
expect_out "diff: a unified diff of a changed file" "^\+new$"
expect_out "diff: git's header for a mode change" "^new mode 100755$"
expect_out "diff: a rename" "^rename from ren-old\.txt$"
expect_out "diff: a binary file named as such" "^Binary files /dev/null and b/bin\.dat differ$"
expect_out "diff: a link named as such" "^\+link lnk -> target2$"
rv diff r1 --stat
expect_out "diff --stat: the totals" "files changed, [0-9]+ insertions"
expect_out "diff --stat: a changed line" "^ edit\.txt +\| +2 \+-$"
expect_out "diff --stat: an added file" "^ new\.txt +\| +1 \+$"
expect_out "diff --stat: a deleted file" "^ del\.txt +\| +1 -$"
expect_out "diff --stat: a binary file" "^ bin\.dat +\| Bin$"

# --- diff --stat counts as diff -u does ----------------------------------
# The counts are made without diff(1) where they can be exact (decision
# 0163): each must be what diff -u of the same two files says, also where
# GNU diff's diff is longer than a shortest one (para.txt: +32 -60, not
# +30 -58), with no last newline, CRLF, a file that becomes a link.
RSP=$(as_user mktemp -d "$U_HOME/e2e-review-stat.XXXXXX")
RS_TWIN=$(as_user mktemp -d "$U_HOME/e2e-review-stat-twin.XXXXXX")
as_user chmod 755 "$RSP"
as_user sh -c "cd '$RSP' && i=0 && while [ \$i -lt 30 ]; do printf 'old %d\n\n' \$i; i=\$((i + 1)); done > para.txt &&
	printf 'a\nb\nc' > nonl.txt && printf 'one\r\ntwo\r\nthree\r\n' > crlf.txt &&
	seq 1 300 > many.txt && : > empty.txt && echo x > tolink.txt && cp -a . '$RS_TWIN'"
RS_EDIT='i=0 && while [ $i -lt 30 ]; do printf "new %d\n" $i; case $i in 9|19) echo;; esac; i=$((i + 1)); done > para.txt &&
	printf "a\nb\nc\n" > nonl.txt && printf "one\r\ntwo\nthree\r\nfour\r\n" > crlf.txt &&
	sed -i "5d;77s/.*/x/;150,160d" many.txt && echo new >> many.txt && printf "now" > empty.txt && rm tolink.txt && ln -s nonl.txt tolink.txt'
as_user sh -c "cd '$RS_TWIN' && $RS_EDIT"
ltd_in "$RSP" "$RVS" run --network none --review rs -- sh -c "$RS_EDIT"
ltd_in "$RSP" "$RVS" diff rs --stat
for f in para.txt nonl.txt crlf.txt many.txt empty.txt; do
	n=$(diff -u --text "$RSP/$f" "$RS_TWIN/$f" | tail -n +3 | grep -c '^[-+]')
	expect_out "diff --stat: $f counts as diff -u ($n)" "^ $f +\| +$n "
done
expect_out "diff --stat: a file become a link counts its lines" "^ tolink\.txt +\| +1 -$"
ltd_in "$RSP" "$RVS" discard rs
as_user rm -rf "$RSP" "$RS_TWIN"
rv diff r1 edit.txt
expect_no_out "diff PATH: only that path" "new\.txt"

rv apply r1
expect_rc "apply lands the review" 0
expect_out "apply says what landed, and that the review is gone" "fully landed"
expect_true "a change landed" grep -qx new "$RVP/edit.txt"
expect_true "an addition landed" grep -qx added "$RVP/new.txt"
expect_true "a deletion landed" test ! -e "$RVP/del.txt"
expect_true "a rename landed" sh -c "test ! -e '$RVP/ren-old.txt' && grep -q 'rename me' '$RVP/ren-new.txt'"
expect_true "a mode landed" test "$(stat -c %a "$RVP/mode.sh")" = 755
expect_true "a link landed with its text" test "$(readlink "$RVP/lnk")" = target2
expect_true "a directory replaced the link" sh -c "test -d '$RVP/linkdir' && test ! -L '$RVP/linkdir' && grep -qx inside '$RVP/linkdir/f'"
expect_true "nothing was written where the link led" test "$(snapshot "$RVO")" = "$outside"
expect_true "a file replaced the directory" sh -c "test -f '$RVP/olddir' && grep -qx now-a-file '$RVP/olddir'"
expect_true "a directory replaced the file" grep -qx in "$RVP/becomes-dir/f"
expect_true "nested directories landed" grep -qx deep "$RVP/nested/a/b/c"
expect_true "what was not changed is as it was" grep -qx keep "$RVP/keep.txt"
rv review
expect_no_out "a fully landed review is removed" "^r1 "

# --- continuing a review; it belongs to one project ----------------------
rvrun --review r2 -- sh -c 'echo one > cont.txt'
rvrun --review r2 -- sh -c 'cat cont.txt && echo two >> cont.txt'
expect_out "a pending review continues where it left off" "^one$"
expect_true "and the project still has nothing of it" test ! -e "$RVP/cont.txt"
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
expect_true "and nothing of it landed" test ! -e "$RVP/cont.txt"
expect_true "its directory is gone" test ! -e "$RVS/ltd-native/reviews/r2"

# --- a host change after the review began: apply refuses, lands nothing --
as_user sh -c "echo host > '$RVP/conflict.txt'"
sleep 0.1
rvrun --review r3 -- sh -c 'echo cage > conflict.txt && echo other > other.txt'
as_user sh -c "echo host-edit >> '$RVP/conflict.txt'"
rv apply r3
expect_rc "apply refuses when the host changed a path since" 1
expect_out "apply names the conflict" "C  conflict\.txt"
expect_true "the host's edit is kept" grep -qx host-edit "$RVP/conflict.txt"
expect_true "nothing else landed either (all or nothing)" test ! -e "$RVP/other.txt"
rv apply r3 other.txt
expect_rc "apply of the other path alone lands it" 0
expect_true "the path asked for landed" grep -qx other "$RVP/other.txt"
rv discard r3

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
expect_true "a review cage with --name --keep-running starts" grep -q exited "$RV_TMP/ra.status"
rvrun --review rb -- sh -c 'cat shared.txt 2>/dev/null; echo B > shared.txt'
expect_no_out "the second review does not see the first one's writes" "^A$"
rv exec e2e-rva -- cat shared.txt
expect_out "exec into a review cage sees its overlay" "^A$"
rv discard ra
expect_rc "a review whose cage runs is not discarded" 125
rv apply ra
expect_rc "apply is refused while the review's cage runs" 125
expect_out "saying so" "still running"
rv apply rb
expect_rc "apply is refused while another review run of the project is live" 125
expect_out "naming it" "review 'ra' of the same project is running"
rv kill e2e-rva
wait
rv apply ra
expect_rc "once the cage is gone, apply lands it" 0
expect_true "the first review landed" grep -qx A "$RVP/shared.txt"
rv apply rb
expect_rc "the second apply reports what conflicts" 1
expect_out "its conflict named" "C  shared\.txt"
expect_true "and lands nothing over the first" grep -qx A "$RVP/shared.txt"
rv discard rb

# --- git: the work tree lands, nothing of .git does (its index and refs
# could carry files past the review); a planted hook is held back --------
GP=$(as_user mktemp -d "$U_HOME/e2e-review-git.XXXXXX")
as_user sh -c "cd '$GP' && ${GITC[*]} init -q && echo one > f && git add f && ${GITC[*]} commit -qm one && rm -rf .git/hooks"
sleep 0.1
OUT=$(cd "$GP" && as_user env XDG_STATE_HOME="$RVS" "$LTD" run --network none --review rg -- sh -c \
	"echo two >> f && ${GITC[*]} commit -qam two && mkdir -p .git/hooks && printf '#!/bin/sh\ntouch /tmp/planted\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit && mkdir .vscode && echo '{}' > .vscode/tasks.json" 2>&1)
RC=$?
expect_rc "a commit in a review run" 0
# A new user's review: the summary listed each of the commit's objects and
# cut the work tree's changes off after them.
expect_out "the summary: git's own files of the commit in one line" "^  .- \.git/  git's own .*objects/.*  \[never lands: "
expect_out "... and the work tree's change" "^  M  f$"
expect_out "the summary marks the planted hook: never lands" "^  A- \.git/hooks/pre-commit  \[never lands"
OUT=$(cd "$GP" && as_user env XDG_STATE_HOME="$RVS" "$LTD" apply rg 2>&1)
RC=$?
expect_rc "apply of a review with a commit" 0
expect_out "apply names what never lands" "A- \.git/hooks/pre-commit"
expect_true "the commit did not land (nothing of .git does)" as_user sh -c "cd '$GP' && ! git log --oneline | grep -q two"
expect_true "the work tree's change landed, for the user to commit" as_user sh -c "cd '$GP' && grep -qx two f && git status --porcelain --untracked-files=no | grep -q '^ M f'"
expect_out "apply names the commit's objects: never land, in one line for the .git" "^  .- \.git/  git's own .*objects/.* \([0-9]+ files\)  \[never lands: "
N=$(printf '%s\n' "$OUT" | grep -c "\.git/objects/")
expect_true "... not one line each ($N)" test "$N" = 0
expect_true "the planted hook did not land" test ! -e "$GP/.git/hooks/pre-commit"
expect_true "an editor's task file did not land" test ! -e "$GP/.vscode/tasks.json"
OUT=$(cd "$GP" && as_user env XDG_STATE_HOME="$RVS" "$LTD" review rg 2>&1)
expect_out "the held-back changes stay in the review" "A! \.vscode/tasks\.json"
OUT=$(cd "$GP" && as_user env XDG_STATE_HOME="$RVS" "$LTD" discard rg 2>&1)

# --- a crash part-way is completed by the next command ------------------
rvrun --review rc -- sh -c 'for i in 1 2 3 4 5 6; do echo $i > crash$i; done'
OUT=$(cd "$RVP" && as_user env XDG_STATE_HOME="$RVS" LTD_NATIVE_TEST_HOOKS=1 LTD_TEST_APPLY_CRASH=3 "$LTD" apply rc 2>&1)
RC=$?
expect_rc "apply killed part-way (a test hook)" 137
expect_true "part of it had landed" sh -c "test -e '$RVP/crash1' && test ! -e '$RVP/crash6'"
rv review rc
expect_out "the next command completes it and says so" "interrupted apply of review rc was completed"
expect_true "all of it landed" sh -c "for i in 1 2 3 4 5 6; do grep -qx \$i '$RVP/crash'\$i || exit 1; done"
expect_true "no staging directory is left" sh -c "! ls -a '$RVP' | grep -q ltd-native-apply"

# --- a hostile upper built by hand ---------------------------------------
as_user sh -c "echo s3cret > '$RVO/secret' && mkdir '$RVP/dir' && echo a > '$RVP/dir/a' &&
	ln -s '$RVO' '$RVP/out' && ln -s '$RVO/x' '$RVP/flink'"
sleep 0.1
as_user mkdir -p "$RVS/ltd-native/reviews"
as_user chmod 700 "$RVS/ltd-native" "$RVS/ltd-native/reviews"
as_user python3 "$here/mkupper.py" user "$RVS/ltd-native/reviews" "$RVP" "$RVO" h1
[ "$AS_ROOT" = 1 ] && python3 "$here/mkupper.py" root "$RVS/ltd-native/reviews" h1
outside=$(snapshot "$RVO")
rv review h1
expect_out "a FIFO never lands" "^A- fifo  \[never lands"
expect_out "a hard link to a file out of the review never lands" "^A- leak  \[never lands"
expect_out "names with control characters are shown safely" "^A  esc\?\[2Jname$"
[ "$AS_ROOT" = 1 ] && expect_out "a device node never lands" "^A- devnull  \[never lands"
rv apply h1
expect_rc "apply of the hostile upper" 0
expect_true "nothing was written out of the project" test "$(snapshot "$RVO")" = "$outside"
expect_true "the project's link to the outside was replaced, not followed" sh -c "test -d '$RVP/out' && test ! -L '$RVP/out' && test -f '$RVP/out/planted' && test ! -e '$RVO/planted'"
expect_true "a whiteout on a link removes the link, not its target" sh -c "test ! -e '$RVP/flink' && test ! -L '$RVP/flink' && grep -qx keep '$RVO/x'"
expect_true "a link where the project had a directory is its text, not followed" test "$(readlink "$RVP/dir")" = "$RVO"
expect_true "a climbing link is only text" test "$(readlink "$RVP/climb")" = ../../../../../../etc/passwd
expect_true "no FIFO, socket or device node landed" sh -c "test ! -e '$RVP/fifo' && test ! -e '$RVP/sock' && test ! -e '$RVP/devnull' && test ! -e '$RVP/blockdev'"
expect_true "the hard link's file did not land" sh -c "test ! -e '$RVP/leak' && ! grep -rqs s3cret '$RVP'"
expect_true "no set-uid or set-gid bit landed" sh -c "test \"\$(stat -c %a '$RVP/suid')\" = 755 && test \"\$(stat -c %a '$RVP/sgid')\" = 755"
expect_true "names of dots land as names in the project" sh -c "test -f '$RVP/...' && test -f '$RVP/..x'"
expect_true "a name with a newline lands as that name" test -f "$RVP/a
b"
expect_true "an unreadable file landed by its content" test "$(stat -c %s "$RVP/locked")" = 15
expect_true "no foreign xattr landed" python3 -c 'import os,sys; assert os.listxattr(sys.argv[1]) == []' "$RVP/tagged"
rv discard h1

# --- NAME's rules; combining with --trusted; protected paths stay read-only
rvrun --review ../escape -- true
expect_rc "a review NAME follows --name's rules" 125
expect_out "naming the flag" "^ltd-native: --review: '\.\./escape' is not a valid name"
rvrun --trusted --review rt -- sh -c 'echo t > trusted.txt && cat trusted.txt'
expect_rc "--review combines with --trusted" 0
expect_out "the trusted run sees its write" "^t$"
expect_true "and the project has nothing of it" test ! -e "$RVP/trusted.txt"
rv review rt
expect_out "the trusted run's write is in its review" "^A  trusted\.txt$"
rv discard rt
HP=$(as_user mktemp -d "$U_HOME/e2e-review-hooks.XXXXXX")
as_user sh -c "cd '$HP' && ${GITC[*]} init -q"
OUT=$(cd "$HP" && as_user env XDG_STATE_HOME="$RVS" "$LTD" run --network none --review rp -- sh -c \
	'echo x > .git/hooks/pre-commit; echo x > .git/config; mkdir -p .gemini .cursor .git/rebase-merge && echo "{}" > .gemini/settings.json && echo "{}" > .cursor/mcp.json && echo "exec touch /tmp/pwned" > .git/rebase-merge/git-rebase-todo && echo ok > plain.txt' 2>&1)
RC=$?
expect_out "a protected path is read-only in a review run too" "\.git/hooks/pre-commit: (Read-only file system|Permission denied)"
expect_out "so is git's config" "\.git/config: (Read-only file system|Permission denied)"
expect_out "the summary marks another agent's settings held back" "^  A! \.gemini/settings\.json"
expect_out "and an editor's MCP file" "^  A! \.cursor/mcp\.json"
expect_out "and git's rebase todo list" "^  A- \.git/rebase-merge/git-rebase-todo"
OUT=$(cd "$HP" && as_user env XDG_STATE_HOME="$RVS" "$LTD" apply rp 2>&1)
RC=$?
expect_rc "apply lands what is not held back" 0
expect_true "the plain file landed" grep -qx ok "$HP/plain.txt"
expect_true "another agent's settings did not land" test ! -e "$HP/.gemini/settings.json"
expect_true "an editor's MCP file did not land" test ! -e "$HP/.cursor/mcp.json"
expect_true "git's rebase todo list did not land" test ! -e "$HP/.git/rebase-merge"
OUT=$(cd "$HP" && as_user env XDG_STATE_HOME="$RVS" "$LTD" apply rp .gemini --include-protected 2>&1)
RC=$?
expect_rc "apply --include-protected PATH lands what was held back, when asked" 0
expect_true "the held-back file landed" test -f "$HP/.gemini/settings.json"
expect_true "and only the path asked for" test ! -e "$HP/.cursor/mcp.json"
OUT=$(cd "$HP" && as_user env XDG_STATE_HOME="$RVS" "$LTD" discard rp 2>&1)
as_user rm -rf "$HP"

# --- a launcher killed mid-run leaves a review that can still be used ----
: >"$RV_TMP/rk.status"
chmod 666 "$RV_TMP/rk.status"
# (Not exec'd: the shell would report the killed job.)
(cd "$RVP" && "${USER_CMD[@]}" env XDG_STATE_HOME="$RVS" "$LTD" run --ro-bind "$STAGE" "$STAGE" \
	--network none --name e2e-rvk --review rk --json-status-fd 3 \
	-- sh -c 'echo k > killed.txt && sleep 600' 3>"$RV_TMP/rk.status" </dev/null >"$RV_TMP/rk.out" 2>&1
	true) 2>/dev/null &
rk_init=
for _ in $(seq 3600); do
	rk_init=$(as_user env XDG_STATE_HOME="$RVS" "$LTD" ps 2>/dev/null | awk '$1 == "e2e-rvk" {print $2}')
	[ -n "$rk_init" ] && as_user env XDG_STATE_HOME="$RVS" "$LTD" review rk 2>/dev/null | grep -q killed && break
	sleep 0.05
done
rk_launcher=$(awk '/^PPid:/ {print $2}' "/proc/$rk_init/status" 2>/dev/null)
expect_true "a review run started and wrote" test -n "$rk_launcher"
[ -n "$rk_launcher" ] && kill -KILL "$rk_launcher"
wait
for _ in $(seq 3600); do
	as_user env XDG_STATE_HOME="$RVS" "$LTD" ps 2>/dev/null | grep -q '^e2e-rvk ' || break
	sleep 0.05
done
rv review
expect_out "a review whose launcher was killed is still listed" "^rk  "
rv apply rk
expect_rc "and can be applied" 0
expect_true "what it wrote landed" grep -qx k "$RVP/killed.txt"

# --- an overlay that cannot be mounted: exit 125 and why, never a bind ---
# A project three overlays deep (a dev container in a container): overlayfs
# refuses a fourth (its stacking depth), so the review's cannot be made.
if [ "$AS_ROOT" = 1 ]; then
	NO=$RV_TMP/nest
	mkdir -p "$NO/l1" "$NO/u1" "$NO/w1" "$NO/o1" "$NO/u2" "$NO/w2" "$NO/o2"
	if mount -t overlay -o "lowerdir=$NO/l1,upperdir=$NO/u1,workdir=$NO/w1" none "$NO/o1" &&
		mount -t overlay -o "lowerdir=$NO/o1,upperdir=$NO/u2,workdir=$NO/w2" none "$NO/o2"; then
		mkdir "$NO/o2/proj" && chown "$U_UID:$U_GID" "$NO/o2/proj"
		OUT=$(cd "$NO/o2/proj" && as_user env XDG_STATE_HOME="$RVS" "$LTD" run --network none \
			--review rn -- sh -c 'echo x > written' 2>&1)
		RC=$?
		expect_rc "an overlay that cannot be mounted stops the run" 125
		expect_out "saying why" "--review: cannot mount the overlay"
		expect_true "the command did not run on the project instead" test ! -e "$NO/o2/proj/written"
		as_user env XDG_STATE_HOME="$RVS" "$LTD" discard rn >/dev/null 2>&1
	else
		skip "an overlay that cannot be mounted" "nested overlays cannot be made here"
	fi
	umount "$NO/o2" "$NO/o1" 2>/dev/null
else
	skip "an overlay that cannot be mounted" "making nested overlays needs root"
fi

as_user rm -rf "$RVP" "$OTHER" "$GP" "$RVO"
as_user chmod -R u+rwx "$RVS"
as_user rm -rf "$RVS"
rm -rf "$RV_TMP"
