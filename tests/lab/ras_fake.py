#!/usr/bin/env python3
# A stand-in for NCCL's RAS client port speaking its protocol as
# src/ras/client_support.cc does: CLIENT PROTOCOL, TIMEOUT, SET FORMAT
# (2.28.7+; --text answers "ERROR: Unknown command" as older NCCL does),
# STATUS / VERBOSE STATUS (the answer files in turn, then close), MONITOR
# (2.29+; --no-monitor refuses it). --silent accepts and never answers.
# Writes "looks N monitors M" to --state after each STATUS answered and
# each MONITOR taken. Bounded: exits
# after --life seconds.
import argparse, socket, threading, time

ap = argparse.ArgumentParser()
ap.add_argument("--port", type=int, required=True)
ap.add_argument("--addr", default="127.0.0.1")
ap.add_argument("--answer", action="append", default=[])
ap.add_argument("--events", default="")
ap.add_argument("--text", action="store_true")
ap.add_argument("--no-monitor", action="store_true")
ap.add_argument("--silent", action="store_true")
ap.add_argument("--state", default="")
ap.add_argument("--life", type=float, default=90)
a = ap.parse_args()
looks = [0]
monitors = [0]
lock = threading.Lock()

def note():
    if a.state:
        with open(a.state + ".tmp", "w") as f:
            f.write("looks %d monitors %d\n" % (looks[0], monitors[0]))
        import os
        os.replace(a.state + ".tmp", a.state)

def serve(c):
    c.settimeout(a.life)
    if a.silent:
        time.sleep(a.life)
        return
    buf = b""
    try:
        while True:
            d = c.recv(4096)
            if not d:
                return
            buf += d
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                cmd = line.decode().strip().lower()
                if cmd.startswith("client protocol "):
                    c.sendall(b"SERVER PROTOCOL 2\n")
                elif cmd.startswith("timeout "):
                    c.sendall(b"OK\n")
                elif cmd.startswith("set format ") and not a.text:
                    c.sendall(b"OK\n")
                elif cmd in ("status", "verbose status"):
                    with lock:
                        i = min(looks[0], len(a.answer) - 1)
                        looks[0] += 1
                    with open(a.answer[i], "rb") as f:
                        c.sendall(f.read())
                    note()
                    return
                elif cmd.startswith("monitor") and not a.no_monitor:
                    with lock:
                        monitors[0] += 1
                    note()
                    c.sendall(b"OK\n")
                    if a.events:
                        with open(a.events, "rb") as f:
                            c.sendall(f.read())
                    time.sleep(a.life)
                    return
                else:
                    c.sendall(b"ERROR: Unknown command " + line + b"\n")
    except OSError:
        pass
    finally:
        c.close()

s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((a.addr, a.port))
s.listen(16)
s.settimeout(1)
note()
end = time.time() + a.life
while time.time() < end:
    try:
        c, _ = s.accept()
    except socket.timeout:
        continue
    threading.Thread(target=serve, args=(c,), daemon=True).start()
