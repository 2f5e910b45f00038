# bridge-port-stuck lab (issue 48; ipspace/netlab#2259, blind48d 04):
# four namespace nodes on one LAN, node01 and node02 holding their
# address on their own bridge br0 whose port is lan0, STP off. Healthy
# first: both ports forwarding, the mesh passes with no bridge-port-stuck
# and no cause. Then node 0's lan0 left in the learning state: the
# report names node01 alone with bridge-port-stuck, one setting cause
# owning every fault (br0 without carrier: no-usable-interface too); its
# command, run verbatim
# (the closed loop), makes the mesh pass. Then node02's port: node02
# cannot join and prints its own bridge-port-stuck with the fix; the
# document it left, merged with node 0's, makes node02's setting cause;
# its printed fix, pasted there, clears it.
LAB_ID="${LAB_ID:-48bs-$$}"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mesh_lib.sh"
. "$(dirname "$0")/closedloop.sh"
lab_require jq unshare

N=4
OUT=$(mktemp -d /tmp/np48-brstuck.XXXXXX)
trap 'lab_cleanup; [ -n "${KEEP:-}" ] || rm -rf "$OUT" "$MESH_HOSTS"' EXIT

mesh_build "$N" 148 0
# on_bridge I: node I's address and default route move from lan0 to its
# own bridge br0 (STP off), lan0 its port
on_bridge() {
	_n=$(mesh_ns "$1")
	ip -n "$_n" link add br0 type bridge stp_state 0
	ip -n "$_n" addr del "10.231.148.$1/24" dev lan0
	ip -n "$_n" link set lan0 master br0
	ip -n "$_n" addr add "10.231.148.$1/24" dev br0
	ip -n "$_n" link set br0 up
	ip -n "$_n" route add default via 10.231.148.254 dev br0
	ip netns exec "$_n" sysctl -qw net.ipv6.conf.lan0.disable_ipv6=1
}
on_bridge 1
on_bridge 2

cl_ns() {
	mesh_ns "${1#node0}"
}

lab_check "every node's link is up" mesh_wait_links "$N"
mesh_run_torch healthy
lab_check "healthy: every node exits 0 [$(cat "$R"/*.rc | tr '\n' ' ')]" \
	test "$(cat "$R"/*.rc | sort -u)" = 0
lab_check "healthy: no bridge-port-stuck, no cause" \
	test "$(jq '[.findings[] | select(.code == "bridge-port-stuck")] + [.causes[]?] | length' "$R/report.json")" = 0
lab_check "node02's scan records lan0 forwarding and br0's STP off" \
	test "$(jq -r '[.interfaces[] | select(.name == "lan0" or .name == "br0") | "\(.bridge_port_state) \(.stp_state)"] | sort | join(",")' "$R/docs/node02.json")" = "forwarding null,null 0"

ip -n "$(mesh_ns 1)" link set dev lan0 type bridge_slave state 2
mesh_flush_neigh
mesh_run_torch node0
lab_check "node 0's port learning: node 0 exits 1" test "$(cat "$R/1.rc")" = 1
LAB_OUT=$(jq -r '.causes[] | "\(.node // "?") \(.kind) \([.findings[]? | if type == "object" then .code else . end] | join(","))"' "$R/report.json")
lab_grep "node01 is a setting cause with bridge-port-stuck" '^node01 setting .*bridge-port-stuck'
LAB_OUT=$(jq -r '[.findings[] | select(.severity == "fault") | select((.root_cause // "") == "")] | length' "$R/report.json")
lab_grep "every fault has its root cause (no-usable-interface too: br0 has no carrier)" '^0$'
lab_nogrep "no other node, no undecided pair" '^node0[234]|<->'
LAB_OUT=$(cl_fixes "$R/report.json")
lab_grep "node01's command sets the port forwarding" \
	'^node01	shell	ip link set dev lan0 type bridge_slave state 3$'
cl_apply "$R/report.json" node01
lab_check "the fix applied" test "$CL_APPLIED" = 1
mesh_flush_neigh
mesh_run_torch fixed0
cl_clean "$R/report.json" "$R" "brstuck-node0"

ip -n "$(mesh_ns 2)" link set dev lan0 type bridge_slave state 2
mesh_flush_neigh
mesh_run_torch node2
lab_check "node02's port learning: node02 exits 2" test "$(cat "$R/2.rc")" = 2
LAB_OUT=$(cat "$R/2.err")
lab_grep "node02 prints its own bridge-port-stuck and the fix" \
	'bridge-port-stuck: lan0, a port of bridge br0.*the fix here: ip link set dev lan0 type bridge_slave state 3$'
LAB_OUT=$(jq -r '.causes[] | "\(.node // "?") \(.kind)"' "$R/report.json")
lab_nogrep "no healthy node blamed" '^node0[134] '
FIX=$(sed -n 's/.*bridge-port-stuck: .*the fix here: //p' "$R/2.err")
"$NETPROBE" report --format json "$R/docs" "$R/left/node02.json" \
	>"$OUT/merged.json" 2>/dev/null
LAB_OUT=$(jq -r '.causes[] | "\(.node // "?") \(.kind) \([.findings[]? | if type == "object" then .code else . end] | join(",")) \(.fix.commands.shell // [] | join(";"))"' "$OUT/merged.json")
lab_grep "merged: node02 is a setting cause with bridge-port-stuck and its fix" \
	'^node02 setting .*bridge-port-stuck.* ip link set dev lan0 type bridge_slave state 3$'
lab_nogrep "merged: no other cause" '^node0[134] |<->'
if ip netns exec "$(mesh_ns 2)" sh -c "$FIX"; then
	lab_ok "closed loop: on node02: $FIX"
else
	lab_notok "closed loop: on node02, failed: $FIX"
fi
mesh_flush_neigh
mesh_run_torch fixed2
cl_clean "$R/report.json" "$R" "brstuck-node2"
lab_done
