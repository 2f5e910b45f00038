# Blind cluster 04 of the fourth set (issue 48; truth.tsv row
# 04-bridge-port-stuck-learning): ipspace/netlab#2259,
# OpenNebula/one-deploy#290.
# Four nodes on switch sw (10.231.105.0/24). node03 holds its address on
# its own bridge br0 with its NIC lan0 as br0's port; STP is off (forward
# delay 0) and lan0 was left in the learning state.
#   sh tests/gen/blind48d/04-bridge-port-stuck-learning.sh validate|judge
B48_ID=04-bridge-port-stuck-learning
LAB_ID=${LAB_ID:-812b48d04-$$}
. "$(dirname "$0")/lib48d.sh"

b48_build() {
	b48_switch sw
	for i in 1 2 3 4; do
		b48_box "node0$i"
		b48_port sw "node0$i" lan0 "10.231.105.$i/24"
		b48_member "node0$i" "10.231.105.$i"
	done
	_n=$(cl_ns node03)
	ip -n "$_n" addr del 10.231.105.3/24 dev lan0
	# forward delay 0 (STP off): no forward-delay timer runs on the port
	# that could later move it out of the state it was left in
	ip -n "$_n" link add name br0 type bridge forward_delay 0
	ip -n "$_n" link set lan0 master br0
	ip -n "$_n" addr add 10.231.105.3/24 dev br0
	ip -n "$_n" link set br0 up
	# bounded wait for the port's own up (forwarding with STP off), then
	# the state a toggled STP left it in
	lab_wait 50 sh -c "bridge -n '$_n' link show dev lan0 | grep -q 'state forwarding'"
	bridge -n "$_n" link set dev lan0 state 2
}

# node03's port forwarding again
b48_fix() {
	bridge -n "$(cl_ns node03)" link set dev lan0 state 3
}

b48_main "$@"
