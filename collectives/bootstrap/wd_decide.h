/* The watchdog's decision, a pure function of what it knows and the time:
 * the phase of the run and its deadline, this process, the launcher's
 * word, and what the other processes' heartbeats said (wd_net.h). Given
 * a time past the deadline it says to end the process, with which exit
 * status and which message (the phase, the rank that stopped responding
 * with its host, pid and GPU, or why no rank can be named). No I/O, no
 * clock: the unit tests feed it times. */
#ifndef NC_WD_DECIDE_H
#define NC_WD_DECIDE_H

#include <stdbool.h>
#include <stddef.h>

/* The phases of a run, in order. A rank's heartbeat carries its phase. */
enum nc_wd_phase {
	NC_WD_START = 0,  /* before the launcher's wire-up */
	NC_WD_WIREUP,     /* MPI_Init (PMIx fences), torchrun's store */
	NC_WD_BOOTSTRAP,  /* the side channel opens */
	NC_WD_PREFLIGHT,
	NC_WD_SELFTEST,
	NC_WD_INIT,       /* NCCL communicator init */
	NC_WD_SWEEP,      /* warm-up and every size */
	NC_WD_PAIRS,
	NC_WD_RESULTS,    /* the result exchange and the final barrier */
	NC_WD_VERDICT,    /* the gate decided, outputs written */
	NC_WD_TEARDOWN,   /* communicator destroy, MPI_Finalize */
	NC_WD_DONE,       /* said goodbye: its connection may close */
	NC_WD_NPHASES
};

/* A process that falls silent this long is named as not responding. */
#define NC_WD_SILENT_US 3000000LL

/* What this process knows of another one. */
enum nc_wd_peer_state {
	NC_WD_UNHEARD = 0, /* no heartbeat yet */
	NC_WD_ALIVE,       /* heartbeats come (last_us says when) */
	NC_WD_LOST,        /* its connection closed before it said done */
	NC_WD_GONE,        /* said done, then closed: a normal end */
};

struct nc_wd_peer {
	int rank;          /* process rank */
	int pid, gpu;      /* gpu: first CUDA device, -1 unknown */
	int phase;         /* enum nc_wd_phase */
	unsigned step;
	int state;         /* enum nc_wd_peer_state */
	long long last_us; /* when it was last heard (or lost) */
	char host[64];
};

struct nc_wd_view {
	int phase;
	char what[256];        /* the step inside the phase, "" none */
	bool armed;
	long long deadline_us; /* ends the process past this */
	long long limit_us;    /* -T, for the message */
	int verdict_rc;        /* teardown: the exit status that stands */
	/* this process */
	int rank, nprocs, pid, gpu;
	char host[64];
	char launcher[256];    /* what the launcher said, for the wire-up */
	bool net;              /* the heartbeat channel is up */
	/* how long this process itself did not run before this turn (the
	 * watchdog's own loop stood still: SIGSTOP, a suspended node) */
	long long self_gap_us;
	/* what heartbeats said: the hub holds every process; a client its
	 * hub (peers[0]) and the hub's worst peer (peers[1], rank -1
	 * none) */
	const struct nc_wd_peer *peers;
	int npeers;
};

enum nc_wd_act { NC_WD_WAIT = 0, NC_WD_FIRE };

struct nc_wd_out {
	int act;     /* enum nc_wd_act */
	int status;  /* exit status when it fires */
	char msg[1400]; /* one line, without prefix or newline */
};

/* The phase's name, "communicator init". */
const char *nc_wd_phase_name(int phase);

/* Describes the stopped peers of v (at most 4, then "and N more") into
 * buf: "rank 1 on gpu-b stopped responding 9.8 s ago during sweep, step
 * 12 (pid 4242, GPU 1)". Returns how many are stopped (0: buf ""). */
int nc_wd_name_stopped(const struct nc_wd_view *v, long long now, char *buf,
		       size_t len);

/* The hub's worst peer for its heartbeat to the clients: the stopped one
 * silent longest (a lost one first), or -1 when none. Index into peers. */
int nc_wd_worst(const struct nc_wd_peer *peers, int n, int self,
		long long now);

/* The decision at time `now`: wait, or fire with status 1 (status
 * verdict_rc in teardown, where the message is a warning) and the
 * message. */
void nc_wd_decide(const struct nc_wd_view *v, long long now,
		  struct nc_wd_out *out);

#endif
