#!/bin/bash
# issue 25: A/A and A/B with the ranks bound to cores away from vCPU 0 (interrupts)
set -u
D=$PWD/.devbin/final
export NCCL_NVLS_ENABLE=0
export NT_DIR=$D/nt
cat /proc/interrupts | awk 'NR==1{print "cpus:", NF} NR>1{s=0; for(i=2;i<=33&&i<=NF;i++) if($i ~ /^[0-9]+$/) c[i]+=$i} END{for(i=2;i<=33;i++) printf "%d:%d ", i-2, c[i]; print ""}' > $OUT/irq.txt
M="mpirun --allow-run-as-root --cpu-set 6,7 --bind-to core --mca btl self,vader,tcp -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH -x NT_DIR"
mpirun --allow-run-as-root --cpu-set 6,7 --bind-to core --report-bindings -np 2 true 2>&1 | head -3
for which in aa ab; do
	t0=$(date +%s)
	aa=0; [ $which = aa ] && aa=1
	AA=$aa MPIRUN="$M" NCCLCHECK=$D/ncclcheck COLLS="all_reduce all_gather" MODES=np REPS=5 \
	ITERS="20 1000" ARGS="-b 8 -e 1M -f 4 -w 5" OUT=$OUT/$which \
	timeout 200 bash bench/ncclcheck/compare.sh > $OUT/$which.out 2>&1
	echo "$which rc=$? $(( $(date +%s) - t0 )) s"
	tail -1 $OUT/$which/compare.md | cut -c1-30
	rm -rf $OUT/$which/runs
done
