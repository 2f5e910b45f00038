/* The read-only /metrics endpoint (--metrics ADDR:PORT) that serve and a
 * watching mesh member offer Prometheus: a small HTTP/1.x server on a
 * thread of its own that answers GET and HEAD of /metrics with the text
 * its owner published last, anything else 404 or 405; requests bounded
 * in size, time and number at once, and per source address, so that one
 * address's slow or silent clients never keep a scrape out. Also
 * --textfile DIR: the same text for node_exporter's textfile collector. */
#ifndef NP_METRICS_HTTP_H
#define NP_METRICS_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#define METRICS_DEF_HOST "127.0.0.1" /* --metrics PORT alone */
#define METRICS_REQ_MAX 4096         /* request line and headers */
#define METRICS_HEAD_US 2000000LL    /* the request head, from the accept */
#define METRICS_REQ_US 5000000LL     /* a client's whole exchange */
#define METRICS_CLIENTS 16           /* clients at once */
#define METRICS_ADDR_CAP (METRICS_CLIENTS / 4) /* of them, one address's */
#define METRICS_ACCEPT_BATCH 256     /* accepts per wake-up */
#define METRICS_FD_PAUSE_US 100000LL /* no accept after EMFILE, ENFILE */

struct metrics_http;

/* One slot as admission sees it. */
struct metrics_seat {
	bool used;
	bool reading;          /* its request head is not whole yet */
	unsigned char key[16]; /* its address (IPv4 as IPv4-mapped IPv6) */
	long long accepted_us;
};

/* Where a newcomer from key goes among n seats, so that no address can
 * keep the others out: refused (-1) when its address holds
 * METRICS_ADDR_CAP seats already; else a free seat; else, the table full,
 * the seat of the oldest client still reading its head from the address
 * that holds the most, when that address holds at least two more than
 * the newcomer's (*evict set: the caller drops it first); else refused.
 * Pure. */
int metrics_admit(const struct metrics_seat *seats, size_t n,
                  const unsigned char key[16], bool *evict);

/* Parses ADDR:PORT, [V6]:PORT or PORT (loopback) into host and port.
 * Returns 0, or -1 with why a static phrase. */
int metrics_addr_parse(const char *spec, char *host, size_t hostlen,
                       unsigned *port, const char **why);

/* Binds spec and starts the server's thread; it answers 503 until the
 * first text is published. Returns the server, or NULL with err filled
 * (address in use, bad address, no memory). */
struct metrics_http *metrics_http_start(const char *spec, char *err,
                                        size_t errlen);

/* The port bound (the one asked for, or the kernel's for port 0). */
unsigned metrics_http_port(const struct metrics_http *m);

/* Replaces the text scrapes get. Returns 0, or -1 on no memory (the old
 * text stays). */
int metrics_http_publish(struct metrics_http *m, const char *text,
                         size_t len);

/* Stops the thread, closes every socket, frees m. Safe on NULL. */
void metrics_http_stop(struct metrics_http *m);

/* The fuzz target's way to the request reader (tests/fuzz/fuzz_metrics.c):
 * one client on fd (non-blocking), served on the caller's thread, as the
 * server's thread serves a slot that poll woke: a read while the request
 * is incomplete, then the response written. *cp is the client, NULL
 * before the first call; fd < 0 drops it. Returns 1 while the client
 * stays, 0 once it is gone (fd closed, *cp freed and NULL). */
struct mh_client;
int metrics_http_step(struct metrics_http *m, struct mh_client **cp, int fd);

/* Where one owner publishes: the endpoint, the textfile, or both. */
struct metrics_out {
	struct metrics_http *http; /* NULL: no --metrics */
	const char *textfile_dir;  /* NULL: no --textfile */
	const char *textfile_name; /* "netprobe_serve.prom" */
	long long last_file_us;    /* the textfile is rewritten at most
	                            * once a second */
	bool file_failed;          /* told once */
};

/* Hands text to the endpoint and (at most once a second, or when force)
 * to the textfile. Returns 0, or -1 with why filled when the textfile
 * could not be written (the endpoint still has the text). */
int metrics_out_publish(struct metrics_out *o, const char *text, size_t len,
                        bool force, char *why, size_t whylen);

#endif
