#!/bin/bash
# `make check-agents`: the real coding agents, pinned in tests/agents/versions,
# installed by npm into a test user's own prefix (~/.npm-global) as their
# users install them, run through ltd-native against a mock model server
# (mock_model.py) on the host's loopback.  Nothing else is contacted: the
# only outside traffic is npm's download of the pinned packages.
#   bash tests/agents/run.sh BUILD_DIR [TEST_FILE...]
# Run as root (as CI does): it creates the test user $E2E_USER (default
# ltd-agents) and drops to it; as anyone else it skips, since it would
# install into your own home.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-build}" && pwd)
shift || true
E2E_USER=${E2E_USER:-ltd-agents}
# shellcheck source=tests/e2e/lib.sh
. "$here/../e2e/lib.sh"
exec </dev/null

summary() {
	echo
	echo "agents: $PASSED passed, $FAILED failed, $SKIPPED skipped"
	[ "$FAILED" -eq 0 ]
}

if [ "$(id -u)" != 0 ]; then
	skip "agent tests" "they install the agents into a test user's home: run as root"
	summary
	exit
fi
if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
	skip "agent tests" "no node/npm on this host (.ci/packages installs Debian's)"
	summary
	exit
fi

e2e_setup "$build"
MOCK_PID=
MOCK_DIR=
agents_teardown() {
	[ -n "$MOCK_PID" ] && kill "$MOCK_PID" 2>/dev/null
	[ -n "$MOCK_DIR" ] && rm -rf "$MOCK_DIR"
	e2e_teardown
}
trap agents_teardown EXIT
if ! can_userns; then
	skip "agent tests" "unprivileged user namespaces are not available to $E2E_USER"
	summary
	exit
fi

# shellcheck source=tests/agents/install.sh
. "$here/install.sh"

# The mock model server, on the host's loopback (a port the kernel picks);
# a "real" key of the user's is planted where the agents could find it,
# and the mock flags any request that carries it.
MOCK_DIR=$(mktemp -d /tmp/ltd-agents-mock.XXXXXX)
REAL=sk-AGENTS-real-key-must-not-leak-0123456789
REAL2=sk-AGENTS-settings-key-must-not-leak-9876543210
mkdir -p "$MOCK_DIR/dump"
python3 "$here/mock_model.py" --port 0 --port-file "$MOCK_DIR/port" \
	--log "$MOCK_DIR/log.jsonl" --dump-dir "$MOCK_DIR/dump" --secret "$REAL" \
	--secret "$REAL2" --quiet >/dev/null 2>"$MOCK_DIR/err" &
MOCK_PID=$!
for _ in $(seq 300); do [ -s "$MOCK_DIR/port" ] && break; sleep 0.1; done
if [ ! -s "$MOCK_DIR/port" ]; then
	fail "the mock model server starts" "$(cat "$MOCK_DIR/err")"
	summary
	exit
fi
MOCK_URL=http://127.0.0.1:$(cat "$MOCK_DIR/port")
files=("$@")
[ ${#files[@]} -eq 0 ] && files=("$here"/test_*.sh)
for f in "${files[@]}"; do
	echo "== $(basename "$f")"
	# shellcheck source=/dev/null
	. "$f"
done
summary
