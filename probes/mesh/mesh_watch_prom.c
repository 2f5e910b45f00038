/* netprobe mesh --watch: the exposition of the watch's figures in
 * Prometheus's text format (the node's rounds, each peer's state, RTT
 * histogram, loss, echoes, path MTU and changes, the first mesh's
 * findings), handed to --metrics and --textfile. The probing that makes
 * the figures is mesh_watch.c's. */
#include <stdbool.h>
#include <string.h>

#include "base/promtext.h"
#include "mesh/mesh_int.h"
#include "mesh/mesh_watch_int.h"
#include "metrics/metrics_http.h"
#include "probe/watchstate.h"

/* The RTT histogram's bounds (mesh_watch_int.h), 50 us to 1 s: a rack's
 * LAN (50-250 us), a hall's or a loaded host's (ms), a WAN (10-250 ms),
 * and the echo's own bound (an answer comes within about a second or is
 * lost); three a decade, so a quantile across nodes is within a factor
 * of 2.5 */
const double watch_rtt_le[] = {
    50e-6, 100e-6, 250e-6, 500e-6, 1e-3, 2.5e-3, 5e-3, 10e-3, 25e-3,
    50e-3, 100e-3, 250e-3, 500e-3, 1.0};
_Static_assert(sizeof(watch_rtt_le) == sizeof(double[WATCH_RTT_BUCKETS]),
               "WATCH_RTT_BUCKETS counts watch_rtt_le");

/* The node's and every peer's figures in Prometheus's text format. */
static void render(const struct mesh *ms, const struct mesh_watch *w,
                   long long now_us, struct prom_buf *b)
{
	const char *node = ms->m[ms->rank].name;
	const char *lab[9] = {"node", node, NULL, NULL, NULL, NULL, NULL};
	const char *build[] = {"version", NETPROBE_VERSION, NULL};
	size_t i;
	json_t *f;

	prom_metric(b, "netprobe_build_info", "gauge",
	            "The netprobe that writes these figures (value 1).",
	            build, 1);
	/* a textfile left by a killed watch keeps its last time, so an
	 * alert can tell frozen figures (NetprobeWatchStale) */
	prom_metric(b, "netprobe_mesh_watch_last_update_timestamp_seconds",
	            "gauge", "When these figures were written (Unix time).",
	            lab, (double)now_us / 1e6);
	prom_metric(b, "netprobe_mesh_watch_rounds_total", "counter",
	            "Rounds of light probes this member ran.",
	            lab, (double)w->rounds);
	prom_metric(b, "netprobe_mesh_watch_interval_seconds", "gauge",
	            "The interval between two rounds (--watch).",
	            lab, (double)ms->o.watch_us / 1e6);
	prom_metric(b, "netprobe_mesh_watch_round_seconds", "gauge",
	            "How long the last round took.",
	            lab, w->last_round_s);
	prom_metric(b, "netprobe_mesh_watch_rounds_stalled_total", "counter",
	            "Rounds not judged: this host ran late against their schedule.",
	            lab, (double)w->stalls);
	lab[2] = "peer";
	prom_family(b, "netprobe_mesh_peer_reachable", "gauge",
	            "1 when the peer answers (its state is not down), else 0.");
	for (i = 0; i < w->np; i++) {
		lab[3] = ms->m[w->p[i].member].name;
		prom_sample(b, "netprobe_mesh_peer_reachable", lab,
		            w->p[i].pair.state != WATCH_DOWN);
	}
	prom_family(b, "netprobe_mesh_peer_state", "gauge",
	            "1 for the pair's state now (up, degraded, lossy, down).");
	lab[4] = "state";
	for (i = 0; i < w->np; i++)
		for (int s = 0; s < WATCH_NSTATES; s++) {
			lab[3] = ms->m[w->p[i].member].name;
			lab[5] = watch_state_name((enum watch_state)s);
			prom_sample(b, "netprobe_mesh_peer_state", lab,
			            (int)w->p[i].pair.state == s);
		}
	lab[4] = NULL;
	prom_family(b, "netprobe_mesh_peer_rtt_seconds", "histogram",
	            "UDP echo round trips to the peer's responder.");
	for (i = 0; i < w->np; i++) {
		const struct watch_peer *p = &w->p[i];

		lab[3] = ms->m[p->member].name;
		prom_histogram(b, "netprobe_mesh_peer_rtt_seconds", lab,
		               watch_rtt_le, p->rtt_hist, WATCH_RTT_BUCKETS,
		               p->rtt_sum_s, p->rtt_count);
	}
	lab[4] = NULL;
	prom_family(b, "netprobe_mesh_peer_loss_ratio", "gauge",
	            "Echoes lost in the last round, 0 to 1.");
	for (i = 0; i < w->np; i++) {
		const struct watch_peer *p = &w->p[i];

		lab[3] = ms->m[p->member].name;
		prom_sample(b, "netprobe_mesh_peer_loss_ratio", lab,
		            p->r.sent ? 1.0 - (double)p->r.answered / p->r.sent
		                      : 0.0);
	}
	prom_family(b, "netprobe_mesh_peer_echoes_sent_total", "counter",
	            "UDP echoes sent to the peer.");
	for (i = 0; i < w->np; i++) {
		lab[3] = ms->m[w->p[i].member].name;
		prom_sample(b, "netprobe_mesh_peer_echoes_sent_total", lab,
		            (double)w->p[i].sent_total);
	}
	prom_family(b, "netprobe_mesh_peer_echoes_lost_total", "counter",
	            "UDP echoes to the peer that were not answered.");
	for (i = 0; i < w->np; i++) {
		lab[3] = ms->m[w->p[i].member].name;
		prom_sample(b, "netprobe_mesh_peer_echoes_lost_total", lab,
		            (double)w->p[i].lost_total);
	}
	prom_family(b, "netprobe_mesh_peer_path_mtu_bytes", "gauge",
	            "The largest IP packet the path to the peer carried, last "
	    "measured.");
	for (i = 0; i < w->np; i++) {
		if (w->p[i].path_mtu == 0)
			continue;
		lab[3] = ms->m[w->p[i].member].name;
		prom_sample(b, "netprobe_mesh_peer_path_mtu_bytes", lab,
		            w->p[i].path_mtu);
	}
	prom_family(b, "netprobe_mesh_peer_state_changes_total", "counter",
	            "Changes of the pair's state since the watch began.");
	for (i = 0; i < w->np; i++) {
		lab[3] = ms->m[w->p[i].member].name;
		prom_sample(b, "netprobe_mesh_peer_state_changes_total", lab,
		            (double)w->p[i].pair.changes);
	}
	prom_family(b, "netprobe_mesh_findings", "gauge",
	            "This node's findings of the first mesh, by code and severity.");
	lab[2] = "code";
	lab[4] = "severity";
	json_array_foreach(w->findings, i, f) {
		lab[3] = json_string_value(json_object_get(f, "code"));
		lab[5] = json_string_value(json_object_get(f, "severity"));
		prom_sample(b, "netprobe_mesh_findings", lab,
		            (double)json_integer_value(
		                json_object_get(f, "count")));
	}
}

/* Hands the figures, as of now_us (wall clock), to --metrics and
 * --textfile. */
void mesh_watch_publish(struct mesh *ms, struct mesh_watch *w, long long now_us,
                        bool force)
{
	struct prom_buf b;
	char why[512];

	if (w->mo.http == NULL && w->mo.textfile_dir == NULL)
		return;
	prom_init(&b);
	render(ms, w, now_us, &b);
	if (!b.oom && !b.bad &&
	    metrics_out_publish(&w->mo, b.p, b.len, force, why,
	                        sizeof(why)) < 0 &&
	    !w->mo.file_failed) {
		cmd_note(&ms->run, "%s", why);
		w->mo.file_failed = true;
	}
	prom_free(&b);
}

/* Removes the textfile this watch wrote, once, so that node_exporter
 * serves no frozen figures after the watch; a file that cannot be
 * removed is an error of the run. */
void mesh_watch_end_textfile(struct mesh *ms, struct mesh_watch *w)
{
	char why[512];

	if (w->mo.textfile_dir == NULL || w->mo.last_file_us == 0)
		return;
	if (prom_textfile_remove(w->mo.textfile_dir, w->mo.textfile_name,
	                         why, sizeof(why)) < 0)
		cmd_failf(&ms->run, "metrics", "%s", why);
	w->mo.textfile_dir = NULL;
}

/* This node's findings of the first mesh, counted by code and severity,
 * as [{code, severity, count}]. */
json_t *mesh_watch_findings(const struct mesh *ms)
{
	json_t *out = json_array(), *f;
	size_t i;

	if (ms->scan == NULL || out == NULL)
		return out;
	json_array_foreach(ms->scan->run.doc.findings, i, f) {
		const char *code = json_string_value(json_object_get(f, "code"));
		const char *sev =
		    json_string_value(json_object_get(f, "severity"));
		json_t *o;
		size_t k;
		bool found = false;

		if (code == NULL || sev == NULL)
			continue;
		json_array_foreach(out, k, o)
			if (strcmp(json_string_value(json_object_get(o, "code")),
			           code) == 0 &&
			    strcmp(json_string_value(
			               json_object_get(o, "severity")),
			           sev) == 0) {
				json_object_set_new(
				    o, "count",
				    json_integer(json_integer_value(
				                     json_object_get(o, "count")) +
				                 1));
				found = true;
				break;
			}
		if (!found)
			json_array_append_new(out,
			                      json_pack("{s:s, s:s, s:i}", "code",
			                                code, "severity", sev,
			                                "count", 1));
	}
	return out;
}
