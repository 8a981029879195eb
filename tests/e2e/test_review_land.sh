# shellcheck shell=bash
# Review mode, what lands and what is said about it (a second new user's
# review, issue 15): nothing of .git lands, not even with
# --include-protected; a run that left only never-landing changes is
# removed; a rename lands whole by either name; a PATH that is no change
# is an error; a host program's file is held back with that program's
# reason; a conflict marked in --stat; --help of the four commands.
# Every run here is --network none.

LDP=$(as_user mktemp -d "$U_HOME/e2e-revland.XXXXXX")
LDS=$(as_user mktemp -d "$U_HOME/e2e-revland-state.XXXXXX")
as_user chmod 755 "$LDP"
LD_GIT=(git -c user.name=e2e -c user.email=e2e@example.invalid -c init.defaultBranch=main)

ld() { ltd_in "$LDP" "$LDS" "$@"; }
ldrun() {
	ld run --ro-bind "$STAGE" "$STAGE" --network none "$@"
}

ld doctor
if ! printf '%s\n' "$OUT" | grep -q '^ok  *review mode'; then
	skip "review mode (land)" "doctor says it does not work here"
	return 0 2>/dev/null || exit 0
fi

as_user sh -c "cd '$LDP' && ${LD_GIT[*]} init -q && echo one > f && echo keep > keep.txt &&
	echo other > other.txt && git add f keep.txt other.txt && ${LD_GIT[*]} commit -qm one"
sleep 0.1 # the reviews begin after the project was made (coarse ctimes)

# --- 1. the attack: a crafted .git/index and .git/hooks/x never land ----
gitidx=$(md5sum <"$LDP/.git/index")
d="$LDS/ltd-native/reviews/gi"
as_user mkdir -p "$d/upper/.git/hooks" "$d/work"
as_user chmod 700 "$LDS/ltd-native" "$LDS/ltd-native/reviews" "$d" "$d/upper" "$d/work"
as_user sh -c "printf 'DIRC crafted index' > '$d/upper/.git/index' &&
	printf '#!/bin/sh\ntouch /tmp/ltd-e2e-pwned\n' > '$d/upper/.git/hooks/x' &&
	chmod 755 '$d/upper/.git/hooks/x' && echo ok > '$d/upper/ok.txt'"
printf '{"name": "gi", "project": "%s", "began": [%s, 0], "runs": 1}\n' "$LDP" "$(date +%s)" |
	as_user sh -c "cat > '$d/meta.json'"
ld review gi
expect_true "review NAME: .git's index marked never lands" \
	sh -c "printf '%s\n' \"\$1\" | grep -q '^M- \.git/  git'\"'\"'s own index (1 file)  \[never lands: '" _ "$OUT"
expect_true "and the planted hook" \
	sh -c "printf '%s\n' \"\$1\" | grep -q '^A- \.git/hooks/x  \[never lands: '" _ "$OUT"
ld diff gi --stat
expect_out "diff --stat: the planted hook by its name, never lands" "^ \.git/hooks/x +\| never lands$"
expect_out "diff --stat: the index with git's own, never lands" "^ \.git/ +\| never lands: git's own index$"
expect_out "diff --stat: only the plain file among the files changed" "^ 1 file changed, 1 insertion\(\+\)$"
ld apply gi .git/index --include-protected
expect_rc "apply --include-protected .git/index by name" 0
expect_true "does not land it" test "$(md5sum <"$LDP/.git/index")" = "$gitidx"
expect_out "nothing to land" "^ltd-native: apply gi: nothing to land$"
ld apply gi --include-protected
expect_rc "apply --include-protected of a review holding .git" 0
expect_true "the crafted index did not land" test "$(md5sum <"$LDP/.git/index")" = "$gitidx"
expect_true "the planted hook did not land" test ! -e "$LDP/.git/hooks/x"
expect_true "the plain file did" grep -qx ok "$LDP/ok.txt"
expect_no_out "apply does not offer --include-protected for .git" "include-protected"
expect_out "apply says .git never lands, and what to do" "^ltd-native: apply gi: never lands .*\.git.*commit"
expect_out "and names them" "^  M- \.git/  git's own index \(1 file\)  \[never lands: "
expect_true "what is left never lands: the review is removed" test ! -e "$d"
as_user rm -f "$LDP/ok.txt"

# --- 2. a run that left only .git changes is removed; counts ------------
# (A touch to another second: git status then refreshes that entry's
# stat and rewrites the index, whatever the clock's granularity.)
ldrun --review gs -- sh -c "touch -d @1000000000 f && git status >/dev/null"
expect_rc "a review run of git status" 0
expect_out "it says what the review held, and that it is removed" "^ltd-native: review gs: only \.git changed \(never lands\), removed$"
expect_true "its directory is gone" test ! -e "$LDS/ltd-native/reviews/gs"
ldrun --review gw -- sh -c "echo two >> f && touch -d @1000000000 keep.txt && git status >/dev/null"
expect_out "the summary does not count .git's index as changed" "^ltd-native: review gw: 1 changed, 1 never lands$"
ld review gw
expect_out "nor does review NAME" "^## gw: 1 changed, 1 never lands$"
ld discard gw

# --- 3. a rename lands whole, by either of its names --------------------
ldrun --review rn -- mv keep.txt kept.txt
ld apply rn kept.txt
expect_rc "apply of a rename by its new name" 0
expect_true "the new name landed" grep -qx keep "$LDP/kept.txt"
expect_true "the old name is gone" test ! -e "$LDP/keep.txt"
expect_true "nothing of it stays pending" test ! -e "$LDS/ltd-native/reviews/rn"
ldrun --review rm -- mv kept.txt keep.txt
ld apply rm kept.txt
expect_rc "apply of a rename by its old name" 0
expect_true "both sides landed" sh -c "grep -qx keep '$LDP/keep.txt' && test ! -e '$LDP/kept.txt'"

# --- 4. a PATH that is no change of the review is an error --------------
ldrun --review k -- sh -c 'echo k > real.txt'
ld apply k real.txt nosuch.txt
expect_rc "apply with a PATH that is no change" 125
expect_out "names the path and the review" "^ltd-native: apply k: 'nosuch\.txt' is not a change of review k$"
expect_true "nothing applied (all or nothing)" test ! -e "$LDP/real.txt"
ld diff k nosuch.txt
expect_rc "diff with a PATH that is no change" 125
expect_out "diff names it too" "^ltd-native: diff k: 'nosuch\.txt' is not a change of review k$"
ld diff k ./real.txt
expect_rc "diff of a PATH that is a change" 0
ld discard k

# --- 5. a host program's file: held back with its program's reason ------
ldrun --review vs -- sh -c 'mkdir .vscode && echo "{}" > .vscode/tasks.json'
ld review vs
expect_out "the reason names VS Code" "^A! \.vscode/tasks\.json  \[held back: VS Code on the host .*folderOpen"
expect_no_out "not git's or Claude Code's" "Claude Code"
ld apply vs .vscode/tasks.json
expect_rc "naming a held-back path alone" 0
expect_true "does not land it" test ! -e "$LDP/.vscode/tasks.json"
expect_out "apply says --include-protected lands it" "include-protected"
ld discard vs

# Claude Code's slash commands: held back naming Claude Code.
ldrun --review sc -- sh -c 'mkdir -p .claude/commands && echo "!\`sh -c id\`" > .claude/commands/t.md'
ld review sc
expect_out "a slash command is held, the reason naming Claude Code" \
	"^A! \.claude/commands/t\.md  \[held back: Claude Code on the host .*slash commands"
ld apply sc
expect_true "apply does not land it" test ! -e "$LDP/.claude/commands/t.md"
ld discard sc

# A commit in the cage: the full diff names what never lands in comment
# lines, its reason once, and git apply takes the whole diff on the host
# (a new user's review: a "diff --git" header with no body for each of
# .git's files made git apply abort).
ldrun --review gc -- sh -c "echo more >> f && git add f && ${LD_GIT[*]} commit -qm two"
OUT=$(cd "$LDP" && as_user env XDG_STATE_HOME="$LDS" sh -c "'$LTD' diff gc > '$LDS/gc.diff' && git apply --check '$LDS/gc.diff'" 2>&1)
RC=$?
expect_rc "diff NAME > FILE; git apply --check FILE, after a commit in the cage" 0
OUT=$(cat "$LDS/gc.diff")
expect_no_out "no diff --git header for .git's files" "^diff --git a/\.git/"
expect_out "they are named in comment lines" "^#   \.git/index$"
N=$(printf '%s\n' "$OUT" | grep -c "^# never lands: ")
expect_true "their reason is said once ($N)" test "$N" = 1
ld discard gc

# A name the cage chose to read as two in git's headers (the second
# attacker's review): 'deploy.sh "x/deploy.sh' made executable under
# review; unquoted, git apply of the diff took the name's start,
# deploy.sh, and made that one executable instead.  Quoted as git quotes.
as_user sh -c "cd '$LDP' && echo run > deploy.sh && chmod 644 deploy.sh"
ld run --ro-bind "$STAGE" "$STAGE" --network none -- sh -c 'mkdir "deploy.sh \"x" && echo notes > "deploy.sh \"x/deploy.sh"'
ldrun --review qn -- chmod +x 'deploy.sh "x/deploy.sh'
OUT=$(cd "$LDP" && as_user env XDG_STATE_HOME="$LDS" sh -c "'$LTD' diff qn | git apply" 2>&1)
RC=$?
expect_rc "diff NAME | git apply of a mode change under a crafted name" 0
expect_true "the reviewed file is the one made executable" test -x "$LDP/deploy.sh \"x/deploy.sh"
expect_true "... not another file named by the name's start" test ! -x "$LDP/deploy.sh"
ld discard qn
as_user rm -rf "$LDP/deploy.sh" "$LDP/deploy.sh \"x"

# A package's own .claude/settings.json and .mcp.json (Claude Code started
# in the package reads them: their hooks and MCP servers run on the host):
# held back at any depth, as the top's are (a new user's review: they
# landed with a plain apply).
ldrun --review ns -- sh -c 'mkdir -p pkg/.claude && echo "{\"hooks\":{}}" > pkg/.claude/settings.json &&
	echo "{}" > pkg/.claude/settings.local.json && echo "{\"mcpServers\":{}}" > pkg/.mcp.json && echo x > pkg/ok.txt'
ld review ns
expect_out "a nested settings.json is held, naming Claude Code" \
	"^A! pkg/\.claude/settings\.json  \[held back: Claude Code on the host .*settings"
expect_out "... settings.local.json too" "^A! pkg/\.claude/settings\.local\.json  \[held back: Claude Code"
expect_out "... and a nested .mcp.json" "^A! pkg/\.mcp\.json  \[held back: Claude Code on the host .*MCP servers"
ld apply ns
expect_true "apply lands none of them" test ! -e "$LDP/pkg/.claude/settings.json" -a ! -e "$LDP/pkg/.claude/settings.local.json" -a ! -e "$LDP/pkg/.mcp.json"
expect_true "... and lands the rest" test -f "$LDP/pkg/ok.txt"
ld discard ns
as_user rm -rf "$LDP/pkg"

# --- 6. a conflict marked in diff --stat; apply names the review --------
ldrun --review cf -- sh -c 'echo cage >> other.txt'
as_user sh -c "echo host >> '$LDP/other.txt'"
ld diff cf --stat
expect_out "diff --stat marks the conflict" "^ other\.txt +\| .* \(conflict\)$"
ld apply cf
expect_rc "apply refuses the conflict" 1
expect_out "its first line names the review" "^ltd-native: apply cf: these changed on the host"
# The guide's way to take the agent's version: diff | git apply.
OUT=$(cd "$LDP" && as_user env XDG_STATE_HOME="$LDS" sh -c "'$LTD' diff cf other.txt | git apply" 2>&1)
RC=$?
expect_rc "diff NAME PATH | git apply on the host (the guide's way out)" 0
expect_true "the project's copy is the review's" test "$(tail -n1 "$LDP/other.txt")" = cage
ld review cf
expect_out "nothing is left in the review" "^## cf: no changes$"
ld discard cf

# --- 7. --help of the review commands ------------------------------------
for cmd in review diff apply discard; do
	OUT=$(cd "$LDP" && as_user env XDG_STATE_HOME="$LDS" "$LTD" "$cmd" --help 2>/dev/null)
	RC=$?
	expect_rc "$cmd --help" 0
	expect_out "$cmd --help prints its usage on stdout" "^usage: ltd-native $cmd "
done

# --- a rename into what never lands, or is held, hides no deletion ------
# (a reader as the cage: `mv guard.txt .git/` paired the deletion with
# the addition under .git, the listing said only "never lands", and apply
# deleted guard.txt from the project unseen.)
as_user sh -c "cd '$LDP' && echo guard > guard.txt && echo task > task.txt"
sleep 0.1
ldrun --review mvg -- sh -c 'mv guard.txt .git/guard.txt && mkdir -p .vscode && mv task.txt .vscode/tasks.json'
expect_rc "a review run that moves files into .git and .vscode" 0
ld review mvg
expect_out "the deletion of guard.txt is shown as a deletion" "^D  guard\.txt"
expect_out "the deletion of task.txt is shown as a deletion" "^D  task\.txt"
if printf '%s\n' "$OUT" | grep -q '^R'; then
	fail "no rename hides them" "$OUT"
else
	pass "no rename hides them"
fi
ld diff mvg --no-pager guard.txt
expect_out "diff shows guard.txt's deletion" "^-guard\$"
ld discard mvg
as_user rm -f "$LDP/guard.txt" "$LDP/task.txt"

as_user rm -rf "$LDP"
as_user chmod -R u+rwx "$LDS"
as_user rm -rf "$LDS"
