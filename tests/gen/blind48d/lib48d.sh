# Shared by the clusters of the fourth blind set (tests/gen/blind48d): the
# third set's harness (tests/gen/blind48c/lib48c.sh, itself the second set's
# lib48b.sh: switches, members, hosts files, the torch Gloo client, the
# judge and the plain-socket pair matrix of validate; and b48c_vm, a VM
# bridged through a host) with this folder's truth.tsv, and the builders
# these clusters share: a flannel-style VXLAN overlay on the members, an
# EVPN-style leaf switch. A cluster script sets B48_ID and LAB_ID, then
# sources this file. Namespaces are np<LAB_ID>-NAME; LAB_ID carries b48d.
. "$(dirname "$0")/../blind48c/lib48c.sh"

# b48d_vtep NAME DEV VNI PORT MAC UNDERLAY OVERLAY/LEN: on member NAME a
# flannel-style VXLAN device DEV (VNI, UDP PORT, nolearning, over lan0 from
# UNDERLAY) with MAC and the overlay address; B48D_VTEPS records
# "NAME,MAC,UNDERLAY,OVERLAY" for b48d_vtep_peers.
B48D_VTEPS=""
b48d_vtep() {
	_n=$(cl_ns "$1")
	ip -n "$_n" link add "$2" type vxlan id "$3" dstport "$4" \
		local "$6" dev lan0 nolearning
	ip -n "$_n" link set "$2" address "$5"
	ip -n "$_n" addr add "$7" dev "$2"
	ip -n "$_n" link set "$2" up
	B48D_VTEPS="$B48D_VTEPS $1,$5,$6,${7%/*}"
}

# b48d_vtep_peers NAME DEV: on member NAME, for every other VTEP recorded,
# the permanent neighbour entry (overlay address -> VTEP MAC) and the
# permanent fdb entry (VTEP MAC -> underlay address) flanneld would write.
b48d_vtep_peers() {
	_n=$(cl_ns "$1")
	for _v in $B48D_VTEPS; do
		IFS=, read -r _pn _pm _pu _po <<EOV
$_v
EOV
		[ "$_pn" != "$1" ] || continue
		ip -n "$_n" neigh replace "$_po" lladdr "$_pm" dev "$2" nud permanent
		bridge -n "$_n" fdb append "$_pm" dev "$2" dst "$_pu" self permanent
	done
}

# b48d_leaf LEAF VNI LOCAL REMOTE: leaf switch LEAF (a namespace, registered)
# with bridge br0 and a VXLAN port vxlan0 (VNI, UDP 4789, local underlay
# address LOCAL on eth0, nolearning, bridge learning off on the port) whose
# flood entry heads to the other leaf at REMOTE, as an EVPN leaf holds them.
b48d_leaf() {
	_l=$(cl_ns "$1")
	ip -n "$_l" link add name br0 type bridge
	ip -n "$_l" link set br0 up
	# a fabric's underlay carries the overlay's full frames (jumbo), so
	# vxlan0 takes the members' 1500 (with dev eth0 at 1500 the kernel
	# gives it 1450: an MTU blackhole no truth row names)
	ip -n "$_l" link set eth0 mtu 9000
	ip -n "$_l" link add vxlan0 type vxlan id "$2" dstport 4789 \
		local "$3" dev eth0 nolearning
	ip -n "$_l" link set vxlan0 mtu 1500
	ip -n "$_l" link set vxlan0 master br0
	bridge -n "$_l" link set dev vxlan0 learning off
	ip -n "$_l" link set vxlan0 up
	bridge -n "$_l" fdb append 00:00:00:00:00:00 dev vxlan0 dst "$4" self permanent
}

# b48d_leaf_remote LEAF MAC REMOTE: EVPN's entries for a remote MAC on LEAF:
# the bridge's static sticky entry on vxlan0 (sticky: a frame from that MAC
# on another port does not move it, as the threads' bridge manager set
# them) and the VTEP entry toward REMOTE.
b48d_leaf_remote() {
	_l=$(cl_ns "$1")
	bridge -n "$_l" fdb replace "$2" dev vxlan0 master static sticky
	bridge -n "$_l" fdb replace "$2" dev vxlan0 dst "$3" self static
}

# b48d_leaf_port LEAF NODE PORT ADDR/LEN MAC: member NODE (a namespace,
# registered) on LEAF's bridge through port PORT (lan0 in NODE, with MAC).
b48d_leaf_port() {
	b48_box "$2"
	_l=$(cl_ns "$1")
	_m=$(cl_ns "$2")
	lab_veth "$_m" lan0 "$_l" "$3"
	ip -n "$_m" link set lan0 address "$5"
	ip -n "$_l" link set "$3" master br0
	ip -n "$_l" link set "$3" up
	ip -n "$_m" addr add "$4" dev lan0
	ip -n "$_m" link set lan0 up
}
