"""The wild corpus of netprobe explain (explain_wild.py): the network
scenarios, each returning (framework, want, proof, lines), and NET, their
order."""
from wild_ctx import nccl_chatter, traceback, train_noise, watchdog


# ---- network scenarios: (framework, want, proof, lines) ----------------

def s_nccl_refused(c):
    v = c.connect()
    L = nccl_chatter(c, 0) + nccl_chatter(c, 1)
    L.append(c.np(0, lvl="WARN", msg="%s %s<%d> failed : Connection refused"
                  % (v, c.ip[1], c.port)))
    L.append(c.np(0, msg="misc/socket.cc:%d -> 2" % c.r.randint(400, 600)))
    L.append(c.np(0, msg="bootstrap.cc:%d -> 2" % c.r.randint(50, 300)))
    L.append("RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/"
             "ProcessGroupNCCL.cpp:%d, unhandled system error, NCCL "
             "version %s" % (c.r.randint(800, 1300), c.nccl))
    return "NCCL", "port-closed", True, L


def s_nccl_noroute(c):
    v = c.connect()
    err = c.r.choice(["No route to host", "Network is unreachable"])
    L = nccl_chatter(c, 0)
    L.append(c.np(0, lvl="WARN", msg="%s 10.99.%d.7<%d> failed : %s" % (
        v, c.r.randint(0, 200), c.port, err)))
    return "NCCL", "host-unreachable", True, L


def s_nccl_timeout(c):
    v = c.connect()
    L = nccl_chatter(c, 0) + train_noise(c, 2)
    L.append(c.np(0, lvl="WARN", msg="%s %s<%d> failed : Connection timed "
                  "out" % (v, c.ip[2], c.port)))
    return "NCCL", "port-filtered", False, L


def s_nccl_exceeded(c):
    c.nccl = c.r.choice(["2.19.3", "2.20.5", "2.21.5"])
    L = nccl_chatter(c, 0)
    L.append(c.np(0, lvl="WARN", msg="socketStartConnect: exceeded retries "
                  "(%d)" % c.r.choice([20, 34])))
    L.append(c.np(0, msg="misc/socket.cc:%d -> 6" % c.r.randint(400, 600)))
    return "NCCL", "port-closed", True, L


def s_nccl_retry228(c):
    c.nccl = c.r.choice(["2.28.3", "2.28.9"])
    L = nccl_chatter(c, 0)
    L.append(c.np(0, lvl="WARN", msg="socketStartConnect: connect to %s<%d> "
                  "returned Connection refused, exceeded error retry count "
                  "after 35 attempts" % (c.ip[1], c.port)))
    return "NCCL", "port-closed", True, L


def s_nccl_nomatch(c):
    L = [c.np(0, msg="NCCL version %s+cuda11.8" % c.nccl),
         c.np(0, msg="NCCL_SOCKET_IFNAME set by environment to ens9f0")]
    L.append(c.np(0, lvl="WARN", msg="Bootstrap : no socket interface "
                  "found"))
    L.append("RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:%d, "
             "internal error, NCCL version %s" % (c.r.randint(800, 1300),
                                                   c.nccl))
    return "NCCL", "nccl-ifname-nomatch", True, L


def s_nccl_iface_list(c):
    virt = c.r.choice(["docker0:172.17.0.1", "veth3f2a1b:10.244.%d.1" %
                       c.r.randint(1, 9), "br-5d2c3a9b:172.18.0.1",
                       "cni0:10.88.0.1", "virbr0:192.168.122.1"])
    L = [c.np(0, msg="NCCL version %s+cuda12.1" % c.nccl),
         c.np(0, msg="Bootstrap : Using eth0:%s<0>" % c.ip[0]),
         c.np(0, msg="NET/IB : No device found."),
         c.np(0, msg="NET/Socket : Using [0]eth0:%s<0> [1]%s<0>" %
              (c.ip[0], virt))] + train_noise(c, 3)
    L.append("[rank0]:" + watchdog(c, 0))
    return "NCCL", "nccl-default-iface-unsafe", True, L


def s_nccl_dup_container(c):
    a = "172.17.0.%d" % c.r.randint(2, 6)
    L = nccl_chatter(c, 0, addr=a) + nccl_chatter(c, 1, addr=a)
    L += train_noise(c, 2)
    L.append("[rank1]:" + watchdog(c, 1))
    return "NCCL", "container-bridge-nat", True, L


def s_nccl_docker_timeout(c):
    v = c.connect()
    L = nccl_chatter(c, 0)
    L.append(c.np(0, lvl="WARN", msg="%s 172.17.0.%d<%d> failed : "
                  "Connection timed out" % (v, c.r.randint(2, 9), c.port)))
    return "NCCL", "container-bridge-nat", False, L


def s_nccl_commid(c):
    if c.r.random() < 0.5:
        c.nccl = "2.18.3"
        msg = ("Net : No interface found in the same subnet as remote "
               "address 10.250.0.1<29400>")
    else:
        c.nccl = "2.27.7"
        msg = "NET/Socket : No usable listening interface found"
    L = [c.np(0, msg="NCCL version %s+cuda12.2" % c.nccl),
         c.np(0, msg="NCCL_COMM_ID set by environment to 10.250.0.1:29400"),
         c.np(0, lvl="WARN", msg=msg)]
    return "NCCL", "nccl-comm-id-subnet", True, L


def s_nccl_ib_old(c):
    c.nccl = c.r.choice(["2.7.8", "2.8.4", "2.10.3", "2.11.4"])
    L = nccl_chatter(c, 0, ib=True)
    L.append(c.np(0, msg="Channel 00 : 8[0] -> 0[0] [receive] via NET/IB/0"))
    L.append(c.np(0, lvl="WARN", msg="NET/IB : Got completion with error "
                  "12, opcode %d, len %d, vendor err 129" % (
                      c.r.randint(0, 2), c.r.randint(0, 99))))
    L.append(c.np(0, msg="include/net.h:%d -> 2" % c.r.randint(20, 40)))
    return "NCCL", "rdma-gid-index", False, L


def s_nccl_ib_gid_ll(c):
    c.nccl = c.r.choice(["2.19.3", "2.21.5", "2.23.4", "2.27.7"])
    L = nccl_chatter(c, 0, ib=True)
    L.append(c.np(0, lvl="WARN", msg="NET/IB : Got completion from peer "
                  "%s<%d> with status=transport retry counter exceeded(12) "
                  "opcode=IBV_WC_RDMA_WRITE(1) len=0 vendor_err=129 "
                  "localGid fe80::ba59:9fff:fe%02x:1a2b remoteGids "
                  "fe80::ba59:9fff:fe%02x:3c4d hca mlx5_0" % (
                      c.ip[1], c.port, c.r.randint(0, 99),
                      c.r.randint(0, 99))))
    return "NCCL", "rdma-gid-index", True, L


def s_nccl_memlock(c):
    L = nccl_chatter(c, 0, ib=True)
    L.append(c.np(0, lvl="WARN", msg="Call to ibv_reg_mr failed with error "
                  "Cannot allocate memory"))
    L.append(c.np(0, msg="transport/net_ib.cc:%d -> 2" %
                  c.r.randint(400, 900)))
    return "NCCL", "rdma-memlock", True, L


def s_nccl_port_err(c):
    L = nccl_chatter(c, 0, ib=True) + train_noise(c, 3)
    ev = c.r.choice(["NET/IB : Got async event : port error",
                     "NET/IB : mlx5_1:1 Got async error event: port error"])
    L.append(c.np(0, lvl="WARN", msg=ev))
    L.append("[rank0]:" + watchdog(c, 0))
    return "NCCL", "rdma-port-down", True, L


def s_nccl_io_timeout(c):
    v = ("Net : Call to recv from" if c.old() else
         "socketProgressOpt: Call to recv from")
    L = nccl_chatter(c, 0) + train_noise(c, 4)
    L.append(c.np(0, lvl="WARN", msg="%s %s<%d> failed : Connection timed "
                  "out" % (v, c.ip[1], c.port)))
    return "NCCL", "mtu-blackhole", False, L


def s_nccl_shm(c):
    L = nccl_chatter(c, 0)
    L.append(c.np(0, lvl="WARN", msg="Error while creating shared memory "
                  "segment /dev/shm/nccl-%06x (size %d)" % (
                      c.r.randint(0, 0xffffff), 9637888)))
    return "NCCL", "shm-small", True, L


def s_nccl_bind(c):
    L = [c.np(0, msg="NCCL version %s+cuda11.3" % c.nccl),
         c.np(0, msg="NCCL_COMM_ID set by environment to %s:29400" % c.ip[0]),
         c.np(0, lvl="WARN", msg="Call to bind failed : Address already in "
              "use")]
    return "NCCL", "port-in-use", True, L


def s_nccl_loopback(c):
    v = c.connect()
    L = nccl_chatter(c, 0)
    L.append(c.np(0, lvl="WARN", msg="%s 127.0.1.1<%d> failed : Connection "
                  "refused" % (v, c.port)))
    return "NCCL", "hostname-loopback", True, L


def s_nccl_linklocal(c):
    L = [c.np(0, msg="NCCL version %s+cuda12.1" % c.nccl),
         c.np(0, msg="NET/Socket : Using [0]ens5:fe80::4c1:2bff:fe3a:%x%%ens5"
              "<0>" % c.r.randint(0, 0xffff))]
    L.append("[rank0]:" + watchdog(c, 0))
    return "NCCL", "ipv6-link-local-only", True, L


def s_nccl_hca_missing(c):
    L = [c.np(0, msg="NCCL version %s+cuda12.1" % c.nccl),
         c.np(0, msg="NCCL_IB_HCA set by environment to mlx5_0,mlx5_1"),
         c.np(0, msg="NET/IB : No device found."),
         c.np(0, msg="NET/Socket : Using [0]eth0:%s<0>" % c.ip[0])]
    L += train_noise(c, 3)
    return "NCCL", "rdma-hca-missing", False, L


def s_ping_mtu(c):
    L = ["$ ping -M do -s 8972 %s" % c.ip[1],
         "PING %s (%s) 8972(9000) bytes of data." % (c.ip[1], c.ip[1]),
         "From %s icmp_seq=1 Frag needed and DF set (mtu = %d)" % (
             c.ip[3], c.r.choice([1450, 1500, 8950])),
         "ping: local error: message too long, mtu=1500"
         if c.r.random() < 0.3 else "^C"]
    L = nccl_chatter(c, 0) + ["[rank0]:" + watchdog(c, 0)] + L
    return "NCCL", "mtu-mismatch", True, L


def s_nccl_podman(c):
    L = nccl_chatter(c, 0)
    L.append(c.np(0, lvl="WARN", msg="socketStartConnect: Connect to "
                  "10.88.0.%d<%d> failed : Connection timed out" % (
                      c.r.randint(2, 9), c.port)))
    return "NCCL", "container-bridge-nat", False, L


def s_nccl_closed_then_refused(c):
    L = nccl_chatter(c, 0)
    L.append(c.np(0, lvl="WARN", msg="socketProgress: Connection closed by "
                  "remote peer %s<%d>" % (c.ip[2], c.port + 1)))
    L.append(c.np(0, lvl="WARN", msg="socketStartConnect: Connect to "
                  "%s<%d> failed : Connection refused" % (c.ip[1], c.port)))
    return "NCCL", "port-closed", True, L


def s_gloo_refused(c):
    L = traceback(c, 'dist.init_process_group(backend="gloo")')
    L.append("RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc"
             ":%d] connect [%s]:%d: Connection refused" % (
                 c.r.choice([761, 799, 800]), c.ip[1], c.port))
    return "Gloo", "port-closed", True, L


def s_gloo_loopback(c):
    L = traceback(c, 'dist.init_process_group("gloo")')
    L.append("RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/"
             "pair.cc:%d] connect [127.0.1.1]:%d: Connection refused" % (
                 c.r.choice([761, 799]), c.port))
    return "Gloo", "hostname-loopback", True, L


def s_gloo_docker(c):
    L = traceback(c, 'dist.init_process_group(backend="gloo")')
    L.append("RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc"
             ":799] connect [172.17.0.%d]:%d: Connection timed out" % (
                 c.r.randint(2, 8), c.port))
    return "Gloo", "container-bridge-nat", False, L


def s_gloo_ifname(c):
    val = c.r.choice(["^lo,docker0", "=eth0", "eth0,eth1", "^docker"])
    L = ["GLOO_SOCKET_IFNAME=%s" % val] + traceback(c)
    L.append("RuntimeError: [enforce fail at ../third_party/gloo/gloo/"
             "transport/tcp/device.cc:%d] ifa != nullptr. Unable to find "
             "address for: %s" % (c.r.choice([83, 88]), val))
    return "Gloo", "gloo-ifname-syntax", True, L


def s_gloo_hostbind(c):
    L = traceback(c, 'dist.init_process_group("gloo")')
    L.append("RuntimeError: [enforce fail at ../third_party/gloo/gloo/"
             "transport/tcp/device.cc:128] bind_rv == 0. Unable to find "
             "address for %s; bind(2) for [10.%d.3.4] failed with: Cannot "
             "assign requested address" % (c.h[0], c.r.randint(1, 200)))
    return "Gloo", "hostname-unbindable", True, L


def s_gloo_write(c):
    L = traceback(c, 'dist.init_process_group("gloo")')
    L.append("RuntimeError: Gloo connectFullMesh failed with [../third_party"
             "/gloo/gloo/transport/tcp/pair.cc:144] write: Connection "
             "refused, remote=[%s]:%d" % (c.ip[1], c.port))
    return "Gloo", "port-closed", True, L


def s_gloo_retries(c):
    L = traceback(c, 'dist.init_process_group("gloo")')
    L.append("RuntimeError: Gloo connectFullMesh failed with [../third_party"
             "/gloo/gloo/transport/tcp/pair.cc:144] timed out connecting: "
             "SO_ERROR: No route to host, remote=[%s]:%d" % (c.ip[2],
                                                             c.port))
    return "Gloo", "host-unreachable", True, L


def s_torch_store_noroute(c):
    L = train_noise(c, 2)
    L.append("[W socket.cpp:%d] [c10d] The client socket has failed to "
             "connect to [%s]:29500 (errno: 113 - No route to host)." % (
                 c.r.choice([426, 601, 663, 697]), c.ip[0]))
    return "torch", "host-unreachable", True, L


def s_torch_store_timeout(c):
    L = traceback(c, frames=1)
    L.append("torch.distributed.DistNetworkError: The client socket has "
             "timed out after %s while trying to connect to (%s, 29500)." %
             (c.r.choice(["1800s", "900s", "600000ms"]), c.ip[0]))
    return "torch", "port-filtered", False, L


def s_torch_store_bind(c):
    L = traceback(c, frames=1)
    L.append("RuntimeError: The server socket has failed to listen on any "
             "local network address. The server socket has failed to bind "
             "to [::]:29500 (errno: 98 - Address already in use). The server "
             "socket has failed to bind to 0.0.0.0:29500 (errno: 98 - "
             "Address already in use).")
    return "torch", "port-in-use", True, L


def s_torch_libuv(c):
    L = traceback(c, frames=1)
    L.append("torch.distributed.DistNetworkError: The server socket has "
             "failed to listen on any local network address. port: 29500, "
             "useIpv6: false, code: -98, name: EADDRINUSE, message: address "
             "already in use")
    return "torch", "port-in-use", True, L


def s_torch_old_inuse(c):
    c.torch = c.r.choice(["1.4.0", "1.6.0", "1.8.1"])
    L = ["python -m torch.distributed.launch --nproc_per_node=8 train.py"]
    L += traceback(c, frames=1)
    L.append("RuntimeError: Address already in use")
    return "torch", "port-in-use", True, L


def s_torch_old_connect(c):
    L = traceback(c, frames=1)
    L.append("RuntimeError: connect() timed out. Original timeout was "
             "1800000 ms.")
    return "torch", "port-filtered", False, L


def s_torch_elastic_refused(c):
    L = ["[W socket.cpp:%d] [c10d] The client socket has failed to connect "
         "to [%s]:29400 (errno: 111 - Connection refused)." % (
             c.r.choice([558, 663]), c.h[0]),
         "Traceback (most recent call last):",
         "torch.distributed.elastic.rendezvous.api.RendezvousConnectionError:"
         " The connection to the C10d store has failed. See inner exception "
         "for details."]
    return "torch", "port-closed", True, L


def s_torch_not_listening(c):
    L = ["[I socket.cpp:774] [c10d] No socket on (%s, 29500) is listening "
         "yet, will retry." % c.ip[0]] * 2
    L.append("torch.distributed.DistNetworkError: The client socket has "
             "timed out after 1800s while trying to connect to (%s, 29500)."
             % c.ip[0])
    return "torch", "port-closed", True, L


def s_thd(c):
    L = ["import torch.distributed as dist",
         "RuntimeError: Connection refused at /pytorch/torch/lib/THD/base/"
         "ChannelUtils.cpp:%d" % c.r.randint(100, 300)]
    return "torch", "port-closed", True, L


def s_torch_wait_clients(c):
    L = train_noise(c, 1)
    L.append("torch.distributed.DistStoreError: Timed out after 901 seconds "
             "waiting for clients. 1/%d clients joined." % c.r.choice([2, 4]))
    return "torch", "inbound-blocked", False, L


def s_gloo_read_timeout(c):
    L = train_noise(c, 3)
    L.append("RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc"
             ":589] Read error [%s]:%d: Connection timed out" % (c.ip[1],
                                                                 c.port))
    return "Gloo", "mtu-blackhole", False, L


def s_ray_redis(c):
    c.ray = c.r.choice(["0.8.7", "1.0.1", "1.4.1", "1.9.2"])
    err = c.r.choice([("111", "Connection refused", "port-closed"),
                      ("113", "No route to host", "host-unreachable")])
    L = ["2021-0%d-12 10:00:00,000\tINFO scripts.py:%d -- Using IP address "
         "%s for this node." % (c.r.randint(1, 9), c.r.randint(300, 700),
                                 c.ip[1]),
         "redis.exceptions.ConnectionError: Error %s connecting to %s:6379. "
         "%s." % (err[0], c.ip[0], err[1])]
    return "Ray", err[2], True, L


def s_ray_redis_retries(c):
    L = ["ConnectionError: Unable to connect to Redis at %s:6379 after 12 "
         "retries. Check that %s:6379 is reachable from this machine. If it "
         "is not, your firewall may be blocking this port." % (c.ip[0],
                                                               c.ip[0])]
    return "Ray", "port-filtered", False, L


def s_ray_gcs(c):
    L = ["[2023-0%d-01 10:00:00,123 W %d %d] gcs_rpc_client.h:%d: Failed to "
         "connect to GCS at address %s:6379 within 5 seconds." % (
             c.r.randint(1, 9), c.pid[1], c.pid[1], c.r.randint(100, 200),
             c.ip[0])] * 3
    return "Ray", "port-filtered", False, L


def s_ray_dead_docker(c):
    a = "172.17.0.%d" % c.r.randint(2, 9)
    L = ["2023-05-01 10:00:05,001\tWARNING worker.py:%d -- The node with "
         "node id: %032x and address: %s and node name: %s has been marked "
         "dead because the detector has missed too many heartbeats from it."
         % (c.r.randint(1000, 2100), c.r.getrandbits(128), a, a)]
    return "Ray", "container-bridge-nat", False, L


def s_ray_ip_mismatch(c):
    a = "172.17.0.%d" % c.r.randint(2, 9)
    L = ["(raylet) This node has an IP address of %s, and Ray expects this "
         "IP address to be either the GCS address or one of the Raylet "
         "addresses. Connected to GCS at %s and found raylets at %s but none "
         "of these match this node's IP %s. Are any of these actually a "
         "different IP address for the same node?" % (a, c.ip[0], c.ip[0],
                                                       a)]
    return "Ray", "container-bridge-nat", True, L


def s_ray_grpc(c):
    L = ["(pid=%d) [2023-08-01 12:00:00,000 E %d %d] core_worker.cc:%d: "
         "status UNAVAILABLE: failed to connect to all addresses; last "
         "error: UNKNOWN: ipv4:%s:%d: Failed to connect to remote host: "
         "Connection refused" % (c.pid[2], c.pid[2], c.pid[2],
                                 c.r.randint(100, 900), c.ip[1], c.port)]
    return "Ray", "port-closed", True, L


def s_ray_health(c):
    L = ["[2023-09-01 10:01:00,000 W %d %d] gcs_health_check_manager.cc:%d: "
         "Health check failed for node %x, remaining checks 0, status "
         "UNAVAILABLE: failed to connect to all addresses; last error: "
         "UNKNOWN: ipv4:%s:%d: Failed to connect to remote host: Connection "
         "timed out" % (c.pid[0], c.pid[0], c.r.randint(100, 200),
                        c.r.getrandbits(64), c.ip[2], c.port)]
    return "Ray", "inbound-blocked", False, L


def s_ray_keepalive(c):
    L = ["grpc._channel._MultiThreadedRendezvous: <_MultiThreadedRendezvous "
         "of RPC that terminated with:",
         "\tstatus = StatusCode.UNAVAILABLE",
         '\tdetails = "keepalive watchdog timeout"']
    return "Ray", "heartbeat-dropped", False, L


def s_ray_client(c):
    L = ["ray.init(\"ray://%s:10001\")" % c.ip[0],
         "ConnectionError: ray client connection timeout"]
    return "Ray", "port-filtered", False, L


def s_ompi_docker(c):
    if c.r.random() < 0.5:
        L = ["[%s][[%d,1],%d][btl_tcp_endpoint.c:%d:mca_btl_tcp_endpoint_"
             "complete_connect] connect() to 172.17.0.1 failed: Connection "
             "refused (111)" % (c.h[0], c.r.randint(1000, 60000),
                                c.r.randint(0, 7), c.r.choice([796, 803]))]
    else:
        L = ["WARNING: Open MPI failed to TCP connect to a peer MPI process.  "
             "This", "should not happen.", "",
             "Your Open MPI job may now hang or fail.", "",
             "  Local host: %s" % c.h[0], "  PID:        %d" % c.pid[0],
             "  Message:    connect() to 172.17.0.1:%d failed" %
             c.r.randint(1024, 1100),
             "  Error:      Connection refused (111)"]
    return "Open MPI", "mpi-btl-iface", True, L


def s_ompi_noroute(c):
    L = ["[%s][[%d,1],1][btl_tcp_endpoint.c:796:mca_btl_tcp_endpoint_"
         "complete_connect] connect() to %s failed: No route to host (113)" %
         (c.h[0], c.r.randint(1000, 60000), c.ip[1])]
    return "Open MPI", "host-unreachable", True, L


def s_ompi_orte(c):
    L = ["ORTE was unable to reliably start one or more daemons.",
         "This usually is caused by:", "",
         "* not finding the required libraries and/or binaries on",
         "  one or more nodes. Please check your PATH and LD_LIBRARY_PATH",
         "* an inability to create a connection back to mpirun due to a",
         "  lack of common network interfaces and/or no route found between",
         "  them. Please check network connectivity (including firewalls"]
    return "Open MPI", "inbound-blocked", False, L


def s_ompi_oob(c):
    L = ["[%s:%05d] [[%d,0],1] tcp_peer_complete_connect: connection "
         "failed: Connection refused (111) - retrying" % (
             c.h[1], c.pid[1], c.r.randint(1000, 60000))]
    return "Open MPI", "port-closed", True, L


def s_ompi_memlock(c):
    L = ["The OpenFabrics (openib) BTL failed to initialize while trying to",
         "allocate some locked memory.  This typically can indicate that the",
         "memlock limits are set too low."]
    return "Open MPI", "rdma-memlock", True, L


def s_ompi_shm(c):
    L = ["It appears as if there is not enough space for /dev/shm/vader_"
         "segment.%s.%x.0 (the shared-memory backing" % (
             c.h[0], c.r.getrandbits(16)),
         "file). It is likely that your MPI job will now either abort or "
         "experience"]
    return "Open MPI", "shm-small", True, L


def s_horovod_driver(c):
    L = ["horovod.runner.common.util.network.NoValidAddressesFound: Horovod "
         "was unable to connect to horovod driver service on any of the "
         "following addresses: {'lo': [('127.0.0.1', %d)], 'eth0': "
         "[('%s', %d)]}." % (c.port, c.ip[0], c.port)]
    return "Horovod", "inbound-blocked", False, L


def s_horovod_iface(c):
    L = ["[1,0]<stderr>:RuntimeError: Unable to find a set of common "
         "task-to-task communication interfaces: []"]
    return "Horovod", "no-usable-interface", False, L


def s_horovod_nccl(c):
    L = ["[1,%d]<stdout>:%s" % (i % 2, x) for i, x in
         enumerate(nccl_chatter(c, 1))]
    L.append("[1,1]<stderr>:" + c.np(1, lvl="WARN", msg="Net : Connect to "
                                      "%s<%d> failed : Connection refused" %
                                      (c.ip[0], c.port)))
    L.append("[1,1]<stderr>:horovod.common.exceptions.HorovodInternalError: "
             "Horovod has been shut down. This was caused by an exception on "
             "one of the ranks or an attempt to allreduce")
    return "Horovod", "port-closed", True, L


def s_ucx_refused(c):
    L = ["[%d.%06d] [%s:%d:0]           sock.c:%d  UCX  ERROR connect(fd=%d, "
         "dest_addr=%s:%d) failed: Connection refused" % (
             1700000000 + c.r.randint(0, 99999), c.r.randint(0, 999999),
             c.h[0], c.pid[0], c.r.randint(300, 500), c.r.randint(20, 90),
             c.ip[1], c.port)]
    return "UCX", "port-closed", True, L


def s_ucx_retry(c):
    L = ["[%s:%d:0:%d] ib_mlx5_log.c:%d Transport retry count exceeded on "
         "mlx5_%d:1/RoCE (synd 0x15 vend 0x81 hw_synd 0/0)" % (
             c.h[0], c.pid[0], c.pid[0], c.r.randint(140, 180),
             c.r.randint(0, 3))]
    return "UCX", "rdma-gid-index", False, L


def s_ucx_memlock(c):
    L = ["[%s:%d:0:%d]       ib_iface.c:%d UCX  ERROR ibv_create_cq(cqe=4096)"
         " failed: Cannot allocate memory" % (c.h[0], c.pid[0], c.pid[0],
                                               c.r.randint(700, 900))]
    return "UCX", "rdma-memlock", True, L


def s_jax_refused(c):
    L = ["jax.distributed.initialize(coordinator_address=\"%s:1234\", "
         "num_processes=4, process_id=2)" % c.ip[0],
         "jaxlib.xla_extension.XlaRuntimeError: UNAVAILABLE: failed to "
         "connect to all addresses; last error: UNKNOWN: ipv4:%s:1234: "
         "Failed to connect to remote host: Connection refused" % c.ip[0]]
    return "JAX", "port-closed", True, L


def s_jax_barrier(c):
    L = ["jaxlib.xla_extension.XlaRuntimeError: DEADLINE_EXCEEDED: Barrier "
         "timed out. Barrier_id: PjRT_Client_Connect. Timed out task names:",
         "/job:jax_worker/replica:0/task:%d" % c.r.randint(1, 7)]
    return "JAX", "rank-unreachable", False, L


def s_jax_heartbeat(c):
    L = ["F0101 10:00:00.000000 %d coordination_service_agent.cc:%d] "
         "Terminating process because the coordinator detected missing "
         "heartbeats. This most likely indicates that another task died"
         % (c.pid[0], c.r.randint(300, 700))]
    return "JAX", "heartbeat-dropped", False, L


def s_ssh(c):
    err, code, proof = c.r.choice([
        ("Connection timed out", "port-filtered", False),
        ("No route to host", "host-unreachable", True),
        ("Connection refused", "port-closed", True)])
    L = ["[2024-01-01 10:00:00,000] [INFO] [runner.py:%d:main] cmd = pdsh -S "
         "-f 1024 -w %s,%s" % (c.r.randint(400, 600), c.h[0], c.h[1]),
         "%s: ssh: connect to host %s port 22: %s" % (c.h[1], c.h[1], err),
         "pdsh@%s: %s: ssh exited with exit code 255" % (c.h[0], c.h[1])]
    return "pdsh", code, proof, L


def s_deepspeed_nccl(c):
    L = ["[2024-01-01 10:00:00,000] [INFO] [launch.py:%d:main] "
         "nnodes=2, num_local_procs=8, node_rank=1" % c.r.randint(100, 200)]
    L += ["%s: %s" % (c.h[1], x) for x in nccl_chatter(c, 1)]
    L.append("%s: %s" % (c.h[1], c.np(1, lvl="WARN", msg="socketStartConnect"
                                      ": Connect to %s<%d> failed : "
                                      "Connection refused" % (c.ip[0],
                                                              c.port))))
    return "DeepSpeed", "port-closed", True, L


def s_conntrack(c):
    L = ["[%d.%06d] nf_conntrack: nf_conntrack: table full, dropping packet"
         % (c.r.randint(1000, 99999), c.r.randint(0, 999999))] * 3
    L = nccl_chatter(c, 0) + L + ["[rank0]:" + watchdog(c, 0)]
    return "kernel", "conntrack-table-full", True, L


def s_neigh(c):
    L = ["[%d.%06d] neighbour: arp_cache: neighbor table overflow!" % (
        c.r.randint(1000, 99999), c.r.randint(0, 999999))] * 2
    return "kernel", "neighbour-table-overflow", True, L


def s_link_down(c):
    L = nccl_chatter(c, 0) + [
        "[%d.%06d] mlx5_core 0000:%02x:00.0 ens1f0np0: Link down" % (
            c.r.randint(1000, 99999), c.r.randint(0, 999999),
            c.r.randint(16, 200))] + ["[rank0]:" + watchdog(c, 0)]
    return "kernel", "interface-down", True, L


def s_nccl_system_bare(c):
    want = c.r.choice(["port-filtered", "nccl-default-iface-unsafe",
                       "container-bridge-nat"])
    L = traceback(c, "model = DDP(model, device_ids=[local_rank])") + [
        "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/"
        "ProcessGroupNCCL.cpp:%d, unhandled system error, NCCL version %s"
        % (c.r.randint(800, 1300), c.nccl)]
    if c.r.random() < 0.5:
        L.append("ncclSystemError: System call (e.g. socket, malloc) or "
                 "external library call failed or device error.")
    return "torch", want, False, L


def s_ray_gcs_unable(c):
    a = "172.17.0.%d" % c.r.randint(2, 9)
    L = ["2023-07-05 21:46:49,643     INFO worker.py:1429 -- Connecting to "
         "existing Ray cluster at address: %s:6379..." % a,
         "2023-07-05 21:46:54,656     ERROR utils.py:1395 -- Failed to "
         "connect to GCS. Please check `gcs_server.out` for more details.",
         "2023-07-05 21:46:54,656     WARNING utils.py:1401 -- Unable to "
         "connect to GCS (ray head) at %s:6379. Check that (1) Ray with "
         "matching version started successfully at the specified address, "
         "(2) this node can reach the specified address, and (3) there is "
         "no firewall setting preventing access." % a]
    return "Ray", "container-bridge-nat", False, L


def s_torch_uniqueid_refused(c):
    L = ["[rank1]: torch.distributed.DistBackendError: [1] is setting up "
         "NCCL communicator and retrieving ncclUniqueId from [0] via c10d "
         "key-value store by key '0', but store->get('0') got error: "
         "Connection reset by peer"]
    L += nccl_chatter(c, 0)
    L.append(c.np(0, lvl="WARN", msg="socketStartConnect: Connect to "
                  "%s<%d> failed : Connection refused" % (c.ip[1], c.port)))
    return "torch", "port-closed", True, L


def s_nccl_aborted(c):
    c.nccl = c.r.choice(["2.18.3", "2.19.3", "2.21.5"])
    L = nccl_chatter(c, 0)
    L.append(c.np(0, lvl="WARN", msg="socketStartConnect: Connect to "
                  "%s<%d> failed : Software caused connection abort" % (
                      c.ip[1], c.port)))
    L.append(c.np(0, lvl="WARN", msg="[Proxy Service 0] Failed to execute "
                  "operation Connect from rank 0, retcode 2"))
    return "NCCL", "port-closed", False, L


def s_symptoms_and_noroute(c):
    L = ["[rank0]:" + watchdog(c, 0),
         "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:598]"
         " Connection closed by peer [%s]:%d" % (c.ip[2], c.port)]
    L += nccl_chatter(c, 1)
    L.append(c.np(1, lvl="WARN", msg="socketStartConnect: Connect to "
                  "%s<%d> failed : No route to host" % (c.ip[3], c.port)))
    return "NCCL", "host-unreachable", True, L


def s_containers_but_refused(c):
    L = nccl_chatter(c, 0, addr="172.17.0.2") + [
        c.np(0, lvl="WARN", msg="socketStartConnect: Connect to %s<%d> "
             "failed : Connection refused" % (c.ip[1], c.port))]
    return "NCCL", "port-closed", True, L


def s_ompi_timeout(c):
    L = ["[%s][[%d,1],0][btl_tcp_endpoint.c:803:mca_btl_tcp_endpoint_"
         "complete_connect] connect() to %s failed: Connection timed out "
         "(110)" % (c.h[0], c.r.randint(1000, 60000), c.ip[1])]
    return "Open MPI", "port-filtered", False, L


def s_nccl_ib_flush(c):
    c.nccl = "2.10.3"
    L = nccl_chatter(c, 0, ib=True)
    L.append(c.np(0, lvl="WARN", msg="NET/IB : Got completion with error 12, "
                  "opcode 0, len 0, vendor err 129"))
    L.append(c.np(0, lvl="WARN", msg="NET/IB : Got completion with error 5, "
                  "opcode 32575, len 0, vendor err 249"))
    return "NCCL", "rdma-gid-index", False, L


def s_dup_vbox_nat(c):
    L = nccl_chatter(c, 0, addr="10.0.2.15") + nccl_chatter(c, 1,
                                                            addr="10.0.2.15")
    L.append("[rank1]:" + watchdog(c, 1))
    return "NCCL", "nat-detected", True, L


def s_ucx_docker0(c):
    L = ["mpirun --allow-run-as-root -np 4 -hostfile hostfile "
         "./build/all_reduce_perf -b 8 -e 128M -f 2 -g 4"]
    for k in range(2):
        L.append("[%d.%06d] [%s:%d :0]            sock.c:323  UCX  ERROR   "
                 "connect(fd=48, dest_addr=172.17.0.1:%d) failed: Connection "
                 "refused" % (1700554343, c.r.randint(0, 999999), c.h[0],
                              c.pid[k], c.r.randint(30000, 60000)))
    L.append("[%s:%05d] pml_ucx.c:424  Error: ucp_ep_create(proc=3) failed: "
             "Destination is unreachable" % (c.h[0], c.pid[0]))
    L.append("[%s:%05d] *** An error occurred in MPI_Allgather" % (
        c.h[0], c.pid[0]))
    return "UCX", "mpi-btl-iface", True, L


def s_ompi_oob_unable(c):
    L = ["-" * 60, "A process or daemon was unable to complete a TCP "
         "connection", "to another process:",
         "  Local host:    %s" % c.h[1], "  Remote host:   %s" % c.h[0],
         "This is usually caused by a firewall on the remote host. Please",
         "check that any firewall (e.g., iptables) has been disabled and",
         "try again.", "-" * 60]
    return "Open MPI", "port-filtered", False, L


def s_ompi_linklocal(c):
    L = ["WARNING: Open MPI failed to TCP connect to a peer MPI process.  "
         "This", "should not happen.", "",
         "  Local host: %s" % c.h[1], "  PID:        %d" % c.pid[1],
         "  Message:    connect() to 169.254.%d.%d:1026 failed" % (
             c.r.randint(1, 254), c.r.randint(1, 254)),
         "  Error:      Resource temporarily unavailable (11)"]
    return "Open MPI", "mpi-btl-iface", True, L


def s_torch_old_refused(c):
    c.torch = c.r.choice(["1.5.1", "1.7.1", "1.9.0"])
    L = traceback(c, frames=2) + ["RuntimeError: Connection refused"]
    return "torch", "port-closed", True, L


def s_nccl_old_recv(c):
    c.nccl = c.r.choice(["2.4.8", "2.7.8"])
    L = nccl_chatter(c, 0) + train_noise(c, 3)
    L.append(c.np(0, lvl="WARN", msg="Call to recv failed : Connection timed "
                  "out"))
    L.append(c.np(0, msg="include/socket.h:%d -> 2" % c.r.randint(400, 430)))
    return "NCCL", "mtu-blackhole", False, L


def s_nccl_retry224(c):
    c.nccl = c.r.choice(["2.24.3", "2.25.1", "2.26.2"])
    err, code = c.r.choice([("Connection refused", "port-closed"),
                            ("No route to host", "host-unreachable")])
    L = nccl_chatter(c, 0)
    for k in range(1, 3):
        L.append(c.np(0, msg="socketStartConnect: connect returned %s, "
                      "retrying (%d/34) after sleep for %d msec" % (
                          err, k, 100 * k)))
    L.append(c.np(0, lvl="WARN", msg="socketStartConnect: connect returned "
                  "%s, exceeded error retry count (35)" % err))
    return "NCCL", code, True, L


def s_nccl_gid0(c):
    c.nccl = c.r.choice(["2.10.3", "2.14.3", "2.18.1"])
    L = [c.np(0, msg="NCCL version %s+cuda11.8" % c.nccl),
         c.np(0, msg="NCCL_IB_GID_INDEX set by environment to 0")]
    L += nccl_chatter(c, 0, ib=True)[1:]
    err = ("NET/IB : Got completion with error 12, opcode 0, len 0, vendor "
           "err 129" if c.old() else
           "NET/IB : Got completion from peer %s<%d> with error 12, opcode "
           "0, len 0, vendor err 129" % (c.ip[1], c.port))
    L.append(c.np(0, lvl="WARN", msg=err))
    return "NCCL", "rdma-gid-index", True, L


NET = [s_nccl_refused, s_nccl_noroute, s_nccl_timeout, s_nccl_exceeded,
       s_nccl_retry228, s_nccl_nomatch, s_nccl_iface_list,
       s_nccl_dup_container, s_nccl_docker_timeout, s_nccl_commid,
       s_nccl_ib_old, s_nccl_ib_gid_ll, s_nccl_memlock, s_nccl_port_err,
       s_nccl_io_timeout, s_nccl_shm, s_nccl_bind, s_nccl_loopback,
       s_nccl_linklocal, s_nccl_hca_missing, s_ping_mtu, s_nccl_podman,
       s_nccl_closed_then_refused, s_gloo_refused, s_gloo_loopback,
       s_gloo_docker, s_gloo_ifname, s_gloo_hostbind, s_gloo_write,
       s_gloo_retries, s_torch_store_noroute, s_torch_store_timeout,
       s_torch_store_bind, s_torch_libuv, s_torch_old_inuse,
       s_torch_old_connect, s_torch_elastic_refused, s_torch_not_listening,
       s_thd, s_torch_wait_clients, s_gloo_read_timeout, s_ray_redis,
       s_ray_redis_retries, s_ray_gcs, s_ray_dead_docker, s_ray_ip_mismatch,
       s_ray_grpc, s_ray_health, s_ray_keepalive, s_ray_client,
       s_ompi_docker, s_ompi_noroute, s_ompi_orte, s_ompi_oob,
       s_ompi_memlock, s_ompi_shm, s_horovod_driver, s_horovod_iface,
       s_horovod_nccl, s_ucx_refused, s_ucx_retry, s_ucx_memlock,
       s_jax_refused, s_jax_barrier, s_jax_heartbeat, s_ssh,
       s_deepspeed_nccl, s_conntrack, s_neigh, s_link_down,
       s_nccl_system_bare, s_ray_gcs_unable, s_torch_uniqueid_refused,
       s_nccl_aborted, s_symptoms_and_noroute, s_containers_but_refused,
       s_ompi_timeout, s_nccl_ib_flush, s_dup_vbox_nat, s_ucx_docker0,
       s_ompi_oob_unable, s_ompi_linklocal, s_torch_old_refused,
       s_nccl_old_recv, s_nccl_retry224, s_nccl_gid0]
