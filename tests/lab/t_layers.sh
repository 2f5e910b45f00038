# Layers lab: a Docker-shaped "container" namespace behind a bridge with
# nftables masquerade must read as bridge NAT (exit 1); the host namespace
# holding the bridge and a LAN host on a veth must not; bad input exits 2.
. "$(dirname "$0")/lib.sh"
lab_require nft
lab_ns H host
lab_ns C ctr
lab_ns B lan

# host: a docker0-style bridge 172.17.0.1/16 with masquerade, and a LAN leg
ip -n "$H" link add name docker0 type bridge
ip -n "$H" addr add 172.17.0.1/16 dev docker0
ip -n "$H" link set docker0 up
lab_veth "$C" eth0 "$H" vethc0
ip -n "$H" link set vethc0 master docker0
ip -n "$H" link set vethc0 up
lab_veth "$H" lan0 "$B" lan0
ip -n "$H" addr add 10.231.7.1/24 dev lan0
ip -n "$B" addr add 10.231.7.2/24 dev lan0
ip -n "$H" link set lan0 up
ip -n "$B" link set lan0 up
# the host's way out is a router that is not the subnet's first address
ip -n "$H" route add default via 10.231.7.254 dev lan0
ip netns exec "$H" sysctl -qw net.ipv4.ip_forward=1
ip netns exec "$H" nft -f - <<'NFT'
table ip np_nat {
	chain postrouting {
		type nat hook postrouting priority srcnat; policy accept;
		ip saddr 172.17.0.0/16 oifname != "docker0" masquerade
	}
}
NFT

# the container: eth0 172.17.0.2/16, default via the bridge's .1
ip -n "$C" addr add 172.17.0.2/16 dev eth0
ip -n "$C" link set eth0 up
ip -n "$C" route add default via 172.17.0.1
lab_check "masquerade rule in place" \
	sh -c "ip netns exec '$H' nft list table ip np_nat | grep -q masquerade"
lab_check "container's eth0 is up" lab_wait 30 \
	ip netns exec "$C" sh -c 'ip -br link show eth0 | grep -q " UP "'

lab_rc 1 "container: fault found" \
	ip netns exec "$C" "$NETPROBE" layers
lab_grep "container: bridge NAT" '^netmode +bridge-nat'
lab_grep "container: reach nat" '^reach +nat'
lab_grep "container: finding" 'container-bridge-nat'
lab_grep "container: veth evidence" 'eth0 is a veth whose peer is in another'
lab_grep "container: gateway evidence" \
	'gateway 172\.17\.0\.1 is the first address of 172\.17\.0\.0/16'
lab_rc 1 "container: json exits 1" \
	ip netns exec "$C" "$NETPROBE" layers --json
lab_grep "container: json netmode" '"netmode": "bridge-nat"'
lab_grep "container: json reach" '"reach": "nat"'
lab_grep "container: json finding" '"code": "container-bridge-nat"'

lab_rc 0 "host: no fault" ip netns exec "$H" "$NETPROBE" layers
lab_nogrep "host: no NAT finding" 'container-bridge-nat'
lab_nogrep "host: not bridge NAT" 'bridge-nat'
lab_grep "host: bridge listed" '^bridge +docker0: vethc0'

lab_rc 0 "LAN host without default route: no fault" \
	ip netns exec "$B" "$NETPROBE" layers
lab_nogrep "LAN host: no NAT finding" 'container-bridge-nat'
ip -n "$B" route add default via 10.231.7.254 dev lan0
lab_rc 0 "LAN host via a non-first gateway: no fault" \
	ip netns exec "$B" "$NETPROBE" layers
lab_nogrep "LAN host: still no NAT finding" 'bridge-nat'

lab_rc 2 "missing sysroot exits 2" "$NETPROBE" layers --sysroot /nonexistent-np
lab_grep "one-line error" "^netprobe layers: cannot use sysroot '/nonexistent-np'"
LAB_EMPTY=$(mktemp -d)
lab_rc 2 "sysroot with nothing readable exits 2" \
	"$NETPROBE" layers --sysroot "$LAB_EMPTY"
lab_grep "names the sysroot" "nothing readable in sysroot '$LAB_EMPTY'"
lab_rc 2 "same in json mode" "$NETPROBE" layers --json --sysroot "$LAB_EMPTY"
lab_grep "error in the document" '"step": "sysroot"'
rmdir "$LAB_EMPTY"
lab_rc 1 "recorded docker-bridge tree: fault" "$NETPROBE" layers \
	--sysroot "$(dirname "$0")/../fixtures/sysroot/docker-bridge"
lab_grep "recorded tree: bridge NAT" '^netmode +bridge-nat'
lab_rc 2 "unknown option exits 2" "$NETPROBE" layers --frobnicate
lab_rc 2 "missing value exits 2" "$NETPROBE" layers --sysroot
lab_rc 0 "help exits 0" "$NETPROBE" layers --help
lab_done
