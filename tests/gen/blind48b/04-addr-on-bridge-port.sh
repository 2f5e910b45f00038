# Blind cluster 04 of the second set (issue 48; truth.tsv row
# 04-addr-on-bridge-port): devplayer0/docker-net-dhcp#19.
# Four nodes on one switch; node03's NIC lan0 was enslaved to a new bridge
# my-bridge (to put containers on the LAN), its address and default route
# left on lan0.
#   sh tests/gen/blind48b/04-addr-on-bridge-port.sh validate|judge
B48_ID=04-addr-on-bridge-port
LAB_ID=${LAB_ID:-62b04-$$}
. "$(dirname "$0")/lib48b.sh"

b48_build() {
	b48_lan sw 62 4
	_n=$(cl_ns node03)
	ip -n "$_n" link add name my-bridge type bridge
	ip -n "$_n" link set lan0 master my-bridge
	ip -n "$_n" link set my-bridge up
	# a bounded wait until the port forwards (no STP: at once)
	lab_wait 50 sh -c "bridge -n '$_n' link show dev lan0 | grep -q 'state forwarding'"
}

# the maintainer's fix: the IP configuration on the bridge, not its port
b48_fix() {
	_n=$(cl_ns node03)
	ip -n "$_n" addr del 10.231.62.3/24 dev lan0
	ip -n "$_n" addr add 10.231.62.3/24 dev my-bridge
	ip -n "$_n" route add default via 10.231.62.254 dev my-bridge
}

b48_main "$@"
