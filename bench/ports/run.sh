#!/bin/sh
# Benchmark: netprobe ports against nmap -sT on the same namespace lab.
# Scenario "drop": 1,000 ports all dropped by nftables (filtered).
# Scenario "mixed": 1,000 ports: 900 dropped, 50 reset, 30 rejected with
# ICMP admin-prohibited, 20 open. Prints one line per tool and scenario:
# wall time and per-state counts, then whether the verdicts agree port by
# port (prohibited and unreachable count as nmap's "filtered").
# Usage: NETPROBE=build/netprobe sh bench/ports/run.sh [timeout]
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../tests/lab/lib.sh"
lab_require nft nmap jq python3
TIMEOUT=${1:-1s}
OUT=${BENCH_OUT:-$(mktemp -d /tmp/np-bench-ports.XXXXXX)}
mkdir -p "$OUT" || exit 2
lab_ns A a
lab_ns B b
lab_veth "$A" lan0 "$B" lan0
ip -n "$A" addr add 10.231.40.1/24 dev lan0
ip -n "$B" addr add 10.231.40.2/24 dev lan0
ip -n "$A" link set lan0 up
ip -n "$B" link set lan0 up
ip netns exec "$B" nft -f - <<'EOF'
table inet npbench {
	chain input {
		type filter hook input priority 0; policy accept;
		tcp dport 40000-40999 drop
		tcp dport 50000-50899 drop
		tcp dport 50900-50949 reject with tcp reset
		tcp dport 50950-50979 reject with icmp type admin-prohibited
	}
}
EOF
# 20 listeners on 50980-50999, held for the length of the run
ip netns exec "$B" timeout 1200 python3 -c '
import socket, time
s = []
for p in range(50980, 51000):
    x = socket.socket(); x.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    x.bind(("10.231.40.2", p)); x.listen(64); s.append(x)
time.sleep(1200)' &
lab_wait 50 ip netns exec "$B" sh -c 'ss -ltn | grep -q ":50999 "' ||
	{ echo "listeners did not start"; exit 1; }

ms() { echo $(($(date +%s%N) / 1000000)); }

# run_np NAME RANGE TIMEOUT: netprobe's verdicts to $OUT/np-NAME-TIMEOUT.json.
run_np() {
	t0=$(ms)
	ip netns exec "$A" "$NETPROBE" ports --json --timeout "$3" \
		10.231.40.2 "$2" >"$OUT/np-$1-$3.json"
	t=$(($(ms) - t0))
	printf '%-8s %-28s %6d ms  %s\n' "$1" "netprobe --timeout $3" \
		"$t" "$(jq -r '[.ports[].state] | group_by(.) |
		map("\(.[0])=\(length)") | join(" ")' "$OUT/np-$1-$3.json")"
}

# run_nmap NAME RANGE LABEL ARGS...: nmap -sT's verdicts to XML.
run_nmap() {
	n=$1 r=$2 label=$3
	shift 3
	t0=$(ms)
	ip netns exec "$A" nmap -sT -Pn -n "$@" -p "$r" 10.231.40.2 \
		-oX "$OUT/nmap-$n-$label.xml" >/dev/null 2>&1
	t=$(($(ms) - t0))
	printf '%-8s %-28s %6d ms  %s\n' "$n" "nmap -sT $*" "$t" \
		"$(python3 "$here/verdicts.py" counts \
			"$OUT/nmap-$n-$label.xml" "$r")"
}

# compare NAME TIMEOUT LABEL RANGE: port-by-port agreement.
compare() {
	printf '%-8s netprobe %-5s vs ' "$1" "$2"
	python3 "$here/verdicts.py" compare "$OUT/np-$1-$2.json" \
		"$OUT/nmap-$1-$3.xml" "$4"
}

echo "# $(date -u +%FT%TZ) $(uname -r) nmap $(nmap --version |
	sed -n 's/^Nmap version \([^ ]*\).*/\1/p')"
for sc in "drop 40000-40999" "mixed 50000-50999"; do
	set -- $sc
	run_np "$1" "$2" "$TIMEOUT"
	run_np "$1" "$2" 250ms
	run_nmap "$1" "$2" T3
	run_nmap "$1" "$2" T4 -T4
	run_nmap "$1" "$2" T5 -T5 --max-retries 0 --host-timeout 60s
	for label in T3 T4 T5; do
		compare "$1" "$TIMEOUT" "$label" "$2"
		compare "$1" 250ms "$label" "$2"
	done
done
echo "# documents in $OUT"
