/* The side channel (bootstrap.h): framed TCP between process 0, the hub,
 * and every other process. Every read, write and wait has a deadline. */
#include "bootstrap.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define FRAME_MAX (64u << 20) /* largest payload accepted */
#define IO_GRACE_US 2000000   /* a started frame must finish in this */

long long sc_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void why(struct sc *sc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Records the first failure; later ones do not overwrite it. */
static void why(struct sc *sc, const char *fmt, ...)
{
	va_list ap;

	if (sc->failed)
		return;
	sc->failed = true;
	va_start(ap, fmt);
	vsnprintf(sc->why, sizeof(sc->why), fmt, ap);
	va_end(ap);
}

/* "rank 3 on gpu-b", or "rank 3" before hosts are known. */
static const char *who(const struct sc *sc, int r, char *buf, size_t len)
{
	if (sc->hosts != NULL && sc->hosts[r][0] != '\0')
		snprintf(buf, len, "rank %d on %s", r, sc->hosts[r]);
	else
		snprintf(buf, len, "rank %d", r);
	return buf;
}

/* Milliseconds left until deadline, at least 0, at most max_ms. */
static int left_ms(long long deadline_us, int max_ms)
{
	long long d = deadline_us - sc_now_us();

	if (d <= 0)
		return 0;
	d = (d + 999) / 1000;
	return d > max_ms ? max_ms : (int)d;
}

/* Reads exactly len bytes before deadline. Returns 0, or -1 with errno
 * (ECONNRESET for end of file, ETIMEDOUT). */
static int read_full(int fd, void *buf, size_t len, long long deadline_us)
{
	char *p = buf;

	while (len > 0) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t n;
		int pr = poll(&pfd, 1, left_ms(deadline_us, 1000));

		if (pr < 0 && errno != EINTR)
			return -1;
		if (pr <= 0) {
			if (sc_now_us() >= deadline_us) {
				errno = ETIMEDOUT;
				return -1;
			}
			continue;
		}
		n = recv(fd, p, len, 0);
		if (n == 0) {
			errno = ECONNRESET;
			return -1;
		}
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Writes exactly len bytes before deadline (no SIGPIPE). */
static int write_full(int fd, const void *buf, size_t len,
		      long long deadline_us)
{
	const char *p = buf;

	while (len > 0) {
		struct pollfd pfd = { .fd = fd, .events = POLLOUT };
		ssize_t n;
		int pr = poll(&pfd, 1, left_ms(deadline_us, 1000));

		if (pr < 0 && errno != EINTR)
			return -1;
		if (pr <= 0) {
			if (sc_now_us() >= deadline_us) {
				errno = ETIMEDOUT;
				return -1;
			}
			continue;
		}
		n = send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Sends one frame: {u32 type, u32 length} in network order, payload. */
static int send_frame(int fd, uint32_t type, const void *payload,
		      size_t len)
{
	long long dl = sc_now_us() + IO_GRACE_US;
	uint32_t h[2] = { htonl(type), htonl((uint32_t)len) };

	if (write_full(fd, h, sizeof(h), dl) < 0)
		return -1;
	return len > 0 ? write_full(fd, payload, len, dl) : 0;
}

/* Receives one frame once the socket is readable; *payload is malloc'd
 * (NULL for an empty one). Returns 0, or -1 with errno. */
static int recv_frame(int fd, uint32_t *type, void **payload, size_t *len)
{
	long long dl = sc_now_us() + IO_GRACE_US;
	uint32_t h[2];
	void *p = NULL;

	*payload = NULL;
	if (read_full(fd, h, sizeof(h), dl) < 0)
		return -1;
	*type = ntohl(h[0]);
	*len = ntohl(h[1]);
	if (*len > FRAME_MAX) {
		errno = EPROTO;
		return -1;
	}
	if (*len > 0) {
		p = malloc(*len);
		if (p == NULL)
			return -1;
		if (read_full(fd, p, *len, dl) < 0) {
			free(p);
			return -1;
		}
	}
	*payload = p;
	return 0;
}

/* Binds and listens (SO_REUSEADDR, backlog 1024); port 0 is ephemeral. */
int sc_listen(const char *addr, int port, int *bound)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICHOST |
					      AI_NUMERICSERV };
	struct addrinfo *res = NULL;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char ps[16];
	int fd = -1, one = 1, e;

	snprintf(ps, sizeof(ps), "%d", port);
	e = getaddrinfo(addr, ps, &hints, &res);
	if (e != 0) {
		errno = EINVAL;
		return -1;
	}
	fd = socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		goto fail;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, res->ai_addr, res->ai_addrlen) < 0 ||
	    listen(fd, 1024) < 0 ||
	    getsockname(fd, (struct sockaddr *)&ss, &sl) < 0)
		goto fail;
	*bound = ntohs(ss.ss_family == AF_INET6 ?
			       ((struct sockaddr_in6 *)&ss)->sin6_port :
			       ((struct sockaddr_in *)&ss)->sin_port);
	freeaddrinfo(res);
	return fd;
fail:
	e = errno;
	if (fd >= 0)
		close(fd);
	freeaddrinfo(res);
	errno = e;
	return -1;
}

/* One connect attempt to one address before deadline. */
static int connect_one(const struct addrinfo *ai, long long deadline_us)
{
	int fd, err = 0, one = 1;
	socklen_t el = sizeof(err);
	struct pollfd pfd;

	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    0);
	if (fd < 0)
		return -1;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0 &&
	    errno != EINPROGRESS)
		goto fail;
	pfd.fd = fd;
	pfd.events = POLLOUT;
	for (;;) {
		int pr = poll(&pfd, 1, left_ms(deadline_us, 1000));

		if (pr > 0)
			break;
		if (pr < 0 && errno != EINTR)
			goto fail;
		if (sc_now_us() >= deadline_us) {
			errno = ETIMEDOUT;
			goto fail;
		}
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) < 0)
		goto fail;
	if (err != 0) {
		errno = err;
		goto fail;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
fail:
	err = errno;
	close(fd);
	errno = err;
	return -1;
}

/* Tries every address the name resolves to until one connects. */
int sc_connect(const char *host, int port, long long deadline_us)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV };
	struct addrinfo *res = NULL;
	char ps[16];
	int fd = -1, e;

	snprintf(ps, sizeof(ps), "%d", port);
	e = getaddrinfo(host, ps, &hints, &res);
	if (e != 0) {
		errno = EHOSTUNREACH;
		return -1;
	}
	for (struct addrinfo *ai = res; ai != NULL && fd < 0;
	     ai = ai->ai_next)
		fd = connect_one(ai, deadline_us);
	e = errno;
	freeaddrinfo(res);
	errno = e;
	return fd;
}

/* Allocates the per-process tables. */
static int sc_alloc(struct sc *sc, int rank, int nprocs)
{
	memset(sc, 0, sizeof(*sc));
	sc->hub_fd = -1;
	sc->rank = rank;
	sc->nprocs = nprocs;
	sc->table_step = calloc((size_t)nprocs, sizeof(*sc->table_step));
	sc->table_alive = calloc((size_t)nprocs, sizeof(*sc->table_alive));
	if (rank == 0)
		sc->peers = calloc((size_t)nprocs, sizeof(*sc->peers));
	if (sc->table_step == NULL || sc->table_alive == NULL ||
	    (rank == 0 && sc->peers == NULL))
		return -1;
	for (int i = 0; rank == 0 && i < nprocs; i++)
		sc->peers[i].fd = -1;
	return 0;
}

/* Accepts until every rank said hello; strays are closed, impostors fail. */
int sc_hub_open(struct sc *sc, int listen_fd, int nprocs,
		long long deadline_us)
{
	int joined = 1, one = 1;

	if (nprocs < 1 || nprocs > SC_MAX_PROCS || sc_alloc(sc, 0, nprocs)) {
		why(sc, "bootstrap: bad process count %d or no memory", nprocs);
		return -1;
	}
	sc->peers[0].alive = true;
	while (joined < nprocs) {
		struct pollfd pfd = { .fd = listen_fd, .events = POLLIN };
		uint32_t type, *v;
		void *p;
		size_t len;
		int fd, r, pr = poll(&pfd, 1, left_ms(deadline_us, 1000));

		if (pr <= 0) {
			if (sc_now_us() < deadline_us)
				continue;
			int missing[64], nm = 0;
			char rb[256];

			for (int i = 1; i < nprocs && nm < 64; i++)
				if (!sc->peers[i].alive)
					missing[nm++] = i;
			why(sc, "bootstrap: ranks %s never connected to rank 0 "
			    "(%d of %d joined)",
			    sc_ranges(missing, nm, rb, sizeof(rb)), joined,
			    nprocs);
			sc->timed_out = true;
			return -1;
		}
		fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		/* small frames both ways: Nagle would hold results 40 ms */
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		if (recv_frame(fd, &type, &p, &len) < 0 || type != SC_HELLO ||
		    len != 8) {
			free(p);
			close(fd); /* a stray connection: not one of ours */
			continue;
		}
		v = p;
		r = (int)ntohl(v[0]);
		if ((int)ntohl(v[1]) != nprocs || r < 1 || r >= nprocs ||
		    sc->peers[r].alive) {
			why(sc, "bootstrap: a process says it is rank %d of %u "
			    "but rank 0 expects %d processes%s", r,
			    ntohl(v[1]), nprocs,
			    r >= 1 && r < nprocs && sc->peers[r].alive ?
				    " and that rank already joined" : "");
			free(p);
			close(fd);
			return -1;
		}
		free(p);
		if (send_frame(fd, SC_WELCOME, NULL, 0) < 0) {
			close(fd);
			continue;
		}
		sc->peers[r].fd = fd;
		sc->peers[r].alive = true;
		joined++;
	}
	return 0;
}

/* Retries refused connects every 100 ms until the deadline. */
int sc_client_open(struct sc *sc, const char *host, int port, int rank,
		   int nprocs, long long deadline_us)
{
	uint32_t hello[2] = { htonl((uint32_t)rank), htonl((uint32_t)nprocs) };
	int e = 0;

	if (nprocs < 2 || nprocs > SC_MAX_PROCS || rank < 1 ||
	    rank >= nprocs || sc_alloc(sc, rank, nprocs)) {
		why(sc, "bootstrap: bad rank %d of %d", rank, nprocs);
		return -1;
	}
	while (sc->hub_fd < 0) {
		long long now = sc_now_us();
		long long dl = now + 2000000 < deadline_us ? now + 2000000 :
							    deadline_us;

		sc->hub_fd = sc_connect(host, port, dl);
		if (sc->hub_fd >= 0)
			break;
		e = errno;
		if (sc_now_us() >= deadline_us) {
			why(sc, "bootstrap: cannot reach rank 0 at %s:%d: %s",
			    host, port, strerror(e));
			sc->timed_out = true;
			return -1;
		}
		usleep(100000); /* rank 0 may not listen yet */
	}
	if (send_frame(sc->hub_fd, SC_HELLO, hello, sizeof(hello)) < 0) {
		why(sc, "bootstrap: hello to rank 0 at %s:%d: %s", host, port,
		    strerror(errno));
		return -1;
	}
	for (;;) {
		struct pollfd pfd = { .fd = sc->hub_fd, .events = POLLIN };
		uint32_t type;
		size_t len;
		void *p;
		int pr = poll(&pfd, 1, left_ms(deadline_us, 1000));

		if (pr <= 0) {
			if (sc_now_us() < deadline_us)
				continue;
			why(sc, "bootstrap: rank 0 at %s:%d took the connection "
			    "but never answered", host, port);
			sc->timed_out = true;
			return -1;
		}
		if (recv_frame(sc->hub_fd, &type, &p, &len) < 0) {
			why(sc, "bootstrap: rank 0 at %s:%d closed the "
			    "connection (another job on that port, or a rank "
			    "number used twice?)", host, port);
			return -1;
		}
		free(p);
		if (type == SC_WELCOME)
			return 0;
	}
}

/* Copies the host table; returns 0, or -1 on no memory. */
int sc_set_hosts(struct sc *sc, const char (*hosts)[64])
{
	free(sc->hosts);
	sc->hosts = calloc((size_t)sc->nprocs, sizeof(*sc->hosts));
	if (sc->hosts == NULL)
		return -1;
	memcpy(sc->hosts, hosts, (size_t)sc->nprocs * sizeof(*sc->hosts));
	for (int i = 0; i < sc->nprocs; i++)
		sc->hosts[i][63] = '\0';
	return 0;
}

/* The hub marks a process lost and tells the others. */
static void hub_lost(struct sc *sc, int r, const char *what)
{
	char wb[96], msg[256];

	if (!sc->peers[r].alive)
		return;
	sc->peers[r].alive = false;
	close(sc->peers[r].fd);
	sc->peers[r].fd = -1;
	snprintf(msg, sizeof(msg), "%s was lost at step %u: %s",
		 who(sc, r, wb, sizeof(wb)), sc->peers[r].step, what);
	why(sc, "%s", msg);
	for (int i = 1; i < sc->nprocs; i++)
		if (sc->peers[i].alive)
			send_frame(sc->peers[i].fd, SC_ABORT, msg, strlen(msg));
}

/* Sends the arrival table to one process. */
static void hub_send_table(struct sc *sc, int to)
{
	size_t n = (size_t)sc->nprocs * 5;
	unsigned char *b = malloc(n);

	if (b == NULL)
		return;
	for (int i = 0; i < sc->nprocs; i++) {
		uint32_t s = htonl(i == 0 ? sc->my_step : sc->peers[i].step);

		memcpy(b + i * 5, &s, 4);
		b[i * 5 + 4] = i == 0 ? 1 : sc->peers[i].alive;
	}
	send_frame(sc->peers[to].fd, SC_TABLE, b, n);
	free(b);
}

/* Handles one frame from process r at the hub. */
static void hub_frame(struct sc *sc, int r, uint32_t type, void *p,
		      size_t len)
{
	struct sc_peer *pe = &sc->peers[r];
	char msg[512];

	switch (type) {
	case SC_CONTRIB:
		free(pe->contrib);
		pe->contrib = p;
		pe->contrib_len = len;
		pe->has_contrib = true;
		return; /* keeps p */
	case SC_ARRIVE:
		if (len == 4) {
			uint32_t s;

			memcpy(&s, p, 4);
			pe->step = ntohl(s);
		}
		break;
	case SC_QUERY:
		hub_send_table(sc, r);
		break;
	case SC_ABORT:
		snprintf(msg, sizeof(msg), "%.*s", (int)len, (char *)p);
		if (!sc->failed)
			sc->from_peer = true;
		why(sc, "%s", msg);
		for (int i = 1; i < sc->nprocs; i++)
			if (i != r && sc->peers[i].alive)
				send_frame(sc->peers[i].fd, SC_ABORT, msg,
					   strlen(msg));
		break;
	default:
		break;
	}
	free(p);
}

/* Client side: handles one frame from the hub. */
static void client_frame(struct sc *sc, uint32_t type, void *p, size_t len)
{
	switch (type) {
	case SC_RESULT:
		free(sc->result);
		sc->result = p;
		sc->result_len = len;
		sc->have_result = true;
		return;
	case SC_TABLE:
		if (len == (size_t)sc->nprocs * 5) {
			unsigned char *b = p;

			for (int i = 0; i < sc->nprocs; i++) {
				uint32_t s;

				memcpy(&s, b + i * 5, 4);
				sc->table_step[i] = ntohl(s);
				sc->table_alive[i] = b[i * 5 + 4];
			}
			sc->have_table = true;
		}
		break;
	case SC_ABORT:
		if (!sc->failed)
			sc->from_peer = true;
		why(sc, "%.*s", (int)len, (char *)p);
		break;
	default:
		break;
	}
	free(p);
}

/* Services the channel for up to wait_ms. Returns 0, or -1 once failed. */
static int service(struct sc *sc, int wait_ms)
{
	struct pollfd pf[SC_MAX_PROCS];
	int map[SC_MAX_PROCS], n = 0;
	char wb[96];

	if (sc->rank == 0) {
		for (int i = 1; i < sc->nprocs; i++)
			if (sc->peers[i].alive) {
				pf[n].fd = sc->peers[i].fd;
				pf[n].events = POLLIN;
				map[n++] = i;
			}
	} else if (sc->hub_fd >= 0) {
		pf[0].fd = sc->hub_fd;
		pf[0].events = POLLIN;
		map[n++] = 0;
	}
	if (n == 0) {
		if (wait_ms > 0)
			usleep((useconds_t)wait_ms * 1000);
		return sc->failed ? -1 : 0;
	}
	if (poll(pf, (nfds_t)n, wait_ms) <= 0)
		return sc->failed ? -1 : 0;
	for (int k = 0; k < n; k++) {
		uint32_t type;
		size_t len;
		void *p;

		if (pf[k].revents == 0)
			continue;
		if (recv_frame(pf[k].fd, &type, &p, &len) < 0) {
			if (sc->rank == 0) {
				hub_lost(sc, map[k], errno == ETIMEDOUT ?
						     "frame cut short" :
						     "connection closed");
			} else {
				why(sc, "%s was lost: connection closed",
				    who(sc, 0, wb, sizeof(wb)));
				close(sc->hub_fd);
				sc->hub_fd = -1;
			}
			continue;
		}
		if (sc->rank == 0)
			hub_frame(sc, map[k], type, p, len);
		else
			client_frame(sc, type, p, len);
	}
	return sc->failed ? -1 : 0;
}

/* Non-blocking service of the channel; -1 once the run has failed. */
int sc_poll(struct sc *sc)
{
	if (sc->nprocs <= 1)
		return sc->failed ? -1 : 0;
	return service(sc, 0);
}

/* The hub collects, then sends everyone the whole table. */
int sc_allgather(struct sc *sc, const void *mine, size_t len, void *all,
		 long long deadline_us)
{
	char *out = all;

	memcpy(out + (size_t)sc->rank * len, mine, len);
	if (sc->nprocs <= 1)
		return 0;
	if (sc->failed)
		return -1;
	if (sc->rank != 0) {
		if (send_frame(sc->hub_fd, SC_CONTRIB, mine, len) < 0) {
			why(sc, "bootstrap: rank 0 unreachable: %s",
			    strerror(errno));
			return -1;
		}
		while (!sc->have_result) {
			if (service(sc, left_ms(deadline_us, 50)) < 0)
				return -1;
			if (!sc->have_result && sc_now_us() >= deadline_us) {
				why(sc, "rank 0 did not complete the exchange "
				    "in time");
				sc->timed_out = true;
				return -1;
			}
		}
		sc->have_result = false;
		if (sc->result_len != (size_t)sc->nprocs * len) {
			why(sc, "bootstrap: rank 0 sent %zu bytes, expected "
			    "%zu (different ncclcheck versions?)",
			    sc->result_len, (size_t)sc->nprocs * len);
			return -1;
		}
		memcpy(all, sc->result, sc->result_len);
		return 0;
	}
	for (;;) {
		int missing[64], nm = 0, total = 0;

		for (int i = 1; i < sc->nprocs; i++)
			if (!sc->peers[i].has_contrib) {
				total++;
				if (nm < 64)
					missing[nm++] = i;
			}
		if (total == 0)
			break;
		if (service(sc, left_ms(deadline_us, 50)) < 0)
			return -1;
		if (sc_now_us() >= deadline_us) {
			char rb[256], msg[400];

			snprintf(msg, sizeof(msg), "ranks %s had not arrived "
				 "at the exchange after the deadline",
				 sc_ranges(missing, nm, rb, sizeof(rb)));
			sc_abort(sc, msg);
			sc->timed_out = true;
			return -1;
		}
	}
	for (int i = 1; i < sc->nprocs; i++) {
		struct sc_peer *pe = &sc->peers[i];

		if (pe->contrib_len != len) {
			why(sc, "bootstrap: rank %d sent %zu bytes, expected "
			    "%zu (different ncclcheck versions?)", i,
			    pe->contrib_len, len);
			return -1;
		}
		memcpy(out + (size_t)i * len, pe->contrib, len);
		free(pe->contrib);
		pe->contrib = NULL;
		pe->has_contrib = false;
	}
	for (int i = 1; i < sc->nprocs; i++)
		if (send_frame(sc->peers[i].fd, SC_RESULT, all,
			       (size_t)sc->nprocs * len) < 0)
			hub_lost(sc, i, "connection closed");
	return sc->failed ? -1 : 0;
}

/* Clients send ARRIVE to the hub; the hub records its own step. */
int sc_arrive(struct sc *sc, uint32_t step)
{
	uint32_t s = htonl(step);

	sc->my_step = step;
	if (sc->rank == 0 || sc->nprocs <= 1)
		return sc_poll(sc);
	if (send_frame(sc->hub_fd, SC_ARRIVE, &s, sizeof(s)) < 0) {
		why(sc, "rank 0 was lost: %s", strerror(errno));
		return -1;
	}
	return sc_poll(sc);
}

/* Best effort: every send is bounded by IO_GRACE_US. */
void sc_abort(struct sc *sc, const char *reason)
{
	why(sc, "%s", reason);
	if (sc->rank != 0) {
		if (sc->hub_fd >= 0)
			send_frame(sc->hub_fd, SC_ABORT, reason,
				   strlen(reason));
		return;
	}
	for (int i = 1; sc->peers != NULL && i < sc->nprocs; i++)
		if (sc->peers[i].alive)
			send_frame(sc->peers[i].fd, SC_ABORT, reason,
				   strlen(reason));
}

/* Reads the arrival table (asking the hub when a client). */
int sc_describe(struct sc *sc, uint32_t step, long long deadline_us,
		char *buf, size_t len)
{
	int arrived[SC_MAX_PROCS], late[SC_MAX_PROCS], na = 0, nl = 0;
	size_t off;
	char rb[256];

	if (sc->nprocs <= 1) {
		snprintf(buf, len, "the only rank had arrived");
		return 0;
	}
	if (sc->rank == 0) {
		sc->table_step[0] = sc->my_step;
		sc->table_alive[0] = 1;
		for (int i = 1; i < sc->nprocs; i++) {
			sc->table_step[i] = sc->peers[i].step;
			sc->table_alive[i] = sc->peers[i].alive;
		}
	} else {
		sc->have_table = false;
		if (sc->hub_fd < 0 ||
		    send_frame(sc->hub_fd, SC_QUERY, NULL, 0) < 0) {
			snprintf(buf, len, "arrival table unavailable: rank 0 "
				 "is gone");
			return -1;
		}
		while (!sc->have_table && sc_now_us() < deadline_us &&
		       sc->hub_fd >= 0) {
			bool f = sc->failed;

			sc->failed = false; /* keep reading past an abort */
			service(sc, left_ms(deadline_us, 50));
			sc->failed = sc->failed || f;
		}
		if (!sc->have_table) {
			snprintf(buf, len, "arrival table unavailable: rank 0 "
				 "did not answer");
			return -1;
		}
	}
	for (int i = 0; i < sc->nprocs; i++) {
		if (sc->table_alive[i] && sc->table_step[i] >= step)
			arrived[na++] = i;
		else
			late[nl++] = i;
	}
	if (nl == 0) {
		snprintf(buf, len, "all %d ranks had arrived", sc->nprocs);
		return 0;
	}
	if (na > 0)
		off = (size_t)snprintf(buf, len, "rank%s %s had arrived; ",
				       na > 1 ? "s" : "",
				       sc_ranges(arrived, na, rb, sizeof(rb)));
	else
		off = (size_t)snprintf(buf, len, "no rank had arrived; ");
	for (int k = 0; k < nl && off < len; k++) {
		int i = late[k];
		char wb[96];

		off += (size_t)snprintf(buf + off, len - off, "%s%s %s",
					k > 0 ? ", " : "",
					who(sc, i, wb, sizeof(wb)),
					!sc->table_alive[i] ?
						"was lost (connection closed)" :
						"had not");
		if (k == 7 && nl > 8) {
			snprintf(buf + off, len > off ? len - off : 0,
				 " and %d more", nl - 8);
			break;
		}
	}
	return 0;
}

/* Closes sockets and frees; leaves the struct zeroed. */
void sc_close(struct sc *sc)
{
	if (sc->hub_fd >= 0)
		close(sc->hub_fd);
	for (int i = 1; sc->peers != NULL && i < sc->nprocs; i++) {
		if (sc->peers[i].fd >= 0)
			close(sc->peers[i].fd);
		free(sc->peers[i].contrib);
	}
	free(sc->peers);
	free(sc->hosts);
	free(sc->result);
	free(sc->table_step);
	free(sc->table_alive);
	memset(sc, 0, sizeof(*sc));
	sc->hub_fd = -1;
}

/* Compresses consecutive ranks into a-b ranges. */
char *sc_ranges(const int *ranks, int n, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && off < len; i++) {
		int j = i;

		while (j + 1 < n && ranks[j + 1] == ranks[j] + 1)
			j++;
		if (j == i)
			off += (size_t)snprintf(buf + off, len - off, "%s%d",
						off ? "," : "", ranks[i]);
		else
			off += (size_t)snprintf(buf + off, len - off, "%s%d-%d",
						off ? "," : "", ranks[i],
						ranks[j]);
		i = j;
	}
	return buf;
}
