#!/usr/bin/env python3
"""Per-port verdicts of nmap -oX and netprobe ports --json, for the bench.

counts NMAP.xml LO-HI          state counts of the nmap run
compare NP.json NMAP.xml LO-HI port-by-port agreement, one line

netprobe's prohibited and unreachable are nmap's "filtered".
"""
import json
import sys
import xml.etree.ElementTree as ET


def nmap_states(path, rng):
    lo, hi = (int(x) for x in rng.split("-"))
    root = ET.parse(path).getroot()
    ports = root.find("host/ports")
    states = {}
    rest = None
    if ports is None:
        return {p: "none" for p in range(lo, hi + 1)}
    for ex in ports.findall("extraports"):
        rest = ex.get("state")
        for why in ex.findall("extrareasons"):
            for item in (why.get("ports") or "").split(","):
                if not item:
                    continue
                a, _, b = item.partition("-")
                for p in range(int(a), int(b or a) + 1):
                    states[p] = rest
    for p in ports.findall("port"):
        states[int(p.get("portid"))] = p.find("state").get("state")
    for p in range(lo, hi + 1):
        states.setdefault(p, rest or "none")
    return states


def np_states(path):
    doc = json.load(open(path))
    m = {"prohibited": "filtered", "unreachable": "filtered"}
    return {p["port"]: m.get(p["state"], p["state"]) for p in doc["ports"]}


def counts(states):
    c = {}
    for s in states.values():
        c[s] = c.get(s, 0) + 1
    return " ".join("%s=%d" % kv for kv in sorted(c.items()))


def main():
    if sys.argv[1] == "counts":
        print(counts(nmap_states(sys.argv[2], sys.argv[3])))
        return 0
    a = np_states(sys.argv[2])
    b = nmap_states(sys.argv[3], sys.argv[4])
    diff = [p for p in sorted(b) if a.get(p) != b[p]]
    print("%s: %d ports, %d differ%s" % (
        sys.argv[3].rsplit("/", 1)[-1], len(b), len(diff),
        (" (first: %s)" % ", ".join(
            "%d np=%s nmap=%s" % (p, a.get(p), b[p]) for p in diff[:5]))
        if diff else ""))
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
