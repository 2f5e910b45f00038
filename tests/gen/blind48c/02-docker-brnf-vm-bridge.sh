# Blind cluster 02 of the third set (issue 48; truth.tsv row
# 02-docker-brnf-vm-bridge): docker/for-linux#949, harvester/harvester#841,
# seapath/ansible#909.
# node01 and node02 on switch sw; node03 and node04 are VMs bridged onto
# the LAN through KVM host h3's br0 (its uplink eth0, vnet3, vnet4), h3's
# own address on br0. h3 runs Docker: br_netfilter passes bridged frames
# through the forward chain, whose policy Docker set to drop.
#   sh tests/gen/blind48c/02-docker-brnf-vm-bridge.sh validate|judge
B48_ID=02-docker-brnf-vm-bridge
LAB_ID=${LAB_ID:-811b48c02-$$}
. "$(dirname "$0")/lib48c.sh"

b48_build() {
	b48_switch sw
	for i in 1 2; do
		b48_box "node0$i"
		b48_port sw "node0$i" lan0 "10.231.82.$i/24"
		b48_member "node0$i" "10.231.82.$i"
	done
	b48_box h3
	_h=$(cl_ns h3)
	ip -n "$_h" link add name br0 type bridge
	b48_port sw h3 eth0 10.231.82.13/24
	ip -n "$_h" addr del 10.231.82.13/24 dev eth0
	ip -n "$_h" link set eth0 master br0
	ip -n "$_h" addr add 10.231.82.13/24 dev br0
	ip -n "$_h" link set br0 up
	for i in 3 4; do
		b48c_vm h3 br0 "node0$i" "vnet$i" "10.231.82.$i/24" "52:54:00:82:00:0$i"
		b48_member "node0$i" "10.231.82.$i"
	done
	# Docker on h3: its bridge (no container), forwarding, br_netfilter,
	# and the filter table as dockerd writes it through iptables-nft
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
NFT
}

# Docker's documented fix: accept the bridge's own traffic in DOCKER-USER
b48_fix() {
	ip netns exec "$(cl_ns h3)" nft insert rule ip filter DOCKER-USER \
		iifname br0 oifname br0 accept
}

b48_main "$@"
