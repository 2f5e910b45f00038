# An MTU black hole: gpu-a and gpu-b (MTU 1500) are joined by a router
# whose link toward gpu-b carries only 1400-byte packets, and whose
# ICMP fragmentation-needed is dropped (a firewall that drops all ICMP).
# The handshake and small messages cross; full-size TCP segments vanish,
# so the store and the 1 KB all_reduce work and the larger ones stall.
# netprobe's path MTU search (scan --peer) finds the size that crosses
# and names the MTU; set on both nodes, both frameworks work.
E2E_NAME=mtu-blackhole
. "$(dirname "$0")/lib.sh"
e2e_require

lab_ns R r
e2e_node A a gpu-a
e2e_node B b gpu-b
lab_veth "$A" eth0 "$R" ra
lab_veth "$R" rb "$B" eth0
ip -n "$A" addr add 10.231.90.1/24 dev eth0
ip -n "$R" addr add 10.231.90.254/24 dev ra
ip -n "$R" addr add 10.231.91.254/24 dev rb
ip -n "$B" addr add 10.231.91.2/24 dev eth0
ip -n "$R" link set rb mtu 1400
for l in "$A eth0" "$R ra" "$R rb" "$B eth0"; do
	set -- $l
	ip -n "$1" link set "$2" up
done
ip -n "$A" route add default via 10.231.90.254
ip -n "$B" route add default via 10.231.91.254
ip netns exec "$R" sysctl -qw net.ipv4.ip_forward=1
ip netns exec "$R" nft -f - <<'NFT'
table inet e2e_blackhole {
	chain e2e_out {
		type filter hook output priority 0;
		icmp type destination-unreachable icmp code frag-needed drop
	}
	chain e2e_fwd {
		type filter hook forward priority 0;
		icmp type destination-unreachable icmp code frag-needed drop
	}
}
NFT
for n in "$A" "$B"; do
	lab_hosts "$n" "127.0.0.1 localhost" "10.231.90.1 gpu-a" \
		"10.231.91.2 gpu-b"
done
e2e_ranks 10.231.90.1 "$A" "$B"

e2e_frameworks before
e2e_serve "$A" "$B"
e2e_scans "$A=10.231.91.2" "$B=10.231.90.1"
e2e_report
# the hop's workaround: a route MTU on each end
E2E_FAULTY="gpu-a gpu-b"
e2e_fix_all
e2e_frameworks after
e2e_row "gpu-a and gpu-b routed through a 1400-byte link whose ICMP frag-needed is dropped." 0
lab_done
