/* netprobe capture's parts, shared by its files only: the options, the
 * open handles and the summary they feed. */
#ifndef NETPROBE_CAPTURE_H
#define NETPROBE_CAPTURE_H

#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include <pcap/pcap.h>

#include "base/privdrop.h"
#include "base/outfile.h"
#include "doc/cmdrun.h"
#include "doc/doc.h"
#include "probe/pcapsum.h"

#define CAP_MAX_HANDLES PCAPSUM_MAX_IFACES
#define CAP_MAX_PORTS 64
#define CAP_MAX_PEER_ADDRS 4
#define CAP_FILTER_MAX 4096
#define CAP_SNAPLEN_SUMMARY 512 /* enough for headers and ICMP quotes */
#define CAP_SNAPLEN_WRITE 65535
#define CAP_DISPATCH 256 /* packets per handle per turn */
#define CAP_POLL_MS 100
#define CAP_RING_TOTAL (32 << 20) /* kernel capture buffers, all handles */
#define CAP_RING_MAX (4 << 20)
#define CAP_RING_MIN (256 << 10)
#define CAP_TOP_FLOWS 50
#define CAP_MAX_SYNS 256
#define CAP_READ_SAMPLE 10000 /* frames read to find the host's MAC */
#define SLL2_HDR 20
#define ARPHRD_ETHER_ 1
#define ARPHRD_NONE_ 0xfffe

struct cap_opts {
	const char *peer;
	char ports[CAP_MAX_PORTS][16]; /* "22" or "1000-2000" */
	int nports;
	const char *iface;
	bool all;
	long long duration_us;
	const char *filter; /* the user's */
	const char *write;
	const char *read; /* -r: a pcap or pcapng file instead of a capture */
	unsigned long long max_bytes;
	bool passive;
	bool duration_set;
	char expr[CAP_FILTER_MAX]; /* the operands joined, when given */
};

struct cap_handle {
	pcap_t *p;
	int sum_index; /* interface index inside the summary */
	int linktype;
	unsigned ifindex;
	int fd;
};

struct cap_state {
	struct cap_handle h[CAP_MAX_HANDLES];
	int nh;
	struct pcapsum sum;
	pcap_t *dead; /* the writer's link type */
	pcap_dumper_t *dump;
	struct outfile out; /* -w: where the dump's stream lands */
	int dump_linktype;
	unsigned long long dump_bytes;
	bool dump_truncated;
	unsigned char *conv; /* one converted packet */
	int cur;             /* the handle being dispatched */
	unsigned long long max_bytes;
	char filter[CAP_FILTER_MAX];
	bool have_filter;
	bool dropped;
	struct privdrop_target target;
	unsigned long long kernel_drops;
	int bufsize; /* kernel ring per handle */
};

/* capture_opts.c */
int cap_parse_args(struct cmd_run *r, int argc, char **argv,
                   struct cap_opts *o);
int cap_resolve_peer(const char *host, char out[][INET6_ADDRSTRLEN],
                     const char **why);
int cap_build_filter(const struct cap_opts *o, char addrs[][INET6_ADDRSTRLEN],
                     int naddrs, char *buf, size_t len);

/* capture_out.c */
void cap_emit_json(const struct cap_state *st, const struct cap_opts *o,
                   long long ran_us, struct doc *d);
void cap_emit_text(const struct cap_state *st, const struct cap_opts *o,
                   long long ran_us);

/* capture_dump.c */
int cap_open_dump(struct cap_state *st, const char *path, struct cmd_run *run);
void cap_dump_packet(struct cap_state *st, const struct cap_handle *h,
                     const struct pcap_pkthdr *hdr, const unsigned char *data,
                     int dir);

/* capture_live.c */
void cap_learn_locals(struct cap_state *st, pcap_if_t *devs);
int cap_open_handles(struct cap_state *st, const struct cap_opts *o,
                     pcap_if_t *devs, struct cmd_run *run);
int cap_set_filters(struct cap_state *st, struct cmd_run *run);
int cap_check_filter(const char *filter, struct cmd_run *run);
long long cap_run_loop(struct cap_state *st, long long duration_us,
                       const volatile sig_atomic_t *stop, struct cmd_run *run);
int cap_drop_privileges(struct cap_state *st, struct cmd_run *run);

/* capture_file.c */
int cap_read_file(struct cap_state *st, const struct cap_opts *o,
                  const volatile sig_atomic_t *stop, struct cmd_run *run,
                  long long *span_us);

#endif
