/* Unit tests for the path MTU search on simulated links, its decider and
 * the MTU probe/reply frames. */
#include <arpa/inet.h>
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "decide/decide_path.h"
#include "doc/doc.h"
#include "probe/pathprobe.h"
#include "probe/pmtu.h"
#include "wire/proto.h"

/* A link in memory: sizes up to `limit` cross, larger ones vanish (or are
 * answered by ICMP when icmp is set); time only moves when probes do. */
struct simlink {
	unsigned limit; /* 0: everything is lost */
	/* a loaded host: probes number stall_from..stall_from+stall_n-1 are
	 * answered stall_us late (lost to a shorter timeout) */
	int stall_from, stall_n;
	long long stall_us;
	bool icmp;      /* send fragmentation-needed instead of dropping */
	unsigned peer_ifmtu;
	int drop_every; /* lose every Nth probe that would cross, 0 none */
	long long now_us;
	long long rtt_us;
	int nsent;
	int ncrossed;
};

static int sim_probe(void *ctx, unsigned size, long long timeout_us,
                     struct pmtu_answer *a)
{
	struct simlink *l = ctx;

	l->nsent++;
	if (l->stall_n > 0 && l->nsent >= l->stall_from &&
	    l->nsent < l->stall_from + l->stall_n &&
	    l->limit != 0 && size <= l->limit) {
		if (timeout_us < l->stall_us) {
			l->now_us += timeout_us;
			return PMTU_LOST;
		}
		l->now_us += l->stall_us;
		a->bytes = size - 28;
		a->peer_ifmtu = l->peer_ifmtu;
		a->rtt_us = l->stall_us;
		return PMTU_OK;
	}
	if (l->limit != 0 && size <= l->limit) {
		l->ncrossed++;
		if (l->drop_every == 0 || l->ncrossed % l->drop_every != 0) {
			l->now_us += l->rtt_us;
			a->bytes = size - 28;
			a->peer_ifmtu = l->peer_ifmtu;
			a->rtt_us = l->rtt_us;
			return PMTU_OK;
		}
	} else if (l->limit != 0 && l->icmp) {
		l->now_us += l->rtt_us;
		a->next_mtu = l->limit;
		return PMTU_TOOBIG;
	}
	l->now_us += timeout_us;
	return PMTU_LOST;
}

static long long sim_now(void *ctx)
{
	return ((struct simlink *)ctx)->now_us;
}

static int run(struct simlink *l, unsigned ifmtu, struct pmtu_result *r)
{
	struct pmtu_config c;
	struct pmtu_ops ops = {sim_probe, sim_now, l};

	pmtu_config_default(&c, AF_INET, ifmtu);
	if (l->rtt_us == 0)
		l->rtt_us = 200;
	return pmtu_search(&c, &ops, r);
}

START_TEST(no_loss)
{
	struct simlink l = {.limit = 9000, .peer_ifmtu = 1500};
	struct pmtu_result r;
	struct pmtu_verdict v;

	ck_assert_int_eq(run(&l, 1500, &r), 0);
	ck_assert(r.responded);
	ck_assert_uint_eq(r.largest_ok, 1500);
	ck_assert_uint_eq(r.smallest_lost, 0);
	ck_assert(r.complete && r.confirmed);
	ck_assert_int_eq(r.nprobes, 2); /* the smallest, then the largest */
	pmtu_decide(&r, 1500, &v);
	ck_assert(!v.blackhole && !v.mismatch);
}
END_TEST

START_TEST(blackhole_1400)
{
	struct simlink l = {.limit = 1400, .peer_ifmtu = 1450};
	struct pmtu_result r;
	struct pmtu_verdict v;
	struct doc d;

	ck_assert_int_eq(run(&l, 1450, &r), 0);
	ck_assert_uint_eq(r.largest_ok, 1400);
	ck_assert_uint_eq(r.smallest_lost, 1401);
	ck_assert(r.lost_silently && !r.frag_needed);
	ck_assert(r.complete && r.confirmed);
	ck_assert_int_le(r.elapsed_us, 5000000);
	pmtu_decide(&r, 1450, &v);
	ck_assert(v.blackhole);
	ck_assert(!v.mismatch);
	ck_assert_uint_eq(v.set_mtu, 1400);
	ck_assert_int_eq(doc_init(&d, "netprobe", "path"), 0);
	ck_assert_int_eq(pmtu_findings(&r, &v, "vx0", 1450, "10.231.9.2", &d),
	                 0);
	ck_assert(doc_has_finding(&d, "mtu-blackhole"));
	ck_assert(!doc_has_finding(&d, "mtu-mismatch"));
	{
		json_t *f = json_array_get(d.findings, 0);
		const char *fix = json_string_value(json_object_get(f, "fix"));

		ck_assert_ptr_nonnull(
		    strstr(fix, "ip link set dev vx0 mtu 1400"));
		/* equal interfaces: a hop between is the limit, unnamed */
		ck_assert_ptr_nonnull(
		    strstr(fix, "which hop cannot be told from here"));
		ck_assert_ptr_nonnull(strstr(fix, "tcp_mtu_probing"));
	}
	doc_free(&d);
}
END_TEST

START_TEST(all_lost_is_bounded)
{
	struct simlink l = {.limit = 0};
	struct pmtu_result r;
	struct pmtu_config c;
	struct pmtu_ops ops = {sim_probe, sim_now, &l};

	pmtu_config_default(&c, AF_INET, 9000);
	c.first_timeout_us = 4000000; /* longer than the deadline allows */
	ck_assert_int_eq(pmtu_search(&c, &ops, &r), 0);
	ck_assert(!r.responded);
	ck_assert_int_le(r.elapsed_us, c.deadline_us);
	ck_assert_int_le(l.now_us, c.deadline_us);
	ck_assert_uint_eq(r.largest_ok, 0);
}
END_TEST

START_TEST(large_lost_is_bounded)
{
	/* jumbo interface, everything above the minimum vanishes: the search
	 * still ends inside the deadline, and the loss's one patient recheck
	 * (3 tries of 500 ms) after it */
	struct simlink l = {.limit = 576, .rtt_us = 200000};
	struct pmtu_result r;

	ck_assert_int_eq(run(&l, 9000, &r), 0);
	ck_assert(r.responded);
	ck_assert_int_le(r.elapsed_us, 5000000 + 3 * 500000);
	ck_assert(r.loss_rechecked && !r.rechecked);
	ck_assert_int_le(r.nprobes, PMTU_MAX_PROBES);
	ck_assert_uint_eq(r.largest_ok, 576);
}
END_TEST

START_TEST(icmp_guides_and_is_no_blackhole)
{
	struct simlink l = {.limit = 1400, .icmp = true};
	struct pmtu_result r;
	struct pmtu_verdict v;

	ck_assert_int_eq(run(&l, 1500, &r), 0);
	ck_assert_uint_eq(r.largest_ok, 1400);
	ck_assert(r.frag_needed);
	ck_assert_uint_eq(r.frag_mtu, 1400);
	ck_assert_int_le(r.nprobes, 4); /* 576, 1500, then the ICMP's 1400 */
	pmtu_decide(&r, 1500, &v);
	ck_assert(!v.blackhole);
}
END_TEST

START_TEST(mismatch_9000_1500)
{
	/* our side 9000, the peer's veth 1500 drops anything larger */
	struct simlink l = {.limit = 1500, .peer_ifmtu = 1500};
	struct pmtu_result r;
	struct pmtu_verdict v;
	struct doc d;

	ck_assert_int_eq(run(&l, 9000, &r), 0);
	ck_assert_uint_eq(r.largest_ok, 1500);
	pmtu_decide(&r, 9000, &v);
	ck_assert(v.blackhole && v.mismatch && v.mismatch_explains);
	ck_assert_uint_eq(v.set_mtu, 1500);
	/* a veth lets 4 bytes more through than its MTU */
	l = (struct simlink){.limit = 1504, .peer_ifmtu = 1500};
	ck_assert_int_eq(run(&l, 9000, &r), 0);
	pmtu_decide(&r, 9000, &v);
	ck_assert(v.mismatch_explains);
	ck_assert_uint_eq(v.set_mtu, 1500);
	l = (struct simlink){.limit = 1500, .peer_ifmtu = 1500};
	ck_assert_int_eq(run(&l, 9000, &r), 0);
	pmtu_decide(&r, 9000, &v);
	ck_assert_int_eq(doc_init(&d, "netprobe", "path"), 0);
	ck_assert_int_eq(pmtu_findings(&r, &v, "veth0", 9000, "peer", &d), 0);
	ck_assert(doc_has_finding(&d, "mtu-mismatch"));
	ck_assert(doc_has_finding(&d, "mtu-blackhole"));
	{
		/* one pair cannot tell which end is the odd one: both ends
		 * are named, neither is said to be certain */
		json_t *f = json_array_get(d.findings, 0);
		const char *fix = json_string_value(json_object_get(f, "fix"));

		ck_assert_ptr_nonnull(strstr(fix, "cannot tell which end"));
		ck_assert_ptr_nonnull(strstr(fix, "stop at peer's interface"));
		ck_assert_ptr_nonnull(
		    strstr(fix, "raise it there: `ip link set dev IFACE mtu "
		                "9000`"));
		ck_assert_ptr_nonnull(strstr(fix, "`ip link set dev veth0 mtu "
		                                  "1500`"));
		ck_assert_ptr_null(strstr(fix, "to match the peer"));
	}
	doc_free(&d);

	/* the other way round: everything crosses, the MTUs still differ */
	l = (struct simlink){.limit = 9000, .peer_ifmtu = 9000};
	ck_assert_int_eq(run(&l, 1500, &r), 0);
	pmtu_decide(&r, 1500, &v);
	ck_assert(!v.blackhole && v.mismatch);
}
END_TEST

START_TEST(lossy_link_still_converges)
{
	struct simlink l = {.limit = 1450, .drop_every = 3};
	struct pmtu_result r;

	ck_assert_int_eq(run(&l, 1500, &r), 0);
	ck_assert_uint_eq(r.largest_ok, 1450);
	ck_assert(r.complete);
}
END_TEST

/* A loaded host: the answers to the largest size come 300 ms late while
 * the search waits 4 RTTs (50 ms): without the patient recheck that read
 * as a black hole at 1500 on a healthy path (a generated cluster beside a
 * CI run, load 16 on two cores). */
START_TEST(late_answers_are_no_blackhole)
{
	struct simlink l = {.limit = 1500, .peer_ifmtu = 1500,
			    .stall_from = 2, .stall_n = 3, .stall_us = 300000};
	struct pmtu_result r;
	struct pmtu_verdict v;

	ck_assert_int_eq(run(&l, 1500, &r), 0);
	ck_assert(r.rechecked);
	ck_assert_uint_eq(r.largest_ok, 1500);
	ck_assert_uint_eq(r.smallest_lost, 0);
	ck_assert(r.complete && r.confirmed);
	pmtu_decide(&r, 1500, &v);
	ck_assert(!v.blackhole);
}
END_TEST

/* A real black hole stays one: the recheck gets no answer either, and
 * says so in the evidence. */
START_TEST(blackhole_survives_recheck)
{
	struct simlink l = {.limit = 1400, .peer_ifmtu = 1450};
	struct pmtu_result r;
	struct pmtu_verdict v;
	struct doc d;

	ck_assert_int_eq(run(&l, 1450, &r), 0);
	ck_assert(r.loss_rechecked && !r.rechecked);
	pmtu_decide(&r, 1450, &v);
	ck_assert(v.blackhole);
	ck_assert_int_eq(doc_init(&d, "netprobe", "path"), 0);
	ck_assert_int_eq(pmtu_findings(&r, &v, "vx0", 1450, "10.231.9.2", &d),
	                 0);
	{
		char *all = json_dumps(d.findings, 0);

		ck_assert_ptr_nonnull(all);
		ck_assert_ptr_nonnull(
		    strstr(all, "1401 bytes stayed silent when tried again"));
		free(all);
	}
	doc_free(&d);
}
END_TEST

START_TEST(bad_config)
{
	struct simlink l = {.limit = 1500};
	struct pmtu_config c;
	struct pmtu_ops ops = {sim_probe, sim_now, &l};
	struct pmtu_result r;

	pmtu_config_default(&c, AF_INET6, 1500);
	ck_assert_uint_eq(c.min_size, 1280);
	c.min_size = 2000;
	ck_assert_int_eq(pmtu_search(&c, &ops, &r), -1);
}
END_TEST

START_TEST(frames)
{
	unsigned char buf[64];
	unsigned seq, bytes, ifmtu;
	uint32_t v;

	ck_assert_int_eq(pmtu_probe_encode(buf, 40, 7), 0);
	ck_assert_int_eq(buf[5], PROTO_MTU_PROBE);
	ck_assert_int_eq(pmtu_probe_encode(buf, 8, 7), -1);

	proto_hdr_encode(buf, PROTO_MTU_REPLY, 0, 12);
	v = htonl(7);
	memcpy(buf + 12, &v, 4);
	v = htonl(1422);
	memcpy(buf + 16, &v, 4);
	v = htonl(1450);
	memcpy(buf + 20, &v, 4);
	ck_assert_int_eq(pmtu_reply_decode(buf, 24, &seq, &bytes, &ifmtu), 0);
	ck_assert_uint_eq(seq, 7);
	ck_assert_uint_eq(bytes, 1422);
	ck_assert_uint_eq(ifmtu, 1450);
	ck_assert_int_eq(pmtu_reply_decode(buf, 20, &seq, &bytes, &ifmtu), -1);
	proto_hdr_encode(buf, PROTO_MTU_REPLY, 0, 8);
	ck_assert_int_eq(pmtu_reply_decode(buf, 20, &seq, &bytes, &ifmtu), -1);
	proto_hdr_encode(buf, PROTO_ECHO_REPLY, 0, 8);
	ck_assert_int_eq(pmtu_reply_decode(buf, 20, &seq, &bytes, &ifmtu), -1);
}
END_TEST

START_TEST(json_form)
{
	struct simlink l = {.limit = 1400, .peer_ifmtu = 1450};
	struct pmtu_result r;
	json_t *o;

	ck_assert_int_eq(run(&l, 1450, &r), 0);
	o = pmtu_to_json(&r, 1450, 1450, 0);
	ck_assert_ptr_nonnull(o);
	ck_assert_int_eq(json_integer_value(json_object_get(o, "largest_ok")),
	                 1400);
	ck_assert(json_is_null(json_object_get(o, "route_mtu")));
	ck_assert_int_eq(
	    json_integer_value(json_object_get(o, "peer_interface_mtu")), 1450);
	ck_assert_int_eq((int)json_array_size(json_object_get(o, "probes")),
	                 r.nprobes);
	json_decref(o);
}
END_TEST

START_TEST(path_document)
{
	struct simlink l = {.limit = 1350, .peer_ifmtu = 1450};
	struct path_result r;
	struct doc d;
	json_t *o;

	memset(&r, 0, sizeof(r));
	snprintf(r.host, sizeof(r.host), "node-b");
	snprintf(r.addr, sizeof(r.addr), "10.231.90.2");
	r.port = 7470;
	r.family = AF_INET;
	r.have_route = true;
	r.route.family = AF_INET;
	snprintf(r.route.destination, sizeof(r.route.destination),
	         "10.231.90.2");
	snprintf(r.route.out_interface, sizeof(r.route.out_interface), "vx0");
	r.if_mtu = 1450;
	ck_assert_int_eq(run(&l, 1450, &r.pmtu), 0);
	r.pmtu_ran = true;
	ck_assert_int_eq(doc_init(&d, "netprobe", "path"), 0);
	ck_assert_int_eq(path_decide(&r, &d), 0);
	ck_assert(doc_has_finding(&d, "mtu-blackhole"));
	ck_assert_int_eq(path_to_doc(&r, &d), 0);
	o = d.root;
	ck_assert_int_eq(json_integer_value(json_object_get(
	                     json_object_get(o, "pmtu"), "largest_ok")),
	                 1350);
	ck_assert_str_eq(json_string_value(json_object_get(
	                     json_object_get(o, "route"), "out_interface")),
	                 "vx0");
	ck_assert_str_eq(json_string_value(json_object_get(
	                     json_object_get(o, "target"), "address")),
	                 "10.231.90.2");
	ck_assert(json_is_null(json_object_get(o, "recommended_iface")));
	doc_free(&d);

	/* the hook for scan's recommendation */
	path_set_recommended_iface(&r, "eth1");
	o = path_to_json(&r);
	ck_assert_str_eq(
	    json_string_value(json_object_get(o, "recommended_iface")), "eth1");
	ck_assert(json_is_false(json_object_get(o, "on_recommended_iface")));
	json_decref(o);

	/* no responder: pmtu null, the error recorded */
	r.pmtu_ran = false;
	snprintf(r.pmtu_err, sizeof(r.pmtu_err), "no answer");
	ck_assert_int_eq(doc_init(&d, "netprobe", "path"), 0);
	ck_assert_int_eq(path_errors(&r, &d), 0);
	ck_assert_int_eq(d.nerror, 1);
	ck_assert_int_eq(path_to_doc(&r, &d), 0);
	ck_assert(json_is_null(json_object_get(d.root, "pmtu")));
	doc_free(&d);
}
END_TEST

Suite *suite_pmtu(void)
{
	Suite *s = suite_create("pmtu");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, no_loss);
	tcase_add_test(tc, blackhole_1400);
	tcase_add_test(tc, all_lost_is_bounded);
	tcase_add_test(tc, large_lost_is_bounded);
	tcase_add_test(tc, icmp_guides_and_is_no_blackhole);
	tcase_add_test(tc, mismatch_9000_1500);
	tcase_add_test(tc, lossy_link_still_converges);
	tcase_add_test(tc, late_answers_are_no_blackhole);
	tcase_add_test(tc, blackhole_survives_recheck);
	tcase_add_test(tc, bad_config);
	tcase_add_test(tc, frames);
	tcase_add_test(tc, json_form);
	tcase_add_test(tc, path_document);
	suite_add_tcase(s, tc);
	return s;
}
