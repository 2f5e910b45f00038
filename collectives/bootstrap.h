/* ncclcheck's own side channel: a TCP star around process 0 that shares
 * the NCCL unique id and the rank table, gathers results, and keeps an
 * arrival table, so every wait is bounded and a lost peer is named. Used
 * in every launch mode (MPI only tells the others where process 0 is), so
 * no blocking MPI call happens once NCCL runs. No CUDA, no NCCL. */
#ifndef NC_BOOTSTRAP_H
#define NC_BOOTSTRAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SC_MAX_PROCS 4096

enum sc_type {
	SC_HELLO = 1,   /* u32 rank, u32 nprocs */
	SC_WELCOME,     /* empty: the hub took the hello */
	SC_CONTRIB,     /* this process's part of an allgather */
	SC_RESULT,      /* every process's part, in rank order */
	SC_ARRIVE,      /* u32 step: this process started that step */
	SC_QUERY,       /* asks the hub for the arrival table */
	SC_TABLE,       /* nprocs x {u32 step, u8 alive} */
	SC_ABORT,       /* text: why everyone must stop */
};

struct sc_peer {
	int fd;          /* hub's connection to that process, -1 none */
	bool alive;
	bool has_contrib;
	uint32_t step;   /* last step it arrived at (0 none) */
	void *contrib;
	size_t contrib_len;
};

struct sc {
	int rank, nprocs;
	int hub_fd;              /* clients: connection to process 0 */
	struct sc_peer *peers;   /* hub: one per process */
	char (*hosts)[64];       /* host of each process, once known */
	uint32_t my_step;
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
	uint32_t *table_step;
	uint8_t *table_alive;
};

/* Microseconds of CLOCK_MONOTONIC. */
long long sc_now_us(void);

/* Opens a TCP listener on addr ("0.0.0.0", "::", or an address) and port
 * (0: ephemeral). Returns the socket and the bound port in *bound, or -1
 * with errno kept. */
int sc_listen(const char *addr, int port, int *bound);

/* Connects to host:port before deadline_us (absolute, sc_now_us clock).
 * Returns the socket, or -1 with errno (ETIMEDOUT, ECONNREFUSED...). */
int sc_connect(const char *host, int port, long long deadline_us);

/* The hub: takes nprocs-1 hellos on listen_fd before deadline. Returns 0,
 * or -1 with sc->why naming the ranks that never connected. */
int sc_hub_open(struct sc *sc, int listen_fd, int nprocs,
		long long deadline_us);

/* A client: connects to the hub (retrying refusals) and says hello.
 * Returns 0, or -1 with sc->why set. */
int sc_client_open(struct sc *sc, const char *host, int port, int rank,
		   int nprocs, long long deadline_us);

/* Records the host of every process (for messages). hosts: nprocs x 64. */
int sc_set_hosts(struct sc *sc, const char (*hosts)[64]);

/* Every process contributes len bytes; all (nprocs x len) receives every
 * part in rank order. Returns 0, or -1 with sc->why (a lost peer, an abort
 * from the hub, or the deadline with the ranks that had not arrived). */
int sc_allgather(struct sc *sc, const void *mine, size_t len, void *all,
		 long long deadline_us);

/* Announces that this process started step `step` (1, 2, ...). */
int sc_arrive(struct sc *sc, uint32_t step);

/* Services the channel without waiting: returns 0, or -1 when a peer was
 * lost or the hub aborted (sc->why says which). For polling loops. */
int sc_poll(struct sc *sc);

/* Tells everyone to stop, with a reason (clients tell the hub, which
 * passes it on). Best effort, bounded. */
void sc_abort(struct sc *sc, const char *why);

/* Fetches the arrival table (the hub's own, or asked of the hub before the
 * deadline) and describes who had arrived at `step`: "ranks 0-1,3 had
 * arrived; rank 2 on gpu-b had not (connection closed)". Returns 0, or -1
 * when the hub did not answer (buf says so). */
int sc_describe(struct sc *sc, uint32_t step, long long deadline_us,
		char *buf, size_t len);

/* Closes everything and frees. Safe on a zeroed struct. */
void sc_close(struct sc *sc);

/* Formats a sorted list of ranks as ranges: "0-2,5". Returns buf. */
char *sc_ranges(const int *ranks, int n, char *buf, size_t len);

#endif
