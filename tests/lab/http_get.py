#!/usr/bin/python3
"""A raw HTTP/1.x client for the labs of netprobe's /metrics endpoint:
sends one request as given (or a slow or oversized one) and prints the
status code, then the body. Bounded by its timeout."""
import socket
import sys


def main():
    host, port, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    arg = sys.argv[4] if len(sys.argv) > 4 else "/metrics"
    s = socket.create_connection((host, port), timeout=10)
    if mode == "big":
        req = "GET /metrics HTTP/1.1\r\nX-Pad: " + "a" * 5000 + "\r\n\r\n"
    elif mode == "raw":
        req = arg.encode().decode("unicode_escape")
    else:
        req = "%s %s HTTP/1.1\r\nHost: x\r\n\r\n" % (mode, arg)
    try:
        s.sendall(req.encode())
    except OSError:
        pass
    data = b""
    while len(data) < 16 << 20:
        try:
            b = s.recv(65536)
        except OSError:
            break
        if not b:
            break
        data += b
    head, _, body = data.partition(b"\r\n\r\n")
    line = head.split(b"\r\n")[0].decode(errors="replace")
    print(line.split(" ")[1] if " " in line else "none")
    sys.stdout.write(body.decode(errors="replace"))


main()
