# Overlapping-pool lab: node "birch" is on the LAN 10.231.96.0/21 by eth1,
# has a host-only link eth0 (10.231.120.0/24), and a Docker-style network
# br-5e1f whose pool 10.231.98.0/24 lies inside the LAN, with one
# container on it. Peer "cedar" (10.231.98.7) is on the LAN but birch's
# route toward it is captured by the pool: overlapping-subnets is a fault
# with both prefixes and the route, its fix names eth1 (never the bridge),
# and cedar unanswered is host-unreachable with that cause, not "is
# netprobe serve running?". Peer "maple" (10.231.96.9) is routed by eth1:
# the overlap is a warning whose fix names eth1. Settings are checked
# against maple: NCCL_SOCKET_IFNAME=eth (eth0 first) and
# GLOO_SOCKET_IFNAME=eth0 select the host-only link, from which maple does
# not answer: rank-unreachable, fixed with eth1; the overmatch fix names
# eth1 too; settings already on eth1 raise nothing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/closedloop.sh"
lab_require jq unshare

HN='hostname "$0"; exec "$@"'
T=$(mktemp -d)
trap 'kill $SV1 $SV2 2>/dev/null; rm -rf "$T"; lab_cleanup' EXIT
SV1="" SV2=""

lab_ns W lan
lab_ns B birch
lab_ns M maple
lab_ns D cedar
lab_ns K ctr
lab_ns X hostonly
ip -n "$W" link add name lanbr type bridge
ip -n "$W" link set lanbr up
n=1
for h in "$B" "$M" "$D"; do
	_if=lan0
	[ "$h" = "$B" ] && _if=eth1
	lab_veth "$h" "$_if" "$W" "swp$n"
	ip -n "$W" link set "swp$n" master lanbr
	ip -n "$W" link set "swp$n" up
	ip -n "$h" link set "$_if" up
	n=$((n + 1))
done
ip -n "$B" addr add 10.231.96.5/21 dev eth1
ip -n "$M" addr add 10.231.96.9/21 dev lan0
ip -n "$D" addr add 10.231.98.7/21 dev lan0
# the host-only link
lab_veth "$B" eth0 "$X" eth0
ip -n "$B" addr add 10.231.120.1/24 dev eth0
ip -n "$X" addr add 10.231.120.2/24 dev eth0
ip -n "$B" link set eth0 up
ip -n "$X" link set eth0 up
# the pool: a bridge with one container, its prefix inside the LAN's
ip -n "$B" link add name br-5e1f type bridge
ip -n "$B" addr add 10.231.98.1/24 dev br-5e1f
lab_veth "$K" eth0 "$B" veth5e1f
ip -n "$B" link set veth5e1f master br-5e1f
ip -n "$B" link set veth5e1f up
ip -n "$B" link set br-5e1f up
ip -n "$K" addr add 10.231.98.2/24 dev eth0
ip -n "$K" link set eth0 up
lab_hosts "$B" "127.0.0.1 localhost" "10.231.96.5 birch"
ip netns exec "$M" timeout 200 "$NETPROBE" serve >"$T/maple.log" 2>&1 &
SV1=$!
ip netns exec "$D" timeout 200 "$NETPROBE" serve >"$T/cedar.log" 2>&1 &
SV2=$!
for p in "$M" "$D"; do
	lab_check "responder in $p up" lab_wait 50 \
		sh -c "ip netns exec $p ss -Hnlt 'sport = :7470' | grep -q ."
done
lab_check "birch reaches maple" lab_wait 50 \
	ip netns exec "$B" "$NETPROBE" heartbeat -c 1 -i 0 10.231.96.9
lab_check "cedar answers on the LAN (from maple)" lab_wait 50 \
	ip netns exec "$M" "$NETPROBE" heartbeat -c 1 -i 0 10.231.98.7
lab_check "the pool's bridge has carrier" lab_wait 30 \
	sh -c "ip -n $B -br link show br-5e1f | grep -q ' UP '"

# (1) cedar: the pool captures the route
lab_rc 1 "cedar: exits 1" ip netns exec "$B" unshare --uts sh -c "$HN" birch \
	"$NETPROBE" scan --json --quick --peer 10.231.98.7
J=$LAB_OUT
LAB_OUT=$(jqv '.findings[] | select(.code == "overlapping-subnets" and .severity == "fault") | .summary')
lab_grep "cedar: overlapping-subnets is a fault" \
	'10.231.98.1/24 on br-5e1f overlaps 10.231.96.5/21 on eth1 and captures the route toward peer 10.231.98.7'
LAB_OUT=$(jqv '.findings[] | select(.code == "overlapping-subnets" and .severity == "fault") | .evidence[].fact')
lab_grep "cedar: the pool's prefix" '^br-5e1f has 10.231.98.1/24$'
lab_grep "cedar: the LAN's prefix" '^eth1 has 10.231.96.5/21$'
lab_grep "cedar: the route" 'route toward peer 10.231.98.7 \(10.231.98.7\) leaves by br-5e1f'
LAB_OUT=$(jqv '.findings[] | select(.code == "overlapping-subnets") | .fix')
lab_grep "cedar: the fix names eth1" 'leaves by eth1; then use eth1'
lab_nogrep "cedar: the fix never pins the bridge" 'pin br-'
LAB_OUT=$(jqv '.findings[] | select(.code == "host-unreachable") | "\(.severity) \(.summary)"')
lab_grep "cedar: host-unreachable with the cause" \
	'^fault peer 10.231.98.7 cannot be reached: the route toward 10.231.98.7 leaves by br-5e1f, which is a bridge whose only members are veths'
LAB_OUT=$(jqv '.errors[].message')
lab_nogrep "cedar: no 'is netprobe serve running?'" 'netprobe serve. running'
lab_grep "cedar: the error names the cause" 'not reached from here: .*br-5e1f'
LAB_OUT=$(jqv '.recommendation.interface')
lab_grep "cedar: no interface while the route is captured" '^null$'

# (2) maple: routed by eth1, the overlap is a warning naming eth1
lab_rc 0 "maple: exits 0" ip netns exec "$B" unshare --uts sh -c "$HN" birch \
	"$NETPROBE" scan --json --quick --peer 10.231.96.9
J=$LAB_OUT
LAB_OUT=$(jqv '.findings[] | select(.code == "overlapping-subnets") | "\(.severity) \(.fix)"')
lab_grep "maple: overlapping-subnets a warning, fix names eth1" \
	'^warning .*leaves by eth1, the recommended interface'
lab_nogrep "maple: no fault for the overlap" '^fault'
LAB_OUT=$(jqv '.recommendation.interface')
lab_grep "maple: eth1 recommended" '^eth1$'

# (3) settings on the host-only link
lab_rc 1 "host-only settings: exits 1" env NCCL_SOCKET_IFNAME=eth \
	GLOO_SOCKET_IFNAME=eth0 sh -c "ip netns exec $B unshare --uts sh -c '$HN' birch $NETPROBE scan --json --quick --peer 10.231.96.9"
J=$LAB_OUT
LAB_OUT=$(jqv '.findings[] | select(.code == "rank-unreachable") | .summary')
lab_grep "host-only: NCCL_SOCKET_IFNAME rank-unreachable" \
	'^NCCL_SOCKET_IFNAME=eth selects eth0, from which peer 10.231.96.9 does not answer'
lab_grep "host-only: GLOO_SOCKET_IFNAME rank-unreachable" \
	'^GLOO_SOCKET_IFNAME=eth0 selects eth0, from which peer 10.231.96.9 does not answer'
LAB_OUT=$(jqv '.findings[] | select(.code == "rank-unreachable") | .evidence[].fact')
lab_grep "host-only: the measurement as evidence" \
	'a connection from 10.231.120.1 \(eth0\) to 10.231.96.9 port 7470 got no answer'
LAB_OUT=$(jqv '.findings[] | select(.code == "rank-unreachable" or .code == "nccl-ifname-overmatch") | .fix')
lab_grep "host-only: fixes name eth1" 'NCCL_SOCKET_IFNAME==eth1'
lab_grep "host-only: Gloo's fix names eth1" 'GLOO_SOCKET_IFNAME=eth1'
lab_nogrep "host-only: no fix names eth0" 'eth0'
LAB_OUT=$(jqv '.peers[0].reach_from[] | "\(.interface) \(.answered)"')
lab_grep "host-only: reach_from recorded" '^eth0 false$'

# (4) the closed loop: the report over (3)'s scan prints the settings
# (NCCL_SOCKET_IFNAME, GLOO_SOCKET_IFNAME...) for birch; the job sources
# exactly those after its own, the same scan again raises nothing but
# the overlap, whose fix (a netmask or a route metric) is no command
mkdir -p "$T/before/docs" "$T/after/docs"
printf '%s\n' "$J" >"$T/before/docs/birch.json"
cl_report "$T/before"
cl_env "$T/before/report.json" birch >"$T/settings"
LAB_OUT=$(cat "$T/settings")
lab_grep "the report prints eth1 for NCCL" "^export NCCL_SOCKET_IFNAME='=eth1'$"
lab_grep "and for Gloo" "^export GLOO_SOCKET_IFNAME='eth1'$"
lab_rc 0 "settings as printed: exits 0" env NCCL_SOCKET_IFNAME=eth \
	GLOO_SOCKET_IFNAME=eth0 ip netns exec "$B" unshare --uts sh -c \
	'hostname "$0"; . "$1"; shift; exec "$@"' birch "$T/settings" \
	"$NETPROBE" scan --json --quick --peer 10.231.96.9
J=$LAB_OUT
printf '%s\n' "$J" >"$T/after/docs/birch.json"
echo 0 >"$T/after/birch.rc"
cl_report "$T/after"
CL_ALLOW=overlapping-subnets cl_clean "$T/after/report.json" "$T/after" \
	"the printed settings"
LAB_OUT=$(jqv '.findings[].code')
lab_nogrep "settings as printed: no rank-unreachable" '^rank-unreachable$'
lab_nogrep "settings as printed: no nccl-default-iface-unsafe" \
	'^nccl-default-iface-unsafe$'
lab_nogrep "settings as printed: no overmatch" '^nccl-ifname-overmatch$'
LAB_OUT=$(jqv '.nccl_default.why')
lab_grep "settings as printed: NCCL's own choice does not apply" 'already selects eth1'
lab_done
