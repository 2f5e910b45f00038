# Path lab: (1) two hosts joined by a VXLAN overlay (outer DF set) whose
# underlay crosses a router with a 1400-byte far link and an nftables rule
# that drops the ICMP fragmentation-needed it would send: `netprobe path`
# over the overlay finds the black hole, the size that crosses and the MTU
# to set; with the overlay MTU set right, no finding. (2) MTU 9000 and 1500
# on the two ends of a veth: mtu-mismatch. (3) bad input and no responder.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/closedloop.sh"
lab_require nft jq ss unshare
CL=$(mktemp -d /tmp/np-path.XXXXXX)
trap 'lab_cleanup; [ -n "${KEEP:-}" ] || rm -rf "$CL"' EXIT

# lab_listening NS PORT: a UDP socket listens on PORT inside NS.
lab_listening() {
	ip netns exec "$1" ss -Hnlu "sport = :$2" | grep -q .
}

lab_ns A a
lab_ns R r
lab_ns B b

# underlay: A --1500-- R --1400 (router side)-- B, routed
lab_veth "$A" u0 "$R" ra
lab_veth "$R" rb "$B" u0
ip -n "$A" addr add 10.231.81.1/24 dev u0
ip -n "$R" addr add 10.231.81.254/24 dev ra
ip -n "$R" addr add 10.231.82.254/24 dev rb
ip -n "$B" addr add 10.231.82.2/24 dev u0
ip -n "$R" link set rb mtu 1400
for l in "$A u0" "$R ra" "$R rb" "$B u0"; do
	set -- $l
	ip -n "$1" link set "$2" up
done
ip -n "$A" route add 10.231.82.0/24 via 10.231.81.254
ip -n "$B" route add 10.231.81.0/24 via 10.231.82.254
ip netns exec "$R" sysctl -qw net.ipv4.ip_forward=1
ip netns exec "$R" nft -f - <<'EOF'
table inet np_blackhole {
	chain np_out {
		type filter hook output priority 0;
		icmp type destination-unreachable icmp code frag-needed drop
	}
	chain np_fwd {
		type filter hook forward priority 0;
		icmp type destination-unreachable icmp code frag-needed drop
	}
}
EOF

# the overlay: 1450 is what the kernel allows over a 1500 underlay, but the
# far link only carries 1400-byte outer packets, so 1350 inside
ip -n "$A" link add vx0 type vxlan id 42 local 10.231.81.1 \
	remote 10.231.82.2 dstport 4789 df set
ip -n "$B" link add vx0 type vxlan id 42 local 10.231.82.2 \
	remote 10.231.81.1 dstport 4789 df set
ip -n "$A" link set vx0 mtu 1450
ip -n "$B" link set vx0 mtu 1450
ip -n "$A" addr add 10.231.90.1/24 dev vx0
ip -n "$B" addr add 10.231.90.2/24 dev vx0
ip -n "$A" link set vx0 up
ip -n "$B" link set vx0 up

ip netns exec "$B" timeout 120 "$NETPROBE" serve >/dev/null 2>&1 &
lab_check "responder up" lab_wait 50 lab_listening "$B" 7470

# (1) the black hole
lab_rc 1 "path over the overlay finds a fault" \
	ip netns exec "$A" "$NETPROBE" path --json 10.231.90.2
J=$LAB_OUT
LAB_OUT=$(printf '%s\n' "$J" | jq -r '.findings[].code')
lab_grep "mtu-blackhole found" '^mtu-blackhole$'
LAB_OUT=$(printf '%s\n' "$J" | jq -r '.pmtu.largest_ok')
lab_grep "1350 bytes cross" '^1350$'
LAB_OUT=$(printf '%s\n' "$J" | jq -r '.pmtu.interface_mtu, .route.out_interface')
lab_grep "interface mtu and name reported" '^1450$'
LAB_OUT=$(printf '%s\n' "$J" |
	jq -r '.findings[] | select(.code == "mtu-blackhole") | .fix')
lab_grep "fix names the MTU and the interface" \
	'ip link set dev vx0 mtu 1350'
LAB_OUT=$(printf '%s\n' "$J" | jq -r '.pmtu.frag_needed, .pmtu.elapsed_us')
lab_grep "no ICMP came back" '^false$'
lab_check "search bounded to a few seconds" \
	test "$(printf '%s\n' "$J" | jq '.pmtu.elapsed_us')" -lt 6000000
lab_rc 1 "text output" ip netns exec "$A" "$NETPROBE" path 10.231.90.2
lab_grep "text names the finding" 'fault mtu-blackhole'

# the closed loop: `path` over the overlay on both ends (hosts patha
# and pathb), the report over the two documents, its fixes run verbatim
# on the nodes they name (either end may be touched), both paths again
# pass
ip netns exec "$A" timeout 120 "$NETPROBE" serve >/dev/null 2>&1 &
lab_check "responder on A up" lab_wait 50 lab_listening "$A" 7470
cl_ns() {
	case $1 in patha) printf '%s' "$A" ;; pathb) printf '%s' "$B" ;; esac
}
# paths DIR: path from each end over the overlay, into DIR
paths() {
	mkdir -p "$1/docs"
	for e in "a $A 10.231.90.2" "b $B 10.231.90.1"; do
		set -- "$1" $e
		ip netns exec "$3" unshare --uts sh -c 'hostname "$0"; exec "$@"' \
			"path$2" "$NETPROBE" path --json "$4" >"$1/docs/path$2.json"
		echo $? >"$1/path$2.rc"
	done
	cl_report "$1"
}
paths "$CL/before"
LAB_OUT=$(cl_fixes "$CL/before/report.json")
echo "# printed fixes: $(printf '%s' "$LAB_OUT" | tr '\t\n' ' ;')"
cl_apply "$CL/before/report.json" patha pathb
lab_check "the overlay's fixes applied" test "$CL_APPLIED" -gt 0
paths "$CL/after"
cl_clean "$CL/after/report.json" "$CL/after" "the overlay's printed fix"
# the overlay MTU as the fix left it: no finding
lab_rc 0 "overlay at 1350: no fault" \
	ip netns exec "$A" "$NETPROBE" path --json 10.231.90.2
J=$LAB_OUT
LAB_OUT=$(printf '%s\n' "$J" | jq -r '.findings | length')
lab_grep "no finding" '^0$'
LAB_OUT=$(printf '%s\n' "$J" | jq -r '.pmtu.largest_ok')
lab_grep "1350 crosses" '^1350$'

# (2) MTU 9000 against 1500 on one veth
lab_ns C c
lab_ns D d
lab_veth "$C" m0 "$D" m0
ip -n "$C" addr add 10.231.83.1/24 dev m0
ip -n "$D" addr add 10.231.83.2/24 dev m0
ip -n "$C" link set m0 mtu 9000
ip -n "$C" link set m0 up
ip -n "$D" link set m0 up
ip netns exec "$D" timeout 120 "$NETPROBE" serve >/dev/null 2>&1 &
ip netns exec "$C" timeout 120 "$NETPROBE" serve >/dev/null 2>&1 &
lab_check "responders up" lab_wait 50 lab_listening "$D" 7470
lab_check "responders up" lab_wait 50 lab_listening "$C" 7470
lab_rc 1 "9000 toward 1500: fault" \
	ip netns exec "$C" "$NETPROBE" path --json 10.231.83.2
J=$LAB_OUT
LAB_OUT=$(printf '%s\n' "$J" | jq -r '.findings[].code')
lab_grep "mtu-mismatch found" '^mtu-mismatch$'
lab_grep "and the big packets vanish" '^mtu-blackhole$'
LAB_OUT=$(printf '%s\n' "$J" | jq -r '.pmtu.peer_interface_mtu')
lab_grep "peer's MTU from the reply" '^1500$'
LAB_OUT=$(printf '%s\n' "$J" | jq -r '.findings[].fix')
lab_grep "fix aligns to 1500" 'ip link set dev m0 mtu 1500'
lab_grep "one pair: cannot tell which end differs" 'cannot tell which end'
lab_nogrep "never 'to match the peer' as if certain" 'to match the peer'
lab_rc 0 "1500 toward 9000: warning only" \
	ip netns exec "$D" "$NETPROBE" path --json 10.231.83.1
LAB_OUT=$(printf '%s\n' "$LAB_OUT" | jq -r '.findings[].code')
lab_grep "mtu-mismatch from the small end" '^mtu-mismatch$'
lab_nogrep "no black hole that way" 'mtu-blackhole'

# (3) no responder, bad input
lab_rc 1 "no responder: route still printed, exit 1 (path unproven)" \
	ip netns exec "$C" "$NETPROBE" path --json 10.231.83.9
J=$LAB_OUT
LAB_OUT=$(printf '%s\n' "$J" | jq -r '.pmtu, .route.out_interface')
lab_grep "pmtu null" '^null$'
lab_grep "route known" '^m0$'
LAB_OUT=$(printf '%s\n' "$J" | jq -r '.errors[].message')
lab_grep "says serve is needed" 'netprobe serve'
LAB_OUT=$(printf '%s\n' "$J" | jq -r '.findings[] | .code + ": " + .summary')
lab_grep "nobody owns 10.231.83.9: no host answers (ARP failed)" \
	'^host-unreachable: no host answers at 10.231.83.9 \(ARP failed for 10.231.83.9\)'
lab_rc 1 "a host without a responder: exit 1" \
	ip netns exec "$C" "$NETPROBE" path --json 10.231.83.2:7999
LAB_OUT=$(printf '%s\n' "$LAB_OUT" | jq -r '.findings[].code')
lab_nogrep "a host that answers ARP is not 'no host answers'" \
	'host-unreachable'
lab_rc 2 "no route: exit 2" ip netns exec "$C" "$NETPROBE" path 10.231.200.1
lab_grep "says no route" "no route to '10.231.200.1'"
lab_rc 2 "no peer: exit 2" "$NETPROBE" path
lab_rc 2 "bad size: exit 2" "$NETPROBE" path --max 12x 10.231.83.2
lab_grep "names the value" "invalid number '12x' for --max"
lab_rc 2 "bad peer: exit 2" "$NETPROBE" path '[::1'
lab_done
