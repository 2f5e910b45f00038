# Blind cluster 01 of the fourth set (issue 48; truth.tsv row
# 01-vxlan-vni-mismatch): k3s-io/k3s#9295, rancher/rke2#5995.
# Four nodes on switch sw (underlay 10.231.100.0/24, lan0) whose members'
# addresses are on a flannel-style VXLAN overlay (10.231.101.0/24): node01..
# node03 run flannel.1 (VNI 1, UDP 8472); node04's flannel ran with VNI
# 4096 (flannel.4096, UDP 8472). Each node holds the permanent neighbour
# and fdb entries of every peer, as flanneld writes them.
#   sh tests/gen/blind48d/01-vxlan-vni-mismatch.sh validate|judge
B48_ID=01-vxlan-vni-mismatch
LAB_ID=${LAB_ID:-812b48d01-$$}
. "$(dirname "$0")/lib48d.sh"

b48_build() {
	b48_switch sw
	for i in 1 2 3 4; do
		b48_box "node0$i"
		b48_port sw "node0$i" lan0 "10.231.100.$i/24"
	done
	for i in 1 2 3; do
		b48d_vtep "node0$i" flannel.1 1 8472 "0a:e7:65:00:00:0$i" \
			"10.231.100.$i" "10.231.101.$i/24"
	done
	b48d_vtep node04 flannel.4096 4096 8472 0a:e7:65:00:00:04 \
		10.231.100.4 10.231.101.4/24
	for i in 1 2 3; do
		b48d_vtep_peers "node0$i" flannel.1
	done
	b48d_vtep_peers node04 flannel.4096
	for i in 1 2 3 4; do
		b48_member "node0$i" "10.231.101.$i"
	done
}

# node04's overlay device again with the cluster's VNI, its MAC, address
# and the peers' entries
b48_fix() {
	_n=$(cl_ns node04)
	ip -n "$_n" link del flannel.4096
	ip -n "$_n" link add flannel.1 type vxlan id 1 local 10.231.100.4 \
		dev lan0 dstport 8472 nolearning
	ip -n "$_n" link set flannel.1 address 0a:e7:65:00:00:04
	ip -n "$_n" addr add 10.231.101.4/24 dev flannel.1
	ip -n "$_n" link set flannel.1 up
	b48d_vtep_peers node04 flannel.1
}

b48_main "$@"
