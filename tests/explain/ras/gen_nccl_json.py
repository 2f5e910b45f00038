# Writes RAS answers byte for byte as NCCL 2.28.7+ writes them
# (src/ras/client_support.cc: jsonWriteHeader, jsonStartCommunicator,
# jsonWriteRankData, jsonStartMissingRanks, jsonWriteMissingRank,
# jsonEndCommunicator, jsonWriteFooter; rasClientsNotifyEvent for the
# monitor stream). Usage: gen_nccl_json.py NAME [HOST STRAGGLER] > file
import sys

OPS = ["Broadcast", "Reduce", "AllGather", "ReduceScatter", "AllReduce"]


class Raw(str):
    """A value written as it is: NCCL writes device lists on one line."""


def value(v, ind=0):
    """v as NCCL writes it: two spaces a level, one member a line, an
    empty array as an empty line between its brackets."""
    pad = "  " * (ind + 1)
    if isinstance(v, Raw):
        return v
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return "%d" % v
    if isinstance(v, float):
        return "%.3f" % v
    if isinstance(v, str):
        return '"%s"' % v
    if isinstance(v, dict):
        body = ",\n".join('%s"%s": %s' % (pad, k, value(x, ind + 1))
                          for k, x in v.items())
        return "{\n" + body + "\n" + "  " * ind + "}"
    body = ",\n".join(pad + value(x, ind + 1) for x in v)
    return "[\n" + body + "\n" + "  " * ind + "]"


def proc(rank, host, pid, dev, status):
    """The fields a rank and a missing rank share, then its status."""
    return {"rank": rank, "host": host, "pid": pid, "cuda_dev": dev,
            "nvml_dev": dev, "status": status}


def rank_entry(rank, host, pid, dev, allreduce):
    r = proc(rank, host, pid, dev,
             {"init_state": 0, "async_error": 0, "finalize_called": False,
              "destroy_flag": False, "abort_flag": False})
    r["collective_counts"] = {
        op: allreduce if op == "AllReduce" else (1 if op == "Broadcast" else 0)
        for op in OPS}
    return r


def missing_entry(rank, host, pid, dev, dead):
    return proc(rank, host, pid, dev,
                {"unresponsive": not dead, "considered_dead": dead})


def status(comms, version="2.29.2", timeouts=0, t="2026-12-06 11:02:20"):
    return value({
        "nccl_version": version,
        "cuda_runtime_version": 13000,
        "cuda_driver_version": 13000,
        "timestamp": t,
        "communicators_count": len(comms),
        "communicators": [{
            "hash": "0x%x" % h,
            "secondary_hash": "0x%x:0x%x" % (0x1234, 0x5678),
            "size": size,
            "ranks_count": len(ranks),
            "missing_ranks_count": len(missing),
            "ranks": [rank_entry(*r) for r in ranks],
            "missing_ranks": [missing_entry(*m) for m in missing],
        } for h, size, ranks, missing in comms],
        "ras": {"collection_time_sec": 0.012, "timeouts_count": timeouts},
    }) + "\n"


def event(t, ev, host, pid, devs):
    d = Raw("[" + ",".join(str(x) for x in devs) + "]")
    return value({"timestamp": t, "group": "LIFECYCLE", "event": ev,
                  "peer": {"host": host, "pid": pid, "cuda_devs": d,
                           "nvml_devs": d},
                  "details": ""}) + "\n"


def job(a, b, strag, h="10.231.68.1", s="10.231.68.2"):
    # 4 ranks; rank 3 on host s lags at `strag`
    ranks = [(0, h, 101, 0, a), (1, h, 102, 1, a), (2, s, 201, 0, b), (3, s, 202, 1, strag)]
    return status([(0xf1e2d3c4b5a69788, 4, ranks, [])])


# the AllReduce counts of the two hosts' ranks and of the straggler
JOBS = {
    "stopped-1": (13, 13, 12),
    "stopped-2": (13, 13, 12),
    "slow-1": (400, 400, 398),
    "slow-2": (460, 460, 440),
    "keeping-2": (460, 460, 459),
    "healthy": (500, 500, 500),
}

which = sys.argv[1]
h = sys.argv[2] if len(sys.argv) > 2 else "10.231.68.1"
s = sys.argv[3] if len(sys.argv) > 3 else "10.231.68.2"
if which in JOBS:
    sys.stdout.write(job(*JOBS[which], h, s))
elif which == "dead":
    ranks = [(0, h, 101, 0, 13), (1, h, 102, 1, 13), (2, s, 201, 0, 13)]
    sys.stdout.write(status([(0xf1e2d3c4b5a69788, 4, ranks, [(3, s, 202, 1, True)])], timeouts=2))
elif which.startswith("big-"):
    # N ranks, 8 a host (10.231.H.G), one communicator of all, a second
    # of each host's 8; rank N-5 stopped one AllReduce behind
    n = int(which[4:])
    ranks = [(r, "10.231.%d.%d" % (r // 8 // 250, r // 8 % 250 + 1), 1000 + r,
              r % 8, 460630 if r == n - 5 else 460631) for r in range(n)]
    comms = [(0xf1e2d3c4b5a69788, n, ranks, [])]
    for h in range(0, n, 8):
        comms.append((0x1000 + h, 8, [(i, x[1], x[2], x[3], 99) for i, x in
                                       enumerate(ranks[h:h + 8])], []))
    sys.stdout.write(status(comms))
elif which == "monitor":
    sys.stdout.write(event("2026-12-06 11:02:13", "PEER_DEAD", s, 202, [1]))
    sys.stdout.write(event("2026-12-06 11:02:14", "PEER_NEW", s, 203, [1]))
