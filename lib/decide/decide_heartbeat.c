/* heartbeat's deciders: heartbeat-dropped and heartbeat-loss from the
 * statistics the probe collected (probe/hb.h); pure but for the
 * document. */
#include "decide/decide_heartbeat.h"

/* The first drop: closed by the peer, or silent past the retransmissions
 * with something else still answered (state lost on the way), or silent
 * with nothing answered at all (the path or the peer went away). */
static int decide_drop(const struct hb_side *tcp, long long interval_us,
                       struct doc *d)
{
	const struct hb_drop *x = &tcp->drop;
	char a[32], b[32];
	json_t *ev = NULL;

	evidence_add(&ev, "heartbeat",
	             "last answer %s after the connection "
	             "opened",
	             hb_fmt_us(tcp->dropped_after_us, a, sizeof(a)));
	evidence_add(&ev, "heartbeat",
	             "declared dropped %s after the last answer (interval "
	             "%s)",
	             hb_fmt_us(tcp->detect_us, b, sizeof(b)),
	             hb_fmt_us(interval_us, a, sizeof(a)));
	if (x->kind != HB_DROP_SILENT) {
		evidence_add(&ev, "socket",
		             "the peer closed or reset the connection");
		evidence_add(&ev, "heartbeat", "%s",
		             x->reconnected ? "a new connection was answered"
		                            : "no new connection was answered");
		if (doc_add_finding(
		        d, FINDING_HEARTBEAT_DROPPED, -1, ev,
		        x->reconnected
		            ? NULL
		            : "check that the responder still runs on "
		              "the peer; if it does, a firewall or NAT "
		              "resets idle connections: keepalives, or "
		              "remove it",
		        "the held connection was closed by the peer "
		        "%s after it opened",
		        hb_fmt_us(tcp->dropped_after_us, a, sizeof(a))) < 0)
			return -1;
		return 0;
	}
	evidence_add(&ev, "tcp_info",
	             "the kernel retransmitted the oldest unanswered segment "
	             "%d times (its RTO backed off to %s) with no "
	             "acknowledgement; %d asked for at the %.1f%% loss "
	             "measured until then",
	             x->retransmits, hb_fmt_us(x->rto_us, a, sizeof(a)),
	             x->needed, x->loss_pct);
	if (x->udp_answered > 0)
		evidence_add(&ev, "heartbeat",
		             "%lld UDP echoes sent after the last TCP answer "
		             "were answered",
		             x->udp_answered);
	if (x->reconnected)
		evidence_add(&ev, "heartbeat",
		             "a new connection to the same responder was "
		             "answered");
	if (x->udp_answered > 0 || x->reconnected) {
		if (doc_add_finding(
		        d, FINDING_HEARTBEAT_DROPPED, -1, ev, NULL,
		        "the held connection stopped being answered "
		        "%s after it opened, while %s still got "
		        "through: its state was dropped on the way",
		        hb_fmt_us(tcp->dropped_after_us, a, sizeof(a)),
		        x->udp_answered > 0 ? "UDP echoes"
		                            : "a new connection") < 0)
			return -1;
		return 0;
	}
	evidence_add(&ev, "heartbeat",
	             "no UDP echo sent after the last TCP answer was "
	             "answered, and no new connection was");
	if (doc_add_finding(
	        d, FINDING_HEARTBEAT_LOSS, SEV_FAULT, ev,
	        "the path or the peer went away: check the link and "
	        "the peer (netprobe path, ip link), not NAT state",
	        "everything toward the peer went unanswered %s after "
	        "the connection opened: lost, not a dropped "
	        "connection",
	        hb_fmt_us(tcp->dropped_after_us, a, sizeof(a))) < 0)
		return -1;
	return 0;
}

/* Findings from the statistics; see hb.h. */
int decide_heartbeat(const struct hb_side *tcp, const struct hb_side *udp,
                     const struct hb_gate *g, long long interval_us,
                     struct doc *d)
{
	struct hb_stats ts, us;
	char a[32], b[32];
	int missed = 0;

	hb_stats_compute(tcp, &ts);
	hb_stats_compute(udp, &us);
	if (tcp->dropped_after_us >= 0 && decide_drop(tcp, interval_us, d) < 0)
		return -1;
	for (int i = 0; i < 2; i++) {
		const struct hb_side *s = i ? udp : tcp;
		const struct hb_stats *st = i ? &us : &ts;
		const char *name = i ? "udp" : "tcp";
		double rx = 0, loss = st->loss_pct;
		long long lost = s->lost, nrx = s->retrans;
		json_t *ev = NULL;

		if (!s->enabled || s->sent == 0)
			continue;
		/* the echoes in flight when the connection was dropped are
		 * the drop's finding, not loss */
		if (!i && tcp->dropped_after_us >= 0) {
			lost -= tcp->drop.lost < lost ? tcp->drop.lost : lost;
			loss = 100.0 * (double)lost / (double)s->sent;
		}
		/* TCP hides its losses in retransmissions: count those,
		 * but the dropped connection's in its silence */
		if (!i && s->segs_out > 0) {
			if (tcp->dropped_after_us >= 0)
				nrx -= tcp->drop.retrans < nrx
				           ? tcp->drop.retrans
				           : nrx;
			rx = 100.0 * (double)nrx / (double)s->segs_out;
		}
		if (loss > 1.0 || rx > 1.0 ||
		    (st->median >= 0 && st->jitter_us > st->median &&
		     st->jitter_us > 1000)) {
			evidence_add(&ev, "heartbeat",
			             "%s: %lld of %lld lost "
			             "(%.1f%%), jitter %lldus, median %lldus",
			             name, lost, s->sent, loss, st->jitter_us,
			             st->median);
			if (lost != s->lost)
				evidence_add(
				    &ev, "heartbeat",
				    "besides the %lld in flight when the "
				    "held connection was dropped",
				    s->lost - lost);
			if (!i && s->segs_out > 0)
				evidence_add(
				    &ev, "tcp_info",
				    "%lld of %lld segments retransmitted "
				    "(%.1f%%)",
				    nrx, s->segs_out, rx);
			if ((!i && rx > loss
			         ? doc_add_finding(
			               d, FINDING_HEARTBEAT_LOSS, -1, ev, NULL,
			               "tcp heartbeats: %.1f%% of segments "
			               "retransmitted, %.1f%% lost, jitter "
			               "%lldus",
			               rx, loss, st->jitter_us)
			         : doc_add_finding(
			               d, FINDING_HEARTBEAT_LOSS, -1, ev, NULL,
			               "%s heartbeats: %.1f%% lost, jitter "
			               "%lldus",
			               name, loss, st->jitter_us)) < 0)
				return -1;
		}
		if (g->max_loss_pct >= 0 && st->loss_pct > g->max_loss_pct) {
			missed++;
			if (doc_add_finding(d, FINDING_HEARTBEAT_LOSS,
			                    SEV_FAULT, NULL, NULL,
			                    "%s loss %.1f%% above --max-loss "
			                    "%.1f%%",
			                    name, st->loss_pct,
			                    g->max_loss_pct) < 0)
				return -1;
		}
		if (g->max_rtt_us >= 0 && st->p99 > g->max_rtt_us) {
			missed++;
			if (doc_add_finding(
			        d, FINDING_HEARTBEAT_LOSS, SEV_FAULT, NULL,
			        NULL,
			        "%s p99 RTT %s above --max-rtt "
			        "%s",
			        name, hb_fmt_us(st->p99, a, sizeof(a)),
			        hb_fmt_us(g->max_rtt_us, b, sizeof(b))) < 0)
				return -1;
		}
		if (g->max_rtt_us >= 0 && st->p99 < 0 && s->sent > 0) {
			missed++;
			if (doc_add_finding(d, FINDING_HEARTBEAT_LOSS,
			                    SEV_FAULT, NULL, NULL,
			                    "%s: no answer at all, --max-rtt "
			                    "missed",
			                    name) < 0)
				return -1;
		}
	}
	return missed;
}
