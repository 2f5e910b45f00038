/* ncclcheck's own side channel: a TCP star around process 0 (the hub)
 * that shares the NCCL unique id, gathers what rank 0 needs, sends back
 * what each process needs, keeps an arrival table and a heartbeat, so
 * every wait is bounded and a lost or frozen peer is named. Used in every
 * launch mode (MPI only tells the others where process 0 is), so no
 * blocking MPI call happens once NCCL runs. Traffic is O(N) per exchange:
 * the hub never sends every process's data to every process. No CUDA. */
#ifndef NC_BOOTSTRAP_H
#define NC_BOOTSTRAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bootstrap/bootstrap_io.h"

#define SC_MAX_PROCS 4096
#define SC_HEARTBEAT_US 250000 /* while waiting, each side says so */
#define SC_SILENT_US 3000000   /* no word for this long: not responding */

enum sc_type {
	SC_HELLO = 1,   /* u32 rank, u32 nprocs */
	SC_WELCOME,     /* the hub took the hello: its host, 64 bytes */
	SC_CONTRIB,     /* this process's part of a gather */
	SC_RESULT,      /* what the hub sends one process (scatter, bcast) */
	SC_ARRIVE,      /* u32 step: this process started that step */
	SC_QUERY,       /* asks the hub for the arrival table */
	SC_TABLE,       /* nprocs x SC_TABLE_ENTRY bytes */
	SC_ABORT,       /* text: why everyone must stop */
	SC_ALIVE,       /* empty: heartbeat */
};

/* u32 step, u8 alive, u32 milliseconds since last heard, host[64] */
#define SC_TABLE_ENTRY 73

struct sc_msg {
	struct sc_msg *next;
	void *p;
	size_t len;
};

struct sc_peer {
	int fd;          /* hub's connection to that process, -1 none */
	bool alive;
	uint32_t step;   /* last step it arrived at (0 none) */
	long long last_us; /* when the hub last heard from it */
	struct sc_msg *q, *q_tail; /* contributions not yet gathered */
};

struct sc {
	int rank, nprocs;
	int hub_fd;              /* clients: connection to process 0 */
	struct sc_peer *peers;   /* hub: one per process */
	char (*hosts)[64];       /* host of each process, once known */
	char hub_host[64];       /* clients: the hub's host (welcome) */
	uint32_t my_step;
	long long hb_sent_us;    /* last heartbeat this side sent */
	long long hub_last_us;   /* clients: last heard from the hub */
	/* set when a peer was lost, the hub aborted, or a wait timed out */
	bool failed;
	bool timed_out;
	bool from_peer;          /* the failure is another rank's ABORT */
	char why[512];
	/* client-side receipts */
	void *result;
	size_t result_len;
	bool have_result;
	bool have_table;
	unsigned char *table;    /* nprocs x SC_TABLE_ENTRY */
};

/* The hub: takes nprocs-1 hellos on listen_fd before deadline. host: this
 * process's host name (sent to every client). Returns 0, or -1 with
 * sc->why naming the ranks that never connected. */
int sc_hub_open(struct sc *sc, int listen_fd, int nprocs, const char *host,
		long long deadline_us);
/* The same, calling idle(arg) every few milliseconds while it waits (the
 * MPI broadcast of the hub's address still needs progress). */
int sc_hub_open_idle(struct sc *sc, int listen_fd, int nprocs,
		     const char *host, long long deadline_us,
		     void (*idle)(void *), void *arg);

/* A client: connects to the hub (retrying refusals) and says hello.
 * Returns 0, or -1 with sc->why set. */
int sc_client_open(struct sc *sc, const char *host, int port, int rank,
		   int nprocs, long long deadline_us);

/* Records the host of every process (for messages). hosts: nprocs x 64.
 * Returns 0, or -1 on no memory. */
int sc_set_hosts(struct sc *sc, const char (*hosts)[64]);

/* Every process sends len bytes to the hub; the hub's `all` (nprocs x
 * len) receives every part in rank order; a client's `all` is unused
 * (may be NULL) and the client does not wait. Returns 0, or -1 with
 * sc->why (a lost peer, an abort, the deadline naming who was missing,
 * or a part of the wrong length). */
int sc_gather(struct sc *sc, const void *mine, size_t len, void *all,
	      long long deadline_us);

/* The hub sends parts[p] (lens[p] bytes) to each process p and keeps
 * parts[0]; each process gets its part in a malloc'd *mine (NULL when
 * empty) of *mylen bytes. Clients ignore parts and lens. Returns 0, or
 * -1 with sc->why. */
int sc_scatterv(struct sc *sc, const void *const *parts, const size_t *lens,
		void **mine, size_t *mylen, long long deadline_us);

/* The hub's len bytes of buf go to every process, whose buf must expect
 * exactly len. Returns 0, or -1 with sc->why. */
int sc_bcast(struct sc *sc, void *buf, size_t len, long long deadline_us);

/* Every process waits for every other. Returns 0, or -1 with sc->why. */
int sc_barrier(struct sc *sc, long long deadline_us);

/* Announces that this process started step `step` (1, 2, ...). */
int sc_arrive(struct sc *sc, uint32_t step);

/* Services the channel without waiting (heartbeats go out, frames come
 * in): returns 0, or -1 when a peer was lost or the hub aborted
 * (sc->why says which). For polling loops. */
int sc_poll(struct sc *sc);

/* Tells everyone to stop, with a reason (clients tell the hub, which
 * passes it on). Best effort, bounded. */
void sc_abort(struct sc *sc, const char *why);

/* Fetches the arrival table (the hub's own, or asked of the hub before
 * the deadline) and describes who had arrived at `step` in buf: "ranks
 * 0-1,3 had arrived; rank 2 on gpu-b had not (connection closed)". Into
 * silent: who stopped responding, "rank 1 on gpu-b stopped responding
 * 10.0 s ago" ("" when every rank answers). Returns 0, or -1 when the hub
 * did not answer (buf says so; silent then names the hub when it has
 * been silent). */
int sc_describe(struct sc *sc, uint32_t step, long long deadline_us,
		char *buf, size_t len, char *silent, size_t slen);

/* Closes everything and frees. Safe on a zeroed struct. */
void sc_close(struct sc *sc);

/* Formats a sorted list of ranks as ranges: "0-2,5". Returns buf. */
char *sc_ranges(const int *ranks, int n, char *buf, size_t len);

#endif
