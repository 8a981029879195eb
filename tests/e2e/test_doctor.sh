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
# The exit status follows the required lines.
if printf '%s\n' "$OUT" | grep -Eq '^missing +(user namespaces|seccomp|pasta|DNS filter|nftables in userns) '; then
	expect_rc "doctor exits non-zero when a required feature is missing" 1
	expect_out "and says a default run will not work" "^=> a default run will not work"
else
	expect_rc "doctor exits 0 when every required feature is there" 0
	expect_out "and says a default run works" "^=> a default run works here\$"
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
