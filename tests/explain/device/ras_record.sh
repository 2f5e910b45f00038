#!/bin/sh
# On the lent GPU host: a one-GPU NCCL job (torch's NCCL) with RAS on, and
# the RAS client protocol spoken to it in each form netprobe uses: SET
# FORMAT json, VERBOSE STATUS (text), MONITOR. Answers go to $OUT.
set -u
OUT=${OUT:-/tmp/out}
PY=$(command -v python3)
[ -x /opt/torch/.venv/bin/python3 ] && PY=/opt/torch/.venv/bin/python3
cd "$(dirname "$0")"
$PY -c 'import torch; print("torch", torch.__version__, "nccl", torch.cuda.nccl.version(), "gpus", torch.cuda.device_count())' 2>&1 | tee "$OUT/versions.txt"
$PY -m pip show nvidia-nccl-cu13 2>/dev/null | grep -i '^version' | tee -a "$OUT/versions.txt"
NCCL_RAS_ENABLE=1 NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,RAS MASTER_ADDR=127.0.0.1 \
  MASTER_PORT=29517 timeout 120 $PY ras_job.py >"$OUT/job.log" 2>&1 &
JOB=$!
i=0
while [ $i -lt 60 ] && ! grep -q "READY" "$OUT/job.log" 2>/dev/null; do
	sleep 1; i=$((i + 1))
done
timeout 60 $PY ras_talk.py "$OUT" 2>&1 | tee "$OUT/talk.log"
kill $JOB 2>/dev/null
wait $JOB 2>/dev/null
grep -i "ras\|NCCL version" "$OUT/job.log" | head -20
ls -l "$OUT"
