# Blind cluster 02 of the sixth set (issue 48; truth.tsv row
# 02-vtep-proxy-missing-neigh): flannel-io/flannel#203 (fixed by #207).
# Four nodes whose vx0 VTEPs answer ARP themselves (proxy) from their
# neighbour tables; node04's lacks the entry for node02.
#   sh tests/gen/blind48f/02-vtep-proxy-missing-neigh.sh validate|judge
B48_ID=02-vtep-proxy-missing-neigh
LAB_ID=${LAB_ID:-815b48f02-$$}
. "$(dirname "$0")/lib48f.sh"

b48_build() {
	b48f_underlay 146 4
	for i in 1 2 3 4; do
		_skip=0
		[ "$i" != 4 ] || _skip=2
		b48f_vtep "$i" 146 147 4 4789 proxy "$_skip"
		b48_member "node0$i" "10.231.147.$i"
	done
}

# the entry the overlay daemon should have installed
b48_fix() {
	ip -n "$(cl_ns node04)" neigh replace 10.231.147.2 \
		lladdr 0a:58:0a:e7:93:02 dev vx0 nud permanent
}

b48_main "$@"
