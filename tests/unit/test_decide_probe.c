/* The deciders of what the probes collect (collect, decide, emit): each
 * fed plain facts, healthy ones raise nothing, each fault exactly its
 * code with its fix. */
#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "decide/decide_lookup.h"
#include "decide/decide_mesh.h"
#include "decide/decide_path.h"
#include "decide/decide_peerprobe.h"
#include "doc/doc.h"

/* The only finding of d: its code and fix. */
static void only(const struct doc *d, const char *code, const char *fix)
{
	json_t *f = json_array_get(d->findings, 0);

	ck_assert_uint_eq(json_array_size(d->findings), 1);
	ck_assert_str_eq(json_string_value(json_object_get(f, "code")), code);
	ck_assert_str_eq(json_string_value(json_object_get(f, "fix")), fix);
}

/* A path toward 10.231.90.2 by vx0 (mtu 1450): the responder answered
 * every size up to the interface's MTU, and its interface has the same. */
static void healthy_path(struct path_result *r)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->addr, sizeof(r->addr), "10.231.90.2");
	r->family = AF_INET;
	r->have_route = true;
	snprintf(r->route.out_interface, sizeof(r->route.out_interface),
	         "vx0");
	r->if_mtu = 1450;
	r->pmtu_ran = true;
	r->pmtu.responded = true;
	r->pmtu.largest_ok = 1450;
	r->pmtu.peer_ifmtu = 1450;
	r->pmtu.nprobes = 2;
	r->pmtu.probes[0] = (struct pmtu_probe_rec){576, true};
	r->pmtu.probes[1] = (struct pmtu_probe_rec){1450, true};
}

START_TEST(path_healthy)
{
	struct path_result r;
	struct doc d;

	healthy_path(&r);
	ck_assert_int_eq(doc_init(&d, "netprobe", "path"), 0);
	ck_assert_int_eq(path_decide(&r, &d), 0);
	ck_assert_uint_eq(json_array_size(d.findings), 0);
	/* no responder, a neighbour that answered: cannot tell, no alarm */
	r.pmtu_ran = false;
	memset(&r.pmtu, 0, sizeof(r.pmtu));
	snprintf(r.next_hop, sizeof(r.next_hop), "10.231.90.2");
	snprintf(r.neigh_state, sizeof(r.neigh_state), "REACHABLE");
	ck_assert_int_eq(path_decide(&r, &d), 0);
	ck_assert_uint_eq(json_array_size(d.findings), 0);
	doc_free(&d);
}
END_TEST

START_TEST(path_no_host)
{
	struct path_result r;
	struct doc d;

	healthy_path(&r);
	r.pmtu_ran = false;
	memset(&r.pmtu, 0, sizeof(r.pmtu));
	snprintf(r.next_hop, sizeof(r.next_hop), "10.231.90.2");
	snprintf(r.neigh_state, sizeof(r.neigh_state), "FAILED");
	r.no_host = true;
	ck_assert_int_eq(doc_init(&d, "netprobe", "path"), 0);
	ck_assert_int_eq(path_decide(&r, &d), 0);
	only(&d, "host-unreachable",
	     "check that 10.231.90.2 is the right address and that the host "
	     "is up on this link (ip neigh show 10.231.90.2; ping "
	     "10.231.90.2): no responder or firewall rule explains a host "
	     "that does not answer ARP");
	doc_free(&d);
}
END_TEST

START_TEST(path_blackhole)
{
	struct path_result r;
	struct doc d;

	healthy_path(&r);
	r.pmtu.largest_ok = 1400;
	r.pmtu.smallest_lost = 1401;
	r.pmtu.lost_silently = true;
	r.pmtu.probes[1] = (struct pmtu_probe_rec){1450, false};
	ck_assert_int_eq(doc_init(&d, "netprobe", "path"), 0);
	ck_assert_int_eq(path_decide(&r, &d), 0);
	only(&d, "mtu-blackhole",
	     "a hop between here and 10.231.90.2 limits packets to 1400 "
	     "bytes (this interface has mtu 1450) and sends no ICMP; which "
	     "hop cannot be told from here (`tracepath -n 10.231.90.2` names "
	     "it when the hop answers). The fix is on that link: raise its "
	     "MTU or let it send ICMP fragmentation-needed. Until then no "
	     "node of this network may send more: `ip link set dev vx0 mtu "
	     "1400` here and on every node that crosses it; `sysctl -w "
	     "net.ipv4.tcp_mtu_probing=1` lets TCP (the transport of NCCL's "
	     "sockets, which have no packet-size setting) find it after a "
	     "stall");
	doc_free(&d);
	/* a route MTU at the black hole's size is its workaround: quiet */
	r.route.mtu = 1400;
	ck_assert_int_eq(doc_init(&d, "netprobe", "path"), 0);
	ck_assert_int_eq(path_decide(&r, &d), 0);
	ck_assert_uint_eq(json_array_size(d.findings), 0);
	doc_free(&d);
}
END_TEST

START_TEST(path_mismatch)
{
	struct path_result r;
	struct doc d;

	healthy_path(&r);
	r.pmtu.peer_ifmtu = 1500;
	ck_assert_int_eq(doc_init(&d, "netprobe", "path"), 0);
	ck_assert_int_eq(path_decide(&r, &d), 0);
	only(&d, "mtu-mismatch",
	     "on 10.231.90.2: ip link set dev IFACE mtu 1450 (its interface "
	     "toward this node), or raise this side: ip link set dev vx0 mtu "
	     "1500");
	doc_free(&d);
}
END_TEST

/* A peer that answered: no NAT, every connect-back open. */
static void healthy_peer(struct peer_verdict *v)
{
	memset(v, 0, sizeof(*v));
	snprintf(v->peer, sizeof(v->peer), "node-b");
	snprintf(v->peer_addr, sizeof(v->peer_addr), "10.231.91.2");
	v->port = 7470;
	v->responded = true;
	snprintf(v->local_addr, sizeof(v->local_addr), "10.231.91.1");
	snprintf(v->observed_addr, sizeof(v->observed_addr), "10.231.91.1");
	v->local_port = 40000;
	v->observed_port = 40000;
	v->nat = 0;
	v->inbound = 1;
	v->nback = 2;
	v->back[0] = (struct peer_back){7470, PORT_OPEN, "syn-ack", false};
	v->back[1] = (struct peer_back){32768, PORT_OPEN, "syn-ack", false};
}

START_TEST(peer_healthy)
{
	struct peer_verdict v;
	struct doc d;

	healthy_peer(&v);
	ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
	ck_assert_int_eq(peerprobe_decide(&v, &d), 0);
	/* untested and unknown are no faults either, nor a silent peer */
	v.nat = -1;
	v.inbound = -1;
	ck_assert_int_eq(peerprobe_decide(&v, &d), 0);
	healthy_peer(&v);
	v.responded = false;
	v.nat = 1;
	v.inbound = 0;
	ck_assert_int_eq(peerprobe_decide(&v, &d), 0);
	ck_assert_uint_eq(json_array_size(d.findings), 0);
	doc_free(&d);
}
END_TEST

START_TEST(peer_nat)
{
	struct peer_verdict v;
	struct doc d;
	json_t *f, *ev;

	healthy_peer(&v);
	snprintf(v.observed_addr, sizeof(v.observed_addr), "10.231.91.9");
	v.observed_port = 1024;
	v.nat = 1;
	ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
	ck_assert_int_eq(peerprobe_decide(&v, &d), 0);
	only(&d, "nat-detected",
	     finding_get(FINDING_NAT_DETECTED)->fix);
	f = json_array_get(d.findings, 0);
	ck_assert_str_eq(json_string_value(json_object_get(f, "summary")),
	                 "10.231.91.2 sees this host as 10.231.91.9, not "
	                 "10.231.91.1: peers cannot connect to 10.231.91.1; "
	                 "NCCL and Open MPI fail, Gloo works or hangs "
	                 "depending on which address is higher");
	ev = json_object_get(f, "evidence");
	ck_assert_uint_eq(json_array_size(ev), 3);
	ck_assert_str_eq(
	    json_string_value(json_object_get(json_array_get(ev, 0), "fact")),
	    "our source address toward 10.231.91.2: 10.231.91.1:40000");
	ck_assert_str_eq(
	    json_string_value(json_object_get(json_array_get(ev, 1), "fact")),
	    "10.231.91.2 saw the connection come from 10.231.91.9:1024");
	doc_free(&d);
}
END_TEST

/* The connect-back came in and was answered here, its answers lost on
 * the way back: reply-blocked, never inbound-blocked (whose fix opens
 * this node's firewall for nothing). */
START_TEST(peer_reply_blocked)
{
	struct peer_verdict v;
	struct doc d;
	json_t *f;

	healthy_peer(&v);
	v.back[1] = (struct peer_back){32768, PORT_FILTERED,
				       "syn-ack unanswered", true};
	v.inbound = 0;
	ck_assert(peer_replies_lost(&v));
	ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
	ck_assert_int_eq(peerprobe_decide(&v, &d), 0);
	only(&d, "reply-blocked", finding_get(FINDING_REPLY_BLOCKED)->fix);
	f = json_array_get(d.findings, 0);
	ck_assert_str_eq(json_string_value(json_object_get(f, "summary")),
	                 "10.231.91.2's connections back to 10.231.91.1 "
	                 "arrive and are answered, but the answers never get "
	                 "back to 10.231.91.2: its input rules drop the "
	                 "replies to its own ephemeral ports, or a stateless "
	                 "ACL between does");
	doc_free(&d);
	/* one check lost here, one never seen: the firewall may be ours */
	v.back[0] = (struct peer_back){7470, PORT_FILTERED, "timeout", false};
	ck_assert(!peer_replies_lost(&v));
	ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
	ck_assert_int_eq(peerprobe_decide(&v, &d), 0);
	only(&d, "inbound-blocked",
	     finding_get(FINDING_INBOUND_BLOCKED)->fix);
	doc_free(&d);
}
END_TEST

START_TEST(peer_inbound_blocked)
{
	struct peer_verdict v;
	struct doc d;
	json_t *f, *ev;

	healthy_peer(&v);
	v.back[1] = (struct peer_back){32768, PORT_FILTERED, "no answer", false};
	v.inbound = 0;
	ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
	ck_assert_int_eq(peerprobe_decide(&v, &d), 0);
	only(&d, "inbound-blocked",
	     finding_get(FINDING_INBOUND_BLOCKED)->fix);
	f = json_array_get(d.findings, 0);
	ck_assert_str_eq(json_string_value(json_object_get(f, "summary")),
	                 "10.231.91.1 reaches 10.231.91.2:7470, but "
	                 "connections from it back to 10.231.91.1 fail");
	ev = json_object_get(f, "evidence");
	ck_assert_uint_eq(json_array_size(ev), 1);
	ck_assert_str_eq(
	    json_string_value(json_object_get(json_array_get(ev, 0), "fact")),
	    "10.231.91.2 -> 10.231.91.1:32768/tcp: filtered (no answer)");
	doc_free(&d);
}
END_TEST

START_TEST(taken_none)
{
	struct doc d;

	ck_assert_int_eq(doc_init(&d, "netprobe", "mesh"), 0);
	ck_assert_int_eq(decide_mesh_taken(NULL, 0, &d), 0);
	ck_assert_uint_eq(json_array_size(d.findings), 0);
	doc_free(&d);
}
END_TEST

START_TEST(taken_loopback)
{
	struct mesh_taken t = {29500, {4242, "redis-server", "127.0.0.1"}};
	struct doc d;
	json_t *f;

	ck_assert_int_eq(doc_init(&d, "netprobe", "mesh"), 0);
	ck_assert_int_eq(decide_mesh_taken(&t, 1, &d), 0);
	only(&d, "listener-loopback-only",
	     "make redis-server (pid 4242) listen on 0.0.0.0 or on the "
	     "address peers use, or stop it so the job can take port 29500 "
	     "(ss -ltnp 'sport = :29500')");
	f = json_array_get(d.findings, 0);
	ck_assert_str_eq(json_string_value(json_object_get(f, "summary")),
	                 "port 29500/tcp is held by redis-server (pid 4242) "
	                 "on 127.0.0.1 only: peers cannot reach it");
	doc_free(&d);
}
END_TEST

START_TEST(taken_in_use)
{
	struct mesh_taken t = {29500, {0, "", "0.0.0.0"}};
	struct doc d;
	json_t *ev;

	ck_assert_int_eq(doc_init(&d, "netprobe", "mesh"), 0);
	ck_assert_int_eq(decide_mesh_taken(&t, 1, &d), 0);
	only(&d, "port-in-use",
	     "if another process is not the job's own, stop it before the "
	     "job starts, or give the job another port (ss -ltnp 'sport = "
	     ":29500' shows it)");
	ev = json_object_get(json_array_get(d.findings, 0), "evidence");
	ck_assert_str_eq(
	    json_string_value(json_object_get(json_array_get(ev, 1), "fact")),
	    "29500/tcp: listener on 0.0.0.0");
	doc_free(&d);
}
END_TEST

START_TEST(lookup)
{
	struct doc d;
	json_t *f;

	ck_assert_int_eq(doc_init(&d, "netprobe", "ifaces"), 0);
	/* a failed lookup is the caller's error, no finding */
	ck_assert_int_eq(decide_route_lookup("10.231.92.2", EINVAL, &d), 0);
	ck_assert_int_eq(decide_route_lookup("10.231.92.2", ENOBUFS, &d), 0);
	ck_assert_uint_eq(json_array_size(d.findings), 0);
	ck_assert_int_eq(decide_route_lookup("10.231.92.2", ENETUNREACH, &d),
	                 1);
	only(&d, "host-unreachable",
	     finding_get(FINDING_HOST_UNREACHABLE)->fix);
	f = json_array_get(d.findings, 0);
	ck_assert_str_eq(json_string_value(json_object_get(f, "summary")),
	                 "no route to '10.231.92.2'");
	doc_free(&d);
	ck_assert_int_eq(doc_init(&d, "netprobe", "ifaces"), 0);
	ck_assert_int_eq(decide_route_lookup("node-c", EHOSTUNREACH, &d), 1);
	only(&d, "host-unreachable",
	     finding_get(FINDING_HOST_UNREACHABLE)->fix);
	doc_free(&d);
}
END_TEST

Suite *suite_decide_probe(void)
{
	Suite *s = suite_create("decide_probe");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, path_healthy);
	tcase_add_test(tc, path_no_host);
	tcase_add_test(tc, path_blackhole);
	tcase_add_test(tc, path_mismatch);
	tcase_add_test(tc, peer_healthy);
	tcase_add_test(tc, peer_nat);
	tcase_add_test(tc, peer_inbound_blocked);
	tcase_add_test(tc, peer_reply_blocked);
	tcase_add_test(tc, taken_none);
	tcase_add_test(tc, taken_loopback);
	tcase_add_test(tc, taken_in_use);
	tcase_add_test(tc, lookup);
	suite_add_tcase(s, tc);
	return s;
}
