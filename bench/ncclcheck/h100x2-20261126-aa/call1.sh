#!/bin/bash
# issue 25: small sizes at -n 20 and -n 1000, mpirun's own binding (core) against --bind-to none
set -u
D=$PWD/.devbin/final
export NCCL_NVLS_ENABLE=0
nvidia-smi -L
for bind in core none; do
	t0=$(date +%s)
	MPIRUN="mpirun --allow-run-as-root --bind-to $bind --mca btl self,vader,tcp -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH" \
	NT_DIR=$D/nt NCCLCHECK=$D/ncclcheck COLLS="all_reduce all_gather" MODES=np REPS=5 \
	ITERS="20 1000" ARGS="-b 8 -e 1M -f 4 -w 5" OUT=$OUT/bind-$bind \
	timeout 250 bash bench/ncclcheck/compare.sh > $OUT/bind-$bind.out 2>&1
	echo "bind $bind rc=$? $(( $(date +%s) - t0 )) s"
	grep -h "within\|outside" $OUT/bind-$bind/compare.md 2>/dev/null | tail -3
done
