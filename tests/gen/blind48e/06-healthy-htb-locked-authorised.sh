# Blind cluster 06 of the fifth set (issue 48; truth.tsv row
# 06-healthy-htb-locked-authorised): radixark/miles#3273, a job killed by
# its own timeout. Healthy: switch sw (10.231.134.0/24) where node02's port
# p2 is locked and holds node02's MAC as an authenticator adds it; pods
# node03 and node04 on kubenet-style node h3 (10.231.134.13, cbr0
# 10.231.135.1/24) whose cbr0 carries htb with a 1000-packet direct queue.
#   sh tests/gen/blind48e/06-healthy-htb-locked-authorised.sh validate|judge
B48_ID=06-healthy-htb-locked-authorised
LAB_ID=${LAB_ID:-813b48e06-$$}
. "$(dirname "$0")/lib48e.sh"

b48_build() {
	b48_switch sw
	for i in 1 2; do
		b48_box "node0$i"
		b48_port sw "node0$i" lan0 "10.231.134.$i/24"
		ip -n "$(cl_ns "node0$i")" route add 10.231.135.0/24 via 10.231.134.13
		b48_member "node0$i" "10.231.134.$i"
	done
	_s=$(cl_ns sw)
	ip -n "$(cl_ns node02)" link set lan0 address 52:54:00:e7:86:02
	bridge -n "$_s" link set dev p2 locked on
	ip -n "$_s" link set p2 down
	ip -n "$_s" link set p2 up
	bridge -n "$_s" fdb add 52:54:00:e7:86:02 dev p2 master static
	b48e_kubenet h3 sw 10.231.134.13/24 10.231.135.1/24
	for i in 3 4; do
		b48e_pod h3 "node0$i" "veth$i" "10.231.135.$i/24" 10.231.135.1 \
			"0a:58:0a:e7:87:0$i"
		b48_member "node0$i" "10.231.135.$i"
	done
	ip netns exec "$(cl_ns h3)" tc qdisc add dev cbr0 root handle 1: \
		htb direct_qlen 1000
}

b48_fix() {
	:
}

b48_main "$@"
