# Turns TSO and GSO off on an interface (the legacy ethtool ioctls
# ETHTOOL_STSO and ETHTOOL_SGSO, as `ethtool -K IF tso off gso off` does),
# for the blind set of issue 48: a veth with its offloads on hands the
# bridge 64 KiB super-packets that no port's MTU check stops, where a real
# NIC puts MTU-sized frames on the wire. Run inside the node's namespace.
#   python3 nic_offload_off.py IFNAME
import ctypes
import fcntl
import socket
import struct
import sys

SIOCETHTOOL = 0x8946
ETHTOOL_STSO = 0x1f
ETHTOOL_SGSO = 0x24


def main():
    name = sys.argv[1].encode()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for cmd in (ETHTOOL_STSO, ETHTOOL_SGSO):
            ev = ctypes.create_string_buffer(struct.pack("II", cmd, 0))
            ifr = struct.pack("16sP", name, ctypes.addressof(ev))
            fcntl.ioctl(s.fileno(), SIOCETHTOOL, ifr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
