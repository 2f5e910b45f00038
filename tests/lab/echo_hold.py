#!/usr/bin/python3
"""The timed echo (docs/protocol.md, ECHO) from the outside, for the
link-tail lab. Two modes, each bounded by its timeout:

  ask HOST PORT            send one timed echo, print the reply's
                           held_us ("unknown" when not told)
  hold PORT EVERY MS TELL  a UDP echo responder on PORT that holds every
                           EVERY-th echo MS milliseconds before it
                           answers (a stalled host); TELL 1 writes the
                           time held into the reply as netprobe serve
                           does, 0 returns the payload unchanged (an old
                           responder). Runs for 60 s at most."""
import heapq
import select
import socket
import struct
import sys
import time

MAGIC, ECHO, REPLY = 0x4E505242, 4, 5
ASK, UNKNOWN = 0x484C4431, 0xFFFFFFFF


def frame(kind, payload):
    return struct.pack("!IBBHI", MAGIC, 1, kind, 0, len(payload)) + payload


def ask(host, port):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(10)
    s.sendto(frame(ECHO, struct.pack("!IQII", 7, 0, ASK, UNKNOWN)),
             (host, port))
    data, _ = s.recvfrom(256)
    _, _, kind, _, n = struct.unpack("!IBBHI", data[:12])
    seq, _, a, held = struct.unpack("!IQII", data[12:12 + n])
    print("unknown" if held == UNKNOWN or kind != REPLY or seq != 7
          else held)


def hold(port, every, ms, tell):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("0.0.0.0", port))
    due, n, end = [], 0, time.monotonic() + 60
    while time.monotonic() < end:
        wait = max(0.0, due[0][0] - time.monotonic()) if due else 0.2
        if select.select([s], [], [], wait)[0]:
            data, peer = s.recvfrom(256)
            rx = time.monotonic()
            n += 1
            later = ms / 1000.0 if n % every == 0 else 0.0
            heapq.heappush(due, (rx + later, n, rx, data, peer))
        while due and due[0][0] <= time.monotonic():
            _, _, rx, data, peer = heapq.heappop(due)
            body = bytearray(data[12:])
            if tell and len(body) == 20:
                seq, sent, a, _ = struct.unpack("!IQII", body)
                if a == ASK:
                    held = int((time.monotonic() - rx) * 1e6)
                    body = bytearray(struct.pack("!IQII", seq, sent, a, held))
            s.sendto(frame(REPLY, bytes(body)), peer)


if sys.argv[1] == "ask":
    ask(sys.argv[2], int(sys.argv[3]))
else:
    hold(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]),
         sys.argv[5] == "1")
