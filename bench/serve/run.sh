#!/bin/sh
# bench/serve: the responder holding CLIENTS clients (default 1000) that
# each send a heartbeat echo at HZ (default 10) for SECONDS (default 20),
# on loopback; prints answered/lost, RTT and the responder's memory (VmRSS,
# VmHWM from /proc/PID/status) before and after. Run by `make bench-serve`.
set -eu
NETPROBE=${NETPROBE:-build/netprobe}
LOAD=${LOAD:-build/bench-load}
CLIENTS=${CLIENTS:-1000}
HZ=${HZ:-10}
SECONDS_=${SECONDS_:-20}
PORT=${PORT:-17490}

mem() {
	grep -E '^(VmRSS|VmHWM)' "/proc/$1/status" | tr -s ' \t' ' ' | tr '\n' ' '
}

"$NETPROBE" serve --bind 127.0.0.1 --port "$PORT" --max-clients 1100 \
	2>/tmp/bench-serve.log &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
i=0
while ! grep -q listening /tmp/bench-serve.log && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
echo "responder pid $pid, idle: $(mem $pid)"
"$LOAD" 127.0.0.1 "$PORT" "$CLIENTS" "$HZ" "$SECONDS_" &
lp=$!
sleep $((SECONDS_ / 2))
echo "responder under load ($CLIENTS clients): $(mem $pid)"
wait $lp && rc=0 || rc=$?
echo "responder after: $(mem $pid)"
echo "responder cpu: $(awk '{printf "utime %.2fs stime %.2fs", $14/100, $15/100}' /proc/$pid/stat)"
kill $pid
wait $pid 2>/dev/null || true
echo "responder log lines: $(wc -l </tmp/bench-serve.log)"
exit $rc
