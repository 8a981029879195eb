#!/bin/bash
# The Debian package, as a user gets it: lintian reports no error; `apt
# install ./ltd-native_*.deb` installs it; a short smoke test runs from
# the installed paths as an ordinary user (--version, --network none, the
# default allowlist mode against a DNS upstream of our own on loopback,
# doctor, the man page); `apt remove` leaves none of its files; the
# AppArmor profile is put in place only where AppArmor 4 is, and removed.
# Runs as root (CI); the user is $E2E_USER (default ltd-e2e).
#   bash tests/package/check_package.sh DIR_WITH_THE_DEB
set -u
dir=$(cd "$1" && pwd)
deb=$(ls "$dir"/ltd-native_*_*.deb | grep -v dbgsym | head -1)
changes=$(ls "$dir"/ltd-native_*.changes | head -1)
E2E_USER=${E2E_USER:-ltd-e2e}
PASSED=0 FAILED=0 SKIPPED=0
pass() { PASSED=$((PASSED + 1)); printf 'ok   %s\n' "$1"; }
fail() {
	FAILED=$((FAILED + 1)); printf 'FAIL %s\n' "$1"
	[ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/     | /'
	return 0
}
skip() { SKIPPED=$((SKIPPED + 1)); printf 'skip %s: %s\n' "$1" "$2"; }
check() { # NAME COMMAND...: passes when COMMAND succeeds
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "$out"; fi
}

if [ "$(id -u)" != 0 ]; then
	echo "check-package: run as root (it installs and removes the package)"
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive

# --- lintian -----------------------------------------------------------
out=$(lintian --fail-on error "$changes" 2>&1)
rc=$?
out=$(printf '%s\n' "$out" | grep -v 'running with root privileges')
[ "$rc" = 0 ] && pass "lintian reports no error" || fail "lintian reports no error" "$out"
[ -n "$out" ] && printf 'lintian says:\n%s\n' "$out" | sed 's/^/     | /'

# A fake AppArmor 4 (no kernel AppArmor here: the postinst only copies)
# shows the postinst's choice and the postrm's cleanup.
fake_abi=
if [ ! -e /etc/apparmor.d/abi/4.0 ] && [ ! -e /sys/kernel/security/apparmor ]; then
	mkdir -p /etc/apparmor.d/abi
	: >/etc/apparmor.d/abi/4.0
	fake_abi=1
fi
cleanup() {
	apt-get purge -y ltd-native >/dev/null 2>&1
	[ -n "$fake_abi" ] && rm -f /etc/apparmor.d/abi/4.0 &&
		rmdir --ignore-fail-on-non-empty /etc/apparmor.d/abi /etc/apparmor.d
	[ -n "${DNS_PID:-}" ] && kill "$DNS_PID" 2>/dev/null
	[ -n "${PROJ:-}" ] && rm -rf "$PROJ"
}
trap cleanup EXIT

# --- install -----------------------------------------------------------
dpkg -s ltd-native >/dev/null 2>&1 && apt-get remove -y ltd-native >/dev/null
if ! out=$(apt-get install -y "$deb" 2>&1); then
	fail "apt install ./ltd-native_*.deb" "$out"
	echo "package: $PASSED passed, $FAILED failed, $SKIPPED skipped"
	exit 1
fi
pass "apt install ./ltd-native_*.deb"
files=$(dpkg -L ltd-native | while read -r f; do [ -d "$f" ] || echo "$f"; done)
if [ -n "$fake_abi" ]; then
	grep -q '^profile ltd-native /usr/bin/ltd-native ' /etc/apparmor.d/ltd-native 2>/dev/null &&
		pass "AppArmor 4: the postinst puts the profile in /etc/apparmor.d" ||
		fail "AppArmor 4: the postinst puts the profile in /etc/apparmor.d"
fi

# --- as an ordinary user, from the installed paths ----------------------
id "$E2E_USER" >/dev/null 2>&1 || useradd --create-home --shell /bin/bash "$E2E_USER"
U_HOME=$(getent passwd "$E2E_USER" | cut -d: -f6)
as_user() {
	setpriv --reuid="$(id -u "$E2E_USER")" --regid="$(id -g "$E2E_USER")" \
		--init-groups env -i HOME="$U_HOME" USER="$E2E_USER" \
		LOGNAME="$E2E_USER" PATH=/usr/bin:/bin "$@"
}
PROJ=$(as_user mktemp -d "$U_HOME/package-project.XXXXXX")
in_proj() { (cd "$PROJ" && as_user "$@"); }

out=$(in_proj ltd-native --version)
[ "$(printf '%s\n' "$out" | head -1)" = "ltd-native $(dpkg-query -W -f '${Version}' ltd-native)" ] &&
	pass "ltd-native --version is the package's version" ||
	fail "ltd-native --version is the package's version" "$out"
[ "$(command -v ltd-native)" = /usr/bin/ltd-native ] &&
	pass "ltd-native is /usr/bin/ltd-native" || fail "ltd-native is /usr/bin/ltd-native"
check "ltd-native run --network none -- true (as $E2E_USER)" in_proj ltd-native run --network none -- true
out=$(in_proj ltd-native doctor 2>&1)
printf '%s\n' "$out" | grep -q "ltd-dnsd at /usr/libexec/ltd-native/ltd-dnsd" &&
	pass "doctor finds the helper in /usr/libexec/ltd-native" ||
	fail "doctor finds the helper in /usr/libexec/ltd-native" "$out"
if command -v dnsmasq >/dev/null && as_user test -w /dev/net/tun; then
	port=$((20000 + $$ % 20000))
	dnsmasq --no-resolv --no-hosts --bind-interfaces --keep-in-foreground \
		--listen-address=127.0.0.1 --port="$port" --user=root --group=root \
		--pid-file --address=/ok.test/192.0.2.7 &
	DNS_PID=$!
	sleep 0.5
	out=$(in_proj ltd-native run --dns-upstream "127.0.0.1:$port" \
		--no-default-domains --allow-domain ok.test -- \
		sh -c 'getent hosts ok.test; getent hosts no.test || echo refused' 2>&1)
	printf '%s\n' "$out" | grep -q '^192\.0\.2\.7 *ok\.test' &&
		printf '%s\n' "$out" | grep -q '^refused' &&
		pass "the default mode: an allowed name resolves, another is refused" ||
		fail "the default mode: an allowed name resolves, another is refused" "$out"
else
	skip "the default (allowlist) mode" "needs dnsmasq and /dev/net/tun usable by $E2E_USER"
fi
check "man ltd-native finds the page" man -w ltd-native
check "man 5 ltd-native-policy finds the page" man -w 5 ltd-native-policy

# --- remove --------------------------------------------------------------
check "apt remove ltd-native" apt-get remove -y ltd-native
left=
for f in $files; do [ -e "$f" ] || [ -L "$f" ] && left="$left $f"; done
[ -e /etc/apparmor.d/ltd-native ] && left="$left /etc/apparmor.d/ltd-native"
[ -z "$left" ] && pass "apt remove leaves none of its files" ||
	fail "apt remove leaves none of its files" "$left"

echo
echo "package: $PASSED passed, $FAILED failed, $SKIPPED skipped"
[ "$FAILED" -eq 0 ]
