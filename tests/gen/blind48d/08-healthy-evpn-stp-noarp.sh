# Blind cluster 08 of the fourth set (issue 48; truth.tsv row
# 08-healthy-evpn-stp-noarp): k2-fsa/snowfall#152, healthy.
# Leaf switches leaf1 (10.231.114.1) and leaf2 (10.231.114.2) joined by
# VXLAN (VNI 200) EVPN-style, every remote MAC a static sticky entry that
# names the right leaf. Members 10.231.115.0/24: node01..node03 on leaf1,
# node04 on leaf2. node03 holds its address on its own bridge br0 with
# kernel STP on, lan0 forwarding; node02 has a second interface ipvs0
# (NOARP, down) holding a service address 10.231.116.10/32.
#   sh tests/gen/blind48d/08-healthy-evpn-stp-noarp.sh validate|judge
B48_ID=08-healthy-evpn-stp-noarp
LAB_ID=${LAB_ID:-812b48d08-$$}
. "$(dirname "$0")/lib48d.sh"

b48_build() {
	b48_box leaf1
	b48_box leaf2
	lab_veth "$(cl_ns leaf1)" eth0 "$(cl_ns leaf2)" eth0
	for l in 1 2; do
		ip -n "$(cl_ns "leaf$l")" addr add "10.231.114.$l/24" dev eth0
		ip -n "$(cl_ns "leaf$l")" link set eth0 up
	done
	b48d_leaf leaf1 200 10.231.114.1 10.231.114.2
	b48d_leaf leaf2 200 10.231.114.2 10.231.114.1
	for i in 1 2 3; do
		b48d_leaf_port leaf1 "node0$i" "p$i" "10.231.115.$i/24" "52:54:00:73:00:0$i"
		b48d_leaf_remote leaf2 "52:54:00:73:00:0$i" 10.231.114.1
	done
	b48d_leaf_port leaf2 node04 p4 10.231.115.4/24 52:54:00:73:00:04
	b48d_leaf_remote leaf1 52:54:00:73:00:04 10.231.114.2
	# node03: its address on br0 over lan0, kernel STP on (forward delay
	# 2 s); bounded wait until lan0 forwards
	_n=$(cl_ns node03)
	ip -n "$_n" addr del 10.231.115.3/24 dev lan0
	ip -n "$_n" link add name br0 type bridge stp_state 1 forward_delay 200
	ip -n "$_n" link set lan0 master br0
	ip -n "$_n" addr add 10.231.115.3/24 dev br0
	ip -n "$_n" link set br0 up
	lab_wait 150 sh -c "bridge -n '$_n' link show dev lan0 | grep -q 'state forwarding'"
	# node02: a NOARP interface, down, with a service address
	_n=$(cl_ns node02)
	ip -n "$_n" link add name ipvs0 type bridge
	ip -n "$_n" link set dev ipvs0 arp off
	ip -n "$_n" addr add 10.231.116.10/32 dev ipvs0
	for i in 1 2 3 4; do
		b48_member "node0$i" "10.231.115.$i"
	done
}

b48_fix() { :; }

b48_main "$@"
