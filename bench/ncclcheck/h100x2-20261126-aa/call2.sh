#!/bin/bash
# issue 25: A/A (nccl-tests against itself, the same procedure) beside A/B again, bind to core.
# Ran with the wrapper nt-as-nc.sh as "ncclcheck"; compare.sh AA=1 now does the same.
set -u
D=$PWD/.devbin/final
export NCCL_NVLS_ENABLE=0
export NT_DIR=$D/nt
M="mpirun --allow-run-as-root --bind-to core --mca btl self,vader,tcp -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH -x NT_DIR"
nvidia-smi --query-gpu=index,clocks.sm,clocks.max.sm,clocks_throttle_reasons.active,temperature.gpu,power.draw --format=csv
for which in aa ab; do
	t0=$(date +%s)
	bin=$D/ncclcheck; [ $which = aa ] && bin=$PWD/.devbin/i25b/nt-as-nc.sh
	MPIRUN="$M" NCCLCHECK=$bin COLLS="all_reduce all_gather" MODES=np REPS=5 \
	ITERS="20 1000" ARGS="-b 8 -e 1M -f 4 -w 5" OUT=$OUT/$which \
	timeout 200 bash bench/ncclcheck/compare.sh > $OUT/$which.out 2>&1
	echo "$which rc=$? $(( $(date +%s) - t0 )) s"
	tail -1 $OUT/$which/compare.md | cut -c1-30
done
nvidia-smi --query-gpu=index,clocks.sm,clocks.max.sm,clocks_throttle_reasons.active,temperature.gpu,power.draw --format=csv
