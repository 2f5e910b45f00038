# Blind cluster 06 of the fourth set (issue 48; truth.tsv row
# 06-evpn-stale-remote-mac): FRRouting/frr#21473, #21472,
# sonic-net/sonic-buildimage#29700.
# Leaf switches leaf1 (10.231.107.1) and leaf2 (10.231.107.2) joined by
# VXLAN (VNI 100) over a direct underlay link, EVPN-style: nolearning, a
# flood entry toward the other leaf, each remote MAC as a static entry on
# vxlan0. Members 10.231.108.0/24: node01, node02 and node03 on leaf1,
# node04 on leaf2. node03 migrated from leaf2 to leaf1; leaf1 still holds
# its MAC as remote (toward leaf2).
#   sh tests/gen/blind48d/06-evpn-stale-remote-mac.sh validate|judge
B48_ID=06-evpn-stale-remote-mac
LAB_ID=${LAB_ID:-812b48d06-$$}
. "$(dirname "$0")/lib48d.sh"

b48_build() {
	b48_box leaf1
	b48_box leaf2
	lab_veth "$(cl_ns leaf1)" eth0 "$(cl_ns leaf2)" eth0
	for l in 1 2; do
		ip -n "$(cl_ns "leaf$l")" addr add "10.231.107.$l/24" dev eth0
		ip -n "$(cl_ns "leaf$l")" link set eth0 up
	done
	b48d_leaf leaf1 100 10.231.107.1 10.231.107.2
	b48d_leaf leaf2 100 10.231.107.2 10.231.107.1
	for i in 1 2 3; do
		b48d_leaf_port leaf1 "node0$i" "p$i" "10.231.108.$i/24" "52:54:00:6c:00:0$i"
		b48d_leaf_remote leaf2 "52:54:00:6c:00:0$i" 10.231.107.1
	done
	b48d_leaf_port leaf2 node04 p4 10.231.108.4/24 52:54:00:6c:00:04
	b48d_leaf_remote leaf1 52:54:00:6c:00:04 10.231.107.2
	# node03's entry from before it migrated: remote, toward leaf2
	b48d_leaf_remote leaf1 52:54:00:6c:00:03 10.231.107.2
	for i in 1 2 3 4; do
		b48_member "node0$i" "10.231.108.$i"
	done
}

# leaf1 forgets the stale remote entries of node03's MAC
b48_fix() {
	_l=$(cl_ns leaf1)
	bridge -n "$_l" fdb del 52:54:00:6c:00:03 dev vxlan0 master
	bridge -n "$_l" fdb del 52:54:00:6c:00:03 dev vxlan0 self
}

b48_main "$@"
