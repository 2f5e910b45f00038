# Shared by the clusters of the third blind set (tests/gen/blind48c): the
# second set's harness (tests/gen/blind48b/lib48b.sh: the first set's
# switches, members, hosts files, torch Gloo client and judge, plus the
# plain-socket pair matrix of validate) with this folder's truth.tsv, and
# the few builders these clusters share (pods behind a routed host, a VM
# bridged through a host). A cluster script sets B48_ID and LAB_ID, then
# sources this file. Namespaces are np<LAB_ID>-NAME; LAB_ID carries b48c.
. "$(dirname "$0")/../blind48b/lib48b.sh"

# b48c_pod HOST POD ADDR: POD (a namespace, registered) as a Calico-style
# pod of HOST: its eth0 holds ADDR/32 with a default route via 169.254.1.1
# on-link, a neighbour entry that Calico's proxy ARP would give (these
# hosts have no default route for proxy_arp to answer by, so the pod holds
# it: 169.254.1.1 at HOST's end's MAC); HOST's end caliPOD routes ADDR to
# the pod, with proxy_arp on; HOST forwards.
b48c_pod() {
	b48_box "$2"
	_h=$(cl_ns "$1")
	_p=$(cl_ns "$2")
	lab_veth "$_h" "cali$2" "$_p" eth0
	ip netns exec "$_h" sysctl -qw net.ipv4.ip_forward=1
	ip netns exec "$_h" sysctl -qw "net.ipv4.conf.cali$2.proxy_arp=1"
	ip -n "$_h" link set "cali$2" up
	ip -n "$_h" route add "$3/32" dev "cali$2" scope link
	ip -n "$_p" addr add "$3/32" dev eth0
	ip -n "$_p" link set eth0 up
	ip -n "$_p" route add 169.254.1.1 dev eth0 scope link
	ip -n "$_p" route add default via 169.254.1.1 dev eth0 onlink
	_mac=$(ip netns exec "$_h" cat "/sys/class/net/cali$2/address")
	ip -n "$_p" neigh replace 169.254.1.1 lladdr "$_mac" dev eth0 nud permanent
}

# b48c_vm HOST BR VM IF ADDR/LEN MAC: VM (a namespace, registered) as a
# guest of HOST bridged onto HOST's bridge BR through tap-like port IF
# (vnetN on HOST, eth0 in the guest, MAC on the guest's eth0).
b48c_vm() {
	b48_box "$3"
	_h=$(cl_ns "$1")
	_v=$(cl_ns "$3")
	lab_veth "$_v" eth0 "$_h" "$4"
	ip -n "$_v" link set eth0 address "$6"
	ip -n "$_h" link set "$4" master "$2"
	ip -n "$_h" link set "$4" up
	ip -n "$_v" addr add "$5" dev eth0
	ip -n "$_v" link set eth0 up
}
