#!/bin/bash
# --pairs on a host with 4 GPUs (or N), against nccl-tests' sendrecv_perf,
# idle and with one GPU loaded; it builds nothing.
#
#   NCCLCHECK=path/to/ncclcheck NT_DIR=dir-of-sendrecv_perf \
#   GPU_HOG=path/to/gpu_hog [N=4] [RUNS=10] [HOG_GPU=2] [OUT=dir] \
#   bash tests/ncclcheck/gpu-pairs.sh
#
# 1. sendrecv_perf on each pair alone (CUDA_VISIBLE_DEVICES set to the
#    pair, mpirun -np 2, 1 MB and 64 MB, three cycles: the median);
# 2. RUNS idle `mpirun -np N ncclcheck --pairs` at the default sizes and
#    RUNS at -b 1M -e 1M: each must exit 0 with no pair-slow;
# 3. the per-pair table: ncclcheck's median figure beside sendrecv_perf's,
#    within 10 %;
# 4. gpu_hog (tests/ncclcheck/gpu_hog.cu) on GPU HOG_GPU: three runs that
#    must exit 1 naming rank HOG_GPU as the slow GPU with GPU-level advice
#    (CUDA_VISIBLE_DEVICES) and no node left out (no --exclude);
# 5. the N ranks as two "hosts" (a UTS namespace per rank, hostnames
#    gpu00 and gpu01, half the ranks each): NCCL goes across over
#    NET/Socket, and the across-hosts pairs are judged against each other,
#    not against NVLink: exit 0, no pair-slow.
#
# Writes every log under $OUT/logs (packed into $OUT/logs.tgz), the
# verdicts in $OUT/summary.txt and the tables in $OUT/tables.md. Exit
# status: 0 when every check held, 1 otherwise.
set -u
BIN=${NCCLCHECK:-build/ncclcheck}
NT_DIR=${NT_DIR:?set NT_DIR to the folder of sendrecv_perf}
GPU_HOG=${GPU_HOG:-build/gpu_hog}
N=${N:-4}
RUNS=${RUNS:-10}
HOG_GPU=${HOG_GPU:-2}
OUT=${OUT:-/tmp/ncclcheck-pairs}
LOG=$OUT/logs
mkdir -p "$LOG"
SUM=$OUT/summary.txt
: >"$SUM"
FAILED=0
export NCCL_NVLS_ENABLE=0 # NVLink multicast stays off on shared machines

for lib in libnccl.so.2 libcudart.so.13; do
	ldd "$BIN" "$NT_DIR/sendrecv_perf" 2>/dev/null |
		grep -q "$lib => /" && continue
	p=$(ls /usr/local/cuda/lib64/"$lib" \
		/usr/local/cuda/targets/*/lib/"$lib" 2>/dev/null | head -1)
	[ -n "$p" ] && export LD_LIBRARY_PATH=$(dirname "$p")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
done
MPIRUN="mpirun --allow-run-as-root --oversubscribe --bind-to none --mca btl self,vader,tcp -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH"
{
	echo "# host $(hostname), $(date -u +%FT%TZ)"
	nvidia-smi -L
	nvidia-smi topo -m 2>/dev/null
	ldd "$BIN" | grep -E 'nccl|mpi|cudart|not found'
} >"$LOG/env.txt" 2>&1

# say LINE: into the summary and stdout
say() {
	echo "$*" | tee -a "$SUM"
}

# check NAME OK: records one verdict
check() {
	if [ "$2" = 1 ]; then
		say "ok   $1"
	else
		say "FAIL $1"
		FAILED=1
	fi
}

# 1. the reference, each pair alone
for a in $(seq 0 $((N - 1))); do
	for b in $(seq $((a + 1)) $((N - 1))); do
		CUDA_VISIBLE_DEVICES=$a,$b timeout -k 5 60 $MPIRUN \
			-x CUDA_VISIBLE_DEVICES -np 2 "$NT_DIR/sendrecv_perf" \
			-b 1M -e 64M -f 64 -N 3 >"$LOG/nt_$a$b.log" 2>&1
		echo "nt $a-$b rc=$?" >>"$LOG/rc.txt"
	done
done

# 2. idle runs
idle_ok=1
for k in $(seq 1 "$RUNS"); do
	for sz in def 1m; do
		args=""
		[ "$sz" = 1m ] && args="-b 1M -e 1M"
		# shellcheck disable=SC2086
		timeout -k 5 60 $MPIRUN -np "$N" "$BIN" $args --pairs \
			--json "$LOG/idle_${sz}_$k.json" >"$LOG/idle_${sz}_$k.log" 2>&1
		rc=$?
		if [ "$rc" -gt 1 ] && [ "$k" = 1 ]; then
			say "idle $sz run 1: exit $rc, stopping here:"
			tail -n 20 "$LOG/idle_${sz}_$k.log" | tee -a "$SUM"
			tar czf "$OUT/logs.tgz" -C "$OUT" logs 2>/dev/null
			exit 1
		fi
		ps=$(grep -c '^# pair-slow' "$LOG/idle_${sz}_$k.log")
		gate=$(grep '^# gate:' "$LOG/idle_${sz}_$k.log")
		echo "idle $sz $k rc=$rc pair-slow=$ps $gate" >>"$LOG/rc.txt"
		say "idle $sz run $k: exit $rc, $ps pair-slow, $gate"
		[ "$rc" = 0 ] && [ "$ps" = 0 ] || idle_ok=0
		# the printed verdict and the exit status agree
		{ [ "$rc" = 0 ] && [ "$gate" = "# gate: passed" ]; } ||
			{ [ "$rc" = 1 ] && [ "$gate" = "# gate: FAILED" ]; } ||
			{ say "  exit $rc disagrees with '$gate'"; idle_ok=0; }
	done
done
check "idle: $((2 * RUNS)) runs, every one exit 0 with no pair-slow" $idle_ok

# 4. one GPU loaded
"$GPU_HOG" "$HOG_GPU" 90 >"$LOG/hog.log" 2>&1 &
hog=$!
sleep 3
load_ok=1
for k in 1 2 3; do
	timeout -k 5 60 $MPIRUN -np "$N" "$BIN" -b 64M -e 64M --pairs \
		--json "$LOG/loaded_$k.json" >"$LOG/loaded_$k.log" 2>&1
	rc=$?
	f=$(grep '^# pair-slow' "$LOG/loaded_$k.log" | head -3)
	say "loaded run $k: exit $rc"
	say "  $f"
	[ "$rc" = 1 ] || load_ok=0
	grep -q "^# pair-slow: rank $HOG_GPU on .*CUDA_VISIBLE_DEVICES=" \
		"$LOG/loaded_$k.log" || load_ok=0
	! grep -q -- "--exclude" "$LOG/loaded_$k.log" || load_ok=0
	grep -q '^# gate: FAILED' "$LOG/loaded_$k.log" || load_ok=0
done
kill "$hog" 2>/dev/null
wait "$hog" 2>/dev/null
check "loaded GPU $HOG_GPU: named with CUDA_VISIBLE_DEVICES, no --exclude, exit 1, gate FAILED, 3 of 3" $load_ok

# 5. two "hosts" of N/2 ranks each
cat >"$OUT/as-host.sh" <<'EOS'
#!/bin/bash
exec unshare -u bash -c 'hostname "gpu0$((OMPI_COMM_WORLD_RANK / HALF))"; exec "$@"' bash "$@"
EOS
chmod +x "$OUT/as-host.sh"
hosts_ok=1
for k in 1 2; do
	HALF=$((N / 2)) timeout -k 5 60 $MPIRUN -x HALF -np "$N" \
		"$OUT/as-host.sh" "$BIN" -b 64M -e 64M --pairs \
		--json "$LOG/twohosts_$k.json" >"$LOG/twohosts_$k.log" 2>&1
	rc=$?
	ps=$(grep -c '^# pair-slow' "$LOG/twohosts_$k.log")
	say "two hosts run $k: exit $rc, $ps pair-slow"
	grep -E '^# (pairs|  +[0-9]+:|gate)' "$LOG/twohosts_$k.log" | sed 's/^/  /' | tee -a "$SUM"
	[ "$ps" = 0 ] || hosts_ok=0
done
check "two hosts: no pair-slow (across-host pairs judged among themselves)" $hosts_ok

# 3. the tables
python3 - "$LOG" "$N" "$RUNS" >"$OUT/tables.md" <<'EOF'
import json, re, statistics, sys, glob, os
log, n, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def nt(a, b, size):
    v = []
    try:
        for line in open(f"{log}/nt_{a}{b}.log"):
            f = line.split()
            if len(f) > 8 and f[0] == str(size):
                v.append(float(f[7]))
    except OSError:
        pass
    return statistics.median(v) if v else 0
def nc(kind, a, b):
    v = []
    for p in glob.glob(f"{log}/{kind}_*.json"):
        try:
            d = json.load(open(p))
            v.append(d["pairs"]["matrix_gbps"][a][b])
        except Exception:
            pass
    return v
ok = True
for kind, size, label in (("idle_def", 64 << 20, "64 MB"), ("idle_1m", 1 << 20, "1 MB")):
    print(f"\n| pair | sendrecv_perf {label} GB/s | ncclcheck median | min | max | median / sendrecv |")
    print("|---|---|---|---|---|---|")
    for a in range(n):
        for b in range(a + 1, n):
            r = nt(a, b, size)
            v = nc(kind, a, b)
            if not v:
                continue
            m = statistics.median(v)
            ratio = m / r if r else 0
            ok = ok and 0.9 <= ratio <= 1.1
            print(f"| {a}-{b} | {r:.1f} | {m:.1f} | {min(v):.1f} | {max(v):.1f} | {ratio:.3f} |")
print(f"\nwithin 10 %: {'yes' if ok else 'NO'}")
sys.exit(0 if ok else 1)
EOF
tab=$?
cat "$OUT/tables.md" | tee -a "$SUM"
check "each pair within 10 % of sendrecv_perf alone" $((tab == 0))
tar czf "$OUT/logs.tgz" -C "$OUT" logs 2>/dev/null
exit $FAILED
