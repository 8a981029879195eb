# shellcheck shell=bash
# A git index the cage wrote: the cage may write a repository's index (git
# add, git commit), and git checks no path in an index it reads.  The
# attack: an entry .gix/hooks/post-checkout, renamed .git/... in the index
# bytes and its checksum made again; the host's `git checkout -- .` then
# writes the hook, and the next `git checkout -b` runs it.  At exit the run
# moves such an index aside and names the entry.

GI=$(as_user mktemp -d "$U_HOME/e2e-gitindex.XXXXXX")
as_user chmod 755 "$GI"
GITC=(git -c user.name=e2e -c user.email=e2e@example.invalid)

# ltd-native run in $GI (the project), output in $OUT, status in $RC.
lg() {
	OUT=$(cd "$GI" && as_user "$LTD" run --ro-bind "$STAGE" "$STAGE" -- "$@" 2>&1)
	RC=$?
}

# The attack on the repository at $1 (relative to the project), in sh.
attack() {
	cat <<ATTACK
cd $1 &&
blob=\$(printf '#!/bin/sh\ntouch "\$PWD/../hook-ran"\n' | git hash-object -w --stdin) &&
git update-index --add --cacheinfo 100755,\$blob,.gix/hooks/post-checkout &&
python3 -c 'import hashlib
d = open(".git/index", "rb").read()[:-20].replace(b".gix/", b".git/")
open(".git/index", "wb").write(d + hashlib.sha1(d).digest())'
ATTACK
}

as_user sh -c "cd '$GI' && mkdir work && cd work && git init -q && echo a > a && git add a && ${GITC[*]} commit -qm one"
sleep 0.1 # past the coarse clock's tick: the run starts after this

# Ordinary work in the cage: nothing said, the index stays.
lg sh -c "cd work && echo b > b && git add b && ${GITC[*]} commit -qm two && echo c > c && git add c"
expect_rc "git add and git commit in the cage" 0
expect_no_out "say nothing of the index" "git index"
[ -f "$GI/work/.git/index" ] && [ ! -e "$GI/work/.git/index.ltd-native-quarantine" ] &&
	pass "an ordinary index stays" || fail "an ordinary index stays" "$(ls -la "$GI/work/.git")"

# The project's own repository (the run starts in it).
GI_PROJ=$GI
GI=$GI/work
lg sh -c "$(attack .)"
GI=$GI_PROJ
expect_rc "the cage writes an index with a .git/hooks entry" 0
expect_out "the run names the index and the entry" \
	"warning: $GI/work/\.git/index: .*\(\.git/hooks/post-checkout\)"
expect_out "and says it moved it aside" "moved index aside to index\.ltd-native-quarantine"
[ ! -e "$GI/work/.git/index" ] && [ -f "$GI/work/.git/index.ltd-native-quarantine" ] &&
	pass "the index is quarantined" || fail "the index is quarantined" "$(ls -la "$GI/work/.git")"

# The threat is real: a copy of the repository with the index put back
# gets the hook from `git checkout -- .`, and runs it.
as_user sh -c "cp -a '$GI/work' '$GI/copy' && mv '$GI/copy/.git/index.ltd-native-quarantine' '$GI/copy/.git/index'"
(cd "$GI/copy" && as_user git checkout -q -- . >/dev/null 2>&1; as_user git checkout -q -b x >/dev/null 2>&1)
[ -e "$GI/copy/.git/hooks/post-checkout" ] && [ -e "$GI/hook-ran" ] &&
	pass "(the threat is real: the index put back writes the hook and git runs it)" ||
	fail "(the threat is real: the index put back writes the hook and git runs it)" "$(ls -la "$GI" "$GI/copy/.git/hooks")"
as_user rm -rf "$GI/copy" "$GI/hook-ran"

# The repository as the run left it: git on the host writes no hook.
(cd "$GI/work" && as_user git checkout -q -- . >/dev/null 2>&1; as_user git checkout -q -b y >/dev/null 2>&1)
[ ! -e "$GI/work/.git/hooks/post-checkout" ] && [ ! -e "$GI/hook-ran" ] &&
	pass "git checkout on the host writes no hook" ||
	fail "git checkout on the host writes no hook" "$(ls -la "$GI" "$GI/work/.git/hooks")"

# A repository the command makes in the project: found by the walk.
lg sh -c "mkdir nested && cd nested && git init -q && echo n > n && git add n && $(attack .)"
expect_out "a nested repository's index is named and moved aside" \
	"warning: $GI/nested/\.git/index: .*\(\.git/hooks/post-checkout\).*aside to index\.ltd-native-quarantine"
[ ! -e "$GI/nested/.git/index" ] && pass "the nested index is quarantined" ||
	fail "the nested index is quarantined" "$(ls -la "$GI/nested/.git")"

as_user rm -rf "$GI"
