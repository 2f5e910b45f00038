"""The wild corpus of netprobe explain (explain_wild.py): failures that
are not the network's, each returning (framework, lines), and NONNET,
their order."""
from wild_ctx import nccl_chatter, traceback, train_noise, watchdog


# ---- non-network failures: (framework, kind, lines) ----------------------

def n_cuda_oom(c):
    L = nccl_chatter(c, 0, addr=c.r.choice([c.ip[0], "172.17.0.2"]))
    L += train_noise(c, 3)
    L += ["[rank2]: Traceback (most recent call last):",
          "[rank2]:   File \"/workspace/train.py\", line 211, in <module>",
          "[rank2]: torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to "
          "allocate %.2f GiB. GPU 2 has a total capacity of 79.15 GiB of "
          "which 1.2 GiB is free." % c.r.uniform(1, 20),
          "[rank0]:" + watchdog(c, 0),
          "[rank1]:[E ProcessGroupNCCL.cpp:%d] Some NCCL operations have "
          "failed or timed out. Due to the asynchronous nature of CUDA "
          "kernels" % c.r.randint(300, 900)]
    return "torch", L


def n_nccl_cuda_oom(c):
    L = nccl_chatter(c, 0)
    L.append(c.np(0, lvl="WARN", msg="Cuda failure 'out of memory'"))
    L.append(c.np(0, msg="init.cc:%d -> 1" % c.r.randint(100, 1500)))
    L.append("RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/"
             "ProcessGroupNCCL.cpp:%d, unhandled cuda error, NCCL version %s"
             % (c.r.randint(800, 1300), c.nccl))
    return "NCCL", L


def n_host_oom(c):
    L = train_noise(c, 3) + [
        "[%d.%06d] Out of memory: Killed process %d (python) total-vm:"
        "%dkB, anon-rss:%dkB" % (c.r.randint(1000, 99999),
                                  c.r.randint(0, 999999), c.pid[1],
                                  c.r.randint(10**7, 10**8),
                                  c.r.randint(10**7, 10**8)),
        "WARNING:torch.distributed.elastic.multiprocessing.api:Sending "
        "process %d closing signal SIGTERM" % c.pid[2],
        "ERROR:torch.distributed.elastic.multiprocessing.api:failed "
        "(exitcode: -9) local_rank: 1 (pid: %d) of binary: /usr/bin/python"
        % c.pid[1],
        "torch.distributed.elastic.multiprocessing.api:Signal 9 (SIGKILL) "
        "received by PID %d" % c.pid[1]]
    return "torch", L


def n_deepspeed_killed(c):
    L = ["%s: [2024-01-01 10:00:00,000] [INFO] [launch.py:%d:main] "
         "WORLD INFO DICT: {'%s': [0, 1, 2, 3]}" % (c.h[0],
                                                    c.r.randint(100, 200),
                                                    c.h[0])]
    L += ["%s: %s" % (c.h[0], x) for x in train_noise(c, 4)]
    L.append("%s: [2024-01-01 10:12:00,000] [ERROR] [launch.py:%d:"
             "sigkill_handler] ['/usr/bin/python', '-u', 'train.py', "
             "'--local_rank=0'] exits with return code = -9" % (
                 c.h[0], c.r.randint(300, 330)))
    L.append("pdsh@%s: %s: ssh exited with exit code 247" % (c.h[0], c.h[0]))
    return "DeepSpeed", L


def n_driver(c):
    msg = c.r.choice([
        "RuntimeError: CUDA error: CUDA driver version is insufficient for "
        "CUDA runtime version",
        "RuntimeError: The NVIDIA driver on your system is too old (found "
        "version 10020). Please update your GPU driver by downloading and "
        "installing a new version",
        "Failed to initialize NVML: Driver/library version mismatch",
        "NCCL WARN Cuda failure 'CUDA driver version is insufficient for "
        "CUDA runtime version'"])
    L = traceback(c, "torch.cuda.set_device(local_rank)", frames=1) + [msg]
    return "torch", L


def n_fabric(c):
    L = [c.r.choice(["RuntimeError: CUDA error: system not yet initialized",
                     "nvidia-fabricmanager.service: Failed with result "
                     "'exit-code'.",
                     "[ERROR] Fabric Manager failed to start: NVSwitch "
                     "training error"])]
    L = nccl_chatter(c, 0) + L + ["[rank0]:" + watchdog(c, 0)]
    return "NVIDIA", L


def n_xid(c):
    L = train_noise(c, 2) + [
        "[%d.%d] NVRM: Xid (PCI:0000:%02x:00): %d, pid=%d, GPU has fallen "
        "off the bus." % (c.r.randint(1000, 99999), c.r.randint(0, 9),
                          c.r.randint(16, 200), c.r.choice([79, 48, 94]),
                          c.pid[0])]
    L.append("NCCL error in: ProcessGroupNCCL.cpp:1275, remote process "
             "exited or there was a network error, NCCL version %s" % c.nccl)
    return "NVIDIA", L


def n_version(c):
    L = nccl_chatter(c, 0)
    L.append(c.np(0, lvl="WARN", msg="Mismatched NCCL version detected : "
                  "rank 0 version %d rank %d version %d" % (
                      c.r.choice([21805, 21903, 22105]), c.r.randint(1, 7),
                      c.r.choice([21602, 21403, 2708]))))
    return "NCCL", L


def n_code_bug(c):
    exc = c.r.choice([
        "TypeError: forward() got an unexpected keyword argument "
        "'attention_mask'",
        "AttributeError: 'NoneType' object has no attribute 'size'",
        "KeyError: 'labels'", "IndexError: index 8 is out of bounds for "
        "dimension 0 with size 8",
        "ValueError: Expected input batch_size (32) to match target "
        "batch_size (16).",
        "AssertionError: global batch size must be divisible by micro batch "
        "times data parallel size",
        "NameError: name 'optimizer' is not defined",
        "ModuleNotFoundError: No module named 'flash_attn'",
        "RuntimeError: mat1 and mat2 shapes cannot be multiplied (64x512 and "
        "256x10)",
        "RuntimeError: Expected all tensors to be on the same device, but "
        "found at least two devices, cuda:1 and cpu!"])
    L = train_noise(c, 2) + ["[rank3]: Traceback (most recent call last):",
                             "[rank3]:   File \"/workspace/model.py\", line "
                             "%d, in forward" % c.r.randint(10, 400),
                             "[rank3]: " + exc]
    if c.r.random() < 0.5:
        L.append("RuntimeError: [../third_party/gloo/gloo/transport/tcp/"
                 "pair.cc:598] Connection closed by peer [%s]:%d" % (
                     c.r.choice([c.ip[3], "172.17.0.3"]), c.port))
    else:
        L.append("[rank0]:" + watchdog(c, 0))
    return "torch", L


def n_device_assert(c):
    L = [c.r.choice(["RuntimeError: CUDA error: device-side assert triggered",
                     "RuntimeError: CUDA error: an illegal memory access was "
                     "encountered"]),
         "CUDA kernel errors might be asynchronously reported at some other "
         "API call, so the stacktrace below might be incorrect.",
         "[rank1]:" + watchdog(c, 1)]
    return "torch", L


def n_invalid_usage(c):
    L = nccl_chatter(c, 0) + [
        c.np(1, lvl="WARN", msg="Duplicate GPU detected : rank 1 and rank 0 "
             "both on CUDA device %d000" % c.r.randint(1, 9)),
        "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/"
        "ProcessGroupNCCL.cpp:%d, invalid usage, NCCL version %s" % (
            c.r.randint(800, 1300), c.nccl)]
    return "NCCL", L


def n_ssh_auth(c):
    L = ["pdsh -w %s,%s hostname" % (c.h[0], c.h[1]),
         "%s: Permission denied (publickey,password)." % c.h[1],
         "pdsh@%s: %s: ssh exited with exit code 255" % (c.h[0], c.h[1])]
    if c.r.random() < 0.5:
        L[1] = "%s: Host key verification failed." % c.h[1]
    return "pdsh", L


def n_ray_oom(c):
    L = ["(raylet) [2023-10-01 10:00:00,000 E %d %d] (raylet) node_manager.cc"
         ":%d: 1 Workers (tasks / actors) killed due to memory pressure (OOM)"
         % (c.pid[0], c.pid[0], c.r.randint(2000, 3200)),
         "ray.exceptions.OutOfMemoryError: Task was killed due to the node "
         "running low on memory.",
         "ray.exceptions.RayActorError: The actor died unexpectedly before "
         "finishing this task."]
    return "Ray", L


def n_horovod_bug(c):
    L = ["[1,%d]<stderr>:%s" % (c.r.randint(0, 3), x) for x in [
        "Traceback (most recent call last):",
        "  File \"train_hvd.py\", line 88, in <module>",
        "KeyError: 'image'"]]
    L.append("[1,0]<stderr>:horovod.common.exceptions.HorovodInternalError: "
             "Horovod has been shut down. This was caused by an exception on "
             "one of the ranks or an attempt to allreduce, allgather or "
             "broadcast a tensor after one of the ranks finished execution.")
    L.append("Horovod detected that one or more processes exited with "
             "non-zero status, thus causing the job to be terminated.")
    return "Horovod", L


def n_gloo_closed_docker(c):
    """The issue's own case: a peer closed the connection at a barrier."""
    L = traceback(c, "dist.barrier()", frames=1) + [
        "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:598]"
        " Connection closed by peer [172.17.0.3]:14832"]
    return "Gloo", L


def n_benign_store_warnings(c):
    L = ["[W socket.cpp:%d] [c10d] The client socket has failed to connect "
         "to [localhost]:29500 (errno: 99 - Cannot assign requested "
         "address)." % c.r.choice([558, 601, 663])] * 2
    L += nccl_chatter(c, 0, addr="172.17.0.2")
    L += ["[rank0]: KeyError: 'pixel_values'", "[rank1]:" + watchdog(c, 1)]
    return "torch", L


def n_collective_mismatch(c):
    L = [c.r.choice([
        "RuntimeError: Detected mismatch between collectives on ranks. Rank "
        "0 is running collective: CollectiveFingerPrint(OpType=ALLREDUCE, "
        "TensorShape=[1024]), but Rank 1 is running collective: "
        "CollectiveFingerPrint(OpType=BROADCAST)",
        "terminate called after throwing an instance of "
        "'gloo::EnforceNotMet'",
        c.np(0, lvl="WARN", msg="NET/IB : req 0/1 tag 7 peer %s<%d> "
             "collective mismatch error, local size 1048576 remote size "
             "524288" % (c.ip[1], c.port))])]
    if "gloo" in L[0]:
        L.append("  what():  [enforce fail at ../third_party/gloo/gloo/"
                 "transport/tcp/pair.cc:490] op.preamble.length <= "
                 "op.nbytes. 8773632 vs 4")
    L.append("[rank1]:" + watchdog(c, 1))
    return "torch", L


def n_nccl_skew_old(c):
    c.nccl = c.r.choice(["2.7.8", "2.10.3", "2.18.1"])
    L = nccl_chatter(c, 0) + [
        c.np(0, lvl="WARN", msg=c.r.choice([
            "Message truncated : received 4352 bytes instead of 4096",
            "Bootstrap Root : mismatch in rank count from procs 16 : 8"]))]
    return "NCCL", L


NONNET = [n_cuda_oom, n_nccl_cuda_oom, n_host_oom, n_deepspeed_killed,
          n_driver, n_fabric, n_xid, n_version, n_code_bug, n_device_assert,
          n_invalid_usage, n_ssh_auth, n_ray_oom, n_horovod_bug,
          n_gloo_closed_docker, n_benign_store_warnings,
          n_collective_mismatch, n_nccl_skew_old]
