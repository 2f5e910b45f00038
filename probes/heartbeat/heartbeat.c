/* netprobe heartbeat: holds one TCP connection to a responder and sends
 * stamped echoes at an interval, plus UDP echoes; reports RTT, jitter,
 * loss, reconnects and the moment a held connection went silent. Signal
 * handlers only set a flag, as OpenBSD ping does; one summary at the end. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "commands.h"
#include "doc/cmdrun.h"
#include "decide/decide_heartbeat.h"
#include "decide/decide_peerprobe.h"
#include "heartbeat/heartbeat.h"
#include "probe/peerprobe.h"

static volatile sig_atomic_t hb_stop;

/* Only sets the flag the loop checks (as OpenBSD ping does). */
static void hb_on_signal(int sig)
{
	hb_stop = sig;
}

/* One row of the summary table. */
static void print_side(const char *name, const struct hb_side *s)
{
	struct hb_stats st;
	char b[6][32];

	hb_stats_compute(s, &st);
	if (st.min < 0) {
		printf("%-4s %7lld %7lld %6.1f%%  no answers\n", name, s->sent,
		       s->received, st.loss_pct);
		return;
	}
	printf("%-4s %7lld %7lld %6.1f%% %9s %9s %9s %9s %9s %9s\n", name,
	       s->sent, s->received, st.loss_pct,
	       hb_fmt_us(st.min, b[0], sizeof(b[0])),
	       hb_fmt_us(st.median, b[1], sizeof(b[1])),
	       hb_fmt_us(st.p90, b[2], sizeof(b[2])),
	       hb_fmt_us(st.p99, b[3], sizeof(b[3])),
	       hb_fmt_us(st.max, b[4], sizeof(b[4])),
	       hb_fmt_us(st.jitter_us, b[5], sizeof(b[5])));
}

/* Text summary: the table, then the findings. */
static void hb_print(const struct hb_run *r, const struct hb_opts *o,
                     const struct doc *d)
{
	char iv[48], ping[32];

	if (o->interval_us > 0)
		snprintf(iv, sizeof(iv), "every %s",
		         hb_fmt_us(o->interval_us, ping, sizeof(ping)));
	else
		snprintf(iv, sizeof(iv), "ping-pong");
	printf("heartbeat %s:%u (%s, node %s, %s): %s for %.2fs\n", o->host,
	       o->port, r->c.addr, r->peer_node, r->peer_soft, iv,
	       (double)r->elapsed_us / 1e6);
	printf("%-4s %7s %7s %7s %9s %9s %9s %9s %9s %9s\n", "", "sent", "recv",
	       "loss", "min", "median", "p90", "p99", "max", "jitter");
	print_side("tcp", &r->tcp);
	if (r->udp.enabled)
		print_side(o->udp_port && o->udp_port != o->port ? "udp*"
		                                                 : "udp",
		           &r->udp);
	if (r->udp.enabled && o->udp_port && o->udp_port != o->port)
		printf("udp* to port %u, held open by the responder\n",
		       o->udp_port);
	printf("reconnects %lld\n", r->tcp.reconnects);
	doc_print_findings(d, stdout, false);
}

/* The parsed run's document, with the token file as an input (-o may
 * not replace it). Returns as cmd_doc. */
static int hb_run_init(struct cmd_run *cr, const struct hb_opts *o)
{
	cmd_input(cr, o->token_file);
	return cmd_doc(cr);
}

/* The peer probe's text: what the responder saw of us. */
static void hb_peer_print(const struct peer_verdict *v, const json_t *detail,
                          const struct doc *d)
{
	char b[32];
	json_t *p;
	size_t i;

	printf("peer %s (%s): responder answered\n", v->peer, v->peer_addr);
	printf("  local %s (%s)  seen as %s  nat %s\n", v->local_addr,
	       v->local_ifname[0] ? v->local_ifname : "?",
	       v->observed_addr[0] ? v->observed_addr : "?",
	       v->nat < 0 ? "unknown"
	       : v->nat   ? "yes"
	                  : "no");
	printf("  inbound %s:", v->inbound < 0 ? "untested"
	                        : v->inbound   ? "yes"
	                                       : "no");
	json_array_foreach(json_object_get(detail, "ports"), i, p)
	    printf(" %lld/tcp %s (%s)",
	           (long long)json_integer_value(json_object_get(p, "port")),
	           json_string_value(json_object_get(p, "state")),
	           json_string_value(json_object_get(p, "reason")));
	printf("\n  rtt %s\n", hb_fmt_us(v->rtt_us, b, sizeof(b)));
	doc_print_findings(d, stdout, false);
}

/* --peer: the scan's peer probe on its own, one `peers` entry. */
static int hb_peer(struct cmd_run *cr, const struct hb_opts *o,
                   const char *spec)
{
	/* the peer was split once, by the option parser */
	struct peerprobe_opts po = {.default_port = o->port,
	                            .step_us =
	                                o->timeout_set ? o->timeout_us : 0,
	                            .token_file = o->token_file,
	                            .host = o->host,
	                            .port = o->port};
	struct peer_verdict v;
	json_t *detail = NULL, *f;
	size_t i;
	int rc;

	if (hb_run_init(cr, o) < 0)
		return cmd_finish(
		    cr, cmd_fail(cr, "doc", "out of memory", NULL, NULL));
	rc = peerprobe_run(spec, &po, &v, &detail, &cr->doc);
	if (rc == 0 && peerprobe_decide(&v, &cr->doc) < 0)
		rc = -1;
	doc_set(&cr->doc, "peers",
	        json_pack("[o]", detail ? detail : json_null()));
	/* the probe recorded its errors in the document: said once here */
	if (rc != 0)
		json_array_foreach(cr->doc.errors, i, f)
		    cmd_note(cr, "%s",
		             json_string_value(json_object_get(f, "message")));
	rc = rc != 0 ? 2 : cmd_status(cr, true);
	if (!cr->json && !cr->quiet && v.responded)
		hb_peer_print(&v, detail, &cr->doc);
	return cmd_finish(cr, rc);
}

/* A fresh run's state; NULL on no memory. */
static struct hb_run *hb_run_new(const struct hb_opts *o)
{
	struct hb_run *r = calloc(1, sizeof(*r));

	if (r == NULL)
		return NULL;
	r->ufd = -1;
	r->c.fd = r->ctl.fd = -1;
	r->tcp.enabled = true;
	r->tcp.dropped_after_us = r->udp.dropped_after_us = -1;
	r->udp.enabled = o->udp;
	return r;
}

/* Connects, and opens the UDP side. Returns 0, or 2 (reported). */
static int hb_open(struct cmd_run *cr, struct hb_run *r,
                   const struct hb_opts *o)
{
	/* the first connection may take longer than one echo, unless the
	 * user bounded it with --timeout */
	if (hb_connect(r, o, o->timeout_set ? o->timeout_us : 2000000) < 0) {
		doc_set(&cr->doc, "target",
		        json_pack("{s:s, s:o, s:i}", "host", o->host, "address",
		                  r->c.code == CLIENT_E_RESOLVE
		                      ? json_null()
		                      : json_string(r->c.addr),
		                  "port", (int)o->port));
		return cmd_failf(cr, "connect", "%s", r->c.err);
	}
	if (o->udp && o->udp_port && o->udp_port != o->port &&
	    hb_udp_listen(r, o) < 0)
		return cmd_failf(cr, "listen", "%s", r->ctl.err);
	if (o->udp && hb_udp_open(r, o->udp_port) < 0) {
		cmd_fail(cr, "udp", "udp socket", NULL, "%s", strerror(errno));
		r->udp.enabled = false;
	}
	return 0;
}

/* The echoes until the count, the duration or a signal, then the
 * findings. Returns the exit status. */
static int hb_measure(struct cmd_run *cr, struct hb_run *r,
                      const struct hb_opts *o)
{
	struct sigaction sa = {0}, old_int, old_term;

	sa.sa_handler = hb_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	r->t0_us = mono_now_us();
	hb_loop(r, o, &hb_stop);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	doc_set(&cr->doc, "target",
	        json_pack("{s:s, s:s, s:i}", "host", o->host, "address",
	                  r->c.addr, "port", (int)o->port));
	if (r->connected)
		hb_count_segments(r);
	if (decide_heartbeat(&r->tcp, &r->udp, &o->gate, o->interval_us,
	                     &cr->doc) < 0) {
		/* in the document only, as it always was */
		doc_add_error(&cr->doc, "decide", "out of memory");
		return 2;
	}
	/* the responder, not the network, ended the run: no fault, and
	 * no verdict either (2) */
	if (r->resp_dropped) {
		cmd_failf(cr, "responder",
		          "the responder at %s:%u dropped us: %s", r->c.addr,
		          o->port, r->dropped_why);
		cmd_note(cr, "not a network fault; the run stopped there");
	}
	return cmd_status(cr, !r->resp_dropped);
}

/* The results into the document, and the text table. */
static void hb_emit(struct cmd_run *cr, const struct hb_run *r,
                    const struct hb_opts *o, int rc)
{
	struct doc *d = &cr->doc;

	doc_set(d, "duration_us", json_integer(r->elapsed_us));
	doc_set(d, "tcp", hb_side_json(&r->tcp, true));
	if (r->udp.enabled) {
		json_t *u = hb_side_json(&r->udp, false);

		json_object_set_new(
		    u, "port",
		    json_integer(o->udp_port ? o->udp_port : o->port));
		doc_set(d, "udp", u);
	} else {
		doc_set(d, "udp", json_null());
	}
	doc_set(d, "samples_us", hb_samples_json(&r->tcp));
	if (!cr->json && !cr->quiet && (rc != 2 || r->tcp.sent))
		hb_print(r, o, d);
}

/* netprobe heartbeat: parse -> collect -> decide -> finish. Returns 0,
 * 1 when a fault or missed gate was found, 2 when it could not run. */
int cmd_heartbeat(int argc, char **argv)
{
	struct hb_opts o;
	struct hb_run *r;
	struct cmd_run cr;
	int rc;

	cmd_begin(&cr, "netprobe", "heartbeat", stdout, stderr);
	rc = hb_parse(&cr, argc, argv, &o);
	if (rc)
		return rc == 1 ? 0 : 2;
	if ((rc = cmd_parsed(&cr)) != 0)
		return cmd_finish(&cr, rc);
	o.progress = !cr.json && !cr.quiet;
	if (o.peer_probe)
		return hb_peer(&cr, &o, argv[argc - 1]);
	r = hb_run_new(&o);
	if (hb_run_init(&cr, &o) < 0 || r == NULL) {
		free(r);
		return cmd_finish(
		    &cr, cmd_fail(&cr, "doc", "out of memory", NULL, NULL));
	}
	doc_set(&cr.doc, "interval_us", json_integer(o.interval_us));
	rc = hb_open(&cr, r, &o);
	if (rc == 0)
		rc = hb_measure(&cr, r, &o);
	hb_emit(&cr, r, &o, rc);
	client_close(&r->c);
	client_close(&r->ctl);
	if (r->ufd >= 0)
		close(r->ufd);
	hb_side_free(&r->tcp);
	hb_side_free(&r->udp);
	free(r);
	hb_stop = 0;
	return cmd_finish(&cr, rc);
}

CMD_COMMAND(heartbeat, cmd_heartbeat, 60,
            "measure latency over a held connection");
