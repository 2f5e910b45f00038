# Blind cluster 07 (issue 48; truth.tsv row 07-duplicate-mac): utmapp/UTM#7035.
# Four nodes on one switch; node04 was cloned from node02 and kept its
# MAC address on lan0 (its IPv4 address is its own).
#   sh tests/gen/blind48/07-duplicate-mac.sh validate|judge
B48_ID=07-duplicate-mac
LAB_ID=${LAB_ID:-66b07-$$}
. "$(dirname "$0")/lib48.sh"

b48_build() {
	b48_lan sw 48 4
	for i in 1 2 3 4; do
		_m=$i
		[ "$i" = 4 ] && _m=2
		ip -n "$(cl_ns "node0$i")" link set lan0 address "02:48:00:00:00:0$_m"
	done
}

# the thread's fix: the clone gets a MAC address of its own
b48_fix() {
	ip -n "$(cl_ns node04)" link set lan0 address 02:48:00:00:00:04
}

b48_main "$@"
