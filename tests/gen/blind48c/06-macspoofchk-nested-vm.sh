# Blind cluster 06 of the third set (issue 48; truth.tsv row
# 06-macspoofchk-nested-vm): stormshift/automation#85.
# node01 and node02 on switch sw; host h3 bridges its VMs onto the LAN
# through br1 with the bridge CNI's macspoofchk (nft table bridge nat: a
# VM's port accepts only that VM's MAC as source). node04 is a VM on h3;
# node03 is a VM nested inside VM vm3 (bridged through vm3's br-nest).
#   sh tests/gen/blind48c/06-macspoofchk-nested-vm.sh validate|judge
B48_ID=06-macspoofchk-nested-vm
LAB_ID=${LAB_ID:-811b48c06-$$}
. "$(dirname "$0")/lib48c.sh"

b48_build() {
	b48_switch sw
	for i in 1 2; do
		b48_box "node0$i"
		b48_port sw "node0$i" lan0 "10.231.87.$i/24"
	done
	b48_box h3
	_h=$(cl_ns h3)
	ip -n "$_h" link add name br1 type bridge
	b48_port sw h3 eth0 10.231.87.13/24
	ip -n "$_h" addr del 10.231.87.13/24 dev eth0
	ip -n "$_h" link set eth0 master br1
	ip -n "$_h" addr add 10.231.87.13/24 dev br1
	ip -n "$_h" link set br1 up
	# vm3: a VM whose eth0 is a port of its own bridge br-nest, which
	# carries vm3's address and the nested VM node03
	b48c_vm h3 br1 vm3 vnet3 10.231.87.23/24 52:54:00:87:00:23
	_v=$(cl_ns vm3)
	ip -n "$_v" addr del 10.231.87.23/24 dev eth0
	ip -n "$_v" link add name br-nest type bridge
	ip -n "$_v" link set br-nest address 52:54:00:87:00:23
	ip -n "$_v" link set eth0 master br-nest
	ip -n "$_v" addr add 10.231.87.23/24 dev br-nest
	ip -n "$_v" link set br-nest up
	b48c_vm vm3 br-nest node03 vnet0 10.231.87.3/24 52:54:00:87:01:03
	b48c_vm h3 br1 node04 vnet4 10.231.87.4/24 52:54:00:87:00:04
	for i in 1 2 3 4; do
		b48_member "node0$i" "10.231.87.$i"
	done
	# the bridge CNI's MAC spoof check on h3, one chain per VM port
	ip netns exec "$_h" nft -f - <<'NFT'
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
		ether saddr 52:54:00:87:00:23 return
		drop
	}
	chain cni-br-iface-vnet4 {
		jump cni-br-iface-vnet4-mac
	}
	chain cni-br-iface-vnet4-mac {
		ether saddr 52:54:00:87:00:04 return
		drop
	}
}
NFT
}

# the thread's fix: "macspoofchk": false (the check's table gone)
b48_fix() {
	ip netns exec "$(cl_ns h3)" nft delete table bridge nat
}

b48_main "$@"
