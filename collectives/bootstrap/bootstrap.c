/* The side channel (bootstrap.h): the hub and its clients, servicing the
 * channel, the arrival table and the heartbeat. Sockets and frames are
 * bootstrap_io.c's; the exchanges bootstrap_xchg.c's. */
#include "bootstrap/bootstrap.h"
#include "bootstrap/bootstrap_int.h"
#include "bootstrap/bootstrap_wire.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "base/sock.h"

/* Records the first failure; later ones do not overwrite it. */
void sc_why(struct sc *sc, const char *fmt, ...)
{
	va_list ap;

	if (sc->failed)
		return;
	sc->failed = true;
	va_start(ap, fmt);
	vsnprintf(sc->why, sizeof(sc->why), fmt, ap);
	va_end(ap);
}

/* The host of process r as far as this process knows it, or "". */
static const char *host_of(const struct sc *sc, int r)
{
	if (sc->hosts != NULL && sc->hosts[r][0] != '\0')
		return sc->hosts[r];
	if (r == 0 && sc->rank != 0 && sc->hub_host[0] != '\0')
		return sc->hub_host;
	return "";
}

/* "rank 3 on gpu-b", or "rank 3" while the host is unknown. */
static const char *who(const struct sc *sc, int r, char *buf, size_t len)
{
	const char *h = host_of(sc, r);

	if (h[0] != '\0')
		snprintf(buf, len, "rank %d on %s", r, h);
	else
		snprintf(buf, len, "rank %d", r);
	return buf;
}

/* Allocates the per-process tables. */
static int sc_alloc(struct sc *sc, int rank, int nprocs)
{
	memset(sc, 0, sizeof(*sc));
	sc->hub_fd = -1;
	sc->rank = rank;
	sc->nprocs = nprocs;
	sc->table = calloc((size_t)nprocs, SC_TABLE_ENTRY);
	if (rank == 0)
		sc->peers = calloc((size_t)nprocs, sizeof(*sc->peers));
	if (sc->table == NULL || (rank == 0 && sc->peers == NULL))
		return -1;
	for (int i = 0; rank == 0 && i < nprocs; i++)
		sc->peers[i].fd = -1;
	sc->hb_sent_us = mono_now_us();
	sc->hub_last_us = sc->hb_sent_us;
	return 0;
}

/* Without a hook: the plain hub. */
int sc_hub_open(struct sc *sc, int listen_fd, int nprocs, const char *host,
		long long deadline_us)
{
	return sc_hub_open_idle(sc, listen_fd, nprocs, host, deadline_us, NULL,
				NULL);
}

/* Accepts until every rank said hello; strays are closed, impostors fail;
 * idle (when set) runs every few milliseconds meanwhile. */
int sc_hub_open_idle(struct sc *sc, int listen_fd, int nprocs,
		     const char *host, long long deadline_us,
		     void (*idle)(void *), void *arg)
{
	char hb[64] = "";
	int joined = 1, one = 1;

	if (nprocs < 1 || nprocs > SC_MAX_PROCS || sc_alloc(sc, 0, nprocs)) {
		sc_why(sc, "bootstrap: bad process count %d or no memory", nprocs);
		return -1;
	}
	snprintf(hb, sizeof(hb), "%s", host != NULL ? host : "");
	sc->peers[0].alive = true;
	while (joined < nprocs) {
		struct pollfd pfd = { .fd = listen_fd, .events = POLLIN };
		struct sc_hello h;
		uint32_t type;
		void *p;
		size_t len;
		int fd, r, pr = poll(&pfd, 1, mono_left_ms(deadline_us,
							  idle ? 5 : 1000));

		if (idle != NULL)
			idle(arg);
		if (pr <= 0) {
			if (mono_now_us() < deadline_us)
				continue;
			int missing[64], nm = 0;
			char rb[256];

			for (int i = 1; i < nprocs && nm < 64; i++)
				if (!sc->peers[i].alive)
					missing[nm++] = i;
			sc_why(sc, "bootstrap: ranks %s never connected to rank 0 "
			    "(%d of %d joined)",
			    sc_ranges(missing, nm, rb, sizeof(rb)), joined,
			    nprocs);
			sc->timed_out = true;
			return -1;
		}
		fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		if (sc_recv_frame(fd, &type, &p, &len) < 0 ||
		    type != SC_HELLO || sc_hello_unpack(p, len, &h) < 0) {
			free(p);
			close(fd); /* a stray connection: not one of ours */
			continue;
		}
		r = (int)h.rank;
		if ((int)h.nprocs != nprocs || r < 1 || r >= nprocs ||
		    sc->peers[r].alive) {
			sc_why(sc, "bootstrap: a process says it is rank %d of %u "
			    "but rank 0 expects %d processes%s", r,
			    h.nprocs, nprocs,
			    r >= 1 && r < nprocs && sc->peers[r].alive ?
				    " and that rank already joined" : "");
			free(p);
			close(fd);
			return -1;
		}
		free(p);
		if (sc_send_frame(fd, SC_WELCOME, hb, sizeof(hb),
				  mono_now_us() + SC_IO_GRACE_US) < 0) {
			close(fd);
			continue;
		}
		sc->peers[r].fd = fd;
		sc->peers[r].alive = true;
		sc->peers[r].last_us = mono_now_us();
		joined++;
	}
	return 0;
}

/* Retries refused connects every 100 ms until the deadline. */
int sc_client_open(struct sc *sc, const char *host, int port, int rank,
		   int nprocs, long long deadline_us)
{
	struct sc_hello h = { (uint32_t)rank, (uint32_t)nprocs };
	unsigned char hello[SC_HELLO_WIRE];
	int e = 0;

	if (nprocs < 2 || nprocs > SC_MAX_PROCS || rank < 1 ||
	    rank >= nprocs || sc_alloc(sc, rank, nprocs)) {
		sc_why(sc, "bootstrap: bad rank %d of %d", rank, nprocs);
		return -1;
	}
	sc_hello_pack(&h, hello);
	while (sc->hub_fd < 0) {
		long long now = mono_now_us();
		long long dl = now + 2000000 < deadline_us ? now + 2000000 :
							    deadline_us;

		sc->hub_fd = sc_connect(host, port, dl);
		if (sc->hub_fd >= 0)
			break;
		e = errno;
		if (mono_now_us() >= deadline_us) {
			sc_why(sc, "bootstrap: cannot reach rank 0 at %s:%d: %s",
			    host, port, strerror(e));
			sc->timed_out = true;
			return -1;
		}
		usleep(100000); /* rank 0 may not listen yet */
	}
	if (sc_send_frame(sc->hub_fd, SC_HELLO, hello, sizeof(hello),
			  deadline_us) < 0) {
		sc_why(sc, "bootstrap: hello to rank 0 at %s:%d: %s", host, port,
		    strerror(errno));
		return -1;
	}
	for (;;) {
		uint32_t type;
		size_t len;
		void *p;

		if (sock_wait(sc->hub_fd, POLLIN, deadline_us) <= 0) {
			sc_why(sc, "bootstrap: rank 0 at %s:%d took the connection "
			    "but never answered", host, port);
			sc->timed_out = true;
			return -1;
		}
		if (sc_recv_frame(sc->hub_fd, &type, &p, &len) < 0) {
			sc_why(sc, "bootstrap: rank 0 at %s:%d closed the "
			    "connection (another job on that port, or a rank "
			    "number used twice?)", host, port);
			return -1;
		}
		if (type == SC_WELCOME && len == sizeof(sc->hub_host)) {
			memcpy(sc->hub_host, p, len);
			sc->hub_host[sizeof(sc->hub_host) - 1] = '\0';
		}
		free(p);
		if (type == SC_WELCOME) {
			sc->hub_last_us = mono_now_us();
			return 0;
		}
	}
}

/* Copies the host table. */
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

/* Sends one frame to every live client, all within one deadline, so a
 * thousand slow peers cannot stretch the loop a thousand times. */
static void hub_send_all(struct sc *sc, uint32_t type, const void *p,
			 size_t len, int except)
{
	long long dl = mono_now_us() + SC_IO_GRACE_US;

	for (int i = 1; i < sc->nprocs; i++)
		if (i != except && sc->peers[i].alive)
			sc_send_frame(sc->peers[i].fd, type, p, len, dl);
}

/* The hub marks a process lost and tells the others. */
void sc_hub_lost(struct sc *sc, int r, const char *what)
{
	char wb[96], msg[256];

	if (!sc->peers[r].alive)
		return;
	sc->peers[r].alive = false;
	close(sc->peers[r].fd);
	sc->peers[r].fd = -1;
	snprintf(msg, sizeof(msg), "%s was lost at step %u: %s",
		 who(sc, r, wb, sizeof(wb)), sc->peers[r].step, what);
	sc_why(sc, "%s", msg);
	hub_send_all(sc, SC_ABORT, msg, strlen(msg), -1);
}

/* Milliseconds since the hub last heard from process i (0 for itself). */
static uint32_t hub_silent_ms(const struct sc *sc, int i, long long now)
{
	long long d;

	if (i == 0)
		return 0;
	d = (now - sc->peers[i].last_us) / 1000;
	return d < 0 ? 0 : d > 0xffffffffLL ? 0xffffffffu : (uint32_t)d;
}

/* Fills the hub's own table (the format of SC_TABLE). */
static void hub_fill_table(struct sc *sc)
{
	long long now = mono_now_us();

	for (int i = 0; i < sc->nprocs; i++) {
		struct sc_entry e = {
			.step = i == 0 ? sc->my_step : sc->peers[i].step,
			.alive = i == 0 ? 1 : sc->peers[i].alive,
			.silent_ms = hub_silent_ms(sc, i, now),
		};

		snprintf(e.host, sizeof(e.host), "%s", host_of(sc, i));
		sc_entry_pack(&e, sc->table + (size_t)i * SC_TABLE_ENTRY);
	}
}

/* Handles one frame from process r at the hub. */
static void hub_frame(struct sc *sc, int r, uint32_t type, void *p,
		      size_t len)
{
	struct sc_peer *pe = &sc->peers[r];
	struct sc_msg *m;
	char msg[512];

	pe->last_us = mono_now_us();
	switch (type) {
	case SC_CONTRIB:
		m = calloc(1, sizeof(*m));
		if (m == NULL)
			break;
		m->p = p;
		m->len = len;
		if (pe->q_tail != NULL)
			pe->q_tail->next = m;
		else
			pe->q = m;
		pe->q_tail = m;
		return; /* keeps p */
	case SC_ARRIVE:
		if (len == SC_U32_WIRE)
			pe->step = sc_u32_unpack(p);
		break;
	case SC_QUERY:
		hub_fill_table(sc);
		sc_send_frame(pe->fd, SC_TABLE, sc->table,
			      (size_t)sc->nprocs * SC_TABLE_ENTRY,
			      mono_now_us() + SC_IO_GRACE_US);
		break;
	case SC_ABORT:
		snprintf(msg, sizeof(msg), "%.*s", (int)len, (char *)p);
		if (!sc->failed)
			sc->from_peer = true;
		sc_why(sc, "%s", msg);
		hub_send_all(sc, SC_ABORT, msg, strlen(msg), r);
		break;
	default: /* SC_ALIVE: the time above is all it says */
		break;
	}
	free(p);
}

/* Client side: handles one frame from the hub. */
static void client_frame(struct sc *sc, uint32_t type, void *p, size_t len)
{
	sc->hub_last_us = mono_now_us();
	switch (type) {
	case SC_RESULT:
		free(sc->result);
		sc->result = p;
		sc->result_len = len;
		sc->have_result = true;
		return;
	case SC_TABLE:
		if (len == (size_t)sc->nprocs * SC_TABLE_ENTRY) {
			memcpy(sc->table, p, len);
			sc->have_table = true;
		}
		break;
	case SC_ABORT:
		if (!sc->failed)
			sc->from_peer = true;
		sc_why(sc, "%.*s", (int)len, (char *)p);
		break;
	default:
		break;
	}
	free(p);
}

/* Both ways, a few times a second, from whatever loop services the
 * channel: a process that stops servicing it (frozen, stopped, stuck in
 * the driver) falls silent and is named. Never waits. */
static void heartbeat(struct sc *sc)
{
	long long now = mono_now_us();

	if (now - sc->hb_sent_us < SC_HEARTBEAT_US)
		return;
	sc->hb_sent_us = now;
	if (sc->rank != 0) {
		if (sc->hub_fd >= 0)
			sc_try_send_frame(sc->hub_fd, SC_ALIVE, NULL, 0);
		return;
	}
	for (int i = 1; i < sc->nprocs; i++)
		if (sc->peers[i].alive)
			sc_try_send_frame(sc->peers[i].fd, SC_ALIVE, NULL, 0);
}

/* Services the channel for up to wait_ms. Returns 0, or -1 once failed. */
int sc_service(struct sc *sc, int wait_ms)
{
	struct pollfd pf[SC_MAX_PROCS];
	int map[SC_MAX_PROCS], n = 0;
	char wb[96];

	heartbeat(sc);
	if (sc->rank == 0) {
		for (int i = 1; i < sc->nprocs; i++)
			if (sc->peers[i].alive) {
				pf[n].fd = sc->peers[i].fd;
				pf[n].events = POLLIN;
				pf[n].revents = 0;
				map[n++] = i;
			}
	} else if (sc->hub_fd >= 0) {
		pf[0].fd = sc->hub_fd;
		pf[0].events = POLLIN;
		pf[0].revents = 0;
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
		if (sc_recv_frame(pf[k].fd, &type, &p, &len) < 0) {
			if (sc->rank == 0) {
				sc_hub_lost(sc, map[k], errno == ETIMEDOUT ?
						     "frame cut short" :
						     "connection closed");
			} else {
				sc_why(sc, "%s was lost: connection closed",
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
	return sc_service(sc, 0);
}

/* Clients send ARRIVE to the hub; the hub records its own step. */
int sc_arrive(struct sc *sc, uint32_t step)
{
	unsigned char s[SC_U32_WIRE];

	sc_u32_pack(step, s);
	sc->my_step = step;
	if (sc->rank == 0 || sc->nprocs <= 1)
		return sc_poll(sc);
	if (sc_send_frame(sc->hub_fd, SC_ARRIVE, s, sizeof(s),
			  mono_now_us() + SC_IO_GRACE_US) < 0) {
		sc_why(sc, "rank 0 was lost: %s", strerror(errno));
		return -1;
	}
	return sc_poll(sc);
}

/* Best effort, bounded by one grace period in all. */
void sc_abort(struct sc *sc, const char *reason)
{
	sc_why(sc, "%s", reason);
	if (sc->rank != 0) {
		if (sc->hub_fd >= 0)
			sc_send_frame(sc->hub_fd, SC_ABORT, reason,
				      strlen(reason),
				      mono_now_us() + SC_IO_GRACE_US);
		return;
	}
	if (sc->peers != NULL)
		hub_send_all(sc, SC_ABORT, reason, strlen(reason), -1);
}

/* Asks the hub for its table; false when it does not answer in time. */
static bool client_table(struct sc *sc, long long deadline_us)
{
	sc->have_table = false;
	if (sc->hub_fd < 0 ||
	    sc_send_frame(sc->hub_fd, SC_QUERY, NULL, 0,
			  mono_now_us() + SC_IO_GRACE_US) < 0)
		return false;
	while (!sc->have_table && mono_now_us() < deadline_us &&
	       sc->hub_fd >= 0) {
		bool f = sc->failed;

		sc->failed = false; /* keep reading past an abort */
		sc_service(sc, mono_left_ms(deadline_us, 50));
		sc->failed = sc->failed || f;
	}
	return sc->have_table;
}

/* Appends "rank R on H stopped responding S s ago" to silent. */
static void add_silent(const struct sc *sc, int r, const char *host,
		       double secs, char *silent, size_t slen, int *ns)
{
	size_t off = strlen(silent);
	char wb[96];

	(void)sc;
	if (host[0] != '\0')
		snprintf(wb, sizeof(wb), "rank %d on %s", r, host);
	else
		snprintf(wb, sizeof(wb), "rank %d", r);
	if (*ns == 4) {
		snprintf(silent + off, slen - off, " and more");
	} else if (*ns < 4 && off < slen) {
		snprintf(silent + off, slen - off, "%s%s stopped responding "
			 "%.1f s ago", *ns ? ", " : "", wb, secs);
	}
	(*ns)++;
}

/* Reads the arrival table (asking the hub when a client). */
int sc_describe(struct sc *sc, uint32_t step, long long deadline_us,
		char *buf, size_t len, char *silent, size_t slen)
{
	int arrived[SC_MAX_PROCS], late[SC_MAX_PROCS], na = 0, nl = 0, ns = 0;
	size_t off;
	char rb[256];

	silent[0] = '\0';
	if (sc->nprocs <= 1) {
		snprintf(buf, len, "the only rank had arrived");
		return 0;
	}
	if (sc->rank == 0) {
		hub_fill_table(sc);
	} else if (!client_table(sc, deadline_us)) {
		double s = (double)(mono_now_us() - sc->hub_last_us) / 1e6;

		if (sc->hub_fd >= 0 && s * 1e6 >= SC_SILENT_US)
			add_silent(sc, 0, sc->hub_host, s, silent, slen, &ns);
		snprintf(buf, len, "arrival table unavailable: rank 0 %s",
			 sc->hub_fd < 0 ? "is gone" : "did not answer");
		return -1;
	}
	for (int i = 0; i < sc->nprocs; i++) {
		struct sc_entry e;

		sc_entry_unpack(sc->table + (size_t)i * SC_TABLE_ENTRY, &e);
		if (e.alive && e.step >= step)
			arrived[na++] = i;
		else
			late[nl++] = i;
		if (e.alive && i != sc->rank &&
		    e.silent_ms * 1000ULL >= SC_SILENT_US)
			add_silent(sc, i, e.host, e.silent_ms / 1000.0, silent,
				   slen, &ns);
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
		struct sc_entry e;
		char wb[96];

		sc_entry_unpack(sc->table + (size_t)i * SC_TABLE_ENTRY, &e);
		if (e.host[0] != '\0')
			snprintf(wb, sizeof(wb), "rank %d on %.63s", i, e.host);
		else
			who(sc, i, wb, sizeof(wb));
		off += (size_t)snprintf(buf + off, len - off, "%s%s %s",
					k > 0 ? ", " : "", wb,
					!e.alive ? "was lost (connection closed)" :
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
		struct sc_msg *m = sc->peers[i].q;

		if (sc->peers[i].fd >= 0)
			close(sc->peers[i].fd);
		while (m != NULL) {
			struct sc_msg *nx = m->next;

			free(m->p);
			free(m);
			m = nx;
		}
	}
	free(sc->peers);
	free(sc->hosts);
	free(sc->result);
	free(sc->table);
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
