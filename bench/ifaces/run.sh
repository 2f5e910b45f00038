#!/bin/sh
# Benchmark: `netprobe ifaces --json` in a network namespace holding 1,000
# veth interfaces (500 pairs, both ends inside the namespace, all up, so
# each carries an IPv6 link-local address as on a Kubernetes host),
# against `ip -j addr` on the same namespace. Writes RESULTS.md next to
# this script. Needs root; the namespace is removed by the EXIT trap.
# Usage: bench/ifaces/run.sh [NETPROBE] [PAIRS] [RUNS]; NO_HYPERFINE=1 times
# with a shell loop even where hyperfine is installed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
NETPROBE=${1:-$here/../../build/netprobe}
PAIRS=${2:-500}
RUNS=${3:-30}
NS="npbench$$"
BATCH=$(mktemp)
OUT=$(mktemp)

cleanup() {
	ip netns del "$NS" 2>/dev/null || true
	rm -f "$BATCH" "$OUT" "$OUT.np.json" "$OUT.ip.json"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[ "$(id -u)" = 0 ] || { echo "bench-ifaces: needs root" >&2; exit 2; }
[ -x "$NETPROBE" ] || { echo "bench-ifaces: no binary '$NETPROBE'" >&2; exit 2; }
case $PAIRS in *[!0-9]* | '') echo "bench-ifaces: bad pair count '$PAIRS'" >&2; exit 2 ;; esac
case $RUNS in *[!0-9]* | '') echo "bench-ifaces: bad run count '$RUNS'" >&2; exit 2 ;; esac
[ "$PAIRS" -ge 1 ] && [ "$PAIRS" -le 2000 ] || { echo "bench-ifaces: pairs out of 1..2000" >&2; exit 2; }
[ "$RUNS" -ge 3 ] && [ "$RUNS" -le 1000 ] || { echo "bench-ifaces: runs out of 3..1000" >&2; exit 2; }

ip netns add "$NS"
ip -n "$NS" link set lo up
i=0
while [ "$i" -lt "$PAIRS" ]; do
	echo "link add name va$i type veth peer name vb$i"
	i=$((i + 1))
done >"$BATCH"
ip -n "$NS" -batch "$BATCH"
i=0
while [ "$i" -lt "$PAIRS" ]; do
	echo "link set va$i up"
	echo "link set vb$i up"
	i=$((i + 1))
done >"$BATCH"
ip -n "$NS" -batch "$BATCH"
# Let IPv6 link-local addresses appear (bounded wait: 10 s).
t=0
while [ "$t" -lt 100 ]; do
	n=$(ip -n "$NS" -6 -o addr show scope link | wc -l)
	[ "$n" -ge $((PAIRS * 2)) ] && break
	sleep 0.1
	t=$((t + 1))
done

count=$(ip netns exec "$NS" "$NETPROBE" ifaces --json >"$OUT.np.json" &&
	jq '.interfaces | length' "$OUT.np.json")
addrs=$(jq '[.interfaces[].addresses | length] | add' "$OUT.np.json")
ip -n "$NS" -j addr >"$OUT.ip.json"
ipcount=$(jq 'length' "$OUT.ip.json")
echo "namespace $NS: netprobe lists $count interfaces ($addrs addresses), ip lists $ipcount"

np_cmd="ip netns exec $NS $NETPROBE ifaces --json"
tx_cmd="ip netns exec $NS $NETPROBE ifaces"
ip_cmd="ip netns exec $NS ip -j addr"
if [ -z "${NO_HYPERFINE:-}" ] && command -v hyperfine >/dev/null 2>&1; then
	tool="hyperfine $(hyperfine --version | cut -d' ' -f2)"
	hyperfine -N --warmup 3 --runs "$RUNS" --export-json "$OUT" \
		--output=null "$np_cmd" "$tx_cmd" "$ip_cmd" >&2
	stats=$(jq -r '.results[] | [(.mean * 1000), (.stddev * 1000),
		(.median * 1000), (.min * 1000), (.max * 1000)] |
		map(. * 100 | round / 100) | @tsv' "$OUT")
else
	# Bounded loop with date +%s%N: RUNS runs each, mean/median/min/max.
	tool="shell loop with date +%s%N"
	for cmd in "$np_cmd" "$tx_cmd" "$ip_cmd"; do
		i=0
		while [ "$i" -lt "$RUNS" ]; do
			s=$(date +%s%N)
			$cmd >/dev/null
			e=$(date +%s%N)
			echo $(((e - s) / 1000))
			i=$((i + 1))
		done | sort -n | awk '{v[NR]=$1; s+=$1} END {
			m=s/NR; for (i=1;i<=NR;i++) d+=(v[i]-m)^2;
			printf "%.2f\t%.2f\t%.2f\t%.2f\t%.2f\n", m/1000,
			sqrt(d/NR)/1000, v[int((NR+1)/2)]/1000, v[1]/1000,
			v[NR]/1000 }'
	done >"$OUT"
	stats=$(cat "$OUT")
fi
np=$(echo "$stats" | sed -n 1p)
tx=$(echo "$stats" | sed -n 2p)
ipl=$(echo "$stats" | sed -n 3p)

{
	echo "# netprobe ifaces benchmark"
	echo
	echo "Namespace with $count interfaces ($PAIRS veth pairs, all up, $addrs"
	echo "addresses, mostly IPv6 link-local). Target: well under 100 ms."
	echo
	echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "- kernel: $(uname -r); CPUs: $(nproc); netprobe $("$NETPROBE" --version | cut -d' ' -f2)"
	echo "- timing: $tool, $RUNS runs after warm-up"
	echo "- command: \`bench/ifaces/run.sh\` (or \`make bench-ifaces\`)"
	echo
	echo "| command | mean ms | stddev ms | median ms | min ms | max ms |"
	echo "|---|---|---|---|---|---|"
	echo "$np" | awk -F'\t' '{printf "| `netprobe ifaces --json` | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5}'
	echo "$tx" | awk -F'\t' '{printf "| `netprobe ifaces` (text) | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5}'
	echo "$ipl" | awk -F'\t' '{printf "| `ip -j addr` | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5}'
	echo
	echo "All run through \`ip netns exec\`, whose own cost (a mount namespace"
	echo "and a remount of /sys, about 2 ms here) is included in each figure."
	echo "The text run is the collection (two netlink dumps, two route dumps)"
	echo "plus the table; the difference to the JSON run is building and"
	echo "writing the 0.9 MB document with jansson (sorted keys, indented)."
} >"$here/RESULTS.md"
cat "$here/RESULTS.md"
mean=$(echo "$np" | cut -f1)
awk -v m="$mean" 'BEGIN { exit !(m < 100) }' || {
	echo "bench-ifaces: mean $mean ms is not under 100 ms" >&2
	exit 1
}
