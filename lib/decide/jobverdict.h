/* netprobe explain --job's one verdict: the suspects every source names
 * (NCCL's RAS, a second source such as torch's Flight Recorder, the
 * suspects' hosts, probes), ranked by evidence, with one timeline and
 * what each source could not tell. Sources add to it; jv_decide ranks
 * and writes the headline. Pure: no I/O. */
#ifndef NP_JOBVERDICT_H
#define NP_JOBVERDICT_H

#include <stdbool.h>
#include <stddef.h>

#define JV_MAX_EVENTS 128
#define JV_MAX_SUSPECTS 32
#define JV_MAX_SOURCES 8

/* How much a fact weighs when suspects are ranked. */
enum jv_weight {
	JV_W_SLOW = 10,     /* moving, but behind */
	JV_W_BEHIND = 20,   /* behind, one look */
	JV_W_MISSING = 40,  /* did not answer RAS */
	JV_W_STOPPED = 50,  /* behind and not moving; never arrived */
	JV_W_DEAD = 60,     /* considered dead */
	JV_W_LINK = 30,     /* its host's link changed (added to a suspect) */
};

struct jv_event {
	long long at_ms;  /* wall clock, ms since the epoch; 0 unknown */
	char when[32];    /* as the source wrote it, when at_ms is 0 */
	char source[16];  /* "ras", "host", "fr", ... */
	char host[128];
	char text[256];
};

struct jv_suspect {
	char source[16];
	int rank;          /* -1 unknown */
	char host[128];    /* as the source names it (an address for RAS) */
	char gpu[32];
	long pid;          /* -1 unknown */
	int weight;        /* enum jv_weight, summed over evidence */
	char what[256];    /* "stopped at AllReduce #13 of (f1e2..)" */
	char host_why[256]; /* its host's evidence, "" none */
	bool host_read;    /* its host's links were read */
	char probe[160];   /* "answers probes (...)" or why not, "" none */
};

struct jv_source {
	char name[16];
	bool answered;
	char said[256];   /* one line: what it told */
	char cannot[256]; /* what it could not tell, "" nothing */
};

struct job_verdict {
	struct jv_event events[JV_MAX_EVENTS];
	size_t nevents;
	struct jv_suspect suspects[JV_MAX_SUSPECTS];
	size_t nsuspects;
	struct jv_source sources[JV_MAX_SOURCES];
	size_t nsources;
	char headline[1024]; /* jv_decide: the verdict in one sentence */
	char action[256];    /* jv_decide: what to do */
};

/* Adds a timeline entry. Returns 0, or -1 when the timeline is full. */
int jv_event(struct job_verdict *v, long long at_ms, const char *when,
	     const char *source, const char *host, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Adds a suspect, or joins it to the suspect of the same rank and host
 * (or of the same rank where one of the two names no host): the same
 * source's strongest fact counts, another source's weight adds (name the
 * host as RAS does, its address, for the two to join). Returns 0, or -1
 * when full. */
int jv_suspect(struct job_verdict *v, const struct jv_suspect *s);

/* Records what a source said and could not tell (cannot may be NULL or
 * ""). Returns 0, or -1 when full. */
int jv_source(struct job_verdict *v, const char *name, bool answered,
	      const char *said, const char *cannot);

/* Host evidence for every suspect on host: adds JV_W_LINK and why when
 * changed, and marks the host read. */
void jv_host(struct job_verdict *v, const char *host, bool changed,
	     const char *why);

/* What probing host from here showed, for every suspect on host:
 * reachable or not, and the figures or the reason. */
void jv_probe(struct job_verdict *v, const char *host, bool answered,
	      const char *what);

/* at_ms as "11:02:13.250" (UTC), or when when at_ms is 0, or "when
 * unknown". */
void jv_time(const struct jv_event *e, char *buf, size_t len);

/* Ranks the suspects (heaviest first), sorts the timeline (known times
 * first, in order) and writes headline and action. */
void jv_decide(struct job_verdict *v);

#endif
