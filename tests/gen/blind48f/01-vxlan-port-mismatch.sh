# Blind cluster 01 of the sixth set (issue 48; truth.tsv row
# 01-vxlan-port-mismatch): projectcalico/calico#10692 (poseidon/typhoon#466,
# #1561). Four nodes whose overlay vx0 (VNI 42) are VTEPs on an underlay of
# MTU 9000; node03's vx0 uses UDP port 4799, its peers' 4789.
#   sh tests/gen/blind48f/01-vxlan-port-mismatch.sh validate|judge
B48_ID=01-vxlan-port-mismatch
LAB_ID=${LAB_ID:-815b48f01-$$}
. "$(dirname "$0")/lib48f.sh"

b48_build() {
	b48f_underlay 144 4
	for i in 1 2 3 4; do
		_p=4789
		[ "$i" != 3 ] || _p=4799
		b48f_vtep "$i" 144 145 4 "$_p" plain
		b48_member "node0$i" "10.231.145.$i"
	done
}

# the kernel changes no VXLAN port in place: node03's vx0 made again
b48_fix() {
	ip -n "$(cl_ns node03)" link del vx0
	b48f_vtep 3 144 145 4 4789 plain
}

b48_main "$@"
