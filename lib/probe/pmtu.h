/* Path MTU discovery against a netprobe responder: the search over probe
 * sizes (pure, driven through a transport of function pointers so tests
 * simulate links) and the UDP transport that sends
 * PROTO_MTU_PROBE datagrams with don't-fragment set. */
#ifndef NP_PMTU_H
#define NP_PMTU_H

#include <netinet/in.h>
#include <stdbool.h>
#include <sys/socket.h>

#include <jansson.h>

#include "doc/doc.h"

#define PMTU_MAX_PROBES 64
#define PMTU_MIN_V4 576u  /* RFC 791: every IPv4 host accepts this */
#define PMTU_MIN_V6 1280u /* RFC 8200: the IPv6 minimum link MTU */
#define PMTU_IPV4_HDR 20u
#define PMTU_IPV6_HDR 40u
#define PMTU_UDP_HDR 8u

/* What one probe came to. */
enum pmtu_outcome {
	PMTU_ERR = -1,   /* the transport failed (errno kept) */
	PMTU_OK = 0,     /* the responder answered this size */
	PMTU_LOST = 1,   /* no answer within the timeout */
	PMTU_TOOBIG = 2, /* ICMP fragmentation-needed (or packet too big),
	                  * or the local kernel refused the size */
};

struct pmtu_answer {
	unsigned bytes;      /* UDP payload the responder received */
	unsigned peer_ifmtu; /* MTU of its receiving interface, 0 unknown */
	unsigned next_mtu;   /* PMTU_TOOBIG: next-hop MTU, 0 unknown */
	bool local;          /* PMTU_TOOBIG raised by our own kernel */
	long long rtt_us;    /* PMTU_OK: round trip */
};

/* The link the search talks through. probe sends one datagram whose IP
 * packet is `size` bytes and waits at most timeout_us for its answer,
 * returning an enum pmtu_outcome. now_us is a monotonic clock. */
struct pmtu_ops {
	int (*probe)(void *ctx, unsigned size, long long timeout_us,
	             struct pmtu_answer *ans);
	long long (*now_us)(void *ctx);
	void *ctx;
};

struct pmtu_config {
	unsigned min_size; /* IP packet sizes searched: min..max */
	unsigned max_size;
	int tries;                  /* attempts per size before "lost" */
	long long first_timeout_us; /* per attempt, before any answer */
	long long probe_timeout_us; /* per attempt once an answer came;
	                             * shortened from the measured RTT */
	long long deadline_us;      /* the whole search */
};

struct pmtu_probe_rec {
	unsigned size;
	bool ok;
};

struct pmtu_result {
	bool responded;         /* at least one probe was answered */
	unsigned largest_ok;    /* largest IP size answered, 0 none */
	unsigned smallest_lost; /* smallest size that failed, 0 none */
	bool lost_silently;     /* it failed by loss, not by an ICMP error */
	unsigned peer_ifmtu;    /* from MTU_REPLY, 0 unknown */
	bool frag_needed;       /* an ICMP fragmentation-needed came back */
	unsigned frag_mtu;      /* the next-hop MTU it carried, 0 unknown */
	bool confirmed;         /* largest_ok answered again at the end */
	bool complete;          /* the search closed the gap (no deadline) */
	bool rechecked;         /* a silent loss answered when given the first
				 * answer's patience: the search ran again at
				 * that patience (a loaded host) */
	bool loss_rechecked;    /* the smallest lost size stayed silent when
				 * given that patience too */
	int error;              /* errno of a transport failure, 0 none */
	long long elapsed_us;
	long long rtt_us; /* smallest RTT seen, -1 unknown */
	struct pmtu_probe_rec probes[PMTU_MAX_PROBES]; /* one per size */
	int nprobes;
};

/* Fills the defaults: 576 (IPv4) or 1280 (IPv6) up to ifmtu, 3 tries,
 * 500 ms for the first answers then 4 RTT (50-250 ms), 5 s overall. */
void pmtu_config_default(struct pmtu_config *c, int family, unsigned ifmtu);

/* Searches the largest size that crosses: the smallest size first (is the
 * responder there?), the largest next (usually it crosses), then a binary
 * search between, guided by the MTU an ICMP error names, and a last
 * confirmation of the answer. A silent loss is then tried again with the
 * first answer's patience; answered, the search runs once more at that
 * patience (a late answer is no black hole). Bounded by cfg->deadline_us
 * per search (two at most), one recheck and PMTU_MAX_PROBES sizes. Returns 0 (read r->responded), or -1 with errno
 * when the configuration is invalid or the transport failed. */
int pmtu_search(const struct pmtu_config *cfg, const struct pmtu_ops *ops,
                struct pmtu_result *r);

/* The `pmtu` object of the path document (new reference, NULL on no
 * memory). kernel_pmtu and route_mtu are 0 when unknown. */
json_t *pmtu_to_json(const struct pmtu_result *r, unsigned if_mtu,
                     unsigned kernel_pmtu, unsigned route_mtu);

/* The sizes tried, in order, as "576 ok, 1500 lost, 1038 ok", into buf
 * (bounded by len): the evidence of a finding and the text output say
 * it alike. */
void pmtu_probes_text(const struct pmtu_result *r, char *buf, size_t len);

/* ---- the UDP transport ---- */

struct pmtu_udp {
	int fd;
	int family;
	unsigned seq;
	unsigned char *buf; /* PMTU_UDP_BUF bytes for frames both ways */
};

#define PMTU_UDP_BUF 65536

/* Opens a UDP socket connected to addr with IP(V6)_MTU_DISCOVER set to
 * PROBE (don't fragment, ignore the cached path MTU) and RECVERR on.
 * Returns 0, or -1 with errno. */
int pmtu_udp_open(struct pmtu_udp *u, const struct sockaddr *addr,
                  socklen_t len);

/* Closes the socket. Safe on a closed one (fd -1). */
void pmtu_udp_close(struct pmtu_udp *u);

/* The transport for pmtu_search over u (ctx is the struct pmtu_udp). */
void pmtu_udp_ops(struct pmtu_udp *u, struct pmtu_ops *ops);

/* The kernel's cached path MTU toward the connected peer (IP_MTU or
 * IPV6_MTU). Returns it, or 0 when unknown. */
unsigned pmtu_udp_kernel_pmtu(const struct pmtu_udp *u);

/* Builds a PROTO_MTU_PROBE frame for a UDP payload of len bytes into buf
 * (len >= PROTO_HDR_LEN + 4). Returns 0, or -1 with errno EINVAL. */
int pmtu_probe_encode(unsigned char *buf, size_t len, unsigned seq);

/* Parses a PROTO_MTU_REPLY datagram (ifmtu 0: the responder did not
 * know it). Returns 0, or -1 with errno EINVAL. */
int pmtu_reply_decode(const unsigned char *buf, size_t len, unsigned *seq,
                      unsigned *bytes, unsigned *ifmtu);

#endif
