# Blind cluster 03 of the third set (issue 48; truth.tsv row
# 03-stale-xfrm-policy): k3s-io/k3s#2808, strongswan/strongswan#990.
# Four nodes on one switch; node04 once ran a host-to-host IPsec mesh over
# the LAN (transport mode, auto=route) that was stopped: its trap policies
# (out toward the LAN, in from it) are still in the kernel, with no SA.
#   sh tests/gen/blind48c/03-stale-xfrm-policy.sh validate|judge
B48_ID=03-stale-xfrm-policy
LAB_ID=${LAB_ID:-811b48c03-$$}
. "$(dirname "$0")/lib48c.sh"

b48_build() {
	b48_lan sw 83 4
	_n=$(cl_ns node04)
	ip -n "$_n" xfrm policy add src 10.231.83.4/32 dst 10.231.83.0/24 \
		dir out priority 2084814 tmpl proto esp mode transport
	ip -n "$_n" xfrm policy add src 10.231.83.0/24 dst 10.231.83.4/32 \
		dir in priority 2084814 tmpl proto esp mode transport
}

# the leftover policies removed, as k3s#2808's cleanup does
b48_fix() {
	ip -n "$(cl_ns node04)" xfrm policy flush
	ip -n "$(cl_ns node04)" xfrm state flush
}

b48_main "$@"
