# Blind cluster 06 of the second set (issue 48; truth.tsv row
# 06-macvlan-vepa): jpetazzo/pipework#239.
# node01 and node02 on switch sw; node03 and node04 are containers on host
# h3 (10.231.62.13 on its uplink eth0), each with a macvlan lan0 in VEPA
# mode on eth0; the switch, a Linux bridge, does not hairpin.
#   sh tests/gen/blind48b/06-macvlan-vepa.sh validate|judge
B48_ID=06-macvlan-vepa
LAB_ID=${LAB_ID:-62b06-$$}
. "$(dirname "$0")/lib48b.sh"

b48_build() {
	b48_switch sw 10.231.62.254/24
	for i in 1 2; do
		b48_box "node0$i"
		b48_port sw "node0$i" lan0 "10.231.62.$i/24" 10.231.62.254
		b48_member "node0$i" "10.231.62.$i"
	done
	b48_box h3
	b48_port sw h3 eth0 10.231.62.13/24 10.231.62.254
	_h=$(cl_ns h3)
	for i in 3 4; do
		b48_box "node0$i"
		_n=$(cl_ns "node0$i")
		ip -n "$_h" link add link eth0 name "mv$i" type macvlan mode vepa
		ip -n "$_h" link set "mv$i" netns "$_n"
		ip -n "$_n" link set "mv$i" name lan0
		ip -n "$_n" addr add "10.231.62.$i/24" dev lan0
		ip -n "$_n" link set lan0 up
		ip -n "$_n" route add default via 10.231.62.254
		b48_member "node0$i" "10.231.62.$i"
	done
}

# the thread's fix: the macvlans in bridge mode (pipework's default)
b48_fix() {
	for i in 3 4; do
		ip -n "$(cl_ns "node0$i")" link set lan0 type macvlan mode bridge
	done
}

b48_main "$@"
