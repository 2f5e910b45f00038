#!/usr/bin/python3
"""Turns real scrapes of netprobe's /metrics into a `promtool test rules`
file: every sample becomes an input series that holds its scraped value
for 10 minutes, with the instance and job labels a scrape adds, and every
alert of the rules file gets an alert_rule_test at 5 minutes that expects
exactly the faults given (NODE:CODE), NetprobeNodeFault with the series'
own severity, "fault", and nothing else. promtool's clock starts at 0, so
a *_timestamp_seconds gauge is taken relative to its scrape and advances
a minute a minute, as a live process rewrites it.

usage: prom_scrape_test.py RULES OUT.yml INSTANCE=SCRAPE... -- NODE:CODE...
"""
import json
import re
import sys
import time

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?')


def series(instance, path, scraped):
    """(name, labels dict, value) of every sample of one scrape."""
    out = []
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            m = SAMPLE.match(line)
            if m is None:
                sys.exit("cannot parse the sample '%s' of %s" % (line, path))
            labels = dict(LABEL.findall(m.group(3) or ""))
            labels["instance"] = instance
            labels["job"] = "netprobe"
            value = float(m.group(4))
            if m.group(1).endswith("_timestamp_seconds"):
                value -= scraped
            out.append((m.group(1), labels, value))
    return out


def selector(name, labels):
    """name{k="v",...} with the values quoted as the test format wants."""
    body = ",".join('%s=%s' % (k, json.dumps(v))
                    for k, v in sorted(labels.items()))
    return "%s{%s}" % (name, body)


def main():
    rules, out = sys.argv[1], sys.argv[2]
    cut = sys.argv.index("--")
    scrapes = [a.split("=", 1) for a in sys.argv[3:cut]]
    faults = [a.split(":", 1) for a in sys.argv[cut + 1:]]
    now = time.time()
    alerts = re.findall(r'^\s*- alert: (\w+)$', open(rules).read(), re.M)
    lines = ["rule_files:", "  - %s" % json.dumps(rules),
             "evaluation_interval: 1m", "tests:", "  - interval: 1m",
             "    input_series:"]
    by_node = {}
    for instance, path in scrapes:
        for name, labels, value in series(instance, path, now):
            step = "+60" if name.endswith("_timestamp_seconds") else "+0"
            lines.append("      - series: %s" %
                         json.dumps(selector(name, labels)))
            lines.append("        values: '%s%sx10'" % (repr(value), step))
            if "node" in labels:
                by_node[labels["node"]] = instance
    lines.append("    alert_rule_test:")
    for a in alerts:
        lines.append("      - eval_time: 5m")
        lines.append("        alertname: %s" % a)
        want = [(n, c) for n, c in faults] if a == "NetprobeNodeFault" else []
        if not want:
            lines.append("        exp_alerts: []")
            continue
        lines.append("        exp_alerts:")
        for node, code in want:
            if node not in by_node:
                sys.exit("no scrape of node '%s'" % node)
            lines += [
                "          - exp_labels:",
                "              severity: fault",
                "              node: %s" % json.dumps(node),
                "              code: %s" % json.dumps(code),
                "              instance: %s" % json.dumps(by_node[node]),
                "              job: netprobe",
                "            exp_annotations:",
                "              summary: %s" % json.dumps(
                    "%s: %s" % (node, code)),
                "              description: %s" % json.dumps(
                    "netprobe mesh raised %s on %s; `netprobe explain` or"
                    " the report gives its fix." % (code, node)),
            ]
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
