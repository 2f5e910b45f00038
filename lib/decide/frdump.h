/* torch's Flight Recorder dumps (issue 43): the restricted pickle reader,
 * the dump's fields read into plain structs (pickle or JSON form, FR
 * versions 2.x), and the verdict per process group, which ranks never
 * arrived at which collective, disagree on it, or did not finish it. */
#ifndef NP_FRDUMP_H
#define NP_FRDUMP_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "doc/doc.h"

#define FRP_MAX_BYTES (64u << 20) /* one dump file, at most */
#define FRP_MAX_DEPTH 32          /* containers inside containers */
#define FRP_MAX_NODES (4u << 20)  /* values made, copies counted */
#define FRP_MAX_MEMO (1u << 20)   /* memo slots */

/* frdump_pickle.c: the pickle in buf (len bytes) as a jansson tree: dicts
 * are objects (int keys written in decimal), lists and tuples arrays.
 * Reads only the opcodes FR dumps are written with (data, never code):
 * anything else, a cycle, more than FRP_MAX_DEPTH nesting or FRP_MAX_NODES
 * values is refused. Returns the tree (the caller's reference), or NULL
 * with why ("pickle opcode GLOBAL (0x63) not allowed at byte 12"). */
json_t *frp_load(const unsigned char *buf, size_t len, char *why,
		 size_t whylen);

#define FR_MAX_RANKS 4096
#define FR_MAX_PGS 64
#define FR_MAX_ENTRIES 100000 /* per dump; torch's default buffer is 2000 */
#define FR_KEEP 256 /* the latest collectives kept per group and rank */

struct fr_entry {
	int pg;      /* index into the dump's pgs */
	long long seq; /* collective_seq_id (p2p_seq_id for a p2p op) */
	bool p2p;
	char op[48]; /* profiling_name: "gloo:all_reduce", "nccl:send 0->1" */
	char state[12]; /* scheduled, started, completed */
	bool completed; /* state completed or a completion time */
	bool retired;
	long long created_ns; /* time_created_ns, 0 unknown */
	char in_sizes[96], dtypes[48];
	char frame[192]; /* the caller's frame: "train_step (job.py:48)" */
	long long timeout_ms;
};

struct fr_pg {
	char name[64], desc[64]; /* process_group's two strings */
	char backend[16];        /* gloo, nccl ... (profiling_name's) */
	int ranks[64];           /* from pg_config, where it says */
	int nranks;
	long long enqueued;      /* pg_status' last_enqueued_collective, -1 */
};

struct fr_dump {
	int rank;           /* the file name's number (torch names it so) */
	char file[256];     /* as found in the folder */
	char version[16];   /* "2.10" */
	char comm_lib[32];  /* comm_lib_version ("" for Gloo) */
	bool pickle;        /* read from the pickle form */
	int world_hint;     /* 1 + the highest rank any pg_config names */
	struct fr_pg pgs[FR_MAX_PGS];
	int npgs;
	struct fr_entry *entries; /* oldest first */
	size_t nentries;
};

/* frdump_parse.c: the dump's tree into d (d->rank and d->file set by the
 * caller). Returns 0, or -1 with why (an unknown major version, no
 * entries list, too many entries or groups; errno ENOMEM when out of
 * memory). */
int frdump_parse(const json_t *root, struct fr_dump *d, char *why,
		 size_t whylen);
/* frdump_parse.c: a dump file's bytes, pickle or JSON as its first byte
 * says, into d (rank and file set by the caller). Returns 0 or -1 with
 * why. */
int frdump_read_buf(const unsigned char *buf, size_t len, struct fr_dump *d,
		    char *why, size_t whylen);
void frdump_free(struct fr_dump *d);
/* frdump_parse.c: s cut before a UTF-8 character that a bounded copy cut
 * short (the dump's strings are UTF-8; a cut one would not be). */
void frdump_utf8_trim(char *s);

enum fr_kind {
	FR_NOT_ARRIVED, /* rank's last collective is before the others' */
	FR_DESYNC,      /* ranks disagree on the op or sizes at one seq */
	FR_NOT_FINISHED, /* all arrived; this rank did not finish */
	FR_NO_DUMP,     /* a member of the group wrote no dump */
	FR_LATE,        /* entered a collective late, and it finished */
	FR_UNKNOWN_END, /* all arrived; the backend does not record ends */
};

#define FR_MAX_FINDINGS 64

struct fr_finding {
	enum fr_kind kind;
	int pg;     /* index into the verdict's groups */
	int rank;   /* the rank named (-1: the group) */
	long long seq;
	long long at_ns; /* when, by the ranks' clocks (0 unknown) */
	char summary[512];
	char evidence[4][384];
	int nevidence;
};

struct fr_group {
	char name[64], desc[64], backend[16];
	int nmembers, ndumps;
	long long last_entered_max; /* the furthest any rank got */
	bool completion_known;      /* the backend records ends (not gloo) */
};

/* One rank in one group: the last collective it entered and completed. */
struct fr_rankstate {
	int group, rank;
	bool dumped;
	long long entered;   /* collective_seq_id, 0 none */
	long long completed; /* -1 not recorded by the backend */
	char op[48];
	char frame[192];
};

struct fr_verdict {
	struct fr_group groups[FR_MAX_PGS];
	int ngroups;
	struct fr_rankstate *rs; /* every group's members */
	size_t nrs;
	struct fr_finding f[FR_MAX_FINDINGS];
	int nf;
	int ndumps;
	long long first_ns, last_ns; /* the entries' time span */
};

/* frdump.c: the verdict from n dumps (any order): per group, the last
 * collective each rank entered and completed, and the findings. Pure.
 * Returns 0, or -1 when out of memory. frdump_verdict_free releases it. */
int frdump_decide(const struct fr_dump *d, size_t n, struct fr_verdict *v);
void frdump_verdict_free(struct fr_verdict *v);

/* frdump_findings.c: v's findings into doc (fr-* codes, with evidence
 * and fixes). Returns 0, or -1 when out of memory. */
int frdump_findings(struct doc *doc, const struct fr_verdict *v,
		    const char *dir);
/* frdump_findings.c: fr-dump-unreadable for what ("FILE: why") in dir.
 * Returns 0, or -1 when out of memory. */
int frdump_unreadable(struct doc *doc, const char *dir, const char *what);
/* frdump_findings.c: the finding code of a kind. */
enum finding_code frdump_code(enum fr_kind k);
/* frdump_findings.c: the fix for f's case in buf (rank and sequence
 * number named), or "" where the catalogue's fix says it. */
void frdump_fix(const struct fr_finding *f, char *buf, size_t cap);
/* frdump_findings.c: v as the document's "flight_recorder" object (new
 * reference, NULL when out of memory). */
json_t *frdump_json(const struct fr_verdict *v, const char *dir);

#endif
