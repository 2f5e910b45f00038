/* netprobe capture -r: a pcap or pcapng file summarised as a live capture
 * is, each packet's direction from the host's own MAC. */
#include <net/if.h>
#include <string.h>

#include "capture/capture.h"

/* The MAC seen in most unicast Ethernet frames of the file, source or
 * destination: the capturing interface's own, which gives each packet its
 * direction. Reads at most CAP_READ_SAMPLE frames. Returns true when one
 * was found. */
static bool file_own_mac(const char *path, unsigned char mac[6])
{
	struct {
		unsigned char a[6];
		unsigned long long n;
	} seen[64];
	char err[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *hdr;
	const unsigned char *data;
	size_t nseen = 0, best = 0;
	pcap_t *p = pcap_open_offline(path, err);

	if (p == NULL || pcap_datalink(p) != DLT_EN10MB) {
		if (p != NULL)
			pcap_close(p);
		return false;
	}
	for (int k = 0;
	     k < CAP_READ_SAMPLE && pcap_next_ex(p, &hdr, &data) == 1; k++) {
		if (hdr->caplen < 14)
			continue;
		for (int end = 0; end < 2; end++) {
			const unsigned char *a = data + 6 * end;
			size_t i;

			if (a[0] & 1) /* broadcast, multicast */
				continue;
			for (i = 0; i < nseen && memcmp(seen[i].a, a, 6); i++)
				;
			if (i == nseen &&
			    nseen < sizeof(seen) / sizeof(seen[0])) {
				memcpy(seen[nseen].a, a, 6);
				seen[nseen++].n = 0;
			}
			if (i < nseen)
				seen[i].n++;
		}
	}
	pcap_close(p);
	for (size_t i = 1; i < nseen; i++)
		if (seen[i].n > seen[best].n)
			best = i;
	if (nseen == 0)
		return false;
	memcpy(mac, seen[best].a, 6);
	return true;
}

/* The summary's interface for one packet of the file: per interface index
 * in Linux cooked v2 (as --write makes for several interfaces), else one
 * for the whole file. Returns its index, or -1 past PCAPSUM_MAX_IFACES. */
static int file_iface(struct cap_state *st, const struct cap_opts *o,
                      int linktype, const unsigned char *data, size_t caplen,
                      const unsigned char *mac)
{
	char name[IF_NAMESIZE];
	const char *base;
	unsigned idx;

	if (linktype == DLT_LINUX_SLL2 && caplen >= 8) {
		idx = (unsigned)data[4] << 24 | (unsigned)data[5] << 16 |
		      (unsigned)data[6] << 8 | data[7];
		snprintf(name, sizeof(name), "ifindex%u", idx);
	} else {
		base = strrchr(o->read, '/');
		snprintf(name, sizeof(name), "%s", base ? base + 1 : o->read);
	}
	for (int i = 0; i < st->sum.nifaces; i++)
		if (strcmp(st->sum.ifaces[i].name, name) == 0)
			return i;
	return pcapsum_add_iface(&st->sum, name, mac);
}

/* -r: summarises a pcap or pcapng file as a live capture is summarised,
 * after the same filter. What was read before a damaged record is kept,
 * with an error. Returns 0, or 2 after reporting; *span_us is the time
 * from the first packet to the last. */
int cap_read_file(struct cap_state *st, const struct cap_opts *o,
                  const volatile sig_atomic_t *stop, struct cmd_run *run,
                  long long *span_us)
{
	char err[PCAP_ERRBUF_SIZE];
	struct bpf_program prog;
	struct pcap_pkthdr *hdr;
	const unsigned char *data;
	unsigned char mac[6];
	bool have_mac = file_own_mac(o->read, mac), full = false;
	long long first = -1, last = 0, ts;
	pcap_t *p;
	int lt, rc, si;

	p = pcap_open_offline(o->read, err);
	if (p == NULL) {
		cmd_fail(run, "read", "cannot read", o->read, "%s", err);
		return 2;
	}
	lt = pcap_datalink(p);
	if (st->have_filter) {
		if (pcap_compile(p, &prog, st->filter, 1,
		                 PCAP_NETMASK_UNKNOWN) < 0) {
			cmd_fail(run, "filter", "filter does not compile",
			         st->filter, "%s", pcap_geterr(p));
			pcap_close(p);
			return 2;
		}
		rc = pcap_setfilter(p, &prog);
		pcap_freecode(&prog);
		if (rc < 0) {
			cmd_fail(run, "filter", "cannot install filter", NULL,
			         "%s", pcap_geterr(p));
			pcap_close(p);
			return 2;
		}
	}
	/* bounded by the file; a signal ends it early, as a capture */
	while (!*stop && (rc = pcap_next_ex(p, &hdr, &data)) == 1) {
		si = file_iface(st, o, lt, data, hdr->caplen,
		                have_mac ? mac : NULL);
		if (si < 0) {
			full = true;
			continue;
		}
		pcapsum_packet(&st->sum, si, lt, data, hdr->caplen, hdr->len);
		ts = (long long)hdr->ts.tv_sec * 1000000LL + hdr->ts.tv_usec;
		if (first < 0)
			first = ts;
		last = ts;
	}
	if (rc == PCAP_ERROR)
		cmd_failf(run, "read", "'%s' is damaged after %llu packets: %s",
		          o->read, (unsigned long long)st->sum.npackets,
		          pcap_geterr(p));
	if (full)
		doc_add_error(&run->doc, "read",
		              "more than %d interfaces in '%s': "
		              "the others are left out",
		              PCAPSUM_MAX_IFACES, o->read);
	pcap_close(p);
	*span_us = first < 0 || last < first ? 0 : last - first;
	return 0;
}
