# netprobe explain proves the causes of logs on the lab node that wrote
# them: host "dock" runs a Docker-like bridge (172.17.0.1/16 and
# 10.231.94.1/24, masqueraded onto the LAN 10.231.92.0/24) with container
# "ctr" at 172.17.0.2 and Ray worker "wrk" at 10.231.94.2 behind it; "head"
# (10.231.92.2) runs the responder; "gloo" resolves its hostname to
# 127.0.1.1. Each case's log is explained on its node: the cause is proved
# there and the fix printed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/explain_lib.sh"
lab_require nft jq unshare

HERE=$(cd "$(dirname "$0")/../explain" && pwd)
explain_lab_init
lab_ns D dock
lab_ns C ctr
lab_ns R wrk
lab_ns P head
lab_ns G gloo
explain_lan "$D" "$P" "$G"
ip -n "$D" addr add 10.231.92.1/24 dev lan0
ip -n "$P" addr add 10.231.92.2/24 dev lan0
ip -n "$G" addr add 10.231.92.3/24 dev lan0
# the Docker-like host: docker0 with the container's and the worker's veths
ip -n "$D" link add name docker0 type bridge
ip -n "$D" addr add 172.17.0.1/16 dev docker0
ip -n "$D" addr add 10.231.94.1/24 dev docker0
ip -n "$D" link set docker0 up
lab_veth "$C" eth0 "$D" vethc
lab_veth "$R" eth0 "$D" vethr
for v in vethc vethr; do
	ip -n "$D" link set "$v" master docker0
	ip -n "$D" link set "$v" up
done
ip -n "$C" addr add 172.17.0.2/16 dev eth0
ip -n "$C" link set eth0 up
ip -n "$C" route add default via 172.17.0.1
ip -n "$R" addr add 10.231.94.2/24 dev eth0
ip -n "$R" link set eth0 up
ip -n "$R" route add default via 10.231.94.1
ip netns exec "$D" sysctl -qw net.ipv4.ip_forward=1
ip netns exec "$D" nft -f - <<'NFT'
table ip np_nat {
	chain post {
		type nat hook postrouting priority 100;
		oifname "lan0" masquerade
	}
}
NFT
lab_hosts "$G" "127.0.0.1 localhost" "127.0.1.1 gnode"
explain_serve "$P" head head
lab_check "the worker reaches head through the NAT" lab_wait 50 \
	ip netns exec "$R" "$NETPROBE" heartbeat -c 1 -i 0 10.231.92.2

# 1. NCCL connecting to a Docker bridge address: explained in the container
# the log names node1, 10.231.0.1 and 172.17.0.2, an address of every
# Docker host's pool that names no one host (issue 42): --here says the
# container is the node the log is about
lab_rc 1 "docker bridge: exits 1" ip netns exec "$C" "$NETPROBE" explain \
	--here --json "$HERE/nccl219-docker-bridge-timeout.log"
J=$LAB_OUT
LAB_OUT=$(jqv '.causes[] | select(.code == "container-bridge-nat") | .state')
lab_grep "docker bridge: container-bridge-nat proved on the node" \
	'^proved here$'
lab_rc 1 "docker bridge: text" ip netns exec "$C" "$NETPROBE" explain \
	--here "$HERE/nccl219-docker-bridge-timeout.log"
lab_grep "docker bridge: the fix is printed" 'fix: run the container with --network host'

# 2. Gloo on 127.0.1.1: explained on the node whose hostname maps there;
# the log names no host (a loopback address names none), so --here says
# it is this node's (issue 42)
lab_rc 1 "gloo 127.0.1.1: exits 1" ip netns exec "$G" unshare --uts sh -c \
	'hostname gnode; exec "$@"' sh "$NETPROBE" explain --here --json \
	"$HERE/gloo-127011.log"
J=$LAB_OUT
LAB_OUT=$(jqv '.causes[] | select(.code == "hostname-loopback") | .state')
lab_grep "gloo 127.0.1.1: hostname-loopback proved on the node" \
	'^proved here$'
LAB_OUT=$(jqv '.causes[] | select(.code == "hostname-loopback") | .fix')
lab_grep "gloo 127.0.1.1: the fix" 'GLOO_SOCKET_IFNAME|/etc/hosts'

# 3. A Ray worker marked dead behind NAT: the log names the head (ray
# start --address); the worker probes it and the head sees the NAT
cat >"$T/ray.log" <<'LOG'
Local node IP: 10.231.94.2
  ray start --address='10.231.92.2:6379'
(raylet) The node with node id: 0a1b2c3d4e5f and address: 10.231.94.2 and node name: wrk has been marked dead because the detector has missed too many heartbeats from it.
LOG
lab_rc 1 "ray behind NAT: exits 1" ip netns exec "$R" "$NETPROBE" explain \
	--json "$T/ray.log"
J=$LAB_OUT
LAB_OUT=$(jqv '[.causes[] | select(.state == "proved here") | .code] | join(" ")')
lab_grep "ray behind NAT: the NAT proved from the worker ($LAB_OUT)" \
	'nat-detected|container-bridge-nat|inbound-blocked'
LAB_OUT=$(jqv '.measured.notes[]')
lab_grep "ray behind NAT: head probed" 'probed 10.231.92.2'

# 4. the log alone: nothing measured; a Docker-pool address alone is no
# proof (issue 32), so the cause stays a candidate with its command
lab_rc 0 "no-probe: exits 0 (nothing decided)" ip netns exec "$C" \
	"$NETPROBE" explain --no-probe --json \
	"$HERE/nccl219-docker-bridge-timeout.log"
J=$LAB_OUT
LAB_OUT=$(jqv '[.undecided[].codes[]] | join(" ")')
lab_grep "no-probe: container-bridge-nat left open" 'container-bridge-nat'
LAB_OUT=$(jqv '.undecided[0].next')
lab_grep "no-probe: the deciding command" 'netprobe layers'
lab_done
