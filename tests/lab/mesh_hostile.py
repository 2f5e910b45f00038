#!/usr/bin/python3
"""A hostile mesh member for the hardening lab (issue 45), a client of
its own that speaks the rendezvous's frames (docs/protocol.md, "Mesh
rendezvous"). Two modes, each bounded by its timeout:

  flood HOST PORT NAME SIZE GO BIG SMALL
        joins node 0 as rank 1 of SIZE members under NAME, sends a
        document that is none, waits for the verdict and for the file
        GO (node 0 watches), then sends BIG change frames of 59,000
        bytes and SMALL ones of 3,900, and an echo whose reply says
        node 0 read them all. Prints "sent N bytes". 120 s at most.
  idle HOST PORT COUNT SIZE HOLD FROM NFROM
        JOINs for rank 1 of SIZE members that hold a token, from the
        NFROM addresses that follow FROM in turn (so no address has
        many), at most 8 awaiting an answer at once, each dropped after
        2 s unanswered, until COUNT challenges came (or 40 s); none is
        ever answered. Prints "challenged N, held M" (M: still open),
        then holds them HOLD seconds, or until node 0 closes them all,
        and prints "still open K". 120 s at most."""
import select
import socket
import struct
import sys
import time

MAGIC = 0x4E505242
ECHO, ECHO_REPLY, CHALLENGE, ERROR = 4, 5, 12, 14
JOIN, START, MEMBERS, RESULT, VERDICT = 15, 16, 17, 18, 19
DEADLINE = time.monotonic() + 120


def frame(kind, payload):
    return struct.pack("!IBBHI", MAGIC, 1, kind, 0, len(payload)) + payload


def str8(s):
    b = s.encode()
    return bytes([len(b)]) + b


def join(name, size, flags, addr):
    """JOIN: rank 1, SIZE members, no list hash, port 7, its address."""
    return frame(JOIN, struct.pack("!IIIHB", 1, size, 0, 7, flags) +
                 str8(name) + str8(name) + bytes([1, 4]) +
                 socket.inet_aton(addr) + bytes([0]))


def read_frame(s):
    """The next frame (type, payload), or None when node 0 closed."""
    def exact(n):
        b = b""
        while len(b) < n:
            s.settimeout(max(0.1, DEADLINE - time.monotonic()))
            got = s.recv(n - len(b))
            if not got:
                return None
            b += got
        return b
    h = exact(12)
    if h is None:
        return None
    _, _, kind, _, n = struct.unpack("!IBBHI", h)
    p = exact(n)
    return None if p is None else (kind, p)


def change(name, fill):
    return ('{"at":"2026-01-01T00:00:00.000Z","from":"%s","to":"node01",'
            '"was":"up","now":"down","evidence":"%s","lasted_ms":1,'
            '"t_ms":1,"loss_ratio":1.0,"rtt_ms":null}' %
            (name, "x" * fill)).encode()


def result(data):
    return frame(RESULT, struct.pack("!II", len(data), 0) + data)


def flood(host, port, name, size, go, big, small):
    s = socket.create_connection((host, port), timeout=30)
    s.sendall(join(name, size, 0, s.getsockname()[0]))
    while True:
        f = read_frame(s)
        if f is None:
            sys.exit("node 0 closed before its verdict")
        if f[0] == ERROR:
            sys.exit("node 0 refused: %r" % f[1])
        if f[0] == START:
            s.sendall(result(b"not a document"))
        if f[0] == VERDICT:
            break
    while time.monotonic() < DEADLINE:
        try:
            open(go).close()
            break
        except OSError:
            time.sleep(0.1)
    else:
        sys.exit("node 0 did not start watching")
    sent = 0
    s.settimeout(max(1, DEADLINE - time.monotonic()))
    for k in range(big + small):
        f = result(change(name, 58800 if k < big else 3700))
        s.sendall(f)
        sent += len(f)
    s.sendall(frame(ECHO, b"all read"))
    while True:
        f = read_frame(s)
        if f is None:
            sys.exit("node 0 closed before the echo")
        if f[0] == ECHO_REPLY:
            break
    print("sent %d bytes" % sent, flush=True)
    s.close()


def idle(host, port, count, size, hold, first, nfrom):
    base = struct.unpack("!I", socket.inet_aton(first))[0]
    held, flight, p = {}, {}, select.poll()
    challenged, k = 0, 0
    end = min(DEADLINE, time.monotonic() + 40)
    while challenged < count and time.monotonic() < end:
        while len(flight) < 8 and challenged + len(flight) < count:
            src = socket.inet_ntoa(struct.pack("!I", base + k % nfrom))
            k += 1
            s = socket.socket()
            s.setblocking(False)
            s.bind((src, 0))
            s.connect_ex((host, port))
            flight[s.fileno()] = (s, time.monotonic(), False)
            p.register(s.fileno(), select.POLLOUT | select.POLLIN)
        for fd, ev in p.poll(100):
            if fd in held:
                try:
                    gone = not held[fd].recv(4096)
                except BlockingIOError:
                    continue
                except OSError:
                    gone = True
                if gone:
                    p.unregister(fd)
                    held.pop(fd).close()
                continue
            s, t0, sent = flight[fd]
            if ev & select.POLLOUT and not sent:
                try:
                    s.send(join("intruder", size, 1, s.getsockname()[0]))
                except OSError:
                    pass
                flight[fd] = (s, t0, True)
                p.modify(fd, select.POLLIN)
                continue
            try:
                b = s.recv(12)
            except BlockingIOError:
                continue
            except OSError:
                b = b""
            del flight[fd]
            if len(b) == 12 and b[5] == CHALLENGE:
                challenged += 1
                held[fd] = s
            else:
                p.unregister(fd)
                s.close()
        now = time.monotonic()
        for fd in [f for f, v in flight.items() if now - v[1] > 2]:
            p.unregister(fd)
            flight.pop(fd)[0].close()
    for fd in list(flight):
        p.unregister(fd)
        flight.pop(fd)[0].close()
    print("challenged %d, held %d" % (challenged, len(held)), flush=True)
    end = min(DEADLINE, time.monotonic() + hold)
    while held and time.monotonic() < end:
        for fd, _ in p.poll(200):
            if fd not in held:
                continue
            try:
                gone = not held[fd].recv(4096)
            except BlockingIOError:
                continue
            except OSError:
                gone = True
            if gone:
                p.unregister(fd)
                held.pop(fd).close()
    print("still open %d" % len(held), flush=True)


if __name__ == "__main__":
    a = sys.argv
    if a[1] == "flood":
        flood(a[2], int(a[3]), a[4], int(a[5]), a[6], int(a[7]), int(a[8]))
    elif a[1] == "idle":
        idle(a[2], int(a[3]), int(a[4]), int(a[5]), float(a[6]), a[7],
             int(a[8]))
    else:
        sys.exit("usage: mesh_hostile.py flood|idle ...")
