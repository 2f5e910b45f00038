# Blind cluster 07 of the fourth set (issue 48; truth.tsv row
# 07-healthy-vni4096-fdb-isolated): NVIDIA-NeMo/Megatron-Bridge#5527,
# healthy.
# Underlay 10.231.110.0/24: node01 and node02 on switch sw; node03 and
# node04 are VMs on KVM host h3 (br0, uplink eth0 to sw) through vnet3
# (`isolated on`) and vnet4 (not isolated). Every node runs a flannel-style
# VXLAN device flannel.4096 (VNI 4096, UDP 4799: nonstandard, the same on
# every node) with the members' addresses (10.231.111.0/24) and permanent
# fdb entries naming each peer's right VTEP.
#   sh tests/gen/blind48d/07-healthy-vni4096-fdb-isolated.sh validate|judge
B48_ID=07-healthy-vni4096-fdb-isolated
LAB_ID=${LAB_ID:-812b48d07-$$}
. "$(dirname "$0")/lib48d.sh"

b48_build() {
	b48_switch sw
	for i in 1 2; do
		b48_box "node0$i"
		b48_port sw "node0$i" lan0 "10.231.110.$i/24"
	done
	b48_box h3
	_h=$(cl_ns h3)
	ip -n "$_h" link add name br0 type bridge
	b48_port sw h3 eth0 10.231.110.13/24
	ip -n "$_h" addr del 10.231.110.13/24 dev eth0
	ip -n "$_h" link set eth0 master br0
	ip -n "$_h" addr add 10.231.110.13/24 dev br0
	ip -n "$_h" link set br0 up
	for i in 3 4; do
		b48_box "node0$i"
		_v=$(cl_ns "node0$i")
		lab_veth "$_v" lan0 "$_h" "vnet$i"
		ip -n "$_v" link set lan0 address "52:54:00:6e:00:0$i"
		ip -n "$_h" link set "vnet$i" master br0
		ip -n "$_h" link set "vnet$i" up
		ip -n "$_v" addr add "10.231.110.$i/24" dev lan0
		ip -n "$_v" link set lan0 up
	done
	# one isolated port alone isolates nothing
	bridge -n "$_h" link set dev vnet3 isolated on
	for i in 1 2 3 4; do
		b48d_vtep "node0$i" flannel.4096 4096 4799 "0a:e7:6f:00:00:0$i" \
			"10.231.110.$i" "10.231.111.$i/24"
	done
	for i in 1 2 3 4; do
		b48d_vtep_peers "node0$i" flannel.4096
		b48_member "node0$i" "10.231.111.$i"
	done
}

b48_fix() { :; }

b48_main "$@"
