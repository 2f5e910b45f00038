# Blind cluster 03 of the second set (issue 48; truth.tsv row
# 03-stale-permanent-neigh): moby/moby#36069, vmware/vic#3437.
# Four nodes on one switch; node04's NIC was replaced (a new MAC address,
# the same IPv4 address); node02 still holds a permanent neighbour entry
# (arp -s) for node04 with the old NIC's MAC.
#   sh tests/gen/blind48b/03-stale-permanent-neigh.sh validate|judge
B48_ID=03-stale-permanent-neigh
LAB_ID=${LAB_ID:-62b03-$$}
. "$(dirname "$0")/lib48b.sh"

b48_build() {
	b48_lan sw 62 4
	for i in 1 2 3 4; do
		ip -n "$(cl_ns "node0$i")" link set lan0 address "02:62:03:00:00:0$i"
	done
	# the old NIC's MAC, nobody's now
	ip -n "$(cl_ns node02)" neigh add 10.231.62.4 lladdr 02:62:03:00:aa:04 \
		dev lan0 nud permanent
}

# the thread's fix: the stale entry deleted (arp -d)
b48_fix() {
	ip -n "$(cl_ns node02)" neigh del 10.231.62.4 dev lan0
}

b48_main "$@"
