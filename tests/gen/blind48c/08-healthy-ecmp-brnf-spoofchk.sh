# Blind cluster 08 of the third set (issue 48; truth.tsv row
# 08-healthy-ecmp-brnf-spoofchk): rwth-i6/returnn#1621, healthy.
# Subnet A (10.231.90.0/24, switch swa: node01, node02) reaches subnet B
# (10.231.91.0/24, switch swb) by an ECMP route over two live routers rt1
# (.251) and rt2 (.252); B's nodes route A via rt1. In B, node03 and
# node04 are VMs on KVM host h4 (bridge br0, uplink to swb), which runs
# Docker (br_netfilter, forward policy drop) with DOCKER-USER accepting
# br0's own traffic, and the bridge CNI's macspoofchk with each VM's right
# MAC; node05 is on swb.
#   sh tests/gen/blind48c/08-healthy-ecmp-brnf-spoofchk.sh validate|judge
B48_ID=08-healthy-ecmp-brnf-spoofchk
LAB_ID=${LAB_ID:-811b48c08-$$}
. "$(dirname "$0")/lib48c.sh"

b48_build() {
	b48_switch swa
	b48_switch swb
	for r in 1 2; do
		b48_box "rt$r"
		b48_port swa "rt$r" eth0 "10.231.90.25$r/24"
		b48_port swb "rt$r" eth1 "10.231.91.25$r/24"
		ip netns exec "$(cl_ns "rt$r")" sysctl -qw net.ipv4.ip_forward=1
	done
	for i in 1 2; do
		b48_box "node0$i"
		b48_port swa "node0$i" lan0 "10.231.90.$i/24"
		ip -n "$(cl_ns "node0$i")" route add 10.231.91.0/24 \
			nexthop via 10.231.90.251 nexthop via 10.231.90.252
		b48_member "node0$i" "10.231.90.$i"
	done
	b48_box h4
	_h=$(cl_ns h4)
	ip -n "$_h" link add name br0 type bridge
	b48_port swb h4 eth0 10.231.91.14/24
	ip -n "$_h" addr del 10.231.91.14/24 dev eth0
	ip -n "$_h" link set eth0 master br0
	ip -n "$_h" addr add 10.231.91.14/24 dev br0
	ip -n "$_h" link set br0 up
	for i in 3 4; do
		b48c_vm h4 br0 "node0$i" "vnet$i" "10.231.91.$i/24" "52:54:00:91:00:0$i"
	done
	b48_box node05
	b48_port swb node05 lan0 10.231.91.5/24
	for i in 3 4 5; do
		ip -n "$(cl_ns "node0$i")" route add 10.231.90.0/24 via 10.231.91.251
		b48_member "node0$i" "10.231.91.$i"
	done
	ip -n "$_h" link add name docker0 type bridge
	ip -n "$_h" addr add 172.17.0.1/16 dev docker0
	ip -n "$_h" link set docker0 up
	ip netns exec "$_h" sysctl -qw net.ipv4.ip_forward=1
	ip netns exec "$_h" sysctl -qw net.bridge.bridge-nf-call-iptables=1
	ip netns exec "$_h" nft -f - <<'NFT'
table ip filter {
	chain DOCKER { }
	chain DOCKER-ISOLATION-STAGE-1 {
		iifname "docker0" oifname != "docker0" jump DOCKER-ISOLATION-STAGE-2
		return
	}
	chain DOCKER-ISOLATION-STAGE-2 {
		oifname "docker0" drop
		return
	}
	chain DOCKER-USER {
		iifname "br0" oifname "br0" accept
		return
	}
	chain FORWARD {
		type filter hook forward priority filter; policy drop;
		jump DOCKER-USER
		jump DOCKER-ISOLATION-STAGE-1
		oifname "docker0" ct state related,established accept
		oifname "docker0" jump DOCKER
		iifname "docker0" oifname != "docker0" accept
		iifname "docker0" oifname "docker0" accept
	}
}
table bridge nat {
	chain PREROUTING {
		type filter hook prerouting priority -300; policy accept;
		iifname "vnet3" jump cni-br-iface-vnet3
		iifname "vnet4" jump cni-br-iface-vnet4
	}
	chain cni-br-iface-vnet3 {
		jump cni-br-iface-vnet3-mac
	}
	chain cni-br-iface-vnet3-mac {
		ether saddr 52:54:00:91:00:03 return
		drop
	}
	chain cni-br-iface-vnet4 {
		jump cni-br-iface-vnet4-mac
	}
	chain cni-br-iface-vnet4-mac {
		ether saddr 52:54:00:91:00:04 return
		drop
	}
}
NFT
}

b48_main "$@"
