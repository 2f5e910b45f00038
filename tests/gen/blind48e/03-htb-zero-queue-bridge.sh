# Blind cluster 03 of the fifth set (issue 48; truth.tsv row
# 03-htb-zero-queue-bridge): kubernetes/kubernetes#25092,
# openshift/origin#11126.
# node01 and node02 on switch sw (10.231.128.0/24); node03 and node04 are
# pods (10.231.129.3, .4) on kubenet-style node h3 (10.231.128.13, cbr0
# 10.231.129.1/24), whose cbr0 carries htb with direct_qlen 0 and no class.
#   sh tests/gen/blind48e/03-htb-zero-queue-bridge.sh validate|judge
B48_ID=03-htb-zero-queue-bridge
LAB_ID=${LAB_ID:-813b48e03-$$}
. "$(dirname "$0")/lib48e.sh"

b48_build() {
	b48_switch sw
	for i in 1 2; do
		b48_box "node0$i"
		b48_port sw "node0$i" lan0 "10.231.128.$i/24"
		ip -n "$(cl_ns "node0$i")" route add 10.231.129.0/24 via 10.231.128.13
		b48_member "node0$i" "10.231.128.$i"
	done
	b48e_kubenet h3 sw 10.231.128.13/24 10.231.129.1/24
	for i in 3 4; do
		b48e_pod h3 "node0$i" "veth$i" "10.231.129.$i/24" 10.231.129.1 \
			"0a:58:0a:e7:81:0$i"
		b48_member "node0$i" "10.231.129.$i"
	done
	ip netns exec "$(cl_ns h3)" tc qdisc add dev cbr0 root handle 1: \
		htb direct_qlen 0
}

# the shaper removed from the pods' bridge
b48_fix() {
	ip netns exec "$(cl_ns h3)" tc qdisc del dev cbr0 root
}

b48_main "$@"
