# Writes RAS answers byte for byte as NCCL 2.28.7+ writes them
# (src/ras/client_support.cc: jsonWriteHeader, jsonStartCommunicator,
# jsonWriteRankData, jsonStartMissingRanks, jsonWriteMissingRank,
# jsonEndCommunicator, jsonWriteFooter; rasClientsNotifyEvent for the
# monitor stream). Usage: gen_nccl_json.py NAME > file
import sys

OPS = ["Broadcast", "Reduce", "AllGather", "ReduceScatter", "AllReduce"]

def status(comms, version="2.29.2", timeouts=0, t="2026-12-06 11:02:20"):
    o = "{\n"
    o += '  "nccl_version": "%s",\n' % version
    o += '  "cuda_runtime_version": %d,\n' % 13000
    o += '  "cuda_driver_version": %d,\n' % 13000
    o += '  "timestamp": "%s",\n' % t
    o += '  "communicators_count": %d,\n' % len(comms)
    o += '  "communicators": [\n'
    for ci, (h, size, ranks, missing) in enumerate(comms):
        if ci:
            o += ",\n"
        o += "    {\n"
        o += '      "hash": "0x%x",\n' % h
        o += '      "secondary_hash": "0x%x:0x%x",\n' % (0x1234, 0x5678)
        o += '      "size": %d,\n' % size
        o += '      "ranks_count": %d,\n' % len(ranks)
        o += '      "missing_ranks_count": %d,\n' % len(missing)
        o += '      "ranks": [\n'
        for ri, (rank, host, pid, dev, allreduce) in enumerate(ranks):
            if ri:
                o += ",\n"
            o += "        {\n"
            o += '          "rank": %d,\n' % rank
            o += '          "host": "%s",\n' % host
            o += '          "pid": %d,\n' % pid
            o += '          "cuda_dev": %d,\n' % dev
            o += '          "nvml_dev": %d,\n' % dev
            o += '          "status": {\n'
            o += '            "init_state": %d,\n' % 0
            o += '            "async_error": %d,\n' % 0
            o += '            "finalize_called": %s,\n' % "false"
            o += '            "destroy_flag": %s,\n' % "false"
            o += '            "abort_flag": %s\n' % "false"
            o += "          },\n"
            o += '          "collective_counts": {\n'
            for k, op in enumerate(OPS):
                v = allreduce if op == "AllReduce" else (1 if op == "Broadcast" else 0)
                o += '            "%s": %d' % (op, v)
                if k < len(OPS) - 1:
                    o += ","
                o += "\n"
            o += "          }\n"
            o += "        }"
        o += "\n      ],\n"
        o += '      "missing_ranks": [\n'
        for mi, (rank, host, pid, dev, dead) in enumerate(missing):
            if mi:
                o += ",\n"
            o += "        {\n"
            o += '          "rank": %d,\n' % rank
            o += '          "host": "%s",\n' % host
            o += '          "pid": %d,\n' % pid
            o += '          "cuda_dev": %d,\n' % dev
            o += '          "nvml_dev": %d,\n' % dev
            o += '          "status": {\n'
            o += '            "unresponsive": %s,\n' % ("true" if not dead else "false")
            o += '            "considered_dead": %s\n' % ("true" if dead else "false")
            o += "          }\n"
            o += "        }"
        o += "\n      ]\n"
        o += "    }"
    o += "\n  ],\n"
    o += '  "ras": {\n'
    o += '    "collection_time_sec": %.3f,\n' % 0.012
    o += '    "timeouts_count": %d\n' % timeouts
    o += "  }\n"
    o += "}\n"
    return o

def event(t, ev, host, pid, devs):
    d = "[" + ",".join(str(x) for x in devs) + "]"
    return ('{\n  "timestamp": "%s",\n  "group": "%s",\n  "event": "%s",\n'
            '  "peer": {\n    "host": "%s",\n    "pid": %d,\n'
            '    "cuda_devs": %s,\n    "nvml_devs": %s\n  },\n'
            '  "details": "%s"\n}\n') % (t, "LIFECYCLE", ev, host, pid, d, d, "")

def job(a, b, strag, h="10.231.68.1", s="10.231.68.2"):
    # 4 ranks; rank 3 on host s lags at `strag`
    ranks = [(0, h, 101, 0, a), (1, h, 102, 1, a), (2, s, 201, 0, b), (3, s, 202, 1, strag)]
    return status([(0xf1e2d3c4b5a69788, 4, ranks, [])])

which = sys.argv[1]
h = sys.argv[2] if len(sys.argv) > 2 else "10.231.68.1"
s = sys.argv[3] if len(sys.argv) > 3 else "10.231.68.2"
if which == "stopped-1":
    sys.stdout.write(job(13, 13, 12, h, s))
elif which == "stopped-2":
    sys.stdout.write(job(13, 13, 12, h, s))
elif which == "slow-1":
    sys.stdout.write(job(400, 400, 398, h, s))
elif which == "slow-2":
    sys.stdout.write(job(460, 460, 440, h, s))
elif which == "keeping-2":
    sys.stdout.write(job(460, 460, 459, h, s))
elif which == "healthy":
    sys.stdout.write(job(500, 500, 500, h, s))
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
