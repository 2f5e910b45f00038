# Blind cluster 04 (issue 48; truth.tsv row 04-jumbo-switch): clustervision/trinity#437.
# Five nodes on a switch that carries 1500; node02 and node03 were set to
# jumbo frames (lan0 at 9000), the switch's ports were not.
#   sh tests/gen/blind48/04-jumbo-switch.sh validate|judge
B48_ID=04-jumbo-switch
LAB_ID=${LAB_ID:-66b04-$$}
. "$(dirname "$0")/lib48.sh"

b48_build() {
	b48_lan sw 48 5
	for n in node02 node03; do
		ip -n "$(cl_ns "$n")" link set lan0 mtu 9000
	done
	# every node's NIC puts wire-sized frames on the switch, as a real
	# one does (a veth with TSO hands the bridge super-packets that no
	# port's MTU check stops)
	for i in 1 2 3 4 5; do
		ip netns exec "$(cl_ns "node0$i")" "$B48_PY" \
			"$B48_DIR/nic_offload_off.py" lan0 || return 1
	done
}

# the thread's fix: the MTU the switch carries
b48_fix() {
	for n in node02 node03; do
		ip -n "$(cl_ns "$n")" link set lan0 mtu 1500
	done
}

b48_main "$@"
