# Blind cluster 10 (issue 48; truth.tsv row 10-healthy-jumbo-docker0): huggingface/accelerate#314
# (a collective timeout from a long step on one rank; the network was
# healthy). Five nodes, jumbo frames end to end (every port of the switch
# and every lan0 at 9000), an idle docker0 with 172.17.0.1/16 on every
# node, IPv6 ULAs on lan0.
#   sh tests/gen/blind48/10-healthy-jumbo-docker0.sh validate|judge
B48_ID=10-healthy-jumbo-docker0
LAB_ID=${LAB_ID:-66b10-$$}
. "$(dirname "$0")/lib48.sh"

b48_build() {
	BR_MTU=9000 PORT_MTU=9000 b48_lan sw 48 5
	for i in 1 2 3 4 5; do
		_n=$(cl_ns "node0$i")
		ip -n "$_n" link add name docker0 type bridge
		ip -n "$_n" addr add 172.17.0.1/16 dev docker0
		ip -n "$_n" link set docker0 up
		ip -n "$_n" addr add "fd48::$i/64" dev lan0 nodad
	done
}

b48_fix() { :; }

b48_main "$@"
