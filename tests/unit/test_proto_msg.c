/* Unit tests for the responder protocol payloads: every type round-trips,
 * every malformed or truncated form is rejected. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire/portstate.h"
#include "wire/proto_msg.h"

static uint8_t buf[PROTO_HDR_LEN + PROTO_MAX_PAYLOAD];

/* Every strict prefix of a valid payload must be rejected. */
#define ASSERT_PREFIXES_REJECTED(decode, type, len)                            \
	do {                                                                   \
		type tmp_;                                                     \
		const char *w_;                                                \
		for (size_t k_ = 0; k_ < (size_t)(len); k_++)                  \
			ck_assert_int_eq(decode(buf, k_, &tmp_, &w_), -1);     \
	} while (0)

START_TEST(hello_round_trip)
{
	struct proto_hello a = {.proto_version = 1,
	                        .flags = 3,
	                        .max_ports = 16,
	                        .max_lifetime_ms = 10000},
	                   b;
	const char *why;
	int n;

	strcpy(a.node, "node-a.example");
	strcpy(a.software, "netprobe 0.1.0");
	n = proto_hello_encode(&a, buf, sizeof(buf));
	ck_assert_int_eq(n, 10 + 1 + 14 + 1 + 14);
	ck_assert_int_eq(proto_hello_decode(buf, (size_t)n, &b, &why), 0);
	ck_assert_int_eq(b.proto_version, 1);
	ck_assert_int_eq(b.flags, 3);
	ck_assert_int_eq(b.max_ports, 16);
	ck_assert_uint_eq(b.max_lifetime_ms, 10000);
	ck_assert_str_eq(b.node, "node-a.example");
	ck_assert_str_eq(b.software, "netprobe 0.1.0");
	ASSERT_PREFIXES_REJECTED(proto_hello_decode, struct proto_hello, n);
	buf[n] = 0;
	ck_assert_int_eq(proto_hello_decode(buf, (size_t)n + 1, &b, &why), -1);
	ck_assert_str_eq(why, "trailing bytes");
	buf[11] = '\n'; /* a control byte in the node name */
	ck_assert_int_eq(proto_hello_decode(buf, (size_t)n, &b, &why), -1);
	ck_assert_str_eq(why, "string not printable");
	memset(a.node, 'x', PROTO_NODE_MAX + 1);
	a.node[PROTO_NODE_MAX] = 'x';
	ck_assert_int_eq(proto_hello_encode(&a, buf, sizeof(buf)), -1);
	ck_assert_int_eq(proto_hello_encode(&a, buf, 5), -1);
}
END_TEST

START_TEST(hello_bad_fields)
{
	const char *why;
	struct proto_hello b;
	/* version 0 */
	uint8_t v0[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
	/* node length 200 > 64 */
	uint8_t big[] = {0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 200};

	ck_assert_int_eq(proto_hello_decode(v0, sizeof(v0), &b, &why), -1);
	ck_assert_int_eq(proto_hello_decode(big, sizeof(big), &b, &why), -1);
	ck_assert_str_eq(why, "string too long");
}
END_TEST

START_TEST(reflect_round_trip)
{
	struct proto_reflect_reply a = {.family = 4,
	                                .port = 40000,
	                                .addr = {10, 231, 0, 1}},
	                           b;
	const char *why;
	int n = proto_reflect_reply_encode(&a, buf, sizeof(buf));

	ck_assert_int_eq(n, 7);
	ck_assert_int_eq(proto_reflect_reply_decode(buf, 7, &b, &why), 0);
	ck_assert_int_eq(b.port, 40000);
	ck_assert_int_eq(memcmp(b.addr, a.addr, 4), 0);
	ASSERT_PREFIXES_REJECTED(proto_reflect_reply_decode,
	                         struct proto_reflect_reply, n);
	a.family = 6;
	a.addr[15] = 1;
	n = proto_reflect_reply_encode(&a, buf, sizeof(buf));
	ck_assert_int_eq(n, 19);
	ck_assert_int_eq(proto_reflect_reply_decode(buf, 19, &b, &why), 0);
	ck_assert_int_eq(b.family, 6);
	ck_assert_int_eq(b.addr[15], 1);
	ck_assert_int_eq(proto_reflect_reply_decode(buf, 7, &b, &why), -1);
	buf[0] = 5;
	ck_assert_int_eq(proto_reflect_reply_decode(buf, 19, &b, &why), -1);
	ck_assert_str_eq(why, "bad address family");
	a.family = 9;
	ck_assert_int_eq(proto_reflect_reply_encode(&a, buf, sizeof(buf)), -1);
}
END_TEST

START_TEST(listen_round_trip)
{
	struct proto_listen a = {.proto = PROTO_TCP,
	                         .lifetime_ms = 3000,
	                         .nports = 3,
	                         .ports = {29500, 6379, 22}},
	                    b;
	const char *why;
	int n = proto_listen_encode(&a, buf, sizeof(buf));

	ck_assert_int_eq(n, 8 + 6);
	ck_assert_int_eq(proto_listen_decode(buf, (size_t)n, &b, &why), 0);
	ck_assert_int_eq(b.nports, 3);
	ck_assert_int_eq(b.ports[0], 29500);
	ck_assert_int_eq(b.ports[2], 22);
	ck_assert_uint_eq(b.lifetime_ms, 3000);
	ASSERT_PREFIXES_REJECTED(proto_listen_decode, struct proto_listen, n);
	buf[n - 1] = 0;
	buf[n - 2] = 0; /* port 0 */
	ck_assert_int_eq(proto_listen_decode(buf, (size_t)n, &b, &why), -1);
	ck_assert_str_eq(why, "port 0");
	/* ephemeral: the count only, no ports follow */
	a.flags = PROTO_LISTEN_EPHEMERAL;
	a.proto = PROTO_UDP;
	n = proto_listen_encode(&a, buf, sizeof(buf));
	ck_assert_int_eq(n, 8);
	ck_assert_int_eq(proto_listen_decode(buf, 8, &b, &why), 0);
	ck_assert_int_eq(b.flags, PROTO_LISTEN_EPHEMERAL);
	ck_assert_int_eq(b.nports, 3);
	buf[1] = 0x80; /* unknown flag */
	ck_assert_int_eq(proto_listen_decode(buf, 8, &b, &why), -1);
	buf[1] = 1;
	buf[0] = 1; /* bad transport */
	ck_assert_int_eq(proto_listen_decode(buf, 8, &b, &why), -1);
	buf[0] = PROTO_UDP;
	buf[6] = 0x01;
	buf[7] = 0x01; /* 257 ports */
	ck_assert_int_eq(proto_listen_decode(buf, 8, &b, &why), -1);
	ck_assert_str_eq(why, "bad port count");
	a.nports = 0;
	ck_assert_int_eq(proto_listen_encode(&a, buf, sizeof(buf)), -1);
}
END_TEST

START_TEST(listen_reply_round_trip)
{
	struct proto_listen_reply a = {.proto = PROTO_UDP,
	                               .lifetime_ms = 5000,
	                               .range_lo = 32768,
	                               .range_hi = 60999,
	                               .nports = 2,
	                               .ports = {32768, 60999},
	                               .status = {PROTO_LS_OPENED,
	                                          PROTO_LS_IN_USE}},
	                          b;
	const char *why;
	int n = proto_listen_reply_encode(&a, buf, sizeof(buf));

	ck_assert_int_eq(n, 11 + 6);
	ck_assert_int_eq(proto_listen_reply_decode(buf, (size_t)n, &b, &why),
	                 0);
	ck_assert_int_eq(b.range_lo, 32768);
	ck_assert_int_eq(b.range_hi, 60999);
	ck_assert_int_eq(b.status[1], PROTO_LS_IN_USE);
	ASSERT_PREFIXES_REJECTED(proto_listen_reply_decode,
	                         struct proto_listen_reply, n);
	buf[n - 1] = 99; /* unknown status */
	ck_assert_int_eq(proto_listen_reply_decode(buf, (size_t)n, &b, &why),
	                 -1);
	a.range_lo = 70;
	a.range_hi = 60;
	n = proto_listen_reply_encode(&a, buf, sizeof(buf));
	ck_assert_int_eq(proto_listen_reply_decode(buf, (size_t)n, &b, &why),
	                 -1);
	ck_assert_str_eq(why, "bad port range");
}
END_TEST

START_TEST(connect_back_round_trip)
{
	struct proto_connect_back a = {.proto = PROTO_TCP,
	                               .timeout_ms = 1500,
	                               .nports = 2,
	                               .ports = {7470, 32768}},
	                          b;
	const char *why;
	int n = proto_connect_back_encode(&a, buf, sizeof(buf));

	ck_assert_int_eq(n, 7 + 4);
	ck_assert_int_eq(proto_connect_back_decode(buf, (size_t)n, &b, &why),
	                 0);
	ck_assert_uint_eq(b.timeout_ms, 1500);
	ck_assert_int_eq(b.ports[1], 32768);
	ASSERT_PREFIXES_REJECTED(proto_connect_back_decode,
	                         struct proto_connect_back, n);
	buf[5] = buf[6] = 0; /* zero ports */
	ck_assert_int_eq(proto_connect_back_decode(buf, 7, &b, &why), -1);
}
END_TEST

START_TEST(connect_back_reply_round_trip)
{
	struct proto_connect_back_reply a = {.proto = PROTO_TCP, .nports = 2},
	                                *b = malloc(sizeof(*b));
	const char *why;
	int n;

	a.r[0] = (struct proto_cb_result){7470, PORT_OPEN, 120, "syn-ack"};
	a.r[1] = (struct proto_cb_result){32768, PORT_PROHIBITED, 0xffffffffu,
	                                  "icmp type 3 code 13"};
	n = proto_connect_back_reply_encode(&a, buf, sizeof(buf));
	ck_assert_int_eq(n, 3 + 8 + 7 + 8 + 19);
	ck_assert_int_eq(
	    proto_connect_back_reply_decode(buf, (size_t)n, b, &why), 0);
	ck_assert_int_eq(b->r[0].state, PORT_OPEN);
	ck_assert_uint_eq(b->r[0].rtt_us, 120);
	ck_assert_str_eq(b->r[1].reason, "icmp type 3 code 13");
	for (int k = 0; k < n; k++)
		ck_assert_int_eq(
		    proto_connect_back_reply_decode(buf, (size_t)k, b, &why),
		    -1);
	buf[5] = 42; /* state out of range */
	ck_assert_int_eq(
	    proto_connect_back_reply_decode(buf, (size_t)n, b, &why), -1);
	ck_assert_str_eq(why, "bad port result");
	free(b);
}
END_TEST

START_TEST(small_types)
{
	struct proto_mtu_reply m = {7, 1472, 1500}, m2;
	struct proto_error e = {.code = PROTO_E_REFUSED}, e2;
	struct proto_echo_stamp s = {42, 0x123456789abcULL}, s2;
	const char *why;
	uint32_t seq;
	uint8_t probe[100] = {0, 0, 0, 9};
	int n;

	n = proto_mtu_reply_encode(&m, buf, sizeof(buf));
	ck_assert_int_eq(n, 12);
	ck_assert_int_eq(proto_mtu_reply_decode(buf, 12, &m2, &why), 0);
	ck_assert_uint_eq(m2.ifmtu, 1500);
	ck_assert_int_eq(proto_mtu_reply_decode(buf, 11, &m2, &why), -1);
	ck_assert_int_eq(proto_mtu_reply_decode(buf, 13, &m2, &why), -1);
	ck_assert_int_eq(proto_mtu_probe_decode(probe, 100, &seq, &why), 0);
	ck_assert_uint_eq(seq, 9);
	ck_assert_int_eq(proto_mtu_probe_decode(probe, 3, &seq, &why), -1);
	strcpy(e.msg, "at most 16 ports per request");
	n = proto_error_encode(&e, buf, sizeof(buf));
	ck_assert_int_eq(proto_error_decode(buf, (size_t)n, &e2, &why), 0);
	ck_assert_int_eq(e2.code, PROTO_E_REFUSED);
	ck_assert_str_eq(e2.msg, e.msg);
	ck_assert_int_eq(proto_error_decode(buf, 1, &e2, &why), -1);
	buf[3] = 0x1b; /* an escape byte in the message */
	ck_assert_int_eq(proto_error_decode(buf, (size_t)n, &e2, &why), -1);
	n = proto_echo_stamp_encode(&s, buf, sizeof(buf));
	ck_assert_int_eq(n, PROTO_ECHO_STAMP_LEN);
	ck_assert_int_eq(proto_echo_stamp_decode(buf, 12, &s2, &why), 0);
	ck_assert_uint_eq(s2.sent_us, 0x123456789abcULL);
	ck_assert_int_eq(proto_echo_stamp_decode(buf, 11, &s2, &why), -1);
	ck_assert_str_eq(proto_err_name(PROTO_E_LIMIT), "limit");
	ck_assert_str_eq(proto_err_name(999), "unknown");
	ck_assert_str_eq(proto_type_name(PROTO_ECHO_REPLY), "echo-reply");
}
END_TEST

START_TEST(frames)
{
	const char *why;
	uint8_t p[4] = {1, 2, 3, 4};
	char shown[16];
	int n;

	n = proto_frame_build(buf, sizeof(buf), PROTO_ECHO, p, 4);
	ck_assert_int_eq(n, 16);
	ck_assert_int_eq(proto_frame_check(buf, 16, &why), PROTO_ECHO);
	ck_assert_int_eq(proto_frame_check(buf, 15, &why), -1);
	ck_assert_str_eq(why, "truncated frame");
	ck_assert_int_eq(proto_frame_check(buf, 17, &why), -1);
	ck_assert_int_eq(proto_frame_check(buf, 5, &why), -1);
	ck_assert_int_eq(proto_frame_build(buf, 10, PROTO_ECHO, p, 4), -1);
	n = proto_frame_build(buf, sizeof(buf), PROTO_REFLECT, NULL, 0);
	ck_assert_int_eq(proto_frame_check(buf, (size_t)n, &why),
	                 PROTO_REFLECT);
	n = proto_frame_build(buf, sizeof(buf), PROTO_REFLECT, p, 1);
	ck_assert_int_eq(proto_frame_check(buf, (size_t)n, &why), -1);
	n = proto_frame_build(buf, sizeof(buf), PROTO_AUTH_RESPONSE, p, 3);
	ck_assert_int_eq(proto_frame_check(buf, (size_t)n, &why), -1);
	buf[5] = 99; /* unknown type */
	ck_assert_int_eq(proto_frame_check(buf, (size_t)n, &why), -1);
	memcpy(buf, "HTTP/1.1 400 Bad Request\r\n", 26);
	ck_assert_int_eq(proto_frame_check(buf, 26, &why), -1);
	ck_assert_str_eq(why, "bad magic");
	proto_printable(buf, 26, shown, sizeof(shown));
	ck_assert_str_eq(shown, "HTTP/1.1 400 Ba");
	proto_printable((const uint8_t *)"\x01\x02ok\n", 5, shown,
	                sizeof(shown));
	ck_assert_str_eq(shown, "..ok");
}
END_TEST

/* The fuzz seeds are valid frames (all but the foreign "http" one). */
START_TEST(fuzz_seeds_valid)
{
	DIR *dir = opendir(SRCDIR "/tests/fuzz/corpus");
	struct dirent *de;
	int nseeds = 0;

	ck_assert_ptr_nonnull(dir);
	while ((de = readdir(dir))) {
		char path[1024];
		const char *why = "";
		FILE *fp;
		size_t n;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), SRCDIR "/tests/fuzz/corpus/%s",
		         de->d_name);
		fp = fopen(path, "rb");
		ck_assert_ptr_nonnull(fp);
		n = fread(buf, 1, sizeof(buf), fp);
		fclose(fp);
		if (strcmp(de->d_name, "http") == 0)
			ck_assert_int_eq(proto_frame_check(buf, n, &why), -1);
		else
			ck_assert_msg(proto_frame_check(buf, n, &why) > 0,
			              "%s: %s", de->d_name, why);
		nseeds++;
	}
	closedir(dir);
	ck_assert_int_ge(nseeds, 15);
}
END_TEST

Suite *suite_proto_msg(void)
{
	Suite *s = suite_create("proto_msg");
	TCase *tc = tcase_create("payloads");

	tcase_add_test(tc, hello_round_trip);
	tcase_add_test(tc, hello_bad_fields);
	tcase_add_test(tc, reflect_round_trip);
	tcase_add_test(tc, listen_round_trip);
	tcase_add_test(tc, listen_reply_round_trip);
	tcase_add_test(tc, connect_back_round_trip);
	tcase_add_test(tc, connect_back_reply_round_trip);
	tcase_add_test(tc, small_types);
	tcase_add_test(tc, frames);
	tcase_add_test(tc, fuzz_seeds_valid);
	suite_add_tcase(s, tc);
	return s;
}
