# Blind cluster 03 of the sixth set (issue 48; truth.tsv row
# 03-calico-proxyarp-no-route): projectcalico/calico#3270 (#7866). node01
# and node02 on an air-gapped LAN (10.231.148.0/24); pods node03 and node04
# on Calico node h3, which has no default route: its proxy ARP never
# answers the pods' 169.254.1.1.
#   sh tests/gen/blind48f/03-calico-proxyarp-no-route.sh validate|judge
B48_ID=03-calico-proxyarp-no-route
LAB_ID=${LAB_ID:-815b48f03-$$}
. "$(dirname "$0")/lib48f.sh"

b48_build() {
	b48f_calico 148 149 "" ""
}

b48_fix() {
	ip -n "$(cl_ns h3)" route add 169.254.1.1/32 dev eth0
}

b48_main "$@"
