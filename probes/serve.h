/* netprobe serve internals shared by its files: the responder's state,
 * its limits and the event-loop handles. */
#ifndef NP_SERVE_H
#define NP_SERVE_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "wire/auth.h"
#include "wire/proto_msg.h"

#define SERVE_TCP_MAX_PAYLOAD 4096 /* largest frame a connection may send */
#define SERVE_WBUF 16384           /* queued replies per connection */
#define SERVE_MAX_TEMP 256         /* temporary listeners at once */
#define SERVE_MAX_CB_SOCKS 1024    /* connect-back sockets at once */
#define SERVE_OPEN_PORTS 16        /* ports per request without a token */
#define SERVE_OPEN_LIFE_MS 10000   /* longest listener without a token */
#define SERVE_AUTH_LIFE_MS 30000   /* longest listener with a token */
#define SERVE_DEF_LIFE_MS 5000     /* listener lifetime when asked for 0 */
#define SERVE_OPEN_CB_MS 3000      /* longest connect-back wait, no token */
#define SERVE_AUTH_CB_MS 10000     /* longest connect-back wait, token */
#define SERVE_ECHO_RATE 100000     /* echoes per second per connection */
#define SERVE_HEAVY_RATE 5         /* listen/connect-back/auth per second */
#define SERVE_UDP_RATE 50000       /* UDP replies per second, all peers */
#define SERVE_IDLE_S 600           /* a silent connection is closed */
#define SERVE_PARTIAL_S 30         /* a half-sent frame is given up */

enum serve_ev {
	EV_TCP_LISTEN = 1,
	EV_UDP,
	EV_CONN,
	EV_TEMP,
	EV_CB,
};

struct ev {
	enum serve_ev kind;
	int fd;
};

struct conn;

struct cb_sock {
	struct ev ev;
	struct conn *owner;
	int idx;
};

struct cb_job {
	uint8_t proto;
	uint16_t n;
	int pending;
	long long start_us, deadline_us;
	struct cb_sock socks[PROTO_MAX_PORTS];
	struct proto_connect_back_reply reply;
	struct cb_job *next_dead;
};

struct bucket {
	double tokens;
	long long t_us;
};

struct conn {
	struct ev ev;
	unsigned slot;
	struct sockaddr_storage peer;
	socklen_t peerlen;
	char name[INET6_ADDRSTRLEN + 8]; /* "addr:port" for logs */
	bool authed, dead, nonce_set, want_out;
	uint8_t nonce[PROTO_NONCE_LEN];
	struct bucket echo, heavy;
	long long last_us, partial_since_us;
	struct cb_job *job;
	struct conn *next_dead;
	size_t rlen, wlen, woff;
	uint8_t rbuf[PROTO_HDR_LEN + SERVE_TCP_MAX_PAYLOAD];
	uint8_t wbuf[SERVE_WBUF];
};

struct temp {
	struct ev ev; /* fd -1 when the slot is free */
	uint8_t proto;
	uint16_t port;
	long long expires_us;
};

struct serve_opts {
	unsigned port;
	const char *bind; /* NULL: all addresses */
	const char *token_file;
	unsigned max_clients;
	int verbose;
};

struct server {
	struct serve_opts o;
	int ep;
	struct ev tcp, udp;
	int family;          /* of the listening sockets */
	struct conn **conns; /* max_clients slots */
	unsigned nconns;
	struct conn *dead; /* freed after each event batch */
	struct cb_job *dead_jobs;
	struct temp temps[SERVE_MAX_TEMP];
	unsigned ntemps, ncb_socks;
	struct auth_key key;
	bool have_key;
	struct bucket udp_bucket;
	long log_budget, log_suppressed;
	long long log_t_us;
	char node[PROTO_NODE_MAX + 1];
	uint8_t udpbuf[PROTO_HDR_LEN + PROTO_MAX_PAYLOAD + 64];
};

/* Token bucket: true when one more event fits rate per second. */
bool serve_bucket_take(struct bucket *b, double rate, double burst,
                       long long now_us);

#endif
