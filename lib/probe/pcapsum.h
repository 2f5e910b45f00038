/* The capture summariser: fed captured packets as bytes (with the link
 * type libpcap reported), it counts per interface packets and bytes each
 * way, TCP SYNs and what answered them (SYN-ACK, RST, an ICMP error, or
 * nothing), ICMP errors, retransmissions, and flows. No I/O. */
#ifndef NP_PCAPSUM_H
#define NP_PCAPSUM_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#define PCAPSUM_MAX_IFACES 64
#define PCAPSUM_MAX_ICMP 16     /* distinct (proto, type, code) per iface */
#define PCAPSUM_MAX_LOCALS 256  /* local addresses that give direction */
#define PCAPSUM_FLOW_SLOTS 8192 /* flows remembered (power of two) */
#define PCAPSUM_SYN_SLOTS 4096  /* connection attempts remembered */

enum pcapsum_dir {
	PCAPSUM_DIR_UNKNOWN = -1,
	PCAPSUM_DIR_IN = 0,
	PCAPSUM_DIR_OUT = 1,
};

enum pcapsum_answer {
	PCAPSUM_SYN_PENDING = 0, /* nothing came back (yet) */
	PCAPSUM_SYN_SYNACK,
	PCAPSUM_SYN_RST,
	PCAPSUM_SYN_ICMP,
};

struct pcapsum_icmp {
	bool v6; /* ICMPv6 numbering */
	uint8_t type;
	uint8_t code;
	uint64_t count;
};

struct pcapsum_iface {
	char name[IF_NAMESIZE];
	unsigned char mac[6];
	bool have_mac;
	uint64_t packets_in, packets_out, bytes_in, bytes_out;
	uint64_t retransmissions; /* TCP segments (and SYNs) sent again */
	uint64_t undecoded;       /* packets too short or of unknown kind */
	struct pcapsum_icmp icmp[PCAPSUM_MAX_ICMP];
	int nicmp;
};

/* A 5-tuple in either family; addresses in network order. */
struct pcapsum_tuple {
	uint8_t family; /* AF_INET or AF_INET6 */
	uint8_t proto;  /* IPPROTO_TCP, _UDP, _ICMP, _ICMPV6, or other */
	uint16_t sport, dport;
	uint8_t src[16], dst[16];
};

struct pcapsum_flow {
	bool used;
	int iface;
	struct pcapsum_tuple t;
	uint64_t packets, bytes;
	uint32_t next_seq; /* TCP: the byte after the highest sent */
	bool seq_valid;
};

struct pcapsum_syn {
	bool used;
	int iface; /* where the SYN was seen */
	struct pcapsum_tuple t;
	uint32_t isn;
	enum pcapsum_answer answer;
	uint8_t icmp_type, icmp_code;
	bool icmp_v6;
	int sends;      /* 1 + retransmissions of this SYN */
	uint64_t order; /* arrival order, for stable output */
};

struct pcapsum_local {
	uint8_t family;
	uint8_t a[16];
};

struct pcapsum {
	struct pcapsum_iface ifaces[PCAPSUM_MAX_IFACES];
	int nifaces;
	struct pcapsum_local locals[PCAPSUM_MAX_LOCALS];
	int nlocals;
	struct pcapsum_flow *flows; /* PCAPSUM_FLOW_SLOTS */
	size_t nflows;
	uint64_t flows_dropped;   /* packets of flows beyond the table */
	struct pcapsum_syn *syns; /* PCAPSUM_SYN_SLOTS */
	size_t nsyns;
	uint64_t syns_dropped;
	uint64_t npackets;
};

/* Allocates the tables. Returns 0, or -1 with errno ENOMEM. */
int pcapsum_init(struct pcapsum *s);

/* Frees the tables. Safe on a zeroed struct and twice. */
void pcapsum_free(struct pcapsum *s);

/* Registers an interface (mac may be NULL). Returns its index, or -1 with
 * errno ENOSPC when PCAPSUM_MAX_IFACES are registered. */
int pcapsum_add_iface(struct pcapsum *s, const char *name,
                      const unsigned char *mac);

/* Adds an address of this host: packets from it go out, to it come in.
 * Returns 0, or -1 with errno ENOSPC or EAFNOSUPPORT. */
int pcapsum_add_local(struct pcapsum *s, int family, const void *addr);

/* Feeds one packet seen on interface iface: data holds caplen captured
 * bytes of a wirelen-byte packet of the given DLT_ link type. Returns the
 * direction counted, or -1 with errno EINVAL for a bad interface index
 * (a packet it cannot decode is counted as undecoded, not an error). */
int pcapsum_packet(struct pcapsum *s, int iface, int linktype,
                   const uint8_t *data, size_t caplen, size_t wirelen);

/* SYN counts of one interface: answered each way and unanswered. */
struct pcapsum_syncount {
	uint64_t synack, rst, icmp, unanswered;
};
void pcapsum_syn_counts(const struct pcapsum *s, int iface,
                        struct pcapsum_syncount *c);

/* "syn-ack", "rst", "icmp type 3 code 13" (or "icmp6 type 1 code 1"),
 * "none": what answered one SYN, into buf. Returns buf. */
const char *pcapsum_answer_text(const struct pcapsum_syn *syn, char *buf,
                                size_t len);

/* The `interfaces` array (new reference, NULL on no memory). */
json_t *pcapsum_ifaces_json(const struct pcapsum *s);

/* The `flows` array: the top `top` flows by bytes (new reference). */
json_t *pcapsum_flows_json(const struct pcapsum *s, size_t top);

/* The `syns` array: each connection attempt and its answer, in arrival
 * order, at most `max` (new reference). */
json_t *pcapsum_syns_json(const struct pcapsum *s, size_t max);

/* The flows sorted by bytes, largest first, into out (at most max).
 * Returns the count. */
size_t pcapsum_top_flows(const struct pcapsum *s,
                         const struct pcapsum_flow **out, size_t max);

/* The SYNs in arrival order into out (at most max). Returns the count. */
size_t pcapsum_syns_ordered(const struct pcapsum *s,
                            const struct pcapsum_syn **out, size_t max);

/* "tcp", "udp", "icmp", "icmp6", or the number as text in buf. */
const char *pcapsum_proto_name(uint8_t proto, char *buf, size_t len);

#endif
