# Blind cluster 04 of the fifth set (issue 48; truth.tsv row
# 04-bridge-port-locked): systemd/systemd#36150, bisdn/basebox#457.
# Four nodes on switch sw (10.231.130.0/24, gateway .254); node02's port p2
# is locked (802.1X) and no authenticator added node02's MAC.
#   sh tests/gen/blind48e/04-bridge-port-locked.sh validate|judge
B48_ID=04-bridge-port-locked
LAB_ID=${LAB_ID:-813b48e04-$$}
. "$(dirname "$0")/lib48e.sh"

b48_build() {
	b48_lan sw 130 4
	_s=$(cl_ns sw)
	ip -n "$(cl_ns node02)" link set lan0 address 52:54:00:e7:82:02
	bridge -n "$_s" link set dev p2 locked on
	# a port going down forgets what it learned before the lock
	ip -n "$_s" link set p2 down
	ip -n "$_s" link set p2 up
}

# what an authenticator adds for an authorised host
b48_fix() {
	bridge -n "$(cl_ns sw)" fdb add 52:54:00:e7:82:02 dev p2 master static
}

b48_main "$@"
