#!/bin/bash
# issue 25: two ranks that NCCL and ncclcheck take for two hosts (a UTS namespace each, its own
# hostname): the NIC bound and --pairs' across-hosts class on real GPUs
set -u
D=$PWD/.devbin/final
export NCCL_NVLS_ENABLE=0
cat > /tmp/as-host.sh <<'EOS'
#!/bin/bash
exec unshare -u bash -c 'hostname "gpu0$OMPI_COMM_WORLD_RANK"; exec "$@"' bash "$@"
EOS
chmod +x /tmp/as-host.sh
M="mpirun --allow-run-as-root --bind-to none --mca btl self,vader,tcp -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH -x NCCL_DEBUG -x NCCL_HOSTID"
ls /sys/class/net; for n in /sys/class/net/*; do echo "$n speed=$(cat $n/speed 2>/dev/null)"; done
export NCCL_DEBUG=INFO
$M -np 2 /tmp/as-host.sh $D/ncclcheck -b 8 -e 64M -f 8 --pairs --json $OUT/twohosts.json > $OUT/twohosts.log 2>&1
echo "twohosts rc=$?"
grep -E "NET/|via NET|via P2P|hardware bound|gate|pair|slow|Using network|hostname|efficiency" $OUT/twohosts.log | grep -v "^.*NCCL INFO Channel" | head -40
