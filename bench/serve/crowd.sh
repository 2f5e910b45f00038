#!/bin/sh
# bench/serve, issue 34: CLIENTS clients (default 5000) from NSRC loopback
# addresses (default 250: 127.0.0.2 up) connect at once to a responder
# with MAX places (default 1024) and, when admitted, echo at HZ (10) for
# SECONDS_ (20). Every admitted client must keep every echo, the rest be
# refused with the reason, none be dropped while served. NOFILE (default
# 20000) is the responder's open-file limit. Run by `make
# bench-serve-crowd`; figures in bench/serve/RESULTS.md.
set -eu
NETPROBE=${NETPROBE:-build/netprobe}
CROWD=${CROWD:-build/bench-crowd}
CLIENTS=${CLIENTS:-5000}
MAX=${MAX:-1024}
NSRC=${NSRC:-250}
HZ=${HZ:-10}
SECONDS_=${SECONDS_:-20}
PORT=${PORT:-17491}
NOFILE=${NOFILE:-20000}
LOG=$(mktemp)

(ulimit -n "$NOFILE" && exec "$NETPROBE" serve --bind 127.0.0.1 \
	--port "$PORT" --max-clients "$MAX") 2>"$LOG" &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -f "$LOG"' EXIT
i=0
while ! grep -q listening "$LOG" && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
echo "responder pid $pid, open-file limit $NOFILE, --max-clients $MAX"
"$CROWD" 127.0.0.1 "$PORT" "$CLIENTS" 127.0.0.2 "$NSRC" "$HZ" \
	"$SECONDS_" && rc=0 || rc=$?
kill $pid
wait $pid 2>/dev/null || true
echo "responder log: $(wc -l <"$LOG") lines, $(grep -c evicted "$LOG") evicted," \
	"$(grep -c 'refused' "$LOG") refusal lines"
grep -v 'refused\|listening' "$LOG" | head -5
exit $rc
