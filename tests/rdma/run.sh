#!/bin/sh
# netprobe scan --sysroot on each RDMA fixture (tests/fixtures/sysroot/rdma-*):
# the rdma-* findings with their fixes, NCCL's predicted IB choice and the
# --export lines, compared with tests/rdma/golden/FIXTURE.txt. UPDATE=1
# rewrites the golden files. Needs NETPROBE and jq; no root, no network.
set -u
: "${NETPROBE:?set NETPROBE to the netprobe binary}"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
fail=0 n=0
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT

for dir in "$root"/tests/fixtures/sysroot/rdma-*/; do
	name=$(basename "$dir")
	golden="$here/golden/$name.txt"
	{
		"$NETPROBE" scan --json --sysroot "$dir" | jq -r '
			(.findings[] | select(.code | startswith("rdma-")) |
			 "\(.severity) \(.code): \(.summary)\n  fix: \(.fix)"),
			"nccl_ib: fallback \(.nccl_ib.fallback) \(.nccl_ib.fallback_why // "")",
			"  \(.nccl_ib.using_line // .nccl_ib.nccl_says)",
			(.nccl_ib.ports[] |
			 "  \(.device):\(.port) \(.link_layer) gid \(.gid_index)"),
			(.nccl_ib.hca_verdict // empty),
			(.nccl_ib.gid_index_verdict // empty),
			(.nccl_ib.gpus[] |
			 "  GPU \(.gpu): \(.nearest_nic // "-") \(.distance) gdr \(.gdr)")'
		echo "--export:"
		"$NETPROBE" scan --export --sysroot "$dir" 2>/dev/null |
			grep NCCL_IB
	} > "$tmp" 2>&1
	n=$((n + 1))
	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$tmp" "$golden"
	elif ! diff -u "$golden" "$tmp"; then
		echo "rdma: $name differs from its golden file" >&2
		fail=1
	fi
done
[ "$n" -ge 8 ] || { echo "rdma: only $n fixtures" >&2; exit 1; }
[ "$fail" = 0 ] && echo "rdma: $n fixtures match their golden files"
exit "$fail"
