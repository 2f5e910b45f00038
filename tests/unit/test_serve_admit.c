/* netprobe serve's admission when the table is full (serve_guard.c), on
 * hand-made connections and a fake clock: who gives way to a newcomer,
 * and that nobody being served ever does. */
#include <arpa/inet.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "serve/serve_conn.h"
#include "serve/serve_guard.h"
#include "serve/serve_int.h"
#include "wire/client.h"
#include "wire/client_conn.h"

#define NOW 1000000000000LL /* the fake clock, in microseconds */
#define S(x) ((long long)(x) * 1000000LL)

/* A table of n slots, all empty. */
static struct server *table(unsigned n)
{
	struct server *s = calloc(1, sizeof(*s));

	ck_assert_ptr_nonnull(s);
	s->o.max_clients = n;
	s->conns = calloc(n, sizeof(*s->conns));
	ck_assert_ptr_nonnull(s->conns);
	return s;
}

static void table_free(struct server *s)
{
	for (unsigned i = 0; i < s->o.max_clients; i++)
		free(s->conns[i]);
	free(s->conns);
	free(s);
}

/* 127.0.0.N as a peer address. */
static void addr_of(int n, struct sockaddr_storage *ss)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(0x7f000000u | (uint32_t)n);
	sin->sin_port = htons(40000);
}

/* Puts a connection from 127.0.0.N into slot i: accepted at acc, frames
 * whole frames (requests of them past the handshake), the last at last
 * (seconds before NOW). */
static struct conn *seat(struct server *s, unsigned i, int n, double acc,
                         unsigned long frames, unsigned long requests,
                         double last)
{
	struct conn *c = calloc(1, sizeof(*c));

	ck_assert_ptr_nonnull(c);
	addr_of(n, &c->peer);
	c->slot = i;
	c->accepted_us = NOW - (long long)(acc * 1e6);
	c->frames = frames;
	c->requests = requests;
	c->frame_us = c->last_us = NOW - (long long)(last * 1e6);
	s->conns[i] = c;
	s->nconns++;
	return c;
}

/* Who may give way, by what it did and when. */
START_TEST(give_way_by_standing)
{
	struct server *s = table(8);
	struct conn *c;

	c = seat(s, 0, 1, 0.1, 0, 0, 0.1);
	ck_assert_int_eq(sv_give_way(c, NOW), 2); /* no whole frame yet */
	c = seat(s, 1, 1, 1, 1, 0, 1);
	ck_assert_int_eq(sv_give_way(c, NOW), 0); /* hello, 1 s ago */
	ck_assert_int_eq(sv_give_way(c, NOW + S(SERVE_REQUEST_S)), 1);
	c = seat(s, 2, 1, 100, 50, 49, 1);
	ck_assert_int_eq(sv_give_way(c, NOW), 0); /* being served */
	/* a heartbeat at its longest interval (60 s) is still served */
	ck_assert_int_eq(sv_give_way(c, NOW + S(59)), 0);
	ck_assert_int_eq(sv_give_way(c, NOW + S(SERVE_SERVED_IDLE_S)), 1);
	c->authed = true;
	ck_assert_int_eq(sv_give_way(c, NOW + S(SERVE_SERVED_IDLE_S)), 0);
	table_free(s);
}
END_TEST

/* The churn: a table of 64, 8 addresses holding 8 silent
 * clients each (HELLO, then nothing) and one honest heartbeat. */
START_TEST(churn_never_takes_the_served)
{
	struct server *s = table(64);
	struct sockaddr_storage ss;
	struct conn *hb, *v;

	hb = seat(s, 0, 1, 20, 21, 20, 0.9); /* 1 s interval, 0.9 s silent */
	for (unsigned i = 1; i < 64; i++)
		seat(s, i, 11 + (int)(i % 8), 3, 1, 0, 3);
	/* a churner from an address that holds as many: refused */
	addr_of(11, &ss);
	ck_assert_ptr_null(sv_victim(s, &ss, NOW));
	/* even a minute later, the honest client is never taken */
	for (int t = 0; t < 60; t++) {
		v = sv_victim(s, &ss, NOW + S(t));
		ck_assert(v != hb);
	}
	/* a new address takes the place of a silent client of the address
	 * holding most, never the heartbeat */
	addr_of(2, &ss);
	v = sv_victim(s, &ss, NOW);
	ck_assert_ptr_nonnull(v);
	ck_assert(v != hb);
	ck_assert_uint_eq(v->requests, 0);
	/* a full table of clients being served: everybody refused */
	for (unsigned i = 1; i < 64; i++)
		s->conns[i]->requests = 5;
	ck_assert_ptr_null(sv_victim(s, &ss, NOW));
	addr_of(99, &ss);
	ck_assert_ptr_null(sv_victim(s, &ss, NOW));
	table_free(s);
}
END_TEST

/* Order among those that may give way: silent before spoken, the
 * address holding most, then the longest silent; equals never swap. */
START_TEST(victim_order)
{
	struct server *s = table(8);
	struct sockaddr_storage ss;
	struct conn *a, *b, *c;

	seat(s, 0, 1, 9, 1, 0, 9);     /* address 1: handshake only, old */
	a = seat(s, 1, 1, 8, 1, 0, 8);
	b = seat(s, 2, 2, 1, 0, 0, 1); /* address 2: never a frame */
	seat(s, 3, 2, 1, 0, 0, 1);
	c = seat(s, 4, 3, 9, 1, 0, 9); /* address 3: alone */
	addr_of(7, &ss);
	ck_assert_ptr_eq(sv_victim(s, &ss, NOW), b); /* silent first */
	b->frames = s->conns[3]->frames = 5;
	b->requests = s->conns[3]->requests = 5;
	/* address 2 is served now: the longest silent of address 1 */
	ck_assert_ptr_eq(sv_victim(s, &ss, NOW), s->conns[0]);
	/* from address 1 itself: nobody (it holds as many as itself) */
	addr_of(1, &ss);
	ck_assert_ptr_null(sv_victim(s, &ss, NOW));
	/* address 3's lone client gives way to nobody: 1 < 0 + 2 */
	s->conns[0]->authed = a->authed = true;
	addr_of(7, &ss);
	ck_assert_ptr_null(sv_victim(s, &ss, NOW));
	(void)c;
	table_free(s);
}
END_TEST

/* A dropped client reads why before the close (ERROR "dropped"), and
 * the client library reports it as that, not as a network fault. */
START_TEST(drop_says_why)
{
	struct server *s = table(4);
	struct np_client cl = {0};
	struct conn *c;
	size_t len;
	int sv[2];

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0,
	                            sv),
	                 0);
	c = seat(s, 0, 1, 1, 1, 0, 1);
	c->ev.fd = sv[0];
	sv_conn_drop(s, c, "evicted", "its table is full");
	ck_assert_ptr_null(s->conns[0]);
	ck_assert_uint_eq(s->nconns, 0);
	sv_reap(s);
	cl.fd = sv[1];
	cl.buf = malloc(PROTO_HDR_LEN + PROTO_MAX_PAYLOAD);
	ck_assert_ptr_nonnull(cl.buf);
	snprintf(cl.addr, sizeof(cl.addr), "127.0.0.80");
	cl.port = 27473;
	ck_assert_int_eq(
	    client_recv_frame(&cl, &len, mono_now_us() + 1000000), -1);
	ck_assert_int_eq(cl.code, CLIENT_E_DROPPED);
	ck_assert_uint_eq(cl.err_code, PROTO_E_DROPPED);
	ck_assert_str_eq(cl.err, "the responder at 127.0.0.80:27473 dropped "
	                         "us: its table is full");
	ck_assert_str_eq(proto_err_name(PROTO_E_DROPPED), "dropped");
	client_close(&cl);
	table_free(s);
}
END_TEST

Suite *suite_serve_admit(void)
{
	Suite *s = suite_create("serve_admit");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, give_way_by_standing);
	tcase_add_test(tc, churn_never_takes_the_served);
	tcase_add_test(tc, victim_order);
	tcase_add_test(tc, drop_says_why);
	suite_add_tcase(s, tc);
	return s;
}
