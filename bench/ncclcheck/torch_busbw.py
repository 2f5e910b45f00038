# An independent NCCL measurement for comparison with ncclcheck: PyTorch's
# own NCCL (torch.distributed) timing all_reduce and all_gather with CUDA
# events around 20 iterations after 5 warm-ups, busbw by nccl-tests'
# factors. Run: python3 -m torch.distributed.run --nproc_per_node=N torch_busbw.py
import os

import torch
import torch.distributed as dist


def main():
    rank = int(os.environ["RANK"])
    n = int(os.environ["WORLD_SIZE"])
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    dist.init_process_group("nccl")
    sizes = [1 << 20, 16 << 20, 128 << 20, 1 << 30, 8 << 30]
    for name in ("all_reduce", "all_gather"):
        for size in sizes:
            count = size // 4
            if name == "all_reduce":
                x = torch.ones(count, device="cuda")
                op = lambda: dist.all_reduce(x)
                factor = 2 * (n - 1) / n
            else:
                out = torch.empty(count, device="cuda")
                x = torch.ones(count // n, device="cuda")
                op = lambda: dist.all_gather_into_tensor(out, x)
                factor = (n - 1) / n
            for _ in range(5):
                op()
            torch.cuda.synchronize()
            a = torch.cuda.Event(enable_timing=True)
            b = torch.cuda.Event(enable_timing=True)
            a.record()
            for _ in range(20):
                op()
            b.record()
            torch.cuda.synchronize()
            us = a.elapsed_time(b) * 1000 / 20
            t = torch.tensor([us], device="cuda")
            dist.all_reduce(t, op=dist.ReduceOp.MAX)
            us = t.item()
            if rank == 0:
                alg = size / 1e3 / us
                print(f"torch {name:10s} n={n} {size:>12d} B {us:10.1f} us "
                      f"algbw {alg:7.2f} busbw {alg * factor:7.2f} GB/s",
                      flush=True)
            del x
            torch.cuda.empty_cache()
    if rank == 0:
        print("torch nccl", torch.cuda.nccl.version(), flush=True)
    dist.destroy_process_group()


main()
