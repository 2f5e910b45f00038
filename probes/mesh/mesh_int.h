/* netprobe mesh's own parts, shared between its files: the options, the
 * members, the run's state and one entry point per job. mesh.c runs them:
 * the command line (mesh_cli.c), the membership (mesh_members.c), the
 * responder and the local collection, then node 0's rendezvous
 * (mesh_rdv.c) or a member's join (mesh_join.c), the probing
 * (mesh_probe.c), and on node 0 the documents and the report
 * (mesh_report.c). */
#ifndef NP_MESH_INT_H
#define NP_MESH_INT_H

#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "base/monoclock.h"
#include "decide/decide_mesh.h"
#include "doc/cmdrun.h"
#include "doc/doc.h"
#include "kernel/hostlist.h"
#include "kernel/sockowner.h"
#include "mesh/mesh_guard.h"
#include "probe/idleprobe.h"
#include "probe/peercheck.h"
#include "probe/peerprobe.h"
#include "scan/scan_int.h"
#include "serve/serve.h"
#include "wire/client.h"
#include "wire/proto_mesh.h"

#define MESH_MAX_NODES 4096
#define MESH_DEF_JOIN_US 60000000LL /* --join-timeout */
#define MESH_DEF_CONCURRENCY 32     /* peers probed at once */
#define MESH_MAX_CONCURRENCY 256
#define MESH_SAMPLES 4 /* our ephemeral listeners */
/* Each request toward a peer may take 2 s, not the scan's 1 s: with every
 * peer of a mesh connecting at once, a SYN dropped by a full queue is sent
 * again after 1 s, and must not read as a filtered port. */
#define MESH_PROBE_STEP_US 2000000LL
/* one peer: connect and hello (tried twice when they time out),
 * reflection, connect-back (a step each), 1 s of heartbeat and the
 * link's loss echoes, the outbound
 * connects (two steps), 2 s of path MTU */
#define MESH_PEER_US                                                       \
	(6 * MESH_PROBE_STEP_US + PEER_HEARTBEAT_US + PEER_LOSS_BOUND_US + \
	 PEER_PATH_US)
/* the idle probe's wait for its byte's acknowledgement after the idle
 * spell (a retransmission or three), and one peer's bound with it */
#define MESH_IDLE_WAIT_US 3000000LL
#define MESH_PEER_IDLE_US(o)                                               \
	(MESH_PEER_US + ((o)->idle_us > 0 ? (o)->idle_us + MESH_IDLE_WAIT_US \
	                                  : 0))
/* the hop probe (issue 48): toward this many failed peers that cross a
 * router at most, per member, each within this bound (its two walks) */
#define MESH_HOP_PEERS 2
#define MESH_HOP_US 8000000LL
/* the plan's start-up slack: threads, name lookups and routes on a
 * loaded host before the first peers start */
#define MESH_START_SLACK_US 5000000LL
/* node 0 waits this much longer than the probing bound for documents,
 * members this much longer than that for the verdict */
#define MESH_RESULT_SLACK_US 15000000LL
#define MESH_VERDICT_SLACK_US 60000000LL
#define MESH_STEP_US 2000000LL /* one rendezvous request */
/* a member gives up when node 0's port answers as netprobe serve this
 * long */
#define MESH_SERVE_GRACE_US 3000000LL
#define MESH_HOLD_MAX 64       /* --ports ports the responder holds */

struct mesh_opts {
	const char *hosts;      /* --hosts FILE|LIST */
	const char *rendezvous; /* --rendezvous HOST[:PORT] */
	unsigned port;          /* --port; 0: MASTER_PORT or 7471 */
	const char *bind;       /* --bind ADDR: this node's own address */
	const char *token_file;
	long long join_us;
	unsigned concurrency;
	unsigned pairs; /* --all-pairs: every pair up to this many nodes */
	const char *ports;
	const char *out_dir; /* --out */
	const char *format;  /* --format of the report (node 0) */
	const char *output;  /* -o FILE (node 0); NULL stdout */
	const char *fail_on; /* warning, fault (default) or never */
	bool quick;
	/* --idle TIME: each peer's idle probe (issue 48); 0 none. Every
	 * node takes its own, node 0's plan its bound */
	long long idle_us;
	int verbose;
	long long watch_us;          /* --watch INTERVAL; 0 no watch */
	long long watch_duration_us; /* --duration; 0 until SIGTERM */
	const char *metrics;         /* --metrics ADDR:PORT */
	const char *textfile;        /* --textfile DIR */
};

/* What became of a member that joined, as node 0 saw it afterwards. */
enum mesh_fate {
	MESH_FATE_NONE = 0, /* not joined, or still probing */
	MESH_FATE_DONE,     /* its document came */
	MESH_FATE_DIED,     /* its connection closed before its document */
	MESH_FATE_SILENT,   /* no document within the bound */
};

struct mesh_member {
	char name[PROTO_MESH_NAME_MAX + 1];   /* as the report names it */
	char entry[PROTO_MESH_NAME_MAX + 1];  /* the list entry, "" none */
	char target[PROTO_MESH_NAME_MAX + 1]; /* what peers probe */
	char hostname[PROTO_MESH_HOST_MAX + 1];
	char advertised[INET6_ADDRSTRLEN]; /* its source toward node 0 */
	char observed[INET6_ADDRSTRLEN];   /* what node 0 saw */
	unsigned port;                     /* its responder */
	int state;                         /* enum proto_member_state */
	enum mesh_fate fate;
	int dup_of;    /* PROTO_MS_DUPLICATE: the earlier entry */
	bool by_addr;  /* its entry found by the address it came from */
	bool nat;      /* observed is none of its own addresses */
	char own_addrs[160]; /* the addresses it reported, joined */
	char why[256]; /* missing, rejected, died: the reason */
	char probed[INET6_ADDRSTRLEN]; /* missing: where node 0 probed it */
	char *doc;     /* node 0: its document's text, malloc'd */
	size_t doclen;
	/* node 0 watching: what it kept of this member's changes and what
	 * it did not (mesh_guard.h) */
	size_t watch_bytes;
	unsigned long long watch_dropped, watch_refused;
	long long join_us, done_us; /* since node 0 started */
};

/* One join node 0 turned away, for the mesh document. */
struct mesh_reject {
	enum finding_code code;
	char who[PROTO_MESH_NAME_MAX + INET6_ADDRSTRLEN + 16];
	char why[320];
	/* the join's own words, for the report's identity check (issue
	 * 48): where it came from, its hostname, the rank it claimed (-1
	 * none) */
	char addr[INET6_ADDRSTRLEN];
	char hostname[PROTO_MESH_HOST_MAX + 1];
	int rank;
};

struct mesh_rdv;
struct metrics_http;

/* The whole run of one node. */
struct mesh {
	/* how the run speaks: "netprobe mesh: ..." on stderr (no document
	 * of its own: its scan's and node 0's report are written by their
	 * steps) */
	struct cmd_run run;
	struct mesh_opts o;
	struct mesh_env env;
	unsigned port;   /* every responder's, node 0's rendezvous */
	char node0[256]; /* node 0's host */
	unsigned node0_port;
	int rank; /* this node's entry, -1 not in the list */
	/* why this member could not join node 0, for the document it
	 * leaves in --out (issue 48); "" joined */
	char join_err[3072];
	const char *rank_var; /* the launcher's variable that gave rank
	                       * (not in the list by address or name) */
	uint32_t dups[PROTO_MESH_DUPS]; /* further entries naming us */
	uint8_t ndups;
	size_t n;              /* members */
	struct mesh_member *m; /* n of them (node 0: filled by joins) */
	uint32_t list_hash;
	char hostname[PROTO_MESH_HOST_MAX + 1];
	long long t0_us;

	struct scan *scan;  /* this node's collection and peers */
	struct server *srv; /* the temporary responder */
	pthread_t srv_thread;
	bool srv_running;
	atomic_bool stop;
	atomic_uint joins_here; /* JOINs others sent this member's responder */
	int sample_fds[MESH_SAMPLES];
	uint16_t sample_ports[MESH_SAMPLES];
	size_t nsamples;
	/* the --ports ports held for peers (mesh_hold.c): written by the
	 * main thread, nheld read by the responder's */
	int held_fds[MESH_HOLD_MAX];
	uint16_t held_ports[MESH_HOLD_MAX];
	atomic_size_t nheld;
	struct mesh_taken taken[MESH_HOLD_MAX];
	size_t ntaken;
	bool hold_over; /* more than MESH_HOLD_MAX ports asked for */

	/* the plan every node runs, from node 0 */
	struct proto_mesh_start start;
	long long probe_deadline_us; /* probing starts no peer after this */

	/* probing threads */
	pthread_t *workers;
	size_t nworkers;
	atomic_size_t next_target, targets_done;
	atomic_int hop_runs; /* hop probes started (MESH_HOP_PEERS at most) */
	size_t *targets; /* member indices */
	size_t ntargets;
	struct peercheck *checks;  /* one per target */
	struct doc *check_docs;    /* one per target */
	struct route_info *routes; /* one per target */
	struct idle_result *idle;  /* one per target (--idle) */
	bool *have_route;

	/* node 0 */
	struct mesh_rdv *rdv;
	struct mesh_reject *rejects;
	size_t nrejects, caprejects;
	char *own_doc;
	size_t own_doclen;

	/* a member */
	struct np_client c;

	/* --watch (mesh_watch.c, mesh_watch_prom.c) */
	struct mesh_watch *watch;
	atomic_bool watching; /* the responder's thread waits longer */
	struct metrics_http *metrics_http; /* --metrics, bound at the start */
	json_t *watch_log; /* the changes (node 0: every node's), or NULL */
	size_t watch_bytes; /* of the changes kept, as they came */
	unsigned long long watch_dropped; /* every change not kept */
	json_t *watch_json; /* node 0 at the end: the `watch` object */
};

/* mesh_cli.c: parses the command line into o. Returns 0, 1 for --help
 * (printed), or 2 for bad usage (reported). */
int mesh_parse(struct cmd_run *run, int argc, char **argv,
               struct mesh_opts *o);

/* mesh_members.c: the membership (options or launcher), this node's
 * entry in it, the duplicates of the list. Returns 0, or 2 when the mesh
 * cannot run (reported). */
int mesh_members(struct mesh *ms);

/* mesh_members.c: this node's own addresses, ", "-joined, into buf. */
void mesh_own_addrs(const struct mesh *ms, char *buf, size_t len);

/* mesh_members.c: the first address entry names (itself when numeric),
 * "" when it resolves to none. */
void mesh_entry_addr(const char *entry, char *out, size_t len);

/* mesh_members.c: for a node not in the list, what it is and what the
 * list holds, and how a node 0 behind NAT is given its rank; "" for a
 * listed node. For the message when node 0 never answers. */
void mesh_unlisted_hint(const struct mesh *ms, char *buf, size_t len);

/* mesh_route0.c: a member that could not join: what its route lookup
 * toward node 0 shows ("; this node's route toward node 0 ..."), "" when
 * node 0's address is unknown. */
void mesh_route_toward(const char *node0, char *buf, size_t len);

/* mesh_overlay0.c: where that route leaves by a VXLAN device of the
 * scan, its VNI, port and the command that decides whether this node's
 * overlay is the odd one ("; that is the VXLAN overlay ..."); "" else
 * (issue 48). */
void mesh_overlay_toward(const struct mesh *ms, char *buf, size_t len);

/* mesh_route0.c: true when this node's route toward node 0 leaves by an
 * up bridge's port that holds the source address (the scan's
 * bridge-port-addressed): the bridge takes every frame the port
 * receives, so the join can only go by the bridge; dev gets the bridge's
 * name and src the route's source (issue 48). */
bool mesh_bridge_way(const struct mesh *ms, char *dev, size_t dlen, char *src,
                     size_t slen);

/* mesh_limits.c: for a connect that failed with sys_errno EADDRNOTAVAIL
 * or EADDRINUSE on this node, "; this node has no source port left ..."
 * with its ephemeral range and the command that widens it, into buf;
 * false (buf untouched) for any other errno (issue 48). */
bool mesh_limit_hint(int sys_errno, char *buf, size_t len);

/* mesh_members.c: the JOIN this node sends. */
void mesh_join_msg(const struct mesh *ms, const char *local_addr,
                   struct proto_join *j);

/* mesh_members.c: the names reports use, once the joins are in: the
 * list entry when it is a name, else a unique hostname, else the
 * address. */
void mesh_name_members(struct mesh *ms);

/* mesh_rdv.c: node 0's rendezvous. The handoff the responder calls for
 * each JOIN connection. */
int mesh_rdv_handoff(void *ctx, int fd, const struct sockaddr_storage *peer,
                     const uint8_t *in, size_t nin, const uint8_t *out,
                     size_t nout);

/* mesh_rdv.c: sets up node 0's rendezvous state. Returns 0, or -1. */
int mesh_rdv_init(struct mesh *ms);

/* mesh_missing.c: node 0 probes each listed member that did not join
 * (a few, one short connect each) and adds to its why whether its
 * responder answers (it runs, and cannot reach node 0), refuses (not
 * running there) or is silent (issue 31). */
void mesh_probe_missing(struct mesh *ms);

/* mesh_rdv.c: runs node 0 from the joins to the verdict: waits for the
 * joins (bounded by --join-timeout), sends the plan and the members,
 * probes its own targets while gathering every member's document
 * (bounded), then calls report(ms) for the exit status and sends it to
 * every member. Returns the exit status. */
int mesh_rdv_run(struct mesh *ms, int (*report)(struct mesh *));

/* mesh_rdv.c: while watching, node 0 serves the members' connections
 * (their changes) for at most max_ms. */
void mesh_rdv_pump(struct mesh *ms, int max_ms);

/* mesh_rdv_guard.c: true when node 0 has fewer than RDV_FD_SPARE
 * descriptors free under its limit (or none at all); *limit (when not
 * NULL) is the limit, 0 for none. False on a member. */
bool mesh_rdv_fds_short(struct mesh *ms, unsigned long long *limit);

/* mesh_rdv_guard.c: the mesh document's `rendezvous` object: the joins
 * dropped by kind, how often node 0 was short of descriptors, its limit
 * and the guard's bounds. NULL on no memory. */
json_t *mesh_rdv_guard_json(const struct mesh *ms);

/* mesh_rdv.c: frees the rendezvous and its connections. */
void mesh_rdv_free(struct mesh *ms);

/* mesh_join.c: a member's run from the join to the verdict. Returns the
 * exit status node 0 sent, or 2. */
int mesh_join_run(struct mesh *ms);

/* mesh_probe.c: the probing plan's targets for this node, the threads
 * started. Returns 0, or -1 (no memory or threads). */
int mesh_probe_start(struct mesh *ms);

/* mesh_probe.c: true once every target is probed or skipped. */
bool mesh_probe_done(struct mesh *ms);

/* mesh_probe.c: joins the threads, decides, builds this node's document
 * into ms->own_doc. Returns 0, or -1 on no memory. */
int mesh_probe_finish(struct mesh *ms);

/* mesh_report.c: on node 0, before anything is measured: --out can be
 * created and written into, -o's directory written. Returns 0, or 2
 * (reported), so a bad path costs no mesh. */
int mesh_check_outputs(struct mesh *ms);

/* mesh_report.c: node 0's mesh document, --out, the report; the exit
 * status (0, 1, or 2 when the report could not be written). */
int mesh_report(struct mesh *ms);

/* mesh_watchlog.c: whether node 0's log takes a change of len bytes from
 * member (its index), within the caps of mesh_guard.h; one not taken is
 * counted as the member's, and the first of each kind said on stderr. */
bool mesh_watch_admit(struct mesh *ms, size_t member, size_t len);

/* mesh_watchlog.c: appends a change admitted (len bytes as it came; ev
 * is the log's then) and counts its bytes against member's share. */
void mesh_watch_keep_change(struct mesh *ms, size_t member, json_t *ev,
                            size_t len);

/* mesh_hold.c: holds the free TCP ports of spec (a portspec) on every
 * address, and records those another process holds with its name; ports
 * held or recorded already are skipped. Failures leave a port unheld. */
void mesh_hold_ports(struct mesh *ms, const char *spec);

/* mesh_hold.c: accepts and drops connections to the held ports (the
 * handshake was the proof), on the responder's thread. */
void mesh_hold_accept(struct mesh *ms);

/* mesh_hold.c: closes the held ports. */
void mesh_hold_close(struct mesh *ms);

/* mesh_hold.c: the `ports` object of this node's mesh document: held,
 * taken (port, pid, process, address), truncated. NULL on no memory. */
json_t *mesh_hold_json(const struct mesh *ms);

/* Milliseconds since the run started, for messages. */
static inline long long mesh_elapsed_ms(const struct mesh *ms)
{
	return (mono_now_us() - ms->t0_us) / 1000;
}

#endif
