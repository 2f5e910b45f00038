#!/bin/sh
# explain proves causes on a node: a recorded Docker-bridge node (sysroot
# fixture) for NCCL connecting to 172.17.0.2 and for NET/IB's missing
# device, and this node under a 64 KiB memlock limit (prlimit) for
# libibverbs' warning. The logs name no reachable peer: no packet leaves.
set -u
NETPROBE=${NETPROBE:?set NETPROBE to the netprobe binary}
here=$(cd "$(dirname "$0")" && pwd)
fx=$here/../fixtures/sysroot/docker-bridge
pass=0 fail=0
proved() { # DESC CODE CMD...
	d=$1 code=$2
	shift 2
	st=$("$@" --json | jq -r --arg c "$code" \
		'.causes[] | select(.code == $c) | .state')
	if [ "$st" = "proved here" ]; then
		pass=$((pass + 1)); echo "  ok      $d"
	else
		fail=$((fail + 1)); echo "  FAIL    $d (state '$st')"
	fi
}
proved "NCCL to 172.17.0.2: container-bridge-nat proved on the docker node" \
	container-bridge-nat "$NETPROBE" explain --sysroot "$fx" \
	"$here/nccl219-docker-bridge-timeout.log"
proved "NET/IB no device: ib-device-missing proved on the docker node" \
	ib-device-missing "$NETPROBE" explain --sysroot "$fx" \
	"$here/nccl-ib-missing-container.log"
if command -v prlimit >/dev/null 2>&1; then
	proved "RLIMIT_MEMLOCK warning: rdma-memlock proved under ulimit -l 64" \
		rdma-memlock prlimit --memlock=65536 "$NETPROBE" explain \
		"$here/ibverbs-memlock.log"
fi
echo "explain lab: $pass passed, $fail failed"
[ "$fail" = 0 ]
