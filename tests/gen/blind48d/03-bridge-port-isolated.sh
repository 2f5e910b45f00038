# Blind cluster 03 of the fourth set (issue 48; truth.tsv row
# 03-bridge-port-isolated): containernetworking/plugins#1141, cni.dev#145,
# cocoonstack/cocoon#68, canonical/lxd#8234.
# node01 and node02 on switch sw (10.231.104.0/24); node03 and node04 are
# VMs on KVM host h3 (10.231.104.13 on br0, uplink eth0 to sw), bridged
# through vnet3 and vnet4, both `isolated on` (an attachment with
# portIsolation true).
#   sh tests/gen/blind48d/03-bridge-port-isolated.sh validate|judge
B48_ID=03-bridge-port-isolated
LAB_ID=${LAB_ID:-812b48d03-$$}
. "$(dirname "$0")/lib48d.sh"

b48_build() {
	b48_switch sw
	for i in 1 2; do
		b48_box "node0$i"
		b48_port sw "node0$i" lan0 "10.231.104.$i/24"
		b48_member "node0$i" "10.231.104.$i"
	done
	b48_box h3
	_h=$(cl_ns h3)
	ip -n "$_h" link add name br0 type bridge
	b48_port sw h3 eth0 10.231.104.13/24
	ip -n "$_h" addr del 10.231.104.13/24 dev eth0
	ip -n "$_h" link set eth0 master br0
	ip -n "$_h" addr add 10.231.104.13/24 dev br0
	ip -n "$_h" link set br0 up
	for i in 3 4; do
		b48c_vm h3 br0 "node0$i" "vnet$i" "10.231.104.$i/24" "52:54:00:68:00:0$i"
		bridge -n "$_h" link set dev "vnet$i" isolated on
		b48_member "node0$i" "10.231.104.$i"
	done
}

# the VM ports no longer isolated
b48_fix() {
	bridge -n "$(cl_ns h3)" link set dev vnet3 isolated off
	bridge -n "$(cl_ns h3)" link set dev vnet4 isolated off
}

b48_main "$@"
