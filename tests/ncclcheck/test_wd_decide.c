/* Unit tests for the watchdog's decision with a fake clock (every phase's
 * deadline, the rank it names, the teardown's warning and status), its
 * heartbeat channel on loopback, and the thread in forked children (a
 * phase's own limit, the teardown mode). */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "bootstrap/bootstrap.h"
#include "bootstrap/watchdog.h"
#include "bootstrap/wd_decide.h"
#include "child.h"
#include "bootstrap/wd_net.h"
#include "suites.h"

#define S 1000000LL /* one second of the fake clock */
#define T (10 * S)  /* -T 10s */
#define G (3 * S)   /* the grace after it */

/* A peer heard at `last` in `phase`. */
static struct nc_wd_peer peer(int rank, const char *host, int pid, int gpu,
			      int phase, int state, long long last)
{
	struct nc_wd_peer p;

	memset(&p, 0, sizeof(p));
	p.rank = rank;
	p.pid = pid;
	p.gpu = gpu;
	p.phase = phase;
	p.step = 7;
	p.state = state;
	p.last_us = last;
	snprintf(p.host, sizeof(p.host), "%s", host);
	return p;
}

/* Rank `rank` of 2 on host a, in `phase` since `start`, armed for -T plus
 * the grace, as nc_wd_phase leaves it. */
static struct nc_wd_view view(int rank, int phase, long long start,
			      const struct nc_wd_peer *peers, int n)
{
	struct nc_wd_view v;

	memset(&v, 0, sizeof(v));
	v.phase = phase;
	v.armed = true;
	v.deadline_us = start + T + G;
	v.limit_us = T;
	v.rank = rank;
	v.nprocs = 2;
	v.pid = 100;
	v.gpu = rank;
	snprintf(v.host, sizeof(v.host), "a");
	snprintf(v.launcher, sizeof(v.launcher), "mpi (OMPI_COMM_WORLD_RANK"
		 "/SIZE): 2 processes; this is rank 0");
	v.net = peers != NULL;
	v.peers = peers;
	v.npeers = n;
	return v;
}

/* Every phase before the verdict: nothing at its deadline, a named
 * timeout (status 1, the phase's name) one microsecond after. */
START_TEST(each_phase_deadline)
{
	struct nc_wd_peer ps[2];
	struct nc_wd_out o;

	for (int ph = NC_WD_START; ph <= NC_WD_VERDICT; ph++) {
		long long start = (ph + 1) * 20 * S; /* phases follow */
		struct nc_wd_view v;
		char want[128];

		ps[0] = peer(0, "a", 100, 0, ph, NC_WD_ALIVE, start);
		ps[1] = peer(1, "b", 4242, 1, ph, NC_WD_ALIVE, start + S);
		v = view(0, ph, start, ps, 2);
		nc_wd_decide(&v, start + T + G, &o);
		ck_assert_int_eq(o.act, NC_WD_WAIT);
		nc_wd_decide(&v, start + T + G + 1, &o);
		ck_assert_int_eq(o.act, NC_WD_FIRE);
		ck_assert_int_eq(o.status, 1);
		snprintf(want, sizeof(want), "collective-timeout: %s did not "
			 "return within 10 s", nc_wd_phase_name(ph));
		ck_assert_msg(strstr(o.msg, want) != NULL, "%s", o.msg);
		ck_assert_msg(strstr(o.msg, "rank 1 on b stopped responding "
				     "12.0 s ago during ") != NULL, "%s", o.msg);
		ck_assert_ptr_nonnull(strstr(o.msg, "(pid 4242, GPU 1)"));
	}
}
END_TEST

/* MPI_Init blocked: no rank can be named; the launcher's words are. */
START_TEST(wireup_names_launcher)
{
	struct nc_wd_view v = view(0, NC_WD_WIREUP, 0, NULL, 0);
	struct nc_wd_out o;

	snprintf(v.what, sizeof(v.what), "MPI_Init");
	nc_wd_decide(&v, T + G - 1, &o);
	ck_assert_int_eq(o.act, NC_WD_WAIT);
	nc_wd_decide(&v, T + G + 1, &o);
	ck_assert_int_eq(o.act, NC_WD_FIRE);
	ck_assert_int_eq(o.status, 1);
	ck_assert_msg(strstr(o.msg, "launcher wire-up: MPI_Init did not "
			     "return within 10 s") != NULL, "%s", o.msg);
	ck_assert_ptr_nonnull(strstr(o.msg, "no rank can be named before "
				     "the launcher's wire-up ends"));
	ck_assert_ptr_nonnull(strstr(o.msg, "the launcher reported mpi "
				     "(OMPI_COMM_WORLD_RANK/SIZE): 2 "
				     "processes"));
}
END_TEST

/* The warm-up blocked inside NCCL on rank 0: the heartbeats name rank 1,
 * frozen 1.5 s into the run, with its step, pid and GPU. */
START_TEST(warmup_names_frozen_rank)
{
	struct nc_wd_peer ps[2] = {
		peer(0, "a", 100, 0, NC_WD_SWEEP, NC_WD_ALIVE, 14 * S),
		peer(1, "vm", 4242, 1, NC_WD_SWEEP, NC_WD_ALIVE, 3 * S / 2),
	};
	struct nc_wd_view v = view(0, NC_WD_SWEEP, S, ps, 2);
	struct nc_wd_out o;

	snprintf(v.what, sizeof(v.what), "all_reduce warm-up");
	nc_wd_decide(&v, 14 * S + 1, &o);
	ck_assert_int_eq(o.act, NC_WD_FIRE);
	ck_assert_msg(strstr(o.msg, "collective-timeout: sweep: all_reduce "
			     "warm-up did not return within 10 s") != NULL,
		      "%s", o.msg);
	ck_assert_msg(strstr(o.msg, "rank 1 on vm stopped responding 12.5 s "
			     "ago during sweep, step 7 (pid 4242, GPU 1)") !=
			      NULL, "%s", o.msg);
}
END_TEST

/* A peer heard 2.9 s ago is not named; every rank answers, so this
 * process is the blocked one. */
START_TEST(recent_peer_not_named)
{
	struct nc_wd_peer ps[2] = {
		peer(0, "a", 100, 0, NC_WD_INIT, NC_WD_ALIVE, 0),
		peer(1, "b", 4242, 1, NC_WD_INIT, NC_WD_ALIVE,
		     T + G + 1 - NC_WD_SILENT_US + 1),
	};
	struct nc_wd_view v = view(0, NC_WD_INIT, 0, ps, 2);
	struct nc_wd_out o;

	nc_wd_decide(&v, T + G + 1, &o);
	ck_assert_int_eq(o.act, NC_WD_FIRE);
	ck_assert_msg(strstr(o.msg, "every other rank still answers: this "
			     "process is the one blocked") != NULL, "%s",
		      o.msg);
	ck_assert_ptr_null(strstr(o.msg, "rank 1 on"));
}
END_TEST

/* Killed: its connection closed before it said done; a rank that said
 * done and left is not blamed. */
START_TEST(lost_and_gone)
{
	struct nc_wd_peer ps[3] = {
		peer(0, "a", 100, 0, NC_WD_SWEEP, NC_WD_ALIVE, 0),
		peer(1, "b", 4242, 1, NC_WD_SWEEP, NC_WD_LOST, 2 * S),
		peer(2, "c", 4343, 2, NC_WD_DONE, NC_WD_GONE, S),
	};
	struct nc_wd_view v = view(0, NC_WD_SWEEP, 0, ps, 3);
	struct nc_wd_out o;
	char buf[512];

	v.nprocs = 3;
	ck_assert_int_eq(nc_wd_name_stopped(&v, 5 * S, buf, sizeof(buf)), 1);
	ck_assert_msg(strstr(buf, "rank 1 on b was lost (its connection "
			     "closed 3.0 s ago) during sweep") != NULL, "%s",
		      buf);
	nc_wd_decide(&v, T + G + 1, &o);
	ck_assert_ptr_null(strstr(o.msg, "rank 2"));
	ck_assert_int_eq(nc_wd_worst(ps, 3, 0, 5 * S), 1);
}
END_TEST

/* Continued after its own stop: the deadline passed while it did not
 * run, and its heartbeats are as old: it names nobody. */
START_TEST(self_stopped)
{
	struct nc_wd_peer ps[2] = {
		peer(0, "a", 100, 0, NC_WD_SWEEP, NC_WD_ALIVE, S),
		peer(1, "b", 4242, 1, NC_WD_SWEEP, NC_WD_ALIVE, S),
	};
	struct nc_wd_view v = view(1, NC_WD_SWEEP, 0, ps, 2);
	struct nc_wd_out o;

	v.self_gap_us = 20 * S;
	nc_wd_decide(&v, 21 * S, &o);
	ck_assert_int_eq(o.act, NC_WD_FIRE);
	ck_assert_msg(strstr(o.msg, "this process itself did not run for 20.0 "
			     "s (stopped with SIGSTOP") != NULL, "%s", o.msg);
	ck_assert_ptr_null(strstr(o.msg, "rank 0 on a"));
}
END_TEST

/* A client hears rank 0 and, through it, the worst other rank. */
START_TEST(client_views)
{
	struct nc_wd_peer ps[2] = {
		peer(0, "a", 100, 0, NC_WD_SWEEP, NC_WD_ALIVE, 13 * S),
		peer(2, "c", 4343, 2, NC_WD_SWEEP, NC_WD_ALIVE, 2 * S),
	};
	struct nc_wd_view v = view(1, NC_WD_SWEEP, 0, ps, 2);
	struct nc_wd_out o;

	v.nprocs = 3;
	nc_wd_decide(&v, T + G + 1, &o);
	ck_assert_msg(strstr(o.msg, "rank 2 on c stopped responding 11.0 s "
			     "ago") != NULL, "%s", o.msg);
	/* nothing relayed, rank 0 answering: this process is blocked */
	ps[1].rank = -1;
	nc_wd_decide(&v, T + G + 1, &o);
	ck_assert_msg(strstr(o.msg, "rank 0 still answers and names no "
			     "stopped rank") != NULL, "%s", o.msg);
	/* rank 0 itself silent */
	ps[0].last_us = S;
	nc_wd_decide(&v, T + G + 1, &o);
	ck_assert_msg(strstr(o.msg, "rank 0 on a stopped responding 12.0 s "
			     "ago") != NULL, "%s", o.msg);
}
END_TEST

/* After the verdict: a warning, the verdict's status, the rank that did
 * not finish teardown. */
START_TEST(teardown_keeps_verdict)
{
	struct nc_wd_peer ps[2] = {
		peer(0, "a", 100, 0, NC_WD_TEARDOWN, NC_WD_ALIVE, 0),
		peer(1, "b", 4242, 1, NC_WD_TEARDOWN, NC_WD_ALIVE, 3 * S),
	};
	struct nc_wd_view v = view(0, NC_WD_TEARDOWN, 2 * S, ps, 2);
	struct nc_wd_out o;

	snprintf(v.what, sizeof(v.what), "MPI_Finalize");
	v.verdict_rc = 0;
	nc_wd_decide(&v, 2 * S + T + G, &o);
	ck_assert_int_eq(o.act, NC_WD_WAIT);
	nc_wd_decide(&v, 2 * S + T + G + 1, &o);
	ck_assert_int_eq(o.act, NC_WD_FIRE);
	ck_assert_int_eq(o.status, 0);
	ck_assert_msg(strstr(o.msg, "warning: teardown: MPI_Finalize did not "
			     "finish within 10 s after the verdict; rank 1 on "
			     "b stopped responding 12.0 s ago during "
			     "teardown (pid 4242, GPU 1); the verdict above "
			     "stands (exit status 0)") != NULL, "%s", o.msg);
	v.verdict_rc = 1;
	nc_wd_decide(&v, 2 * S + T + G + 1, &o);
	ck_assert_int_eq(o.status, 1);
}
END_TEST

/* Unarmed (the unit tests' default) never fires; more than four stopped
 * ranks are counted, not listed. */
START_TEST(unarmed_and_many)
{
	struct nc_wd_peer ps[7];
	struct nc_wd_view v;
	struct nc_wd_out o;
	char buf[1024];

	for (int i = 0; i < 7; i++)
		ps[i] = peer(i, "h", 100 + i, i, NC_WD_SWEEP, NC_WD_ALIVE, 0);
	v = view(0, NC_WD_SWEEP, 0, ps, 7);
	v.nprocs = 7;
	v.armed = false;
	nc_wd_decide(&v, 1000 * S, &o);
	ck_assert_int_eq(o.act, NC_WD_WAIT);
	ck_assert_int_eq(nc_wd_name_stopped(&v, 100 * S, buf, sizeof(buf)),
			 6);
	ck_assert_msg(strstr(buf, "rank 4 on h") != NULL &&
			      strstr(buf, "rank 5 on h") == NULL &&
			      strstr(buf, " and 2 more") != NULL, "%s", buf);
	/* the worst: lost first, then the longest silent */
	ps[3].last_us = -S;
	ck_assert_int_eq(nc_wd_worst(ps, 7, 0, 100 * S), 3);
	ps[5].state = NC_WD_LOST;
	ck_assert_int_eq(nc_wd_worst(ps, 7, 0, 100 * S), 5);
}
END_TEST

/* Two entries through the wire, ages kept. */
START_TEST(beat_roundtrip)
{
	struct nc_wd_peer a = peer(3, "gpu-d", 999, 2, NC_WD_PAIRS,
				   NC_WD_ALIVE, 10 * S);
	struct nc_wd_peer b = peer(5, "gpu-f", 777, 0, NC_WD_TEARDOWN,
				   NC_WD_LOST, 4 * S), x, y;
	unsigned char w[WN_BEAT_WIRE];

	wn_pack(&a, &b, 10 * S, w);
	ck_assert_int_eq(wn_unpack(w, sizeof(w), &x, &y, 20 * S), 0);
	ck_assert_int_eq(x.rank, 3);
	ck_assert_int_eq(x.pid, 999);
	ck_assert_int_eq(x.gpu, 2);
	ck_assert_int_eq(x.phase, NC_WD_PAIRS);
	ck_assert_int_eq(x.step, 7);
	ck_assert_str_eq(x.host, "gpu-d");
	ck_assert_int_eq(x.last_us, 20 * S);
	ck_assert_int_eq(y.rank, 5);
	ck_assert_int_eq(y.state, NC_WD_LOST);
	ck_assert_int_eq(y.last_us, 14 * S);
	ck_assert_int_eq(wn_unpack(w, sizeof(w) - 1, &x, &y, 0), -1);
	wn_pack(&a, NULL, 10 * S, w);
	wn_unpack(w, sizeof(w), &x, &y, 20 * S);
	ck_assert_int_eq(y.rank, -1);
}
END_TEST

/* A u32 in network order at b. */
static void be32(unsigned char *b, uint32_t v)
{
	b[0] = (unsigned char)(v >> 24);
	b[1] = (unsigned char)(v >> 16);
	b[2] = (unsigned char)(v >> 8);
	b[3] = (unsigned char)v;
}

/* The heartbeat's bytes, written out from the format (wd_net.c): per
 * entry i32 rank, pid, gpu, phase; u32 step; i32 state; u32 age in ms;
 * host in 64 bytes, NUL-padded, at most 63 sent. Ranks of one job may
 * come from builds on either side of a change to the code that packs it. */
START_TEST(beat_golden)
{
	struct nc_wd_peer a = peer(3, "gpu-d", 999, 2, NC_WD_PAIRS,
				   NC_WD_ALIVE, 10 * S);
	struct nc_wd_peer b = peer(5, "", 777, -1, NC_WD_TEARDOWN,
				   NC_WD_LOST, 4 * S);
	unsigned char w[WN_BEAT_WIRE], want[WN_BEAT_WIRE];
	uint32_t va[7] = {3, 999, 2, NC_WD_PAIRS, 7, NC_WD_ALIVE, 1500};
	uint32_t vb[7] = {5, 777, 0xffffffffu, NC_WD_TEARDOWN, 7, NC_WD_LOST,
			  7500};

	memset(b.host, 'h', sizeof(b.host)); /* 64 bytes, no NUL */
	memset(want, 0, sizeof(want));
	for (int i = 0; i < 7; i++) {
		be32(want + 4 * i, va[i]);
		be32(want + WN_ENTRY_WIRE + 4 * i, vb[i]);
	}
	memcpy(want + 28, "gpu-d", 5);
	memset(want + WN_ENTRY_WIRE + 28, 'h', 63);
	memset(w, 0xa5, sizeof(w));
	wn_pack(&a, &b, 11 * S + 500000, w);
	ck_assert_mem_eq(w, want, sizeof(w));
}
END_TEST

/* Services hub and clients until cond holds (at most 2 s). */
#define SERVICE_UNTIL(cond)                                                  \
	do {                                                                 \
		for (int k_ = 0; k_ < 200 && !(cond); k_++) {                \
			now += 300000;                                       \
			wn_service(&hub, &me0, now);                         \
			wn_service(&c1, &me1, now);                          \
			if (c2.peers != NULL)                                \
				wn_service(&c2, &me2, now);                  \
			usleep(10000);                                       \
		}                                                            \
		ck_assert(cond);                                             \
	} while (0)

/* The hub hears two clients on loopback; one is killed (closes without
 * done): lost, and the other client hears of it from the hub; a client
 * that says done and closes is gone, not lost. */
START_TEST(net_loopback)
{
	struct wn hub, c1, c2;
	struct nc_wd_peer me0 = peer(0, "a", 10, 0, NC_WD_SWEEP, NC_WD_ALIVE,
				     0);
	struct nc_wd_peer me1 = peer(1, "b", 11, 1, NC_WD_SWEEP, NC_WD_ALIVE,
				     0);
	struct nc_wd_peer me2 = peer(2, "c", 12, 2, NC_WD_INIT, NC_WD_ALIVE,
				     0);
	long long now = 0;
	int port = 0, lfd = sc_listen("127.0.0.1", 0, &port), f1, f2;

	ck_assert_int_ge(lfd, 0);
	ck_assert_int_eq(wn_open_hub(&hub, lfd, 3, now), 0);
	f1 = sc_connect("127.0.0.1", port, mono_now_us() + 2000000);
	f2 = sc_connect("127.0.0.1", port, mono_now_us() + 2000000);
	ck_assert_int_ge(f1, 0);
	ck_assert_int_ge(f2, 0);
	ck_assert_int_eq(wn_open_client(&c1, f1, 1, 3, now), 0);
	ck_assert_int_eq(wn_open_client(&c2, f2, 2, 3, now), 0);
	SERVICE_UNTIL(hub.peers[1].state == NC_WD_ALIVE &&
		      hub.peers[2].state == NC_WD_ALIVE &&
		      c1.peers[0].state == NC_WD_ALIVE);
	ck_assert_int_eq(hub.peers[2].pid, 12);
	ck_assert_int_eq(hub.peers[2].phase, NC_WD_INIT);
	ck_assert_str_eq(c1.peers[0].host, "a");
	/* rank 2 killed: its socket closes without done */
	wn_close(&c2);
	SERVICE_UNTIL(hub.peers[2].state == NC_WD_LOST &&
		      c1.peers[1].rank == 2);
	ck_assert_int_eq(c1.peers[1].state, NC_WD_LOST);
	/* rank 1 says done, then closes: a normal end */
	me1.phase = NC_WD_DONE;
	SERVICE_UNTIL(hub.peers[1].phase == NC_WD_DONE);
	wn_close(&c1);
	now += 300000;
	for (int k = 0; k < 200 && hub.peers[1].state != NC_WD_GONE; k++) {
		usleep(10000);
		wn_service(&hub, &me0, now);
	}
	ck_assert_int_eq(hub.peers[1].state, NC_WD_GONE);
	wn_close(&hub);
}
END_TEST

/* The step a child runs. */
struct step {
	void (*fn)(void);
};

/* nc_test_child's function: the step's. */
static void run_step(void *arg)
{
	((struct step *)arg)->fn();
}

/* Runs fn in a child whose stderr comes back in err; the child sleeps
 * 3 s after fn. Returns its exit status (-1 when it had to be killed). */
static int child(void (*fn)(void), char *err, size_t len, long long *took)
{
	struct step st = {fn};

	return nc_test_child(run_step, &st, 3000000, 42, err, len, took);
}

/* MPI_Init that never returns, -T 0.2s plus 0.1 s. */
static void wireup(void)
{
	nc_wd_start("ncclcheck: rank 1 on t");
	nc_wd_limit(200000, 100000);
	nc_wd_self(1, 2, -1, "t", "mpi (PMIX_RANK): 2 processes");
	nc_wd_phase(NC_WD_WIREUP, "MPI_Init");
}

/* A step disarmed: the phase's own limit still runs. */
static void disarmed_gap(void)
{
	nc_wd_start("ncclcheck: rank 0 on t");
	nc_wd_limit(200000, 100000);
	nc_wd_phase(NC_WD_SWEEP, "");
	nc_wd_arm(mono_now_us() + 100000, "all_reduce float sum 8 B");
	nc_wd_disarm();
}

/* MPI_Finalize that never returns after a passed gate. */
static void teardown(void)
{
	nc_wd_start("ncclcheck: rank 0 on t");
	nc_wd_limit(200000, 100000);
	nc_wd_teardown(0, "MPI_Finalize");
}

START_TEST(thread_wireup)
{
	char err[2048];
	long long us;

	ck_assert_int_eq(child(wireup, err, sizeof(err), &us), 1);
	ck_assert_msg(strstr(err, "ncclcheck: rank 1 on t: collective-timeout"
			     ": launcher wire-up: MPI_Init did not return "
			     "within 0.2 s") != NULL, "%s", err);
	ck_assert_ptr_nonnull(strstr(err, "the launcher reported mpi "
				     "(PMIX_RANK): 2 processes"));
	ck_assert_int_lt(us, 2000000);
}
END_TEST

START_TEST(thread_gap)
{
	char err[2048];
	long long us;

	ck_assert_int_eq(child(disarmed_gap, err, sizeof(err), &us), 1);
	ck_assert_msg(strstr(err, "collective-timeout: sweep did not return "
			     "within 0.2 s") != NULL, "%s", err);
	ck_assert_int_lt(us, 2000000);
}
END_TEST

START_TEST(thread_teardown)
{
	char err[2048];
	long long us;

	ck_assert_int_eq(child(teardown, err, sizeof(err), &us), 0);
	ck_assert_msg(strstr(err, "ncclcheck: rank 0 on t: warning: teardown:"
			     " MPI_Finalize did not finish within 0.2 s after "
			     "the verdict") != NULL, "%s", err);
	ck_assert_ptr_nonnull(strstr(err, "(exit status 0)"));
	ck_assert_int_lt(us, 2000000);
}
END_TEST

Suite *suite_nc_wd_decide(void)
{
	Suite *s = suite_create("nc_wd_decide");
	TCase *tc = tcase_create("decide");
	TCase *tn = tcase_create("net");
	TCase *tt = tcase_create("thread");

	tcase_add_test(tc, each_phase_deadline);
	tcase_add_test(tc, wireup_names_launcher);
	tcase_add_test(tc, warmup_names_frozen_rank);
	tcase_add_test(tc, recent_peer_not_named);
	tcase_add_test(tc, lost_and_gone);
	tcase_add_test(tc, client_views);
	tcase_add_test(tc, self_stopped);
	tcase_add_test(tc, teardown_keeps_verdict);
	tcase_add_test(tc, unarmed_and_many);
	tcase_add_test(tc, beat_roundtrip);
	tcase_add_test(tc, beat_golden);
	suite_add_tcase(s, tc);
	tcase_set_timeout(tn, 20);
	tcase_add_test(tn, net_loopback);
	suite_add_tcase(s, tn);
	tcase_set_timeout(tt, 30);
	tcase_add_test(tt, thread_wireup);
	tcase_add_test(tt, thread_gap);
	tcase_add_test(tt, thread_teardown);
	suite_add_tcase(s, tt);
	return s;
}
