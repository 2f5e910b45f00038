# Blind cluster 05 of the sixth set (issue 48; truth.tsv row
# 05-two-faults-port-neigh): rows 01 and 02 at once (calico#10692,
# flannel#203). Proxy VTEPs on an underlay of MTU 9000; node03's vx0 on UDP
# 4799 (its peers 4789); node01's vx0 lacks the neighbour entry of node04.
#   sh tests/gen/blind48f/05-two-faults-port-neigh.sh validate|judge
B48_ID=05-two-faults-port-neigh
LAB_ID=${LAB_ID:-815b48f05-$$}
. "$(dirname "$0")/lib48f.sh"

b48_build() {
	b48f_underlay 152 4
	for i in 1 2 3 4; do
		_p=4789
		[ "$i" != 3 ] || _p=4799
		_skip=0
		[ "$i" != 1 ] || _skip=4
		b48f_vtep "$i" 152 153 4 "$_p" proxy "$_skip"
		b48_member "node0$i" "10.231.153.$i"
	done
}

b48_fix() {
	ip -n "$(cl_ns node03)" link del vx0
	b48f_vtep 3 152 153 4 4789 proxy
	ip -n "$(cl_ns node01)" neigh replace 10.231.153.4 \
		lladdr 0a:58:0a:e7:99:04 dev vx0 nud permanent
}

b48_main "$@"
