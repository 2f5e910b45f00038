/* netprobe mesh --watch: what the probing (mesh_watch.c) and the
 * exposition of its figures in Prometheus's text format
 * (mesh_watch_prom.c) share: one watch's state and its peers'. */
#ifndef NP_MESH_WATCH_INT_H
#define NP_MESH_WATCH_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include <jansson.h>

#include "mesh/mesh_watch.h"
#include "metrics/metrics_http.h"
#include "probe/watchstate.h"

struct mesh;

/* The RTT histogram's upper bounds in seconds (mesh_watch_prom.c says
 * why these); the probing counts each RTT into them. */
#define WATCH_RTT_BUCKETS 14
extern const double watch_rtt_le[];

struct watch_peer {
	size_t member;
	struct sockaddr_storage ss;
	socklen_t sl;
	bool resolved;
	int udp, tcp;
	bool tcp_done;
	long long tcp_start_us;
	bool seen[WATCH_ECHOES];
	long long rtt[WATCH_ECHOES];
	struct watch_round r;
	struct watch_pair pair;
	double rtt_sum_s;
	unsigned long long rtt_count, sent_total, lost_total;
	unsigned long long rtt_hist[WATCH_RTT_BUCKETS]; /* per bucket */
	unsigned path_mtu;
};

struct mesh_watch {
	struct watch_peer *p;
	size_t np;
	unsigned long long rounds;
	uint32_t round_id;
	long long start_wall_us, end_wall_us, ended_wall_us;
	double last_round_s;
	bool stalled; /* this host stalled during the last round */
	unsigned long long stalls;
	struct metrics_out mo;
	bool node0_gone;
	json_t *findings; /* this node's own, from the first mesh */
	const char *stopped_by;
};

/* The figures of mesh_watch_prom.c. mesh_watch_publish hands them, as
 * of now_us (wall-clock microseconds since the epoch), to --metrics and
 * --textfile (force: the textfile now, not at its own pace); a textfile
 * that cannot be written is noted once.
 * mesh_watch_end_textfile removes the textfile this watch wrote, once; a
 * failure is an error of the run. mesh_watch_findings: this node's
 * findings of the first mesh, counted by code and severity as [{code,
 * severity, count}]; NULL on no memory. */
void mesh_watch_publish(struct mesh *ms, struct mesh_watch *w, long long now_us,
                        bool force);
void mesh_watch_end_textfile(struct mesh *ms, struct mesh_watch *w);
json_t *mesh_watch_findings(const struct mesh *ms);

#endif
