# shellcheck shell=bash
# `diff NAME --stat` as a new user reads it beside `git diff --stat` (the
# new user's review): names padded to one width, counts right-aligned, a
# long name cut, bars scaled to 80 columns or $COLUMNS, git's words in
# the totals; the same files edited in a git repository on the host give
# git's own text, byte for byte.  Every run here is --network none.

SXP=$(as_user mktemp -d "$U_HOME/e2e-revstat.XXXXXX")
SXS=$(as_user mktemp -d "$U_HOME/e2e-revstat-state.XXXXXX")
SX_TWIN=$(as_user mktemp -d "$U_HOME/e2e-revstat-twin.XXXXXX")
as_user chmod 755 "$SXP"
SX_GIT=(git -c user.name=e2e -c user.email=e2e@example.invalid -c init.defaultBranch=main)
SX_LONG=some/quite/long/directory/name/that/goes/on/and/on/file-with-long-name.txt

sx() { ltd_in "$SXP" "$SXS" "$@"; }
sxrun() { sx run --ro-bind "$STAGE" "$STAGE" --network none "$@"; }
# git diff --stat of the twin, as the test user ($1...: more environment).
twin_stat() {
	OUT=$(cd "$SX_TWIN" && as_user env "$@" git diff --stat 2>&1)
}

sx doctor
if ! printf '%s\n' "$OUT" | grep -q '^ok  *review mode'; then
	skip "review mode (stat)" "doctor says it does not work here"
	return 0 2>/dev/null || exit 0
fi

as_user sh -c "cd '$SXP' && ${SX_GIT[*]} init -q && seq 1 300 > mix.txt &&
	seq 1 10 > tens.txt && printf '1\n2\n3\n' > tiny.txt && echo bye > gone.txt &&
	mkdir -p \$(dirname $SX_LONG) && echo x > $SX_LONG && git add . &&
	${SX_GIT[*]} commit -qm one && cp -a . '$SX_TWIN'"
SX_EDIT="(seq 1 100 | sed s/^/n/; seq 101 600) > mix.txt &&
	seq 1 1000 | sed s/^/y/ >> tens.txt && printf '1\nb\n3\n' > tiny.txt &&
	rm gone.txt && echo y >> $SX_LONG"
as_user sh -c "cd '$SX_TWIN' && $SX_EDIT"
sleep 0.1 # the review begins after the project was made (coarse ctimes)

# --- 1. the layout: git's own, at 80 columns and at $COLUMNS ------------
sxrun --review st -- sh -c "$SX_EDIT"
expect_rc "a review run of five edits" 0
twin_stat
git_stat=$OUT
sx diff st --stat
expect_true "--stat not on a terminal: git diff --stat's 80 columns, byte for byte" \
	test "$OUT" = "$git_stat"
expect_out "a long name cut as git cuts it" "^ \.\.\./that/goes/on/and/on/file-with-long-name\.txt +\| +1 \+$"
expect_out "the counts right-aligned" "^ tiny\.txt +\|    2 \+-$"
twin_stat COLUMNS=50
git_stat=$OUT
OUT=$(cd "$SXP" && as_user env XDG_STATE_HOME="$SXS" COLUMNS=50 "$LTD" diff st --stat 2>&1)
expect_true "COLUMNS=50: git's 50 columns, byte for byte" test "$OUT" = "$git_stat"
expect_true "no file's line passes the 50 columns" \
	sh -c "printf '%s\n' \"\$1\" | awk '/ \| / && length > 49 { exit 1 }'" _ "$OUT"
sx diff st --stat tiny.txt
expect_true "one file: git's singular" \
	test "$OUT" = "$(printf ' tiny.txt | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)')"
sx diff st --stat gone.txt
expect_out "only deletions: no '0 insertions' (git's words)" "^ 1 file changed, 1 deletion\(-\)$"
sx discard st

# --- 2. a mode change is marked, with the content's change or alone -----
sxrun --review sm -- sh -c 'echo y >> tiny.txt && chmod 755 tiny.txt mix.txt'
sx diff sm --stat
expect_out "a mode changed with the content: marked" "^ tiny\.txt \| 1 \+ \(mode\)$"
expect_out "a mode changed alone: marked" "^ mix\.txt  \| 0 \(mode\)$"
expect_out "both counted in the totals" "^ 2 files changed, 1 insertion\(\+\), 2 mode changes$"
sx discard sm

# --- 3. what never lands, and what is held back, said so ----------------
# A `git add` in the cage writes the index and an object: git's own, one
# line for the .git, none of it among the files changed; a FIFO never
# lands, by its name; a VS Code task is held back.
sxrun --review sg -- sh -c 'echo more >> tiny.txt && git add tiny.txt &&
	mkfifo pipe && mkdir .vscode && echo "{}" > .vscode/tasks.json'
expect_rc "a review run of git add, a FIFO and a task" 0
sx diff sg --stat
expect_out "git's own files: one line for the .git" "^ \.git/ +\| never lands: git's own index, objects/ \(1 file\)$"
expect_no_out "not each by name, as the user's files" "^ \.git/(index|objects/)"
expect_out "a FIFO: never lands, by its name" "^ pipe +\| never lands$"
expect_out "a host program's file: held back" "^ \.vscode/tasks\.json +\| 1 \+ \(held back\)$"
expect_out "the totals count the files apply offers" "^ 2 files changed, 2 insertions\(\+\)$"
sx diff sg
# (what never lands in comment lines, '#   PATH', with no diff --git)
expect_true "the full diff shows the same files" \
	sh -c "printf '%s\n' \"\$1\" | grep -cE '^(diff --git|#   )' | grep -qx 5" _ "$OUT"
sx discard sg

as_user rm -rf "$SXP" "$SX_TWIN"
as_user rm -rf "$SXS"
