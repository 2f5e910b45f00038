# The plain-socket check of the third blind set (issue 48), the second set's
# pairs.py unchanged: no torch, no netprobe. "serve ADDR PORT SECS" accepts
# connections for SECS seconds,
# reads each to its end and answers "ok N"; "dial ADDR PORT BYTES" connects,
# sends BYTES, waits for the answer (3 s each step) and prints one word:
# ok (within 1 s), slow:<seconds> (all of it, in more than 1 s: 256 KiB
# takes milliseconds on these veths), short, refused, unreachable, timeout
# or error:<errno>.
#   python3 pairs.py serve 10.231.62.1 7562 60
#   python3 pairs.py dial 10.231.62.1 7562 262144
import socket
import sys
import threading
import time


def serve(addr, port, secs):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((addr, port))
    s.listen(64)
    s.settimeout(0.5)
    end = time.time() + secs
    while time.time() < end:
        try:
            c, _ = s.accept()
        except socket.timeout:
            continue
        threading.Thread(target=answer, args=(c,), daemon=True).start()


def answer(c):
    c.settimeout(5)
    n = 0
    try:
        while True:
            d = c.recv(65536)
            if not d:
                break
            n += len(d)
        c.sendall(b"ok %d\n" % n)
    except OSError:
        pass
    c.close()


def dial(addr, port, nbytes):
    c = socket.socket()
    c.settimeout(3)
    t0 = time.time()
    try:
        c.connect((addr, port))
        c.sendall(b"x" * nbytes)
        c.shutdown(socket.SHUT_WR)
        r = c.recv(64)
        if not r.startswith(b"ok %d" % nbytes):
            return "short"
        dt = time.time() - t0
        return "ok" if dt < 1.0 else "slow:%.1fs" % dt
    except ConnectionRefusedError:
        return "refused"
    except socket.timeout:
        return "timeout"
    except OSError as e:
        if e.errno in (101, 113):
            return "unreachable"
        return "error:%d" % e.errno


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))
    else:
        print(dial(sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))
