#!/bin/bash
# ncclcheck launched as srun launches it (SLURM_NTASKS, SLURM_PROCID,
# SLURM_LOCALID, SLURM_STEP_ID, SLURM_STEP_NODELIST; no MPI variables), two
# ranks on the first two GPUs, rank 1 stopped (SIGSTOP) or killed
# (SIGKILL) at moments over the run (issue 38). The device machine has no
# slurmd: the processes get the variables a step's tasks get, which is
# all ncclcheck reads of Slurm (the real srun runs in tests/lab/t_slurm.sh,
# without GPUs). Prints a Markdown table; exit 1 when a run of rank 0 did
# not end by itself within -T plus the margin (18 s) after the signal, or
# ended 0 after a signal.
#
#   NCCLCHECK=path/to/ncclcheck [OUT=dir] bash tests/ncclcheck/gpu-srun-hang.sh
set -u
BIN=${NCCLCHECK:-build/ncclcheck}
OUT=${OUT:-/tmp/ncclcheck-srun-hang}
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0
ARGS="-b 1M -e 1G -f 2 -n 50 -T 10s"
MARGIN=18
PORT=$((29600 + RANDOM % 300))
FAILED=0

# one MOMENT SIGNAL: one srun-style run ("none" for a healthy one); rank 0
# must end by itself, the cap kills both only past 60 s (a failure).
one() {
	PORT=$((PORT + 1))
	local d=$OUT/run-$1-$2 r t0 t1 rc0 el after msg gate ok=ok
	mkdir -p "$d"
	t0=$(date +%s.%N)
	for r in 0 1; do
		env -u OMPI_COMM_WORLD_SIZE -u RANK -u WORLD_SIZE \
			SLURM_NTASKS=2 SLURM_PROCID=$r SLURM_LOCALID=$r \
			SLURM_STEP_ID=0 SLURM_JOB_ID=77 SLURM_NODEID=0 \
			SLURM_STEP_NODELIST="$(hostname)" \
			SLURM_JOB_NODELIST="$(hostname)" \
			MASTER_ADDR=127.0.0.1 MASTER_PORT=$PORT \
			"$BIN" $ARGS >"$d/r$r.out" 2>"$d/r$r.err" &
		eval "P$r=\$!"
	done
	(sleep 60; kill -KILL "$P0" "$P1" 2>/dev/null) &
	local cap=$!
	if [ "$1" != none ]; then
		sleep "$1"
		kill -"$2" "$P1" 2>/dev/null
	fi
	wait "$P0"
	rc0=$?
	t1=$(date +%s.%N)
	kill "$cap" 2>/dev/null
	kill -CONT "$P1" 2>/dev/null
	kill -KILL "$P1" 2>/dev/null
	wait "$P1" 2>/dev/null
	el=$(awk -v a="$t1" -v b="$t0" 'BEGIN { printf "%.2f", a - b }')
	if [ "$1" = none ]; then
		after=-
		[ "$rc0" = 0 ] || ok=FAIL
	else
		after=$(awk -v a="$el" -v b="$1" 'BEGIN { printf "%.2f", a - b }')
		awk -v a="$after" -v m=$MARGIN 'BEGIN { exit !(a <= m) }' || ok=FAIL
		[ "$rc0" != 0 ] || ok=FAIL
	fi
	[ "$ok" = ok ] || FAILED=1
	msg=$(grep -h -E 'stopped responding|did not|never connected|was lost' \
		"$d/r0.err" "$d/r0.out" | head -1 | cut -c1-300)
	gate=$(grep -h '# gate:' "$d/r0.out" | head -1)
	echo "| $1 | $2 | $rc0 | $el | $after | ${gate:--} | $ok | $msg |"
}

echo "| moment (s) | signal | rank 0 exit | rank 0 ended (s) | after the signal (s) | gate line | bounded | rank 0's message |"
echo "|---|---|---:|---:|---:|---|---|---|"
one none -
for m in 0.05 0.3 0.8 1.5 2.2; do one "$m" STOP; done
for m in 0.3 1.5; do one "$m" KILL; done
exit $FAILED
