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
}

# the thread's fix: the MTU the switch carries
b48_fix() {
	for n in node02 node03; do
		ip -n "$(cl_ns "$n")" link set lan0 mtu 1500
	done
}

b48_main "$@"
