#!/usr/bin/python3
"""Slow and silent clients of netprobe's /metrics endpoint, for the labs.

metrics_slow.py HOST PORT slow N SECONDS [REOPEN_S]
    N connections, each sending a request head one byte a second, and
    each reopened REOPEN_S (default 0.5) after the server closes it.
metrics_slow.py HOST PORT burst N SECONDS
    N connections opened at once that never send a byte, held until the
    server closes them (not reopened).

Prints one line of what it did. Bounded by SECONDS."""
import selectors
import socket
import sys
import time

HEAD = (
    b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200 + b"\r\n\r\n"
)


def main():
    host, port, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    n, secs = int(sys.argv[4]), float(sys.argv[5])
    reopen = float(sys.argv[6]) if len(sys.argv) > 6 else 0.5
    slow = mode == "slow"
    sel = selectors.DefaultSelector()
    end = time.monotonic() + secs
    stats = {"opened": 0, "closed": 0, "failed": 0, "most": 0}
    conns = {}  # socket -> [when its next byte is due, bytes sent]
    pending = [time.monotonic()] * n  # when to open a connection

    def close(s, now):
        sel.unregister(s)
        s.close()
        del conns[s]
        stats["closed"] += 1
        if slow:
            pending.append(now + reopen)

    while time.monotonic() < end:
        now = time.monotonic()
        due = [t for t in pending if t <= now]
        pending[:] = [t for t in pending if t > now]
        for _ in due:
            s = socket.socket()
            s.setblocking(False)
            try:
                s.connect((host, port))
            except BlockingIOError:
                pass
            except OSError:
                stats["failed"] += 1
                s.close()
                if slow:
                    pending.append(now + reopen)
                continue
            conns[s] = [now + 1.0 if slow else end, 0]
            sel.register(s, selectors.EVENT_READ)
            stats["opened"] += 1
        stats["most"] = max(stats["most"], len(conns))
        wake = min([c[0] for c in conns.values()] + pending + [end])
        for key, _ in sel.select(max(0.01, min(1.0, wake - now))):
            s = key.fileobj
            try:
                d = s.recv(4096)
            except BlockingIOError:
                continue
            except OSError:
                d = b""
            if not d:
                close(s, time.monotonic())
        now = time.monotonic()
        for s, c in list(conns.items()):
            if not slow or c[0] > now:
                continue
            try:
                c[1] += s.send(HEAD[c[1] : c[1] + 1])
            except BlockingIOError:
                pass
            except OSError:
                close(s, now)
                continue
            c[0] = now + 1.0
    print(
        "%s: opened %d, closed by the server %d, failed %d, "
        "at most %d open at once, %d open at the end"
        % (mode, stats["opened"], stats["closed"], stats["failed"],
           stats["most"], len(conns))
    )


main()
