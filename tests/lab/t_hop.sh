# The hop probe (issue 48), through the closed loop: two subnets of two
# nodes each, joined by two routers in a row (A - r1 - r2 - B). r2's
# forward path resets TCP to ports 20000-65535 between the subnets, as a
# router's ACL does; the mesh's own port passes. The gateway the first
# subnet takes is r1, the wrong box: the report must name r2, which only
# a TTL-limited probe finds (a reset at TTL 2 from B's side, where A's
# node answers at TTL 3: a box after r2's first hop, before the peer).
# The printed fix, pasted in r2's namespace, clears it; the same when r2
# drops them in silence (r2 answers TTL 1, then nothing, where r1 answers
# TTL 2 for the mesh's port: dropped at r2), and when it refuses them with
# ICMP admin-prohibited (the sender names r2), and when r2's ICMP errors
# are rate-limited hard (never a fix on r1). First the same
# topology healthy: no failed pair, so no hop probe runs and every node
# passes. Then an IPv6 pass (routers and nodes with ULA addresses only
# on the hosts' file): the probe's walk works there too. Last, one node
# per subnet: no pair inside a subnet shows the path, the walk alone does.
LAB_ID="${LAB_ID:-48-$$}"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mesh_lib.sh"
. "$(dirname "$0")/closedloop.sh"
lab_require nft jq unshare

OUT=$(mktemp -d /tmp/np48-hop.XXXXXX)
trap 'lab_cleanup; [ -n "${KEEP:-}" ] || rm -rf "$OUT"' EXIT
lab_ns SWA swa
lab_ns SWB swb
lab_ns R1 r1
lab_ns R2 r2
for s in "$SWA" "$SWB"; do
	ip -n "$s" link add name br0 type bridge
	ip -n "$s" link set br0 up
done
lab_veth "$R1" a0 "$SWA" pr
lab_veth "$R2" b0 "$SWB" pr
lab_veth "$R1" t0 "$R2" t0
for s in "$SWA" "$SWB"; do
	ip -n "$s" link set pr master br0
	ip -n "$s" link set pr up
done
ip -n "$R1" addr add 10.231.84.254/24 dev a0
ip -n "$R1" addr add 10.231.86.1/30 dev t0
ip -n "$R2" addr add 10.231.85.254/24 dev b0
ip -n "$R2" addr add 10.231.86.2/30 dev t0
ip -n "$R1" addr add fd48:84::fe/64 dev a0 nodad
ip -n "$R1" addr add fd48:86::1/64 dev t0 nodad
ip -n "$R2" addr add fd48:85::fe/64 dev b0 nodad
ip -n "$R2" addr add fd48:86::2/64 dev t0 nodad
for r in "$R1" "$R2"; do
	for d in a0 b0 t0; do
		ip -n "$r" link set "$d" up 2>/dev/null
	done
	ip netns exec "$r" sysctl -qw net.ipv4.ip_forward=1
	ip netns exec "$r" sysctl -qw net.ipv6.conf.all.forwarding=1
done
ip -n "$R1" route add 10.231.85.0/24 via 10.231.86.2
ip -n "$R2" route add 10.231.84.0/24 via 10.231.86.1
ip -n "$R1" -6 route add fd48:85::/64 via fd48:86::2
ip -n "$R2" -6 route add fd48:84::/64 via fd48:86::1
net_of() {
	if [ "$1" -le 2 ]; then echo 84; else echo 85; fi
}
ETC4="127.0.0.1 localhost"
ETC6="127.0.0.1 localhost"
: >"$OUT/hosts"
for i in 1 2 3 4; do
	ETC4="$ETC4
10.231.$(net_of "$i").$i node0$i"
	ETC6="$ETC6
fd48:$(net_of "$i")::$i node0$i"
	echo "node0$i" >>"$OUT/hosts"
done
for i in 1 2 3 4; do
	net=$(net_of "$i")
	if [ "$net" = 84 ]; then sw=$SWA; else sw=$SWB; fi
	lab_ns ns "n$i"
	eval "MESH_NS_$i=\$ns"
	lab_veth "$ns" lan0 "$sw" "p$i"
	ip -n "$sw" link set "p$i" master br0
	ip -n "$sw" link set "p$i" up
	ip -n "$ns" addr add "10.231.$net.$i/24" dev lan0
	ip -n "$ns" addr add "fd48:$net::$i/64" dev lan0 nodad
	ip -n "$ns" link set lan0 up
	ip -n "$ns" route add default via "10.231.$net.254"
	ip -n "$ns" -6 route add default via "fd48:$net::fe"
	printf '%s\n' "$ETC4" | lab_hosts_stdin "$ns"
done
lab_check "every node's link is up" mesh_wait_links 4
# the nodes and r2, by either of its addresses (the box's fix runs there)
cl_ns() {
	case "$1" in
	10.231.85.254 | 10.231.86.2 | fd48:85::fe | fd48:86::2) echo "$R2" ;;
	10.231.84.254 | 10.231.86.1 | fd48:84::fe | fd48:86::1) echo "$R1" ;;
	*) mesh_ns "${1#node0}" ;;
	esac
}

run_mesh() {
	R="$OUT/$1"
	mkdir -p "$R"
	mesh_run 1 "$R" --hosts "$OUT/hosts" --join-timeout 20s --ports torch \
		--format json -o "$R/report.json" --out "$R/docs"
	for i in 2 3 4; do
		mesh_run "$i" "$R" --hosts "$OUT/hosts" --join-timeout 20s \
			--ports torch
	done
	lab_check "$1: 4 nodes end within 120 s" mesh_wait_all 4 "$R" 120
}
# hop_count DIR: the hop probes the members' documents in DIR carry
hop_count() {
	cat "$1"/*.json | jq -s '[.[] | .peers[]? | .hop // empty] | length'
}

# r2_box FAMILIES VERDICT: r2's forward path gives VERDICT (an nft
# verdict) to TCP 20000-65535 between the subnets, both ways, for each
# family of FAMILIES ("ip", "ip6"), after passing established traffic
r2_box() {
	{
		printf 'table inet filter {\n\tchain forward {\n'
		printf '\t\ttype filter hook forward priority filter; policy accept;\n'
		printf '\t\tct state established,related accept\n'
		for _f in $1; do
			if [ "$_f" = ip ]; then _x=10.231.84.0/24 _y=10.231.85.0/24
			else _x=fd48:84::/64 _y=fd48:85::/64; fi
			printf '\t\t%s saddr %s %s daddr %s tcp dport 20000-65535 %s\n' \
				"$_f" "$_x" "$_f" "$_y" "$2" "$_f" "$_y" "$_f" "$_x" "$2"
		done
		printf '\t}\n}\n'
	} | ip netns exec "$R2" nft -f -
}

# --- healthy: no failed pair, no probe --------------------------------------
run_mesh healthy
lab_check "healthy: every node exits 0 [$(cat "$R"/*.rc | tr '\n' ' ')]" \
	test "$(cat "$R"/*.rc | sort -u)" = 0
lab_check "healthy: every document came" \
	test "$(jq -r '.mesh.documents' "$R/report.json")" = 4
lab_check "healthy: no hop probe ran [$(hop_count "$R/docs")]" \
	test "$(hop_count "$R/docs")" = 0

# --- r2 resets high ports between the subnets -------------------------------
r2_box "ip ip6" "reject with tcp reset"
run_mesh before
M="$R/report.json"
cl_counts "$R/docs" before
CAUSES=$(jq -r '[.causes[] | "\(.kind):\(.node)"] | join(",")' "$M")
lab_check "before: every node exits 1" test "$(cat "$R"/*.rc | sort -u)" = 1
lab_check "before: the member probes ran, a few per member [$(hop_count "$R/docs")]" \
	sh -c "n=\$(cat '$R'/docs/*.json | jq -s '[.[] | .peers[]? | .hop // empty] | length'); [ \$n -ge 2 ] && [ \$n -le 8 ]"
lab_check "before: one root cause, the path at r2, not r1 the gateway [$CAUSES]" \
	test "$CAUSES" = "path:10.231.85.254"
LAB_OUT=$(jq -r '.causes[0].evidence[] | select(.source == "hop probe") | .fact' "$M")
lab_grep "before: the hop probe's evidence: a reset before the peer, after r2" \
	'reset comes at TTL 2, before node0[12]: the box at hop 1 \(10\.231\.85\.254\), or one right after it'
lab_grep "before: r1 answered the walk from A's side (TTL 1), r2 at TTL 2" \
	'TTL 1 time-exceeded from 10\.231\.84\.254, TTL 2 time-exceeded from 10\.231\.86\.2, TTL 3 reset'
LAB_OUT=$(jq -r '.causes[0].evidence[].fact' "$M")
lab_grep "before: why not the peer's own firewall: the hop probe" \
	"why not node0[1-4]'s own firewall: the hop probe"
LAB_OUT=$(jq -r '.causes[0].summary' "$M")
lab_grep "before: the summary names the subnets and the box" \
	'between 10\.231\.84\.0/24 and 10\.231\.85\.0/24 fail on the path between them .*at the box 10\.231\.85\.254'
LAB_OUT=$(jq -r '[.causes[] | select(.kind == "firewall")] | length' "$M")
lab_grep "before: no node's own firewall is blamed" '^0$'
cl_apply "$M" 10.231.85.254
lab_check "the box's fix applied on r2 (two rules)" test "$CL_APPLIED" = 2
run_mesh after
cl_clean "$R/report.json" "$R" "the box's fix on r2"

# --- r2 drops them instead, in silence ---------------------------------------
ip netns exec "$R2" nft flush ruleset
r2_box "ip" "drop"
run_mesh drop
M="$R/report.json"
CAUSES=$(jq -r '[.causes[] | "\(.kind):\(.node)"] | join(",")' "$M")
lab_check "drop: one root cause, the path at r2 [$CAUSES]" \
	test "$CAUSES" = "path:10.231.85.254"
LAB_OUT=$(jq -r '.causes[0].evidence[] | select(.source == "hop probe") | .fact' "$M")
lab_grep "drop: dropped at r2, before r1 (which answers for the responder's port)" \
	'TTL 1 time-exceeded from 10\.231\.85\.254, TTL 2 silent, TTL 3 silent; node0[12].s responder answers at TTL 3: dropped at hop 1 \(10\.231\.85\.254\) or right after it'
cl_apply "$M" 10.231.85.254
lab_check "drop: the box's fix applied on r2 (two rules)" test "$CL_APPLIED" = 2
run_mesh dropafter
cl_clean "$R/report.json" "$R" "drop: the box's fix on r2"

# --- r2 refuses them with ICMP admin-prohibited ------------------------------
# (with no ICMP rate limit on r2: every refusal and every time-exceeded
# comes back, so the walk names the refusal's sender; the rate-limited
# box is the next pass's)
# icmp_pass NAME RATELIMIT: r2 refuses with ICMP admin-prohibited, its
# ICMP errors limited to one per RATELIMIT ms per destination (0: none);
# the mesh's run NAME, its report in M and its causes in CAUSES
icmp_pass() {
	ip netns exec "$R2" nft flush ruleset
	ip netns exec "$R2" sysctl -qw net.ipv4.icmp_ratelimit="$2"
	r2_box "ip" "reject with icmpx admin-prohibited"
	run_mesh "$1"
	M="$R/report.json"
	CAUSES=$(jq -r '[.causes[] | "\(.kind):\(.node)"] | join(",")' "$M")
}
icmp_pass icmp 0
lab_check "icmp: one root cause, the path at r2 (either leg) [$CAUSES]" \
	sh -c "case '$CAUSES' in path:10.231.86.2 | path:10.231.85.254) ;; *) exit 1 ;; esac"
LAB_OUT=$(jq -r '.causes[0].evidence[].fact' "$M")
lab_grep "icmp: the refusal's sender is r2, not the peer" \
	'unreachable from 10\.231\.(86\.2|85\.254); node0[1-4].s responder answers at TTL 3: the refusal comes from 10\.231\.(86\.2|85\.254) at TTL [234], not from node0[1-4]'
lab_grep "icmp: why not loss: a refusal is an answer" \
	'why not loss on the link: the hop probe.*a refusal from the path is an answer'
cl_apply "$M" 10.231.86.2 10.231.85.254
lab_check "icmp: the box's fix applied on r2 (two rules)" test "$CL_APPLIED" = 2
run_mesh icmpafter
cl_clean "$R/report.json" "$R" "icmp: the box's fix on r2"

# --- the same box, its ICMP errors rate-limited hard ------------------------
# (one a 20 s per destination after a burst: most refusals and most of
# r2's time-exceeded never come, so r2's silence past r1 looks like a
# drop at r1, CI's t_hop on a loaded machine, 2026-12-07). Whatever the
# walks catch, no cause may name r1, which passes every port: the box is
# r2 where a refusal or a walk pinned it, else the path between the
# subnets with both gateways to look at, and no command to paste.
icmp_pass ratelimit 20000
lab_check "ratelimit: one root cause, the path at r2 or between the subnets [$CAUSES]" \
	sh -c "case '$CAUSES' in path:10.231.86.2 | path:10.231.85.254 | 'path:10.231.84.0/24<->10.231.85.0/24') ;; *) exit 1 ;; esac"
LAB_OUT=$(jq -r '.causes[] | .fix.text, (.fix.commands // {} | keys[])' "$M")
lab_nogrep "ratelimit: no fix on r1, which passes every port" \
	'on 10\.231\.(84\.254|86\.1)$'
if [ "$CAUSES" = 'path:10.231.84.0/24<->10.231.85.0/24' ]; then
	lab_grep "ratelimit: unpinned: both gateways to look at" \
		'first the subnets. gateways \(10\.231\.84\.254, 10\.231\.85\.254\)'
fi
ip netns exec "$R2" sysctl -qw net.ipv4.icmp_ratelimit=1000

# --- IPv6: the same box, the same walk --------------------------------------
ip netns exec "$R2" nft flush ruleset
r2_box "ip6" "reject with tcp reset"
for i in 1 2 3 4; do
	printf '%s\n' "$ETC6" | lab_hosts_stdin "$(mesh_ns "$i")"
done
run_mesh v6
LAB_OUT=$(cat "$R"/docs/*.json | jq -r '.peers[]? | .hop // empty |
	"\(.answer) \(.answer_ttl) \(.path_len) \(.hop) \(.box_before_peer)"')
lab_grep "v6: from B's side the reset comes at hop limit 2, the peer at 3, after fd48:85::fe" \
	'^reset 2 3 fd48:85::fe true$'
lab_grep "v6: from A's side after r2's transit leg" \
	'^reset 3 3 fd48:86::2 false$'
LAB_OUT=$(cat "$R"/*.err)
lab_nogrep "v6: no part failed to run for the probe" 'hop: |INCOMPLETE'
M="$R/report.json"
CAUSES=$(jq -r '[.causes[] | "\(.kind):\(.node) \(.nets // [] | join(" "))"] | join(",")' "$M")
lab_check "v6: one root cause, the path at r2, between the two /64s [$CAUSES]" \
	test "$CAUSES" = "path:fd48:85::fe fd48:84::/64 fd48:85::/64"
cl_apply "$M" fd48:85::fe
lab_check "v6: the box's fix applied on r2 (two ip6 rules)" test "$CL_APPLIED" = 2
run_mesh v6after
cl_clean "$R/report.json" "$R" "v6: the box's fix on r2"

# --- one node per subnet: no pair inside a subnet to compare ----------------
ip netns exec "$R2" nft flush ruleset
r2_box "ip" "reject with tcp reset"
for i in 1 2 3 4; do
	printf '%s\n' "$ETC4" | lab_hosts_stdin "$(mesh_ns "$i")"
done
printf 'node01\nnode03\n' >"$OUT/hosts2"
run_pair() {
	R="$OUT/$1"
	mkdir -p "$R"
	mesh_run 1 "$R" --hosts "$OUT/hosts2" --join-timeout 20s --ports torch \
		--format json -o "$R/report.json" --out "$R/docs"
	mesh_run 3 "$R" --hosts "$OUT/hosts2" --join-timeout 20s --ports torch
	lab_check "$1: 2 nodes end within 120 s" mesh_wait_all 2 "$R" 120
}
run_pair pair
M="$R/report.json"
CAUSES=$(jq -r '[.causes[] | "\(.kind):\(.node)"] | join(",")' "$M")
lab_check "pair: one root cause, the path at r2 [$CAUSES]" \
	test "$CAUSES" = "path:10.231.85.254"
LAB_OUT=$(jq -r '.causes[0].evidence[].fact' "$M")
lab_grep "pair: the path kept by the hop probe alone (no pair inside a subnet)" \
	'^a box on the path between the subnets: the hop probe .* from node03 toward node01.s 29500/tcp; node01.s responder answers at TTL 3: the reset comes at TTL 2'
cl_apply "$M" 10.231.85.254
lab_check "pair: the box's fix applied on r2 (two rules)" test "$CL_APPLIED" = 2
run_pair pairafter
cl_clean "$R/report.json" "$R" "pair: the box's fix on r2"
lab_done
