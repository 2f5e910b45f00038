#!/bin/sh
# explain proves causes on a node: recorded nodes (sysroot fixtures) for
# NCCL connecting to 172.17.0.2 (docker-bridge), and for RDMA as scan
# judges it: a container without uverbs, a RoCE node whose
# NCCL_IB_GID_INDEX=3 is RoCE v1 (also with the variable only in the
# log), a container with a 64 KiB memlock limit; and the no-false-alarm
# cases: NCCL's "NET/IB : No device found." on nodes without RDMA
# hardware proves nothing RDMA. The logs name no reachable peer: no
# packet leaves.
set -u
NETPROBE=${NETPROBE:?set NETPROBE to the netprobe binary}
here=$(cd "$(dirname "$0")" && pwd)
fxd=$here/../fixtures/sysroot
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); echo "  ok      $1"; }
bad() { fail=$((fail + 1)); echo "  FAIL    $1"; }
proved() { # DESC CODE CMD...
	d=$1 code=$2
	shift 2
	st=$("$@" --json | jq -r --arg c "$code" \
		'.causes[] | select(.code == $c) | .state')
	if [ "$st" = "proved here" ]; then ok "$d"; else bad "$d (state '$st')"; fi
}
# nothing RDMA proved, and the notes say sockets are the transport
no_rdma() { # DESC CMD...
	d=$1
	shift
	"$@" --json >"$tmp/out.json"
	rc=$?
	n=$(jq '[.causes[] | select((.code | startswith("rdma-")) or
		.code == "ib-device-missing")] | length' "$tmp/out.json")
	s=$(jq '[.measured.notes[] | select(test("sockets"))] | length' \
		"$tmp/out.json")
	if [ "$rc" = 0 ] && [ "$n" = 0 ] && [ "$s" = 1 ]; then
		ok "$d"
	else
		bad "$d (exit $rc, $n rdma cause(s), $s sockets note(s))"
	fi
}
proved "NCCL to 172.17.0.2: container-bridge-nat proved on the docker node" \
	container-bridge-nat "$NETPROBE" explain --sysroot "$fxd/docker-bridge" \
	"$here/nccl219-docker-bridge-timeout.log"
proved "NET/IB no device: rdma-uverbs-missing proved in the container" \
	rdma-uverbs-missing "$NETPROBE" explain \
	--sysroot "$fxd/rdma-container-no-uverbs" \
	"$here/nccl-ib-missing-container.log"
proved "NET plugin IB failed: rdma-netns-exclusive proved (netns exclusive)" \
	rdma-netns-exclusive "$NETPROBE" explain \
	--sysroot "$fxd/rdma-netns-exclusive" \
	"$here/nccl228-ib-plugin-failed.log"
proved "RLIMIT_MEMLOCK warning: rdma-memlock proved in the container" \
	rdma-memlock "$NETPROBE" explain \
	--sysroot "$fxd/rdma-container-no-uverbs" "$here/ibverbs-memlock.log"
proved "IB completion error: rdma-gid-index proved (GID 3 is RoCE v1)" \
	rdma-gid-index "$NETPROBE" explain --sysroot "$fxd/rdma-roce-gid3-v1" \
	"$here/nccl-ib-completion-gid.log"
# the same node without the variable in its environment: the log's
# "NCCL_IB_GID_INDEX set by environment to 3" is what is judged
cp -a "$fxd/rdma-roce-gid3-v1" "$tmp/gid3"
tr '\0' '\n' <"$fxd/rdma-roce-gid3-v1/proc/self/environ" |
	grep -v '^NCCL_IB_GID_INDEX=' | tr '\n' '\0' \
	>"$tmp/gid3/proc/self/environ"
proved "IB completion error: NCCL_IB_GID_INDEX=3 taken from the log" \
	rdma-gid-index "$NETPROBE" explain --sysroot "$tmp/gid3" \
	"$here/nccl-ib-completion-gid.log"
no_rdma "healthy NCCL log on bare metal without RDMA: nothing RDMA" \
	"$NETPROBE" explain --sysroot "$fxd/bare-metal" \
	"$here/nccl-healthy.log"
no_rdma "healthy NCCL log in a docker container without RDMA: nothing RDMA" \
	"$NETPROBE" explain --sysroot "$fxd/docker-bridge" \
	"$here/nccl-healthy.log"
echo "explain lab: $pass passed, $fail failed"
[ "$fail" = 0 ]
