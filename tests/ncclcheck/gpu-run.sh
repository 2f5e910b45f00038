#!/bin/bash
# Every GPU test of ncclcheck in one call, for a host with 2 or more GPUs,
# Open MPI and NCCL; it builds nothing. Correctness over every collective,
# type and operator; the sweeps over NVLink and over the socket transport
# on loopback; -g N, -G, -z, -a; the refusals (no GPU first); a real
# torchrun (its agent's store); the hang tests (a rank killed, a rank
# frozen with SIGSTOP under mpirun and under torchrun, rank 1 stopped and
# killed at moments over the whole run (gpu-hang.sh), an interface that
# does not exist, an address that leads nowhere, a rank that stalls); the
# corrupted-buffer check, which only the test build obeys; the gate; and
# the end-to-end time of the default run beside nccl-tests' default run.
#
#   NCCLCHECK=path/to/ncclcheck NCCLCHECK_TEST=path/to/ncclcheck-test \
#   [NCCLCHECK_NOMPI=...] [NT_DIR=nccl-tests binaries] \
#   [TORCHRUN=/opt/torch/.venv/bin/torchrun] [MODE=full|one|smoke|hw] \
#   [GPU_HOG=build/gpu_hog] [OUT=dir] bash tests/ncclcheck/gpu-run.sh
#
# MODE=hw runs only the hardware tests (also part of full): ten idle
# default runs that must name no GPU; a competing kernel (gpu_hog, built
# from tests/ncclcheck/gpu_hog.cu) on the second GPU that must be named
# as rank 1 three times of three, and as rank 0 three of three with
# CUDA_VISIBLE_DEVICES swapped; the share of the bound both programs
# reach at 8 GB; --pairs.
#
# Writes one log per test and summary.txt (test, exit status, expected
# status, seconds, command, last lines) under $OUT/logs, then packs them
# into $OUT/logs.tgz. Exit status: 0 when every test gave the expected
# result, 1 otherwise.
set -u
BIN=${NCCLCHECK:-build/ncclcheck}
BIN_TEST=${NCCLCHECK_TEST:-build/ncclcheck-test}
BIN_NOMPI=${NCCLCHECK_NOMPI:-}
NT_DIR=${NT_DIR:-}
MODE=${MODE:-}
GPU_HOG=${GPU_HOG:-$(dirname "$0")/../../build/gpu_hog}
TORCHRUN=${TORCHRUN:-/opt/torch/.venv/bin/torchrun}
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

# libnccl.so.2 and libcudart.so.13 where the binaries will find them
for lib in libnccl.so.2 libcudart.so.13; do
	ldd "$BIN" "${NT_DIR:-/nonexistent}/all_reduce_perf" 2>/dev/null |
		grep -q "$lib => /" && continue
	p=$(ldconfig -p 2>/dev/null | awk -v l="$lib" '$1 == l {print $NF; exit}')
	[ -z "$p" ] && p=$(ls /usr/local/cuda/lib64/"$lib" \
		/usr/local/cuda/targets/*/lib/"$lib" 2>/dev/null | head -1)
	[ -n "$p" ] && export LD_LIBRARY_PATH=$(dirname "$p")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
done
NGPU=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
N=$NGPU
# one GPU runs what one rank can show (MODE=one); every other test needs two
[ -n "$MODE" ] || { [ "$NGPU" -ge 2 ] && MODE=full || MODE=one; }
[ "$N" -gt 4 ] && N=4
{
	echo "# host $(hostname), $NGPU GPUs, mode $MODE, $(date -u +%FT%TZ)"
	nvidia-smi -L
	nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1
	nvidia-smi topo -m 2>/dev/null
	ldd "$BIN" | grep -E 'nccl|mpi|jansson|cudart|not found'
	[ -n "$NT_DIR" ] && ldd "$NT_DIR/all_reduce_perf" | grep -E 'nccl|mpi|cudart|not found'
	mpirun --version 2>&1 | head -1
	"$TORCHRUN" --help >/dev/null 2>&1 && echo "torchrun: $TORCHRUN" &&
		"$(dirname "$TORCHRUN")/python3" -c 'import torch; print("torch", torch.__version__, "nccl", torch.cuda.nccl.version())'
} >"$LOG/env.txt" 2>&1

MPIRUN="mpirun --allow-run-as-root --oversubscribe --bind-to none --mca btl self,vader,tcp -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH"

# t NAME EXPECT_RC LIMIT_S CMD...: runs CMD, keeps its output, the command
# line, its exit status and time; a status other than EXPECT_RC fails.
# CMD may be one of the functions below (trun, frozen, must).
t() {
	name=$1 want=$2 lim=$3
	shift 3
	echo "\$ $*" >"$LOG/$name.log"
	s=$(date +%s%N)
	case $1 in
	trun | frozen | must | mustnot)
		timeout -k 5 "$lim" bash -c '"$@"' _ "$@" \
			>>"$LOG/$name.log" 2>&1 ;;
	*)
		timeout -k 5 "$lim" "$@" >>"$LOG/$name.log" 2>&1 ;;
	esac
	rc=$?
	e=$(date +%s%N)
	secs=$(((e - s) / 1000000))
	secs=$((secs / 1000)).$(printf '%03d' $((secs % 1000)))
	ok=ok
	[ "$rc" = "$want" ] || { ok=UNEXPECTED; FAILED=1; }
	printf '%-22s rc=%-3s want=%-3s %8ss %s  %s\n' "$name" "$rc" "$want" \
		"$secs" "$ok" "$*" >>"$SUM"
	tail -n 4 "$LOG/$name.log" | sed 's/^/    /' >>"$SUM"
	cp "$SUM" "$OUT/summary.txt"
}

# must PATTERN CMD...: runs CMD; its exit status, or 99 when its output
# lacks PATTERN (an extended regular expression).
must() {
	pat=$1
	shift
	"$@" >"$LOG/must.out" 2>&1
	rc=$?
	cat "$LOG/must.out"
	grep -Eq "$pat" "$LOG/must.out" || { echo "must: no '$pat'"; return 99; }
	return $rc
}

# trun N SKIP CMD...: torchrun-style launch without MPI: N processes with
# RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT; each rank's exit
# status and the seconds it took are printed. Exit status: the worst
# rank's, leaving out rank SKIP (the one a test kills on purpose; -1 none).
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

# frozen DELAY CMD...: starts CMD (mpirun or torchrun) in the background,
# stops its rank 1 with SIGSTOP after DELAY seconds, waits (bounded) for
# the launcher to end, then kills the stopped process by its id. Exit
# status 0 when the survivors named rank 1 as stopped responding, else 1.
frozen() {
	delay=$1
	shift
	"$@" >"$LOG/frozen.out" 2>&1 &
	lp=$!
	sleep "$delay"
	victim=""
	kids=$(ps -o pid= --ppid "$lp")
	for k in $kids; do
		kids="$kids $(ps -o pid= --ppid "$k")"
	done
	for p in $kids; do
		if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null |
			grep -Eqx 'OMPI_COMM_WORLD_RANK=1|RANK=1'; then
			victim=$p
		fi
	done
	if [ -z "$victim" ]; then
		echo "frozen: rank 1 not found among $kids"
		kill -KILL "$lp"
		return 1
	fi
	echo "frozen: SIGSTOP to rank 1 (pid $victim) at ${delay} s"
	kill -STOP "$victim"
	# until the launcher ends or a survivor has said why, at most 60 s
	for _ in $(seq 1 120); do
		kill -0 "$lp" 2>/dev/null || break
		grep -q "collective-timeout" "$LOG/frozen.out" && break
		sleep 0.5
	done
	sleep 3
	kill -KILL "$victim" 2>/dev/null
	for _ in $(seq 1 20); do
		kill -0 "$lp" 2>/dev/null || break
		sleep 0.5
	done
	kill -KILL "$lp" 2>/dev/null
	wait "$lp"
	echo "frozen: launcher exit $?"
	cat "$LOG/frozen.out"
	grep -Eq "rank 1 on [^ ]+ stopped responding [0-9.]+ s ago during" \
		"$LOG/frozen.out"
}
# mustnot PATTERN CMD...: runs CMD; its exit status, or 98 when its
# output has PATTERN.
mustnot() {
	pat=$1
	shift
	"$@" >"$LOG/must.out" 2>&1
	rc=$?
	cat "$LOG/must.out"
	grep -Eq "$pat" "$LOG/must.out" && { echo "mustnot: found '$pat'"; return 98; }
	return $rc
}

# hw_tests: the slow GPU named (and nobody on an idle machine), the share
# of the hardware's bound at 8 GB, --pairs.
hw_tests() {
	for i in 1 2 3 4 5 6 7 8 9 10; do
		t idle_$i 0 120 mustnot "gpu-slow|pcie-link-degraded" $MPIRUN -np 2 "$BIN" --json "$LOG/idle_$i.json"
	done
	if [ -x "$GPU_HOG" ]; then
		"$GPU_HOG" 1 150 >"$LOG/hog.out" 2>&1 &
		hog=$!
		sleep 2
		for i in 1 2 3; do
			t hog_$i 1 120 must "gpu-slow: rank 1 on" $MPIRUN -np 2 "$BIN" --json "$LOG/hog_$i.json"
		done
		for i in 1 2 3; do
			t hog_swap_$i 1 120 must "gpu-slow: rank 0 on" $MPIRUN -np 2 -x CUDA_VISIBLE_DEVICES=1,0 "$BIN"
		done
		[ -n "$NT_DIR" ] && t hog_nt 0 120 $MPIRUN -np 2 "$NT_DIR/all_reduce_perf" -b 512M -e 512M
		t hog_nc_512m 1 120 $MPIRUN -np 2 "$BIN" -b 512M -e 512M
		kill "$hog"
		wait "$hog"
	else
		echo "hw: no $GPU_HOG: the loaded-GPU tests skipped" >>"$SUM"
	fi
	[ -n "$NT_DIR" ] && t eff_nt_8g 0 200 $MPIRUN -np 2 "$NT_DIR/all_reduce_perf" -b 8G -e 8G
	t eff_nc_8g 0 200 $MPIRUN -np 2 "$BIN" -b 8G -e 8G --json "$LOG/eff_nc_8g.json"
	t pairs 0 120 must "# pairs:" $MPIRUN -np 2 "$BIN" --pairs -b 64M -e 64M --json "$LOG/pairs.json"
	t min_eff_fail 1 120 must "gate FAIL: min-efficiency" $MPIRUN -np 2 "$BIN" -b 64M -e 64M --min-efficiency 99
}

export -f trun must mustnot frozen
export LOG

SOCK="-x NCCL_P2P_DISABLE=1 -x NCCL_SHM_DISABLE=1 -x NCCL_NET=Socket -x NCCL_SOCKET_IFNAME=lo"
TR="$TORCHRUN --nnodes 1 --nproc-per-node $N --no-python"
F8G="-C all_reduce -b 8G -e 8G -n 400 -T 15s"

if [ "$MODE" = hw ]; then
	hw_tests
elif [ "$MODE" = one ]; then
	# one GPU: the refusals, every collective, type and operator checked
	# on one rank, the launchers' words, -C list's factors from the table,
	# wrong results caught, the gate; two ranks on the one GPU must be
	# refused by name once their pre-flight has run over the wire codec
	t nogpu 2 30 must "no GPU: CUDA found no device" env CUDA_VISIBLE_DEVICES= "$BIN" -b 8 -e 8
	t refuse_one_rank 2 60 must "only one rank" "$BIN"
	t list 0 30 must '2\(n-1\)/n' "$BIN" -C list
	t one_types 0 300 "$BIN" --allow-one-rank -C all -d all -o all -b 1K -e 4M -f 64 --json "$LOG/one_types.json"
	t one_sweep 0 300 "$BIN" --allow-one-rank -C all -b 8 -e 1G -f 8 --json "$LOG/one_sweep.json"
	t one_mpi 0 120 must '"launcher": "mpi"' $MPIRUN -np 1 "$BIN" --allow-one-rank -b 8 -e 64M -f 8 --json -
	t one_torchrun 0 120 must '"launcher": "torchrun"' $TORCHRUN --nnodes 1 --nproc-per-node 1 --master-port $((30000 + RANDOM % 1000)) --no-python "$BIN" --allow-one-rank -b 8 -e 64M -f 8 --json -
	t one_corrupt 1 120 env NCCLCHECK_TEST_CORRUPT=0 "$BIN_TEST" --allow-one-rank -b 1K -e 64M -f 64 --json "$LOG/one_corrupt.json"
	t one_gate_fail 1 120 "$BIN" --allow-one-rank -e 1M --max-latency 1us
	t two_on_one 2 120 $MPIRUN -np 2 "$BIN" -b 8 -e 1M -T 10s
elif [ "$MODE" = smoke ]; then
	t smoke_mpi 0 60 $MPIRUN -np "$N" "$BIN" -b 8 -e 64M -f 8 -C all_reduce,all_gather --json "$LOG/smoke_mpi.json"
	t smoke_g 0 60 "$BIN" -g "$N" -b 8 -e 16M -f 16 -C all
	t smoke_torchrun 0 90 $TR --master-port $((30000 + RANDOM % 1000)) "$BIN" -b 1K -e 1M -f 32
else
	# refusals first: no GPU is said before anything else
	t nogpu 2 30 must "no GPU: CUDA found no device" env CUDA_VISIBLE_DEVICES= "$BIN" -b 8 -e 8
	t refuse_one_rank 2 60 must "only one rank" "$BIN"
	[ -n "$BIN_NOMPI" ] && t refuse_nompi 2 60 $MPIRUN -np 2 "$BIN_NOMPI"
	# a real torchrun: what its agent gives the workers, then ncclcheck
	# under the static rendezvous (the agent's store on MASTER_PORT) and
	# under --standalone
	t torchrun_env 0 60 $TORCHRUN --nnodes 1 --nproc-per-node 1 --no-python sh -c 'env | grep -E "^(TORCHELASTIC|MASTER|RANK|LOCAL_RANK|WORLD_SIZE)" | sort'
	t torchrun_static 0 120 must '"launcher": "torchrun"' $TR --master-port $((30000 + RANDOM % 1000)) "$BIN" -b 8 -e 64M -f 8 --json -
	t torchrun_standalone 0 120 $TR --standalone "$BIN" -b 8 -e 64M -f 8
	[ -f "$TORCH_PY" ] && t torch_busbw 0 300 $TORCHRUN --nnodes 1 --nproc-per-node "$N" "$TORCH_PY"
	# a frozen rank is named
	t frozen_mpi 0 90 frozen 7 $MPIRUN -np 2 "$BIN" $F8G
	t frozen_torchrun 0 90 frozen 10 $TORCHRUN --nnodes 1 --nproc-per-node 2 --master-port $((31000 + RANDOM % 1000)) --no-python "$BIN" $F8G
	# wrong results caught (test build); the release build ignores the switch
	t corrupt 1 120 $MPIRUN -np 2 -x NCCLCHECK_TEST_CORRUPT=1 "$BIN_TEST" -b 1K -e 64M -f 64 --json "$LOG/corrupt.json"
	t release_ignores 0 120 $MPIRUN -np 2 -x NCCLCHECK_TEST_CORRUPT=1 "$BIN" -b 1K -e 64M -f 64
	# the gate
	t gate_fail 1 120 $MPIRUN -np 2 "$BIN" -e 1M --min-busbw all_reduce:10000 --max-latency 1us
	t gate_default 0 300 $MPIRUN -np "$N" "$BIN" --min-busbw 100 --junit "$LOG/gate.xml" --csv "$LOG/gate.csv" --json "$LOG/gate.json"
	# end to end, launch to exit: the default gate run against nccl-tests'
	# default run, both under mpirun on 2 GPUs, alternating
	for rep in 1 2 3; do
		[ -n "$NT_DIR" ] && t time_nt_default_$rep 0 120 $MPIRUN -np 2 "$NT_DIR/all_reduce_perf"
		t time_nc_default_$rep 0 120 $MPIRUN -np 2 "$BIN"
	done
	# correctness over every collective, type and operator
	t types_g 0 300 "$BIN" -g "$N" -C all -d all -o all -b 1K -e 4M -f 64 --json "$LOG/types_g.json"
	t check_every 0 120 $MPIRUN -np "$N" "$BIN" -C all_reduce,all_gather -b 4K -e 4M -f 32 --check-every -n 5
	t budget 0 120 $MPIRUN -np "$N" "$BIN" -C all_reduce -b 8 -e 1G -f 8 --budget 20ms -n 1000
	t graph 0 120 $MPIRUN -np "$N" "$BIN" -C all_reduce,alltoall -b 8 -e 64M -f 8 -G 4 -n 10
	t blocking_max 0 120 $MPIRUN -np "$N" "$BIN" -C all_reduce -b 8 -e 64M -f 8 -z 1 -a 3
	# bandwidth: every collective over NVLink to 8 GB, one process per GPU
	# and one process driving all
	t sweep_np 0 400 $MPIRUN -np "$N" "$BIN" -C all -b 8 -e 8G -f 4 --json "$LOG/sweep_np.json"
	t sweep_g 0 400 "$BIN" -g "$N" -C all_reduce,all_gather -b 8 -e 8G -f 4 -v --json "$LOG/sweep_g.json"
	t nonblocking 0 300 $MPIRUN -np "$N" "$BIN" -C all_reduce -b 8 -e 1G -f 8 --nonblocking
	t sock 0 300 $MPIRUN -np "$N" $SOCK "$BIN" -C all_reduce,all_gather -b 8 -e 512M -f 4 -v --json "$LOG/sock.json"
	mkdir -p "$LOG/nccl-debug"
	cp /tmp/ncclcheck.* "$LOG/nccl-debug/" 2>/dev/null
	# hang tests
	t hang_kill_tr 1 120 trun "$N" 1 env NCCLCHECK_TEST_KILL=1:1048576 "$BIN_TEST" -T 10s -b 8 -e 64M -f 4
	t hang_kill_mpi 137 120 $MPIRUN -np "$N" -x NCCLCHECK_TEST_KILL=1:1048576 "$BIN_TEST" -T 10s -b 8 -e 64M -f 4
	t hang_stall_tr 1 120 trun "$N" 1 env NCCLCHECK_TEST_STALL=1:7 "$BIN_TEST" -T 10s -b 8 -e 64M -f 4
	t hang_nosuch_iface 1 120 $MPIRUN -np 2 -x NCCL_SOCKET_IFNAME=nosuch0 "$BIN" -T 10s
	t hang_nowhere 1 120 trun "$N" -1 env NCCLCHECK_TEST_ADVERTISE=1:10.255.255.1 "$BIN_TEST" -T 10s --preflight-timeout 3s
	t hang_nowhere_nccl 1 120 trun 2 -1 env NCCL_COMM_ID=10.255.255.1:29999 "$BIN" -T 10s --no-preflight
	# rank 1 stopped and killed at moments over the whole run, both
	# launchers (gpu-hang.sh; the two series side by side on 4 GPUs)
	if [ "$NGPU" -ge 4 ]; then hp="PARALLEL=1 GPUS_TR=2,3"; else hp="PARALLEL=0 GPUS_TR=0,1"; fi
	t hang_moments 0 600 env $hp NCCLCHECK="$BIN" TORCHRUN="$TORCHRUN" OUT="$LOG/hang" bash "$(dirname "$0")/gpu-hang.sh"
	# the same under srun's variables (no slurmd on a GPU host here)
	t hang_srun_env 0 300 env NCCLCHECK="$BIN" OUT="$LOG/srun-hang" bash "$(dirname "$0")/gpu-srun-hang.sh"
	hw_tests
fi
cat "$SUM"
(cd "$OUT" && tar czf logs.tgz logs && rm -rf logs)
exit $FAILED
