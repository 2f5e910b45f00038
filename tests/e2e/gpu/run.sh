#!/bin/bash
# The GPU part of the end-to-end suite, for the device machine: two ranks
# in two network and UTS namespaces (two hosts to NCCL, so NET/Socket over
# veth between them), judged by torch's NCCL backend and by ncclcheck, and
# checked against netprobe.
#   healthy   a veth between the two nodes: both pass; busbw recorded
#   nat       rank 0 in a container behind masquerade on its host (port
#             29500 published): NCCL hangs in socketStartConnect to
#             172.17.0.2; ncclcheck's pre-flight names the rank and its
#             address; netprobe scan in the container: container-bridge-nat
#   ifname    two NICs, NCCL_SOCKET_IFNAME=mgmt0 (exists, but the nodes
#             cannot reach each other there): NCCL fails; netprobe flags
#             it and exports NCCL_SOCKET_IFNAME==train0, which passes
#   mtu       a 1400-byte link whose ICMP frag-needed is dropped: small sizes
#             pass, large ones stall; ncclcheck names size and step within
#             -T; netprobe path names the MTU; set, everything passes
#
# Prepare here: sh tests/e2e/gpu/prepare.sh (fills build/e2e/gpu). There,
# as root, with the repository as working directory (carry build/e2e/gpu):
#   OUT=$OUT SCENARIOS="healthy nat" bash tests/e2e/gpu/run.sh
# Each scenario writes $OUT/<scenario>/*.log; $OUT/summary.txt lists every
# command with its exit status, seconds and what was expected. Exit status:
# 0 every result as expected, 1 one was not, 2 could not run.
# E2E_GPU_SELFTEST=1 checks the script itself on a machine without a GPU:
# torch's Gloo backend on CPU instead of NCCL, ncclcheck left out.
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
G=${E2E_GPU:-$top/build/e2e/gpu}
OUT=${OUT:-/tmp/e2e-gpu}
SCENARIOS=${SCENARIOS:-healthy nat ifname mtu}
PY=${E2E_GPU_PY:-python3}
JOB=$top/tests/e2e/torch_job.py
: "${E2E_T:=30}"
: "${E2E_CUT:=60}"
export E2E_T E2E_CUT
ID=g$$
NSLIST=""
FAILED=0
mkdir -p "$OUT" || exit 2
SUM=$OUT/summary.txt
: >"$SUM"

die() {
	echo "gpu e2e: $*" | tee -a "$SUM" >&2
	exit 2
}
[ "$(id -u)" = 0 ] || die "needs root"
DEBLIB=$G/root/usr/lib/x86_64-linux-gnu:$G/root/lib/x86_64-linux-gnu
IPBIN=$(ls "$G"/root/usr/bin/ip "$G"/root/bin/ip "$G"/root/sbin/ip \
	"$G"/root/usr/sbin/ip 2>/dev/null | head -n 1)
NFTBIN=$(ls "$G"/root/usr/sbin/nft 2>/dev/null | head -n 1)
[ -x "$IPBIN" ] && [ -x "$NFTBIN" ] ||
	die "no ip or nft under $G/root: run tests/e2e/gpu/prepare.sh here first"
for b in mkveth netprobe ncclcheck; do
	[ -x "$G/bin/$b" ] || die "no $G/bin/$b"
done
for t in nsenter unshare timeout; do
	command -v "$t" >/dev/null || die "no $t"
done
SELFTEST=${E2E_GPU_SELFTEST:-0}
BACKEND=nccl
if [ "$SELFTEST" = 1 ]; then
	BACKEND=gloo
	NGPU=1
else
	"$PY" -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null ||
		die "$PY has no torch with CUDA"
	NGPU=$(nvidia-smi -L | grep -c '^GPU')
	[ "$NGPU" -ge 1 ] || die "no GPU"
fi

# Debian's tools with their libraries; everything else with the device's.
ip() { LD_LIBRARY_PATH=$DEBLIB "$IPBIN" "$@"; }
nft() { LD_LIBRARY_PATH=$DEBLIB "$NFTBIN" "$@"; }
mkveth() { LD_LIBRARY_PATH=$DEBLIB "$G/bin/mkveth" "$@"; }
NETPROBE="env LD_LIBRARY_PATH=$DEBLIB $G/bin/netprobe"
NCCLCHECK=$G/bin/ncclcheck
# NVLink multicast stays off on these shared machines; no InfiniBand, so
# that the ranks talk over NET/Socket on the namespaces' veths.
export NCCL_NVLS_ENABLE=0 NCCL_IB_DISABLE=1 NCCL_DEBUG=INFO \
	NCCL_DEBUG_SUBSYS=INIT,NET,BOOTSTRAP

cleanup() {
	for ns in $NSLIST; do
		for p in $(ip netns pids "$ns" 2>/dev/null); do
			kill -9 "$p" 2>/dev/null
		done
		ip netns del "$ns" 2>/dev/null
		rm -rf "/etc/netns/$ns"
	done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ns VAR SHORT HOSTNAME: a node; its hostname kept in /etc/netns/NS/hostname.
ns() {
	local n=$ID-$2
	ip netns add "$n" || die "ip netns add $n"
	NSLIST="$NSLIST $n"
	ip -n "$n" link set lo up
	mkdir -p "/etc/netns/$n"
	echo "$3" >"/etc/netns/$n/hostname"
	printf '127.0.0.1 localhost\n' >"/etc/netns/$n/hosts"
	eval "$1=\$n"
}

# hosts NS LINE...: lines added to NS's /etc/hosts.
hosts() {
	local n=$1
	shift
	printf '%s\n' "$@" >>"/etc/netns/$n/hosts"
}

# on NS CMD...: CMD in NS with its hostname, /etc/hosts and a /sys of its
# own (what `ip netns exec` does, without Debian's libraries leaking in).
on() {
	local n=$1
	shift
	nsenter --net="/run/netns/$n" unshare --uts --mount --propagation slave \
		bash -c 'umount -l /sys 2>/dev/null; mount -t sysfs sysfs /sys
mount --bind "/etc/netns/$0/hosts" /etc/hosts
hostname "$(cat "/etc/netns/$0/hostname")"; exec "$@"' "$n" "$@"
}

# t SCEN NAME WANT LIMIT CMD...: runs CMD bounded by LIMIT seconds, its
# output in $OUT/SCEN/NAME.log (first line the command), one summary line;
# WANT is the expected exit status ("ok" for 0, "fail" for anything else).
t() {
	local scen=$1 name=$2 want=$3 lim=$4 rc s e ok
	shift 4
	mkdir -p "$OUT/$scen"
	echo "\$ $*" >"$OUT/$scen/$name.log"
	s=$(date +%s)
	timeout -k 5 "$lim" bash -c '"$@"' _ "$@" >>"$OUT/$scen/$name.log" 2>&1
	rc=$?
	e=$(date +%s)
	ok=as-expected
	[ "$want" = any ] && ok="(not judged)"
	if { [ "$want" = ok ] && [ "$rc" != 0 ]; } ||
		{ [ "$want" = fail ] && [ "$rc" = 0 ]; }; then
		ok=UNEXPECTED
		FAILED=1
	fi
	printf '%-8s %-22s rc=%-3s want=%-4s %4ss %s\n' "$scen" "$name" "$rc" \
		"$want" "$((e - s))" "$ok" >>"$SUM"
	grep -E '(nccl|gloo): (ok|error|hang)|^ *(fault|warning) |advertises|socketStartConnect|NET/Socket : Using|busbw|timed out|collective-timeout' \
		"$OUT/$scen/$name.log" | head -n 8 | cut -c1-300 |
		sed 's/^/    /' >>"$SUM"
	return "$rc"
}

# gpu R: the GPU of rank R (both ranks share GPU 0 on a one-GPU machine:
# NCCL refuses a duplicate GPU only within one host hash, and the two
# hostnames make two).
gpu() { if [ "$NGPU" -ge 2 ]; then echo "$1"; else echo 0; fi; }

# rank_env R: the launcher's variables for rank R of 2.
rank_env() {
	echo "RANK=$1 WORLD_SIZE=2 LOCAL_RANK=0 CUDA_VISIBLE_DEVICES=$(gpu "$1") MASTER_ADDR=$MASTER MASTER_PORT=29500"
}

# pair SCEN NAME WANT EXTRA_ENV CMD...: CMD as rank 0 on $N0 and rank 1 on
# $N1 at once (EXTRA_ENV: more VAR=value words for both), each bounded;
# exit status: the worse of the two.
pair() {
	local scen=$1 name=$2 want=$3 extra=$4 p0 p1 r0 r1
	shift 4
	# shellcheck disable=SC2046 # VAR=value words
	on "$N0" env $(rank_env 0) $extra "$@" >"$OUT/$scen/$name.r0" 2>&1 &
	p0=$!
	on "$N1" env $(rank_env 1) $extra "$@" >"$OUT/$scen/$name.r1" 2>&1 &
	p1=$!
	wait "$p0"
	r0=$?
	wait "$p1"
	r1=$?
	echo "rank 0: exit $r0; rank 1: exit $r1"
	sed 's/^/[rank 0] /' "$OUT/$scen/$name.r0"
	sed 's/^/[rank 1] /' "$OUT/$scen/$name.r1"
	rm -f "$OUT/$scen/$name.r0" "$OUT/$scen/$name.r1"
	[ "$r0" -ge "$r1" ] && return "$r0"
	return "$r1"
}
export -f on pair rank_env gpu

# torch SCEN NAME WANT [VAR=value...]: torch's NCCL backend, 1 KB to 64 MB.
# The self-test's Gloo does not read NCCL_SOCKET_IFNAME and works across
# this NAT (the higher address connects): it judges the runs that NCCL
# fails and Gloo does not as "any".
torchrun2() {
	local scen=$1 name=$2 want=$3
	shift 3
	if [ "$SELFTEST" = 1 ] && [ "$want" = fail ] &&
		{ [ "$scen" = nat ] || [ "$scen" = ifname ]; }; then
		want=any
	fi
	mkdir -p "$OUT/$scen"
	t "$scen" "$name" "$want" $((E2E_CUT + 90)) \
		pair "$scen" "$name" "$want" "E2E_BACKEND=$BACKEND E2E_TIMEOUT=$E2E_T E2E_CUT=$E2E_CUT $*" \
		"$PY" -u "$JOB"
}

# ncclcheck2 SCEN NAME WANT ENV ARGS...: ncclcheck as torchrun would start
# it, with ENV (VAR=value words) for both ranks.
ncclcheck2() {
	local scen=$1 name=$2 want=$3 extra=$4
	shift 4
	mkdir -p "$OUT/$scen"
	if [ "$SELFTEST" = 1 ]; then
		echo "$scen     $name: left out (self-test)" >>"$SUM"
		return 0
	fi
	t "$scen" "$name" "$want" 150 pair "$scen" "$name" "$want" "$extra" \
		"$NCCLCHECK" "$@"
}

# serve NS: a responder on the node (killed with the namespace), waited
# for (bounded) until it listens on 7470 (0x1D2E; the device machine has
# no ss, so the kernel's socket table is read).
serve() {
	local i
	on "$1" $NETPROBE serve >"$OUT/serve.$1.log" 2>&1 &
	for i in $(seq 50); do
		nsenter --net="/run/netns/$1" cat /proc/net/tcp /proc/net/tcp6 \
			2>/dev/null | grep -q ':1D2E [0-9A-F]*:0000 0A' && return 0
		sleep 0.1
	done
	echo "serve: no responder listens in $1 after 5 s" >&2
}

export OUT NCCLCHECK PY JOB NGPU

scen_healthy() {
	ns N0 a gpu-a
	ns N1 b gpu-b
	mkveth veth eth0 "$N0" eth0 "$N1" || die "mkveth"
	ip -n "$N0" addr add 10.231.110.1/24 dev eth0
	ip -n "$N1" addr add 10.231.110.2/24 dev eth0
	ip -n "$N0" link set eth0 up
	ip -n "$N1" link set eth0 up
	for n in "$N0" "$N1"; do
		hosts "$n" "10.231.110.1 gpu-a" "10.231.110.2 gpu-b"
	done
	MASTER=10.231.110.1
	export MASTER N0 N1
	serve "$N1"
	t healthy netprobe_scan ok 60 on "$N0" $NETPROBE scan --peer 10.231.110.2
	torchrun2 healthy torch_nccl ok
	ncclcheck2 healthy ncclcheck ok "" -b 1K -e 512M -f 4 -T 30s \
		--json "$OUT/healthy/ncclcheck.json"
}

scen_nat() {
	ns H a gpu-a
	ns N0 ctr 3f2a9c1b7d4e
	ns N1 b gpu-b
	mkveth veth eth0 "$H" eth0 "$N1" || die "mkveth"
	mkveth veth veth3f2a9c1 "$H" eth0 "$N0" || die "mkveth"
	ip -n "$H" addr add 10.231.111.1/24 dev eth0
	ip -n "$N1" addr add 10.231.111.2/24 dev eth0
	ip -n "$H" addr add 172.17.0.1/16 dev veth3f2a9c1
	ip -n "$N0" addr add 172.17.0.2/16 dev eth0
	for l in "$H eth0" "$H veth3f2a9c1" "$N0 eth0" "$N1 eth0"; do
		set -- $l
		ip -n "$1" link set "$2" up
	done
	ip -n "$N0" route add default via 172.17.0.1
	on "$H" sysctl -qw net.ipv4.ip_forward=1
	on "$H" env LD_LIBRARY_PATH="$DEBLIB" "$NFTBIN" -f - <<'NFT'
table ip e2e_nat {
	chain prerouting {
		type nat hook prerouting priority dstnat;
		fib daddr type local tcp dport 29500 dnat to 172.17.0.2:29500
	}
	chain postrouting {
		type nat hook postrouting priority srcnat;
		ip saddr 172.17.0.0/16 oifname != "veth3f2a9c1" masquerade
		ip saddr 172.17.0.0/16 ip daddr 172.17.0.2 tcp dport 29500 masquerade
	}
}
NFT
	hosts "$H" "10.231.111.1 gpu-a" "10.231.111.2 gpu-b"
	hosts "$N1" "10.231.111.1 gpu-a" "10.231.111.2 gpu-b"
	hosts "$N0" "172.17.0.2 3f2a9c1b7d4e" "10.231.111.2 gpu-b"
	MASTER=10.231.111.1
	export MASTER N0 N1
	serve "$N1"
	t nat netprobe_scan fail 60 on "$N0" $NETPROBE scan --peer 10.231.111.2
	torchrun2 nat torch_nccl fail
	ncclcheck2 nat ncclcheck fail "" -b 1K -e 1M -T 20s --preflight-timeout 3s
	ncclcheck2 nat ncclcheck_nopreflight fail "" -b 1K -e 1M -T 20s \
		--no-preflight
}

scen_ifname() {
	ns R mgmt mgmt-gw
	ns N0 a gpu-a
	ns N1 b gpu-b
	mkveth veth mgmt0 "$N0" gwa "$R" || die "mkveth"
	mkveth veth mgmt0 "$N1" gwb "$R" || die "mkveth"
	mkveth veth train0 "$N0" train0 "$N1" || die "mkveth"
	# the management network: the default route, but no way from one
	# node to the other (the gateway does not forward)
	ip -n "$R" addr add 10.231.112.126/25 dev gwa
	ip -n "$R" addr add 10.231.112.254/25 dev gwb
	ip -n "$N0" addr add 10.231.112.1/25 dev mgmt0
	ip -n "$N1" addr add 10.231.112.129/25 dev mgmt0
	ip -n "$N0" addr add 10.231.113.1/24 dev train0
	ip -n "$N1" addr add 10.231.113.2/24 dev train0
	for l in "$R gwa" "$R gwb" "$N0 mgmt0" "$N1 mgmt0" "$N0 train0" \
		"$N1 train0"; do
		set -- $l
		ip -n "$1" link set "$2" up
	done
	ip -n "$N0" route add default via 10.231.112.126
	ip -n "$N1" route add default via 10.231.112.254
	for n in "$N0" "$N1"; do
		hosts "$n" "10.231.113.1 gpu-a" "10.231.113.2 gpu-b"
	done
	MASTER=10.231.113.1
	export MASTER N0 N1
	serve "$N1"
	serve "$N0"
	t ifname netprobe_scan fail 60 on "$N0" env NCCL_SOCKET_IFNAME=mgmt0 \
		$NETPROBE scan --peer 10.231.113.2
	on "$N0" env NCCL_SOCKET_IFNAME=mgmt0 $NETPROBE scan --export \
		--quick --peer 10.231.113.2 >"$OUT/ifname/export" 2>&1
	torchrun2 ifname torch_nccl fail NCCL_SOCKET_IFNAME=mgmt0
	ncclcheck2 ifname ncclcheck fail NCCL_SOCKET_IFNAME=mgmt0 -b 1K -e 1M \
		-T 20s --preflight-timeout 3s
	fix=$(sed -n "s/^export NCCL_SOCKET_IFNAME='\(.*\)'$/\1/p" \
		"$OUT/ifname/export")
	echo "netprobe's export: NCCL_SOCKET_IFNAME=$fix" >>"$SUM"
	torchrun2 ifname torch_nccl_fixed ok "NCCL_SOCKET_IFNAME=$fix"
	ncclcheck2 ifname ncclcheck_fixed ok "NCCL_SOCKET_IFNAME=$fix" -b 1K \
		-e 512M -f 4 -T 30s --json "$OUT/ifname/ncclcheck_fixed.json"
}

scen_mtu() {
	ns R r router
	ns N0 a gpu-a
	ns N1 b gpu-b
	mkveth veth eth0 "$N0" ra "$R" || die "mkveth"
	mkveth veth rb "$R" eth0 "$N1" || die "mkveth"
	ip -n "$N0" addr add 10.231.114.1/24 dev eth0
	ip -n "$R" addr add 10.231.114.254/24 dev ra
	ip -n "$R" addr add 10.231.115.254/24 dev rb
	ip -n "$N1" addr add 10.231.115.2/24 dev eth0
	ip -n "$R" link set rb mtu 1400
	for l in "$N0 eth0" "$R ra" "$R rb" "$N1 eth0"; do
		set -- $l
		ip -n "$1" link set "$2" up
	done
	ip -n "$N0" route add default via 10.231.114.254
	ip -n "$N1" route add default via 10.231.115.254
	on "$R" sysctl -qw net.ipv4.ip_forward=1
	on "$R" env LD_LIBRARY_PATH="$DEBLIB" "$NFTBIN" -f - <<'NFT'
table inet e2e_blackhole {
	chain e2e_out {
		type filter hook output priority 0;
		icmp type destination-unreachable icmp code frag-needed drop
	}
	chain e2e_fwd {
		type filter hook forward priority 0;
		icmp type destination-unreachable icmp code frag-needed drop
	}
}
NFT
	for n in "$N0" "$N1"; do
		hosts "$n" "10.231.114.1 gpu-a" "10.231.115.2 gpu-b"
	done
	MASTER=10.231.114.1
	export MASTER N0 N1
	serve "$N1"
	t mtu netprobe_path fail 60 on "$N0" $NETPROBE path 10.231.115.2
	torchrun2 mtu torch_nccl fail
	ncclcheck2 mtu ncclcheck fail "" -b 1K -e 64M -f 8 -T 20s
	mtu=$(grep -o -m1 'ip link set dev [^ ]* mtu [0-9]*' \
		"$OUT/mtu/netprobe_path.log" | awk '{print $NF}')
	echo "netprobe path names mtu ${mtu:-nothing}" >>"$SUM"
	[ -n "$mtu" ] || { FAILED=1; return; }
	ip -n "$N0" link set eth0 mtu "$mtu"
	ip -n "$N1" link set eth0 mtu "$mtu"
	torchrun2 mtu torch_nccl_fixed ok
	ncclcheck2 mtu ncclcheck_fixed ok "" -b 1K -e 512M -f 4 -T 30s \
		--json "$OUT/mtu/ncclcheck_fixed.json"
}

{
	echo "# $(date -u +%FT%TZ), $NGPU GPUs, scenarios: $SCENARIOS"
	nvidia-smi -L
	"$PY" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "nccl", torch.cuda.nccl.version() if torch.cuda.is_available() else None)'
	ldd "$NCCLCHECK" | grep -E 'nccl|not found'
	uname -r
} >"$OUT/env.txt" 2>&1
for s in $SCENARIOS; do
	echo "=== $s" | tee -a "$SUM"
	case $s in
	healthy | nat | ifname | mtu) "scen_$s" ;;
	*) die "unknown scenario '$s'" ;;
	esac
	cleanup
	NSLIST=""
done
cat "$SUM"
exit "$FAILED"
