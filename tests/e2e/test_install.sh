# shellcheck shell=bash
# Installed like a Debian tool (make install, issue 18): the real `make
# install` into a prefix of the harness's own, then every mode run as the
# test user from the installed paths (the helper found in
# PREFIX/libexec/ltd-native/), `doctor` included; the installed
# completion asked for a running cage; `make uninstall` leaves no file.

INST_REPO=$(cd "$here/../.." && pwd)
INST_P=$STAGE/prefix
INST_DNS=
INST_LOG=$STAGE/install.log

inst_cleanup() {
	[ -n "$INST_DNS" ] && kill "$INST_DNS" 2>/dev/null
	rm -rf "$INST_P" "$STAGE/destdir"
	return 0
}

# $1 as the test user from the installed ltd-native, in the project.
inst() {
	OUT=$(cd "$PROJ" && as_user "$INST_P/bin/ltd-native" "$@" 2>&1)
	RC=$?
}

# --- what install puts where, and that uninstall takes exactly that -------
# A fresh DESTDIR, but for two shared directories that were there before
# (an empty man1, a bin with a file of someone else's): uninstall must
# leave the DESTDIR as it found it, directory for directory.
mkdir -p "$STAGE/destdir/usr/share/man/man1" "$STAGE/destdir/usr/bin"
: >"$STAGE/destdir/usr/bin/other-tool"
inst_before=$(cd "$STAGE/destdir" && find . | sort)
if make -s -C "$INST_REPO" B="$build" install DESTDIR="$STAGE/destdir" \
	PREFIX=/usr APPARMOR=yes >"$INST_LOG" 2>&1; then
	got=$(cd "$STAGE/destdir" && find . -type f -o -type l | sort | tr '\n' ' ')
	want="./etc/apparmor.d/ltd-native ./usr/bin/ltd-native ./usr/bin/ltd-rootfs \
./usr/bin/other-tool \
./usr/libexec/ltd-native/installed-dirs \
./usr/libexec/ltd-native/ltd-dnsd ./usr/share/bash-completion/completions/ltd-native \
./usr/share/bash-completion/completions/ltd-rootfs \
./usr/share/fish/vendor_completions.d/ltd-native.fish \
./usr/share/fish/vendor_completions.d/ltd-rootfs.fish ./usr/share/man/man1/ltd-native.1 \
./usr/share/man/man1/ltd-rootfs.1 ./usr/share/man/man5/ltd-native-policy.5 \
./usr/share/zsh/vendor-completions/_ltd-native "
	[ "$got" = "$want" ] && pass "make install DESTDIR= puts exactly its files in place" ||
		fail "make install DESTDIR= puts exactly its files in place" "$got"
	grep -q "^profile ltd-native /usr/bin/ltd-native flags=(unconfined) {" \
		"$STAGE/destdir/etc/apparmor.d/ltd-native" &&
		grep -q "^  userns,$" "$STAGE/destdir/etc/apparmor.d/ltd-native" &&
		pass "the AppArmor profile allows user namespaces to BINDIR/ltd-native" ||
		fail "the AppArmor profile allows user namespaces to BINDIR/ltd-native" \
			"$(cat "$STAGE/destdir/etc/apparmor.d/ltd-native")"
	make -s -C "$INST_REPO" B="$build" uninstall DESTDIR="$STAGE/destdir" \
		PREFIX=/usr >>"$INST_LOG" 2>&1
	left=$(cd "$STAGE/destdir" && find . | sort)
	[ "$left" = "$inst_before" ] &&
		pass "make uninstall leaves DESTDIR as it was: its files and the directories it made gone, the shared ones there before kept" ||
		fail "make uninstall leaves DESTDIR as it was: its files and the directories it made gone, the shared ones there before kept" \
			"$(diff <(echo "$inst_before") <(echo "$left"))"
else
	fail "make install DESTDIR=" "$(cat "$INST_LOG")"
fi

# --- another ltd-native's AppArmor profile (the package's, for /usr/bin)
# is neither overwritten by a make install for another BINDIR nor removed
# by its uninstall (a new user's review: uninstall PREFIX=... removed it).
rm -rf "$STAGE/destdir"
mkdir -p "$STAGE/destdir/etc/apparmor.d"
printf 'profile ltd-native /usr/bin/ltd-native flags=(unconfined) {\n  userns,\n}\n' \
	>"$STAGE/destdir/etc/apparmor.d/ltd-native"
pkg_profile=$(cat "$STAGE/destdir/etc/apparmor.d/ltd-native")
if make -s -C "$INST_REPO" B="$build" install DESTDIR="$STAGE/destdir" \
	PREFIX=/usr/local APPARMOR=yes >"$INST_LOG" 2>&1; then
	fail "install for another BINDIR refuses to replace the package's profile" "$(cat "$INST_LOG")"
else
	grep -q "is the profile of another ltd-native" "$INST_LOG" &&
		pass "install for another BINDIR refuses to replace the package's profile, and says why" ||
		fail "install for another BINDIR refuses to replace the package's profile, and says why" "$(cat "$INST_LOG")"
fi
make -s -C "$INST_REPO" B="$build" install DESTDIR="$STAGE/destdir" \
	PREFIX=/usr/local APPARMOR=no >"$INST_LOG" 2>&1 &&
	make -s -C "$INST_REPO" B="$build" uninstall DESTDIR="$STAGE/destdir" \
		PREFIX=/usr/local >>"$INST_LOG" 2>&1
[ "$(cat "$STAGE/destdir/etc/apparmor.d/ltd-native" 2>/dev/null)" = "$pkg_profile" ] &&
	[ ! -e "$STAGE/destdir/usr/local/bin/ltd-native" ] &&
	pass "uninstall for another BINDIR leaves the package's profile" ||
	fail "uninstall for another BINDIR leaves the package's profile" "$(cat "$INST_LOG")"
rm -rf "$STAGE/destdir"

# --- an installed ltd-native, run as the user ------------------------------
if ! make -s -C "$INST_REPO" B="$build" install PREFIX="$INST_P" DESTDIR= \
	APPARMOR=no >"$INST_LOG" 2>&1; then
	fail "make install PREFIX=" "$(cat "$INST_LOG")"
else
	trap 'inst_cleanup; e2e_teardown' EXIT
	inst --version
	expect_out "the installed --version names the version" "^ltd-native $(cat "$INST_REPO/VERSION")\$"
	expect_out "and the libraries the build holds" "libseccomp .*"
	expect_out "ldns among them (ltd-dnsd's)" "ldns [0-9]"

	inst doctor
	doctor_rc=$RC
	expect_out "the installed doctor finds the helper in PREFIX/libexec/ltd-native" \
		"ltd-dnsd at $INST_P/libexec/ltd-native/ltd-dnsd"
	OUT=$(cd "$PROJ" && as_user "$LTD" doctor 2>&1)
	[ "$doctor_rc" = "$?" ] && pass "the installed doctor judges the host as the build's does" ||
		fail "the installed doctor judges the host as the build's does ($doctor_rc)" "$OUT"

	inst run --network none -- sh -c 'echo in-cage; id -u'
	expect_rc "installed: --network none runs" 0
	expect_out "and the command ran as the user" "^$U_UID\$"

	inst run --network host --unsafe-host-network -- true
	expect_rc "installed: --network host runs (with its opt-in)" 0

	inst policy show --network none
	expect_rc "installed: policy show runs" 0

	OUT=$(as_user "$INST_P/bin/ltd-rootfs" list 2>&1)
	RC=$?
	expect_rc "installed: ltd-rootfs list runs" 0

	# The default mode: the DNS filter from libexec answers from a test
	# upstream on loopback (one name), refusing the rest.
	if [ "$AS_ROOT" != 1 ] || ! command -v pasta >/dev/null ||
		! command -v dnsmasq >/dev/null || ! as_user test -w /dev/net/tun; then
		skip "installed: allowlist mode" "needs root for the harness, pasta, dnsmasq and /dev/net/tun"
	else
		port=$((20000 + ($$ + 7) % 20000))
		dnsmasq --no-resolv --no-hosts --bind-interfaces --keep-in-foreground \
			--listen-address=127.0.0.1 --port="$port" --user=root \
			--group=root --pid-file --address=/ok.test/192.0.2.7 &
		INST_DNS=$!
		sleep 0.5
		inst run --dns-upstream "127.0.0.1:$port" --no-default-domains \
			--allow-domain ok.test -- sh -c \
			'getent hosts ok.test; getent hosts no.test || echo no.test refused'
		expect_rc "installed: allowlist mode runs (ltd-dnsd from libexec)" 0
		expect_out "an allowed name resolves through it" "^192\.0\.2\.7 +ok\.test"
		expect_out "a name outside the allowlist does not" "^no\.test refused"
		kill "$INST_DNS" 2>/dev/null
		wait "$INST_DNS" 2>/dev/null
		INST_DNS=
	fi

	# A named cage: exec, ps, the installed bash completion, kill.
	name=inst-e2e-$$
	(cd "$PROJ" && exec "${USER_CMD[@]}" "$INST_P/bin/ltd-native" run \
		--network none --name "$name" -- sleep 300 </dev/null >/dev/null 2>&1) &
	named=$!
	for _ in $(seq 100); do
		as_user "$INST_P/bin/ltd-native" ps | grep -q "^$name " && break
		sleep 0.05
	done
	inst exec "$name" -- true
	expect_rc "installed: exec into a named cage" 0
	OUT=$(as_user env PATH="$INST_P/bin:/usr/bin:/bin" bash -c '
		[ -r /usr/share/bash-completion/bash_completion ] &&
			. /usr/share/bash-completion/bash_completion
		. "$1"
		COMP_WORDS=(ltd-native kill "") COMP_CWORD=2
		COMP_LINE="ltd-native kill " COMP_POINT=16
		_ltd_native
		printf "%s\n" "${COMPREPLY[@]}"' _ \
		"$INST_P/share/bash-completion/completions/ltd-native" 2>&1)
	expect_out "the installed completion offers the running cage to kill" "^$name\$"
	inst kill "$name"
	expect_rc "installed: kill ends it" 0
	wait "$named"

	make -s -C "$INST_REPO" B="$build" uninstall PREFIX="$INST_P" DESTDIR= \
		>>"$INST_LOG" 2>&1
	left=$(find "$INST_P" 2>/dev/null)
	[ -z "$left" ] && pass "make uninstall leaves nothing of it, PREFIX itself included (install made it)" ||
		fail "make uninstall leaves nothing of it, PREFIX itself included (install made it)" "$left"
	inst_cleanup
	trap e2e_teardown EXIT
fi
