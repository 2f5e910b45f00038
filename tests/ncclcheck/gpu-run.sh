#!/bin/bash
# Every GPU test and benchmark of ncclcheck in one call, for a host with
# 2 to 4 (or more) GPUs, OpenMPI and NCCL: correctness, the busbw sweeps over
# NVLink and over the socket transport on loopback, -g N, the hang tests
# (a rank killed mid-sweep, an interface that does not exist, an address
# that leads nowhere, a rank that stalls), the corrupted-buffer check and
# the time a default gate run takes.
#
#   NCCLCHECK=path/to/ncclcheck [NCCLCHECK_NOMPI=...] [NT_PERF=...] \
#   [MODE=smoke|full|compare|verify] \
#   [OUT=dir] sh tests/ncclcheck/gpu-run.sh
#
# Writes one log per test and summary.txt (command, exit status, seconds)
# under $OUT/logs, then packs them into $OUT/logs.tgz. Exit status: 0 when
# every test gave the expected result, 1 otherwise.
set -u
BIN=${NCCLCHECK:-build/ncclcheck}
BIN_NOMPI=${NCCLCHECK_NOMPI:-}
MODE=${MODE:-full}
TORCH_PY=${TORCH_PY:-$(dirname "$0")/../../bench/ncclcheck/torch_busbw.py}
OUT=${OUT:-/tmp/ncclcheck-gpu}
LOG=$OUT/logs
mkdir -p "$LOG"
SUM=$LOG/summary.txt
: >"$SUM"
FAILED=0
# NVLink multicast stays off on shared machines (NVLS can wedge the GPUs).
export NCCL_NVLS_ENABLE=0
export TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1

if ! ldd "$BIN" | grep -q 'libnccl.so.2 =>.*/'; then
	lib=$(ldconfig -p 2>/dev/null | awk '/libnccl.so.2 /{print $NF; exit}')
	[ -z "$lib" ] && lib=$(timeout 60 find / -xdev -name 'libnccl.so.2' \
		-not -path '/proc/*' 2>/dev/null | head -1)
	[ -n "$lib" ] && export LD_LIBRARY_PATH=$(dirname "$lib")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
NGPU=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
{
	echo "# host $(hostname), $NGPU GPUs, mode $MODE, $(date -u +%FT%TZ)"
	nvidia-smi -L
	nvidia-smi topo -m 2>/dev/null
	ldd "$BIN" | grep -E 'nccl|mpi|jansson|not found'
	mpirun --version 2>&1 | head -1
} >"$LOG/env.txt" 2>&1

MPIRUN="mpirun --allow-run-as-root --oversubscribe --bind-to none --mca btl self,vader,tcp -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH"

# t NAME EXPECT_RC LIMIT_S CMD...: runs CMD, keeps its output, the command
# line, its exit status and time; a status other than EXPECT_RC fails.
t() {
	name=$1 want=$2 lim=$3
	shift 3
	echo "\$ $*" >"$LOG/$name.log"
	s=$(date +%s%N)
	if [ "$1" = trun ]; then
		shift
		timeout -k 5 "$lim" bash -c 'trun "$@"' _ "$@" \
			>>"$LOG/$name.log" 2>&1
	else
		timeout -k 5 "$lim" "$@" >>"$LOG/$name.log" 2>&1
	fi
	rc=$?
	e=$(date +%s%N)
	secs=$(((e - s) / 1000000))
	secs=$((secs / 1000)).$(printf '%03d' $((secs % 1000)))
	ok=ok
	[ "$rc" = "$want" ] || { ok=UNEXPECTED; FAILED=1; }
	printf '%-20s rc=%-3s want=%-3s %8ss %s  %s\n' "$name" "$rc" "$want" \
		"$secs" "$ok" "$*" >>"$SUM"
	tail -n 4 "$LOG/$name.log" | sed 's/^/    /' >>"$SUM"
	cp "$SUM" "$OUT/summary.txt"
}

# trun N SKIP CMD...: torchrun-style launch without MPI: N processes with RANK, WORLD_SIZE,
# LOCAL_RANK, MASTER_ADDR, MASTER_PORT; each rank's exit status and the
# seconds it took are printed (ranks write rank logs under $LOG). Exit
# status: the worst rank's, leaving out rank SKIP (the one a test kills
# on purpose; -1 for none). Exit status: the worst rank's.
trun() {
	n=$1 skip=$2
	shift 2
	port=$((29500 + RANDOM % 2000))
	pids=""
	t0=$(date +%s%N)
	for r in $(seq 0 $((n - 1))); do
		(
			RANK=$r WORLD_SIZE=$n LOCAL_RANK=$r MASTER_ADDR=127.0.0.1 \
				MASTER_PORT=$port "$@" >"$LOG/tr.$r.out" 2>&1
			rc=$?
			ms=$((($(date +%s%N) - t0) / 1000000))
			echo "rank $r exit $rc after $((ms / 1000)).$(printf '%03d' $((ms % 1000))) s"
			exit $rc
		) &
		pids="$pids $!"
	done
	worst=0
	r=0
	for p in $pids; do
		wait "$p"
		rc=$?
		[ "$r" != "$skip" ] && [ "$rc" -gt "$worst" ] && worst=$rc
		r=$((r + 1))
	done
	for r in $(seq 0 $((n - 1))); do
		sed "s/^/[rank $r] /" "$LOG/tr.$r.out"
	done
	return $worst
}
export -f trun
export LOG

N4=$NGPU
[ "$N4" -gt 4 ] && N4=4
SOCK="-x NCCL_P2P_DISABLE=1 -x NCCL_SHM_DISABLE=1 -x NCCL_NET=Socket -x NCCL_SOCKET_IFNAME=lo"

if [ "$MODE" = compare ]; then
	# side by side with nccl-tests' timing path ($NT_PERF: one process
	# driving -g GPUs, no data check), the same sizes, and ncclcheck both
	# ways (one process, and one process per GPU)
	for n in 2 $N4; do
		vis=$(seq -s, 0 $((n - 1)))
		for c in all_reduce all_gather; do
			[ -n "${NT_PERF:-}" ] && t nt_${c}_g$n 0 300 env CUDA_VISIBLE_DEVICES=$vis "$NT_PERF" -C $c -b 8 -e 8G -f 2 -g $n
			t nc_${c}_g$n 0 300 env CUDA_VISIBLE_DEVICES=$vis "$BIN" -C $c -b 8 -e 8G -f 2 -g $n --json "$LOG/nc_${c}_g$n.json"
			t nc_${c}_np$n 0 300 $MPIRUN -np $n "$BIN" -C $c -b 8 -e 8G -f 2 --json "$LOG/nc_${c}_np$n.json"
		done
	done
	t rs_a2a_np$N4 0 300 $MPIRUN -np "$N4" "$BIN" -C reduce_scatter,alltoall,broadcast,sendrecv -b 8 -e 8G -f 4 --json "$LOG/rs_a2a_np$N4.json"
	t gate_default_$N4 0 300 $MPIRUN -np "$N4" "$BIN" --min-busbw 100 --junit "$LOG/gate.xml" --csv "$LOG/gate.csv" --json "$LOG/gate.json"
elif [ "$MODE" = verify ]; then
	# a short re-check after a change: small sizes against nccl-tests'
	# timing path, the kill and stall tests, the corruption switch
	[ -n "${NT_PERF:-}" ] && t nt_all_reduce_g$N4 0 120 "$NT_PERF" -C all_reduce -b 8 -e 64M -f 8 -g "$N4"
	t nc_all_reduce_g$N4 0 120 "$BIN" -C all_reduce -b 8 -e 64M -f 8 -g "$N4"
	t nc_all_reduce_np$N4 0 120 $MPIRUN -np "$N4" "$BIN" -C all_reduce,all_gather -b 8 -e 64M -f 8
	t hang_kill_tr 1 120 trun "$N4" 2 env NCCLCHECK_TEST_KILL=2:1048576 "$BIN" -T 10s -b 8 -e 64M -f 4
	t hang_stall_tr 1 120 trun "$N4" 3 env NCCLCHECK_TEST_STALL=3:7 "$BIN" -T 10s -b 8 -e 64M -f 4
	t corrupt 1 120 $MPIRUN -np 2 -x NCCLCHECK_TEST_CORRUPT=1 "$BIN" -b 1K -e 64M -f 64
elif [ "$MODE" = smoke ]; then
	t smoke_mpi2 0 60 $MPIRUN -np 2 "$BIN" -b 8 -e 64M -f 8 -C all_reduce,all_gather --json "$LOG/smoke_mpi2.json"
	t smoke_tr2 0 60 trun 2 -1 "$BIN" -b 1K -e 1M -f 32
	t smoke_g2 0 60 "$BIN" -g 2 -b 8 -e 16M -f 16 -C all_reduce,all_gather,reduce_scatter,alltoall,broadcast,sendrecv,reduce
	t smoke_corrupt 1 60 env NCCLCHECK_TEST_CORRUPT=1 "$BIN" -g 2 -b 1M -e 1M
	t smoke_kill 1 60 trun 4 2 env NCCLCHECK_TEST_KILL=2:1048576 "$BIN" -T 10s -b 8 -e 64M -f 4
	t smoke_types 0 100 "$BIN" -g 2 -b 1K -e 1M -f 1024 -d all -o all
	t smoke_bw4 0 100 $MPIRUN -np 4 "$BIN" -b 8 -e 1G -f 8 -C all_reduce,all_gather
	t smoke_bw4_nb 0 100 $MPIRUN -np 4 "$BIN" -b 8 -e 1G -f 8 -C all_reduce --nonblocking
	t smoke_sock 0 100 $MPIRUN -np 2 $SOCK "$BIN" -b 8 -e 16M -f 16 -v
else
	# correctness over every collective, type and operator
	t types_g4 0 300 "$BIN" -g "$N4" -C all -d all -o all -b 1K -e 4M -f 64 --json "$LOG/types_g4.json"
	t check_every 0 120 $MPIRUN -np 2 "$BIN" -C all_reduce,all_gather -b 4K -e 4M -f 32 --check-every -n 5
	t budget 0 120 $MPIRUN -np "$N4" "$BIN" -C all_reduce -b 8 -e 1G -f 8 --budget 20ms -n 1000
	# bandwidth: NVLink path, 8 B to 8 GB
	for n in 2 $N4; do
		t ar_nvl_$n 0 400 $MPIRUN -np $n "$BIN" -C all_reduce -b 8 -e 8G -f 2 --json "$LOG/ar_nvl_$n.json"
		t ag_nvl_$n 0 400 $MPIRUN -np $n "$BIN" -C all_gather -b 8 -e 8G -f 2 --json "$LOG/ag_nvl_$n.json"
	done
	t rs_a2a_nvl_$N4 0 400 $MPIRUN -np "$N4" "$BIN" -C reduce_scatter,alltoall,broadcast,sendrecv -b 8 -e 8G -f 4 --json "$LOG/rs_a2a_nvl_$N4.json"
	t g_one_process 0 400 "$BIN" -g "$N4" -C all_reduce,all_gather -b 8 -e 8G -f 4 -v --json "$LOG/g_one_process.json"
	t nonblocking_$N4 0 400 $MPIRUN -np "$N4" "$BIN" -C all_reduce -b 8 -e 8G -f 8 --nonblocking
	# an independent measurement: PyTorch's NCCL on the same GPUs
	t torch_$N4 0 300 python3 -m torch.distributed.run --nproc_per_node="$N4" "$TORCH_PY"
	# bandwidth: socket transport forced over loopback (NCCL debug kept)
	for n in 2 $N4; do
		t sock_$n 0 400 $MPIRUN -np $n $SOCK "$BIN" -C all_reduce,all_gather -b 8 -e 512M -f 4 -v --json "$LOG/sock_$n.json"
	done
	mkdir -p "$LOG/nccl-debug"
	cp /tmp/ncclcheck.* "$LOG/nccl-debug/" 2>/dev/null
	# hang tests
	t hang_kill_tr 1 120 trun "$N4" 2 env NCCLCHECK_TEST_KILL=2:1048576 "$BIN" -T 10s -b 8 -e 64M -f 4
	t hang_kill_mpi 137 120 $MPIRUN -np "$N4" -x NCCLCHECK_TEST_KILL=2:1048576 "$BIN" -T 10s -b 8 -e 64M -f 4
	t hang_stall_tr 1 120 trun "$N4" 3 env NCCLCHECK_TEST_STALL=3:7 "$BIN" -T 10s -b 8 -e 64M -f 4
	t hang_nosuch_iface 1 120 $MPIRUN -np 2 -x NCCL_SOCKET_IFNAME=nosuch0 "$BIN" -T 10s
	t hang_nowhere 1 120 trun "$N4" -1 env NCCLCHECK_TEST_ADVERTISE=3:10.255.255.1 "$BIN" -T 10s --preflight-timeout 3s
	t hang_nowhere_nccl 1 120 trun 2 -1 env NCCL_COMM_ID=10.255.255.1:29999 "$BIN" -T 10s --no-preflight
	# wrong results caught
	t corrupt 1 120 $MPIRUN -np 2 -x NCCLCHECK_TEST_CORRUPT=1 "$BIN" -b 1K -e 64M -f 64 --json "$LOG/corrupt.json"
	# refusals
	[ -n "$BIN_NOMPI" ] && t refuse_nompi 2 60 $MPIRUN -np 2 "$BIN_NOMPI"
	t refuse_one_rank 2 60 "$BIN"
	t gate_fail 1 120 $MPIRUN -np 2 "$BIN" -e 1M --min-busbw all_reduce:10000 --max-latency 1us
	# the default gate run on all GPUs, timed
	t gate_default_$N4 0 300 $MPIRUN -np "$N4" "$BIN" --min-busbw 100 --junit "$LOG/gate.xml" --csv "$LOG/gate.csv" --json "$LOG/gate.json"
fi
cat "$SUM"
(cd "$OUT" && tar czf logs.tgz logs && rm -rf logs)
exit $FAILED
