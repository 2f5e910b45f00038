# Blind cluster 02 of the second set (issue 48; truth.tsv row
# 02-ipvs-externalip-nodeip): kubernetes/kubernetes#127410.
# Four nodes on one switch; node03 runs kube-proxy in IPVS mode, and a
# Service's externalIPs names node02's address, which kube-proxy binds to
# kube-ipvs0 (a dummy there, down and NOARP; a bridge without ports here,
# no dummy in this kernel: both make the address local the same way),
# with kube-proxy's strictARP on node03.
#   sh tests/gen/blind48b/02-ipvs-externalip-nodeip.sh validate|judge
B48_ID=02-ipvs-externalip-nodeip
LAB_ID=${LAB_ID:-62b02-$$}
. "$(dirname "$0")/lib48b.sh"

b48_build() {
	b48_lan sw 62 4
	_n=$(cl_ns node03)
	# kube-proxy's strictARP (as MetalLB asks of IPVS mode): the node
	# answers no ARP for the service addresses on kube-ipvs0
	ip netns exec "$_n" sysctl -qw net.ipv4.conf.all.arp_ignore=1 \
		net.ipv4.conf.all.arp_announce=2
	ip -n "$_n" link add name kube-ipvs0 type bridge
	ip -n "$_n" link set kube-ipvs0 arp off
	# a ClusterIP of its own too, as kube-proxy binds every service address
	ip -n "$_n" addr add 10.231.96.1/32 dev kube-ipvs0
	ip -n "$_n" addr add 10.231.62.2/32 dev kube-ipvs0
}

# the thread's fix: the node's address out of externalIPs, so kube-proxy
# unbinds it
b48_fix() {
	ip -n "$(cl_ns node03)" addr del 10.231.62.2/32 dev kube-ipvs0
}

b48_main "$@"
