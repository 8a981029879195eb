# shellcheck shell=bash
# `ltd-native doctor` (issue 9), run as the unprivileged test user.

ltd doctor
for name in "user namespaces" "seccomp" "pasta" "DNS filter" "nftables in userns" "cgroup delegation" "Landlock"; do
	expect_out "doctor reports $name" "^(ok|missing) +$name "
done
expect_out "user namespaces work for the test user (the e2e tests run)" "^ok +user namespaces "
expect_out "the DNS filter's helper is found beside the launcher" "^ok +DNS filter +.*$STAGE/ltd-dnsd"
expect_out "the Landlock line names the ABI" "^(ok +Landlock +ABI [0-9]+|missing +Landlock )"
if [ -r /proc/sys/user/max_user_namespaces ]; then
	expect_out "the userns line shows user.max_user_namespaces" "user.max_user_namespaces=$(cat /proc/sys/user/max_user_namespaces)"
fi
# The exit status follows the verdict (what a default run does: below).
if printf '%s\n' "$OUT" | grep -q '^=> a default run will not work'; then
	expect_rc "doctor exits non-zero when a required feature is missing" 1
	expect_out "and says a default run will not work" "^=> a default run will not work"
else
	expect_rc "doctor exits 0 when every required feature is there" 0
	expect_out "and says a default run works" "^=> a default run works here\$"
fi
# What doctor says about the network is what a default run does: with
# /dev/net/tun usable, the run has its network (no fallback warning);
# with it unusable by the user (a test as root changes its mode, and
# restores it), doctor names the device and its mode, as the run's own
# warning does, and a default run still works, without network.
doctor_verdict=$(printf '%s\n' "$OUT" | grep -m1 '^=>')
if printf '%s\n' "$OUT" | grep -Eq '^ok +pasta '; then
	ltd run -- true
	expect_rc "doctor's pasta verdict matches run: a default run works" 0
	expect_no_out "and it keeps its network (no fallback)" "running with --network none"
	[ "$doctor_verdict" = "=> a default run works here" ] &&
		pass "doctor says a default run works here, with its network" ||
		fail "doctor says a default run works here, with its network" "$doctor_verdict"
fi
if [ "$AS_ROOT" = 1 ] && [ -c /dev/net/tun ] && command -v pasta >/dev/null; then
	tun_mode=$(stat -c %a /dev/net/tun)
	trap 'chmod "$tun_mode" /dev/net/tun; e2e_teardown' EXIT
	chmod 0600 /dev/net/tun
	ltd doctor
	doctor_out=$OUT doctor_rc=$RC
	ltd run -- true
	run_out=$OUT run_rc=$RC
	chmod "$tun_mode" /dev/net/tun
	trap e2e_teardown EXIT
	OUT=$doctor_out RC=$doctor_rc
	expect_out "doctor names /dev/net/tun and its mode when the user cannot open it" \
		"^missing +pasta +.*/dev/net/tun is crw------- \(mode 0600"
	expect_no_out "and does not say pasta is not found" "not found"
	expect_out "doctor says a default run works, without network" \
		"^=> a default run works here, but without network"
	expect_rc "and exits 0: a default run works" 0
	OUT=$run_out RC=$run_rc
	expect_rc "a default run with /dev/net/tun unusable works (as doctor says)" 0
	expect_out "its warning names the device and its mode too" \
		"note: pasta cannot work here: /dev/net/tun is crw------- \(mode 0600.*running with --network none"
fi
# What doctor says about the cgroup is what run does.
doctor_cg=$(printf '%s\n' "$OUT" | grep -E '^(ok|missing) +cgroup delegation')
ltd run --network none -- true
case $doctor_cg in
ok*) expect_no_out "doctor's cgroup verdict matches run (no warning)" "warning: no cgroup" ;;
*) expect_out "doctor's cgroup verdict matches run (rlimit warning)" "warning: no cgroup" ;;
esac

ltd doctor --json
if printf '%s\n' "$OUT" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert len(d["checks"]) == 8 and all({"name","ok","required","detail","fix"} <= c.keys() for c in d["checks"])' 2>/dev/null; then
	pass "doctor --json is one JSON object with every check"
else
	fail "doctor --json is one JSON object with every check" "$OUT"
fi
printf '%s\n' "$OUT" | python3 -c 'import json,sys
d = json.load(sys.stdin)
assert set(d) == {"ok", "default_run", "checks", "warnings"}, d.keys()
assert all(set(c) == {"name", "ok", "required", "detail", "fix"} for c in d["checks"])' 2>&1 &&
	pass "doctor --json has the documented keys only (docs/guide/doctor.md)" ||
	fail "doctor --json has the documented keys only (docs/guide/doctor.md)" "$OUT"
# Debian 12's pasta says "pasta unknown version": doctor says its
# package's version instead, or why it cannot.
if command -v pasta >/dev/null && pasta --version 2>/dev/null | grep -q 'unknown version'; then
	ltd doctor
	expect_no_out "doctor does not leave pasta's version at 'unknown version'" "\(pasta unknown version\)"
	if dpkg-query --search "$(command -v pasta)" >/dev/null 2>&1; then
		pkg=$(dpkg-query --search "$(command -v pasta)" | sed 's/: .*//')
		expect_out "it says the version of pasta's package ($pkg)" \
			"^(ok|missing) +pasta .*\($pkg $(dpkg-query --show --showformat='${Version}' "$pkg" | sed 's/[.~+]/./g'), its package's version"
	fi
fi
# A launcher without its helper: a default (allowlist) run stops, so
# doctor says so.
LONE=$(mktemp -d /tmp/ltd-e2e-lone.XXXXXX)
chmod 755 "$LONE"
install -m 755 "$LTD" "$LONE/ltd-native"
OUT=$(cd "$PROJ" && as_user "$LONE/ltd-native" doctor 2>&1)
RC=$?
expect_out "doctor names the missing DNS filter helper" "^missing +DNS filter +.*$LONE/ltd-dnsd"
expect_rc "and exits non-zero: a default run would stop" 1
rm -rf "$LONE"
ltd doctor --bogus
expect_rc "doctor refuses an unknown flag" 125
