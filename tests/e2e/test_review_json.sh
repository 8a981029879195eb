# shellcheck shell=bash
# `review NAME --json` of names the cage chose: nothing but ASCII reaches
# the terminal (C1 controls such as U+009B, read as CSI by some
# terminals, and bidi overrides escaped), and a name that is not UTF-8
# keeps its bytes in PATH_hex, so two names shown alike stay two.

JP=$(as_user mktemp -d "$U_HOME/e2e-revjson.XXXXXX")
JS=$(as_user mktemp -d "$U_HOME/e2e-revjson-state.XXXXXX")
as_user chmod 755 "$JP"

js() {
	OUT=$(cd "$JP" && as_user env XDG_STATE_HOME="$JS" "$LTD" "$@" 2>/dev/null)
	RC=$?
}

js doctor
if ! printf '%s\n' "$OUT" | grep -q '^ok  *review mode'; then
	skip "review --json of hostile names" "doctor says review mode does not work here"
else
	js run --ro-bind "$STAGE" "$STAGE" --network none --review j1 -- sh -c \
		'printf x > "$(printf "u\302\2331mZ\342\200\256gpj.sh")";
		 printf x > "$(printf "v\377")"; printf y > "v?"'
	expect_rc "a review run that makes hostile names" 0
	js review j1 --json
	expect_rc "review NAME --json" 0
	if printf '%s' "$OUT" | LC_ALL=C grep -q '[^ -~	]'; then
		fail "review NAME --json writes only printable ASCII" "$(printf '%s' "$OUT" | od -c | head -20)"
	else
		pass "review NAME --json writes only printable ASCII"
	fi
	expect_out "the C1 control escaped, not dropped" '\\u009[bB]'
	expect_out "the bidi override escaped" '\\u202[eE]'
	expect_out "a name that is not UTF-8 keeps its bytes" '"path_hex": "76ff"'
	n=$(printf '%s\n' "$OUT" | grep -c '"path": "v?"')
	[ "$n" -eq 2 ] && pass "both names shown alike are listed" ||
		fail "both names shown alike are listed" "$OUT"
	js discard j1
fi
as_user rm -rf "$JP" "$JS"
