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

#include "commands.h"
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

int hb_write_output(const struct hb_opts *o, const struct doc *d)
{
	const char *in[1] = {o->token_file};
	struct outfile_opts oo = {.no_clobber = o->no_clobber,
	                          .inputs = in,
	                          .ninputs = o->token_file ? 1 : 0};
	char why[512];

	if (doc_write_output(d, o->output, &oo, why, sizeof(why)) < 0) {
		fprintf(stderr, "netprobe heartbeat: %s\n", why);
		return -1;
	}
	return 0;
}

/* --peer: the scan's peer probe on its own, one `peers` entry. */
static int hb_peer(const struct hb_opts *o, const char *spec)
{
	/* the peer was split once, by the option parser */
	struct peerprobe_opts po = {.default_port = o->port,
	                            .step_us =
	                                o->timeout_set ? o->timeout_us : 0,
	                            .token_file = o->token_file,
	                            .host = o->host,
	                            .port = o->port};
	struct peer_verdict v;
	struct doc d = {0};
	json_t *detail = NULL, *f, *p;
	size_t i;
	int rc;

	if (doc_init(&d, "netprobe", "heartbeat") < 0) {
		fprintf(stderr, "netprobe heartbeat: out of memory\n");
		return 2;
	}
	rc = peerprobe_run(spec, &po, &v, &detail, &d);
	if (rc == 0 && peerprobe_decide(&v, &d) < 0)
		rc = -1;
	doc_set(&d, "peers", json_pack("[o]", detail ? detail : json_null()));
	if (rc != 0) {
		json_array_foreach(d.errors, i, f)
		    fprintf(stderr, "netprobe heartbeat: %s\n",
		            json_string_value(json_object_get(f, "message")));
	}
	rc = rc != 0 ? 2 : doc_exit_status(&d, true);
	if (o->output && hb_write_output(o, &d) < 0)
		rc = 2;
	if (o->json && !o->output) {
		doc_write(&d, stdout);
	} else if (v.responded) {
		char b[32];

		printf("peer %s (%s): responder answered\n", v.peer,
		       v.peer_addr);
		printf("  local %s (%s)  seen as %s  nat %s\n", v.local_addr,
		       v.local_ifname[0] ? v.local_ifname : "?",
		       v.observed_addr[0] ? v.observed_addr : "?",
		       v.nat < 0 ? "unknown"
		       : v.nat   ? "yes"
		                 : "no");
		printf("  inbound %s:", v.inbound < 0 ? "untested"
		                        : v.inbound   ? "yes"
		                                      : "no");
		json_array_foreach(json_object_get(detail, "ports"), i, p)
		    printf(" %lld/tcp %s (%s)",
		           (long long)json_integer_value(
		               json_object_get(p, "port")),
		           json_string_value(json_object_get(p, "state")),
		           json_string_value(json_object_get(p, "reason")));
		printf("\n  rtt %s\n", hb_fmt_us(v.rtt_us, b, sizeof(b)));
		doc_print_findings(&d, stdout, false);
	}
	doc_free(&d);
	return rc;
}

/* netprobe heartbeat: collect, decide, emit. Returns 0, 1 when a fault
 * or missed gate was found, 2 when it could not run. */
int cmd_heartbeat(int argc, char **argv)
{
	struct hb_opts o;
	struct hb_run *r;
	struct doc d = {0};
	struct sigaction sa = {0}, old_int, old_term;
	int rc;

	rc = hb_parse(argc, argv, &o);
	if (rc)
		return rc == 1 ? 0 : 2;
	if (o.peer_probe)
		return hb_peer(&o, argv[argc - 1]);
	r = calloc(1, sizeof(*r));
	if (!r || doc_init(&d, "netprobe", "heartbeat") < 0) {
		fprintf(stderr, "netprobe heartbeat: out of memory\n");
		free(r);
		return 2;
	}
	r->ufd = -1;
	r->c.fd = r->ctl.fd = -1;
	r->tcp.enabled = true;
	r->tcp.dropped_after_us = r->udp.dropped_after_us = -1;
	r->udp.enabled = o.udp;
	doc_set(&d, "interval_us", json_integer(o.interval_us));
	/* the first connection may take longer than one echo, unless the
	 * user bounded it with --timeout */
	if (hb_connect(r, &o, o.timeout_set ? o.timeout_us : 2000000) < 0) {
		fprintf(stderr, "netprobe heartbeat: %s\n", r->c.err);
		doc_add_error(&d, "connect", "%s", r->c.err);
		doc_set(&d, "target",
		        json_pack("{s:s, s:o, s:i}", "host", o.host, "address",
		                  r->c.code == CLIENT_E_RESOLVE
		                      ? json_null()
		                      : json_string(r->c.addr),
		                  "port", (int)o.port));
		rc = 2;
		goto emit;
	}
	if (o.udp && o.udp_port && o.udp_port != o.port &&
	    hb_udp_listen(r, &o) < 0) {
		fprintf(stderr, "netprobe heartbeat: %s\n", r->ctl.err);
		doc_add_error(&d, "listen", "%s", r->ctl.err);
		rc = 2;
		goto emit;
	}
	if (o.udp && hb_udp_open(r, o.udp_port) < 0) {
		fprintf(stderr, "netprobe heartbeat: udp socket: %s\n",
		        strerror(errno));
		r->udp.enabled = false;
	}
	sa.sa_handler = hb_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	r->t0_us = client_now_us();
	hb_loop(r, &o, &hb_stop);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	doc_set(&d, "target",
	        json_pack("{s:s, s:s, s:i}", "host", o.host, "address",
	                  r->c.addr, "port", (int)o.port));
	if (r->connected)
		hb_count_segments(r);
	if (decide_heartbeat(&r->tcp, &r->udp, &o.gate, o.interval_us, &d) <
	    0) {
		doc_add_error(&d, "decide", "out of memory");
		rc = 2;
		goto emit;
	}
	/* the responder, not the network, ended the run: no fault, and
	 * no verdict either (2) */
	if (r->resp_dropped) {
		fprintf(stderr,
		        "netprobe heartbeat: the responder at %s:%u dropped "
		        "us: %s (not a network fault; the run stopped there)\n",
		        r->c.addr, o.port, r->dropped_why);
		doc_add_error(&d, "responder",
		              "the responder at %s:%u dropped us: %s",
		              r->c.addr, o.port, r->dropped_why);
	}
	rc = doc_exit_status(&d, !r->resp_dropped);
emit:
	doc_set(&d, "duration_us", json_integer(r->elapsed_us));
	doc_set(&d, "tcp", hb_side_json(&r->tcp, true));
	if (r->udp.enabled) {
		json_t *u = hb_side_json(&r->udp, false);

		json_object_set_new(
		    u, "port", json_integer(o.udp_port ? o.udp_port : o.port));
		doc_set(&d, "udp", u);
	} else {
		doc_set(&d, "udp", json_null());
	}
	doc_set(&d, "samples_us", hb_samples_json(&r->tcp));
	if (o.output && hb_write_output(&o, &d) < 0)
		rc = 2;
	if (o.json && !o.output)
		doc_write(&d, stdout);
	else if (rc != 2 || r->tcp.sent)
		hb_print(r, &o, &d);
	client_close(&r->c);
	client_close(&r->ctl);
	if (r->ufd >= 0)
		close(r->ufd);
	hb_side_free(&r->tcp);
	hb_side_free(&r->udp);
	doc_free(&d);
	free(r);
	hb_stop = 0;
	return rc;
}
