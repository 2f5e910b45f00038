/* The hop probe (issue 48): TCP connects toward one peer and port with a
 * growing TTL (IPv4 IP_TTL, IPv6 IPV6_UNICAST_HOPS), so the hop where the
 * port's answer comes is found without a raw socket: each router before
 * it answers the SYN with ICMP time-exceeded, which IP_RECVERR /
 * IPV6_RECVERR queue on the socket with the router's address
 * (SO_EE_OFFENDER). A reset or a refusal that comes at a TTL smaller than
 * the path's length to the peer (the TTL at which the peer's own
 * responder port answers) comes from a box on the path, not from the
 * peer; an ICMP unreachable or prohibited names its sender; silence past
 * the last hop that answered says "dropped after hop k". The mesh runs
 * it for a few failed pairs that cross a router; the report names the
 * hop from it (decide_elim.c). Unprivileged, either family. */
#ifndef NP_HOPPROBE_H
#define NP_HOPPROBE_H

#include <netinet/in.h>
#include <stdint.h>
#include <sys/socket.h>

/* the longest walk: a cluster's paths cross few routers */
#define HOP_MAX_TTL 8
/* one TTL's bound: an ICMP answer comes in a round trip; silence waits
 * this long, and is tried once more (routers rate-limit ICMP errors) */
#define HOP_STEP_US 1000000LL
/* silent TTLs in a row that end a walk */
#define HOP_SILENT_STOP 2

/* What came back for one TTL. */
enum hop_answer {
	HOP_NONE = 0, /* not tried */
	HOP_SILENT,   /* nothing by the step's bound */
	HOP_TIMEX,    /* ICMP time-exceeded from a router (who: from) */
	HOP_UNREACH,  /* ICMP unreachable or prohibited (who: from) */
	HOP_RESET,    /* a reset (a refusal without an ICMP error) */
	HOP_OPEN,     /* the handshake completed */
};

/* One TTL's result. */
struct hop_step {
	enum hop_answer answer;
	char from[INET6_ADDRSTRLEN]; /* the ICMP error's sender, "" none */
	int icmp_type, icmp_code;    /* the ICMP error's, -1 none */
};

/* One walk toward a port: steps[t - 1] for TTL t. */
struct hop_walk {
	uint16_t port;
	int nsteps; /* TTLs tried */
	struct hop_step steps[HOP_MAX_TTL];
	int answer_ttl;                     /* the first TTL whose answer is not
	                                     * time-exceeded nor silence, 0 none */
	enum hop_answer answer;             /* that answer; HOP_SILENT when the
	                                     * walk ended in silence, HOP_NONE
	                                     * none */
	char answer_from[INET6_ADDRSTRLEN]; /* an ICMP answer's sender */
	int last_hop_ttl;                   /* the last TTL that got
	                                     * time-exceeded before the answer (or
	                                     * before silence), 0 none */
	char last_hop[INET6_ADDRSTRLEN];    /* its sender, "" none */
};

/* The probe toward one peer: the failed port's walk and the walk to a
 * port that passed (the peer's responder), whose answer TTL is the
 * path's length. */
struct hop_result {
	char addr[INET6_ADDRSTRLEN + 20];
	struct hop_walk port, control;
	/* the verdict: */
	int path_len;        /* the control walk's answer TTL, 0 unknown */
	int box_before_peer; /* 1: the failed port's answer came from a box
	                      * before the peer (an ICMP error from another
	                      * address, or a reset at a TTL below path_len);
	                      * 0: at the peer's own distance or address; -1:
	                      * cannot tell */
	char hop[INET6_ADDRSTRLEN]; /* the box's hop: an ICMP answer's sender,
	                             * else the last hop that answered
	                             * time-exceeded before the answer or the
	                             * silence; "" none */
	char err[160];
};

/* Parses one message read from a socket's error queue (MSG_ERRQUEUE):
 * its IP_RECVERR / IPV6_RECVERR control message into st (HOP_TIMEX for
 * time-exceeded, HOP_UNREACH for destination unreachable, the sender
 * from SO_EE_OFFENDER). Returns 1 when it held such an ICMP error, 0
 * when it held none (a local error, no control message). Pure: the unit
 * test builds msg in memory. */
int hop_parse_errqueue(const struct msghdr *msg, struct hop_step *st);

/* Walks TTL 1..max_ttl (at most HOP_MAX_TTL) toward addr (numeric,
 * either family, an IPv6 zone allowed) on port, and on control (0: no
 * control walk), each TTL bounded by HOP_STEP_US (a silent one tried
 * twice), none started past
 * deadline_us (monoclock); a walk ends at the first answer that is not
 * time-exceeded, or after HOP_SILENT_STOP silent TTLs. Fills r with the
 * verdict. Returns 0, or -1 with errno (EINVAL for an address that does
 * not parse) and r->err. */
int hop_probe(const char *addr, uint16_t port, uint16_t control, int max_ttl,
              long long deadline_us, struct hop_result *r);

/* The verdict of r's two walks toward addr (numeric, no zone) into
 * r->path_len, r->box_before_peer and r->hop, by the rules above. Pure:
 * hop_probe calls it, the unit test feeds it walks built in memory. */
void hop_decide(struct hop_result *r, const char *addr);

/* The name of an answer ("time-exceeded", "reset", ...). */
const char *hop_answer_name(enum hop_answer a);

#endif
