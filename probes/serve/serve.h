/* netprobe serve, the responder peers probe (docs/protocol.md), as a
 * server any program can run: start it, poll it from its own loop, free
 * it. cmd_serve (serve.c) is one such loop; the mesh rendezvous can be
 * another. Every client, listener, request and buffer is bounded; the
 * server logs on stderr, rate-limited. */
#ifndef NP_SERVE_H
#define NP_SERVE_H

#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* Takes over a connection whose client sent JOIN, the mesh rendezvous's
 * first frame (docs/protocol.md): fd (non-blocking) is the callee's from
 * then on; in holds the bytes read from the JOIN frame on, out the
 * replies not yet sent. Runs inside serve_poll. Returns 0, or -1 to
 * refuse it (the server then closes fd). */
typedef int (*serve_handoff_fn)(void *ctx, int fd,
                                const struct sockaddr_storage *peer,
                                const uint8_t *in, size_t nin,
                                const uint8_t *out, size_t nout);

struct serve_opts {
	unsigned port;          /* TCP and UDP */
	const char *bind;       /* NULL: all addresses */
	const char *token_file; /* NULL: listen and connect-back are open */
	unsigned max_clients;
	int verbose; /* 1: every client and request logged */
	/* the mesh rendezvous on node 0: JOIN hands the connection over;
	 * NULL: JOIN is answered ERROR unsupported */
	serve_handoff_fn handoff;
	void *handoff_ctx;
	/* NULL, or counts the JOINs answered "no rendezvous here": a mesh
	 * member others take for node 0 (read by another thread) */
	atomic_uint *joins_refused;
};

struct server;

/* The defaults of `netprobe serve`: port 7470, all addresses, no token,
 * 1024 clients, quiet. */
void serve_opts_init(struct serve_opts *o);

/* Checks the options, loads the token, opens the TCP and UDP sockets on
 * o->port and the event loop. o's strings must outlive the server. Returns
 * the server, or NULL with err filled ("cannot listen on tcp port '7470':
 * Address already in use") and errno EADDRINUSE when the port is held. */
struct server *serve_start(const struct serve_opts *o, char *err,
                           size_t errlen);

/* What holds a port another responder could not bind. */
enum serve_holder {
	SERVE_HOLDER_UNKNOWN, /* nothing named (no permission, gone) */
	SERVE_HOLDER_OTHER,   /* a process that is no netprobe responder */
	SERVE_HOLDER_SERVE,   /* `netprobe serve` (or an older netprobe) */
	SERVE_HOLDER_MESH,    /* a mesh's own responder, node 0 or member */
};

/* Names the holder of TCP port (at bind, NULL: this host's loopback) in
 * who: its process as `ss -ltnp` names it ("python3 (pid 812)", "" when
 * not found) and, when it answers the protocol's HELLO within a second,
 * which netprobe it is. Returns the kind; never fails. */
enum serve_holder serve_holder_find(const char *bind, unsigned port,
                                    char *who, size_t len);

/* Handles one batch of events: waits at most max_ms (-1: until the next
 * timer, at most a second) with sigmask in place while waiting, as
 * epoll_pwait does. Returns 0, also when a signal cut the wait short, or
 * -1 with errno when the loop cannot go on. */
int serve_poll(struct server *s, int max_ms, const sigset_t *sigmask);

struct prom_buf;

/* Appends the server's figures in Prometheus's text format (clients,
 * echoes, refusals by reason, rejected frames; serve_metrics.c). Call it
 * from the thread that polls. Returns 0, or -1 (no memory). */
int serve_metrics(const struct server *s, struct prom_buf *b);

/* Closes every socket and frees everything, s too. Safe on NULL and on a
 * half-started server. */
void serve_free(struct server *s);

#endif
