# Runs generated clusters in parallel streams: STREAMS runs of
# tests/gen/run.sh side by side, PER seeds each, from FIRST on, then the
# tally of all (summarize.sh). The clusters are independent (each its own
# namespaces), but the kernel's neighbour table is one for every
# namespace: with many clusters at once its default limit (gc_thresh3,
# 1024 entries) overflows and drops packets, so a run of more than four
# streams needs it raised (kit.sh's setup.sh does, on a machine lent for
# the run; this script only warns). Bounded: run.sh bounds each seed.
#   sh tests/gen/streams.sh STREAMS PER FIRST OUTDIR
streams=${1:?usage: streams.sh STREAMS PER FIRST OUTDIR}
per=${2:?usage: streams.sh STREAMS PER FIRST OUTDIR}
first=${3:?usage: streams.sh STREAMS PER FIRST OUTDIR}
out=${4:?usage: streams.sh STREAMS PER FIRST OUTDIR}
dir=$(dirname "$0")
for v in "$streams" "$per" "$first"; do
	case $v in '' | *[!0-9]*) echo "streams: bad number '$v'"; exit 2 ;; esac
done
[ "$streams" -ge 1 ] && [ "$streams" -le 64 ] ||
	{ echo "streams: STREAMS 1..64"; exit 2; }
[ "$(id -u)" = 0 ] || { echo "skip - generated clusters need root"; exit 77; }
mkdir -p "$out" || exit 2
t3=$(sysctl -n net.ipv4.neigh.default.gc_thresh3 2>/dev/null || echo 0)
[ "$streams" -le 4 ] || [ "$t3" -ge $((streams * 1024)) ] ||
	echo "streams: warning: gc_thresh3 is $t3; $streams clusters at once" \
		"may overflow the neighbour table" >&2
start=$(date +%s)
i=0
while [ "$i" -lt "$streams" ]; do
	sh "$dir/run.sh" "$per" $((first + i * per)) "$out/stream-$i.tsv" \
		>/dev/null 2>&1 &
	i=$((i + 1))
done
wait
echo "# $((streams * per)) seeds from $first in $streams streams:" \
	"$(($(date +%s) - start)) s"
cat "$out"/stream-*.tsv >"$out/all.tsv"
sh "$dir/summarize.sh" "$out/all.tsv"
