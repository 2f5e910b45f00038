# Blind cluster 04 of the sixth set (issue 48; truth.tsv row
# 04-portsec-pod-cidr): coreos/tectonic-installer#78 (kubespray#2877,
# deckhouse#9196). Hypervisor hv's port security lets vm3's port send only
# from vm3's fixed IP; vm3 routes pods node03 and node04 (10.231.151.0/24).
#   sh tests/gen/blind48f/04-portsec-pod-cidr.sh validate|judge
B48_ID=04-portsec-pod-cidr
LAB_ID=${LAB_ID:-815b48f04-$$}
. "$(dirname "$0")/lib48f.sh"

b48_build() {
	b48f_portsec 150 151 ""
}

# the allowed address pair for the pod CIDR on vm3's port
b48_fix() {
	ip netns exec "$(cl_ns hv)" nft add element bridge portsec allow_p3 \
		'{ 10.231.151.0/24 }'
}

b48_main "$@"
