/* netprobe mesh --watch: after the first full mesh, every member stays
 * up and probes its targets each interval with light probes (a TCP
 * connect to the responder, UDP echoes, the path MTU now and then); each
 * change of a pair's state is logged once and sent to node 0, whose
 * mesh document keeps the change log; --metrics and --textfile publish
 * the figures. Shared by mesh.c, mesh_rdv_join.c and mesh_report.c. */
#ifndef NP_MESH_WATCH_H
#define NP_MESH_WATCH_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

struct mesh;

#define WATCH_ECHOES 10          /* UDP echoes per peer and round */
#define WATCH_GAP_US 20000LL     /* between two echoes */
#define WATCH_WAIT_US 800000LL   /* for answers after the last echo */
#define WATCH_CONNECT_US 1000000LL /* a TCP connect, as the round's */
#define WATCH_PMTU_EVERY 10      /* rounds between two MTU searches */
#define WATCH_PMTU_US 2000000LL  /* one search */
#define WATCH_LOG_MAX 10000      /* changes node 0 keeps */
#define WATCH_LINGER_US 2000000LL /* the responder stays after the end */

/* Runs the watch until --duration, SIGTERM or SIGINT; first is the first
 * mesh's exit status. On node 0, the report is written again with the
 * change log at the end. Returns the exit status. */
int mesh_watch_run(struct mesh *ms, int first);

/* Node 0: a change another member sent (a JSON object) into the log.
 * Malformed input is dropped. */
void mesh_watch_take(struct mesh *ms, int member, const uint8_t *p,
                     size_t n);

/* Node 0: the `watch` object of the mesh document, or NULL when not
 * watching (a new reference). */
json_t *mesh_watch_json(const struct mesh *ms);

/* Frees the watch. Safe when there is none. */
void mesh_watch_free(struct mesh *ms);

#endif
