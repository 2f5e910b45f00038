# Blind cluster 09 (issue 48; truth.tsv row 09-clone-same-ip): rancher/rancher#38999.
# Four nodes on one switch; node04 was cloned from node02 and came up with
# node02's address 10.231.48.2; every hosts file names node04 at .4, the
# address it was meant to have.
#   sh tests/gen/blind48/09-clone-same-ip.sh validate|judge
B48_ID=09-clone-same-ip
LAB_ID=${LAB_ID:-66b09-$$}
. "$(dirname "$0")/lib48.sh"

b48_build() {
	b48_lan sw 48 3
	b48_box node04
	b48_port sw node04 lan0 10.231.48.2/24 10.231.48.254
	b48_member node04 10.231.48.4
}

# the thread's fix: the clone gets its own address (its default route
# goes with the old one, so it comes back); the LAN's ARP caches then
# forget the clone's answers for .2 (b48_settle)
b48_fix() {
	_n=$(cl_ns node04)
	ip -n "$_n" addr del 10.231.48.2/24 dev lan0
	ip -n "$_n" addr add 10.231.48.4/24 dev lan0
	ip -n "$_n" route replace default via 10.231.48.254
	b48_settle
}

b48_main "$@"
