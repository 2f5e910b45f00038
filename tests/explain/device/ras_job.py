# One rank, NCCL backend: all-reduces in a loop so that RAS has a live
# communicator with collective counts to report; stops after 90 s.
import os, sys, time
import torch
import torch.distributed as dist

dist.init_process_group("nccl", rank=0, world_size=1)
t = torch.ones(1 << 20, device="cuda")
dist.all_reduce(t)
torch.cuda.synchronize()
print("READY", flush=True)
end = time.time() + 90
n = 0
while time.time() < end:
    dist.all_reduce(t)
    n += 1
    if n % 100 == 0:
        torch.cuda.synchronize()
        time.sleep(0.05)
dist.destroy_process_group()
