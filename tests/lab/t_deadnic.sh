# Dead-training-NIC lab: node "larch" has mgmt0 on 10.231.130.0/24 (its
# default route) and train0 on the training network 10.231.131.0/24,
# where peer "aspen" runs the responder. When train0 loses its carrier
# (the far end of its link goes down), aspen cannot be reached because of
# larch's own link: host-unreachable with that cause, not "is netprobe
# serve running?"; when train0 is set down, the route falls back to mgmt0
# and the cause names train0 as down. With the link back, train0 is
# recommended again.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/closedloop.sh"
lab_require jq unshare

HN='hostname "$0"; exec "$@"'
T=$(mktemp -d)
trap 'kill $SV 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$T"; lab_cleanup' EXIT
SV=""

lab_ns L larch
lab_ns A aspen
lab_ns F fabric
lab_veth "$L" mgmt0 "$A" mgmt0
ip -n "$L" addr add 10.231.130.5/24 dev mgmt0
ip -n "$A" addr add 10.231.130.6/24 dev mgmt0
# the training fabric: a switch namespace between the two train0 links
ip -n "$F" link add name fab type bridge
ip -n "$F" link set fab up
lab_veth "$L" train0 "$F" fp1
lab_veth "$A" train0 "$F" fp2
for p in fp1 fp2; do
	ip -n "$F" link set "$p" master fab
	ip -n "$F" link set "$p" up
done
ip -n "$L" addr add 10.231.131.5/24 dev train0
ip -n "$A" addr add 10.231.131.6/24 dev train0
for h in "$L" "$A"; do
	ip -n "$h" link set mgmt0 up
	ip -n "$h" link set train0 up
done
ip -n "$L" route add default via 10.231.130.254
lab_hosts "$L" "127.0.0.1 localhost" "10.231.131.5 larch"
ip netns exec "$A" timeout 200 "$NETPROBE" serve >"$T/aspen.log" 2>&1 &
SV=$!
lab_check "responder on aspen up" lab_wait 50 \
	sh -c "ip netns exec $A ss -Hnlt 'sport = :7470' | grep -q ."
lab_check "larch reaches aspen on train0" lab_wait 50 \
	ip netns exec "$L" "$NETPROBE" heartbeat -c 1 -i 0 10.231.131.6

# (1) the far end of train0 goes down: no carrier on larch's train0
ip -n "$F" link set fp1 down
lab_check "train0 lost its carrier" lab_wait 30 \
	sh -c "ip -n $L link show train0 | grep -q NO-CARRIER"
lab_rc 1 "no carrier: exits 1" ip netns exec "$L" unshare --uts sh -c "$HN" \
	larch "$NETPROBE" scan --json --quick --peer 10.231.131.6
J=$LAB_OUT
LAB_OUT=$(jqv '.findings[] | select(.code == "host-unreachable") | "\(.severity) \(.summary)"')
lab_grep "no carrier: host-unreachable with the cause" \
	'^fault peer 10.231.131.6 cannot be reached: the route toward 10.231.131.6 leaves by train0, which has no carrier$'
LAB_OUT=$(jqv '.findings[] | select(.code == "host-unreachable") | .fix')
lab_grep "no carrier: the fix names train0" 'peer end of train0'
LAB_OUT=$(jqv '.findings[].code')
lab_grep "no carrier: interface-down too" '^interface-down$'
LAB_OUT=$(jqv '.errors[].message')
lab_nogrep "no carrier: no 'is netprobe serve running?'" 'netprobe serve. running'
lab_grep "no carrier: the error names the cause" 'not reached from here: .*train0, which has no carrier'
LAB_OUT=$(jqv '.recommendation.interface')
lab_grep "no carrier: no interface" '^null$'
lab_rc 1 "no carrier, text: exits 1" ip netns exec "$L" unshare --uts \
	sh -c "$HN" larch "$NETPROBE" scan --quick --peer 10.231.131.6
lab_grep "no carrier, text: the peer line names the cause" \
	'10\.231\.131\.6 +not reached: the route toward 10\.231\.131\.6 leaves by train0, which has no carrier'

# (2) train0 set down (its far end back up first, so that this is the
# one fault): its subnet's route is gone, mgmt0's default takes the peer
ip -n "$F" link set fp1 up
ip -n "$L" link set train0 down
lab_rc 1 "train0 down: exits 1" ip netns exec "$L" unshare --uts sh -c "$HN" \
	larch "$NETPROBE" scan --json --quick --peer 10.231.131.6
J=$LAB_OUT
mkdir -p "$T/before/docs" "$T/after/docs"
printf '%s\n' "$J" >"$T/before/docs/larch.json"
# no interface while the route leads where no host answers: settings that
# pinned mgmt0 would send the job where no peer is
LAB_OUT=$(jqv '.recommendation.interface')
lab_grep "train0 down: no interface recommended (mgmt0 reaches no peer)" '^null$'
LAB_OUT=$(jqv '.findings[] | select(.code == "host-unreachable") | "\(.summary) | \(.fix)"')
lab_grep "train0 down: the cause names train0" \
	'10.231.131.6 lies in 10.231.131.5/24 on train0, which is down, so the route toward it leaves by mgmt0 instead \| ip link set train0 up$'

# (3) the closed loop: the report over (2)'s scan makes the NIC set down
# a cause on larch whose command runs there verbatim; then train0 is
# recommended, nothing unreachable, the report passes
cl_ns() {
	[ "$1" = larch ] && printf '%s' "$L"
}
cl_report "$T/before"
LAB_OUT=$(cl_fixes "$T/before/report.json")
lab_grep "train0 down: the report's command" '^larch	shell	ip link set train0 up$'
lab_check "train0 down: the report prints no settings for larch" \
	test -z "$(cl_env "$T/before/report.json" larch)"
cl_apply "$T/before/report.json" larch
lab_check "train0 has its carrier again" lab_wait 50 \
	sh -c "ip -n $L -br link show train0 | grep -q ' UP '"
lab_check "aspen answers on train0 again" lab_wait 50 \
	ip netns exec "$L" "$NETPROBE" heartbeat -c 1 -i 0 10.231.131.6
lab_rc 0 "link back: exits 0" ip netns exec "$L" unshare --uts sh -c "$HN" \
	larch "$NETPROBE" scan --json --quick --peer 10.231.131.6
J=$LAB_OUT
printf '%s\n' "$J" >"$T/after/docs/larch.json"
echo 0 >"$T/after/larch.rc"
cl_report "$T/after"
# what stays is this two-NIC node's standing advice: pin train0 for Open
# MPI and NCCL (the default route is mgmt0's), which no report could print
# while train0 was down
CL_ALLOW="mpi-btl-iface nccl-default-iface-unsafe" \
	cl_clean "$T/after/report.json" "$T/after" "train0 down: the printed fix"
LAB_OUT=$(jqv '"\(.recommendation.interface) \([.findings[] | select(.code == "host-unreachable")] | length)"')
lab_grep "link back: train0 recommended, no host-unreachable" '^train0 0$'
lab_done
