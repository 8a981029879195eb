#!/bin/bash
# make check-build: `ltd-rootfs build` twice, the same digest both times,
# and a command runs in the result.  Downloads Debian packages (through
# mmdebstrap in its unshare mode), so it is not part of `make check` or CI.
# Run as root it builds as the e2e user (mmdebstrap needs that user's
# /etc/subuid range); as an ordinary user, as you.
set -u
build=$(cd "${1:-build}" && pwd)
user=${E2E_USER:-ltd-e2e}
if [ "$(id -u)" = 0 ]; then
	id "$user" >/dev/null 2>&1 || useradd --create-home --shell /bin/bash "$user"
	home=$(getent passwd "$user" | cut -d: -f6)
	as_user() { setpriv --reuid="$user" --regid="$user" --init-groups \
		env -i HOME="$home" PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"; }
else
	home=$HOME
	as_user() { "$@"; }
fi
stage=$(mktemp -d /tmp/ltd-build.XXXXXX)
chmod 755 "$stage"
install -m 755 "$build/ltd-rootfs" "$build/ltd-native" "$stage/"
data=$(as_user mktemp -d "$home/ltd-build-data.XXXXXX")
proj=$(as_user mktemp -d "$home/ltd-build-proj.XXXXXX")
rfs() { (cd "$proj" && as_user env XDG_DATA_HOME="$data" "$stage/ltd-rootfs" "$@"); }
cleanup() {
	rfs rm deb-a >/dev/null 2>&1
	rfs rm deb-b >/dev/null 2>&1
	as_user rm -rf "$data" "$proj"
	rm -rf "$stage"
}
trap cleanup EXIT

a=$(rfs build deb-a --packages ca-certificates) || { echo "0 passed, 1 failed"; exit 1; }
b=$(rfs build deb-b --packages ca-certificates) || { echo "0 passed, 1 failed"; exit 1; }
passed=0 failed=0
if [ "${a#* }" = "${b#* }" ]; then
	echo "ok   the same build twice gives the same digest (${a#* })"
	passed=$((passed + 1))
else
	echo "FAIL the same build twice: $a / $b"
	failed=$((failed + 1))
fi
out=$(cd "$proj" && as_user env XDG_DATA_HOME="$data" "$stage/ltd-native" run --network none --rootfs deb-a -- sh -c '. /etc/os-release; echo "$ID $VERSION_CODENAME"' 2>&1)
if printf '%s\n' "$out" | grep -q '^debian bookworm$'; then
	echo "ok   a command runs in the built rootfs"
	passed=$((passed + 1))
else
	echo "FAIL a command runs in the built rootfs"; printf '%s\n' "$out"
	failed=$((failed + 1))
fi
echo "build: $passed passed, $failed failed"
[ "$failed" = 0 ]
