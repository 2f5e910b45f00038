/* ncclcheck's view of the hardware: what each rank's GPU is attached by
 * (NVLink, PCIe, the NIC NCCL uses across nodes), what it measured alone
 * before the collectives (device copy, host-to-device, device-to-host),
 * and the pure decisions over them: the bus bandwidth bound the topology
 * allows, each result's share of it, the efficiency gate, and which rank
 * is the slow one. Plain C: the CPU tests build it without CUDA. */
#ifndef NC_HW_H
#define NC_HW_H

#include <stdbool.h>
#include <stddef.h>

#include "doc/finding.h"
#include "nc.h"

#define NC_HW_MAX_LINKS 18

/* One rank's GPU. Zero means "not known" in every number. */
struct nc_gpuinfo {
	int rank;
	char host[64];
	char name[64];
	int sms;                   /* multiprocessors */
	int pci_domain, pci_bus, pci_dev;
	int dev;                   /* CUDA device number in its process */
	bool has_index;            /* smi_index is known (NVML) */
	int smi_index;             /* nvidia-smi's index of the GPU */
	int minor;                 /* its /dev/nvidiaN */
	char uuid[48];             /* "GPU-..." as CUDA_VISIBLE_DEVICES takes */
	bool nvml;                 /* NVML answered */
	int pcie_gen, pcie_width;  /* current, read while a copy ran */
	int pcie_max_gen, pcie_max_width;
	int nvlinks;               /* active links */
	int nvlink_version;        /* NVML's value: 6 is NVLink 4.0 */
	/* the PCI address at the far end of each active link */
	int link_domain[NC_HW_MAX_LINKS], link_bus[NC_HW_MAX_LINKS],
	    link_dev[NC_HW_MAX_LINKS];
	double nic_gbits;          /* NICs NCCL can use across nodes, Gb/s */
	/* measured, GB/s: a copy kernel on the SMs (bytes copied per
	 * second), host-to-device and device-to-host copies */
	double d2d_gbps, h2d_gbps, d2h_gbps;
};

/* NVLink's major version from NVML's version value (nvmlNvlinkVersion_t:
 * 6 is NVLink 4.0); 0 when unknown. */
int nc_nvlink_major(int nvml_version);
/* Unidirectional bandwidth of one NVLink link, GB/s, by NVML's version
 * value (NVLink 1: 20, 2-4: 25, 5: 50); 0 when unknown. */
double nc_nvlink_link_gbps(int nvml_version);
/* Unidirectional PCIe bandwidth of a link, GB/s after the line coding
 * (Gen1-2 8b/10b, Gen3 on 128b/130b); 0 when unknown. */
double nc_pcie_gbps(int gen, int width);

/* The bound on bus bandwidth the topology allows, GB/s, and how it was
 * found, for every collective alike (nccl-tests' bus bandwidth is the
 * per-rank link rate, whichever the collective): within a host the
 * slowest rank's NVLink links that end at another GPU of the run (or at
 * an NVSwitch), or its PCIe link when it has none; across hosts also the
 * slowest host's NIC bandwidth. 0 and a reason in `how` when it cannot be
 * told. Pure. */
double nc_hw_bound(const struct nc_gpuinfo *g, int n, char *how,
		   size_t howlen);

/* The efficiency rule: the peak busbw of a collective as a share of the
 * bound. The default (min_pct <= 0) gates only where the bound is known
 * and the sweep reached NC_EFF_DEFAULT_BYTES, at NC_EFF_DEFAULT_PCT;
 * an explicit --min-efficiency gates always and fails when the bound is
 * unknown. Returns -1 when no check applies, else 1 passed / 0 failed,
 * with the detail. Pure. */
#define NC_EFF_DEFAULT_PCT 45.0
#define NC_EFF_DEFAULT_BYTES (128ULL << 20)
int nc_eff_decide(double min_pct, double bound, double peak,
		  unsigned long long peak_bytes, unsigned long long max_bytes,
		  char *detail, size_t len);

/* Slow ranks among n values of one measure (higher is better): rank i is
 * slow when its value is below (1 - tol) times the median of the others
 * of its group (group[i]: the GPU model; NULL: one group). Alone in its
 * group, nobody is. Writes slow[i]; returns how many. Pure. */
#define NC_SLOW_TOL 0.25
int nc_slow_ranks(const double *v, const int *group, int n, double tol,
		  bool *slow);

/* The findings the self-test implies, over every rank's info: gpu-slow
 * for a device-copy outlier (its host-link numbers said with it), and
 * pcie-link-degraded for a PCIe link below its maximum, or host copies
 * that lag in both directions on a GPU whose device copy is normal. Adds them to findings
 * through `add`. Returns the number added. Pure. */
struct nc_run;
int nc_gpu_findings(const struct nc_gpuinfo *g, int n, double tol,
		    void (*add)(void *arg, enum finding_code code, const char *text),
		    void *arg);

/* --pairs: round r (0 .. rounds-1) of the round-robin schedule of n ranks
 * (the circle method): every rank meets every other exactly once in n-1
 * rounds (n rounds for odd n, where one rank sits out each round).
 * partner[i] gets rank i's partner, or -1 for a bye. Returns the number
 * of rounds. Pure. */
int nc_pair_rounds(int n);
void nc_pair_round(int n, int r, int *partner);

/* --pairs' schedule: first every pair within a host, one pair per host
 * at a time (each alone on its host, as nccl-tests' sendrecv_perf times
 * a pair: two pairs of one host at once may share its NVSwitch or PCIe
 * switches), the hosts side by side; then the pairs across
 * hosts in the rounds of the circle schedule (nc_pair_round), the pairs
 * within a host left out of them and rounds left empty dropped. host[i]:
 * rank i's host id (the first rank on that host). *out gets rounds x n
 * partners (-1: sits out), malloc'ed. Returns the number of rounds, -1 on
 * no memory. Pure. */
int nc_pairs_schedule(int n, const int *host, int **out);

/* The slow pairs of an n x n matrix of pair bandwidths (GB/s, bw[i*n+j]
 * for i<j, the rest ignored): a pair is slow below (1 - tol) times the
 * median of the pairs of its class, within one host or across hosts
 * (host[i]: rank i's host id; NULL: one class), that share no rank with
 * it (up to NC_PAIR_DISJOINT_MAX pairs in the class; beyond, or when no
 * such pair exists, the other pairs of the class), so that a slow GPU's
 * own pairs do not pull the reference down; a pair alone in its class is
 * compared with nothing and never slow. Then the rank common to
 * the slow pairs: one that sits in every slow pair, or in at least half
 * of them and more than any other (-1 when none). Fills slow[i*n+j];
 * returns the number of slow pairs. Pure. */
#define NC_PAIR_DISJOINT_MAX 2048
int nc_pairs_decide(const double *bw, const int *host, int n, double tol,
		    bool *slow, int *common);
/* The reference nc_pairs_decide holds pair (i, j) against, GB/s; 0 when
 * the pair is alone in its class. Pure. */
double nc_pairs_reference(const double *bw, const int *host, int n, int i,
			  int j);

/* --pairs' judgement. Every pair is first measured in the rounds of
 * disjoint pairs (the screening), then every pair the screening calls
 * slow (nc_pairs_decide, at most NC_PAIR_CONFIRM_MAX) is measured again
 * alone: alone[i*n+j] > 0 for those. A pair stands as slow only when its
 * figure alone is still slow against the median of its class with the
 * figures alone put in (what does not reproduce is noise). Then what is
 * slow: a host whose ranks are slow against every peer on other hosts
 * (or whose own pairs are all slow while another host's are not), with
 * two hosts or more, is blamed as a node (node[i] for its ranks); then,
 * one at a time, a rank in more than half of its remaining pairs as slow
 * pairs is blamed as a GPU (gpu[i]), its pairs taken out; the slow pairs
 * left are links between two ranks. slow, gpu and node are the caller's
 * (n*n, n, n). Returns the number of slow pairs that stand. Pure. */
#define NC_PAIR_CONFIRM_MAX 64
int nc_pairs_judge(const double *screen, const double *alone, const int *host,
		   int n, double tol, bool *slow, bool *gpu, bool *node);

/* Compresses host names into Slurm's hostlist form ("gpu[07,12]",
 * "gpu[01-03],cpu5"): a common prefix with a numeric suffix of the same
 * width. Returns 0, or -1 when buf is too small. Pure. */
int nc_hostlist(const char *const *hosts, int n, char *buf, size_t len);

#endif
