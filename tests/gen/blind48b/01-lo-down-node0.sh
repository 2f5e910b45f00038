# Blind cluster 01 of the second set (issue 48; truth.tsv row
# 01-lo-down-node0): renaissance-benchmarks/renaissance#188.
# Four nodes on one switch; node01 (rank 0, the store's host) has its
# loopback interface down, as `ifdown -a` leaves a Debian host.
#   sh tests/gen/blind48b/01-lo-down-node0.sh validate|judge
B48_ID=01-lo-down-node0
LAB_ID=${LAB_ID:-62b01-$$}
. "$(dirname "$0")/lib48b.sh"

b48_build() {
	b48_lan sw 62 4
	ip -n "$(cl_ns node01)" link set lo down
}

# the thread's fix: the interfaces (lo) up again
b48_fix() {
	ip -n "$(cl_ns node01)" link set lo up
}

b48_main "$@"
