/* Capture summary: decodes link, IP and TCP/UDP/ICMP headers from bytes
 * and keeps bounded tables of flows and connection attempts. */
#include "probe/pcapsum.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/dlt.h>

#define ETH_P_IPV4 0x0800
#define ETH_P_IPV6_ 0x86dd
#define ETH_P_8021Q_ 0x8100
#define ETH_P_8021AD_ 0x88a8
#define TCP_FIN 0x01
#define TCP_SYN 0x02
#define TCP_RST 0x04
#define TCP_ACK 0x10
#define SLL_OUTGOING 4 /* PACKET_OUTGOING in a Linux cooked header */
#define MAX_EXT_HDRS 8 /* IPv6 extension headers skipped at most */

int pcapsum_init(struct pcapsum *s)
{
	memset(s, 0, sizeof(*s));
	s->flows = calloc(PCAPSUM_FLOW_SLOTS, sizeof(*s->flows));
	s->syns = calloc(PCAPSUM_SYN_SLOTS, sizeof(*s->syns));
	if (s->flows == NULL || s->syns == NULL) {
		pcapsum_free(s);
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

void pcapsum_free(struct pcapsum *s)
{
	free(s->flows);
	free(s->syns);
	s->flows = NULL;
	s->syns = NULL;
}

int pcapsum_add_iface(struct pcapsum *s, const char *name,
                      const unsigned char *mac)
{
	struct pcapsum_iface *ifc;

	if (s->nifaces >= PCAPSUM_MAX_IFACES) {
		errno = ENOSPC;
		return -1;
	}
	ifc = &s->ifaces[s->nifaces];
	memset(ifc, 0, sizeof(*ifc));
	snprintf(ifc->name, sizeof(ifc->name), "%s", name);
	if (mac != NULL) {
		memcpy(ifc->mac, mac, 6);
		ifc->have_mac = true;
	}
	return s->nifaces++;
}

int pcapsum_add_local(struct pcapsum *s, int family, const void *addr)
{
	struct pcapsum_local *l;

	if (family != AF_INET && family != AF_INET6) {
		errno = EAFNOSUPPORT;
		return -1;
	}
	if (s->nlocals >= PCAPSUM_MAX_LOCALS) {
		errno = ENOSPC;
		return -1;
	}
	l = &s->locals[s->nlocals++];
	memset(l, 0, sizeof(*l));
	l->family = (uint8_t)family;
	memcpy(l->a, addr, family == AF_INET ? 4 : 16);
	return 0;
}

/* Big-endian reads from a buffer already checked for length. */
static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* True when a is one of this host's addresses: it gives direction. */
static bool is_local(const struct pcapsum *s, int family, const uint8_t *a)
{
	size_t n = family == AF_INET ? 4 : 16;

	for (int i = 0; i < s->nlocals; i++)
		if (s->locals[i].family == family &&
		    memcmp(s->locals[i].a, a, n) == 0)
			return true;
	return false;
}

/* FNV-1a over a tuple, for the open-addressing tables. */
static uint32_t tuple_hash(const struct pcapsum_tuple *t, int salt)
{
	const uint8_t *p = (const uint8_t *)t;
	uint32_t h = 2166136261u ^ (uint32_t)salt;

	for (size_t i = 0; i < sizeof(*t); i++) {
		h ^= p[i];
		h *= 16777619u;
	}
	return h;
}

/* Tuples are compared whole (they are zeroed before filling). */
static bool tuple_eq(const struct pcapsum_tuple *a,
                     const struct pcapsum_tuple *b)
{
	return memcmp(a, b, sizeof(*a)) == 0;
}

/* The tuple of the answer: addresses and ports swapped. */
static void tuple_reverse(const struct pcapsum_tuple *t,
                          struct pcapsum_tuple *r)
{
	*r = *t;
	memcpy(r->src, t->dst, 16);
	memcpy(r->dst, t->src, 16);
	r->sport = t->dport;
	r->dport = t->sport;
}

/* Finds the flow of (iface, tuple), adding it while the table has room
 * (kept at most three quarters full). Returns NULL when full. */
static struct pcapsum_flow *flow_get(struct pcapsum *s, int iface,
                                     const struct pcapsum_tuple *t)
{
	uint32_t h = tuple_hash(t, iface);
	struct pcapsum_flow *f;

	for (size_t i = 0; i < PCAPSUM_FLOW_SLOTS; i++) {
		f = &s->flows[(h + i) & (PCAPSUM_FLOW_SLOTS - 1)];
		if (!f->used) {
			if (s->nflows >= PCAPSUM_FLOW_SLOTS * 3 / 4)
				return NULL;
			f->used = true;
			f->iface = iface;
			f->t = *t;
			s->nflows++;
			return f;
		}
		if (f->iface == iface && tuple_eq(&f->t, t))
			return f;
	}
	return NULL;
}

/* Finds the connection attempt with this tuple; adds one when add is set
 * and the table has room. Returns NULL otherwise. */
static struct pcapsum_syn *syn_get(struct pcapsum *s,
                                   const struct pcapsum_tuple *t, bool add)
{
	uint32_t h = tuple_hash(t, 0);
	struct pcapsum_syn *y;

	for (size_t i = 0; i < PCAPSUM_SYN_SLOTS; i++) {
		y = &s->syns[(h + i) & (PCAPSUM_SYN_SLOTS - 1)];
		if (!y->used) {
			if (!add || s->nsyns >= PCAPSUM_SYN_SLOTS * 3 / 4)
				return NULL;
			memset(y, 0, sizeof(*y));
			y->used = true;
			y->t = *t;
			y->order = s->nsyns++;
			return y;
		}
		if (tuple_eq(&y->t, t))
			return y;
	}
	return NULL;
}

/* What one decoded IP packet holds, for the counters. */
struct pkt {
	struct pcapsum_tuple t;
	const uint8_t *l4; /* transport header, NULL when not captured */
	size_t l4cap;      /* captured bytes from l4 */
	size_t l4len;      /* bytes from l4 as the IP header says */
	bool first_frag;   /* transport header present in this fragment */
};

/* Skips IPv6 extension headers from next header *nh at p. Returns the
 * offset of the upper-layer header, or -1 when it was not captured. */
static long ip6_skip_ext(const uint8_t *p, size_t cap, size_t off, uint8_t *nh,
                         bool *first_frag)
{
	for (int i = 0; i < MAX_EXT_HDRS; i++) {
		switch (*nh) {
		case 0:  /* hop-by-hop */
		case 43: /* routing */
		case 60: /* destination options */
			if (off + 2 > cap)
				return -1;
			*nh = p[off];
			off += (size_t)(p[off + 1] + 1) * 8;
			break;
		case 44: /* fragment */
			if (off + 8 > cap)
				return -1;
			*nh = p[off];
			if ((rd16(p + off + 2) & 0xfff8) != 0)
				*first_frag = false;
			off += 8;
			break;
		default:
			return (long)off;
		}
	}
	return -1;
}

/* Decodes an IP packet (either version) at p. Returns 0, or -1 when it
 * is not a captured IP header. */
static int ip_decode(const uint8_t *p, size_t cap, struct pkt *k)
{
	size_t hl, tot;
	long off;
	uint8_t nh;

	memset(k, 0, sizeof(*k));
	k->first_frag = true;
	if (cap < 1)
		return -1;
	if ((p[0] >> 4) == 4) {
		if (cap < 20)
			return -1;
		hl = (size_t)(p[0] & 0x0f) * 4;
		tot = rd16(p + 2);
		if (hl < 20 || cap < hl || tot < hl)
			return -1;
		k->t.family = AF_INET;
		k->t.proto = p[9];
		memcpy(k->t.src, p + 12, 4);
		memcpy(k->t.dst, p + 16, 4);
		k->first_frag = (rd16(p + 6) & 0x1fff) == 0;
		k->l4 = p + hl;
		k->l4cap = cap - hl;
		k->l4len = tot - hl;
		return 0;
	}
	if ((p[0] >> 4) == 6) {
		if (cap < 40)
			return -1;
		k->t.family = AF_INET6;
		memcpy(k->t.src, p + 8, 16);
		memcpy(k->t.dst, p + 24, 16);
		nh = p[6];
		off = ip6_skip_ext(p, cap, 40, &nh, &k->first_frag);
		tot = 40 + (size_t)rd16(p + 4);
		k->t.proto = nh;
		if (off < 0 || (size_t)off > cap || (size_t)off > tot) {
			k->l4 = NULL;
			return 0;
		}
		k->l4 = p + off;
		k->l4cap = cap - (size_t)off;
		k->l4len = tot - (size_t)off;
		return 0;
	}
	return -1;
}

/* Fills the ports of a TCP or UDP tuple when the header was captured. */
static void ports(struct pkt *k)
{
	if (k->l4 == NULL || !k->first_frag || k->l4cap < 4)
		return;
	if (k->t.proto == IPPROTO_TCP || k->t.proto == IPPROTO_UDP ||
	    k->t.proto == IPPROTO_SCTP) {
		k->t.sport = rd16(k->l4);
		k->t.dport = rd16(k->l4 + 2);
	}
}

/* Unreachable, source quench, redirect, time exceeded, parameter
 * problem; for ICMPv6 every type below 128. */
static bool icmp_is_error(bool v6, uint8_t type)
{
	if (v6)
		return type < 128;
	return type == 3 || type == 4 || type == 5 || type == 11 || type == 12;
}

/* Counts an ICMP error on the interface, then matches the TCP SYN it
 * quotes (the original packet we, or someone, sent). */
static void on_icmp(struct pcapsum *s, int iface, const struct pkt *k)
{
	struct pcapsum_iface *ifc = &s->ifaces[iface];
	bool v6 = k->t.proto == IPPROTO_ICMPV6;
	uint8_t type, code;
	struct pkt inner;
	struct pcapsum_syn *y;
	int i;

	if (k->l4 == NULL || !k->first_frag || k->l4cap < 8)
		return;
	type = k->l4[0];
	code = k->l4[1];
	if (!icmp_is_error(v6, type))
		return;
	for (i = 0; i < ifc->nicmp; i++)
		if (ifc->icmp[i].v6 == v6 && ifc->icmp[i].type == type &&
		    ifc->icmp[i].code == code)
			break;
	if (i == ifc->nicmp && ifc->nicmp < PCAPSUM_MAX_ICMP) {
		ifc->icmp[i].v6 = v6;
		ifc->icmp[i].type = type;
		ifc->icmp[i].code = code;
		ifc->nicmp++;
	}
	if (i < PCAPSUM_MAX_ICMP)
		ifc->icmp[i].count++;
	/* the quoted packet: its IP header and at least 8 bytes after it */
	if (ip_decode(k->l4 + 8, k->l4cap - 8, &inner) < 0 ||
	    inner.t.proto != IPPROTO_TCP)
		return;
	inner.l4len = inner.l4cap; /* the quote is cut short on purpose */
	ports(&inner);
	if (inner.l4 == NULL || inner.l4cap < 4)
		return;
	y = syn_get(s, &inner.t, false);
	if (y != NULL && y->answer == PCAPSUM_SYN_PENDING) {
		y->answer = PCAPSUM_SYN_ICMP;
		y->icmp_type = type;
		y->icmp_code = code;
		y->icmp_v6 = v6;
	}
}

/* True when sequence number a comes before b (RFC 1982 arithmetic). */
static bool seq_before(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) < 0;
}

/* SYNs, their answers and retransmissions. */
static void on_tcp(struct pcapsum *s, int iface, const struct pkt *k,
                   struct pcapsum_flow *f)
{
	struct pcapsum_tuple rev;
	struct pcapsum_syn *y;
	uint32_t seq, end;
	uint8_t flags;
	size_t doff, len;

	if (k->l4 == NULL || !k->first_frag || k->l4cap < 14)
		return;
	seq = rd32(k->l4 + 4);
	flags = k->l4[13];
	doff = (size_t)(k->l4[12] >> 4) * 4;
	len = k->l4len > doff ? k->l4len - doff : 0;

	if ((flags & (TCP_SYN | TCP_ACK)) == TCP_SYN) {
		y = syn_get(s, &k->t, true);
		if (y == NULL) {
			s->syns_dropped++;
		} else if (y->sends > 0 && y->isn == seq) {
			y->sends++;
			s->ifaces[iface].retransmissions++;
		} else {
			/* a new attempt on a reused tuple starts over */
			y->iface = iface;
			y->isn = seq;
			y->sends = 1;
			y->answer = PCAPSUM_SYN_PENDING;
		}
	} else if (flags & (TCP_SYN | TCP_RST)) {
		tuple_reverse(&k->t, &rev);
		y = syn_get(s, &rev, false);
		if (y != NULL && y->answer == PCAPSUM_SYN_PENDING)
			y->answer = (flags & TCP_RST) ? PCAPSUM_SYN_RST
			                              : PCAPSUM_SYN_SYNACK;
	}
	if (f == NULL || (flags & TCP_RST))
		return;
	end = seq + (uint32_t)len + ((flags & TCP_SYN) ? 1 : 0) +
	      ((flags & TCP_FIN) ? 1 : 0);
	if (len > 0 && f->seq_valid && seq_before(seq, f->next_seq))
		s->ifaces[iface].retransmissions++;
	if (!f->seq_valid || seq_before(f->next_seq, end)) {
		f->next_seq = end;
		f->seq_valid = true;
	}
}

/* Where the network header starts for a link type, the EtherType it
 * carries (0 when the IP version nibble decides), and the cooked header's
 * packet type (-1 when it has none). Returns the offset, or -1. */
static long link_offset(int linktype, const uint8_t *d, size_t cap,
                        uint16_t *ethertype, int *pkttype)
{
	size_t off;

	*ethertype = 0;
	*pkttype = -1;
	switch (linktype) {
	case DLT_EN10MB:
		if (cap < 14)
			return -1;
		*ethertype = rd16(d + 12);
		off = 14;
		for (int i = 0; i < 2 && (*ethertype == ETH_P_8021Q_ ||
		                          *ethertype == ETH_P_8021AD_);
		     i++) {
			if (cap < off + 4)
				return -1;
			*ethertype = rd16(d + off + 2);
			off += 4;
		}
		return (long)off;
	case DLT_LINUX_SLL:
		if (cap < 16)
			return -1;
		*pkttype = rd16(d);
		*ethertype = rd16(d + 14);
		return 16;
	case DLT_LINUX_SLL2:
		if (cap < 20)
			return -1;
		*ethertype = rd16(d);
		*pkttype = d[10];
		return 20;
	case DLT_RAW:
	case DLT_IPV4:
	case DLT_IPV6:
		return 0;
	case DLT_NULL:
		return cap < 4 ? -1 : 4;
	default:
		return -1;
	}
}

/* Direction from the link header alone where it says (Linux cooked
 * headers, an Ethernet source address equal to the interface's). Pure;
 * used by pcapsum_packet and by writers that convert link headers. */
static enum pcapsum_dir pcapsum_link_dir(const struct pcapsum *s, int iface,
                                         int linktype, const uint8_t *data,
                                         size_t caplen)
{
	const struct pcapsum_iface *ifc;
	uint16_t et;
	int pkttype;

	if (iface < 0 || iface >= s->nifaces ||
	    link_offset(linktype, data, caplen, &et, &pkttype) < 0)
		return PCAPSUM_DIR_UNKNOWN;
	if (pkttype >= 0)
		return pkttype == SLL_OUTGOING ? PCAPSUM_DIR_OUT
		                               : PCAPSUM_DIR_IN;
	ifc = &s->ifaces[iface];
	if (linktype == DLT_EN10MB && ifc->have_mac)
		return memcmp(data + 6, ifc->mac, 6) == 0 ? PCAPSUM_DIR_OUT
		                                          : PCAPSUM_DIR_IN;
	return PCAPSUM_DIR_UNKNOWN;
}

int pcapsum_packet(struct pcapsum *s, int iface, int linktype,
                   const uint8_t *data, size_t caplen, size_t wirelen)
{
	struct pcapsum_iface *ifc;
	struct pcapsum_flow *f = NULL;
	enum pcapsum_dir dir;
	struct pkt k;
	uint16_t et;
	int pkttype;
	long off;
	bool ip;

	if (iface < 0 || iface >= s->nifaces) {
		errno = EINVAL;
		return -1;
	}
	ifc = &s->ifaces[iface];
	s->npackets++;
	off = link_offset(linktype, data, caplen, &et, &pkttype);
	ip = off >= 0 && (et == 0 || et == ETH_P_IPV4 || et == ETH_P_IPV6_) &&
	     ip_decode(data + off, caplen - (size_t)off, &k) == 0;
	if (ip && is_local(s, k.t.family, k.t.src))
		dir = PCAPSUM_DIR_OUT;
	else if (ip && is_local(s, k.t.family, k.t.dst))
		dir = PCAPSUM_DIR_IN;
	else
		dir = pcapsum_link_dir(s, iface, linktype, data, caplen);
	if (dir == PCAPSUM_DIR_OUT) {
		ifc->packets_out++;
		ifc->bytes_out += wirelen;
	} else {
		dir = PCAPSUM_DIR_IN;
		ifc->packets_in++;
		ifc->bytes_in += wirelen;
	}
	if (!ip) {
		if (off < 0 || (et != 0x0806 && et != 0x8035))
			ifc->undecoded++; /* ARP is expected; the rest is not */
		return dir;
	}
	ports(&k);
	f = flow_get(s, iface, &k.t);
	if (f == NULL) {
		s->flows_dropped++;
	} else {
		f->packets++;
		f->bytes += wirelen;
	}
	if (k.t.proto == IPPROTO_TCP)
		on_tcp(s, iface, &k, f);
	else if (k.t.proto == IPPROTO_ICMP || k.t.proto == IPPROTO_ICMPV6)
		on_icmp(s, iface, &k);
	return dir;
}

void pcapsum_syn_counts(const struct pcapsum *s, int iface,
                        struct pcapsum_syncount *c)
{
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < PCAPSUM_SYN_SLOTS; i++) {
		const struct pcapsum_syn *y = &s->syns[i];

		if (!y->used || y->sends == 0 || y->iface != iface)
			continue;
		switch (y->answer) {
		case PCAPSUM_SYN_SYNACK:
			c->synack++;
			break;
		case PCAPSUM_SYN_RST:
			c->rst++;
			break;
		case PCAPSUM_SYN_ICMP:
			c->icmp++;
			break;
		default:
			c->unanswered++;
		}
	}
}

const char *pcapsum_answer_text(const struct pcapsum_syn *y, char *buf,
                                size_t len)
{
	switch (y->answer) {
	case PCAPSUM_SYN_SYNACK:
		snprintf(buf, len, "syn-ack");
		break;
	case PCAPSUM_SYN_RST:
		snprintf(buf, len, "rst");
		break;
	case PCAPSUM_SYN_ICMP:
		snprintf(buf, len, "%s type %u code %u",
		         y->icmp_v6 ? "icmp6" : "icmp", y->icmp_type,
		         y->icmp_code);
		break;
	default:
		snprintf(buf, len, "none");
	}
	return buf;
}

const char *pcapsum_proto_name(uint8_t proto, char *buf, size_t len)
{
	switch (proto) {
	case IPPROTO_TCP:
		return "tcp";
	case IPPROTO_UDP:
		return "udp";
	case IPPROTO_ICMP:
		return "icmp";
	case IPPROTO_ICMPV6:
		return "icmp6";
	default:
		snprintf(buf, len, "%u", proto);
		return buf;
	}
}

/* An address of the tuple's family as text ("?" if it will not print). */
static void addr_text(const struct pcapsum_tuple *t, const uint8_t *a,
                      char *buf, size_t len)
{
	if (inet_ntop(t->family, a, buf, (socklen_t)len) == NULL)
		snprintf(buf, len, "?");
}

json_t *pcapsum_ifaces_json(const struct pcapsum *s)
{
	json_t *arr = json_array(), *icmp, *o;
	struct pcapsum_syncount c;

	if (arr == NULL)
		return NULL;
	for (int i = 0; i < s->nifaces; i++) {
		const struct pcapsum_iface *ifc = &s->ifaces[i];

		icmp = json_array();
		for (int j = 0; icmp != NULL && j < ifc->nicmp; j++)
			json_array_append_new(
			    icmp, json_pack("{s:s, s:i, s:i, s:I}", "proto",
			                    ifc->icmp[j].v6 ? "icmp6" : "icmp",
			                    "type", ifc->icmp[j].type, "code",
			                    ifc->icmp[j].code, "count",
			                    (json_int_t)ifc->icmp[j].count));
		pcapsum_syn_counts(s, i, &c);
		o = json_pack(
		    "{s:s, s:I, s:I, s:I, s:I, s:{s:I, s:I, s:I, s:I},"
		    " s:o, s:I, s:I}",
		    "name", ifc->name, "packets_in",
		    (json_int_t)ifc->packets_in, "packets_out",
		    (json_int_t)ifc->packets_out, "bytes_in",
		    (json_int_t)ifc->bytes_in, "bytes_out",
		    (json_int_t)ifc->bytes_out, "syn", "answered_synack",
		    (json_int_t)c.synack, "answered_rst", (json_int_t)c.rst,
		    "answered_icmp", (json_int_t)c.icmp, "unanswered",
		    (json_int_t)c.unanswered, "icmp", icmp, "retransmissions",
		    (json_int_t)ifc->retransmissions, "undecoded",
		    (json_int_t)ifc->undecoded);
		if (o == NULL || json_array_append_new(arr, o) < 0) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

/* qsort order: more bytes first, then more packets, then table order. */
static int flow_cmp(const void *a, const void *b)
{
	const struct pcapsum_flow *x = *(const struct pcapsum_flow *const *)a;
	const struct pcapsum_flow *y = *(const struct pcapsum_flow *const *)b;

	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	if (x->packets != y->packets)
		return x->packets > y->packets ? -1 : 1;
	return x < y ? -1 : x > y;
}

size_t pcapsum_top_flows(const struct pcapsum *s,
                         const struct pcapsum_flow **out, size_t max)
{
	const struct pcapsum_flow **all;
	size_t n = 0;

	all = malloc(PCAPSUM_FLOW_SLOTS * sizeof(*all));
	if (all == NULL)
		return 0;
	for (size_t i = 0; i < PCAPSUM_FLOW_SLOTS; i++)
		if (s->flows[i].used)
			all[n++] = &s->flows[i];
	qsort(all, n, sizeof(*all), flow_cmp);
	if (n > max)
		n = max;
	memcpy(out, all, n * sizeof(*all));
	free(all);
	return n;
}

json_t *pcapsum_flows_json(const struct pcapsum *s, size_t top)
{
	const struct pcapsum_flow **v;
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN], pbuf[8];
	json_t *arr = json_array(), *o;
	size_t n;

	v = malloc((top ? top : 1) * sizeof(*v));
	if (arr == NULL || v == NULL) {
		free(v);
		json_decref(arr);
		return NULL;
	}
	n = pcapsum_top_flows(s, v, top);
	for (size_t i = 0; i < n; i++) {
		const struct pcapsum_flow *f = v[i];

		addr_text(&f->t, f->t.src, src, sizeof(src));
		addr_text(&f->t, f->t.dst, dst, sizeof(dst));
		o = json_pack(
		    "{s:s, s:s, s:s, s:i, s:i, s:s, s:I, s:I}", "interface",
		    s->ifaces[f->iface].name, "src", src, "dst", dst, "sport",
		    f->t.sport, "dport", f->t.dport, "proto",
		    pcapsum_proto_name(f->t.proto, pbuf, sizeof(pbuf)),
		    "packets", (json_int_t)f->packets, "bytes",
		    (json_int_t)f->bytes);
		if (o == NULL || json_array_append_new(arr, o) < 0) {
			json_decref(arr);
			arr = NULL;
			break;
		}
	}
	free(v);
	return arr;
}

/* qsort order for SYNs: as they arrived. */
static int syn_cmp(const void *a, const void *b)
{
	const struct pcapsum_syn *x = *(const struct pcapsum_syn *const *)a;
	const struct pcapsum_syn *y = *(const struct pcapsum_syn *const *)b;

	return x->order < y->order ? -1 : x->order > y->order;
}

size_t pcapsum_syns_ordered(const struct pcapsum *s,
                            const struct pcapsum_syn **out, size_t max)
{
	const struct pcapsum_syn **all;
	size_t n = 0;

	all = malloc(PCAPSUM_SYN_SLOTS * sizeof(*all));
	if (all == NULL)
		return 0;
	for (size_t i = 0; i < PCAPSUM_SYN_SLOTS; i++)
		if (s->syns[i].used && s->syns[i].sends > 0)
			all[n++] = &s->syns[i];
	qsort(all, n, sizeof(*all), syn_cmp);
	if (n > max)
		n = max;
	memcpy(out, all, n * sizeof(*all));
	free(all);
	return n;
}

json_t *pcapsum_syns_json(const struct pcapsum *s, size_t max)
{
	const struct pcapsum_syn **v;
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN], ans[48];
	json_t *arr = json_array(), *o;
	size_t n;

	v = malloc((max ? max : 1) * sizeof(*v));
	if (arr == NULL || v == NULL) {
		free(v);
		json_decref(arr);
		return NULL;
	}
	n = pcapsum_syns_ordered(s, v, max);
	for (size_t i = 0; i < n; i++) {
		const struct pcapsum_syn *y = v[i];

		addr_text(&y->t, y->t.src, src, sizeof(src));
		addr_text(&y->t, y->t.dst, dst, sizeof(dst));
		o = json_pack("{s:s, s:s, s:s, s:i, s:i, s:s, s:i}",
		              "interface", s->ifaces[y->iface].name, "src", src,
		              "dst", dst, "sport", y->t.sport, "dport",
		              y->t.dport, "answer",
		              pcapsum_answer_text(y, ans, sizeof(ans)),
		              "retransmissions", y->sends - 1);
		if (o == NULL || json_array_append_new(arr, o) < 0) {
			json_decref(arr);
			arr = NULL;
			break;
		}
	}
	free(v);
	return arr;
}
