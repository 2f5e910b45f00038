# The hop, not the node (issue 23), through the closed loop: two subnets
# of three nodes behind a router whose leg toward the second has MTU 1000
# and which drops ICMP fragmentation-needed. The one root cause is that
# hop, named by its gateway; no node is told to lower its interface MTU;
# the workaround printed (a route MTU per destination across the hop, on
# the nodes of both sides) runs verbatim and the mesh passes again, with
# same-subnet pairs untouched.
LAB_ID="${LAB_ID:-23-$$}"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mesh_lib.sh"
. "$(dirname "$0")/closedloop.sh"
lab_require nft jq unshare

OUT=$(mktemp -d /tmp/np23-mtuhop.XXXXXX)
trap 'lab_cleanup; [ -n "${KEEP:-}" ] || rm -rf "$OUT"' EXIT
lab_ns SWA swa
lab_ns SWB swb
lab_ns RT rt
for s in "$SWA" "$SWB"; do
	ip -n "$s" link add name br0 type bridge
	ip -n "$s" link set br0 up
done
lab_veth "$RT" a0 "$SWA" pr
lab_veth "$RT" b0 "$SWB" pr
for s in "$SWA" "$SWB"; do
	ip -n "$s" link set pr master br0
	ip -n "$s" link set pr up
done
ip -n "$RT" addr add 10.231.26.254/24 dev a0
ip -n "$RT" addr add 10.231.27.254/24 dev b0
ip -n "$RT" link set a0 up
ip -n "$RT" link set b0 up
ip -n "$RT" link set b0 mtu 1000
ip netns exec "$RT" sysctl -qw net.ipv4.ip_forward=1
hop_drop_fragneeded "$RT"
: >"$OUT/hosts"
ETC="127.0.0.1 localhost"
net_of() {
	if [ "$1" -le 3 ]; then echo 26; else echo 27; fi
}
for i in 1 2 3 4 5 6; do
	ETC="$ETC
10.231.$(net_of "$i").$i node0$i"
	echo "node0$i" >>"$OUT/hosts"
done
for i in 1 2 3 4 5 6; do
	net=$(net_of "$i")
	if [ "$net" = 26 ]; then sw=$SWA; else sw=$SWB; fi
	lab_ns ns "n$i"
	eval "MESH_NS_$i=\$ns"
	lab_veth "$ns" lan0 "$sw" "p$i"
	ip -n "$sw" link set "p$i" master br0
	ip -n "$sw" link set "p$i" up
	ip -n "$ns" addr add "10.231.$net.$i/24" dev lan0
	ip -n "$ns" link set lan0 up
	ip -n "$ns" route add default via "10.231.$net.254"
	printf '%s\n' "$ETC" | lab_hosts_stdin "$ns"
done
lab_check "every node's link is up" mesh_wait_links 6
cl_ns() {
	mesh_ns "${1#node0}"
}

run_mesh() {
	R="$OUT/$1"
	mkdir -p "$R"
	mesh_run 1 "$R" --hosts "$OUT/hosts" --join-timeout 20s \
		--format json -o "$R/report.json" --out "$R/docs"
	for i in 2 3 4 5 6; do
		mesh_run "$i" "$R" --hosts "$OUT/hosts" --join-timeout 20s
	done
	lab_check "$1: 6 nodes end within 90 s" mesh_wait_all 6 "$R" 90
}

run_mesh before
M="$R/report.json"
cl_counts "$R/docs" before
lab_check "before: every node exits 1" test "$(cat "$R"/*.rc | sort -u)" = 1
lab_check "before: every document came (the members' own results cross the hop)" \
	test "$(jq -r '.mesh.documents' "$M")" = 6
lab_check "before: one root cause, the hop [$(jq -r '[.causes[] | "\(.kind):\(.node)"] | join(",")' "$M")]" \
	test "$(jq -r '[.causes[] | "\(.kind):\(.node)"] | join(",")' "$M")" = "hop:10.231.26.254"
lab_check "before: the matrix is not green across the hop (18 mtu-blackhole cells, all the crossing pairs)" \
	test "$(jq '[.matrix.cells[] | select(.state == "mtu-blackhole") |
		select((.from | test("node0[123]")) != (.to | test("node0[123]")))] | length' "$M")" = 18
lab_check "before: same-subnet pairs stay reachable" \
	test "$(jq '[.matrix.cells[] | select(.state == "reachable")] | length' "$M")" = 12
LAB_OUT=$(jq -r '.causes[0].fix.text' "$M")
lab_grep "before: the fix is at the hop: raise its MTU, let ICMP through" \
	'raise the MTU of its link.*let ICMP fragmentation-needed through'
LAB_OUT=$(cl_fixes "$M")
lab_nogrep "before: no interface MTU is lowered anywhere" 'ip link set'
lab_grep "before: a route MTU per destination on node01" \
	'^node01	shell	ip route replace 10\.231\.27\.4 via 10\.231\.26\.254 dev lan0 mtu lock 1000$'
lab_grep "before: and the way back on node05" \
	'^node05	shell	ip route replace 10\.231\.26\.1 via 10\.231\.27\.254 dev lan0 mtu lock 1000$'
lab_nogrep "before: nothing for a same-subnet pair" \
	'node0[123]	shell	ip route replace 10\.231\.26\.|node0[456]	shell	ip route replace 10\.231\.27\.'
LAB_OUT=$(jq -r '.findings[] | select(.code == "mtu-blackhole") | .summary' "$M")
lab_nogrep "before: no black hole inside a subnet" \
	'toward 10\.231\.26\.[123]$'
cl_apply "$M" node01 node02 node03 node04 node05 node06
lab_check "the workaround applied (18 routes)" test "$CL_APPLIED" = 18
run_mesh after
cl_clean "$R/report.json" "$R" "the hop's workaround"
lab_done
