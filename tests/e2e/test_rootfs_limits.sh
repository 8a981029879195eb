# shellcheck shell=bash
# The rootfs importer against hostile images ("Limits on what an import
# unpacks", docs/decisions/0058-rootfs-import-limits.md): bombs, deep
# trees, FIFOs, damaged or racing entries, stale staging, hard links with
# two modes.  Every image is small on disk; limits are lowered with the
# import options where a bomb would be large.

LIM_DATA=$(as_user mktemp -d "$U_HOME/e2e-rfslim.XXXXXX")
LIM_IMG=$(as_user mktemp -d "$U_HOME/e2e-rfslim-img.XXXXXX")
LIM_STORE=$LIM_DATA/ltd-native/rootfs

# lim ARGS...: ltd-rootfs as the test user, given a minute at most.
lim() {
	OUT=$(cd "$PROJ" && as_user env XDG_DATA_HOME="$LIM_DATA" timeout 60 "$RFS" "$@" 2>&1)
	RC=$?
}
lim_staging_empty() { # WHAT
	local left
	left=$(ls -A "$LIM_STORE/tmp" 2>/dev/null)
	[ -z "$left" ] && pass "$1" || fail "$1" "$left"
}

as_user python3 "$here/mkhostile.py" "$LIM_IMG"
H=$LIM_IMG

# --- 1. bounds on what is unpacked --------------------------------------------
lim import gz "$H/gzbomb" --max-bytes 1M
expect_rc "a gzip layer unpacking past --max-bytes is refused" 1
expect_out "naming the limit" "more than the limit of 1048576 bytes \(--max-bytes\)"
lim_staging_empty "a refused bomb leaves no staging behind"
lim import gz "$H/gzbomb" --max-bytes 8M
expect_rc "the same layer imports under a higher --max-bytes" 0

SECONDS=0
lim import sparse "$H/sparse-huge"
expect_rc "a sparse file declaring 5 GiB is refused by default" 1
expect_out "naming the per-file limit" "5368709120 bytes, more than the limit of 4294967296 for one file"
[ "$SECONDS" -lt 10 ] && pass "and at once (no hashing of holes)" || fail "and at once ($SECONDS s)"
lim import sparse "$H/sparse-small" --max-file-bytes 1M
expect_out "a sparse file's holes count toward --max-file-bytes" "8388608 bytes, more than the limit of 1048576"
lim import sparse "$H/sparse-small" --max-bytes 4M
expect_out "and toward --max-bytes" "limit of 4194304 bytes \(--max-bytes\)"

lim import many "$H/entries" --max-entries 20
expect_out "more entries than --max-entries are refused" "more than 20 entries \(--max-entries\)"
lim import three "$H/three" --max-layers 2
expect_out "more layers than --max-layers are refused" "3 layers, more than the limit of 2 \(--max-layers\)"
lim import three "$H/three"
expect_rc "three layers import by default" 0
lim import dup "$H/dup"
expect_out "a layer listed twice is refused" "layers 1 and 3 are the same"
lim import dup-empty "$H/dup-empty"
expect_rc "an empty layer listed twice is applied once" 0
lim import x "$H/three" --max-bytes 0
expect_rc "a limit of 0 is a usage error" 2
expect_out "naming the option" "--max-bytes: '0' is not a count"

# --- 2. deep trees ----------------------------------------------------------------
lim import deep "$H/deep300"
expect_rc "a path 300 levels deep is refused by default" 1
expect_out "naming --max-depth" "300 levels deep, more than the limit of 256 \(--max-depth\)"
lim import deep "$H/deep2000" --max-depth 4096
expect_rc "2000 levels import when allowed (the walks are iterative)" 0
lim verify deep
expect_out "and verify" "^deep sha256:[0-9a-f]{64}: ok, 2001 entries"
lim rm deep
expect_rc "and rm" 0
OUT=$(cd "$PROJ" && as_user env XDG_DATA_HOME="$LIM_DATA" bash -c \
	'ulimit -n 64; exec "$0" import deepfail "$1"' "$RFS" "$H/deepfail" 2>&1)
expect_out "a deep layer that fails later is refused" "'../escaped'.*refused"
lim_staging_empty "its 200-level staging tree is removed with 64 fds"

# --- 3. stale staging ---------------------------------------------------------------
as_user mkdir -p "$LIM_STORE/tmp/stage.dead1/tree/sub" "$LIM_STORE/tmp/stage.live1"
as_user chmod 0555 "$LIM_STORE/tmp/stage.dead1/tree/sub" "$LIM_STORE/tmp/stage.dead1/tree"
OUT=$(cd "$PROJ" && as_user env XDG_DATA_HOME="$LIM_DATA" python3 - "$RFS" "$LIM_STORE/tmp/stage.live1" "$H/three" <<'PY' 2>&1
import fcntl, os, subprocess, sys
fd = os.open(sys.argv[2], os.O_RDONLY | os.O_DIRECTORY)
fcntl.flock(fd, fcntl.LOCK_EX)
subprocess.run([sys.argv[1], "import", "sweep", sys.argv[3]], check=True)
print("live kept" if os.path.isdir(sys.argv[2]) else "live removed")
PY
)
expect_out "a staging directory whose lock is held is kept" "^live kept\$"
[ ! -e "$LIM_STORE/tmp/stage.dead1" ] && pass "a dead one (lock free) is swept at import" ||
	fail "a dead one (lock free) is swept at import" "$(ls -la "$LIM_STORE/tmp")"
as_user rmdir "$LIM_STORE/tmp/stage.live1" 2>/dev/null

# --- 4. FIFOs in a layout directory ---------------------------------------------------
as_user cp -r "$H/three" "$H/fifo-index"
as_user rm "$H/fifo-index/index.json"
as_user mkfifo "$H/fifo-index/index.json"
lim import fifo "$H/fifo-index"
expect_rc "a FIFO as index.json fails (does not hang)" 1
expect_out "naming it" "index.json: not a file"
as_user cp -r "$H/three" "$H/fifo-blob"
blob=$(as_user python3 -c 'import json,sys
d=sys.argv[1]; i=json.load(open(d+"/index.json"))
m=json.load(open(d+"/blobs/sha256/"+i["manifests"][0]["digest"][7:]))
print(m["layers"][0]["digest"][7:])' "$H/fifo-blob")
as_user rm "$H/fifo-blob/blobs/sha256/$blob"
as_user mkfifo "$H/fifo-blob/blobs/sha256/$blob"
lim import fifo "$H/fifo-blob"
expect_rc "a FIFO as a layer blob fails (does not hang)" 1
expect_out "naming it" "layer 1: blobs/sha256/$blob is not a file"

# --- 5. an existing entry is checked before it is trusted -------------------------------
lim import good "$H/three"
D=$(printf '%s\n' "$OUT" | sed -n 's/^good sha256:\([0-9a-f]\{64\}\)$/\1/p')
as_user sh -c "chmod u+w '$LIM_STORE/entries/$D' '$LIM_STORE/entries/$D/manifest' &&
	echo >> '$LIM_STORE/entries/$D/manifest'"
lim import good2 "$H/three"
expect_rc "importing over a damaged manifest succeeds" 0
expect_out "saying it replaced the entry" "was damaged; replaced"
lim verify good2
expect_out "and the entry verifies" "^good2 sha256:$D: ok"
f=$LIM_STORE/entries/$D/tree/a
as_user sh -c "chmod u+w '$LIM_STORE/entries/$D/tree' && rm '$LIM_STORE/entries/$D/tree/a' &&
	echo y > '$f' && chmod 0444 '$f'"
lim import good3 "$H/three"
expect_out "a changed tree is found damaged" "was damaged; replaced"
lim verify good3
expect_out "a changed tree is replaced too" "^good3 sha256:$D: ok"
as_user rm -rf "$LIM_DATA/par" 2>/dev/null
OUT=$(cd "$PROJ" && as_user env XDG_DATA_HOME="$LIM_DATA/par" bash -c '
	pids=(); for i in 1 2 3 4 5 6; do "$0" import "p$i" "$1" >/dev/null & pids+=($!); done
	rc=0; for p in "${pids[@]}"; do wait "$p" || rc=1; done; echo "rc=$rc"' "$RFS" "$H/gzbomb" 2>&1)
expect_out "six parallel imports of one image all succeed" "^rc=0\$"
n=$(find "$LIM_DATA/par/ltd-native/rootfs/entries" -mindepth 1 -maxdepth 1 | wc -l)
[ "$n" = 1 ] && pass "into one entry" || fail "into one entry ($n)" "$OUT"

# --- 6. hard links take their target's metadata ------------------------------------------
lim import hard "$H/hardmode"
expect_rc "a hard link with another mode than its target imports" 0
lim verify hard
expect_out "and verifies" "^hard sha256:[0-9a-f]{64}: ok"
grep -q '^f 0755 0:0 17 [0-9a-f]* /b$' "$LIM_STORE/entries/$(ls "$LIM_STORE/entries" | while read -r e; do
	grep -q ' /b$' "$LIM_STORE/entries/$e/manifest" && grep -q '^f 0755.* /a$' "$LIM_STORE/entries/$e/manifest" && echo "$e"; done | head -1)/manifest" &&
	pass "the link has the target's mode in the manifest" ||
	fail "the link has the target's mode in the manifest"

as_user chmod -R u+w "$LIM_DATA" "$LIM_IMG" 2>/dev/null
as_user rm -rf "$LIM_DATA" "$LIM_IMG"
