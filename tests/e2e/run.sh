#!/bin/bash
# Run every end-to-end test file (tests/e2e/test_*.sh) against a build.
#   bash tests/e2e/run.sh BUILD_DIR [TEST_FILE...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-build}" && pwd)
shift || true
# shellcheck source=tests/e2e/lib.sh
. "$here/lib.sh"

# No terminal on stdin, wherever make check runs: the tests compare the
# command's own output (a terminal would give it a pty, with \r\n line
# ends); test_terminal.sh makes its terminals with tmux.
exec </dev/null

e2e_setup "$build"
trap e2e_teardown EXIT

if ! can_userns; then
	skip "all end-to-end tests" "unprivileged user namespaces are not available to $E2E_USER"
	echo "0 passed, 0 failed, $SKIPPED skipped"
	exit 0
fi

files=("$@")
[ ${#files[@]} -eq 0 ] && files=("$here"/test_*.sh)
for f in "${files[@]}"; do
	echo "== $(basename "$f")"
	# shellcheck source=/dev/null
	. "$f"
done

echo
echo "e2e: $PASSED passed, $FAILED failed, $SKIPPED skipped"
[ "$FAILED" -eq 0 ]
