# Blind cluster 04 of the third set (issue 48; truth.tsv row
# 04-ecmp-dead-nexthop): sonic-net/sonic-buildimage#8502,
# systemd/systemd#33470.
# Subnet A (10.231.84.0/24, switch swa: node01, node02) and subnet B
# (10.231.85.0/24, switch swb: node03, node04, node05) joined by routers
# rt1 (.251) and rt2 (.252). A's nodes reach B by an ECMP route over both;
# B reaches A via rt1. rt2 is powered off (its links down).
#   sh tests/gen/blind48c/04-ecmp-dead-nexthop.sh validate|judge
B48_ID=04-ecmp-dead-nexthop
LAB_ID=${LAB_ID:-811b48c04-$$}
. "$(dirname "$0")/lib48c.sh"

b48_build() {
	b48_switch swa
	b48_switch swb
	for r in 1 2; do
		b48_box "rt$r"
		b48_port swa "rt$r" eth0 "10.231.84.25$r/24"
		b48_port swb "rt$r" eth1 "10.231.85.25$r/24"
		ip netns exec "$(cl_ns "rt$r")" sysctl -qw net.ipv4.ip_forward=1
	done
	for i in 1 2; do
		b48_box "node0$i"
		b48_port swa "node0$i" lan0 "10.231.84.$i/24"
		ip -n "$(cl_ns "node0$i")" route add 10.231.85.0/24 \
			nexthop via 10.231.84.251 nexthop via 10.231.84.252
		b48_member "node0$i" "10.231.84.$i"
	done
	for i in 3 4 5; do
		b48_box "node0$i"
		b48_port swb "node0$i" lan0 "10.231.85.$i/24"
		ip -n "$(cl_ns "node0$i")" route add 10.231.84.0/24 via 10.231.85.251
		b48_member "node0$i" "10.231.85.$i"
	done
	# rt2 powered off
	ip -n "$(cl_ns rt2)" link set eth0 down
	ip -n "$(cl_ns rt2)" link set eth1 down
}

# the dead next hop withdrawn from the ECMP route on A's nodes
b48_fix() {
	for i in 1 2; do
		ip -n "$(cl_ns "node0$i")" route replace 10.231.85.0/24 via 10.231.84.251
	done
}

b48_main "$@"
