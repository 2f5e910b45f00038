# The fifth blind set's check that full 1500-byte frames pass (issue 48):
# "serve ADDR PORT SECS" echoes every UDP datagram for SECS seconds; "dial
# ADDR PORT" sends one datagram of 1472 bytes (a 1500-byte IPv4 packet) with
# DF set (IP_MTU_DISCOVER = IP_PMTUDISC_DO: never fragmented) and waits at
# most 2 s for its echo, three tries; prints ok, emsgsize, timeout or
# error:<errno>.
#   python3 df.py serve 10.231.132.1 7564 60
#   python3 df.py dial 10.231.132.1 7564
import errno
import socket
import sys
import time

IP_MTU_DISCOVER = getattr(socket, "IP_MTU_DISCOVER", 10)
IP_PMTUDISC_DO = getattr(socket, "IP_PMTUDISC_DO", 2)


def serve(addr, port, secs):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.setsockopt(socket.IPPROTO_IP, IP_MTU_DISCOVER, IP_PMTUDISC_DO)
    s.bind((addr, port))
    s.settimeout(0.5)
    end = time.time() + secs
    while time.time() < end:
        try:
            d, peer = s.recvfrom(65536)
        except socket.timeout:
            continue
        try:
            s.sendto(d, peer)
        except OSError:
            pass


def dial(addr, port):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.IPPROTO_IP, IP_MTU_DISCOVER, IP_PMTUDISC_DO)
    s.settimeout(2)
    msg = b"d" * 1472
    for _ in range(3):
        try:
            s.sendto(msg, (addr, port))
            d, _ = s.recvfrom(65536)
            if len(d) == len(msg):
                return "ok"
        except socket.timeout:
            continue
        except OSError as e:
            if e.errno == errno.EMSGSIZE:
                return "emsgsize"
            return "error:%s" % errno.errorcode.get(e.errno, e.errno)
    return "timeout"


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))
    else:
        print(dial(sys.argv[2], int(sys.argv[3])))
