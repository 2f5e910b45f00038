# Blind cluster 08 of the sixth set (issue 48; truth.tsv row
# 08-healthy-portsec-allowed-pair): snowflakedb/ArcticInference#175, a
# configuration limit of the job. Healthy: hv's port security with vm3's
# pod CIDR 10.231.159.0/24 as an allowed address pair.
#   sh tests/gen/blind48f/08-healthy-portsec-allowed-pair.sh validate|judge
B48_ID=08-healthy-portsec-allowed-pair
LAB_ID=${LAB_ID:-815b48f08-$$}
. "$(dirname "$0")/lib48f.sh"

b48_build() {
	b48f_portsec 158 159 10.231.159.0/24
}

b48_fix() {
	:
}

b48_main "$@"
