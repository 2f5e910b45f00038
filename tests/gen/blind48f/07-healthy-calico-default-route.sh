# Blind cluster 07 of the sixth set (issue 48; truth.tsv row
# 07-healthy-calico-default-route): vipshop/cache-dit#761, a hang in the
# job's code. Healthy: Calico pods node03 and node04 on h3, whose default
# route (via the switch's 10.231.156.254) lets its proxy ARP answer.
#   sh tests/gen/blind48f/07-healthy-calico-default-route.sh validate|judge
B48_ID=07-healthy-calico-default-route
LAB_ID=${LAB_ID:-815b48f07-$$}
. "$(dirname "$0")/lib48f.sh"

b48_build() {
	b48f_calico 156 157 10.231.156.254/24 10.231.156.254
}

b48_fix() {
	:
}

b48_main "$@"
