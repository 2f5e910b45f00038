/* The watchdog's own heartbeat channel: one TCP connection from each
 * process to process 0, used only by the watchdog thread, so a process
 * whose main thread is blocked inside NCCL, CUDA or MPI still says it is
 * alive (and in which phase), and one that is stopped (SIGSTOP) or killed
 * falls silent or closes. Process 0 hears every process and tells each
 * the worst one it knows. Never waits: every call returns at once (a
 * frame started is finished within SC_IO_GRACE_US). No CUDA. */
#ifndef NC_WD_NET_H
#define NC_WD_NET_H

#include <stddef.h>

#include "bootstrap/wd_decide.h"

#define WN_BEAT 0x77640001u   /* frame type */
#define WN_ENTRY_WIRE 92      /* one nc_wd_peer on the wire */
#define WN_BEAT_WIRE (2 * WN_ENTRY_WIRE)
#define WN_EVERY_US 250000    /* a heartbeat this often, and on a phase
			       * change */
#define WN_PENDING 64         /* connections accepted, not yet named */

struct wn {
	int rank, nprocs;
	int lfd;                  /* hub: the listener, -1 none */
	int pend[WN_PENDING], npend;
	int *fds;                 /* hub: by rank; client: fds[0], the hub */
	struct nc_wd_peer *peers; /* hub: by rank; client: hub, worst */
	int npeers;
	long long sent_us;
	int sent_phase;
};

/* Process 0: takes over the listener (non-blocking accepts). Returns 0,
 * or -1 on no memory. */
int wn_open_hub(struct wn *w, int listen_fd, int nprocs, long long now);
/* Another process: takes over its connection to process 0. */
int wn_open_client(struct wn *w, int fd, int rank, int nprocs,
		   long long now);

/* wd_wire.c: one entry into WN_ENTRY_WIRE bytes at b, its age the time
 * from its last_us to now (ms, 0 to 2^31 - 1); and the inverse, a phase
 * or state out of range read as "unknown". */
void wn_entry_pack(const struct nc_wd_peer *p, long long now,
		   unsigned char *b);
void wn_entry_unpack(const unsigned char *b, long long now,
		     struct nc_wd_peer *p);

/* Packs two entries (this process, and the worst peer or rank -1) into
 * WN_BEAT_WIRE bytes; ages count from `now`. */
void wn_pack(const struct nc_wd_peer *self, const struct nc_wd_peer *worst,
	     long long now, unsigned char *b);
/* Unpacks; last_us is `now` minus the sender's age. Returns 0, or -1
 * when len is not WN_BEAT_WIRE. */
int wn_unpack(const unsigned char *b, size_t len, struct nc_wd_peer *self,
	      struct nc_wd_peer *worst, long long now);

/* One turn: accepts, reads every heartbeat waiting, marks closed
 * connections lost (or gone after done), and sends `me` when due. */
void wn_service(struct wn *w, const struct nc_wd_peer *me, long long now);

/* Closes everything; safe on a zeroed struct with fds NULL. */
void wn_close(struct wn *w);

#endif
