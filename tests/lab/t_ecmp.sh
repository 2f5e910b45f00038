# A peer cut off by a node's own routing table (issue 48; blind48c 04:
# sonic-net/sonic-buildimage#8502, systemd/systemd#33470). Subnet A
# (10.231.96.0/24: node01, node02) reaches subnet B (10.231.97.0/24:
# node03, node04) by an ECMP route over routers rt1 (.251) and rt2 (.252);
# B returns through one of them.
# 1. healthy: both routers live, and every node holds blackhole,
#    unreachable and prohibit routes for prefixes with no member (a CNI's
#    own blocks): the mesh passes with no warning.
# 2. one router off (the one some pair of A hashes onto, as `ip route get`
#    says): the report blames node01 and node02 only, with
#    ecmp-dead-nexthop; their commands, run verbatim (the closed loop),
#    make the mesh pass (in two rounds where node 0's own dead hop kept a
#    B member from joining, so no one probed it from node02).
# 3. node03 holds a blackhole and node04 a prohibit route over node02's
#    address: each is blamed with route-type-drop, node02 never; the
#    printed deletes make the mesh pass.
# 4. IPv6: node03's blackhole over node04's ULA, found by scan --peer
#    (the peer's error names the route, not a missing responder); its
#    command, pasted, clears it.
LAB_ID="${LAB_ID:-48ec-$$}"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mesh_lib.sh"
. "$(dirname "$0")/closedloop.sh"
lab_require jq unshare

N=4
OUT=$(mktemp -d /tmp/np48-ecmp.XXXXXX)
MESH_HOSTS=$(mktemp /tmp/np-mesh-hosts.XXXXXX)
trap 'lab_cleanup; [ -n "${KEEP:-}" ] || rm -rf "$OUT" "$MESH_HOSTS"' EXIT

# net_of I: node I's subnet digit (A 96 for 1, 2; B 97 for 3, 4)
net_of() {
	[ "$1" -le 2 ] && echo 96 || echo 97
}

lab_ns SWA swa
lab_ns SWB swb
for _s in "$SWA" "$SWB"; do
	ip -n "$_s" link add name br0 type bridge
	ip -n "$_s" link set br0 up
done
for _r in 1 2; do
	lab_ns _ns "rt$_r"
	eval "RT$_r=\$_ns"
	lab_veth "$_ns" eth0 "$SWA" "r${_r}a"
	lab_veth "$_ns" eth1 "$SWB" "r${_r}b"
	ip -n "$SWA" link set "r${_r}a" master br0 up
	ip -n "$SWB" link set "r${_r}b" master br0 up
	ip -n "$_ns" addr add "10.231.96.25$_r/24" dev eth0
	ip -n "$_ns" addr add "10.231.97.25$_r/24" dev eth1
	ip -n "$_ns" link set eth0 up
	ip -n "$_ns" link set eth1 up
	ip netns exec "$_ns" sysctl -qw net.ipv4.ip_forward=1
done
_etc="127.0.0.1 localhost"
_i=1
while [ "$_i" -le "$N" ]; do
	_etc="$_etc
10.231.$(net_of "$_i").$_i $(mesh_name "$_i")"
	mesh_name "$_i" >>"$MESH_HOSTS"
	echo >>"$MESH_HOSTS"
	_i=$((_i + 1))
done
_i=1
while [ "$_i" -le "$N" ]; do
	lab_ns _ns "$(mesh_name "$_i")"
	eval "MESH_NS_$_i=\$_ns"
	_net=$(net_of "$_i")
	_sw=$SWA
	[ "$_net" = 97 ] && _sw=$SWB
	lab_veth "$_ns" lan0 "$_sw" "p$_i"
	ip -n "$_sw" link set "p$_i" master br0 up
	ip -n "$_ns" addr add "10.231.$_net.$_i/24" dev lan0
	ip -n "$_ns" link set lan0 up
	printf '%s\n' "$_etc" | lab_hosts_stdin "$_ns"
	# decoys: drop routes over prefixes that hold no member
	ip -n "$_ns" route add blackhole "10.231.98.$((_i * 16))/28"
	ip -n "$_ns" route add unreachable 10.231.99.0/24
	ip -n "$_ns" route add prohibit 10.231.95.0/24
	_i=$((_i + 1))
done
for _i in 1 2; do
	ip -n "$(mesh_ns "$_i")" route add 10.231.97.0/24 \
		nexthop via 10.231.96.251 nexthop via 10.231.96.252
done
# B returns by BACK (set again below once the dead router is known)
back_via() {
	for _i in 3 4; do
		ip -n "$(mesh_ns "$_i")" route replace 10.231.96.0/24 \
			via "10.231.97.25$1"
	done
}
back_via 1
lab_check "every node's link is up" mesh_wait_links "$N"

# run_mesh NAME: every node runs netprobe mesh --ports torch; node 0's
# report as JSON in $OUT/NAME/report.json, its documents in .../docs.
run_mesh() {
	R="$OUT/$1"
	mkdir -p "$R"
	mesh_run 1 "$R" --hosts "$MESH_HOSTS" --join-timeout 20s --quick \
		--ports torch --format json -o "$R/report.json" --out "$R/docs"
	_i=2
	while [ "$_i" -le "$N" ]; do
		mesh_run "$_i" "$R" --hosts "$MESH_HOSTS" --join-timeout 20s \
			--quick --ports torch
		_i=$((_i + 1))
	done
	lab_check "$1: $N nodes end within 120 s" mesh_wait_all "$N" "$R" 120
}
# causes NAME: "NODE CODES" per cause of NAME's report
causes() {
	jq -r '.causes[] | "\(.node // "?") \([.findings[]? | if type == "object" then .code else . end] | join(","))"' "$OUT/$1/report.json"
}
cl_ns() {
	mesh_ns "${1#node0}"
}

run_mesh healthy
lab_check "healthy (ECMP over two live routers, drop routes toward no member): every node exits 0 [$(cat "$R"/*.rc | tr '\n' ' ')]" \
	test "$(cat "$R"/*.rc | sort -u)" = 0
lab_check "healthy: no fault or warning" \
	test "$(jq '[.findings[] | select(.severity != "info")] | length' "$R/report.json")" = 0

# the router that some pair of A hashes onto (the lookup with the
# connection's source, as the kernel hashes it) goes off; B returns by
# the other
DEAD=
for _a in 1 2; do
	for _b in 3 4; do
		_g=$(ip -n "$(mesh_ns "$_a")" route get "10.231.97.$_b" \
			from "10.231.96.$_a" | sed -n 's/.* via \([0-9.]*\) .*/\1/p')
		[ "$_g" = 10.231.96.252 ] && DEAD=2
	done
done
[ -n "$DEAD" ] || DEAD=1
LIVE=$((3 - DEAD))
back_via "$LIVE"
eval "_rt=\$RT$DEAD"
ip -n "$_rt" link set eth0 down
ip -n "$_rt" link set eth1 down
lab_check "rt$DEAD is off" lab_wait 50 sh -c \
	"! ip -n '$_rt' -o link show up | grep -q 'eth0\|eth1'"
# off for a while, as in the threads: the nodes' entries for it have
# expired (a router that died a moment ago is still REACHABLE in their
# caches, and the scan then cannot tell it from a live one)
_i=1
while [ "$_i" -le "$N" ]; do
	ip -n "$(mesh_ns "$_i")" neigh flush all
	_i=$((_i + 1))
done
run_mesh ecmp
lab_check "ecmp: node 0 exits 1" test "$(cat "$R/1.rc")" = 1
LAB_OUT=$(causes ecmp)
lab_grep "ecmp: a cause on node01 or node02 with ecmp-dead-nexthop" \
	'^node0[12] .*ecmp-dead-nexthop'
lab_nogrep "ecmp: no cause on node03 or node04, none undecided" \
	'^node0[34] \|<->\|^? '
LAB_OUT=$(cl_fixes "$R/report.json")
lab_grep "ecmp: the command keeps the live next hop" \
	"^node0[12]	shell	ip route replace 10.231.97.0/24 via 10.231.96.25$LIVE dev lan0\$"
cl_apply "$R/report.json" node01 node02
lab_check "ecmp: the fix applied" test "$CL_APPLIED" -ge 1
run_mesh ecmp-fixed
# a member whose joins node 0's own dead hop lost is probed by no one:
# the other A node's dead hop toward it shows once it joins (one more
# round, on the A nodes only)
if [ "$(jq '[.findings[] | select(.severity != "info")] | length' "$R/report.json")" != 0 ]; then
	LAB_OUT=$(causes ecmp-fixed)
	lab_nogrep "ecmp, second round: no cause but an A node's ecmp-dead-nexthop" \
		'^node0[34] \|<->\|^? '
	cl_apply "$R/report.json" node01 node02
	run_mesh ecmp-fixed2
fi
cl_clean "$R/report.json" "$R" "ecmp"

# node02 cut off by node03's blackhole and node04's prohibit route
ip -n "$(mesh_ns 3)" route add blackhole 10.231.96.2/32
ip -n "$(mesh_ns 4)" route add prohibit 10.231.96.2/32
run_mesh drop
LAB_OUT=$(causes drop)
lab_grep "drop: node03 is a cause with route-type-drop" \
	'^node03 .*route-type-drop'
lab_grep "drop: node04 is a cause with route-type-drop" \
	'^node04 .*route-type-drop'
lab_nogrep "drop: node02 (the peer both routes hold) is not blamed, nor node01" \
	'^node0[12] \|<->\|^? '
LAB_OUT=$(cl_fixes "$R/report.json")
lab_grep "drop: node03's command deletes its blackhole" \
	'^node03	shell	ip route del blackhole 10.231.96.2/32$'
lab_grep "drop: node04's command deletes its prohibit route" \
	'^node04	shell	ip route del prohibit 10.231.96.2/32$'
cl_apply "$R/report.json" node03 node04
lab_check "drop: both fixes applied" test "$CL_APPLIED" -eq 2
run_mesh drop-fixed
cl_clean "$R/report.json" "$R" "drop"

# IPv6 as IPv4: node03's own blackhole over node04's ULA, seen by
# scan --peer toward node04's responder; its command, pasted, clears it
NS3=$(mesh_ns 3)
NS4=$(mesh_ns 4)
ip -n "$NS3" addr add fd97::3/64 dev lan0 nodad
ip -n "$NS4" addr add fd97::4/64 dev lan0 nodad
ip -n "$NS3" -6 route add blackhole fd97::4/128
ip netns exec "$NS4" timeout 120 "$NETPROBE" serve --port 7471 \
	>"$OUT/serve.log" 2>&1 &
SERVE=$!
lab_check "v6: node04's responder listens on 7471" lab_wait 100 sh -c \
	"ip netns exec '$NS4' ss -ltn 'sport = :7471' | grep -q 7471"
v6scan() {
	J=$(ip netns exec "$NS3" "$NETPROBE" scan --quick --json \
		--peer '[fd97::4]:7471' 2>/dev/null)
}
v6scan
lab_check "v6: route-type-drop on node03" \
	test "$(jqv '[.findings[] | select(.code == "route-type-drop")] | length')" = 1
lab_check "v6: the peer's error names the route, not a missing responder [$(jqv '[.errors[]?.message] | join("; ")')]" \
	test "$(jqv '[.errors[]?.message | select(test("netprobe serve") or (test("route-type-drop") | not))] | length')" = 0
V6CMD=$(jqv '.findings[] | select(.code == "route-type-drop") | .command')
lab_check "v6: its command deletes the blackhole [$V6CMD]" \
	test "$V6CMD" = "ip -6 route del blackhole fd97::4/128 metric 1024"
lab_check "v6: the command runs on node03" ip netns exec "$NS3" sh -c "$V6CMD"
v6scan
lab_check "v6: after it, node04's responder answers and nothing drops" \
	test "$(jqv '.peers[0].responded') $(jqv '[.findings[] | select(.code == "route-type-drop" or .code == "host-unreachable")] | length')" = "true 0"
kill "$SERVE" 2>/dev/null
lab_done
