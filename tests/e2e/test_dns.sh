# shellcheck shell=bash
# The DNS filter (issue 5).  The harness (root) makes a test host in a
# network namespace (its own names and subnet, so test_net.sh can run in
# the same `make check`) and a test upstream resolver on loopback:
# dnsmasq with --no-resolv, answering only for the test names, logging
# every query it sees.  Nothing outside this machine is ever contacted.
#
# LTD_DNS_MIN_TTL=1 (a test and debugging knob, see runtime/run.c) lowers
# the 30 s floor so that an address's expiry can be seen in seconds.

DNS_NS=ltd-e2e-dns$$
DNS_IF=ltddns$$
DNS_H4=10.232.88.2 DNS_O4=10.232.88.3 DNS_G4=10.232.88.1
DNS_H6=fd5e:2e7e:88::2 DNS_G6=fd5e:2e7e:88::1
DNS_PORT=$((20000 + $$ % 20000))
DNS_UP=127.0.0.1:$DNS_PORT
DNS_PIDS=()
DNS_DIR=

dns_cleanup() {
	for pid in "${DNS_PIDS[@]}"; do kill "$pid" 2>/dev/null; done
	for f in dnsmasq.pid dnsmasq-long.pid; do
		[ -n "$DNS_DIR" ] && [ -f "$DNS_DIR/$f" ] &&
			kill "$(cat "$DNS_DIR/$f")" 2>/dev/null
	done
	ip link del "$DNS_IF" 2>/dev/null
	ip netns del "$DNS_NS" 2>/dev/null
	[ -n "$DNS_DIR" ] && rm -rf "$DNS_DIR"
	return 0
}

# A TCP server on $1:$2 in the test host that answers "hi".
dns_server() {
	ip netns exec "$DNS_NS" python3 -c "import socket,sys
s=socket.socket(socket.AF_INET6 if ':' in sys.argv[1] else socket.AF_INET)
s.setsockopt(socket.SOL_SOCKET,socket.SO_REUSEADDR,1)
s.bind((sys.argv[1],int(sys.argv[2]))); s.listen(16)
while True:
    c,_=s.accept(); c.sendall(b'hi\n'); c.close()" "$1" "$2" &
	DNS_PIDS+=($!)
}

# Steps, in the cage, one line each:
#   resolve[4|6]:NAME  -> "resolve NAME ADDR..." or "resolve NAME fail"
#   connect:HOST:PORT  -> "connect HOST:PORT ok|refused|timeout|error:N"
#   sleep:SECONDS
DNS_PROBE='import socket,sys,time
for a in sys.argv[1:]:
    op,arg=a.split(":",1)
    if op.startswith("resolve"):
        fam={"resolve4":socket.AF_INET,"resolve6":socket.AF_INET6}.get(op,0)
        try: r=sorted({x[4][0] for x in socket.getaddrinfo(arg,80,fam,socket.SOCK_STREAM)})
        except socket.gaierror: r=["fail"]
        print("resolve",arg," ".join(r),flush=True)
    elif op=="sleep": time.sleep(float(arg))
    elif op=="connect":
        h,p=arg.rsplit(":",1); h=h.strip("[]")
        try:
            c=socket.create_connection((h,int(p)),timeout=2); r="ok" if c.recv(3)==b"hi\n" else "noreply"
        except ConnectionRefusedError: r="refused"
        except socket.timeout: r="timeout"
        except OSError as e: r="error:%d"%e.errno
        print("connect",arg,r,flush=True)'

dns_probe() {
	local args=()
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	ltd run --dns-upstream "$DNS_UP" --no-default-domains "${args[@]}" \
		-- python3 -c "$DNS_PROBE" "$@"
}

# The upstream saw a query for $1.
upstream_saw() {
	grep -q "query\[[A-Z]*\] $1 from" "$DNS_DIR/dnsmasq.log"
}

if [ "$AS_ROOT" != 1 ]; then
	skip "DNS filter tests" "the harness must run as root to make test hosts"
elif ! command -v pasta >/dev/null || ! command -v ip >/dev/null ||
	! command -v python3 >/dev/null || ! command -v dnsmasq >/dev/null ||
	! command -v dig >/dev/null; then
	skip "DNS filter tests" "needs pasta (passt), iproute2, python3, dnsmasq (dnsmasq-base) and dig (bind9-dnsutils)"
elif [ ! -r /dev/net/tun ] || ! as_user test -w /dev/net/tun; then
	skip "DNS filter tests" "/dev/net/tun is not usable by $E2E_USER (mode 0666 expected)"
else
	trap 'dns_cleanup; e2e_teardown' EXIT
	DNS_DIR=$(mktemp -d /tmp/ltd-e2e-dns.XXXXXX)
	chmod 755 "$DNS_DIR"
	ip netns add "$DNS_NS"
	ip link add "$DNS_IF" type veth peer name eth0 netns "$DNS_NS"
	ip addr add "$DNS_G4/24" dev "$DNS_IF"
	ip -6 addr add "$DNS_G6/64" dev "$DNS_IF" nodad
	ip link set "$DNS_IF" up
	ip netns exec "$DNS_NS" ip addr add "$DNS_H4/24" dev eth0
	ip netns exec "$DNS_NS" ip addr add "$DNS_O4/24" dev eth0
	ip netns exec "$DNS_NS" ip -6 addr add "$DNS_H6/64" dev eth0 nodad
	ip netns exec "$DNS_NS" ip link set eth0 up
	ip netns exec "$DNS_NS" ip link set lo up
	dns_server "$DNS_H4" 8080
	dns_server "$DNS_H4" 9090
	dns_server "$DNS_O4" 8080
	dns_server "$DNS_H6" 8080
	for t in "$DNS_H4 8080" "$DNS_H4 9090" "$DNS_O4 8080" "$DNS_H6 8080"; do
		# shellcheck disable=SC2086
		host_ready $t
	done

	# The test upstream: the test names only, TTL 2 s, every query logged.
	big=()
	for i in $(seq 1 60); do big+=("--host-record=big.test,10.232.89.$i"); done
	dnsmasq --no-resolv --no-hosts --bind-interfaces \
		--listen-address=127.0.0.1 --port="$DNS_PORT" \
		--user=root --group=root --pid-file="$DNS_DIR/dnsmasq.pid" \
		--log-queries --log-facility="$DNS_DIR/dnsmasq.log" \
		--local-ttl=2 \
		--address=/ok.test/"$DNS_H4" --address=/ok6.test/"$DNS_H6" \
		--address=/evil.test/"$DNS_H4" --address=/late.test/"$DNS_H4" \
		--host-record=edge.test,"$DNS_H4" --cname=alias.test,edge.test \
		--address=/sub.wild.test/"$DNS_H4" --address=/wild.test/"$DNS_H4" \
		--address=/evilwild.test/"$DNS_H4" \
		"${big[@]}"
	sleep 0.5

	# A second upstream whose answers say "cache me for a day".
	dnsmasq --no-resolv --no-hosts --bind-interfaces \
		--listen-address=127.0.0.1 --port="$((DNS_PORT + 1))" \
		--user=root --group=root --pid-file="$DNS_DIR/dnsmasq-long.pid" \
		--local-ttl=86400 --address=/long.test/"$DNS_H4"
	sleep 0.3
	ltd run --dns-upstream "127.0.0.1:$((DNS_PORT + 1))" --no-default-domains \
		--allow-domain long.test -- dig +noall +answer long.test A
	expect_out "a relayed answer's TTL is capped to how long its address stays open (1 h)" \
		"^long\.test\.[[:space:]]+3600[[:space:]]+IN[[:space:]]+A[[:space:]]+$DNS_H4\$"

	# An allowed name resolves, and its address opens on its ports only.
	dns_probe --allow-domain ok.test:8080 -- \
		resolve4:ok.test connect:"$DNS_H4":8080 connect:"$DNS_H4":9090 \
		connect:"$DNS_O4":8080
	expect_out "an allowed name resolves through the filter" "^resolve ok.test $DNS_H4\$"
	expect_out "the address it returned connects on the allowed port" "^connect $DNS_H4:8080 ok\$"
	expect_out "another port of that address is refused" "^connect $DNS_H4:9090 refused\$"
	expect_out "an address never returned for an allowed name is refused" "^connect $DNS_O4:8080 refused\$"
	expect_out "both refused destinations are in the exit summary" \
		"outside the allowlist: $DNS_H4:9090/tcp, $DNS_O4:8080/tcp\$"

	dns_probe --allow-domain ok.test:8080 -- connect:"$DNS_H4":8080
	expect_out "an address is refused until its name is looked up" "^connect $DNS_H4:8080 refused\$"

	# A name outside the allowlist: refused by the filter, never upstream.
	dns_probe --allow-domain ok.test -- resolve4:evil.test connect:"$DNS_H4":443
	expect_out "a name outside the allowlist does not resolve" "^resolve evil.test fail\$"
	expect_out "the refusal is summed up on stderr at exit" "refused .* names outside the allowlist: evil.test"
	if upstream_saw evil.test; then
		fail "the upstream never saw the refused name" "$(grep evil.test "$DNS_DIR/dnsmasq.log")"
	else
		pass "the upstream never saw the refused name"
	fi
	dns_probe --quiet --allow-domain ok.test -- resolve4:evil.test
	expect_no_out "--quiet: no summary" "outside the allowlist"

	# An upstream that never answers (a UDP socket that reads every query
	# and replies to none): the cage's lookups fail with SERVFAIL, and
	# the exit report says which upstream left them unanswered.
	DNS_SINK=$((DNS_PORT + 2))
	python3 -c 'import socket,sys
s=socket.socket(socket.AF_INET,socket.SOCK_DGRAM); s.bind(("127.0.0.1",int(sys.argv[1])))
while True: s.recv(65535)' "$DNS_SINK" &
	DNS_PIDS+=($!)
	for _ in $(seq 50); do
		ss -Huln "sport = :$DNS_SINK" | grep -q . && break
		sleep 0.1
	done
	ltd run --dns-upstream "127.0.0.1:$DNS_SINK" --no-default-domains --allow-domain ok.test \
		-- sh -c 'dig +time=15 +tries=1 ok.test A | grep -Eo "status: [A-Z]+"'
	expect_out "a lookup the upstream never answers fails (SERVFAIL)" "^status: SERVFAIL\$"
	expect_out "the exit report names the upstream that did not answer" \
		"^ltd-native: DNS: the upstream 127\.0\.0\.1:$DNS_SINK did not answer 1 query .*--dns-upstream"
	ltd run --quiet --dns-upstream "127.0.0.1:$DNS_SINK" --no-default-domains \
		--allow-domain ok.test -- dig +time=15 +tries=1 ok.test A
	expect_no_out "--quiet: no word of it" "did not answer"

	# NXDOMAIN, not REFUSED: glibc's getaddrinfo says "no such name"
	# (EAI_NONAME, -2) and clients stop, where REFUSED gave EAI_AGAIN
	# ("try again") and they retried.  For every family asked.
	ltd run --dns-upstream "$DNS_UP" --no-default-domains --allow-domain ok.test \
		-- python3 -c 'import socket
for fam in (socket.AF_UNSPEC, socket.AF_INET, socket.AF_INET6):
    try: socket.getaddrinfo("evil.test", 443, fam, socket.SOCK_STREAM); print("gai", int(fam), "ok")
    except socket.gaierror as e: print("gai", int(fam), e.errno)'
	expect_out "getaddrinfo of a refused name fails with EAI_NONAME (AF_UNSPEC)" "^gai 0 -2\$"
	expect_out "... and for AF_INET" "^gai 2 -2\$"
	expect_out "... and for AF_INET6" "^gai 10 -2\$"
	expect_out "the refused name is still in the exit summary" "refused .* names outside the allowlist: evil.test"
	ltd run --dns-upstream "$DNS_UP" --no-default-domains -- \
		sh -c 'dig +time=2 +tries=1 evil.test AAAA | grep -Eo "status: [A-Z]+|flags: [a-z ]+;|QUERY: [0-9]+"'
	expect_out "a refused query is answered NXDOMAIN" "^status: NXDOMAIN\$"
	expect_out "... with RD and RA set, as a recursive resolver's answer" "^flags: qr rd ra;\$"
	expect_out "... and the question echoed" "^QUERY: 1\$"

	# The host's names with a host port allowed: the cage's /etc/hosts
	# answers A; an AAAA lookup (which /etc/hosts cannot answer) reaches
	# the filter, which answers "no data" itself: no refusal to report.
	ltd run --dns-upstream "$DNS_UP" --no-default-domains --allow-host-port 9 -- sh -c '
		for n in host.ltd.internal host.docker.internal; do
			echo "$n A $(dig +short +time=2 +tries=1 $n A)"
			echo "$n AAAA $(dig +time=2 +tries=1 $n AAAA | grep -Eo "status: [A-Z]+|ANSWER: [0-9]+" | tr "\n" " ")"
		done
		python3 -c "import socket
print(\"v4\", sorted({a[4][0] for a in socket.getaddrinfo(\"host.ltd.internal\", 9, 0, socket.SOCK_STREAM)}))
try: socket.getaddrinfo(\"host.ltd.internal\", 9, socket.AF_INET6); print(\"v6 ok\")
except socket.gaierror as e: print(\"v6\", e.errno)"'
	expect_out "the filter answers A for host.ltd.internal with the gateway" "^host.ltd.internal A 198.18.93.1\$"
	expect_out "... and for host.docker.internal" "^host.docker.internal A 198.18.93.1\$"
	expect_out "AAAA of host.ltd.internal: NOERROR, no data" "^host.ltd.internal AAAA status: NOERROR ANSWER: 0 \$"
	expect_out "AAAA of host.docker.internal: NOERROR, no data" "^host.docker.internal AAAA status: NOERROR ANSWER: 0 \$"
	expect_out "getaddrinfo of the host still gives its address" "^v4 \['198.18.93.1'\]\$"
	expect_no_out "the host's AAAA lookups are no refusals in the summary" "refused .* outside the allowlist"
	if upstream_saw host.ltd.internal || upstream_saw host.docker.internal; then
		fail "the host's names never go upstream"
	else
		pass "the host's names never go upstream"
	fi
	# Without a host port there is no host to name: refused, and the
	# summary says what opens it.
	ltd run --dns-upstream "$DNS_UP" --no-default-domains -- \
		sh -c 'dig +time=2 +tries=1 host.ltd.internal A | grep -Eo "status: [A-Z]+"'
	expect_out "without a host port, host.ltd.internal is NXDOMAIN" "^status: NXDOMAIN\$"
	expect_out "... said in the summary" "refused .* outside the allowlist: host.ltd.internal"
	expect_out "... with what opens it" "host.ltd.internal is the host: --allow-host-port PORT"

	# Wildcards: names below, not the bare name, not the evil twin.
	dns_probe --allow-domain '*.wild.test' -- resolve4:sub.wild.test \
		resolve4:wild.test resolve4:evilwild.test
	expect_out "a wildcard admits a name below it" "^resolve sub.wild.test $DNS_H4\$"
	expect_out "a wildcard does not admit the bare name" "^resolve wild.test fail\$"
	expect_out "a wildcard does not admit evilwild.test" "^resolve evilwild.test fail\$"
	if upstream_saw evilwild.test || upstream_saw wild.test; then
		fail "the upstream never saw the names the wildcard refused"
	else
		pass "the upstream never saw the names the wildcard refused"
	fi

	# CNAME chains: the address at the end of the chain opens (edge.test
	# itself is not on the allowlist).
	dns_probe --allow-domain alias.test:8080 -- resolve4:alias.test connect:"$DNS_H4":8080
	expect_out "a CNAME answer resolves" "^resolve alias.test $DNS_H4\$"
	expect_out "the address at the end of a CNAME chain connects" "^connect $DNS_H4:8080 ok\$"

	# After the TTL the address is refused again, until looked up again.
	OUT=$(cd "$PROJ" && as_user env LTD_DNS_MIN_TTL=1 "$LTD" run \
		--ro-bind "$STAGE" "$STAGE" --dns-upstream "$DNS_UP" \
		--no-default-domains --allow-domain ok.test:8080 -- \
		python3 -c "$DNS_PROBE" resolve4:ok.test connect:"$DNS_H4":8080 \
		sleep:3.5 connect:"$DNS_H4":8080 resolve4:ok.test \
		connect:"$DNS_H4":8080 2>&1)
	if printf '%s\n' "$OUT" | grep -c "^connect $DNS_H4:8080" | grep -q 3 &&
		[ "$(printf '%s\n' "$OUT" | grep "^connect $DNS_H4:8080" | awk '{print $3}' | tr '\n' ' ')" = "ok refused ok " ]; then
		pass "after the TTL the address is refused, and opens again on lookup"
	else
		fail "after the TTL the address is refused, and opens again on lookup" "$OUT"
	fi

	# AAAA answers open IPv6 the same way.
	dns_probe --allow-domain ok6.test:8080 -- connect:"[$DNS_H6]":8080 \
		resolve6:ok6.test connect:"[$DNS_H6]":8080
	expect_out "an IPv6 address is refused before its name is looked up" "^connect \[$DNS_H6\]:8080 refused\$"
	expect_out "an AAAA answer resolves" "^resolve ok6.test $DNS_H6\$"
	expect_out "the AAAA address then connects" "^connect \[$DNS_H6\]:8080 ok\$"

	# TCP, and a truncated UDP answer retried over TCP (60 A records).
	ltd run --dns-upstream "$DNS_UP" --no-default-domains --allow-domain big.test \
		--allow-domain ok.test -- sh -c 'dig +tcp +time=2 +tries=1 ok.test | grep -c "^ok.test.*IN.*A"; dig +noedns +time=2 +tries=1 big.test'
	expect_out "a query over TCP is answered" "^1\$"
	expect_out "a truncated answer is relayed with TC" "Truncated, retrying in TCP mode"
	expect_out "and the retry over TCP gets every record" "ANSWER: 60,"

	# pasta's own forwarder and the gateway serve no DNS to the cage.
	ltd run --dns-upstream "$DNS_UP" --allow-domain ok.test -- sh -c \
		'for s in 198.18.93.3 198.18.93.1; do dig +time=1 +tries=1 @$s ok.test >/dev/null 2>&1; echo "$s rc=$?"; done'
	expect_out "pasta's DNS forwarder address is not reachable" "^198.18.93.3 rc=9\$"
	expect_out "the gateway answers no DNS" "^198.18.93.1 rc=9\$"

	# The audit log: one JSON line per decision.
	ltd run --dns-upstream "$DNS_UP" --no-default-domains --allow-domain ok.test \
		--audit-log "$PROJ/audit.jsonl" -- python3 -c "$DNS_PROBE" \
		resolve4:ok.test resolve4:evil.test
	OUT=$(python3 - "$PROJ/audit.jsonl" <<'PY' 2>&1
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
for l in lines:
    print(l.get("event"), l.get("name"), l.get("verdict"), l.get("address", "-"), l.get("rule"), "time" in l)
PY
)
	expect_out "the audit log records a refusal" "^dns evil.test refused - None True\$"
	expect_out "the audit log records a forwarded name and its rule" "^dns ok.test forwarded - --allow-domain True\$"
	expect_out "the audit log records the opened address" "^address ok.test allowed $DNS_H4 --allow-domain True\$"
	expect_out "the audit log starts each run with a start line" "^start None None - None True\$"

	# A waived risk is logged too (DESIGN: refused unless --unsafe-..., and
	# then logged).
	rm -f "$PROJ/audit-w.jsonl"
	ltd run --dns-upstream "$DNS_UP" --no-default-domains --unsafe-seccomp-log \
		--audit-log "$PROJ/audit-w.jsonl" -- true
	OUT=$(python3 -c 'import json,sys; l=json.loads(open(sys.argv[1]).readline()); print(l["event"], l["project"], any("--unsafe-seccomp-log" in w for w in l["waived"]))' "$PROJ/audit-w.jsonl" 2>&1)
	expect_out "the audit log's start line names the waived risks" "^start $PROJ True\$"
	rm -f "$PROJ/audit-w.jsonl"

	# The cage cannot rewrite the log's past lines (it is read-only inside;
	# the launcher and ltd-dnsd write through the descriptor opened before
	# the cage existed), while the launcher appends this run's.
	ltd run --dns-upstream "$DNS_UP" --no-default-domains --allow-domain ok.test \
		--audit-log "$PROJ/audit.jsonl" -- sh -c "
		(true > '$PROJ/audit.jsonl') 2>/dev/null && echo truncated || echo not-truncated
		(echo '{\"event\":\"forged\"}' >> '$PROJ/audit.jsonl') 2>/dev/null && echo appended || echo not-appended
		python3 -c \"\$0\" resolve4:evil2.test" "$DNS_PROBE"
	expect_out "the cage cannot truncate the audit log" "^not-truncated\$"
	expect_out "the cage cannot append to the audit log" "^not-appended\$"
	if grep -q '"name": *"evil.test"' "$PROJ/audit.jsonl" && grep -q '"name": *"evil2.test"' "$PROJ/audit.jsonl" &&
		! grep -q forged "$PROJ/audit.jsonl"; then
		pass "the audit log keeps its past lines and gets the new run's"
	else
		fail "the audit log keeps its past lines and gets the new run's" "$(cat "$PROJ/audit.jsonl")"
	fi

	# A link planted where the log goes is not followed.
	as_user sh -c "echo keep > '$U_HOME/e2e-target' && ln -sfn '$U_HOME/e2e-target' '$PROJ/audit-link.jsonl'"
	ltd run --dns-upstream "$DNS_UP" --no-default-domains --allow-domain ok.test \
		--audit-log "$PROJ/audit-link.jsonl" -- true
	expect_rc "an audit log that is a link is refused" 125
	[ "$(cat "$U_HOME/e2e-target")" = keep ] && pass "the link's target is untouched" ||
		fail "the link's target is untouched" "$(cat "$U_HOME/e2e-target")"
	as_user rm -f "$U_HOME/e2e-target" "$PROJ/audit-link.jsonl"

	# Allowlist files: read once, before the command; malformed is an error.
	printf '# test\nok.test:8080\n' > "$DNS_DIR/allowed.txt"
	chmod 644 "$DNS_DIR/allowed.txt"
	(sleep 1; echo late.test >> "$DNS_DIR/allowed.txt") &
	DNS_PIDS+=($!)
	ltd run --dns-upstream "$DNS_UP" --no-default-domains \
		--allow-domains-file "$DNS_DIR/allowed.txt" \
		--ro-bind "$DNS_DIR" "$DNS_DIR" -- sh -c '
		echo x >> '"$DNS_DIR"'/allowed.txt 2>/dev/null && echo written || echo not-written
		sleep 2; grep -c late.test '"$DNS_DIR"'/allowed.txt
		python3 -c "$0" resolve4:ok.test resolve4:late.test' "$DNS_PROBE"
	expect_out "the cage cannot write the allowlist file" "^not-written\$"
	expect_out "a name from the file resolves" "^resolve ok.test $DNS_H4\$"
	expect_out "the file changed while the command ran" "^1\$"
	expect_out "the changed file is not read again" "^resolve late.test fail\$"
	if upstream_saw late.test; then
		fail "the upstream never saw the name added later"
	else
		pass "the upstream never saw the name added later"
	fi
	OUT=$(cd "$PROJ" && as_user env LTD_ALLOW_DOMAINS_FILE="$DNS_DIR/allowed.txt" \
		"$LTD" run --ro-bind "$STAGE" "$STAGE" --dns-upstream "$DNS_UP" \
		--no-default-domains -- python3 -c "$DNS_PROBE" resolve4:ok.test 2>&1)
	expect_out "LTD_ALLOW_DOMAINS_FILE is read" "^resolve ok.test $DNS_H4\$"

	printf 'ok.test\n\nbad name.test\n' > "$DNS_DIR/bad.txt"
	chmod 644 "$DNS_DIR/bad.txt"
	ltd run --allow-domains-file "$DNS_DIR/bad.txt" -- true
	expect_rc "a malformed allowlist file stops the run (125)" 125
	expect_out "the error names the file and line" "bad.txt:3: 'bad name.test' is not a domain name"

	# A wildcard directly over a public suffix (ICANN section) opens every
	# site under it: refused, naming the suffix, unless the --unsafe flag.
	ltd run --allow-domain '*.com' -- echo ran
	expect_rc "--allow-domain '*.com' stops the run (125)" 125
	expect_out "the error names the suffix and the flag" \
		"^ltd-native: --allow-domain: '\*\.com' is a wildcard over the public suffix 'com'.*--unsafe-wildcard-public-suffix"
	expect_no_out "nothing runs" "^ran\$"
	ltd run --network none --allow-domain '*.co.uk' -- echo ran
	expect_rc "--allow-domain '*.co.uk' stops a run even without network" 125
	printf 'ok.test\n*.co.uk:443\n' > "$DNS_DIR/suffix.txt"
	chmod 644 "$DNS_DIR/suffix.txt"
	ltd run --allow-domains-file "$DNS_DIR/suffix.txt" -- echo ran
	expect_rc "a domains file with '*.co.uk' stops the run (125)" 125
	expect_out "its error names the file, the line and the suffix" \
		"suffix.txt:2: '\*\.co\.uk' is a wildcard over the public suffix 'co.uk'"
	ltd run --allow-domain '*.github.io' --allow-domain '*.example.com' -- echo ran
	expect_out "a wildcard over a private-section suffix or a site runs" "^ran\$"
	ltd run --allow-domain '*.com' --unsafe-wildcard-public-suffix -- echo ran
	expect_out "--unsafe-wildcard-public-suffix lets it through" "^ran\$"
	expect_out "and warns" "warning: --unsafe-wildcard-public-suffix: .*'\*\.com'"

	# The machine-local file in the user's home.
	as_user mkdir -p "$U_HOME/.config/ltd-native"
	as_user sh -c "echo ok.test:8080 > '$U_HOME/.config/ltd-native/allowed-domains.txt'"
	dns_probe -- resolve4:ok.test
	expect_out "~/.config/ltd-native/allowed-domains.txt is read" "^resolve ok.test $DNS_H4\$"
	as_user rm -f "$U_HOME/.config/ltd-native/allowed-domains.txt"

	dns_cleanup
	DNS_DIR=
	trap e2e_teardown EXIT
fi
