# macvlan-vepa-peer lab (issue 48; jpetazzo/pipework#239): four namespace
# nodes on one LAN, whose switch (a Linux bridge) does not hairpin.
# node03 and node04 are containers with a macvlan lan0 in VEPA mode.
# Healthy first: each on a host of its own (h3, h4): a VEPA macvlan whose
# peers are all on other hosts reaches them, and the mesh passes with no
# warning. Then both on one host, h3: the siblings' frames leave by h3's
# uplink and never come back, so node03 and node04 fail with each other
# alone. The report blames both with macvlan-vepa-peer and nothing else;
# their commands (bridge mode), run verbatim (the closed loop), make the
# mesh pass.
LAB_ID="${LAB_ID:-48vp-$$}"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mesh_lib.sh"
. "$(dirname "$0")/closedloop.sh"
lab_require jq unshare

N=4
OUT=$(mktemp -d /tmp/np48-vepa.XXXXXX)
trap 'lab_cleanup; [ -n "${KEEP:-}" ] || rm -rf "$OUT" "$MESH_HOSTS"' EXIT

mesh_build "$N" 69 0
lab_ns H3 h3
lab_ns H4 h4
# host_up NS I: host NS on the switch at 10.231.69.1I
host_up() {
	lab_veth "$1" eth0 "$MESH_SW" "ph$2"
	ip -n "$MESH_SW" link set "ph$2" master br0
	ip -n "$MESH_SW" link set "ph$2" up
	ip -n "$1" addr add "10.231.69.1$2/24" dev eth0
	ip -n "$1" link set eth0 up
}
host_up "$H3" 3
host_up "$H4" 4

# vepa_on HOST I: node I's lan0 becomes a macvlan of HOST's eth0 in VEPA
# mode, with node I's address and default route
vepa_on() {
	_n=$(mesh_ns "$2")
	ip -n "$_n" link del lan0 2>/dev/null
	ip -n "$1" link add link eth0 name "mv$2" type macvlan mode vepa
	ip -n "$1" link set "mv$2" netns "$_n"
	ip -n "$_n" link set "mv$2" name lan0
	ip -n "$_n" addr add "10.231.69.$2/24" dev lan0
	ip -n "$_n" link set lan0 up
	ip -n "$_n" route add default via 10.231.69.254
}

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
	lab_check "$1: $N nodes end within 90 s" mesh_wait_all "$N" "$R" 90
}

vepa_on "$H3" 3
vepa_on "$H4" 4
lab_check "every node's link is up" mesh_wait_links "$N"
run_mesh apart
lab_check "VEPA siblings of other hosts: every node exits 0 [$(cat "$R"/*.rc | tr '\n' ' ')]" \
	test "$(cat "$R"/*.rc | sort -u)" = 0
lab_check "VEPA siblings of other hosts: no fault or warning" \
	test "$(jq '[.findings[] | select(.severity != "info")] | length' "$R/report.json")" = 0
lab_check "node03's scan records lan0's mode, vepa" \
	test "$(jq -r '.interfaces[] | select(.name == "lan0") | .mode' "$R/docs/node03.json")" = vepa

vepa_on "$H3" 4
lab_check "node04's lan0 is up on h3" mesh_wait_links "$N"
run_mesh together
lab_check "one host: node 0 exits 1" test "$(cat "$R/1.rc")" = 1
LAB_OUT=$(jq -r '.causes[] | "\(.node // "?") \([.findings[]? | if type == "object" then .code else . end] | join(","))"' "$R/report.json")
lab_grep "node03 is a cause with macvlan-vepa-peer" '^node03 .*macvlan-vepa-peer'
lab_grep "node04 is a cause with macvlan-vepa-peer" '^node04 .*macvlan-vepa-peer'
lab_nogrep "no other node, no undecided pair" '^node0[12]|<->'
LAB_OUT=$(cl_fixes "$R/report.json")
lab_grep "node03's command: bridge mode" \
	'^node03	shell	ip link set lan0 type macvlan mode bridge$'
lab_grep "node04's command: bridge mode" \
	'^node04	shell	ip link set lan0 type macvlan mode bridge$'
cl_ns() {
	mesh_ns "${1#node0}"
}
cl_apply "$R/report.json" node03 node04
lab_check "both fixes applied" test "$CL_APPLIED" = 2
run_mesh fixed
cl_clean "$R/report.json" "$R" "vepa"
lab_done
