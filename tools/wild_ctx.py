"""The wild corpus of netprobe explain (explain_wild.py): one log's random
choices (Ctx), the chatter and noise every log carries, a traceback and a
watchdog's lines."""

ESC = "\x1b"

NCCL_VERS = ["2.4.8", "2.7.8", "2.8.4", "2.10.3", "2.11.4", "2.14.3",
             "2.18.1", "2.19.3", "2.21.5", "2.23.4", "2.26.2", "2.27.7"]
TORCH_VERS = ["1.4.0", "1.7.1", "1.9.0", "1.10.2", "1.12.1", "1.13.1",
              "2.0.1", "2.1.2", "2.3.1", "2.4.1", "2.5.1"]
RAY_VERS = ["1.0.1", "1.9.2", "1.13.0", "2.3.1", "2.7.1", "2.9.3", "2.20.0"]


class Ctx:
    """One log's random choices."""

    def __init__(self, rnd):
        self.r = rnd
        self.h = ["node%d" % i for i in (1, 2, 3, 4)]
        if rnd.random() < 0.4:
            self.h = ["gpu-%02d" % i for i in (11, 12, 13, 14)]
        net = rnd.choice(["10.231.%d" % rnd.randint(0, 9),
                          "192.168.%d" % rnd.randint(10, 99),
                          "10.%d.0" % rnd.randint(10, 200)])
        self.ip = ["%s.%d" % (net, 11 + i) for i in range(4)]
        self.pid = [rnd.randint(1000, 60000) for _ in range(4)]
        self.nccl = rnd.choice(NCCL_VERS)
        self.torch = rnd.choice(TORCH_VERS)
        self.ray = rnd.choice(RAY_VERS)
        self.port = rnd.randint(30000, 60999)

    def np(self, i, dev=0, tid=None, lvl="INFO", msg=""):
        """An NCCL line of host i."""
        tid = tid if tid is not None else self.pid[i] + self.r.randint(0, 40)
        return "%s:%d:%d [%d] NCCL %s %s" % (self.h[i], self.pid[i], tid,
                                            dev, lvl, msg)

    def old(self):
        return self.ver() < (2, 12)

    def ver(self):
        return tuple(int(x) for x in self.nccl.split(".")[:2])

    def connect(self):
        """NCCL's connect WARN as each version prints it (read at the
        v2.4.8-1, v2.7.8-1, v2.11.4-1 and later tags)."""
        if self.ver() < (2, 8):
            return "Connect to"
        if self.ver() < (2, 12):
            return "Net : Connect to"
        return "socketStartConnect: Connect to"


def nccl_chatter(c, i, iface="eth0", addr=None, ib=False):
    addr = addr or c.ip[i]
    v = c.nccl
    L = [c.np(i, msg="Bootstrap : Using %s:%s<0>" % (iface, addr)),
         c.np(i, msg="NET/Plugin : No plugin found (libnccl-net.so), "
              "using internal implementation")]
    if ib:
        L.append(c.np(i, msg="NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/"
                      "RoCE ; OOB %s:%s<0>" % (iface, addr)))
    else:
        L.append(c.np(i, msg="NET/IB : No device found."))
        L.append(c.np(i, msg="NET/Socket : Using [0]%s:%s<0>" %
                      (iface, addr)))
    L.append(c.np(i, msg="Using network %s" % ("IB" if ib else "Socket")))
    if i == 0:
        L.insert(0, c.np(i, msg="NCCL version %s+cuda%s" %
                         (v, c.r.choice(["10.2", "11.3", "11.8", "12.1",
                                         "12.4"]))))
    L.append(c.np(i, msg="Channel 00/02 :    0   1   2   3"))
    L.append(c.np(i, msg="Ring 00 : 3 -> 0 -> 1"))
    L.append(c.np(i, msg="Trees [0] 1/-1/-1->0->-1 [1] -1/-1/-1->0->1"))
    return L


class Noise(str):
    """A line of noise: the only kind a paste may cut."""


def train_noise(c, n):
    return [Noise(x) for x in _train_noise(c, n)]


def _train_noise(c, n):
    out = []
    for k in range(n):
        kind = c.r.randint(0, 7)
        step = c.r.randint(1, 5000)
        if kind == 0:
            out.append("epoch %d step %d loss %.4f lr %.2e" % (
                c.r.randint(0, 9), step, c.r.uniform(0.1, 4), 1e-4))
        elif kind == 1:
            out.append(" %2d%%|#####     | %d/%d [00:%02d<05:21,  1.21it/s]"
                       % (c.r.randint(1, 99), step, 5000, c.r.randint(0, 59)))
        elif kind == 2:
            out.append("INFO:root:Loading checkpoint shard %d/8" %
                       c.r.randint(1, 8))
        elif kind == 3:
            out.append("WARNING:torch.distributed.run:")
        elif kind == 4:
            out.append("*****************************************")
        elif kind == 5:
            out.append("Setting OMP_NUM_THREADS environment variable for "
                       "each process to be 1 in default, to avoid your "
                       "system being overloaded")
        elif kind == 6:
            out.append("  warnings.warn(")
        else:
            out.append("[%s] iteration %d/%d | consumed samples: %d | "
                       "elapsed time per iteration (ms): %.1f" % (
                           "2024-03-0%d 10:%02d:%02d" % (
                               c.r.randint(1, 9), c.r.randint(0, 59),
                               c.r.randint(0, 59)), step, 100000,
                           step * 512, c.r.uniform(300, 900)))
    return out


def traceback(c, call="dist.init_process_group(backend=\"nccl\")",
              frames=2):
    L = ["Traceback (most recent call last):",
         '  File "/workspace/train.py", line %d, in <module>' %
         c.r.randint(20, 400), "    main()",
         '  File "/workspace/train.py", line %d, in main' %
         c.r.randint(20, 400), "    " + call]
    for _ in range(frames):
        L.append('  File "/opt/conda/lib/python3.%d/site-packages/torch/'
                 'distributed/distributed_c10d.py", line %d, in '
                 'init_process_group' % (c.r.randint(8, 11),
                                         c.r.randint(400, 1600)))
        L.append("    store, rank, world_size = next(rendezvous_iterator)")
    return L


def watchdog(c, rank=1, seq=None):
    seq = seq if seq is not None else c.r.randint(1, 90000)
    tmo = c.r.choice([600000, 1800000])
    if c.r.random() < 0.5:
        return ("[Rank %d] Watchdog caught collective operation timeout: "
                "WorkNCCL(SeqNum=%d, OpType=ALLREDUCE, NumelIn=%d, "
                "NumelOut=%d, Timeout(ms)=%d) ran for %d milliseconds "
                "before timing out." % (rank, seq, 4096, 4096, tmo,
                                        tmo + 57))
    return ("[E ProcessGroupNCCL.cpp:%d] [Rank %d] Watchdog caught "
            "collective operation timeout: WorkNCCL(OpType=BROADCAST, "
            "Timeout(ms)=%d) ran for %d milliseconds before timing out." %
            (c.r.randint(300, 900), rank, tmo, tmo + 212))
