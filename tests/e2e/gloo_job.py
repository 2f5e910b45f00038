# One rank of the suite's Gloo job: torch.distributed with init_method
# env:// (MASTER_ADDR, MASTER_PORT, RANK, WORLD_SIZE), an all_reduce of
# 1 KB, 1 MB and 64 MB, each checked, and a barrier. Every step prints a
# line as it starts and as it ends, so a run cut short still shows where
# it stopped; the last line is "gloo: ok" or "gloo: error at STEP: TEXT".
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


def say(text):
    print("[%5.1f s] %s" % (time.monotonic() - T0, text), flush=True)


def begin(step):
    STEP[0] = step
    say("step: %s" % step)


def cut(seconds):
    say("gloo: hang in '%s', cut at %d s" % (STEP[0], seconds))
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
        say("rank %s of %s, MASTER_ADDR %s:%s, GLOO_SOCKET_IFNAME %s" % (
            os.environ.get("RANK"), os.environ.get("WORLD_SIZE"),
            os.environ.get("MASTER_ADDR"), os.environ.get("MASTER_PORT"),
            os.environ.get("GLOO_SOCKET_IFNAME", "unset")))
        dist.init_process_group(
            "gloo", init_method="env://",
            timeout=datetime.timedelta(seconds=timeout))
        say("step ok: %s" % STEP[0])
        world = dist.get_world_size()
        for name, nbytes in (("1KB", 1 << 10), ("1MB", 1 << 20),
                             ("64MB", 64 << 20)):
            begin("all_reduce %s" % name)
            t = torch.ones(nbytes // 4, dtype=torch.float32)
            dist.all_reduce(t)
            if not bool((t == world).all()):
                raise RuntimeError("wrong result: %s" % t[:4].tolist())
            say("step ok: %s" % STEP[0])
        begin("barrier")
        dist.barrier()
        say("step ok: %s" % STEP[0])
        dist.destroy_process_group()
    except Exception as e:  # the framework's own text is the record
        text = " ".join(str(e).split())
        say("gloo: error at %s: %s: %s" % (STEP[0], type(e).__name__, text))
        os._exit(1)
    say("gloo: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
