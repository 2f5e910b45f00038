# Speaks NCCL's RAS client protocol (src/ras/client.cc) to localhost:28028
# and records each answer verbatim: JSON status, text status, monitor.
import socket, sys, time

out = sys.argv[1]

def conn():
    s = socket.create_connection(("127.0.0.1", 28028), timeout=5)
    f = s.makefile("rb")
    s.sendall(b"CLIENT PROTOCOL 2\n")
    hello = f.readline()
    s.sendall(b"TIMEOUT 5\n")
    ok = f.readline()
    return s, f, hello + ok

def rest(s, limit):
    s.settimeout(limit)
    buf = b""
    end = time.time() + limit
    while time.time() < end:
        try:
            d = s.recv(65536)
        except socket.timeout:
            break
        if not d:
            break
        buf += d
    return buf

def record(name, data):
    with open(f"{out}/{name}", "wb") as fh:
        fh.write(data)
    print(f"== {name} ({len(data)} bytes)")
    print(data[:3000].decode("utf-8", "replace"))

for attempt in range(3):
    try:
        s, f, hs = conn()
        break
    except OSError as e:
        print("connect", e); time.sleep(2)
record("handshake.txt", hs)
s.sendall(b"SET FORMAT json\n")
s.settimeout(5)
fmt = f.readline()
record("set-format-answer.txt", fmt)
s.sendall(b"VERBOSE STATUS\n")
record("status-after-set-format.txt", rest(s, 20))
s.close()

s, f, hs = conn()
s.sendall(b"VERBOSE STATUS\n")
record("status-text.txt", rest(s, 20))
s.close()

s, f, hs = conn()
s.sendall(b"MONITOR\n")
s.settimeout(5)
record("monitor-answer.txt", f.readline() + rest(s, 3))
s.close()
