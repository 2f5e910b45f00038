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
	b48b_macvlan_pair vepa
}

# the thread's fix: the macvlans in bridge mode (pipework's default)
b48_fix() {
	for i in 3 4; do
		ip -n "$(cl_ns "node0$i")" link set lan0 type macvlan mode bridge
	done
}

b48_main "$@"
