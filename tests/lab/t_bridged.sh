# Bridged-container lab (LXC or Proxmox style): host "pve" bridges its
# uplink eno1 and the container's veth into vmbr0, so container "ct101"
# sits on the LAN itself, 10.231.91.0/24, with the LAN's .1 as gateway.
# Its layering looks like a NAT'd bridge (eth0 a veth to another
# namespace, the gateway the subnet's .1): without peers that guess is
# container-bridge-nat, a fault. Peers "fir" and "elm" see the
# container's own address and connect back: the measurement wins, the
# guess becomes info with both facts, eth0 is recommended, exit 0. A peer
# without a responder (the host "pve") measures nothing: the guess stands.
. "$(dirname "$0")/lib.sh"
lab_require nft jq unshare

HN='hostname "$0"; exec "$@"'
T=$(mktemp -d)
trap 'kill $SV1 $SV2 2>/dev/null; rm -rf "$T"; lab_cleanup' EXIT
SV1="" SV2=""

lab_ns W lan
lab_ns H pve
lab_ns C ct101
lab_ns F fir
lab_ns E elm
ip -n "$W" link add name lanbr type bridge
ip -n "$W" link set lanbr up
# the host: eno1 (uplink) and the container's veth in vmbr0
lab_veth "$H" eno1 "$W" swp1
ip -n "$H" link add name vmbr0 type bridge
ip -n "$H" link set eno1 master vmbr0
ip -n "$H" addr add 10.231.91.10/24 dev vmbr0
lab_veth "$C" eth0 "$H" veth101i0
ip -n "$H" link set veth101i0 master vmbr0
for l in eno1 vmbr0 veth101i0; do ip -n "$H" link set "$l" up; done
ip -n "$C" addr add 10.231.91.20/24 dev eth0
ip -n "$C" link set eth0 up
ip -n "$C" route add default via 10.231.91.1
# the peers on the LAN
n=2
for p in "$F" "$E"; do
	lab_veth "$p" lan0 "$W" "swp$n"
	ip -n "$p" addr add "10.231.91.3$n/24" dev lan0
	ip -n "$p" link set lan0 up
	n=$((n + 1))
done
for s in swp1 swp2 swp3; do
	ip -n "$W" link set "$s" master lanbr
	ip -n "$W" link set "$s" up
done
lab_hosts "$C" "127.0.0.1 localhost" "10.231.91.20 ct101"
ip netns exec "$F" timeout 200 "$NETPROBE" serve >"$T/fir.log" 2>&1 &
SV1=$!
ip netns exec "$E" timeout 200 "$NETPROBE" serve >"$T/elm.log" 2>&1 &
SV2=$!
for p in "$F" "$E"; do
	lab_check "responder in $p up" lab_wait 50 \
		sh -c "ip netns exec $p ss -Hnlt 'sport = :7470' | grep -q ."
done
lab_check "the container reaches fir through the bridges" lab_wait 50 \
	ip netns exec "$C" "$NETPROBE" heartbeat -c 1 -i 0 10.231.91.32

# without peers: the layering's guess is all there is
lab_rc 1 "no peer: exits 1" ip netns exec "$C" unshare --uts sh -c "$HN" \
	ct101 "$NETPROBE" scan --json
J=$LAB_OUT
LAB_OUT=$(jqv '.layers.netmode')
lab_grep "no peer: the layering guesses a NAT'd bridge" '^bridge-nat$'
LAB_OUT=$(jqv '.findings[] | select(.code == "container-bridge-nat") | .severity')
lab_grep "no peer: container-bridge-nat is a fault" '^fault$'

# two peers measure a direct path: the guess becomes info
lab_rc 0 "two peers: exits 0" ip netns exec "$C" unshare --uts sh -c "$HN" \
	ct101 "$NETPROBE" scan --json --peer 10.231.91.32 --peer 10.231.91.33
J=$LAB_OUT
LAB_OUT=$(jqv '.findings[] | select(.code == "container-bridge-nat") | .severity')
lab_grep "two peers: container-bridge-nat is info" '^info$'
LAB_OUT=$(jqv '.findings[] | select(.code == "container-bridge-nat") | .evidence[].fact')
lab_grep "two peers: the layering's fact kept" 'veth|gateway'
lab_grep "two peers: fir's measurement" \
	'peer 10.231.91.32 saw this node as 10.231.91.20, its own source address'
lab_grep "two peers: elm's measurement" 'peer 10.231.91.33 saw this node'
LAB_OUT=$(jqv '[.findings[] | select(.severity == "fault") | .code] | join(" ")')
lab_check "two peers: no fault ($LAB_OUT)" test -z "$LAB_OUT"
LAB_OUT=$(jqv '"\(.recommendation.interface) \(.recommendation.address)"')
lab_grep "two peers: eth0 recommended" '^eth0 10.231.91.20$'
LAB_OUT=$(jqv '.recommendation.reasons[]')
lab_grep "two peers: the reason says the measurement won" \
	'layering suggested NAT, but every peer saw'

# text output names the info
lab_rc 0 "text: exits 0" ip netns exec "$C" unshare --uts sh -c "$HN" \
	ct101 "$NETPROBE" scan --quick --peer 10.231.91.32
lab_grep "text: info container-bridge-nat" '^  info +container-bridge-nat: the layering suggested'

# a peer without a responder (the host itself: nothing listens on 7470)
# measured nothing: the guess stands
lab_rc 1 "no responder: exits 1" ip netns exec "$C" unshare --uts sh -c "$HN" \
	ct101 "$NETPROBE" scan --json --quick --peer 10.231.91.10
J=$LAB_OUT
LAB_OUT=$(jqv '.findings[] | select(.code == "container-bridge-nat") | .severity')
lab_grep "no responder: container-bridge-nat stays a fault" '^fault$'
LAB_OUT=$(jqv '.peers[0].responded')
lab_grep "no responder: the peer did not answer" '^false$'
lab_done
