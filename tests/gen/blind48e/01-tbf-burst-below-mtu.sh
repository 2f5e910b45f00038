# Blind cluster 01 of the fifth set (issue 48; truth.tsv row
# 01-tbf-burst-below-mtu): tohojo/sqm-scripts#73, qosmio/sqm-scripts-nss#1,
# kubeovn/kube-ovn#141, containernetworking/plugins#169.
# Four nodes on switch sw (10.231.124.0/24); node03's lan0 carries a tbf
# shaper whose burst (1000 bytes) is below a full frame (1514).
#   sh tests/gen/blind48e/01-tbf-burst-below-mtu.sh validate|judge
B48_ID=01-tbf-burst-below-mtu
LAB_ID=${LAB_ID:-813b48e01-$$}
. "$(dirname "$0")/lib48e.sh"

b48_build() {
	b48_lan sw 124 4
	ip netns exec "$(cl_ns node03)" tc qdisc add dev lan0 root \
		tbf rate 1gbit burst 1000 latency 50ms
}

# the shaper removed
b48_fix() {
	ip netns exec "$(cl_ns node03)" tc qdisc del dev lan0 root
}

b48_main "$@"
