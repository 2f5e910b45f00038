/* Reads NCCL's own debug output (NCCL_DEBUG=INFO sent to a file) to learn
 * which transports and interfaces it really used and whether an algorithm
 * that lifts busbw over the wire rate (NVLS, CollNet) was connected. The
 * parser is a pure function of one line. No CUDA, no NCCL. */
#ifndef NC_NCCLLOG_H
#define NC_NCCLLOG_H

#include <stdbool.h>
#include <stddef.h>

#define NC_MAX_TRANSPORTS 16

struct nc_transport {
	char kind[24];  /* "P2P", "P2P/NVLink", "SHM", "NET/Socket", "NET/IB" */
	char iface[32]; /* for NET: the interface or device; "" otherwise */
};

struct nc_nccllog {
	struct nc_transport t[NC_MAX_TRANSPORTS];
	int nt;
	char socket_ifaces[4][32]; /* NET/Socket : Using [0]eth0:... */
	int nsocket;
	char ib_devs[8][32];       /* NET/IB : Using [0]mlx5_0:1/IB: "mlx5_0:1/IB" */
	int nib;
	bool ib_none;   /* "NET/IB : No device found." (fell back to sockets) */
	/* GPUDirect RDMA as NCCL reported it: "GPU Direct RDMA Enabled|Disabled
	 * for ..." (graph/paths.cc, graph/topo.cc) or ".../GDRDMA" channels */
	bool gdr_enabled, gdr_disabled;
	char bootstrap_iface[32];
	bool nvlink;   /* a GRAPH line said type NVL */
	bool nvls;     /* NVLS connected */
	bool collnet;  /* CollNet connected */
	bool tree;     /* trees connected */
	bool used_p2p, used_shm, used_socket, used_ib;
	int lines;
};

/* Takes one line of NCCL's debug output. */
void nc_nccllog_line(struct nc_nccllog *lg, const char *line);

/* Turns what the lines said into the transport list (kind, iface). */
void nc_nccllog_finish(struct nc_nccllog *lg);

/* Reads a whole debug file. Returns 0, or -1 with errno when it cannot be
 * opened. */
int nc_nccllog_file(struct nc_nccllog *lg, const char *path);

/* Bytes of one process's transports in the exchange between processes. */
#define NC_NCCLLOG_BLOB 1024

/* Writes what lg says (transports, NVLS, CollNet, tree) into blob as
 * text for the exchange; len is at least 64 (else blob is left alone). */
void nc_nccllog_pack(const struct nc_nccllog *lg, char *blob, size_t len);

/* Adds one process's packed blob to m: transports not listed yet, and the
 * algorithms any process connected. Cuts blob (len bytes) in place. */
void nc_nccllog_merge(struct nc_nccllog *m, char *blob, size_t len);

#endif
