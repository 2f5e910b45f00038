/* netprobe serve's limits: sizes, counts, lifetimes and rates, the token
 * buckets that enforce the rates, and what a request may ask for. */
#ifndef NP_SERVE_LIMITS_H
#define NP_SERVE_LIMITS_H

#include <stdbool.h>
#include <stdint.h>

#define SERVE_TCP_MAX_PAYLOAD 4096 /* largest frame a connection may send */
#define SERVE_WBUF 16384           /* queued replies per connection */
#define SERVE_MAX_TEMP 256         /* temporary listeners at once */
#define SERVE_MAX_CB_SOCKS 1024    /* connect-back sockets at once */
#define SERVE_BACKLOG 1024         /* connections waiting for accept(): a
				    * mesh's peers all connect at once */
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
#define SERVE_FIRST_FRAME_S 5      /* the first whole frame, from accept */
#define SERVE_FRAME_S 5            /* every frame whole, from its first byte */
#define SERVE_REQUEST_S 2          /* the first request, from the last
				    * handshake frame (HELLO, AUTH) */
#define SERVE_SERVED_IDLE_S 120    /* a client silent this long gives way
				    * when the table is full: twice the
				    * longest heartbeat interval (60 s) */

struct bucket {
	double tokens;
	long long t_us;
};

/* What one LISTEN or CONNECT_BACK on a connection may ask for. */
struct sv_grant {
	unsigned max_ports;
	uint32_t max_life_ms; /* of a temporary listener */
	uint32_t max_cb_ms;   /* of a connect-back's wait */
};

struct server;
struct conn;

/* Token bucket: true when one more event fits rate per second. */
bool sv_bucket_take(struct bucket *b, double rate, double burst,
                    long long now_us);

/* The grant of a LISTEN or CONNECT_BACK on c, charged to its bucket of
 * heavy requests. Returns 0 with g filled, or the PROTO_E_* code of the
 * refusal with *msg its message. */
int sv_grant(const struct server *s, struct conn *c, struct sv_grant *g,
             const char **msg);

/* Raises the open-file limit to what want clients need, or lowers the
 * clients to what the hard limit allows (saying so on stderr). Returns
 * the clients to allow. */
unsigned sv_fd_budget(unsigned want);

#endif
