# Blind cluster 05 of the fourth set (issue 48; truth.tsv row
# 05-nic-noarp): systemd/systemd#4644, #3890, #3891, #4760, #4870.
# Five nodes on switch sw (10.231.106.0/24); node02's lan0 has the NOARP
# flag (what systemd-networkd 232 set on a link with a [Link] section).
#   sh tests/gen/blind48d/05-nic-noarp.sh validate|judge
B48_ID=05-nic-noarp
LAB_ID=${LAB_ID:-812b48d05-$$}
. "$(dirname "$0")/lib48d.sh"

b48_build() {
	b48_switch sw
	for i in 1 2 3 4 5; do
		b48_box "node0$i"
		b48_port sw "node0$i" lan0 "10.231.106.$i/24"
		b48_member "node0$i" "10.231.106.$i"
	done
	ip -n "$(cl_ns node02)" link set dev lan0 arp off
}

# ARP on again on node02's NIC
b48_fix() {
	ip -n "$(cl_ns node02)" link set dev lan0 arp on
}

b48_main "$@"
