/* Unit tests for the capture summariser, fed hand-built packets: SYN,
 * SYN-ACK, RST, ICMP admin-prohibited quoting a SYN, retransmissions. */
#include <arpa/inet.h>
#include <check.h>
#include <string.h>

#include <pcap/dlt.h>

#include "probe/pcapsum.h"

static const unsigned char MAC_A[6] = {2, 0, 0, 0, 0, 0xa};
static const unsigned char MAC_B[6] = {2, 0, 0, 0, 0, 0xb};

/* An IPv4 header at p: 20 bytes, total length tot, no checksum needed. */
static size_t ip4(unsigned char *p, const char *src, const char *dst, int proto,
                  size_t tot)
{
	memset(p, 0, 20);
	p[0] = 0x45;
	p[2] = (unsigned char)(tot >> 8);
	p[3] = (unsigned char)tot;
	p[8] = 64;
	p[9] = (unsigned char)proto;
	inet_pton(AF_INET, src, p + 12);
	inet_pton(AF_INET, dst, p + 16);
	return 20;
}

/* A TCP header at p: 20 bytes, then len payload bytes of zero. */
static size_t tcp(unsigned char *p, unsigned sport, unsigned dport,
                  unsigned seq, unsigned flags, size_t len)
{
	memset(p, 0, 20 + len);
	p[0] = (unsigned char)(sport >> 8);
	p[1] = (unsigned char)sport;
	p[2] = (unsigned char)(dport >> 8);
	p[3] = (unsigned char)dport;
	p[4] = (unsigned char)(seq >> 24);
	p[5] = (unsigned char)(seq >> 16);
	p[6] = (unsigned char)(seq >> 8);
	p[7] = (unsigned char)seq;
	p[12] = 5 << 4;
	p[13] = (unsigned char)flags;
	return 20 + len;
}

/* An Ethernet frame carrying IPv4 TCP. Returns its length. */
static size_t eth_tcp(unsigned char *buf, const unsigned char *smac,
                      const unsigned char *dmac, const char *src,
                      const char *dst, unsigned sport, unsigned dport,
                      unsigned seq, unsigned flags, size_t len)
{
	memcpy(buf, dmac, 6);
	memcpy(buf + 6, smac, 6);
	buf[12] = 0x08;
	buf[13] = 0x00;
	ip4(buf + 14, src, dst, 6, 40 + len);
	return 14 + 20 + tcp(buf + 34, sport, dport, seq, flags, len);
}

struct fixture {
	struct pcapsum s;
	int ifa;
};

static void setup(struct fixture *f)
{
	struct in_addr a;

	ck_assert_int_eq(pcapsum_init(&f->s), 0);
	f->ifa = pcapsum_add_iface(&f->s, "lan0", MAC_A);
	ck_assert_int_eq(f->ifa, 0);
	ck_assert_int_eq(pcapsum_add_iface(&f->s, "lan1", NULL), 1);
	inet_pton(AF_INET, "10.231.0.1", &a);
	ck_assert_int_eq(pcapsum_add_local(&f->s, AF_INET, &a), 0);
}

START_TEST(syn_answers)
{
	struct fixture f;
	struct pcapsum_syncount c;
	unsigned char pkt[256];
	size_t n;

	setup(&f);
	/* 40001 -> 22: SYN, SYN-ACK */
	n = eth_tcp(pkt, MAC_A, MAC_B, "10.231.0.1", "10.231.0.2", 40001, 22,
	            1000, 0x02, 0);
	ck_assert_int_eq(pcapsum_packet(&f.s, 0, DLT_EN10MB, pkt, n, n),
	                 PCAPSUM_DIR_OUT);
	n = eth_tcp(pkt, MAC_B, MAC_A, "10.231.0.2", "10.231.0.1", 22, 40001,
	            5000, 0x12, 0);
	ck_assert_int_eq(pcapsum_packet(&f.s, 0, DLT_EN10MB, pkt, n, n),
	                 PCAPSUM_DIR_IN);
	/* 40002 -> 81: SYN, RST-ACK */
	n = eth_tcp(pkt, MAC_A, MAC_B, "10.231.0.1", "10.231.0.2", 40002, 81,
	            2000, 0x02, 0);
	pcapsum_packet(&f.s, 0, DLT_EN10MB, pkt, n, n);
	n = eth_tcp(pkt, MAC_B, MAC_A, "10.231.0.2", "10.231.0.1", 81, 40002, 0,
	            0x14, 0);
	pcapsum_packet(&f.s, 0, DLT_EN10MB, pkt, n, n);
	/* 40003 -> 82: SYN sent twice (retransmitted), never answered */
	n = eth_tcp(pkt, MAC_A, MAC_B, "10.231.0.1", "10.231.0.2", 40003, 82,
	            3000, 0x02, 0);
	pcapsum_packet(&f.s, 0, DLT_EN10MB, pkt, n, n);
	pcapsum_packet(&f.s, 0, DLT_EN10MB, pkt, n, n);

	pcapsum_syn_counts(&f.s, 0, &c);
	ck_assert_uint_eq(c.synack, 1);
	ck_assert_uint_eq(c.rst, 1);
	ck_assert_uint_eq(c.unanswered, 1);
	ck_assert_uint_eq(c.icmp, 0);
	ck_assert_uint_eq(f.s.ifaces[0].retransmissions, 1);
	ck_assert_uint_eq(f.s.ifaces[0].packets_out, 4);
	ck_assert_uint_eq(f.s.ifaces[0].packets_in, 2);
	ck_assert_uint_eq(f.s.ifaces[0].bytes_in, 2 * 54);
	/* nothing on the other interface */
	pcapsum_syn_counts(&f.s, 1, &c);
	ck_assert_uint_eq(c.synack + c.rst + c.unanswered, 0);
	pcapsum_free(&f.s);
}
END_TEST

START_TEST(icmp_admin_prohibited_quoting_syn)
{
	struct fixture f;
	struct pcapsum_syncount c;
	const struct pcapsum_syn *v[4];
	unsigned char pkt[256], *p;
	char ans[48];
	size_t n;

	setup(&f);
	n = eth_tcp(pkt, MAC_A, MAC_B, "10.231.0.1", "10.231.0.2", 40004, 83,
	            4000, 0x02, 0);
	pcapsum_packet(&f.s, 0, DLT_EN10MB, pkt, n, n);
	/* ICMP type 3 code 13 from a router, quoting the SYN's IP header
	 * and its first 8 TCP bytes */
	memcpy(pkt, MAC_A, 6);
	memcpy(pkt + 6, MAC_B, 6);
	pkt[12] = 0x08;
	pkt[13] = 0x00;
	p = pkt + 14;
	ip4(p, "10.231.5.1", "10.231.0.1", 1, 20 + 8 + 28);
	p += 20;
	memset(p, 0, 8);
	p[0] = 3;
	p[1] = 13;
	ip4(p + 8, "10.231.0.1", "10.231.0.2", 6, 40);
	tcp(p + 28, 40004, 83, 4000, 0x02, 0);
	n = 14 + 20 + 8 + 28;
	ck_assert_int_eq(pcapsum_packet(&f.s, 0, DLT_EN10MB, pkt, n, n),
	                 PCAPSUM_DIR_IN);

	pcapsum_syn_counts(&f.s, 0, &c);
	ck_assert_uint_eq(c.icmp, 1);
	ck_assert_uint_eq(c.unanswered, 0);
	ck_assert_int_eq(f.s.ifaces[0].nicmp, 1);
	ck_assert_uint_eq(f.s.ifaces[0].icmp[0].type, 3);
	ck_assert_uint_eq(f.s.ifaces[0].icmp[0].code, 13);
	ck_assert_uint_eq(f.s.ifaces[0].icmp[0].count, 1);
	ck_assert_uint_eq(pcapsum_syns_ordered(&f.s, v, 4), 1);
	ck_assert_str_eq(pcapsum_answer_text(v[0], ans, sizeof(ans)),
	                 "icmp type 3 code 13");
	pcapsum_free(&f.s);
}
END_TEST

START_TEST(data_retransmission_and_flows)
{
	struct fixture f;
	unsigned char pkt[2048];
	const struct pcapsum_flow *top[4];
	size_t n;
	json_t *j;

	setup(&f);
	n = eth_tcp(pkt, MAC_A, MAC_B, "10.231.0.1", "10.231.0.2", 40005, 7470,
	            100, 0x18, 1000);
	pcapsum_packet(&f.s, 0, DLT_EN10MB, pkt, n, n);
	n = eth_tcp(pkt, MAC_A, MAC_B, "10.231.0.1", "10.231.0.2", 40005, 7470,
	            1100, 0x18, 1000);
	pcapsum_packet(&f.s, 0, DLT_EN10MB, pkt, n, n);
	/* the first segment again */
	n = eth_tcp(pkt, MAC_A, MAC_B, "10.231.0.1", "10.231.0.2", 40005, 7470,
	            100, 0x18, 1000);
	pcapsum_packet(&f.s, 0, DLT_EN10MB, pkt, n, n);
	/* a small reverse ACK */
	n = eth_tcp(pkt, MAC_B, MAC_A, "10.231.0.2", "10.231.0.1", 7470, 40005,
	            1, 0x10, 0);
	pcapsum_packet(&f.s, 0, DLT_EN10MB, pkt, n, n);
	ck_assert_uint_eq(f.s.ifaces[0].retransmissions, 1);
	ck_assert_uint_eq(pcapsum_top_flows(&f.s, top, 4), 2);
	ck_assert_uint_eq(top[0]->packets, 3);
	ck_assert_uint_eq(top[0]->t.dport, 7470);

	j = pcapsum_flows_json(&f.s, 1);
	ck_assert_int_eq((int)json_array_size(j), 1);
	ck_assert_str_eq(
	    json_string_value(json_object_get(json_array_get(j, 0), "proto")),
	    "tcp");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(j, 0),
	                                                   "interface")),
	                 "lan0");
	json_decref(j);
	j = pcapsum_ifaces_json(&f.s);
	ck_assert_int_eq((int)json_array_size(j), 2);
	ck_assert_int_eq(json_integer_value(json_object_get(
	                     json_array_get(j, 0), "retransmissions")),
	                 1);
	json_decref(j);
	pcapsum_free(&f.s);
}
END_TEST

START_TEST(cooked_and_raw_links)
{
	struct fixture f;
	unsigned char pkt[256];
	struct pcapsum_syncount c;
	size_t n;

	setup(&f);
	/* SLL2 outgoing SYN from a non-local address: the header decides */
	memset(pkt, 0, 20);
	pkt[0] = 0x08;
	pkt[10] = 4; /* PACKET_OUTGOING */
	n = 20 + ip4(pkt + 20, "172.17.0.2", "10.231.0.2", 6, 40);
	n += tcp(pkt + n, 40010, 80, 77, 0x02, 0);
	ck_assert_int_eq(pcapsum_packet(&f.s, 1, DLT_LINUX_SLL2, pkt, n, n),
	                 PCAPSUM_DIR_OUT);
	/* raw IP RST back */
	n = ip4(pkt, "10.231.0.2", "172.17.0.2", 6, 40);
	n += tcp(pkt + n, 80, 40010, 0, 0x14, 0);
	ck_assert_int_eq(pcapsum_packet(&f.s, 1, DLT_RAW, pkt, n, n),
	                 PCAPSUM_DIR_IN);
	pcapsum_syn_counts(&f.s, 1, &c);
	ck_assert_uint_eq(c.rst, 1);
	ck_assert_uint_eq(f.s.ifaces[1].packets_out, 1);
	pcapsum_free(&f.s);
}
END_TEST

START_TEST(garbage_is_counted_not_fatal)
{
	struct fixture f;
	unsigned char pkt[64];

	setup(&f);
	memset(pkt, 0xff, sizeof(pkt));
	ck_assert_int_ge(pcapsum_packet(&f.s, 0, DLT_EN10MB, pkt, 10, 10), 0);
	ck_assert_int_ge(pcapsum_packet(&f.s, 0, DLT_RAW, pkt, 64, 64), 0);
	pkt[0] = 0x4f; /* IPv4 with a header longer than the capture */
	ck_assert_int_ge(pcapsum_packet(&f.s, 0, DLT_RAW, pkt, 30, 30), 0);
	pkt[0] = 0x60; /* IPv6 cut short */
	ck_assert_int_ge(pcapsum_packet(&f.s, 0, DLT_RAW, pkt, 41, 41), 0);
	ck_assert_int_ge(pcapsum_packet(&f.s, 0, 9999, pkt, 64, 64), 0);
	ck_assert_int_eq(pcapsum_packet(&f.s, 7, DLT_RAW, pkt, 64, 64), -1);
	ck_assert_uint_ge(f.s.ifaces[0].undecoded, 3);
	pcapsum_free(&f.s);
}
END_TEST

/* An IPv6 header at p: 40 bytes, payload length plen, next header nh. */
static size_t ip6(unsigned char *p, const char *src, const char *dst, int nh,
                  size_t plen)
{
	memset(p, 0, 40);
	p[0] = 0x60;
	p[4] = (unsigned char)(plen >> 8);
	p[5] = (unsigned char)plen;
	p[6] = (unsigned char)nh;
	p[7] = 64;
	inet_pton(AF_INET6, src, p + 8);
	inet_pton(AF_INET6, dst, p + 24);
	return 40;
}

START_TEST(icmp6_quoting_syn)
{
	struct pcapsum s;
	struct pcapsum_syncount c;
	const struct pcapsum_syn *v[2];
	unsigned char pkt[256], *p;
	struct in6_addr a;
	char ans[48];
	size_t n;

	ck_assert_int_eq(pcapsum_init(&s), 0);
	ck_assert_int_eq(pcapsum_add_iface(&s, "lan0", NULL), 0);
	inet_pton(AF_INET6, "fd00:231::1", &a);
	ck_assert_int_eq(pcapsum_add_local(&s, AF_INET6, &a), 0);
	n = ip6(pkt, "fd00:231::1", "fd00:231::2", 6, 20);
	n += tcp(pkt + n, 40020, 83, 9, 0x02, 0);
	ck_assert_int_eq(pcapsum_packet(&s, 0, DLT_RAW, pkt, n, n),
	                 PCAPSUM_DIR_OUT);
	/* ICMPv6 destination unreachable, administratively prohibited */
	p = pkt + ip6(pkt, "fd00:231::2", "fd00:231::1", 58, 8 + 60);
	memset(p, 0, 8);
	p[0] = 1;
	p[1] = 1;
	ip6(p + 8, "fd00:231::1", "fd00:231::2", 6, 20);
	tcp(p + 48, 40020, 83, 9, 0x02, 0);
	n = 40 + 8 + 40 + 20;
	ck_assert_int_eq(pcapsum_packet(&s, 0, DLT_RAW, pkt, n, n),
	                 PCAPSUM_DIR_IN);
	pcapsum_syn_counts(&s, 0, &c);
	ck_assert_uint_eq(c.icmp, 1);
	ck_assert_uint_eq(pcapsum_syns_ordered(&s, v, 2), 1);
	ck_assert_str_eq(pcapsum_answer_text(v[0], ans, sizeof(ans)),
	                 "icmp6 type 1 code 1");
	ck_assert(s.ifaces[0].icmp[0].v6);
	pcapsum_free(&s);
}
END_TEST

Suite *suite_pcapsum(void)
{
	Suite *s = suite_create("pcapsum");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, syn_answers);
	tcase_add_test(tc, icmp_admin_prohibited_quoting_syn);
	tcase_add_test(tc, data_retransmission_and_flows);
	tcase_add_test(tc, cooked_and_raw_links);
	tcase_add_test(tc, garbage_is_counted_not_fatal);
	tcase_add_test(tc, icmp6_quoting_syn);
	suite_add_tcase(s, tc);
	return s;
}
