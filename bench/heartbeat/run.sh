#!/bin/sh
# bench/heartbeat: heartbeat RTT on loopback against sockperf ping-pong's
# on the same machine, same message size (24 bytes: a 12-byte frame header
# and a 12-byte stamp), over TCP: back to back (heartbeat -i 0, sockperf's
# default maximum rate) and at 1000 and 100 messages a second. Run by
# `make bench-heartbeat`; needs sockperf (apt-get install sockperf).
set -eu
NETPROBE=${NETPROBE:-build/netprobe}
PORT=${PORT:-17491}
SPORT=${SPORT:-17492}

command -v sockperf >/dev/null 2>&1 || {
	echo "bench-heartbeat: sockperf missing (apt-get install sockperf)"
	exit 2
}
"$NETPROBE" serve --bind 127.0.0.1 --port "$PORT" 2>/dev/null &
sp=$!
sockperf server --tcp -i 127.0.0.1 -p "$SPORT" >/dev/null 2>&1 &
kp=$!
trap 'kill $sp $kp 2>/dev/null || true' EXIT
sleep 1

hb() { # INTERVAL COUNT
	"$NETPROBE" heartbeat --no-udp -i "$1" -c "$2" --json \
		-o /tmp/bench-hb.json 127.0.0.1:"$PORT"
	python3 -c 'import json,sys
d=json.load(open("/tmp/bench-hb.json"))["tcp"]; r=d["rtt_us"]
print("netprobe heartbeat -i %-4s n=%-6d median %4dus p90 %4dus p99 %4dus" %
      (sys.argv[1], d["received"], r["median"], r["p90"], r["p99"]))' "$1"
}
sp_run() { # MPS-ARGS LABEL
	sockperf ping-pong --tcp --full-rtt -i 127.0.0.1 -p "$SPORT" -m 24 \
		-t 5 "$@" 2>&1 | python3 -c 'import re,sys
t=sys.stdin.read(); p={k:float(v) for k,v in re.findall(r"percentile (\d+)\.000 = +([\d.]+)",t)}
n=re.search(r"\[Valid Duration\].*?ReceivedMessages=(\d+)",t)
print("sockperf ping-pong %-10s n=%-6s median %4.0fus p90 %4.0fus p99 %4.0fus" %
      (sys.argv[1], n.group(1) if n else "?", p["50"], p["90"], p["99"]))' "$*"
}
hb 0 50000
sp_run --mps=max
hb 1ms 5000
sp_run --mps=1000
hb 10ms 500
sp_run --mps=100
