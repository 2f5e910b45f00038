#!/bin/sh
# Times netprobe explain --no-probe on a generated 100,000-line log: NCCL
# INFO chatter, training output, a few failure lines. Prints the best of
# three wall-clock times; bench/explain/RESULTS.md keeps the figure.
set -eu
NETPROBE=${NETPROBE:?set NETPROBE to the netprobe binary}
LINES=${LINES:-100000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk -v n="$LINES" 'BEGIN {
	for (i = 1; i <= n; i++) {
		r = i % 10
		if (i % 20000 == 0)
			print "node1:4242:4260 [0] NCCL WARN socketStartConnect: Connect to 172.17.0.2<45678> failed : Connection timed out"
		else if (r < 4)
			printf "node%d:4242:4250 [%d] NCCL INFO Channel %02d/32 :    0   1   2   3   4   5   6   7\n", i % 8, i % 8, i % 32
		else if (r < 6)
			printf "node%d:4242:4250 [%d] NCCL INFO Connected all rings, use ring PXN 0 GDR 1\n", i % 8, i % 8
		else if (r < 8)
			printf "[rank%d] step %d loss %.4f lr 3.0e-4 tokens/s 181234\n", i % 8, i, 2.0 / (1 + i / 1000.0)
		else
			printf "2026-11-20 10:%02d:%02d,%03d INFO trainer.py:%d -- checkpoint shard %d written to /ckpt/run-%d\n", (i / 60) % 60, i % 60, i % 1000, i % 900, i, i % 7
	}
}' > "$tmp/big.log"
best=
for run in 1 2 3; do
	s=$(date +%s%N)
	"$NETPROBE" explain --no-probe --json "$tmp/big.log" > "$tmp/out.json" || [ $? = 1 ]
	e=$(date +%s%N)
	ms=$(( (e - s) / 1000000 ))
	if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
done
lines=$(jq .log.lines "$tmp/out.json")
matched=$(jq .log.matched "$tmp/out.json")
echo "explain: $lines lines ($matched matched) in $best ms (best of 3)"
[ "$best" -lt 1000 ] || { echo "explain: slower than 1 s"; exit 1; }
