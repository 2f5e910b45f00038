# Capture lab: connection attempts from a client with two interfaces to a
# server whose firewall drops one port, rejects one with a TCP reset and one
# with ICMP admin-prohibited, while a responder listens on another:
# `netprobe capture` shows SYN-ACK, no answer, RST and ICMP type 3 code 13
# on the interface the traffic used (and nothing on the other), keeps a
# pcap file that tcpdump reads, still works after dropping root; then
# passive mode, the file size bound, and bad input (unknown interface, a
# filter that does not compile, no privilege).
. "$(dirname "$0")/lib.sh"
lab_require nft jq ss tcpdump setpriv bash

lab_ns C c
lab_ns S s
lab_ns X x
lab_veth "$C" lan0 "$S" lan0
lab_veth "$C" lan1 "$X" lan0
ip -n "$C" addr add 10.231.85.1/24 dev lan0
ip -n "$S" addr add 10.231.85.2/24 dev lan0
ip -n "$C" addr add 10.231.86.1/24 dev lan1
ip -n "$X" addr add 10.231.86.2/24 dev lan0
for l in "$C lan0" "$C lan1" "$S lan0" "$X lan0"; do
	set -- $l
	ip -n "$1" link set "$2" up
done
ip netns exec "$S" nft -f - <<'EOF'
table inet np_fw {
	chain np_in {
		type filter hook input priority 0;
		tcp dport 81 drop
		tcp dport 82 reject with tcp reset
		tcp dport 83 reject with icmp type admin-prohibited
	}
}
EOF
ip netns exec "$S" timeout 120 "$NETPROBE" serve >/dev/null 2>&1 &

TMP=$(mktemp -d)
chmod 755 "$TMP"
trap 'lab_cleanup; rm -rf "$TMP"' EXIT

# lab_listening NS PORT: a TCP socket listens on PORT inside NS.
lab_listening() {
	ip netns exec "$1" ss -Hntl "sport = :$2" | grep -q .
}

# lab_capturing NS N: at least N packet sockets are open inside NS.
lab_capturing() {
	[ "$(ip netns exec "$1" cat /proc/net/packet | wc -l)" -gt "$2" ]
}

# lab_capture_ready NS: a capture in NS has opened its sockets, set its
# filters and its file, and dropped root (its last step before the loop),
# so every packet from now on is counted.
lab_capture_ready() {
	for _p in $(ip netns pids "$1"); do
		[ "$(awk '/^Uid:/ {print $2}' "/proc/$_p/status" 2>/dev/null)" = \
			65534 ] && return 0
	done
	return 1
}

# tcpdump_ok FILE: tcpdump -r reads the whole file without an error.
tcpdump_ok() {
	tcpdump -nr "$1" >/dev/null 2>&1
}

# syn NS HOST PORT: one bounded connection attempt with bash's /dev/tcp.
syn() {
	ip netns exec "$1" timeout 2 bash -c "exec 3<>/dev/tcp/$2/$3" \
		>/dev/null 2>&1
}

lab_check "responder up" lab_wait 50 lab_listening "$S" 7470

# (3) SYN answered by SYN-ACK, nothing, RST, ICMP admin-prohibited
ip netns exec "$C" timeout 60 "$NETPROBE" capture --peer 10.231.85.2 \
	--port 7470 --port 81-83 --duration 5s --json \
	--write "$TMP/all.pcap" >"$TMP/cap.json" 2>"$TMP/cap.err" &
CAP=$!
lab_check "capture running on every interface" \
	lab_wait 50 lab_capturing "$C" 3
lab_check "capture ready (root dropped)" lab_wait 50 lab_capture_ready "$C"
for p in 7470 81 82 83; do
	syn "$C" 10.231.85.2 "$p"
done
wait "$CAP"
lab_check "capture exits 0" test $? = 0
J=$(cat "$TMP/cap.json")
answer() {
	printf '%s\n' "$J" | jq -r ".syns[] | select(.dport == $1) |
		\"\(.interface) \(.answer)\""
}
LAB_OUT=$(answer 7470)
lab_grep "7470: syn-ack on lan0" '^lan0 syn-ack$'
LAB_OUT=$(answer 81)
lab_grep "81 (dropped): no answer on lan0" '^lan0 none$'
LAB_OUT=$(answer 82)
lab_grep "82 (reset): rst on lan0" '^lan0 rst$'
LAB_OUT=$(answer 83)
lab_grep "83 (prohibited): icmp 3/13 on lan0" '^lan0 icmp type 3 code 13$'
LAB_OUT=$(printf '%s\n' "$J" | jq -r '.interfaces[] | select(.name == "lan0")
	| "\(.syn.answered_synack) \(.syn.unanswered) \(.syn.answered_rst) \(.syn.answered_icmp) \(.retransmissions)"')
lab_grep "lan0 counters: 1 synack, 1 unanswered, 1 rst, 1 icmp" \
	'^1 1 1 1 [0-9]+$'
LAB_OUT=$(printf '%s\n' "$J" | jq -r '.interfaces[] | select(.name == "lan0")
	| .icmp[] | "\(.proto) \(.type) \(.code) \(.count)"')
lab_grep "icmp errors by type and code" '^icmp 3 13 [1-9][0-9]*$'
LAB_OUT=$(printf '%s\n' "$J" | jq -r '.interfaces[] | select(.name == "lan1")
	| .packets_out + .packets_in')
lab_grep "nothing on lan1" '^0$'
LAB_OUT=$(printf '%s\n' "$J" | jq -r '.interfaces[] | select(.name == "lan0")
	| .ifindex')
lab_grep "ifindex given (the file's cooked headers carry it)" '^[0-9]+$'
LAB_OUT=$(printf '%s\n' "$J" | jq -r '.dropped_to.uid')
lab_grep "root dropped to nobody, capture still counted" '^65534$'
LAB_OUT=$(tcpdump -nr "$TMP/all.pcap" 2>&1)
lab_check "tcpdump reads the file" tcpdump_ok "$TMP/all.pcap"
lab_grep "file holds the rejected SYN" '10\.231\.85\.2\.83: Flags \[S\]'
lab_grep "file holds the ICMP" 'admin prohibited'

# -r: the file, summarised as the live capture was (per interface index
# of its cooked headers), options after the operand, no privilege needed
IDX=$(printf '%s\n' "$J" | jq -r '.interfaces[] | select(.name == "lan0")
	| .ifindex')
setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$NETPROBE" capture -r "$TMP/all.pcap" --json \
	>"$TMP/read.json" 2>"$TMP/read.err"
lab_check "capture -r exits 0 without privilege" test $? = 0
R=$(cat "$TMP/read.json")
for p in 7470 81 82 83; do
	LIVE=$(printf '%s\n' "$J" | jq -r ".syns[] | select(.dport == $p) |
		\"\(.answer)\"")
	LAB_OUT=$(printf '%s\n' "$R" | jq -r ".syns[] | select(.dport == $p) |
		\"\(.interface) \(.answer)\"")
	lab_grep "-r: $p answered as live ($LIVE) on ifindex$IDX" \
		"^ifindex$IDX $LIVE\$"
done
LAB_OUT=$(printf '%s\n' "$R" | jq -r '.pcap_read, .packets > 0')
lab_grep "-r: the document names the file" "all\\.pcap\$"
lab_grep "-r: packets counted" '^true$'

# one interface, text output, native link type
ip netns exec "$C" timeout 60 "$NETPROBE" capture -i lan0 \
	--peer 10.231.85.2 --duration 3s --write "$TMP/one.pcap" \
	>"$TMP/one.txt" 2>&1 &
CAP=$!
lab_check "capture on lan0 running" lab_wait 50 lab_capturing "$C" 1
lab_check "capture on lan0 ready" lab_wait 50 lab_capture_ready "$C"
syn "$C" 10.231.85.2 82
wait "$CAP"
LAB_OUT=$(cat "$TMP/one.txt")
lab_grep "text lists the attempt" 'lan0 +10\.231\.85\.1:[0-9]+ -> 10\.231\.85\.2:82 +rst'
LAB_OUT=$(tcpdump -nr "$TMP/one.pcap" 2>&1)
lab_grep "Ethernet file opens" 'link-type EN10MB'
LAB_OUT=$("$NETPROBE" capture -r "$TMP/one.pcap" 2>&1)
lab_grep "-r on an Ethernet file lists the attempt" \
	'one\.pcap +10\.231\.85\.1:[0-9]+ -> 10\.231\.85\.2:82 +rst'
LAB_OUT=$("$NETPROBE" capture -r "$TMP/one.pcap" --json | jq -r \
	'.interfaces[0] | "\(.packets_out) \(.packets_in)"')
lab_grep "-r: direction from the host's own MAC" '^[1-9][0-9]* [1-9][0-9]*$'
lab_rc 2 "-r with -i: exit 2" "$NETPROBE" capture -r "$TMP/one.pcap" -i lan0
lab_rc 2 "-r of a file that is no capture: exit 2" "$NETPROBE" capture \
	-r "$TMP/one.txt"
lab_grep "names the file" "cannot read '.*one\.txt'"

# passive: which interface and port the traffic uses, without a filter;
# the file stops at --max-bytes
ip netns exec "$C" timeout 60 "$NETPROBE" capture --passive --json \
	--duration 4s --write "$TMP/p.pcap" --max-bytes 4096 \
	>"$TMP/p.json" 2>&1 &
CAP=$!
lab_check "passive capture running" lab_wait 50 lab_capturing "$C" 3
lab_check "passive capture ready" lab_wait 50 lab_capture_ready "$C"
for i in 1 2 3; do
	ip netns exec "$C" "$NETPROBE" path --min 1400 10.231.85.2 >/dev/null
done
wait "$CAP"
J=$(cat "$TMP/p.json")
LAB_OUT=$(printf '%s\n' "$J" | jq -r '.flows[] |
	"\(.interface) \(.proto) \(.dport)"')
lab_grep "passive sees the UDP flow to 7470 on lan0" '^lan0 udp 7470$'
LAB_OUT=$(printf '%s\n' "$J" | jq -r '.filter, .pcap_truncated')
lab_grep "no filter" '^null$'
lab_grep "file bounded" '^true$'
lab_check "file within --max-bytes" \
	test "$(stat -c %s "$TMP/p.pcap")" -le 4096

# (4) bad input
lab_rc 2 "unknown interface: exit 2" ip netns exec "$C" "$NETPROBE" \
	capture -i nosuch0 --duration 1s
lab_grep "names the interface" "unknown interface 'nosuch0'"
lab_rc 2 "bad filter: exit 2" ip netns exec "$C" "$NETPROBE" \
	capture --filter 'tcp port' --duration 1s
lab_grep "names the filter" "filter does not compile 'tcp port'"
lab_rc 2 "no privilege: exit 2" ip netns exec "$C" setpriv \
	--reuid=65534 --regid=65534 --clear-groups "$NETPROBE" capture \
	-i lan0 --duration 1s
lab_grep "says CAP_NET_RAW" "no permission to capture on 'lan0': needs CAP_NET_RAW"
lab_rc 2 "no privilege, json: exit 2" ip netns exec "$C" setpriv \
	--reuid=65534 --regid=65534 --clear-groups "$NETPROBE" capture \
	-i lan0 --duration 1s --json
lab_grep "error in the document" '"step": "privilege"'
lab_rc 2 "passive with a peer: exit 2" "$NETPROBE" capture --passive \
	--peer 10.231.85.2
lab_rc 2 "bad port: exit 2" "$NETPROBE" capture --port 70000
lab_done
