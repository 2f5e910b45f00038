# Ports before the job (issue 44): nothing listens yet on the job's port,
# and `netprobe ports --before-job` says so rather than failing the gate.
# Hosts A and B on a LAN. Without a responder on B, a reset on 29500 is a
# warning (port-unused: nothing listens yet, or a rule rejects with a
# reset) and exit 0; without --before-job it stays the port-closed fault
# (exit 1). With B's responder, the port is held and reached: reachable,
# port-unused info, exit 0. A rule on B that rejects 29501 with a reset is
# told apart by the responder's listener: port-closed, a fault, exit 1;
# the rule removed, it passes. A drop stays a fault before the job too,
# and a port a service already holds is open.
. "$(dirname "$0")/lib.sh"
lab_require nft socat jq
lab_ns A a
lab_ns B b
lab_veth "$A" lan0 "$B" lan0
ip -n "$A" addr add 10.231.31.1/24 dev lan0
ip -n "$B" addr add 10.231.31.2/24 dev lan0
ip -n "$A" link set lan0 up
ip -n "$B" link set lan0 up
lab_check "the link is up" lab_wait 50 sh -c \
	"ip -n '$A' link show lan0 | grep -q LOWER_UP"

# jqs FILTER: jq over $LAB_OUT's document
jqs() {
	printf '%s\n' "$LAB_OUT" | jq -r "$1" 2>/dev/null
}
# codes: "code severity" of every finding, sorted, space-separated
codes() {
	jqs '[.findings[] | "\(.code):\(.severity)"] | sort | join(" ")'
}
# state PORT: the TCP port's state
state() {
	jqs ".ports[] | select(.port == $1 and .proto == \"tcp\") | .state"
}

# no responder on B: a reset proves the host answered, not the firewall
lab_rc 0 "no responder, --before-job: exit 0" \
	ip netns exec "$A" "$NETPROBE" ports --json --before-job --timeout 1s \
	10.231.31.2 29500
lab_check "no responder: port-unused is a warning [$(codes)]" \
	test "$(codes)" = "port-unused:warning"
lab_check "no responder: the port stays closed" test "$(state 29500)" = closed
lab_grep "no responder: the warning says how to tell" \
	'netprobe serve on 10.231.31.2'
lab_rc 1 "no responder, a running job (no --before-job): exit 1" \
	ip netns exec "$A" "$NETPROBE" ports --json --timeout 1s \
	10.231.31.2 29500
lab_check "a running job: port-closed is a fault [$(codes)]" \
	test "$(codes)" = "port-closed:fault"

# B's responder holds the free port: the path is proven
ip netns exec "$B" "$NETPROBE" serve >/dev/null 2>&1 &
lab_check "B's responder listens on 7470" lab_wait 100 sh -c \
	"ip netns exec '$B' ss -ltn 'sport = :7470' | grep -q 7470"
# (each step its own ports: the responder's listener of one run lives on
# for the timeout and 2 s more, and the next run would see it open)
lab_rc 0 "responder, --before-job: exit 0" \
	ip netns exec "$A" "$NETPROBE" ports --json --before-job --timeout 1s \
	10.231.31.2 29510
lab_check "responder: 29510 reachable" test "$(state 29510)" = reachable
lab_check "responder: port-unused info alone [$(codes)]" \
	test "$(codes)" = "port-unused:info"
lab_rc 0 "the text output says nothing listens yet" \
	ip netns exec "$A" "$NETPROBE" ports --before-job --timeout 1s \
	10.231.31.2 29511
lab_grep "text: start the job, the path is open" \
	'nothing listens yet: start the job, the path is open'

# a rule on B rejects 29521 and 29531 with a reset; 29522, 29532 dropped
ip netns exec "$B" nft -f - <<'NFT'
table inet np44pre {
	chain input {
		type filter hook input priority 0; policy accept;
		tcp dport { 29521, 29531 } reject with tcp reset
		tcp dport { 29522, 29532 } drop
	}
}
NFT
lab_rc 1 "a reset rule, --before-job: exit 1" \
	ip netns exec "$A" "$NETPROBE" ports --json --before-job --timeout 1s \
	10.231.31.2 29520,29521
lab_check "a reset rule: 29521 closed while held, a fault [$(codes)]" \
	test "$(codes)" = "port-closed:fault port-unused:info"
lab_grep "a reset rule: named as a firewall's reject" \
	'rejected with a reset while the responder listened'
lab_rc 1 "a drop, --before-job: still a fault" \
	ip netns exec "$A" "$NETPROBE" ports --json --before-job --timeout 1s \
	10.231.31.2 29522
lab_check "a drop: port-filtered [$(codes)]" \
	test "$(codes)" = "port-filtered:fault"
ip netns exec "$B" nft delete table inet np44pre
lab_rc 0 "the rules removed: exit 0" \
	ip netns exec "$A" "$NETPROBE" ports --json --before-job --timeout 1s \
	10.231.31.2 29530-29532
lab_check "the rules removed: all three reachable" \
	test "$(jqs '[.ports[] | select(.state == "reachable")] | length')" = 3

# a service already on 29500: open, nothing to say
ip netns exec "$B" timeout 120 socat TCP-LISTEN:29500,reuseaddr,fork \
	SYSTEM:true >/dev/null 2>&1 &
lab_check "B's service listens on 29500" lab_wait 100 sh -c \
	"ip netns exec '$B' ss -ltn 'sport = :29500' | grep -q 29500"
lab_rc 0 "a service on 29500, --before-job: exit 0" \
	ip netns exec "$A" "$NETPROBE" ports --json --before-job --timeout 1s \
	10.231.31.2 29500
lab_check "a service: open, no finding [$(codes)]" \
	test "$(state 29500) $(codes)" = "open "
lab_done
