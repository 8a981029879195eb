#!/bin/bash
# Build a tiny two-layer image from busybox-static, offline:
#   mkimage.sh OUT_DIR
# writes OUT_DIR/oci (an OCI image layout), OUT_DIR/oci.tar (the same as an
# archive) and OUT_DIR/docker.tar (the `docker save` format); OUT_DIR/oci.digest
# holds the image's digest (its manifest's) and OUT_DIR/docker.id the docker
# archive's image ID (its config's digest).  OUT_DIR/oci-multi lists two
# manifests: layer 1 alone for this machine, and the full image for s390x.
# Layer 1: /bin/busybox, /bin/sh, /etc/os-release, /gone.txt, /dir/{a,b}.
# Layer 2 (gzip): a whiteout for /gone.txt, an opaque /dir with /dir/c,
# and /added.txt.
set -euo pipefail
out=$1
bb=${BUSYBOX:-/bin/busybox}
[ -x "$bb" ] || { echo "mkimage: no busybox at $bb (apt-get install busybox-static)" >&2; exit 2; }
case $(ldd "$bb" 2>&1 || true) in *"not a dynamic"*) ;; *) false ;; esac ||
	{ echo "mkimage: $bb is not static (apt-get install busybox-static)" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/l1/bin" "$tmp/l1/etc" "$tmp/l1/dir" "$tmp/l2/dir"
cp "$bb" "$tmp/l1/bin/busybox"
ln -s busybox "$tmp/l1/bin/sh"
echo 'NAME="ltd test image"' > "$tmp/l1/etc/os-release"
echo gone > "$tmp/l1/gone.txt"
echo a > "$tmp/l1/dir/a"
echo b > "$tmp/l1/dir/b"
: > "$tmp/l2/.wh.gone.txt"
: > "$tmp/l2/dir/.wh..wh..opq"
echo c > "$tmp/l2/dir/c"
echo added > "$tmp/l2/added.txt"

tarit() { # DIR OUT: a reproducible tar
	tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 \
		-C "$1" -cf "$2" .
}
sha() { sha256sum "$1" | cut -d' ' -f1; }
size() { stat -c %s "$1"; }

# mkoci DIR TAR...: an OCI layout of uncompressed layers.
mkoci() {
	local dir=$1 ids="" layers="" t d
	shift
	rm -rf "$dir" && mkdir -p "$dir/blobs/sha256"
	for t in "$@"; do
		d=$(sha "$t")
		cp "$t" "$dir/blobs/sha256/$d"
		ids="$ids${ids:+,}\"sha256:$d\""
		layers="$layers${layers:+,}{\"mediaType\":\"application/vnd.oci.image.layer.v1.tar\",\"digest\":\"sha256:$d\",\"size\":$(size "$t")}"
	done
	printf '{"architecture":"amd64","os":"linux","rootfs":{"type":"layers","diff_ids":[%s]}}' "$ids" > "$tmp/c.json"
	cp "$tmp/c.json" "$dir/blobs/sha256/$(sha "$tmp/c.json")"
	printf '{"schemaVersion":2,"config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"sha256:%s","size":%d},"layers":[%s]}' \
		"$(sha "$tmp/c.json")" "$(size "$tmp/c.json")" "$layers" > "$tmp/m.json"
	cp "$tmp/m.json" "$dir/blobs/sha256/$(sha "$tmp/m.json")"
	printf '{"schemaVersion":2,"manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:%s","size":%d}]}' \
		"$(sha "$tmp/m.json")" "$(size "$tmp/m.json")" > "$dir/index.json"
	echo '{"imageLayoutVersion":"1.0.0"}' > "$dir/oci-layout"
}

# Hostile layers, each in an image of its own (python's tarfile writes
# what GNU tar would clean up).
python3 - "$tmp" <<'PY'
import io, sys, tarfile
tmp = sys.argv[1]
def layer(name, entries):
    with tarfile.open(f"{tmp}/{name}.tar", "w", format=tarfile.PAX_FORMAT) as t:
        for kind, path, extra in entries:
            ti = tarfile.TarInfo(path)
            if kind == "file":
                data = extra.encode()
                ti.size = len(data)
                t.addfile(ti, io.BytesIO(data))
            elif kind == "dir":
                ti.type = tarfile.DIRTYPE
                t.addfile(ti)
            elif kind == "sym":
                ti.type = tarfile.SYMTYPE
                ti.linkname = extra
                t.addfile(ti)
            elif kind == "hard":
                ti.type = tarfile.LNKTYPE
                ti.linkname = extra
                t.addfile(ti)
layer("dotdot", [("file", "../escaped", "x")])
layer("absolute", [("file", "/escaped", "x")])
layer("linkout", [("sym", "up", "../../../../tmp")])
layer("through", [("sym", "etc", "/tmp"), ("file", "etc/escaped", "x")])
layer("hardout", [("hard", "h", "../../etc/passwd")])
# A name that, printed raw, clears the screen and sets the window's title.
layer("escape", [("file", "a/../../\x1b[2J\x1b]0;pwned-title\x07 x", "x")])
PY

tarit "$tmp/l1" "$tmp/l1.tar"
tarit "$tmp/l2" "$tmp/l2.tar"
gzip -n -c "$tmp/l2.tar" > "$tmp/l2.tar.gz"
d1=$(sha "$tmp/l1.tar") d2=$(sha "$tmp/l2.tar") g2=$(sha "$tmp/l2.tar.gz")

rm -rf "$out/oci" && mkdir -p "$out/oci/blobs/sha256"
blobs=$out/oci/blobs/sha256
cp "$tmp/l1.tar" "$blobs/$d1"
cp "$tmp/l2.tar.gz" "$blobs/$g2"
printf '{"architecture":"amd64","os":"linux","config":{},"rootfs":{"type":"layers","diff_ids":["sha256:%s","sha256:%s"]}}' \
	"$d1" "$d2" > "$tmp/config.json"
cfg=$(sha "$tmp/config.json")
cp "$tmp/config.json" "$blobs/$cfg"
printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"sha256:%s","size":%d},"layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar","digest":"sha256:%s","size":%d},{"mediaType":"application/vnd.oci.image.layer.v1.tar+gzip","digest":"sha256:%s","size":%d}]}' \
	"$cfg" "$(size "$tmp/config.json")" "$d1" "$(size "$tmp/l1.tar")" "$g2" "$(size "$tmp/l2.tar.gz")" > "$tmp/manifest.json"
man=$(sha "$tmp/manifest.json")
cp "$tmp/manifest.json" "$blobs/$man"
printf '{"schemaVersion":2,"manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:%s","size":%d,"platform":{"architecture":"amd64","os":"linux"}}]}' \
	"$man" "$(size "$tmp/manifest.json")" > "$out/oci/index.json"
echo '{"imageLayoutVersion":"1.0.0"}' > "$out/oci/oci-layout"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$out/oci" -cf "$out/oci.tar" .
echo "$man" > "$out/oci.digest"
echo "$cfg" > "$out/docker.id"

# Two manifests in one index: --digest chooses, else this machine's.
case $(uname -m) in x86_64) arch=amd64 ;; aarch64) arch=arm64 ;; *) arch=$(uname -m) ;; esac
rm -rf "$out/oci-multi" && cp -r "$out/oci" "$out/oci-multi"
printf '{"architecture":"%s","os":"linux","config":{},"rootfs":{"type":"layers","diff_ids":["sha256:%s"]}}' \
	"$arch" "$d1" > "$tmp/config1.json"
cfg1=$(sha "$tmp/config1.json")
cp "$tmp/config1.json" "$out/oci-multi/blobs/sha256/$cfg1"
printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"sha256:%s","size":%d},"layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar","digest":"sha256:%s","size":%d}]}' \
	"$cfg1" "$(size "$tmp/config1.json")" "$d1" "$(size "$tmp/l1.tar")" > "$tmp/manifest1.json"
man1=$(sha "$tmp/manifest1.json")
cp "$tmp/manifest1.json" "$out/oci-multi/blobs/sha256/$man1"
printf '{"schemaVersion":2,"manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:%s","size":%d,"platform":{"architecture":"%s","os":"linux"}},{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:%s","size":%d,"platform":{"architecture":"s390x","os":"linux"}}]}' \
	"$man1" "$(size "$tmp/manifest1.json")" "$arch" "$man" "$(size "$tmp/manifest.json")" > "$out/oci-multi/index.json"

# docker save: uncompressed layers, checked against the config's diff_ids.
rm -rf "$tmp/docker" && mkdir -p "$tmp/docker/l1" "$tmp/docker/l2"
cp "$tmp/l1.tar" "$tmp/docker/l1/layer.tar"
cp "$tmp/l2.tar" "$tmp/docker/l2/layer.tar"
cp "$tmp/config.json" "$tmp/docker/$cfg.json"
printf '[{"Config":"%s.json","RepoTags":["ltd/test:1"],"Layers":["l1/layer.tar","l2/layer.tar"]}]' \
	"$cfg" > "$tmp/docker/manifest.json"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$tmp/docker" -cf "$out/docker.tar" .
for evil in dotdot absolute linkout through hardout escape; do
	mkoci "$out/evil-$evil" "$tmp/$evil.tar"
done
mkoci "$out/oci-plain" "$tmp/l1.tar" "$tmp/l2.tar"
