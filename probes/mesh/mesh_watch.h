/* netprobe mesh --watch: after the first full mesh, every member stays
 * up and probes its targets each interval with light probes (a TCP
 * connect to the responder, UDP echoes, the path MTU now and then); each
 * change of a pair's state is logged once and sent to node 0, whose
 * mesh document keeps the change log (mesh_rdv_join.c takes the others'
 * changes into ms->watch_log); --metrics and --textfile publish the
 * figures. */
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
#define WATCH_LINGER_US 2000000LL /* the responder stays after the end */

/* Runs the watch until --duration, SIGTERM, SIGINT or SIGHUP; first is
 * the first mesh's exit status. On node 0, the report is written again
 * with the change log at the end. Returns the exit status. */
int mesh_watch_run(struct mesh *ms, int first);

/* Frees the watch. Safe when there is none. */
void mesh_watch_free(struct mesh *ms);

#endif
