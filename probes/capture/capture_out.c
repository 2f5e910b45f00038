/* netprobe capture, what it says: errors the house way, the JSON
 * document and the text summary. */
#include <arpa/inet.h>
#include <stdio.h>

#include "base/parse.h"
#include "capture/capture.h"

/* Adds the results to the document. */
void cap_emit_json(const struct cap_state *st, const struct cap_opts *o,
                   long long ran_us, struct doc *d)
{
	json_t *ifs = pcapsum_ifaces_json(&st->sum);

	/* the interface index, which is all a multi-interface pcap file
	 * (Linux cooked v2) records of each packet's interface */
	for (int i = 0; i < st->nh && ifs != NULL; i++)
		json_object_set_new(
		    json_array_get(ifs, (size_t)st->h[i].sum_index), "ifindex",
		    json_integer(st->h[i].ifindex));
	doc_set(d, "interfaces", ifs);
	doc_set(d, "flows", pcapsum_flows_json(&st->sum, CAP_TOP_FLOWS));
	doc_set(d, "syns", pcapsum_syns_json(&st->sum, CAP_MAX_SYNS));
	doc_set(d, "filter",
	        st->have_filter ? json_string(st->filter) : json_null());
	doc_set(d, "duration_us", json_integer(ran_us));
	doc_set(d, "pcap_file", o->write ? json_string(o->write) : json_null());
	doc_set(d, "pcap_read", o->read ? json_string(o->read) : json_null());
	doc_set(d, "packets", json_integer((json_int_t)st->sum.npackets));
	doc_set(d, "pcap_bytes",
	        o->write ? json_integer((json_int_t)st->dump_bytes)
	                 : json_null());
	doc_set(d, "pcap_truncated", json_boolean(st->dump_truncated));
	doc_set(d, "peer", o->peer ? json_string(o->peer) : json_null());
	doc_set(d, "passive", json_boolean(o->passive));
	doc_set(d, "kernel_drops", json_integer((json_int_t)st->kernel_drops));
	doc_set(d, "dropped_to",
	        st->dropped
	            ? json_pack("{s:I, s:I}", "uid", (json_int_t)st->target.uid,
	                        "gid", (json_int_t)st->target.gid)
	            : json_null());
}

/* The compact text summary: one line per interface, then the connection
 * attempts, ICMP errors and the top flows of each interface. */
void cap_emit_text(const struct cap_state *st, const struct cap_opts *o,
                   long long ran_us)
{
	const struct pcapsum_flow *flows[CAP_TOP_FLOWS];
	const struct pcapsum_syn *syns[CAP_MAX_SYNS];
	struct pcapsum_syncount c;
	char dur[32], a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN], ans[48], pb[8];
	size_t nf, ns;

	if (o->read != NULL)
		printf("read %s: %llu packets over %s on %d interface%s%s%s\n",
		       o->read, (unsigned long long)st->sum.npackets,
		       fmt_duration(ran_us / 1000 * 1000, dur, sizeof(dur)),
		       st->sum.nifaces, st->sum.nifaces == 1 ? "" : "s",
		       st->have_filter ? ", filter: " : "",
		       st->have_filter ? st->filter : "");
	else
		printf("captured %s on %d interface%s%s%s\n",
		       fmt_duration(ran_us / 1000 * 1000, dur, sizeof(dur)),
		       st->nh, st->nh == 1 ? "" : "s",
		       st->have_filter ? ", filter: " : "",
		       st->have_filter ? st->filter : "");
	printf("%-16s %8s %8s %10s %10s %6s %6s %6s %6s %7s\n", "interface",
	       "pkts_in", "pkts_out", "bytes_in", "bytes_out", "synack", "rst",
	       "icmp", "no_ans", "retrans");
	for (int i = 0; i < st->sum.nifaces; i++) {
		const struct pcapsum_iface *ifc = &st->sum.ifaces[i];

		pcapsum_syn_counts(&st->sum, i, &c);
		printf("%-16s %8llu %8llu %10llu %10llu %6llu %6llu %6llu "
		       "%6llu %7llu\n",
		       ifc->name, (unsigned long long)ifc->packets_in,
		       (unsigned long long)ifc->packets_out,
		       (unsigned long long)ifc->bytes_in,
		       (unsigned long long)ifc->bytes_out,
		       (unsigned long long)c.synack, (unsigned long long)c.rst,
		       (unsigned long long)c.icmp,
		       (unsigned long long)c.unanswered,
		       (unsigned long long)ifc->retransmissions);
		for (int j = 0; j < ifc->nicmp; j++)
			printf("  %s error type %u code %u: %llu\n",
			       ifc->icmp[j].v6 ? "icmp6" : "icmp",
			       ifc->icmp[j].type, ifc->icmp[j].code,
			       (unsigned long long)ifc->icmp[j].count);
	}
	ns = pcapsum_syns_ordered(&st->sum, syns, CAP_MAX_SYNS);
	if (ns > 0)
		printf("connection attempts:\n");
	for (size_t i = 0; i < ns; i++) {
		inet_ntop(syns[i]->t.family, syns[i]->t.src, a, sizeof(a));
		inet_ntop(syns[i]->t.family, syns[i]->t.dst, b, sizeof(b));
		printf("  %-12s %s:%u -> %s:%u  %s%s\n",
		       st->sum.ifaces[syns[i]->iface].name, a, syns[i]->t.sport,
		       b, syns[i]->t.dport,
		       pcapsum_answer_text(syns[i], ans, sizeof(ans)),
		       syns[i]->sends > 1 ? " (SYN sent again)" : "");
	}
	nf = pcapsum_top_flows(&st->sum, flows, CAP_TOP_FLOWS);
	for (int i = 0; i < st->sum.nifaces; i++) {
		int shown = 0;

		for (size_t j = 0; j < nf && shown < 5; j++) {
			if (flows[j]->iface != i)
				continue;
			if (shown++ == 0)
				printf("top flows on %s:\n",
				       st->sum.ifaces[i].name);
			inet_ntop(flows[j]->t.family, flows[j]->t.src, a,
			          sizeof(a));
			inet_ntop(flows[j]->t.family, flows[j]->t.dst, b,
			          sizeof(b));
			printf("  %-5s %s:%u -> %s:%u  %llu packets, %llu "
			       "bytes\n",
			       pcapsum_proto_name(flows[j]->t.proto, pb,
			                          sizeof(pb)),
			       a, flows[j]->t.sport, b, flows[j]->t.dport,
			       (unsigned long long)flows[j]->packets,
			       (unsigned long long)flows[j]->bytes);
		}
	}
	if (o->write != NULL)
		printf("wrote %s (%llu bytes%s)\n", o->write,
		       (unsigned long long)st->dump_bytes,
		       st->dump_truncated ? ", stopped at --max-bytes" : "");
	if (st->kernel_drops > 0)
		printf("the kernel dropped %llu packets (buffer full)\n",
		       (unsigned long long)st->kernel_drops);
	if (st->dropped)
		printf("capturing as uid %u after dropping root\n",
		       (unsigned)st->target.uid);
}
