/* Unit tests for the side channel over loopback, one thread per process:
 * the exchanges, a lost peer, a rank that never comes, a rank that stops
 * responding, the arrival table, the bounded send loop. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "bootstrap/bootstrap.h"
#include "bootstrap/bootstrap_wire.h"
#include "suites.h"

#define N 4

struct proc {
	int rank, n, port, lfd;
	int mode;          /* 0 normal, 1 close after hello, 2 no contrib,
			    * 3 silent (no servicing) for 3.6 s */
	struct sc sc;
	int rc_open, rc_ag;
	int all[N];
	char why[512];
	bool from_peer;
	char table[512], silent[256];
};

/* gather to the hub, then the whole table to everyone */
static int allgather(struct sc *sc, const int *mine, int *all, long long dl)
{
	if (sc_gather(sc, mine, sizeof(*mine), all, dl) < 0)
		return -1;
	return sc_bcast(sc, all, sizeof(*all) * (size_t)sc->nprocs, dl);
}

/* One process: open, arrive, allgather its rank*100 (modes vary). */
static void *proc_main(void *arg)
{
	struct proc *p = arg;
	long long dl = mono_now_us() + 3000000;
	int mine = p->rank * 100;

	if (p->rank == 0)
		p->rc_open = sc_hub_open(&p->sc, p->lfd, p->n, "hub-host", dl);
	else
		p->rc_open = sc_client_open(&p->sc, "127.0.0.1", p->port,
					    p->rank, p->n, dl);
	if (p->rc_open < 0)
		goto out;
	sc_arrive(&p->sc, p->rank == 2 ? 2 : 3);
	if (p->mode == 1) {
		sc_close(&p->sc);
		return NULL;
	}
	if (p->mode == 2) {
		usleep(1500000);
		goto out;
	}
	if (p->mode == 3) {
		usleep(3600000);
		goto out;
	}
	p->rc_ag = allgather(&p->sc, &mine, p->all,
			     mono_now_us() + (p->rank == 0 ?
					    (p->n == 2 ? 3300000 : 800000) :
					    4000000));
	if (p->rank == 0 && p->rc_ag < 0)
		sc_describe(&p->sc, 3, mono_now_us() + 500000, p->table,
			    sizeof(p->table), p->silent, sizeof(p->silent));
out:
	snprintf(p->why, sizeof(p->why), "%s", p->sc.why);
	p->from_peer = p->sc.from_peer;
	if (p->rank == 0) /* let the clients read the abort */
		usleep(300000);
	sc_close(&p->sc);
	return NULL;
}

/* Runs n processes with the given modes. */
static void run(struct proc *p, int n, const int *modes)
{
	pthread_t th[N];
	int port = 0, lfd = sc_listen("127.0.0.1", 0, &port);

	ck_assert_int_ge(lfd, 0);
	for (int i = 0; i < n; i++) {
		memset(&p[i], 0, sizeof(p[i]));
		p[i].rank = i;
		p[i].n = n;
		p[i].port = port;
		p[i].lfd = lfd;
		p[i].mode = modes != NULL ? modes[i] : 0;
		pthread_create(&th[i], NULL, proc_main, &p[i]);
	}
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	close(lfd);
}

START_TEST(exchange)
{
	struct proc p[N];

	run(p, N, NULL);
	for (int i = 0; i < N; i++) {
		ck_assert_int_eq(p[i].rc_open, 0);
		ck_assert_int_eq(p[i].rc_ag, 0);
		for (int j = 0; j < N; j++)
			ck_assert_int_eq(p[i].all[j], j * 100);
	}
}
END_TEST

START_TEST(lost_peer)
{
	static const int modes[N] = { 0, 0, 1, 0 };
	struct proc p[N];

	run(p, N, modes);
	ck_assert_int_eq(p[0].rc_ag, -1);
	ck_assert_ptr_nonnull(strstr(p[0].why, "rank 2 was lost"));
	ck_assert_ptr_nonnull(strstr(p[0].table, "rank 2 was lost"));
	ck_assert_int_eq(p[1].rc_ag, -1);
	ck_assert(p[1].from_peer);
	ck_assert_ptr_nonnull(strstr(p[1].why, "rank 2 was lost"));
}
END_TEST

START_TEST(never_arrives)
{
	static const int modes[N] = { 0, 0, 2, 0 };
	struct proc p[N];

	run(p, N, modes);
	ck_assert_int_eq(p[0].rc_ag, -1);
	ck_assert_ptr_nonnull(strstr(p[0].why, "ranks 2 had not arrived"));
	ck_assert_ptr_nonnull(strstr(p[0].table,
				     "ranks 0-1,3 had arrived; rank 2 had not"));
	ck_assert_int_eq(p[3].rc_ag, -1);
	ck_assert(p[3].from_peer);
}
END_TEST

START_TEST(never_connects)
{
	struct sc sc;
	int port = 0, lfd = sc_listen("127.0.0.1", 0, &port);
	long long t0 = mono_now_us();

	ck_assert_int_eq(sc_hub_open(&sc, lfd, 3, "h", t0 + 300000), -1);
	ck_assert_int_lt(mono_now_us() - t0, 1500000);
	ck_assert(sc.timed_out);
	ck_assert_ptr_nonnull(strstr(sc.why, "ranks 1-2 never connected"));
	sc_close(&sc);
	close(lfd);
	/* a client with nobody listening gives up at its deadline */
	t0 = mono_now_us();
	ck_assert_int_eq(sc_client_open(&sc, "127.0.0.1", port, 1, 2,
					t0 + 400000), -1);
	ck_assert_ptr_nonnull(strstr(sc.why, "cannot reach rank 0"));
	ck_assert_int_lt(mono_now_us() - t0, 1500000);
	sc_close(&sc);
}
END_TEST

/* A client that stops servicing the channel (frozen, stopped) is named
 * with how long it has been silent; the others are not. */
START_TEST(stops_responding)
{
	static const int modes[2] = { 0, 3 };
	struct proc p[N];

	run(p, 2, modes);
	ck_assert_int_eq(p[0].rc_ag, -1);
	ck_assert_ptr_nonnull(strstr(p[0].silent, "rank 1 stopped responding "
				     "3."));
	ck_assert_ptr_nonnull(strstr(p[0].silent, " s ago"));
	ck_assert_ptr_nonnull(strstr(p[0].table, "all 2 ranks had arrived"));
}
END_TEST

struct scat {
	int rank, port, lfd, mode; /* mode 1: the client never reads */
	struct sc sc;
	int rc;
	char got[32], why[512];
	long long took_us;
};

/* The hub sends each process its own part; mode 1 sends 32 MB to a
 * client that never reads, within a deadline. */
static void *scat_main(void *arg)
{
	struct scat *s = arg;
	long long dl = mono_now_us() + 3000000;
	void *mine = NULL;
	size_t len = 0;

	if (s->rank == 0) {
		static char big[32 << 20];
		char a[3][16];
		const void *parts[3] = { a[0], a[1], a[2] };
		size_t lens[3];

		if (sc_hub_open(&s->sc, s->lfd, 3, "h", dl) < 0)
			return NULL;
		for (int i = 0; i < 3; i++)
			lens[i] = (size_t)snprintf(a[i], sizeof(a[i]),
						   "part %d", i * 7) + 1;
		if (s->mode == 1) {
			parts[2] = big;
			lens[2] = sizeof(big);
		}
		s->took_us = mono_now_us();
		s->rc = sc_scatterv(&s->sc, parts, lens, &mine, &len,
				    mono_now_us() + 300000);
		s->took_us = mono_now_us() - s->took_us;
	} else {
		if (sc_client_open(&s->sc, "127.0.0.1", s->port, s->rank, 3,
				   dl) < 0)
			return NULL;
		if (s->mode == 1 && s->rank == 2) {
			usleep(3500000);
			sc_close(&s->sc);
			return NULL;
		}
		s->rc = sc_scatterv(&s->sc, NULL, NULL, &mine, &len,
				    mono_now_us() + 4000000);
	}
	if (mine != NULL)
		snprintf(s->got, sizeof(s->got), "%s", (char *)mine);
	snprintf(s->why, sizeof(s->why), "%s", s->sc.why);
	free(mine);
	if (s->rank == 0)
		usleep(200000);
	sc_close(&s->sc);
	return NULL;
}

/* Runs three processes of scat_main. */
static void scat_run(struct scat *s, int mode)
{
	pthread_t th[3];
	int port = 0, lfd = sc_listen("127.0.0.1", 0, &port);

	ck_assert_int_ge(lfd, 0);
	for (int i = 0; i < 3; i++) {
		memset(&s[i], 0, sizeof(s[i]));
		s[i].rank = i;
		s[i].port = port;
		s[i].lfd = lfd;
		s[i].mode = mode;
		s[i].rc = -2;
		pthread_create(&th[i], NULL, scat_main, &s[i]);
	}
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	close(lfd);
}

START_TEST(scatter_parts)
{
	struct scat s[3];

	scat_run(s, 0);
	for (int i = 0; i < 3; i++) {
		char want[16];

		snprintf(want, sizeof(want), "part %d", i * 7);
		ck_assert_int_eq(s[i].rc, 0);
		ck_assert_str_eq(s[i].got, want);
	}
}
END_TEST

/* The hub's send loop ends at the deadline (plus one grace period) even
 * when a client takes nothing; that client is then lost. */
START_TEST(send_loop_deadline)
{
	struct scat s[3];

	scat_run(s, 1);
	ck_assert_int_eq(s[0].rc, -1);
	ck_assert_int_lt(s[0].took_us, 300000 + SC_IO_GRACE_US + 700000);
	ck_assert_ptr_nonnull(strstr(s[0].why, "rank 2 was lost"));
	ck_assert_int_eq(s[1].rc, 0); /* served before the stuck one */
	ck_assert_str_eq(s[1].got, "part 7");
}
END_TEST

START_TEST(ranges)
{
	int a[] = { 0, 1, 2, 5, 7, 8 }, b[] = { 3 };
	char buf[64];

	ck_assert_str_eq(sc_ranges(a, 6, buf, sizeof(buf)), "0-2,5,7-8");
	ck_assert_str_eq(sc_ranges(b, 1, buf, sizeof(buf)), "3");
	ck_assert_str_eq(sc_ranges(b, 0, buf, sizeof(buf)), "");
}
END_TEST

/* The fixed messages' bytes, written out from the format (bootstrap.h):
 * ranks of one job may come from builds on either side of a change to the
 * code that packs them, so the bytes stay as they were. */
START_TEST(wire_golden)
{
	static const unsigned char hello[] = {0, 0, 0, 3, 0, 0, 0x01, 0x00};
	static const unsigned char arrive[] = {0x89, 0xab, 0xcd, 0xef};
	unsigned char b[SC_TABLE_ENTRY], want[SC_TABLE_ENTRY];
	struct sc_hello h = {3, 256}, h2;
	struct sc_entry e = {.step = 0x01020304u, .alive = 1,
			     .silent_ms = 0xa0b0c0d0u}, e2;

	sc_hello_pack(&h, b);
	ck_assert_mem_eq(b, hello, sizeof(hello));
	ck_assert_int_eq(sc_hello_unpack(b, SC_HELLO_WIRE, &h2), 0);
	ck_assert_uint_eq(h2.rank, 3);
	ck_assert_uint_eq(h2.nprocs, 256);
	ck_assert_int_eq(sc_hello_unpack(b, SC_HELLO_WIRE - 1, &h2), -1);
	sc_u32_pack(0x89abcdefu, b);
	ck_assert_mem_eq(b, arrive, sizeof(arrive));
	ck_assert_uint_eq(sc_u32_unpack(b), 0x89abcdefu);
	/* step, alive, silent ms, then the host NUL-padded, 63 bytes sent */
	memset(want, 0, sizeof(want));
	memcpy(want, "\x01\x02\x03\x04\x01\xa0\xb0\xc0\xd0", 9);
	memset(want + 9, 'h', 63);
	memset(e.host, 'h', sizeof(e.host)); /* no NUL */
	memset(b, 0xa5, sizeof(b));
	sc_entry_pack(&e, b);
	ck_assert_mem_eq(b, want, sizeof(want));
	sc_entry_unpack(b, &e2);
	ck_assert_uint_eq(e2.step, e.step);
	ck_assert_uint_eq(e2.alive, 1);
	ck_assert_uint_eq(e2.silent_ms, e.silent_ms);
	ck_assert_uint_eq(strlen(e2.host), 63);
	/* a peer's 64 bytes without a NUL are still read as a string */
	memset(b + 9, 'x', 64);
	sc_entry_unpack(b, &e2);
	ck_assert_uint_eq(strlen(e2.host), 63);
}
END_TEST

Suite *suite_nc_bootstrap(void)
{
	Suite *s = suite_create("nc_bootstrap");
	TCase *tc = tcase_create("loopback");

	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, exchange);
	tcase_add_test(tc, lost_peer);
	tcase_add_test(tc, never_arrives);
	tcase_add_test(tc, never_connects);
	tcase_add_test(tc, stops_responding);
	tcase_add_test(tc, scatter_parts);
	tcase_add_test(tc, send_loop_deadline);
	tcase_add_test(tc, ranges);
	tcase_add_test(tc, wire_golden);
	suite_add_tcase(s, tc);
	return s;
}
