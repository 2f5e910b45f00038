# Link-tail lab: nodes "quill" and "sable" on one veth link,
# 10.231.90.0/24, no NAT and no firewall. A stalled host is not a slow
# link: the echoes of `scan --peer` are timed (docs/protocol.md, ECHO), the
# responder tells how long its host held each one and the prober takes
# that out, so a responder that is not scheduled for 400 ms (a loaded CI
# machine, a 14-node generated cluster on two cores) makes no link-slow.
# A responder that holds the same echoes and does not say so still makes
# link-slow: the tail is then the link's as far as anyone can tell.
. "$(dirname "$0")/lib.sh"
lab_require nft jq python3

T=$(mktemp -d)
trap 'kill $SV_PID $HOLD_PID 2>/dev/null; kill -CONT $SRV 2>/dev/null; rm -rf "$T"; lab_cleanup' EXIT
SV_PID="" HOLD_PID="" SRV=""
PY=$(dirname "$0")/echo_hold.py

lab_ns Q quill
lab_ns S sable
lab_veth "$Q" wire0 "$S" wire0
ip -n "$Q" addr add 10.231.90.1/24 dev wire0
ip -n "$S" addr add 10.231.90.2/24 dev wire0
ip -n "$Q" link set wire0 up
ip -n "$S" link set wire0 up
lab_hosts "$Q" "127.0.0.1 localhost" "10.231.90.1 quill" "10.231.90.2 sable"
lab_check "link up" lab_wait 30 \
	ip netns exec "$Q" sh -c 'ip -br link show wire0 | grep -q " UP "'
ip netns exec "$S" timeout 200 "$NETPROBE" serve >"$T/serve.log" 2>&1 &
SV_PID=$!
lab_check "responder on sable up" lab_wait 50 \
	sh -c "ip netns exec $S ss -Hnlu 'sport = :7470' | grep -q ."
SRV=$(pgrep -P "$SV_PID" | head -1)
lab_check "the responder's process found" test -n "$SRV"

# the responder tells the time its host held a timed echo
LAB_OUT=$(ip netns exec "$Q" timeout 20 /usr/bin/python3 "$PY" ask 10.231.90.2 7470 2>&1)
lab_grep "serve: a timed echo's held time told" '^[0-9]+$'
lab_check "serve: held briefly when running ($LAB_OUT us)" \
	test "${LAB_OUT:-999999}" -lt 250000 2>/dev/null
kill -STOP "$SRV"
ip netns exec "$Q" timeout 20 /usr/bin/python3 "$PY" ask 10.231.90.2 7470 \
	>"$T/ask" 2>&1 &
ASK=$!
lab_check "serve: the echo waits in the stopped responder's socket" \
	lab_wait 100 sh -c "ip netns exec $S ss -Hnlu 'sport = :7470' | awk '\$2 > 0' | grep -q ."
# the stall itself, as long as the fault lasts, from the echo's arrival
sleep 0.5
kill -CONT "$SRV"
wait "$ASK"
LAB_OUT=$(cat "$T/ask")
lab_check "serve: the stall's time told ($LAB_OUT us)" \
	test "${LAB_OUT:-0}" -ge 450000 2>/dev/null

# the loss probe's echoes (40-byte datagrams) go to a responder that holds
# every tenth for 400 ms; the rest of the scan talks to netprobe serve
ip netns exec "$S" nft -f - <<'NFT'
table ip np_tail {
	chain pre {
		type nat hook prerouting priority -100;
		udp dport 7470 udp length 40 redirect to :17470
	}
}
NFT

# hold_scan TELL: the scan with the holding responder telling (1) or not
hold_scan() {
	ip netns exec "$S" timeout 90 /usr/bin/python3 "$PY" hold 17470 10 400 "$1" &
	HOLD_PID=$!
	lab_check "tell=$1: holding responder up" lab_wait 50 \
		sh -c "ip netns exec $S ss -Hnlu 'sport = :17470' | grep -q ."
	lab_rc 0 "tell=$1: scan --peer exits 0" ip netns exec "$Q" \
		"$NETPROBE" scan --json --peer 10.231.90.2
	J=$LAB_OUT
	kill "$HOLD_PID" 2>/dev/null
	wait "$HOLD_PID" 2>/dev/null
	HOLD_PID=""
	echo "# tell=$1: link $(jqv '.peers[0].link | tostring')"
}

hold_scan 1
LAB_OUT=$(jqv '.peers[0].link.hosts_held_max_us')
lab_check "tell=1: the held time seen ($LAB_OUT us)" \
	test "${LAB_OUT:-0}" -ge 300000 2>/dev/null
LAB_OUT=$(jqv '.peers[0].link.rtt_p99_us')
lab_check "tell=1: the tail is the link's, under link-slow's 250 ms ($LAB_OUT us)" \
	test "${LAB_OUT:-999999}" -lt 250000 2>/dev/null
LAB_OUT=$(jqv '.findings[].code')
lab_nogrep "tell=1: no link-slow" '^link-slow$'
lab_nogrep "tell=1: no link-lossy" '^link-lossy$'

hold_scan 0
LAB_OUT=$(jqv '.findings[].code')
lab_grep "tell=0: link-slow" '^link-slow$'
LAB_OUT=$(jqv '.findings[] | select(.code == "link-slow") | .evidence | tostring')
lab_grep "tell=0: the evidence gives the tail" 'tail \(p99\) [0-9]+ us'
lab_done
