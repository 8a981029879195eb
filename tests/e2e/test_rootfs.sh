# shellcheck shell=bash
# Pinned root filesystems (issue 7): ltd-rootfs imports a two-layer image
# the test builds from busybox-static, and ltd-native runs in it.

# Everything in a store of the test's own.
RFS_DATA=$(as_user mktemp -d "$U_HOME/e2e-rfs.XXXXXX")
RFS_IMG=$(as_user mktemp -d "$U_HOME/e2e-img.XXXXXX")
STORE=$RFS_DATA/ltd-native/rootfs

# rfs ARGS...: ltd-rootfs as the test user; rfs_run ARGS...: ltd-native run.
rfs() {
	OUT=$(cd "$PROJ" && as_user env XDG_DATA_HOME="$RFS_DATA" "$RFS" "$@" 2>&1)
	RC=$?
}
rfs_run() {
	OUT=$(cd "$PROJ" && as_user env XDG_DATA_HOME="$RFS_DATA" "$LTD" run --network none "$@" 2>&1)
	RC=$?
}
# no_ctl NAME: the last output holds no control byte but tabs and newlines.
no_ctl() {
	if printf '%s' "$OUT" | tr -d '\n\t' | LC_ALL=C grep -q '[[:cntrl:]]'; then
		fail "$1" "$(printf '%s' "$OUT" | od -c | head -8)"
	else
		pass "$1"
	fi
}
digest_of() { printf '%s\n' "$OUT" | sed -n 's/^[^ ]* sha256:\([0-9a-f]\{64\}\)$/\1/p'; }

# Before any import there is no store at all: the run says there is no
# such pinned root filesystem and how to make one, not ENOENT on the
# store's directory.
NO_STORE=$(as_user mktemp -d "$U_HOME/e2e-nostore.XXXXXX")
OUT=$(cd "$PROJ" && as_user env XDG_DATA_HOME="$NO_STORE" "$LTD" run --network none --rootfs bb -- true 2>&1)
RC=$?
expect_rc "--rootfs before any import stops the run" 125
expect_out "it says there is no pinned root filesystem of that name" \
	"^ltd-native: --rootfs bb: there is no pinned root filesystem named 'bb'"
expect_out "and points at ltd-rootfs list and import" "'ltd-rootfs list'.*'ltd-rootfs import"
expect_no_out "not the store directory's ENOENT" "No such file or directory"
as_user rm -rf "$NO_STORE"

# Misuse says what is wrong, in one line that names ltd-rootfs, and the
# usage of the command meant (not the whole help page).
rfs
expect_rc "ltd-rootfs with no command is a usage error" 2
expect_out "... naming the commands" "^ltd-rootfs: a command is needed: import, build, list, verify or rm; 'ltd-rootfs --help' says more\$"
rfs imprt bb x
expect_rc "an unknown command is a usage error" 2
expect_out "... naming it" "^ltd-rootfs: 'imprt' is not a command: import, build, list, verify or rm"
rfs import bb
expect_rc "import without its IMAGE is a usage error" 2
expect_out "... saying what is missing" "^ltd-rootfs: import needs NAME and IMAGE \(IMAGE is missing\)\$"
expect_out "... giving import's usage, its options named" "^ltd-rootfs: usage: ltd-rootfs import NAME IMAGE .*--max-bytes N"
expect_no_out "... and not the others'" "ltd-rootfs build"
rfs import bb x --bogus
expect_rc "an unknown option of import is a usage error" 2
rfs --version
expect_out "ltd-rootfs --version names its version" "^ltd-rootfs [0-9]"
rfs verify
expect_out "verify without NAME gives verify's usage" "^ltd-rootfs: usage: ltd-rootfs verify NAME\|sha256:DIGEST\$"

if ! as_user bash "$here/mkimage.sh" "$RFS_IMG" >/dev/null 2>"$RFS_IMG.err"; then
	skip "pinned rootfs" "cannot build the test image: $(cat "$RFS_IMG.err")"
	rm -f "$RFS_IMG.err"
else
rm -f "$RFS_IMG.err"

# --- import -------------------------------------------------------------------
rfs import bb "$RFS_IMG/oci"
expect_rc "an OCI layout directory imports" 0
D=$(digest_of)
rfs import bb-again "$RFS_IMG/oci"
[ -n "$D" ] && [ "$(digest_of)" = "$D" ] && pass "the same import twice gives the same digest" ||
	fail "the same import twice gives the same digest" "$OUT"
rfs import bb-tar "$RFS_IMG/oci.tar"
[ "$(digest_of)" = "$D" ] && pass "an OCI archive gives the same digest" ||
	fail "an OCI archive gives the same digest" "$OUT"
rfs import bb-docker "$RFS_IMG/docker.tar"
[ "$(digest_of)" = "$D" ] && pass "a docker save archive gives the same digest" ||
	fail "a docker save archive gives the same digest" "$OUT"
rfs import bb-plain "$RFS_IMG/oci-plain"
[ "$(digest_of)" = "$D" ] && pass "the digest is the content's, not the blobs' (gzip or not)" ||
	fail "the digest is the content's, not the blobs' (gzip or not)" "$OUT"

# --- import --digest: the image must be the one named -----------------------------
M=$(cat "$RFS_IMG/oci.digest") ID=$(cat "$RFS_IMG/docker.id")
Z=$(printf '%064d' 0)
rfs import pinned "$RFS_IMG/oci" --digest "sha256:$M"
expect_rc "--digest with the image's manifest digest imports" 0
[ "$(digest_of)" = "$D" ] && pass "and gives the same entry" || fail "and gives the same entry" "$OUT"
rfs import pinned-tar "$RFS_IMG/oci.tar" --digest "sha256:$M"
expect_rc "--digest checks an OCI archive too" 0
rfs import --digest "sha256:$M" pinned-first "$RFS_IMG/oci"
expect_rc "--digest may come first" 0
# Refusals in a store of their own: nothing may be stored.
DIG_DATA=$(as_user mktemp -d "$U_HOME/e2e-rfsdig.XXXXXX")
DIG_STORE=$DIG_DATA/ltd-native/rootfs
dig() {
	OUT=$(cd "$PROJ" && as_user env XDG_DATA_HOME="$DIG_DATA" "$RFS" "$@" 2>&1)
	RC=$?
}
dig_nothing_stored() { # WHAT
	local left
	left=$(find "$DIG_STORE" -mindepth 2 2>/dev/null)
	[ -z "$left" ] && pass "$1" || fail "$1" "$left"
}
for bad in "$Z" "sha256:$(printf '%064d' 0 | tr 0 A)" "sha256:$(printf '%063d' 0)" "sha512:$Z" ""; do
	dig import bad "$RFS_IMG/oci" --digest "$bad"
	expect_rc "a malformed --digest is refused ('$bad'), a usage error" 2
	expect_out "naming the flag and the value ('$bad')" "^ltd-rootfs: --digest: '$bad' is not"
done
dig import bad "$RFS_IMG/oci" --digest
expect_out "--digest without a value is refused" "--digest needs a value"
dig import bad "$RFS_IMG/oci" --digest "sha256:$M" --digest "sha256:$Z"
expect_out "--digest given twice is refused" "--digest given twice"
[ ! -e "$DIG_STORE" ] && pass "a malformed --digest touches no store" ||
	fail "a malformed --digest touches no store" "$(find "$DIG_STORE")"
for img in oci oci.tar; do
	dig import wrong "$RFS_IMG/$img" --digest "sha256:$Z"
	expect_rc "another digest refuses the import ($img)" 1
	expect_out "naming the digest expected and the image's ($img)" \
		"expected sha256:$Z, found sha256:$M"
	dig_nothing_stored "a refused digest stores nothing: no entry, pin or staging ($img)"
done
dig import wrong "$RFS_IMG/oci" --digest "sha256:$ID"
expect_out "an OCI layout's config digest is not its image digest" "expected sha256:$ID, found sha256:$M"
# An index of two manifests: without --digest this machine's (as before);
# --digest takes the one it names.
dig import multi "$RFS_IMG/oci-multi"
expect_rc "an index of two manifests imports this machine's" 0
[ -n "$(digest_of)" ] && [ "$(digest_of)" != "$D" ] && pass "which is the one-layer image" ||
	fail "which is the one-layer image" "$OUT"
dig rm multi
expect_rc "(and it goes)" 0
rfs import multi-pinned "$RFS_IMG/oci-multi" --digest "sha256:$M"
expect_rc "--digest selects a manifest of the index, whatever its platform" 0
[ "$(digest_of)" = "$D" ] && pass "the manifest named is the one imported" ||
	fail "the manifest named is the one imported" "$OUT"
dig import wrong "$RFS_IMG/oci-multi" --digest "sha256:$Z"
expect_out "none of the index's manifests: all are named" "expected sha256:$Z, found sha256:[0-9a-f]{64}, sha256:$M"
dig_nothing_stored "and nothing is stored"
# docker save has no registry manifest: --digest is its image ID.
rfs import dk-pinned "$RFS_IMG/docker.tar" --digest "sha256:$ID"
expect_rc "a docker save archive imports by its image ID" 0
[ "$(digest_of)" = "$D" ] && pass "the docker archive pinned by its image ID gives the same entry" ||
	fail "the docker archive pinned by its image ID gives the same entry" "$OUT"
dig import wrong "$RFS_IMG/docker.tar" --digest "sha256:$M"
expect_rc "a docker save archive refuses another digest" 1
expect_out "naming its image ID and what --digest means there" "expected sha256:$M, found sha256:$ID .*image ID"
dig_nothing_stored "a refused docker archive stores nothing"
as_user rm -rf "$DIG_DATA"

rfs list
expect_out "list shows the pin and its digest" "^bb[[:space:]]+sha256:$D\$"
# A file in the store's pins/ named by something else than ltd-rootfs:
# listed, shown as '?'.
as_user touch "$STORE/pins/x$(printf '\033')]0;pin-title$(printf '\a')"
rfs list
expect_out "list shows a stray pin's control bytes as '?'" "^x\?\]0;pin-title\?[[:space:]]+\(unreadable pin"
no_ctl "list prints no control byte of a stray pin's name"
as_user rm -f "$STORE/pins/x$(printf '\033')]0;pin-title$(printf '\a')"
n=$(find "$STORE/entries" -mindepth 1 -maxdepth 1 | wc -l)
[ "$n" = 1 ] && pass "one entry for one content" || fail "one entry for one content ($n)"
perm=$(stat -c %a "$STORE/entries/$D/tree/bin/busybox" "$STORE/entries/$D/tree/bin")
[ "$perm" = "$(printf '555\n555')" ] && pass "the stored tree is read-only on disk" ||
	fail "the stored tree is read-only on disk" "$perm"

# --- run ------------------------------------------------------------------------
rfs_run --rootfs bb -- /bin/busybox sh -c 'echo in-image; ls /dir; cat /added.txt;
	test -e /gone.txt && echo gone-is-there; cat /etc/os-release; grep "^$(id -un):" /etc/passwd;
	echo x > /bin/new 2>/dev/null || echo bin-read-only; test -e /usr/bin/bash || echo no-host-usr'
expect_rc "busybox sh runs in the pinned rootfs" 0
expect_out "the command ran in the image" "^in-image\$"
expect_out "an opaque whiteout hid the lower layer's directory content" "^c\$"
expect_no_out "files of the opaque directory's lower layer are gone" "^(a|b)\$"
expect_no_out "a file whiteout hid the lower layer's file" "gone-is-there"
expect_out "the upper layer's file is there" "^added\$"
expect_out "the image's /etc is there" "ltd test image"
expect_out "/etc/passwd is generated over the image's" "^[^:]+:x:$U_UID:$U_GID:"
expect_out "the rootfs is read-only" "^bin-read-only\$"
expect_out "the host's /usr is not there" "^no-host-usr\$"
rfs_run --rootfs "sha256:$D" -- /bin/busybox true
expect_rc "--rootfs sha256:DIGEST runs" 0
rfs_run --rootfs bb -- /bin/busybox sh -c 'id -u; grep -E "^(CapEff|NoNewPrivs)" /proc/self/status'
expect_out "the invoking user's uid inside a pinned rootfs" "^$U_UID\$"
expect_out "no capabilities inside a pinned rootfs" "^CapEff:[[:space:]]+0000000000000000\$"
expect_out "no_new_privs inside a pinned rootfs" "^NoNewPrivs:[[:space:]]+1\$"

# --- refusals -------------------------------------------------------------------
rfs_run --rootfs no-such-pin -- /bin/busybox echo ran
expect_rc "a missing pin stops the run" 125
expect_no_out "nothing runs without the rootfs" "^ran\$"
expect_out "a missing pin is named, with how to list and import" \
	"there is no pinned root filesystem named 'no-such-pin' in .*'ltd-rootfs list'; 'ltd-rootfs import"
rfs_run --rootfs "sha256:$(printf '%064d' 0)" -- /bin/busybox echo ran
expect_out "a missing entry names the digest expected" "expected sha256:0{64}, found no such entry"
rfs_run --rootfs '../x' -- /bin/busybox echo ran
expect_out "a bad rootfs reference is refused" "--rootfs: '../x' is neither"

as_user cp -r "$RFS_IMG/oci" "$RFS_IMG/bad"
blob=$(ls -S "$RFS_IMG/bad/blobs/sha256" | head -1)
printf X | as_user dd of="$RFS_IMG/bad/blobs/sha256/$blob" bs=1 seek=4096 conv=notrunc 2>/dev/null

rfs import bad "$RFS_IMG/bad"
expect_rc "a blob changed by one byte fails the import" 1
expect_out "the failure names the digests expected and found" "expected sha256:$blob, found sha256:[0-9a-f]{64}"
[ ! -e "$STORE/pins/bad" ] && pass "a failed import pins nothing" || fail "a failed import pins nothing"
[ -z "$(ls -A "$STORE/tmp")" ] && pass "a failed import leaves no staging behind" ||
	fail "a failed import leaves no staging behind" "$(ls -A "$STORE/tmp")"

for evil in dotdot absolute linkout through hardout; do
	rfs import "evil-$evil" "$RFS_IMG/evil-$evil"
	expect_out "a hostile layer is refused ($evil)" "refused"
done
[ ! -e "$U_HOME/escaped" ] && [ ! -e "$RFS_DATA/escaped" ] && pass "nothing escaped the staging tree" ||
	fail "nothing escaped the staging tree"
# The refusal names the member, shown as '?' where its name holds a
# control byte: nothing of the image reaches the terminal raw.
rfs import evil-escape "$RFS_IMG/evil-escape"
expect_rc "a member named with escape sequences is refused" 1
expect_out "the refusal shows the name's control bytes as '?'" "'a/\.\./\.\./\?\[2J\?\]0;pwned-title\? x'"
no_ctl "no control byte of the member's name reaches the terminal"

# The archive around the image is hostile too: a link it holds must not lead
# the directories made for its later entries out of the staging area.
as_user python3 - "$RFS_IMG/evil-outer.tar" "$U_HOME" <<'PY'
import io, sys, tarfile
with tarfile.open(sys.argv[1], "w") as t:
    l = tarfile.TarInfo("x"); l.type = tarfile.SYMTYPE; l.linkname = sys.argv[2]
    t.addfile(l)
    f = tarfile.TarInfo("x/e2e-outer-escape/sub/file"); f.size = 1
    t.addfile(f, io.BytesIO(b"x"))
PY
rfs import evil-outer "$RFS_IMG/evil-outer.tar"
expect_rc "an archive whose link leads out is refused" 1
[ ! -e "$U_HOME/e2e-outer-escape" ] && pass "no directory was made outside the staging area" ||
	fail "no directory was made outside the staging area" "$(ls -la "$U_HOME/e2e-outer-escape")"
as_user rm -rf "$U_HOME/e2e-outer-escape"

# --- a store changed after sealing ------------------------------------------------
rfs verify bb
expect_out "verify re-hashes an intact entry" "^bb sha256:$D: ok"
f=$STORE/entries/$D/tree/dir/c
# Same size, mode restored: only the content (and the ctime) tell.
as_user sh -c "chmod u+w '$f' && echo C > '$f' && chmod a-w '$f'"
rfs verify bb
expect_rc "verify fails on a changed file" 1
expect_out "verify names the file and both hashes" "'/dir/c': expected sha256:[0-9a-f]{64}, found sha256:[0-9a-f]{64}"
rfs_run --rootfs bb -- /bin/busybox echo ran
expect_rc "run refuses a changed file in the store" 125
expect_out "run names the entry and the file" "sha256:$D: '/dir/c' was changed after"
expect_no_out "nothing runs in a changed rootfs" "^ran\$"
m=$STORE/entries/$D/manifest
as_user sh -c "chmod u+w '$STORE/entries/$D' '$m' && echo >> '$m'"
rfs_run --rootfs bb -- /bin/busybox echo ran
expect_out "a changed manifest names the digests expected and found" "expected sha256:$D, found sha256:[0-9a-f]{64}"

# --- rm -------------------------------------------------------------------------
for n in bb-again bb-tar bb-docker bb-plain pinned pinned-tar pinned-first multi-pinned dk-pinned; do rfs rm "$n"; done
expect_out "rm keeps an entry another pin records" "kept entry"
rfs rm bb
expect_out "rm removes the last pin's entry" "removed entry sha256:$D"
[ ! -e "$STORE/entries/$D" ] && pass "the entry is gone" || fail "the entry is gone"
# --- the store itself never goes into a cage --------------------------------------
rfs_run --project "$RFS_DATA" -- true
expect_rc "a project that holds the store is refused" 125
expect_out "naming the store" "pinned root filesystems"
rfs_run --ro-bind "$STORE" /store -- true
expect_rc "binding the store is refused" 125

# --- a running cage holds its entry ---------------------------------------------
# wait_until CMD...: until CMD succeeds, for at most 30 s (a bound, not a
# timing that is asserted).
wait_until() {
	for _ in $(seq 600); do "$@" && return 0; sleep 0.05; done
	return 1
}
rfs import busy "$RFS_IMG/oci"
D=$(digest_of)
rfs import busy-too "$RFS_IMG/oci"
cage_out=$(mktemp /tmp/ltd-e2e-rfs.XXXXXX)
# The cage says it is up, then waits for the test's word before it reads
# its rootfs again.
(cd "$PROJ" && exec "${USER_CMD[@]}" env XDG_DATA_HOME="$RFS_DATA" "$LTD" run --network none \
	--rootfs busy -- /bin/busybox sh -c 'echo up > rfs-up
		while [ ! -e rfs-go ]; do sleep 0.05; done; cat /dir/c /added.txt > rfs-read' \
	</dev/null >"$cage_out" 2>&1) &
cage=$!
if wait_until test -e "$PROJ/rfs-up"; then
	pass "a cage on a pinned rootfs runs in the background"
else
	fail "a cage on a pinned rootfs runs in the background" "$(cat "$cage_out")"
fi
if [ "$AS_ROOT" = 1 ]; then
	# Every descriptor of the test user's processes open on the entry:
	# the launcher's lock only; init closed its copy, the command has none.
	real=$(realpath "$STORE/entries/$D")
	holders=$(for p in $(ps -u "$U_UID" -o pid=); do
		for f in /proc/"$p"/fd/*; do
			[ "$(readlink "$f" 2>/dev/null)" = "$real" ] && echo "$p"
		done
	done | sort -u | tr '\n' ' ')
	[ "$holders" = "$cage " ] && pass "the launcher alone holds the entry (not init, not the command)" ||
		fail "the launcher alone holds the entry (not init, not the command)" \
			"holders: '$holders', launcher $cage"
fi
rfs rm busy-too
expect_rc "a pin goes while a cage uses its entry if another pin keeps it" 0
expect_out "the entry is kept" "^kept entry sha256:$D"
rfs rm busy
expect_rc "rm of an entry a running cage uses is refused" 1
expect_out "the refusal says why, in one line" \
	"^ltd-rootfs: rootfs 'busy' \(sha256:$D\) is in use by a running cage; nothing removed"
[ -e "$STORE/pins/busy" ] && [ -e "$STORE/entries/$D/tree/dir/c" ] &&
	pass "the refused rm removed neither the pin nor the entry" ||
	fail "the refused rm removed neither the pin nor the entry" "$(ls -R "$STORE" 2>&1 | head -20)"
# Damaged while in use: an import of the same content does not replace it.
f=$STORE/entries/$D/tree/added.txt
as_user sh -c "chmod u+w '$f' && chmod a-w '$f'"
rfs import busy "$RFS_IMG/oci"
expect_rc "an import does not replace a damaged entry a running cage uses" 1
expect_out "the refusal names the entry" "entries/$D is damaged, but a running cage uses it"
as_user touch "$PROJ/rfs-go"
wait "$cage"
rc=$?
if [ "$rc" = 0 ] && grep -qx c "$PROJ/rfs-read" && grep -qx added "$PROJ/rfs-read"; then
	pass "the cage still reads its rootfs after the refused rm and import"
else
	fail "the cage still reads its rootfs after the refused rm and import" \
		"exit $rc; $(cat "$cage_out" "$PROJ/rfs-read" 2>&1)"
fi
rm -f "$cage_out"
as_user rm -f "$PROJ/rfs-up" "$PROJ/rfs-go" "$PROJ/rfs-read"
rfs import busy "$RFS_IMG/oci"
expect_out "once the cage has ended, the damaged entry is replaced" "damaged; replaced"
rfs rm busy
expect_out "once the cage has ended, rm removes the entry" "^removed entry sha256:$D\$"
[ ! -e "$STORE/entries/$D" ] && pass "the entry is gone" || fail "the entry is gone"

# --- one store lock: import's commit and rm wait for each other ------------------
rfs import held "$RFS_IMG/oci"
D=$(digest_of)
[ -f "$STORE/lock" ] && [ "$(stat -c %a "$STORE/lock")" = 600 ] &&
	pass "the store's lock is a private file" || fail "the store's lock is a private file"
lock_tmp=$(mktemp -d /tmp/ltd-e2e-rfs.XXXXXX)
chmod 755 "$lock_tmp"
# The test user holds the lock (flock(1)) until the test says release.
as_user flock "$STORE/lock" sh -c "echo > '$PROJ/lock-held'
	while [ ! -e '$PROJ/lock-release' ]; do sleep 0.05; done" &
holder=$!
# rfs_bg NAME ARGS...: ltd-rootfs in the background; output in
# $lock_tmp/NAME.out, status in $lock_tmp/NAME.rc.
rfs_bg() {
	local name=$1
	shift
	(cd "$PROJ" && as_user env XDG_DATA_HOME="$RFS_DATA" "$RFS" "$@" >"$lock_tmp/$name.out" 2>&1
		echo $? >"$lock_tmp/$name.rc") &
}
# Until ltd-rootfs says it waits, or has ended without waiting.
waiting() { grep -q "waiting for the store's lock" "$lock_tmp/$1.out" 2>/dev/null || [ -e "$lock_tmp/$1.rc" ]; }
if wait_until test -e "$PROJ/lock-held"; then
	rfs_bg rm rm held
	rm_job=$!
	wait_until waiting rm
	OUT=$(cat "$lock_tmp/rm.out")
	expect_out "rm waits for the store's lock, and says so" "^ltd-rootfs: waiting for the store's lock $STORE/lock"
	[ -e "$STORE/pins/held" ] && [ -e "$STORE/entries/$D/tree" ] &&
		pass "rm decides and removes nothing while the lock is held" ||
		fail "rm decides and removes nothing while the lock is held" "$OUT"
	rfs_bg import import held-too "$RFS_IMG/oci"
	import_job=$!
	wait_until waiting import
	OUT=$(cat "$lock_tmp/import.out")
	expect_out "an import's commit waits for the store's lock" "waiting for the store's lock"
	[ ! -e "$STORE/pins/held-too" ] && pass "the import pins nothing while the lock is held" ||
		fail "the import pins nothing while the lock is held"
	as_user touch "$PROJ/lock-release"
	wait "$holder" "$rm_job" "$import_job"
	[ "$(cat "$lock_tmp/rm.rc" "$lock_tmp/import.rc")" = "$(printf '0\n0')" ] &&
		pass "both go ahead once the lock is released" ||
		fail "both go ahead once the lock is released" "$(cat "$lock_tmp"/*.out)"
	# Whichever came first, the import's pin names an entry that is there.
	rfs_run --rootfs held-too -- /bin/busybox true
	expect_rc "the pin written beside rm names an entry that is there" 0
else
	fail "flock holds the store's lock" "$(ls -la "$STORE")"
	as_user touch "$PROJ/lock-release"
	wait "$holder"
fi
rm -rf "$lock_tmp"
as_user rm -f "$PROJ/lock-held" "$PROJ/lock-release"

fi
as_user rm -rf "$RFS_IMG"
as_user chmod -R u+w "$RFS_DATA" 2>/dev/null
as_user rm -rf "$RFS_DATA"
