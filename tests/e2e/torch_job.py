# One rank of the suite's torch job: torch.distributed with init_method
# env:// (MASTER_ADDR, MASTER_PORT, RANK, WORLD_SIZE) on the backend
# E2E_BACKEND (gloo, the default, on CPU tensors; nccl on the GPU that
# CUDA_VISIBLE_DEVICES leaves first), an all_reduce of 1 KB, 1 MB and
# 64 MB, each checked, and a barrier. Every step prints a line as it starts
# and as it ends, so a run cut short still shows where it stopped; the
# last line is "BACKEND: ok" or "BACKEND: error at STEP: TEXT".
# torch's own timeout (E2E_TIMEOUT) bounds the store and the collectives;
# a watchdog started after the import (which takes seconds on a loaded
# machine) cuts any other hang E2E_CUT seconds later with exit status 124,
# as timeout(1) would.
import datetime
import os
import sys
import threading
import time

T0 = time.monotonic()
STEP = ["import"]
BACKEND = os.environ.get("E2E_BACKEND", "gloo")


def say(text):
    print("[%5.1f s] %s" % (time.monotonic() - T0, text), flush=True)


def begin(step):
    STEP[0] = step
    say("step: %s" % step)


def cut(seconds):
    say("%s: hang in '%s', cut at %d s" % (BACKEND, STEP[0], seconds))
    os._exit(124)


def main():
    timeout = int(os.environ.get("E2E_TIMEOUT", "20"))
    limit = int(os.environ.get("E2E_CUT", "30"))
    try:
        import torch
        import torch.distributed as dist

        watchdog = threading.Timer(limit, cut, (limit,))
        watchdog.daemon = True
        watchdog.start()
        begin("init_process_group")
        say("rank %s of %s, %s, MASTER_ADDR %s:%s, %s" % (
            os.environ.get("RANK"), os.environ.get("WORLD_SIZE"), BACKEND,
            os.environ.get("MASTER_ADDR"), os.environ.get("MASTER_PORT"),
            " ".join("%s=%s" % (k, v) for k, v in sorted(os.environ.items())
                     if k.startswith(("GLOO_", "NCCL_SOCKET", "NCCL_COMM"))
                     ) or "no interface setting"))
        device = "cpu"
        if BACKEND == "nccl":
            device = "cuda:0"
            torch.cuda.set_device(0)
        dist.init_process_group(
            BACKEND, init_method="env://",
            timeout=datetime.timedelta(seconds=timeout))
        say("step ok: %s" % STEP[0])
        world = dist.get_world_size()
        for name, nbytes in (("1KB", 1 << 10), ("1MB", 1 << 20),
                             ("64MB", 64 << 20)):
            begin("all_reduce %s" % name)
            t = torch.ones(nbytes // 4, dtype=torch.float32, device=device)
            dist.all_reduce(t)
            if device != "cpu":
                torch.cuda.synchronize()
            if not bool((t == world).all()):
                raise RuntimeError("wrong result: %s" % t[:4].tolist())
            say("step ok: %s" % STEP[0])
        begin("barrier")
        dist.barrier()
        say("step ok: %s" % STEP[0])
        dist.destroy_process_group()
    except Exception as e:  # the framework's own text is the record
        text = " ".join(str(e).split())
        say("%s: error at %s: %s: %s" % (BACKEND, STEP[0], type(e).__name__,
                                         text))
        os._exit(1)
    say("%s: ok" % BACKEND)
    return 0


if __name__ == "__main__":
    sys.exit(main())
