#!/bin/bash
# Build the Debian package from the source tree (its tracked and new
# files, not build/) in a scratch copy, as `dpkg-buildpackage -us -uc -b`
# would in a fresh checkout; the .deb and its .changes land in OUT_DIR.
#   bash tests/package/build_package.sh OUT_DIR
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
scratch=$(mktemp -d /tmp/ltd-package.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/ltd-native"
(cd "$repo" && git ls-files --cached --others --exclude-standard -z |
	xargs -0 -I{} sh -c '[ -e "{}" ] && printf "%s\0" "{}"' |
	tar --null -T - -c) | tar -x -C "$scratch/ltd-native"
(cd "$scratch/ltd-native" &&
	DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" dpkg-buildpackage -us -uc -b) \
	>"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
rm -f "$out"/*.deb "$out"/*.changes "$out"/*.buildinfo
mv "$scratch"/*.deb "$scratch"/*.changes "$scratch"/*.buildinfo "$out/"
ls "$out"/*.deb
