# The real client of the blind set (issue 48): one rank of a torch.distributed
# job over Gloo (TCPStore rendezvous at MASTER:29500, then one all_reduce of
# N floats, 4 MiB by default), as a training job's first step runs it.
#   python3 gloo_allreduce.py RANK WORLD MASTER [N]
# Exit 0 when the sum is right on this rank; 1 (with torch's error) when the
# rendezvous, the mesh of pairs or the all_reduce failed within the timeout.
import datetime
import os
import sys

import torch
import torch.distributed as dist


def main():
    rank, world, master = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    n = int(sys.argv[4]) if len(sys.argv) > 4 else 1 << 20
    try:
        dist.init_process_group(
            "gloo", init_method="tcp://%s:29500" % master, rank=rank,
            world_size=world, timeout=datetime.timedelta(seconds=15))
        t = torch.full((n,), float(rank + 1))
        dist.all_reduce(t)
    except Exception as e:  # torch raises RuntimeError and its subclasses
        print("rank %d: %s" % (rank, str(e).splitlines()[0][:300]))
        return 1
    want = world * (world + 1) / 2
    ok = bool((t == want).all())
    print("rank %d: all_reduce %s (%g)" % (rank, "ok" if ok else "WRONG",
                                          t[0].item()))
    return 0 if ok else 1


if __name__ == "__main__":
    rc = main()
    sys.stdout.flush()
    # no teardown: a pair a fault left half open must not hang the exit
    # after the verdict was printed
    os._exit(rc)
