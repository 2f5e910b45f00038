/* The text answer of NCCL's RAS service to STATUS (NCCL's
 * src/ras/client_support.cc, 2.24 and later) parsed into the job's state:
 * dead and unresponsive processes, incomplete communicators and the ranks
 * they miss. Pure: fed the text, never a socket. */
#ifndef NP_RAS_PARSE_H
#define NP_RAS_PARSE_H

#include <stddef.h>

#define RAS_MAX_PROCS 64
#define RAS_MAX_COMMS 32
#define RAS_MAX_COUNTS 1024 /* (communicator, operation, rank) counts kept */

enum ras_proc_kind {
	RAS_PROC_DEAD,	       /* "DEAD": unreachable via the RAS network */
	RAS_PROC_UNRESPONSIVE, /* missing data: it did not answer in time */
	RAS_PROC_MISSING_RANK, /* a communicator's rank that did not answer */
};

struct ras_proc {
	enum ras_proc_kind kind;
	int rank; /* -1 when the line names a process, not a rank */
	long pid; /* -1 when unknown */
	char node[128];
	char gpu[32];
	char comm[48]; /* "#0-0 (f1e2d3c4b5a69788)" for missing ranks */
};

struct ras_comm {
	char id[48];   /* "#0-0 (f1e2d3c4b5a69788)" */
	char what[16]; /* "INCOMPLETE", "ERROR", "MISMATCH" */
	int nmissing;  /* ranks missing, from "Missing communicator data" */
};

/* How far one rank (or, rank -1, a group of nranks ranks counted without
 * naming) has launched one collective of one communicator: the JSON
 * answer's collective_counts (2.28.7+; only the ranks behind are kept one
 * by one, the leaders as one group, so a job of any size fits), or the
 * text answer's MISMATCH lines "Rank 5 has launched up to operation 12
 * -- GPU 5 managed by process 77 on node h5" and "31 ranks have
 * launched up to operation 13". */
struct ras_count {
	char comm[48]; /* as in struct ras_comm's id */
	char op[16];   /* "AllReduce", NCCL's ncclFuncToString */
	int rank;      /* -1: a group of nranks ranks */
	int nranks;
	long pid;
	char node[128];
	char gpu[32];
	unsigned long long count;
};

struct ras_state {
	char nccl_version[32];
	int timeouts;  /* "Encountered N communication timeouts" */
	int nmissing_procs; /* "Missing communicator data from N job processes" */
	int ndead;	    /* "N job processes are considered dead" */
	struct ras_proc procs[RAS_MAX_PROCS];
	size_t nprocs;
	struct ras_comm comms[RAS_MAX_COMMS];
	size_t ncomms;
	size_t ncomm_rows; /* rows of the communicators table */
	struct ras_count counts[RAS_MAX_COUNTS];
	size_t ncounts;
	int json; /* 1: parsed from the JSON answer, 0: from the text */
};

/* Parses the whole answer (NUL-terminated). Returns 0, or -1 with errno
 * EINVAL when it does not look like a RAS answer (no NCCL version line and
 * no section). */
int ras_parse(const char *text, struct ras_state *st);

/* ras_json.c: the answer to STATUS after SET FORMAT json (NCCL 2.28.7 and
 * later; jsonWriteHeader and its siblings in client_support.cc): the
 * communicators, every answering rank's collective counts, and the
 * missing ranks (unresponsive or considered dead). Returns 0, or -1 with
 * errno EINVAL when it is not such a document. */
int ras_parse_json(const char *text, struct ras_state *st);

/* ras_json.c: true when the answer is JSON (its first non-blank byte is
 * '{'). */
int ras_answer_is_json(const char *text);

/* One event of the MONITOR stream (NCCL 2.29 and later), text
 * "[2026-12-06 11:02:13] PEER_DEAD: ..." or JSON {"timestamp", "event",
 * "peer": {"host", "pid"}}. */
struct ras_event {
	char when[24];   /* "2026-12-06 11:02:13", the job's local time */
	char event[24];  /* "PEER_DEAD", "PEER_NEW", ... */
	char node[128];  /* "" when the event names none */
	long pid;        /* -1 unknown */
	char details[128];
};

/* ras_json.c: the events in a monitor stream's bytes (text lines or
 * JSON objects, as the client asked); a partial last event is left, and
 * *used says how many bytes were read (those before it). Returns how
 * many it filled, at most max. */
size_t ras_parse_events(const char *text, struct ras_event *ev, size_t max,
			size_t *used);

#endif
