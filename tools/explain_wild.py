#!/usr/bin/env python3
"""Writes the wild corpus of netprobe explain (tests/explain/wild): logs
shaped like the ones users paste (noise, interleaved frameworks, rank
prefixes, colours, cut lines, CRLF), each with what a right answer holds.

Each NAME.expect says:
  framework F       the framework whose lines carry the failure
  want CODE         network log: the right code (decided or a candidate)
  proof yes|no      whether the log itself holds the proof (decided)
  none              not a network failure: no network cause may come back
Run from the repository root: python3 tools/explain_wild.py"""
import os
import random

from wild_ctx import Ctx, ESC, Noise, train_noise
from wild_net import NET
from wild_nonnet import NONNET

OUT = "tests/explain/wild"


# ---- how users paste ------------------------------------------------------

def decorate(c, lines):
    r = c.r
    style = r.randint(0, 7)
    out = []
    for i, ln in enumerate(lines):
        if style == 1:
            ln = "[1,%d]<stderr>:%s" % (r.randint(0, 3), ln)
        elif style == 2:
            ln = "(pid=%d) %s" % (c.pid[r.randint(0, 3)], ln)
        elif style == 3 and not ln.startswith("[rank"):
            ln = "[rank%d]:%s" % (r.randint(0, 7), ln)
        elif style == 4:
            ln = "%s: %s" % (c.h[r.randint(0, 1)], ln)
        elif style == 5:
            ln = "[default%d]:%s" % (r.randint(0, 7), ln)
        elif style == 6:
            ln = "(RayTrainWorker pid=%d, ip=%s) %s" % (
                c.pid[r.randint(0, 3)], c.ip[r.randint(0, 3)], ln)
        out.append(ln)
        if r.random() < 0.25:
            out.extend(train_noise(c, r.randint(1, 3)))
    if r.random() < 0.4:  # another framework's chatter interleaved
        extra = [c.np(2, msg="comm 0x%x rank 2 nranks 4 cudaDev 2 busId "
                      "%x000 - Init COMPLETE" % (r.getrandbits(32),
                                                 r.randint(1, 9))),
                 "2024-01-01 10:00:00,000\tINFO worker.py:1553 -- Connecting"
                 " to existing Ray cluster at address: %s:6379..." % c.ip[0],
                 "[%s:%05d] mca: base: components_register: registering "
                 "framework btl components" % (c.h[0], c.pid[0])]
        for e in r.sample(extra, r.randint(1, 3)):
            out.insert(r.randint(0, len(out)), e)
    if r.random() < 0.3:  # colours on the warnings
        out = [ESC + "[1;31m" + x + ESC + "[0m" if ("WARN" in x or "Error"
                                                   in x) else x for x in out]
    if r.random() < 0.3:  # a cut noise line
        k = r.randint(0, len(out) - 1)
        if isinstance(out[k], Noise):
            out[k] = out[k][:r.randint(5, max(6, len(out[k]) // 2))]
    head = train_noise(c, r.randint(0, 4))
    return head + out


def write(name, lines, expect, crlf):
    nl = "\r\n" if crlf else "\n"
    with open(os.path.join(OUT, name + ".log"), "w", newline="") as f:
        f.write(nl.join(lines) + nl)
    with open(os.path.join(OUT, name + ".expect"), "w") as f:
        f.write("\n".join(expect) + "\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    n = 0
    for rounds in range(2):
        for s in NET:
            rnd = random.Random("%s-%d" % (s.__name__, rounds))
            c = Ctx(rnd)
            fw, want, proof, lines = s(c)
            n += 1
            name = "n%03d-%s" % (n, s.__name__[2:].replace("_", "-"))
            write(name, decorate(c, lines),
                  ["framework %s" % fw, "want %s" % want,
                   "proof %s" % ("yes" if proof else "no")],
                  rnd.random() < 0.2)
    for rounds in range(2):
        for s in NONNET:
            rnd = random.Random("%s-%d" % (s.__name__, rounds))
            c = Ctx(rnd)
            fw, lines = s(c)
            n += 1
            name = "x%03d-%s" % (n, s.__name__[2:].replace("_", "-"))
            write(name, decorate(c, lines),
                  ["framework %s" % fw, "none"], rnd.random() < 0.2)
    print("wrote %d logs to %s" % (n, OUT))


if __name__ == "__main__":
    main()
