# Blind cluster 07 of the second set (issue 48; truth.tsv row
# 07-healthy-static-neigh-ecn): NVIDIA/nccl#395 (not the network).
# Subnet A (node01, node02) and subnet B (node03, node04) behind router rt,
# which passes ECN; every node requests ECN, holds permanent neighbour
# entries (the right MACs) for its subnet's peers and its gateway, and is
# an LVS-DR real server (a VIP on lo, arp_ignore=1, arp_announce=2).
#   sh tests/gen/blind48b/07-healthy-static-neigh-ecn.sh validate|judge
B48_ID=07-healthy-static-neigh-ecn
LAB_ID=${LAB_ID:-62b07-$$}
. "$(dirname "$0")/lib48b.sh"

b48_build() {
	b48_switch swa
	b48_switch swb
	b48_box rt
	b48_port swa rt a0 10.231.62.254/24
	b48_port swb rt b0 10.231.63.254/24
	ip -n "$(cl_ns rt)" link set a0 address 02:62:07:00:62:fe
	ip -n "$(cl_ns rt)" link set b0 address 02:62:07:00:63:fe
	ip netns exec "$(cl_ns rt)" sysctl -qw net.ipv4.ip_forward=1
	for i in 1 2 3 4; do
		_net=62 _sw=swa
		[ "$i" -ge 3 ] && _net=63 _sw=swb
		b48_box "node0$i"
		_n=$(cl_ns "node0$i")
		ip netns exec "$_n" sysctl -qw net.ipv4.tcp_ecn=1 \
			net.ipv4.conf.all.arp_ignore=1 net.ipv4.conf.all.arp_announce=2
		b48_port "$_sw" "node0$i" lan0 "10.231.$_net.$i/24" "10.231.$_net.254"
		ip -n "$_n" link set lan0 address "02:62:07:00:$_net:0$i"
		ip -n "$_n" addr add 10.231.65.10/32 dev lo
		b48_member "node0$i" "10.231.$_net.$i"
	done
	# the hardening's static ARP: each node's subnet peers and gateway
	for i in 1 2 3 4; do
		_net=62
		[ "$i" -ge 3 ] && _net=63
		_n=$(cl_ns "node0$i")
		ip -n "$_n" neigh replace "10.231.$_net.254" \
			lladdr "02:62:07:00:$_net:fe" dev lan0 nud permanent
		for j in 1 2 3 4; do
			_jn=62
			[ "$j" -ge 3 ] && _jn=63
			[ "$j" != "$i" ] && [ "$_jn" = "$_net" ] || continue
			ip -n "$_n" neigh replace "10.231.$_net.$j" \
				lladdr "02:62:07:00:$_net:0$j" dev lan0 nud permanent
		done
	done
}

b48_fix() { :; }

b48_main "$@"
