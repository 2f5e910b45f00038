# qdisc-drops-frames lab (issue 48; tohojo/sqm-scripts#73, blind48e 01;
# kubernetes/kubernetes#25092, blind48e 03): four namespace nodes on one
# LAN. Healthy first, with decoys that must stay silent: node02's lan0
# under a tbf whose burst holds full frames (256 KiB), node04's under an
# htb whose direct queue holds 1000 packets. Then node03's lan0 under a
# tbf of burst 1000 (below a frame of 1514; every MTU stays 1500): the
# report names node03 alone, a setting cause with qdisc-drops-frames,
# prints no MTU to set, and its command, run verbatim (the closed loop),
# makes the mesh pass. Then node04's htb made with direct_qlen 0: node04's
# own scan names it, and its printed command clears it.
LAB_ID="${LAB_ID:-48qd-$$}"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mesh_lib.sh"
. "$(dirname "$0")/closedloop.sh"
lab_require jq unshare tc

N=4
OUT=$(mktemp -d /tmp/np48-qdisc.XXXXXX)
trap 'lab_cleanup; [ -n "${KEEP:-}" ] || rm -rf "$OUT" "$MESH_HOSTS"' EXIT

mesh_build "$N" 193 0
cl_ns() {
	mesh_ns "${1#node0}"
}
tcn() {
	_n=$1
	shift
	ip netns exec "$(mesh_ns "$_n")" tc "$@"
}

lab_check "every node's link is up" mesh_wait_links "$N"
tcn 2 qdisc add dev lan0 root tbf rate 1gbit burst 256kb latency 50ms
tcn 4 qdisc add dev lan0 root handle 1: htb default 10 direct_qlen 1000
mesh_run_torch healthy
lab_check "healthy with decoys: every node exits 0 [$(cat "$R"/*.rc | tr '\n' ' ')]" \
	test "$(cat "$R"/*.rc | sort -u)" = 0
lab_check "healthy: no qdisc-drops-frames, no cause, no warning" \
	test "$(jq '[.findings[] | select(.code == "qdisc-drops-frames" or .severity == "warning")] + [.causes[]?] | length' "$R/report.json")" = 0
lab_check "node02's scan records its tbf passing 262144 bytes or more" \
	test "$(jq '[.qdiscs[] | select(.interface == "lan0" and .kind == "tbf" and .tbf.max_size >= 262000)] | length' "$R/docs/node02.json")" = 1
lab_check "node04's scan records its htb with direct_qlen 1000" \
	test "$(jq '[.qdiscs[] | select(.interface == "lan0" and .htb.direct_qlen == 1000)] | length' "$R/docs/node04.json")" = 1

tcn 3 qdisc add dev lan0 root tbf rate 1gbit burst 1000 latency 50ms
mesh_flush_neigh
mesh_run_torch tbf
LAB_OUT=$(jq -r '.causes[] | "\(.node // "?") \(.kind) \([.findings[]? | if type == "object" then .code else . end] | join(","))"' "$R/report.json")
lab_grep "node03 is a setting cause with qdisc-drops-frames" '^node03 setting .*qdisc-drops-frames'
lab_nogrep "no other node, no MTU cause, no undecided pair" '^node0[124]| mtu |<->'
lab_check "no MTU to set" \
	test "$(jq '[.recommendation.mtu[]?] | length' "$R/report.json")" = 0
LAB_OUT=$(cl_fixes "$R/report.json")
lab_grep "node03's command keeps the rate with a burst of rate/250" \
	'^node03	shell	tc qdisc replace dev lan0 root tbf rate 1000000000bit burst 500000 latency 50ms$'
cl_apply "$R/report.json" node03
lab_check "the fix applied" test "$CL_APPLIED" = 1
mesh_flush_neigh
mesh_run_torch fixed3
cl_clean "$R/report.json" "$R" "qdisc-tbf"

tcn 4 qdisc del dev lan0 root
tcn 4 qdisc add dev lan0 root handle 1: htb default 10 direct_qlen 0
ip netns exec "$(mesh_ns 4)" "$NETPROBE" scan --json >"$OUT/scan4.json" 2>/dev/null
LAB_OUT=$(jq -r '.findings[] | "\(.code) \(.command // "")"' "$OUT/scan4.json")
lab_grep "node04's scan names its htb with its command" \
	'^qdisc-drops-frames ip link set dev lan0 txqueuelen 1000 && tc qdisc replace dev lan0 root handle 2: htb default 10 direct_qlen 1000$'
FIX=$(jq -r '.findings[] | select(.code == "qdisc-drops-frames") | .command' "$OUT/scan4.json")
if ip netns exec "$(mesh_ns 4)" sh -c "$FIX"; then
	lab_ok "closed loop: on node04: $FIX"
else
	lab_notok "closed loop: on node04, failed: $FIX"
fi
mesh_flush_neigh
mesh_run_torch fixed4
cl_clean "$R/report.json" "$R" "qdisc-htb"
lab_done
