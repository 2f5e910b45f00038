/* The watchdog's heartbeat channel (wd_net.h). */
#include "bootstrap/wd_net.h"
#include "bootstrap/bootstrap_io.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* A peer nobody heard of yet. */
static void unheard(struct nc_wd_peer *p, int rank)
{
	memset(p, 0, sizeof(*p));
	p->rank = rank;
	p->gpu = -1;
	p->state = NC_WD_UNHEARD;
}

/* Allocates the tables of either side. */
static int wn_alloc(struct wn *w, int rank, int nprocs, int npeers,
		    long long now)
{
	memset(w, 0, sizeof(*w));
	w->lfd = -1;
	w->rank = rank;
	w->nprocs = nprocs;
	w->npeers = npeers;
	w->fds = malloc((size_t)npeers * sizeof(*w->fds));
	w->peers = calloc((size_t)npeers, sizeof(*w->peers));
	if (w->fds == NULL || w->peers == NULL) {
		free(w->fds);
		free(w->peers);
		w->fds = NULL;
		w->peers = NULL;
		return -1;
	}
	for (int i = 0; i < npeers; i++) {
		w->fds[i] = -1;
		unheard(&w->peers[i], rank == 0 ? i : i == 0 ? 0 : -1);
	}
	w->sent_us = now - WN_EVERY_US;
	w->sent_phase = -1;
	return 0;
}

/* Process 0 accepts without waiting from here on. */
int wn_open_hub(struct wn *w, int listen_fd, int nprocs, long long now)
{
	if (nprocs < 1 || wn_alloc(w, 0, nprocs, nprocs, now) < 0)
		return -1;
	w->lfd = listen_fd;
	if (listen_fd >= 0)
		fcntl(listen_fd, F_SETFL,
		      fcntl(listen_fd, F_GETFL) | O_NONBLOCK);
	return 0;
}

/* The client's one connection; peers[0] is the hub, peers[1] the worst
 * peer the hub names. */
int wn_open_client(struct wn *w, int fd, int rank, int nprocs,
		   long long now)
{
	if (wn_alloc(w, rank, nprocs, 2, now) < 0)
		return -1;
	w->fds[0] = fd;
	return 0;
}

/* Two entries, the sender's own first. */
void wn_pack(const struct nc_wd_peer *self, const struct nc_wd_peer *worst,
	     long long now, unsigned char *b)
{
	struct nc_wd_peer none;

	if (worst == NULL) {
		unheard(&none, -1);
		worst = &none;
	}
	wn_entry_pack(self, now, b);
	wn_entry_pack(worst, now, b + WN_ENTRY_WIRE);
}

/* The sender's entry is alive as of `now` minus its age (0: just now). */
int wn_unpack(const unsigned char *b, size_t len, struct nc_wd_peer *self,
	      struct nc_wd_peer *worst, long long now)
{
	if (len != WN_BEAT_WIRE)
		return -1;
	wn_entry_unpack(b, now, self);
	wn_entry_unpack(b + WN_ENTRY_WIRE, now, worst);
	return 0;
}

/* A connection closed: after "done" it is a normal end. */
static void closed(struct wn *w, int i, long long now)
{
	close(w->fds[i]);
	w->fds[i] = -1;
	w->peers[i].state = w->peers[i].phase == NC_WD_DONE ? NC_WD_GONE :
							      NC_WD_LOST;
	w->peers[i].last_us = now;
}

/* Reads one heartbeat from fd; returns 0, or -1 when the connection
 * ended or spoke nonsense. */
static int read_beat(int fd, struct nc_wd_peer *self,
		     struct nc_wd_peer *worst, long long now)
{
	uint32_t type;
	void *p;
	size_t len;
	int rc;

	if (sc_recv_frame(fd, &type, &p, &len) < 0)
		return -1;
	rc = type == WN_BEAT ? wn_unpack(p, len, self, worst, now) : -1;
	free(p);
	return rc;
}

/* The hub takes what the listener holds and names each connection by its
 * first heartbeat; a stranger is closed. */
static void hub_accept(struct wn *w, long long now)
{
	struct nc_wd_peer s, x;
	int one = 1;

	for (int k = 0; k < 16 && w->lfd >= 0 && w->npend < WN_PENDING;
	     k++) {
		int fd = accept4(w->lfd, NULL, NULL, SOCK_CLOEXEC);

		if (fd < 0)
			break;
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		w->pend[w->npend++] = fd;
	}
	for (int k = 0; k < w->npend; k++) {
		struct pollfd pf = { .fd = w->pend[k], .events = POLLIN };
		int fd = w->pend[k];

		if (poll(&pf, 1, 0) <= 0)
			continue;
		w->pend[k--] = w->pend[--w->npend];
		if (read_beat(fd, &s, &x, now) < 0 || s.rank < 1 ||
		    s.rank >= w->nprocs || w->fds[s.rank] >= 0) {
			close(fd);
			continue;
		}
		w->fds[s.rank] = fd;
		s.state = NC_WD_ALIVE;
		w->peers[s.rank] = s;
	}
}

/* Every connection that has something: heartbeats, or its end. */
static void read_all(struct wn *w, long long now)
{
	struct pollfd pf[64];
	int map[64];

	for (int base = 0; base < w->npeers; base += 64) {
		int n = 0;

		for (int i = base; i < w->npeers && i < base + 64; i++)
			if (w->fds[i] >= 0) {
				pf[n].fd = w->fds[i];
				pf[n].events = POLLIN;
				pf[n].revents = 0;
				map[n++] = i;
			}
		if (n == 0 || poll(pf, (nfds_t)n, 0) <= 0)
			continue;
		for (int k = 0; k < n; k++) {
			int i = map[k];
			struct nc_wd_peer s, x;

			if (pf[k].revents == 0)
				continue;
			/* at most a few frames a turn: a flood cannot hold
			 * the watchdog */
			for (int f = 0; f < 8 && w->fds[i] >= 0; f++) {
				struct pollfd one = { .fd = w->fds[i],
						      .events = POLLIN };

				if (f > 0 && poll(&one, 1, 0) <= 0)
					break;
				if (read_beat(w->fds[i], &s, &x, now) < 0 ||
				    (w->rank == 0 && s.rank != i)) {
					closed(w, i, now);
					break;
				}
				s.state = NC_WD_ALIVE;
				w->peers[i] = s;
				if (w->rank != 0)
					w->peers[1] = x;
			}
		}
	}
}

/* Sends `me` (and, from the hub, its worst peer) when due or when the
 * phase changed; a full socket skips the beat rather than wait. */
static void send_all(struct wn *w, const struct nc_wd_peer *me, long long now)
{
	unsigned char b[WN_BEAT_WIRE];
	int worst = -1;

	if (now - w->sent_us < WN_EVERY_US && me->phase == w->sent_phase)
		return;
	w->sent_us = now;
	w->sent_phase = me->phase;
	if (w->rank == 0) {
		w->peers[0] = *me;
		w->peers[0].state = NC_WD_ALIVE;
		w->peers[0].last_us = now;
		worst = nc_wd_worst(w->peers, w->npeers, 0, now);
	}
	wn_pack(me, worst >= 0 ? &w->peers[worst] : NULL, now, b);
	for (int i = 0; i < w->npeers; i++)
		if (w->fds[i] >= 0 &&
		    sc_try_send_frame(w->fds[i], WN_BEAT, b, sizeof(b)) < 0)
			closed(w, i, now);
}

/* Accept, read, send: never waits for a peer. */
void wn_service(struct wn *w, const struct nc_wd_peer *me, long long now)
{
	if (w->peers == NULL)
		return;
	if (w->rank == 0)
		hub_accept(w, now);
	read_all(w, now);
	send_all(w, me, now);
}

/* Closes every socket (the listener too) and frees. */
void wn_close(struct wn *w)
{
	for (int i = 0; w->fds != NULL && i < w->npeers; i++)
		if (w->fds[i] >= 0)
			close(w->fds[i]);
	for (int k = 0; k < w->npend; k++)
		close(w->pend[k]);
	if (w->lfd >= 0)
		close(w->lfd);
	free(w->fds);
	free(w->peers);
	memset(w, 0, sizeof(*w));
	w->lfd = -1;
}
