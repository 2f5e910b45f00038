# Lossy-link lab: nodes "quill" and "sable" on one veth link,
# 10.231.88.0/24, no NAT and no firewall; sable drops 2 % of its IP
# packets each way at random (nftables `numgen random mod 100 < 2 drop`).
# Loss must read as loss: `heartbeat` reports heartbeat-loss with its rate
# and never heartbeat-dropped; `scan --peer` retries lost SYNs before it
# calls a port filtered, so no port-filtered, inbound-blocked or
# ephemeral-range-blocked, and it still recommends quill's link.
. "$(dirname "$0")/lib.sh"
lab_require nft jq unshare

HN='hostname "$0"; exec "$@"'
T=$(mktemp -d)
trap 'kill $SV_PID 2>/dev/null; rm -rf "$T"; lab_cleanup' EXIT
SV_PID=""

# jqv FILTER: FILTER applied to the JSON in $J.

lab_ns Q quill
lab_ns S sable
lab_veth "$Q" wire0 "$S" wire0
ip -n "$Q" addr add 10.231.88.1/24 dev wire0
ip -n "$S" addr add 10.231.88.2/24 dev wire0
ip -n "$Q" link set wire0 up
ip -n "$S" link set wire0 up
lab_hosts "$Q" "127.0.0.1 localhost" "10.231.88.1 quill" "10.231.88.2 sable"
lab_check "link up" lab_wait 30 \
	ip netns exec "$Q" sh -c 'ip -br link show wire0 | grep -q " UP "'
ip netns exec "$S" timeout 200 "$NETPROBE" serve >"$T/serve.log" 2>&1 &
SV_PID=$!
lab_check "responder on sable up" lab_wait 50 \
	sh -c "ip netns exec $S ss -Hnlt 'sport = :7470' | grep -q ."
# the neighbour entry first, so the loss starts on a settled link
lab_check "sable answers before the loss" lab_wait 30 \
	ip netns exec "$Q" "$NETPROBE" heartbeat -c 1 -i 0 10.231.88.2
ip netns exec "$S" nft -f - <<'NFT'
table inet np_loss {
	chain in {
		type filter hook input priority -10; policy accept;
		numgen random mod 100 < 2 drop
	}
	chain out {
		type filter hook output priority -10; policy accept;
		numgen random mod 100 < 2 drop
	}
}
NFT

# heartbeat: loss with its rate, no drop
lab_rc 0 "heartbeat on the lossy link exits 0" \
	ip netns exec "$Q" "$NETPROBE" heartbeat -i 20ms -d 8s --json \
	10.231.88.2
J=$LAB_OUT
LAB_OUT=$(jqv '.findings[].code')
lab_grep "heartbeat: heartbeat-loss" '^heartbeat-loss$'
lab_nogrep "heartbeat: never heartbeat-dropped" '^heartbeat-dropped$'
LAB_OUT=$(jqv '.findings[] | select(.code == "heartbeat-loss") | .summary')
lab_grep "heartbeat: the loss with its rate" '[0-9]+\.[0-9]% (lost|of segments)'
LAB_OUT=$(jqv '"\(.tcp.drop) \(.udp.lost > 0) \(.tcp.retransmits >= 0)"')
lab_grep "heartbeat: no drop, udp lost some, retransmissions counted" \
	'^null true true$'
echo "# heartbeat: $(jqv '"udp \(.udp.lost)/\(.udp.sent) lost, tcp \(.tcp.retransmits)/\(.tcp.segments_out) retransmitted, \(.tcp.reconnects) reconnects"')"

# scan --peer: no firewall or NAT conclusion from a lost packet
lab_rc 0 "scan --peer on the lossy link exits 0" \
	ip netns exec "$Q" unshare --uts sh -c "$HN" quill "$NETPROBE" \
	scan --json --peer 10.231.88.2
J=$LAB_OUT
LAB_OUT=$(jqv '[.findings[] | select(.severity == "fault") | .code] | join(" ")')
lab_check "scan: no fault ($LAB_OUT)" test -z "$LAB_OUT"
echo "# scan: findings: $(jqv '[.findings[] | "\(.severity) \(.code)"] | join(", ")')"
LAB_OUT=$(jqv '.findings[].code')
lab_nogrep "scan: no ephemeral-range-blocked" '^ephemeral-range-blocked$'
lab_nogrep "scan: no port-filtered" '^port-filtered$'
lab_nogrep "scan: no inbound-blocked" '^inbound-blocked$'
lab_nogrep "scan: no nat-detected" '^nat-detected$'
LAB_OUT=$(jqv '.peers[0] | "\(.responded) \(.nat) \(.inbound)"')
lab_grep "scan: sable answered, no NAT, inbound ok" '^true false true$'
LAB_OUT=$(jqv '.recommendation.interface')
lab_grep "scan: wire0 recommended" '^wire0$'
LAB_OUT=$(jqv '"\(.ports_to_open | length)"')
lab_grep "scan: nothing to open" '^0$'
echo "# scan: retried ports: $(jqv '[.peers[0].ports[] | select(.attempts == 2)] | length')"
lab_done
