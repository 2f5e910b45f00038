# Blind cluster 05 of the fifth set (issue 48; truth.tsv row
# 05-healthy-tbf-brd-255): lightseekorg/TorchSpec#126, a job that hung for a
# data reason. Healthy: LAN 10.231.132.0/23 (no gateway) with node04 at
# 10.231.132.255 and every broadcast the /23's; node03's lan0 carries a tbf
# shaper whose burst (256 KiB) is far above the MTU.
#   sh tests/gen/blind48e/05-healthy-tbf-brd-255.sh validate|judge
B48_ID=05-healthy-tbf-brd-255
LAB_ID=${LAB_ID:-813b48e05-$$}
. "$(dirname "$0")/lib48e.sh"

b48_build() {
	b48_switch sw
	for n in 01:10.231.132.1 02:10.231.132.2 03:10.231.133.3 04:10.231.132.255; do
		i=${n%%:*}
		a=${n#*:}
		b48_box "node$i"
		b48_port sw "node$i" lan0 "$a/23"
		b48_member "node$i" "$a"
	done
	ip netns exec "$(cl_ns node03)" tc qdisc add dev lan0 root \
		tbf rate 1gbit burst 256kb latency 50ms
}

b48_fix() {
	:
}

b48_main "$@"
