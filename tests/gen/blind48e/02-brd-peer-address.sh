# Blind cluster 02 of the fifth set (issue 48; truth.tsv row
# 02-brd-peer-address): nerves-networking/vintage_net#462, Microsoft
# KB 281579.
# Four nodes on switch sw, LAN 10.231.126.0/23 (no gateway); node04 holds
# 10.231.126.255; node02 holds 10.231.126.2/23 with the /24's broadcast
# 10.231.126.255.
#   sh tests/gen/blind48e/02-brd-peer-address.sh validate|judge
B48_ID=02-brd-peer-address
LAB_ID=${LAB_ID:-813b48e02-$$}
. "$(dirname "$0")/lib48e.sh"

b48_build() {
	b48_switch sw
	for n in 01:10.231.126.1 02:10.231.126.2 03:10.231.127.3 04:10.231.126.255; do
		i=${n%%:*}
		a=${n#*:}
		b48_box "node$i"
		b48_port sw "node$i" lan0 "$a/23"
		b48_member "node$i" "$a"
	done
	_n=$(cl_ns node02)
	ip -n "$_n" addr del 10.231.126.2/23 dev lan0
	ip -n "$_n" addr add 10.231.126.2/23 brd 10.231.126.255 dev lan0
}

# the /23's broadcast on node02
b48_fix() {
	_n=$(cl_ns node02)
	ip -n "$_n" addr del 10.231.126.2/23 dev lan0
	ip -n "$_n" addr add 10.231.126.2/23 brd + dev lan0
}

b48_main "$@"
