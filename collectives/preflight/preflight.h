/* Pre-flight before NCCL starts: what each rank reports (host, GPU,
 * versions, the interface and address NCCL will use, /dev/shm), the TCP
 * reachability test between ranks, and the pure deciders that turn both
 * into findings. No CUDA, no NCCL. */
#ifndef NC_PREFLIGHT_H
#define NC_PREFLIGHT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct iface_list;

struct nc_rankinfo {
	int rank;             /* NCCL rank */
	int proc;             /* process (side-channel) rank */
	char host[64];
	char gpu[96];
	char pci[32];
	int cuda_runtime;     /* 13000 */
	int driver;           /* CUDA driver API version, 13000 */
	char driver_version[32]; /* the kernel driver's, "580.159.04" */
	int nccl_version;     /* 22803 */
	char iface[32];       /* what NCCL will use, "" none */
	char address[64];
	int port;             /* pre-flight listener */
	unsigned long long shm_bytes;
	char rule[32];        /* which NCCL rule chose the interface */
	char ib_env[96];      /* nc_ib_env_format: the NCCL_IB_* settings */
};

#define NC_RANKINFO_WIRE 508

/* Packs and unpacks one rank's info into NC_RANKINFO_WIRE bytes (network
 * order, fixed fields), the same on every host. */
void nc_rankinfo_pack(const struct nc_rankinfo *ri, unsigned char *b);
void nc_rankinfo_unpack(const unsigned char *b, struct nc_rankinfo *ri);

/* One reachability test from process `from` to process `to`. */
struct nc_pair {
	int from, to;
	bool ok;
	char error[48];   /* "timeout", "refused", "unreachable" ... */
};

#define NC_PAIR_WIRE 60
#define NC_PREFLIGHT_ALL_PAIRS 32 /* up to this many processes */
#define NC_PREFLIGHT_MAX_TARGETS 32

/* Which processes `me` tests out of n: every other one up to
 * NC_PREFLIGHT_ALL_PAIRS processes, else me+1, me+2, me+4 ... (mod n), so
 * every process is tested by about log2(n) others and the total stays
 * O(n log n). Returns the count written to out. */
int nc_preflight_targets(int me, int n, int *out, int max);

void nc_pair_pack(const struct nc_pair *p, unsigned char *b);
void nc_pair_unpack(const unsigned char *b, struct nc_pair *p);

/* Connects to every target (address:port from infos, by process) in
 * parallel, each bounded by timeout_us, accepting (and closing) what
 * arrives on listen_fd meanwhile. Fills out[] in target order. */
int nc_preflight_probe(int me, const struct nc_rankinfo *byproc,
		       const int *targets, int nt, int listen_fd,
		       long long timeout_us, struct nc_pair *out);

/* A finding the deciders produce (code from the catalogue). */
struct nc_pf_finding {
	char code[32];
	int severity;     /* enum severity; -1: the catalogue's */
	char summary[512];
};

#define NC_PF_MAX 32

/* Version mismatches across ranks: NCCL's is a fault (NCCL refuses to
 * connect ranks of different versions); the CUDA runtime's and the CUDA
 * driver API's are warnings (NCCL accepts them). byproc has one entry
 * per process. Returns findings added. */
int nc_decide_versions(const struct nc_rankinfo *byproc, int nprocs,
		       struct nc_pf_finding *out, int max);

/* Unreachable ranks from the pair results: for each target that some
 * tester could not reach, "rank 3 on gpu-b advertises 172.17.0.2:41234
 * (eth0); connects from ranks 0-2: timed out". Returns findings added. */
int nc_decide_pairs(const struct nc_rankinfo *byproc, int nprocs,
		    const struct nc_pair *pairs, int npairs,
		    struct nc_pf_finding *out, int max);

/* Interface checks: a rank with no interface NCCL could use. */
int nc_decide_ifaces(const struct nc_rankinfo *byproc, int nprocs,
		     const char *socket_ifname, struct nc_pf_finding *out,
		     int max);

/* One process's IB settings as one comparable string:
 * "HCA=v;GID=v;DISABLE=v;NET=v", "-" for an unset variable
 * (pf_ibenv.c). */
void nc_ib_env_format(const char *hca, const char *gid, const char *disable,
		      const char *net, char *buf, size_t len);

/* rdma-env-mismatch: ranks' NCCL_IB_DISABLE or NCCL_NET differ (a fault:
 * some would use NET/IB and others NET/Socket), or NCCL_IB_HCA or
 * NCCL_IB_GID_INDEX differ (info: right only where the nodes' devices
 * differ). Returns findings added (pf_ibenv.c). */
int nc_decide_ib_env(const struct nc_rankinfo *byproc, int nprocs,
		     struct nc_pf_finding *out, int max);

/* Bytes of a packed list of n findings (nc_pf_findings_pack). */
#define NC_PF_FINDING_WIRE (32 + 4 + 512)
size_t nc_pf_findings_size(int n);
/* Packs n findings: a u32 count, then each. b holds
 * nc_pf_findings_size(n) bytes. */
void nc_pf_findings_pack(const struct nc_pf_finding *f, int n,
			 unsigned char *b);
/* Unpacks at most max findings from len bytes. Returns the count, or -1
 * when the bytes are not such a list. */
int nc_pf_findings_unpack(const unsigned char *b, size_t len,
			  struct nc_pf_finding *f, int max);

/* The kernel driver's version from /proc/driver/nvidia/version under
 * the sysroot ("580.159.04"). Returns 0, or -1 (buf empty) when the file
 * is missing or holds no version. */
struct sysroot;
int nc_driver_version(const struct sysroot *sr, char *buf, size_t len);

/* Fills an interface list from getifaddrs (names, flags, addresses), the
 * input nccl_select needs. Returns 0, or -1 with errno. */
int nc_ifaddrs_list(struct iface_list *l);

#endif
