# shellcheck shell=bash
# The exit walk's index (decision 0129): the planted-repository check
# reads only what changed since the previous run, and must still find all
# a full walk finds.  Kept in ltd-native's state, never in the project,
# and never where the cage can write.

WI="$U_HOME/.local/state/ltd-native/walk"
RI=$(as_user mktemp -d "$U_HOME/e2e-walkidx.XXXXXX")
as_user chmod 755 "$RI"
IDX="$WI/$(printf %s "$(realpath "$RI")" | sha256sum | cut -c1-64)"

li() {
	OUT=$(cd "$RI" && as_user "$LTD" run --network none --ro-bind "$STAGE" "$STAGE" -- "$@" 2>&1)
	RC=$?
}
# A repository whose configuration runs something, at $1 (in the cage).
# shellcheck disable=SC2016 # expanded in the cage's sh
PLANT='git init -q "$1" && git -C "$1" config core.fsmonitor "touch ran; false"'

as_user sh -c "cd '$RI' && mkdir -p a/b/c/d/e/f g/h && echo x > a/b/file"
sleep 2.1 # older than the racy margin: the index will trust these
li true
expect_rc "a run in a project with no index yet" 0
[ -f "$IDX" ] && pass "it leaves the project's index in ltd-native's state" ||
	fail "it leaves the project's index in ltd-native's state" "$(ls -la "$WI" 2>&1)"
[ "$(stat -c %a "$IDX" 2>/dev/null)" = 600 ] && [ "$(stat -c %a "$WI")" = 700 ] &&
	pass "(the file 0600, its directory 0700)" ||
	fail "(the file 0600, its directory 0700)" "$(ls -la "$WI" 2>&1)"
[ "$(ls -A "$RI" | tr '\n' ' ')" = "a g " ] && pass "(and nothing in the project)" ||
	fail "(and nothing in the project)" "$(ls -A "$RI")"

li sh -c "$PLANT" sh a/b/c/d/e/f/r
expect_out "a repository planted deep in a known tree on the second run is found" \
	"warning: $RI/a/b/c/d/e/f/r/\.git/config: .*\(core\.fsmonitor\)"

# The user makes a directory between two runs; a run learns it; the next
# plants in it.
as_user mkdir -p "$RI/g/h/new/deeper"
sleep 2.1
li true
expect_no_out "a directory the user made between runs says nothing" "git (configuration|hook|repositor)"
li sh -c "$PLANT" sh g/h/new/deeper/r
expect_out "a repository planted in it on the next run is found" \
	"warning: $RI/g/h/new/deeper/r/\.git/config: .*\(core\.fsmonitor\)"

# A tree made in the cage's /tmp... cannot be moved in (another
# filesystem); one made beside and moved under a known directory is.
li sh -c "mkdir -p stash/in && $PLANT && mv stash a/b/c/moved" sh stash/in/r
expect_out "a repository moved into a known directory is found" \
	"warning: $RI/a/b/c/moved/in/r/\.git/config: .*\(core\.fsmonitor\)"

# A damaged index is no index: the whole walk, and a new index.
as_user truncate -s 100 "$IDX"
li sh -c "$PLANT" sh a/b/c/d/r2
expect_out "behind a truncated index a planted repository is found" \
	"warning: $RI/a/b/c/d/r2/\.git/config: .*\(core\.fsmonitor\)"
[ "$(stat -c %s "$IDX")" -gt 100 ] && pass "(and the index is written whole again)" ||
	fail "(and the index is written whole again)" "$(ls -la "$WI")"
as_user sh -c "head -c \$(stat -c %s '$IDX') /dev/urandom > '$IDX'"
li sh -c "$PLANT" sh g/r3
expect_out "behind a corrupted one too" "warning: $RI/g/r3/\.git/config: .*\(core\.fsmonitor\)"

# The cage cannot reach it: the gate refuses binding the state, or a
# directory that holds it, writable.
OUT=$(cd "$RI" && as_user "$LTD" run --network none --bind "$WI" "$WI" -- true 2>&1)
RC=$?
expect_rc "a writable bind of the index's directory is refused" 125
expect_out "naming what it is and the flag" "record of the project's directories.*--unsafe-bind-credentials"
OUT=$(cd "$RI" && as_user "$LTD" run --network none --bind "$U_HOME/.local/state" /s -- true 2>&1)
RC=$?
expect_rc "so is one of a directory that holds it" 125
# Waived, the cage could write an index: then none is used or written.
before=$(sha256sum "$IDX")
OUT=$(cd "$RI" && as_user "$LTD" run --network none --unsafe-bind-credentials --bind "$U_HOME/.local/state" "$U_HOME/.local/state" -- sh -c "$PLANT; : > '$IDX'" sh a/b/r4 2>&1)
RC=$?
expect_out "with the state bound (waived) a planted repository is still found" \
	"warning: $RI/a/b/r4/\.git/config: .*\(core\.fsmonitor\)"
[ ! -s "$IDX" ] && pass "(the index the cage emptied is left as it is, not used)" ||
	fail "(the index the cage emptied is left as it is, not used)" "$before"
li true
[ "$(stat -c %s "$IDX")" -gt 100 ] && pass "(the next run, unbound, writes it again)" ||
	fail "(the next run, unbound, writes it again)" "$(ls -la "$WI")"

# A tree big enough for the rings and both threads (decision 0129; 0146
# measured a shortcut for it and dropped it): what the cage plants, or
# swaps in, under a wide directory is found.
as_user bash -c "cd '$RI' && mkdir -p w/p{1..70}/d{1..60}/e"
sleep 2.1
li true
li sh -c "$PLANT" sh w/p33/d17/e/r
expect_out "a repository planted under a wide directory of a big tree is found" \
	"warning: $RI/w/p33/d17/e/r/\.git/config: .*\(core\.fsmonitor\)"
li sh -c "mv w/p50 w/p50real && ln -s p50real w/p50 && $PLANT" sh w/p50real/d5/e/r
expect_out "one planted where a wide directory became a link is found" \
	"warning: $RI/w/p50real/d5/e/r/\.git/config: .*\(core\.fsmonitor\)"
li sh -c "mv w/p60 w/p60old && mkdir -p w/p60/d9/e && $PLANT" sh w/p60/d9/e/r
expect_out "one planted in a new directory in a wide one's place is found" \
	"warning: $RI/w/p60/d9/e/r/\.git/config: .*\(core\.fsmonitor\)"
li sh -c "$PLANT" sh w/p70/d60/e/r
expect_out "one planted under the last wide directory is found" \
	"warning: $RI/w/p70/d60/e/r/\.git/config: .*\(core\.fsmonitor\)"

# Hidden from one run's walk, shown to the next (decision 0159): a
# repository with a hook planted in a directory of the user's that the
# command then closes (run N: said, the walk cannot look in it); run N+1
# opens it again, and the hook's file is older than run N+1.  The index
# remembers that the walk did not look there.
as_user mkdir -p "$RI/x"
sleep 2.1
li true
HOOK='printf "#!/bin/sh\ntouch %s\n" "$2" > "$1/.git/hooks/pre-commit" && chmod +x "$1/.git/hooks/pre-commit"'
li sh -c "git init -q x/repo && $HOOK && chmod 000 x" sh x/repo "$RI/hook-ran"
expect_out "run N: the walk says it cannot look in the directory the command closed" "warning: $RI/x: .*cannot look in"
sleep 0.1
li chmod 755 x
expect_out "run N+1, the directory opened again: the hook hidden there is said" \
	"warning: $RI/x/repo/\.git/hooks/pre-commit: .*git hook"
(cd "$RI/x/repo" && as_user git -c user.name=e2e -c user.email=e2e@example.invalid commit -q --allow-empty -m x >/dev/null 2>&1)
[ -e "$RI/hook-ran" ] && pass "(the threat is real: git commit there on the host runs it)" ||
	fail "(the threat is real: git commit there on the host runs it)" "$(ls -la "$RI")"
as_user rm -rf "$RI/x" "$RI/hook-ran"
# The same staged deeper than the walk looks (run N: said, not looked
# below), then moved up within its reach (run N+1).
li sh -c 'd=deep; for i in $(seq 130); do d=$d/d; done; mkdir -p $d && git init -q $d/r && git -C $d/r config core.fsmonitor "touch ran; false" && echo $d > where'
expect_out "run N: a tree deeper than the walk is said" "warning: $RI/deep/.*did not look below it"
sleep 0.1
li sh -c 'mv $(cat where)/r up'
expect_out "run N+1: the repository moved up is said" "warning: $RI/up/\.git/config: .*\(core\.fsmonitor\)"
as_user rm -rf "$RI/deep" "$RI/up" "$RI/where"

# A git directory that becomes one only in a later run (decision 0159):
# run N makes a repository with a hook and moves its HEAD aside (not a
# git directory to the walk); run N+1 puts HEAD back, and the hook's file
# is older than run N+1.  So is a .git staged without HEAD elsewhere,
# moved into place with a HEAD written in run N+1.
GC='git -c user.name=e2e -c user.email=e2e@example.invalid'
li sh -c "git init -q y && $HOOK && $GC -C y commit -q --allow-empty --no-verify -m x && mv y/.git/HEAD y/.git/HEAD.x" sh y "$RI/hook-ran"
expect_no_out "run N: a git directory without HEAD is not one to the walk" "pre-commit"
sleep 0.1
li mv y/.git/HEAD.x y/.git/HEAD
expect_out "run N+1, HEAD put back: the hook made in run N is said" \
	"warning: $RI/y/\.git/hooks/pre-commit: .*git hook"
(cd "$RI/y" && as_user $GC commit -q --allow-empty -m x >/dev/null 2>&1)
[ -e "$RI/hook-ran" ] && pass "(the threat is real: git commit there on the host runs it)" ||
	fail "(the threat is real: git commit there on the host runs it)" "$(ls -la "$RI")"
as_user rm -rf "$RI/y" "$RI/hook-ran"
li sh -c "mkdir stage && git init -q stage/s && $HOOK && rm stage/s/.git/HEAD" sh stage/s "$RI/hook-ran"
sleep 0.1
li sh -c 'mkdir z && mv stage/s/.git z/.git && echo "ref: refs/heads/main" > z/.git/HEAD'
expect_out "a .git staged without HEAD in run N, moved into place with HEAD in run N+1: its hook is said" \
	"warning: $RI/z/\.git/hooks/pre-commit: .*git hook"
as_user rm -rf "$RI/z" "$RI/stage" "$RI/hook-ran"
# Hidden from run N's walk inside a git directory: its hooks directory
# closed (run N says only that it cannot look there), opened in run N+1.
li sh -c "git init -q v && $HOOK && chmod 000 v/.git/hooks" sh v "$RI/hook-ran"
expect_out "run N: the walk cannot look in the hooks directory the command closed" "warning: $RI/v/\.git/hooks: .*cannot look in"
sleep 0.1
li chmod 755 v/.git/hooks
expect_out "run N+1, the hooks directory opened again: the hook hidden there is said" \
	"warning: $RI/v/\.git/hooks/pre-commit: .*git hook"
(cd "$RI/v" && as_user $GC commit -q --allow-empty -m x >/dev/null 2>&1)
[ -e "$RI/hook-ran" ] && pass "(the threat is real: git commit there on the host runs it)" ||
	fail "(the threat is real: git commit there on the host runs it)" "$(ls -la "$RI")"
as_user rm -rf "$RI/v" "$RI/hook-ran"

[ ! -e "$RI/ran" ] && pass "(no payload ran during the tests)" || fail "(no payload ran during the tests)"
as_user rm -rf "$RI"
as_user rm -f "$IDX"
