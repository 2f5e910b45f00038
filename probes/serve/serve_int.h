/* netprobe serve's state, shared by its files (serve_*.c) and by nothing
 * else: the handles the event loop dispatches on, a client connection and
 * its connect-back job, the temporary listeners, and the server that holds
 * them all. */
#ifndef NP_SERVE_INT_H
#define NP_SERVE_INT_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include "serve/serve.h"
#include "serve/serve_limits.h"
#include "serve/serve_stats.h"
#include "wire/auth.h"
#include "wire/proto_msg.h"

enum serve_ev {
	EV_TCP_LISTEN = 1,
	EV_UDP,
	EV_CONN,
	EV_TEMP,
	EV_CB,
};

/* First member of everything the loop waits on: epoll hands it back. */
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

struct conn {
	struct ev ev;
	unsigned slot;
	struct sockaddr_storage peer;
	socklen_t peerlen;
	char name[INET6_ADDRSTRLEN + 8]; /* "addr:port" for logs */
	bool authed, dead, nonce_set, want_out;
	uint8_t nonce[PROTO_NONCE_LEN];
	struct bucket echo, heavy;
	long long last_us, partial_since_us, accepted_us;
	unsigned long frames;   /* whole frames received */
	unsigned long requests; /* of them, other than HELLO and AUTH_* */
	long long frame_us;     /* when the last whole frame came */
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
	long refused_quiet;   /* refusals since the last one logged */
	long long refused_t_us; /* when a refusal was last logged */
	long long log_t_us;
	char node[PROTO_NODE_MAX + 1];
	struct serve_stats st; /* --metrics */
	uint8_t udpbuf[PROTO_HDR_LEN + PROTO_MAX_PAYLOAD + 64];
};

/* Registers a handle with the loop. Returns epoll_ctl's result. */
static inline int sv_ep_add(struct server *s, struct ev *e, uint32_t events)
{
	struct epoll_event ee = {.events = events, .data.ptr = e};

	return epoll_ctl(s->ep, EPOLL_CTL_ADD, e->fd, &ee);
}

/* Changes the events a handle waits for (EPOLLOUT on and off). */
static inline void sv_ep_mod(struct server *s, struct ev *e, uint32_t events)
{
	struct epoll_event ee = {.events = events, .data.ptr = e};

	epoll_ctl(s->ep, EPOLL_CTL_MOD, e->fd, &ee);
}

#endif
