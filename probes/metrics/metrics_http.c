/* The /metrics endpoint: a bounded, read-only HTTP/1.x server on its own
 * thread (poll over the listener, a wake pipe and at most METRICS_CLIENTS
 * clients, at most METRICS_ADDR_CAP of them from one address, each with a
 * short deadline for its request head), and the textfile written beside
 * it. */
#include "metrics/metrics_http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/hostport.h"
#include "base/monoclock.h"
#include "base/parse.h"
#include "base/promtext.h"

struct mh_client {
	int fd; /* -1: free */
	unsigned char key[16]; /* its address, as metrics_seat's */
	long long accepted_us;
	size_t rlen;
	char rbuf[METRICS_REQ_MAX + 1];
	char *resp; /* malloc'd once the request is read */
	size_t rsize, woff;
};

struct metrics_http {
	int lfd, wake[2];
	unsigned port;
	pthread_t thread;
	bool running;
	long long accept_pause_us; /* out of descriptors: no accept before */
	pthread_mutex_t mu;
	char *text; /* the last text published, NULL before the first */
	size_t textlen;
	struct mh_client c[METRICS_CLIENTS];
};

/* See metrics_http.h. */
int metrics_addr_parse(const char *spec, char *host, size_t hostlen,
                       unsigned *port, const char **why)
{
	long long v;

	if (spec != NULL && *spec != '\0' &&
	    strspn(spec, "0123456789") == strlen(spec)) {
		if (parse_num(spec, 0, 65535, &v, why) < 0)
			return -1;
		snprintf(host, hostlen, "%s", METRICS_DEF_HOST);
		*port = (unsigned)v;
		return 0;
	}
	if (spec == NULL || hostport_parse(spec, 0, host, hostlen, port, why,
	                                   NULL) != HOSTPORT_OK)
		return -1;
	if (*port == 0) {
		*why = "no port: use ADDR:PORT, [ADDR]:PORT or PORT";
		return -1;
	}
	return 0;
}

/* A listening socket on host:port. Returns the fd, or -1 with err. */
static int listen_on(const char *host, unsigned port, unsigned *bound,
                     char *err, size_t errlen)
{
	struct addrinfo hints = {0}, *ai = NULL;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char ps[8];
	int fd, one = 1, r;

	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV | AI_PASSIVE;
	snprintf(ps, sizeof(ps), "%u", port);
	r = getaddrinfo(host, ps, &hints, &ai);
	if (r != 0) {
		snprintf(err, errlen, "invalid metrics address '%s': %s", host,
		         gai_strerror(r));
		return -1;
	}
	fd = socket(ai->ai_family,
	            SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 ||
	    listen(fd, SOMAXCONN) < 0 ||
	    getsockname(fd, (struct sockaddr *)&ss, &sl) < 0) {
		snprintf(err, errlen, "cannot serve metrics on '%s' port %u: %s",
		         host, port, strerror(errno));
		if (fd >= 0)
			close(fd);
		freeaddrinfo(ai);
		return -1;
	}
	freeaddrinfo(ai);
	*bound = ntohs(ss.ss_family == AF_INET6
	                   ? ((struct sockaddr_in6 *)&ss)->sin6_port
	                   : ((struct sockaddr_in *)&ss)->sin_port);
	return fd;
}

/* Frees a client's slot. */
static void drop(struct mh_client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->resp);
	c->resp = NULL;
	c->fd = -1;
	c->rlen = c->rsize = c->woff = 0;
}

/* Builds the response: status line, headers, and the body unless HEAD.
 * The body is a copy of the published text. Returns 0, or -1. */
static int respond(struct metrics_http *m, struct mh_client *c, int code,
                   const char *reason, bool head, bool metrics,
                   const char *extra)
{
	const char *body = NULL;
	size_t blen = 0, hlen;
	char hdr[512], msg[96];
	int rc = -1;

	pthread_mutex_lock(&m->mu);
	if (metrics && m->text == NULL) {
		code = 503;
		reason = "Service Unavailable";
		metrics = false;
	}
	if (metrics) {
		body = m->text;
		blen = m->textlen;
	} else {
		snprintf(msg, sizeof(msg), "%d %s\n", code, reason);
		body = msg;
		blen = strlen(msg);
	}
	hlen = (size_t)snprintf(
	    hdr, sizeof(hdr),
	    "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
	    "Cache-Control: no-store\r\n%sConnection: close\r\n\r\n",
	    code, reason, metrics ? PROM_CONTENT_TYPE : "text/plain", blen,
	    extra ? extra : "");
	c->resp = malloc(hlen + blen);
	if (c->resp != NULL) {
		memcpy(c->resp, hdr, hlen);
		if (!head)
			memcpy(c->resp + hlen, body, blen);
		c->rsize = hlen + (head ? 0 : blen);
		c->woff = 0;
		rc = 0;
	}
	pthread_mutex_unlock(&m->mu);
	return rc;
}

/* Judges a whole request head: GET or HEAD of /metrics (a query string
 * allowed), HTTP/1.0 or 1.1. Returns 0 with the response built, or -1. */
static int handle(struct metrics_http *m, struct mh_client *c)
{
	char method[16], target[1024], version[16];
	char *q;

	if (sscanf(c->rbuf, "%15s %1023s %15s", method, target, version) !=
	        3 ||
	    strncmp(version, "HTTP/1.", 7) != 0)
		return respond(m, c, 400, "Bad Request", false, false, NULL);
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return respond(m, c, 405, "Method Not Allowed", false, false,
		               "Allow: GET, HEAD\r\n");
	q = strchr(target, '?');
	if (q != NULL)
		*q = '\0';
	return respond(m, c, strcmp(target, "/metrics") == 0 ? 200 : 404,
	               strcmp(target, "/metrics") == 0 ? "OK" : "Not Found",
	               strcmp(method, "HEAD") == 0,
	               strcmp(target, "/metrics") == 0, NULL);
}

/* Reads what the client sent; once the head is whole, the response. A
 * head larger than METRICS_REQ_MAX gets 431. */
static void on_read(struct metrics_http *m, struct mh_client *c)
{
	ssize_t r = recv(c->fd, c->rbuf + c->rlen, METRICS_REQ_MAX - c->rlen,
	                 0);

	if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) {
		drop(c);
		return;
	}
	if (r < 0)
		return;
	c->rlen += (size_t)r;
	c->rbuf[c->rlen] = '\0';
	if (strstr(c->rbuf, "\r\n\r\n") != NULL ||
	    strstr(c->rbuf, "\n\n") != NULL) {
		if (handle(m, c) < 0)
			drop(c);
	} else if (c->rlen >= METRICS_REQ_MAX &&
	           respond(m, c, 431, "Request Header Fields Too Large",
	                   false, false, NULL) < 0) {
		drop(c);
	}
}

/* Sends what is left of the response; closes once it is all sent. */
static void on_write(struct mh_client *c)
{
	ssize_t w = send(c->fd, c->resp + c->woff, c->rsize - c->woff,
	                 MSG_NOSIGNAL | MSG_DONTWAIT);

	if (w < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (w <= 0) {
		drop(c);
		return;
	}
	c->woff += (size_t)w;
	if (c->woff >= c->rsize) {
		shutdown(c->fd, SHUT_WR);
		drop(c);
	}
}

/* The 16 bytes of an address, IPv4 as IPv4-mapped IPv6, so that one host
 * is one key whichever family it came in. */
static void host_key(const struct sockaddr_storage *ss, unsigned char k[16])
{
	const struct sockaddr_in6 *s6 = (const void *)ss;
	const struct sockaddr_in *s4 = (const void *)ss;

	memset(k, 0, 16);
	if (ss->ss_family == AF_INET6) {
		memcpy(k, &s6->sin6_addr, 16);
	} else if (ss->ss_family == AF_INET) {
		k[10] = k[11] = 0xff;
		memcpy(k + 12, &s4->sin_addr, 4);
	}
}

/* How many used seats share key. */
static size_t held_by(const struct metrics_seat *seats, size_t n,
                      const unsigned char key[16])
{
	size_t h = 0;

	for (size_t i = 0; i < n; i++)
		h += seats[i].used && memcmp(seats[i].key, key, 16) == 0;
	return h;
}

/* See metrics_http.h. A client already sending its response is never
 * evicted: it is being served, and its deadline frees it soon. */
int metrics_admit(const struct metrics_seat *seats, size_t n,
                  const unsigned char key[16], bool *evict)
{
	size_t mine = held_by(seats, n, key), best_held = 0;
	int best = -1;

	*evict = false;
	if (mine >= METRICS_ADDR_CAP)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!seats[i].used)
			return (int)i;
	for (size_t i = 0; i < n; i++) {
		size_t h;

		if (!seats[i].reading)
			continue;
		h = held_by(seats, n, seats[i].key);
		/* equals never swap places: that would only churn */
		if (h < mine + 2)
			continue;
		if (best < 0 || h > best_held ||
		    (h == best_held &&
		     seats[i].accepted_us < seats[best].accepted_us)) {
			best = (int)i;
			best_held = h;
		}
	}
	*evict = best >= 0;
	return best;
}

/* Gives the newcomer fd from ss a slot (metrics_admit), or closes it. */
static void admit(struct metrics_http *m, int fd,
                  const struct sockaddr_storage *ss)
{
	struct metrics_seat seats[METRICS_CLIENTS];
	unsigned char key[16];
	bool evict;
	int i;

	host_key(ss, key);
	for (size_t k = 0; k < METRICS_CLIENTS; k++) {
		seats[k].used = m->c[k].fd >= 0;
		seats[k].reading = m->c[k].resp == NULL;
		memcpy(seats[k].key, m->c[k].key, 16);
		seats[k].accepted_us = m->c[k].accepted_us;
	}
	i = metrics_admit(seats, METRICS_CLIENTS, key, &evict);
	if (i < 0) {
		close(fd);
		return;
	}
	if (evict)
		drop(&m->c[i]);
	m->c[i].fd = fd;
	memcpy(m->c[i].key, key, 16);
	m->c[i].accepted_us = mono_now_us();
}

/* Accepts what is pending, at most METRICS_ACCEPT_BATCH at a time. Out of
 * descriptors or memory (EMFILE, ENFILE, ENOBUFS, ENOMEM) the pending
 * connection stays queued and the listener is left alone for
 * METRICS_FD_PAUSE_US, since poll would report it readable again at
 * once: a spin, not a wait. */
static void on_accept(struct metrics_http *m)
{
	for (int k = 0; k < METRICS_ACCEPT_BATCH; k++) {
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		int fd = accept4(m->lfd, (struct sockaddr *)&ss, &sl,
		                 SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd < 0) {
			if (errno == EMFILE || errno == ENFILE ||
			    errno == ENOBUFS || errno == ENOMEM)
				m->accept_pause_us =
				    mono_now_us() + METRICS_FD_PAUSE_US;
			if (errno == ECONNABORTED || errno == EINTR)
				continue;
			return;
		}
		admit(m, fd, &ss);
	}
}

/* When client c is due to close: its head within METRICS_HEAD_US of the
 * accept, its whole exchange within METRICS_REQ_US. */
static long long due_us(const struct mh_client *c)
{
	return c->accepted_us +
	       (c->resp == NULL ? METRICS_HEAD_US : METRICS_REQ_US);
}

/* The thread: until the wake pipe says stop. Every wait is at most one
 * second and ends at the next client's deadline, where it is dropped. */
static void *mh_main(void *arg)
{
	struct metrics_http *m = arg;

	for (;;) {
		struct pollfd p[METRICS_CLIENTS + 2];
		size_t idx[METRICS_CLIENTS], n = 2;
		long long now = mono_now_us(), next = now + 1000000LL;
		bool listening = now >= m->accept_pause_us;

		p[0] = (struct pollfd){.fd = m->wake[0], .events = POLLIN};
		p[1] = (struct pollfd){.fd = listening ? m->lfd : -1,
		                       .events = POLLIN};
		if (!listening && m->accept_pause_us < next)
			next = m->accept_pause_us;
		for (size_t i = 0; i < METRICS_CLIENTS; i++) {
			struct mh_client *c = &m->c[i];

			if (c->fd < 0)
				continue;
			if (due_us(c) <= now) {
				drop(c);
				continue;
			}
			if (due_us(c) < next)
				next = due_us(c);
			idx[n - 2] = i;
			p[n++] = (struct pollfd){
			    .fd = c->fd,
			    .events = c->resp ? POLLOUT : POLLIN};
		}
		if (poll(p, n, (int)((next - now + 999) / 1000)) < 0 &&
		    errno != EINTR)
			break;
		if (p[0].revents)
			break;
		for (size_t k = 2; k < n; k++) {
			struct mh_client *c = &m->c[idx[k - 2]];

			if (c->fd < 0 || p[k].revents == 0)
				continue;
			if (c->resp == NULL)
				on_read(m, c);
			else
				on_write(c);
			if (c->fd >= 0 && c->resp != NULL && c->woff == 0)
				on_write(c);
		}
		/* after the clients' events, which are of the fds polled */
		if (p[1].revents & POLLIN)
			on_accept(m);
	}
	return NULL;
}

/* See metrics_http.h. */
int metrics_http_step(struct metrics_http *m, struct mh_client **cp, int fd)
{
	struct mh_client *c = *cp;

	if (c == NULL) {
		if (fd < 0)
			return 0;
		c = calloc(1, sizeof(*c));
		if (c == NULL) {
			close(fd);
			return 0;
		}
		c->fd = fd;
		*cp = c;
	}
	if (fd < 0)
		drop(c);
	else if (c->resp == NULL)
		on_read(m, c);
	else
		on_write(c);
	if (c->fd >= 0 && c->resp != NULL && c->woff == 0)
		on_write(c);
	if (c->fd >= 0)
		return 1;
	free(c);
	*cp = NULL;
	return 0;
}

/* See metrics_http.h. */
struct metrics_http *metrics_http_start(const char *spec, char *err,
                                        size_t errlen)
{
	struct metrics_http *m = calloc(1, sizeof(*m));
	char host[256];
	const char *why;
	unsigned port;
	int e;

	if (m == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	m->lfd = m->wake[0] = m->wake[1] = -1;
	for (size_t i = 0; i < METRICS_CLIENTS; i++)
		m->c[i].fd = -1;
	pthread_mutex_init(&m->mu, NULL);
	if (metrics_addr_parse(spec, host, sizeof(host), &port, &why) < 0) {
		snprintf(err, errlen, "invalid metrics address '%s': %s",
		         spec ? spec : "", why);
		goto fail;
	}
	m->lfd = listen_on(host, port, &m->port, err, errlen);
	if (m->lfd < 0)
		goto fail;
	if (pipe2(m->wake, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "cannot serve metrics: %s",
		         strerror(errno));
		goto fail;
	}
	e = pthread_create(&m->thread, NULL, mh_main, m);
	if (e != 0) {
		snprintf(err, errlen, "cannot start a thread: %s", strerror(e));
		goto fail;
	}
	m->running = true;
	return m;
fail:
	metrics_http_stop(m);
	return NULL;
}

/* See metrics_http.h. */
unsigned metrics_http_port(const struct metrics_http *m)
{
	return m->port;
}

/* See metrics_http.h. */
int metrics_http_publish(struct metrics_http *m, const char *text,
                         size_t len)
{
	char *copy = malloc(len + 1), *old;

	if (copy == NULL)
		return -1;
	memcpy(copy, text, len);
	copy[len] = '\0';
	pthread_mutex_lock(&m->mu);
	old = m->text;
	m->text = copy;
	m->textlen = len;
	pthread_mutex_unlock(&m->mu);
	free(old);
	return 0;
}

/* See metrics_http.h. */
void metrics_http_stop(struct metrics_http *m)
{
	if (m == NULL)
		return;
	if (m->running) {
		ssize_t w;

		do
			w = write(m->wake[1], "x", 1);
		while (w < 0 && errno == EINTR);
		pthread_join(m->thread, NULL);
	}
	for (size_t i = 0; i < METRICS_CLIENTS; i++)
		drop(&m->c[i]);
	if (m->lfd >= 0)
		close(m->lfd);
	if (m->wake[0] >= 0)
		close(m->wake[0]);
	if (m->wake[1] >= 0)
		close(m->wake[1]);
	pthread_mutex_destroy(&m->mu);
	free(m->text);
	free(m);
}

/* See metrics_http.h. */
int metrics_out_publish(struct metrics_out *o, const char *text, size_t len,
                        bool force, char *why, size_t whylen)
{
	long long now = mono_now_us();

	if (o->http != NULL)
		metrics_http_publish(o->http, text, len);
	if (o->textfile_dir == NULL ||
	    (!force && o->last_file_us != 0 &&
	     now - o->last_file_us < 1000000LL))
		return 0;
	o->last_file_us = now;
	return prom_textfile_write(o->textfile_dir, o->textfile_name, text, len,
	                           why, whylen);
}
