/* netprobe capture -w: the pcap file, one interface in its own link type
 * or several in Linux cooked v2, bounded by --max-bytes. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/capture.h"

/* Opens the pcap file: the handle's own link type for one interface,
 * Linux cooked v2 (which records the interface index of every packet)
 * for several. The file belongs to the sudo user when there is one.
 * Returns 0, or 2 after reporting. */
int cap_open_dump(struct cap_state *st, const char *path, struct cmd_run *run)
{
	/* in place: the capture gives up root before it closes the file */
	static const struct outfile_opts in_place = {.in_place = true};
	FILE *fp;
	int fd;

	st->dump_linktype = st->nh == 1 ? st->h[0].linktype : DLT_LINUX_SLL2;
	st->dead = pcap_open_dead(st->dump_linktype, CAP_SNAPLEN_WRITE);
	st->conv = malloc(CAP_SNAPLEN_WRITE + SLL2_HDR);
	if (st->dead == NULL || st->conv == NULL) {
		cmd_fail(run, "write", "cannot write", path, "no memory");
		return 2;
	}
	if (outfile_open(&st->out, path, &in_place) < 0) {
		cmd_failf(run, "write", "%s", st->out.why);
		return 2;
	}
	/* the dumper closes its own stream; the outfile's commits the file */
	fd = dup(fileno(st->out.fp));
	fp = fd < 0 ? NULL : fdopen(fd, "w");
	st->dump = fp == NULL ? NULL : pcap_dump_fopen(st->dead, fp);
	if (st->dump == NULL) {
		if (fp != NULL)
			fclose(fp);
		else if (fd >= 0)
			close(fd);
		outfile_abort(&st->out);
		cmd_fail(run, "write", "cannot write", path, "%s",
		         fp == NULL ? strerror(errno) : pcap_geterr(st->dead));
		return 2;
	}
	st->dump_bytes = 24; /* the file header */
	if (st->out.created && strcmp(st->target.who, "SUDO_UID") == 0 &&
	    geteuid() == 0 &&
	    fchown(fileno(fp), st->target.uid, st->target.gid) < 0)
		doc_add_error(&run->doc, "write",
		              "cannot give '%s' to uid %u: %s", path,
		              (unsigned)st->target.uid, strerror(errno));
	return 0;
}

/* Rewrites one packet's link header as Linux cooked v2 into st->conv.
 * Returns the new captured length, or 0 for a link type it cannot carry
 * (the packet is then left out of the file, still summarised). */
static size_t to_sll2(struct cap_state *st, const struct cap_handle *h,
                      const unsigned char *data, size_t caplen, int dir,
                      size_t *hdrlen)
{
	unsigned char *o = st->conv;
	unsigned proto, hatype = ARPHRD_NONE_, alen = 0;
	const unsigned char *addr = NULL;
	size_t skip;

	memset(o, 0, SLL2_HDR);
	switch (h->linktype) {
	case DLT_EN10MB:
		if (caplen < 14)
			return 0;
		proto = (unsigned)data[12] << 8 | data[13];
		hatype = ARPHRD_ETHER_;
		alen = 6;
		addr = data + 6;
		skip = 14;
		break;
	case DLT_LINUX_SLL:
		if (caplen < 16)
			return 0;
		proto = (unsigned)data[14] << 8 | data[15];
		hatype = (unsigned)data[2] << 8 | data[3];
		alen = data[5] > 8 ? 8 : data[5];
		addr = data + 6;
		skip = 16;
		break;
	case DLT_LINUX_SLL2:
		if (caplen < SLL2_HDR)
			return 0;
		memcpy(o, data, SLL2_HDR);
		skip = SLL2_HDR;
		proto = (unsigned)data[0] << 8 | data[1];
		hatype = (unsigned)data[8] << 8 | data[9];
		break;
	case DLT_RAW:
	case DLT_IPV4:
	case DLT_IPV6:
		if (caplen < 1)
			return 0;
		proto = (data[0] >> 4) == 6 ? 0x86dd : 0x0800;
		skip = 0;
		break;
	default:
		return 0;
	}
	o[0] = (unsigned char)(proto >> 8);
	o[1] = (unsigned char)proto;
	o[4] = (unsigned char)(h->ifindex >> 24);
	o[5] = (unsigned char)(h->ifindex >> 16);
	o[6] = (unsigned char)(h->ifindex >> 8);
	o[7] = (unsigned char)h->ifindex;
	o[8] = (unsigned char)(hatype >> 8);
	o[9] = (unsigned char)hatype;
	if (h->linktype != DLT_LINUX_SLL2) {
		o[10] = dir == PCAPSUM_DIR_OUT ? 4 : 0;
		o[11] = (unsigned char)alen;
		if (addr != NULL)
			memcpy(o + 12, addr, alen);
	}
	memcpy(o + SLL2_HDR, data + skip, caplen - skip);
	*hdrlen = skip;
	return caplen - skip + SLL2_HDR;
}

/* Writes one packet unless the file has reached --max-bytes. */
void cap_dump_packet(struct cap_state *st, const struct cap_handle *h,
                     const struct pcap_pkthdr *hdr, const unsigned char *data,
                     int dir)
{
	struct pcap_pkthdr h2 = *hdr;
	const unsigned char *out = data;
	size_t skip = 0, n;

	if (st->dump == NULL || st->dump_truncated)
		return;
	if (st->dump_linktype == DLT_LINUX_SLL2 && st->nh > 1) {
		n = to_sll2(st, h, data, hdr->caplen, dir, &skip);
		if (n == 0)
			return;
		h2.caplen = (bpf_u_int32)n;
		h2.len = (bpf_u_int32)(hdr->len - skip + SLL2_HDR);
		out = st->conv;
	}
	if (st->dump_bytes + 16 + h2.caplen > st->max_bytes) {
		st->dump_truncated = true;
		return;
	}
	pcap_dump((unsigned char *)st->dump, &h2, out);
	st->dump_bytes += 16 + h2.caplen;
}
