/* netprobe serve's figures in Prometheus's text format (serve.h's
 * serve_metrics): the build, when written, clients now and in all,
 * echoes, refusals by reason, rejected frames by error code, dropped
 * datagrams. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/promtext.h"
#include "serve/serve.h"
#include "serve/serve_int.h"
#include "serve/serve_stats.h"

static const char *const refusal_names[SERVE_REFUSE_N] = {
    "per_address", "full", "other"};

/* The label of an ERROR code (enum proto_err, wire/proto_msg.h). */
static const char *code_name(unsigned code)
{
	static const char *const names[] = {
	    "other",    "malformed",     "unsupported",   "refused",
	    "limit",    "auth_failed",   "auth_required", "busy",
	    "internal", "join_rejected"};

	return code < sizeof(names) / sizeof(names[0]) ? names[code]
	                                               : "other";
}

/* See serve_stats.h. */
void serve_stats_refused(struct serve_stats *st, const char *why)
{
	if (why != NULL && strstr(why, "from this address") != NULL)
		st->refused[SERVE_REFUSE_PER_ADDRESS]++;
	else if (why != NULL && strstr(why, "too many clients") != NULL)
		st->refused[SERVE_REFUSE_FULL]++;
	else
		st->refused[SERVE_REFUSE_OTHER]++;
}

/* See serve_stats.h. */
void serve_stats_rejected(struct serve_stats *st, unsigned code)
{
	st->rejected[code < SERVE_STATS_CODES ? code : 0]++;
}

/* See serve.h. */
int serve_metrics(const struct server *s, struct prom_buf *b)
{
	const struct serve_stats *st = &s->st;
	const char *lab[3] = {NULL, NULL, NULL};
	const char *build[] = {"version", NETPROBE_VERSION, NULL};
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	prom_metric(b, "netprobe_build_info", "gauge",
	            "The netprobe that writes these figures (value 1).",
	            build, 1);
	/* a textfile left by a killed responder keeps its last time, so an
	 * alert can tell frozen figures (NetprobeServeStale) */
	prom_metric(b, "netprobe_serve_last_update_timestamp_seconds", "gauge",
	            "When these figures were written (Unix time).", NULL,
	            (double)now.tv_sec + (double)now.tv_nsec / 1e9);
	prom_metric(b, "netprobe_serve_clients", "gauge",
	            "Clients connected to the responder now.",
	            NULL, s->nconns);
	prom_metric(b, "netprobe_serve_clients_max", "gauge",
	            "Clients the responder takes at once.",
	            NULL, s->o.max_clients);
	prom_metric(b, "netprobe_serve_clients_accepted_total", "counter",
	            "Clients the responder accepted.",
	            NULL, (double)st->accepted);
	prom_metric(b, "netprobe_serve_clients_evicted_total", "counter",
	            "Clients closed to make room when the table was full.",
	            NULL, (double)st->evicted);
	prom_family(b, "netprobe_serve_echoes_total", "counter",
	            "Echo requests answered, by transport.");
	lab[0] = "proto";
	lab[1] = "tcp";
	prom_sample(b, "netprobe_serve_echoes_total", lab,
	            (double)st->echo_tcp);
	lab[1] = "udp";
	prom_sample(b, "netprobe_serve_echoes_total", lab,
	            (double)st->echo_udp);
	prom_family(b, "netprobe_serve_refusals_total", "counter",
	            "Connections refused at admission, by reason.");
	lab[0] = "reason";
	for (int i = 0; i < SERVE_REFUSE_N; i++) {
		lab[1] = refusal_names[i];
		prom_sample(b, "netprobe_serve_refusals_total", lab,
		            (double)st->refused[i]);
	}
	prom_family(b, "netprobe_serve_frames_rejected_total", "counter",
	            "Requests answered with an ERROR frame, by its code.");
	lab[0] = "code";
	for (unsigned i = 0; i < SERVE_STATS_CODES; i++) {
		if (st->rejected[i] == 0 && i != 1 && i != 4)
			continue; /* malformed and limit always shown */
		lab[1] = code_name(i);
		prom_sample(b, "netprobe_serve_frames_rejected_total", lab,
		            (double)st->rejected[i]);
	}
	prom_family(b, "netprobe_serve_datagrams_dropped_total", "counter",
	            "UDP datagrams dropped unanswered, by reason.");
	lab[0] = "reason";
	lab[1] = "malformed";
	prom_sample(b, "netprobe_serve_datagrams_dropped_total", lab,
	            (double)st->udp_dropped);
	lab[1] = "rate";
	prom_sample(b, "netprobe_serve_datagrams_dropped_total", lab,
	            (double)st->udp_rate);
	return b->oom || b->bad ? -1 : 0;
}
