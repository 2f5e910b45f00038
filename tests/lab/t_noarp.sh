# nic-noarp lab (issue 48; systemd/systemd#4644, blind48d 05): four
# namespace nodes on one LAN. Healthy first: node04 holds a service
# address (/32) on a NOARP interface that is up, node03 one on a NOARP
# interface that is down: the mesh passes, no nic-noarp, no cause.
# Then node 0's lan0 loses ARP (ip link set dev lan0 arp off): no member
# joins; the report names node01 alone with nic-noarp, one setting cause
# owning every missing member; its command, run verbatim (the closed
# loop), makes the mesh pass. Then node02's lan0 (not node 0): node02
# cannot join, prints its own nic-noarp with the fix, and the report
# blames no other node; the document it left, merged with node 0's,
# makes node02's setting cause; its printed fix, pasted there, clears it.
LAB_ID="${LAB_ID:-48na-$$}"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mesh_lib.sh"
. "$(dirname "$0")/closedloop.sh"
lab_require jq unshare

N=4
OUT=$(mktemp -d /tmp/np48-noarp.XXXXXX)
trap 'lab_cleanup; [ -n "${KEEP:-}" ] || rm -rf "$OUT" "$MESH_HOSTS"' EXIT

mesh_build "$N" 146 0
N3=$(mesh_ns 3)
N4=$(mesh_ns 4)
# the decoys: a veth pair inside the node, NOARP, a service address
ip -n "$N4" link add svc0 type veth peer name svc0p
ip -n "$N4" addr add 10.231.147.10/32 dev svc0
ip -n "$N4" link set svc0 arp off up
ip -n "$N4" link set svc0p up
ip -n "$N3" link add ipvs0 type veth peer name ipvs0p
ip -n "$N3" addr add 10.231.147.11/24 dev ipvs0
ip -n "$N3" link set ipvs0 arp off

cl_ns() {
	mesh_ns "${1#node0}"
}

lab_check "every node's link is up" mesh_wait_links "$N"
mesh_run_torch healthy
lab_check "healthy: every node exits 0 [$(cat "$R"/*.rc | tr '\n' ' ')]" \
	test "$(cat "$R"/*.rc | sort -u)" = 0
lab_check "healthy: no nic-noarp, no cause" \
	test "$(jq '[.findings[] | select(.code == "nic-noarp")] + [.causes[]?] | length' "$R/report.json")" = 0
lab_check "node04's scan records svc0's NOARP" \
	test "$(jq -r '.interfaces[] | select(.name == "svc0") | .flags | index("NOARP") != null' "$R/docs/node04.json")" = true
# the decoys go: their own warnings (a down interface, NCCL's choice
# among veths) are other codes'
ip -n "$N4" link del svc0
ip -n "$N3" link del ipvs0

ip -n "$(mesh_ns 1)" link set dev lan0 arp off
mesh_flush_neigh
mesh_run_torch node0
lab_check "node 0 without ARP: node 0 exits 1" test "$(cat "$R/1.rc")" = 1
LAB_OUT=$(jq -r '.causes[] | "\(.node // "?") \(.kind) \([.findings[]? | if type == "object" then .code else . end] | join(","))"' "$R/report.json")
lab_grep "node01 is a setting cause with nic-noarp" '^node01 setting .*nic-noarp'
lab_grep "it owns the missing members" '^node01 setting .*mesh-node-missing'
lab_nogrep "no other node, no undecided pair" '^node0[234]|<->'
LAB_OUT=$(jq -r '[.findings[] | select(.severity == "fault") | select((.root_cause // "") == "")] | length' "$R/report.json")
lab_grep "every fault has its root cause" '^0$'
LAB_OUT=$(cl_fixes "$R/report.json")
lab_grep "node01's command turns ARP on" \
	'^node01	shell	ip link set dev lan0 arp on$'
cl_apply "$R/report.json" node01
lab_check "the fix applied" test "$CL_APPLIED" = 1
mesh_flush_neigh
mesh_run_torch fixed0
cl_clean "$R/report.json" "$R" "noarp-node0"

ip -n "$(mesh_ns 2)" link set dev lan0 arp off
mesh_flush_neigh
mesh_run_torch node2
lab_check "node02 without ARP: node02 exits 2" test "$(cat "$R/2.rc")" = 2
LAB_OUT=$(cat "$R/2.err")
lab_grep "node02 prints its own nic-noarp and the fix" \
	'nic-noarp: lan0 has the NOARP flag.*the fix here: ip link set dev lan0 arp on$'
LAB_OUT=$(jq -r '.causes[] | "\(.node // "?") \(.kind)"' "$R/report.json")
lab_nogrep "no healthy node blamed" '^node0[134] '
FIX=$(sed -n 's/.*nic-noarp: .*the fix here: //p' "$R/2.err")
# the document node02 left (--out), merged with node 0's: its own
# setting cause, the same command, and no other cause
"$NETPROBE" report --format json "$R/docs" "$R/left/node02.json" \
	>"$OUT/merged.json" 2>/dev/null
LAB_OUT=$(jq -r '.causes[] | "\(.node // "?") \(.kind) \([.findings[]? | if type == "object" then .code else . end] | join(",")) \(.fix.commands.shell // [] | join(";"))"' "$OUT/merged.json")
lab_grep "merged: node02 is a setting cause with nic-noarp and its fix" \
	'^node02 setting .*nic-noarp.* ip link set dev lan0 arp on$'
lab_nogrep "merged: no other cause" '^node0[134] |<->'

if ip netns exec "$(mesh_ns 2)" sh -c "$FIX"; then
	lab_ok "closed loop: on node02: $FIX"
else
	lab_notok "closed loop: on node02, failed: $FIX"
fi
mesh_flush_neigh
mesh_run_torch fixed2
cl_clean "$R/report.json" "$R" "noarp-node2"
lab_done
