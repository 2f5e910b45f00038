/* netprobe heartbeat's parts, shared by its files only: the options and
 * the state of one run. */
#ifndef NETPROBE_HEARTBEAT_H
#define NETPROBE_HEARTBEAT_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "doc/cmdrun.h"
#include "doc/doc.h"
#include "probe/hb.h"
#include "wire/client.h"

#define HB_UDP_RING 4096
#define HB_DRAIN_US 5000000LL      /* past the last echo, for answers */
#define HB_SILENCE_POLL_US 20000LL /* TCP_INFO while silent */

struct hb_opts {
	char host[256];
	unsigned port;
	long long interval_us, duration_us, timeout_us, count;
	struct hb_gate gate;
	bool udp, timeout_set, peer_probe;
	bool progress; /* a line on a terminal: no --json, no -q */
	unsigned udp_port; /* 0: the responder's own port */
	const char *token_file;
};

struct udp_slot {
	uint32_t seq;
	long long sent_us;
	bool pending;
};

struct hb_run {
	struct np_client c;
	struct np_client ctl; /* keeps a UDP listener open */
	long long refresh_us; /* when to ask for it again; 0 none */
	bool connected;
	long long open_us, last_us;  /* connection opened, last answer */
	long long outstanding;       /* TCP echoes awaiting an answer */
	long long retx_seen_us;      /* when the kernel's retransmissions
	                              * reached the count needed; 0 not yet */
	long long udp_in_silence;    /* UDP echoes sent after the last TCP
	                              * answer and answered */
	long long send_end_us;       /* when sending stopped; 0 still on */
	long long retrans_at_answer; /* tcpi_total_retrans at the last
	                              * answer */
	uint8_t rbuf[PROTO_HDR_LEN + PROTO_ERRMSG_MAX + 64]; /* an ERROR fits */
	char dropped_why[PROTO_ERRMSG_MAX + 1]; /* the responder's reason
	                                         * when it dropped us */
	bool resp_dropped;                      /* ... and it did */
	size_t rlen;
	int ufd;
	struct udp_slot ring[HB_UDP_RING];
	struct hb_side tcp, udp;
	uint32_t seq;
	long long t0_us, elapsed_us;
	char peer_node[PROTO_NODE_MAX + 1];
	char peer_soft[PROTO_SOFT_MAX + 1];
};

/* heartbeat_opts.c */
int hb_parse(struct cmd_run *r, int argc, char **argv, struct hb_opts *o);

/* heartbeat_run.c */
int hb_connect(struct hb_run *r, const struct hb_opts *o, long long timeout_us);
void hb_count_segments(struct hb_run *r);
int hb_udp_listen(struct hb_run *r, const struct hb_opts *o);
int hb_udp_open(struct hb_run *r, unsigned port);
void hb_loop(struct hb_run *r, const struct hb_opts *o,
             const volatile sig_atomic_t *stop);

#endif
