# Blind cluster 06 of the sixth set (issue 48; truth.tsv row
# 06-healthy-vxlan-8472-proxy): unslothai/unsloth-zoo#967, ranks out of
# step in the job's own code. Healthy: proxy VTEPs, every one on UDP 8472,
# every neighbour entry present; underlay MTU 9000, vx0 1500.
#   sh tests/gen/blind48f/06-healthy-vxlan-8472-proxy.sh validate|judge
B48_ID=06-healthy-vxlan-8472-proxy
LAB_ID=${LAB_ID:-815b48f06-$$}
. "$(dirname "$0")/lib48f.sh"

b48_build() {
	b48f_underlay 154 4
	for i in 1 2 3 4; do
		b48f_vtep "$i" 154 155 4 8472 proxy
		b48_member "node0$i" "10.231.155.$i"
	done
}

b48_fix() {
	:
}

b48_main "$@"
