/* netprobe report: the elimination table (reports/decide/elim.c, issue 48). Each
 * row is fed evidence structs: the fact that eliminates it, the fact that
 * keeps it, and none (it stays open). The router that resets high ports
 * between two subnets leaves only the path; a node's own rule beside it
 * keeps both; a healthy subnet pair keeps nothing. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/decide_idle.h"
#include "doc/finding.h"
#include "elim.h"
#include "report_decide.h"
#include "report_model.h"

#define FIXDIR SRCDIR "/tests/fixtures/report"

/* A pair a (10.0.1.0/24) -> b (10.0.2.0/24), each behind its gateway. */
#define PAIR                                                                   \
	.a = "a", .b = "b", .net_a = "10.0.1.0/24", .net_b = "10.0.2.0/24",    \
	.gw_a = "10.0.1.254", .gw_b = "10.0.2.254"
/* A pair a, b on one subnet, on-link, whose 29500/tcp failed. */
#define ONLINK                                                                 \
	.a = "a", .b = "b", .net_a = "10.0.1.0/24", .net_b = "10.0.1.0/24",    \
	.port = "29500/tcp"
/* The pair, whose 29500/tcp failed. */
#define P29500 PAIR, .port = "29500/tcp"
/* The pair, whose idle connection on 7471/tcp was killed. */
#define IDLE PAIR, .port = "7471/tcp", .idle_killed = true, .control_ok = true
/* Another node reached the port: the listener is there. */
#define LISTENER .listener_ok = true, .listener_fact = "c reaches b's 29500/tcp"
/* Two pairs inside b's subnet reach the port. */
#define INSIDE                                                                 \
	.inside_ok = 2,                                                        \
	.inside_fact = "c reaches b's 29500/tcp inside 10.0.2.0/24"
/* An idle connection of b's that lived on. */
#define KEPT_B .kept_b = "c's idle connection to b lived on"

/* A pair a (10.0.1.0/24) -> b (10.0.2.0/24) whose 29500/tcp failed, with
 * no evidence either way. */
static struct elim_ev ev(void)
{
	return (struct elim_ev){P29500};
}

/* Row id's state for e. */
static enum elim_state state(const char *id, const struct elim_ev *e)
{
	struct elim_out o;
	int r = elim_row_of(id);

	ck_assert_int_ge(r, 0);
	elim_run(e, &o);
	return o.state[r];
}

/* One row fed one set of evidence, and the state it must come to. */
struct row_case {
	const char *row;
	struct elim_ev ev;
	enum elim_state want;
	const char *why;
};

/* Each row: no evidence (open), the fact that eliminates it (gone), the
 * fact that keeps it (kept), and what beside them changes the verdict. */
static const struct row_case row_cases[] = {
	/* a firewall row: its end's ruleset read, and a drop in it */
	{"firewall-b", {P29500}, ELIM_OPEN, "nothing read of b"},
	{"firewall-b", {P29500, .rules_b = true}, ELIM_GONE, "b's rules read"},
	{"firewall-b", {P29500, .rules_b = true, .drops_b = true}, ELIM_KEPT,
	 "a rule that drops wins over \"read\""},
	{"firewall-a", {P29500, .rules_b = true, .drops_b = true}, ELIM_OPEN,
	 "b's rules say nothing of a's"},
	{"firewall-a",
	 {P29500, .rules_a = true, .rules_b = true, .drops_b = true},
	 ELIM_GONE, "a's rules read"},
	/* route and NAT: the mesh's own port both ways */
	{"route-a", {P29500}, ELIM_OPEN, "no control connection"},
	{"nat", {P29500}, ELIM_OPEN, "no control connection"},
	{"route-a", {P29500, .control_ok = true}, ELIM_GONE, "both ways"},
	{"route-b", {P29500, .control_ok = true}, ELIM_GONE, "both ways"},
	{"nat", {P29500, .control_ok = true}, ELIM_GONE, "both ways"},
	{"route-b", {P29500, .control_ok = true, .route_b = true}, ELIM_KEPT,
	 "a route cause on b"},
	{"nat", {P29500, .control_ok = true, .route_b = true, .nat = true},
	 ELIM_KEPT, "an end behind NAT"},
	/* loss, MTU, an address held twice, the listener */
	{"loss", {P29500}, ELIM_OPEN, "nothing measured"},
	{"loss", {P29500, .reset = true}, ELIM_GONE, "every connect answered"},
	{"loss", {P29500, .reset = true, .lossy = true}, ELIM_KEPT,
	 "the link measured lossy"},
	{"mtu", {P29500, .reset = true, .lossy = true}, ELIM_GONE,
	 "a handshake's packets are small"},
	{"mtu", {PAIR, .reset = true, .lossy = true}, ELIM_OPEN,
	 "no failed port"},
	{"conflict", {PAIR, .reset = true, .lossy = true}, ELIM_GONE,
	 "no address held twice"},
	{"conflict", {PAIR, .reset = true, .lossy = true, .conflict = true},
	 ELIM_KEPT, "an address held twice"},
	{"listener", {PAIR, .reset = true, .lossy = true, .conflict = true},
	 ELIM_OPEN, "no other node reached the port"},
	{"listener",
	 {PAIR, .reset = true, .lossy = true, .conflict = true, LISTENER},
	 ELIM_GONE, "another node reached the port"},
	/* a static neighbour entry with an old MAC: on one LAN only */
	{"neigh", {ONLINK}, ELIM_OPEN, "neither table read"},
	{"neigh", {ONLINK, .neigh_read_a = true}, ELIM_OPEN,
	 "b's table not read"},
	{"neigh", {ONLINK, .neigh_read_a = true, .neigh_read_b = true},
	 ELIM_GONE, "both tables read, nothing stale"},
	{"neigh",
	 {ONLINK, .neigh_read_a = true, .neigh_read_b = true,
	  .neigh_stale_b = true},
	 ELIM_KEPT, "b's entry for a names a MAC a does not have"},
	{"neigh", {P29500}, ELIM_NA, "a routed pair: the gateway's entry"},
	/* two macvlan siblings in VEPA or private mode: one LAN only */
	{"vepa", {ONLINK}, ELIM_OPEN, "the interfaces not read"},
	{"vepa", {ONLINK, .vepa_read = true}, ELIM_GONE,
	 "read: not two VEPA macvlans"},
	{"vepa", {ONLINK, .vepa_read = true, .vepa_both = true}, ELIM_KEPT,
	 "both ends VEPA macvlans on one subnet"},
	{"vepa", {P29500, .vepa_read = true}, ELIM_NA,
	 "a routed pair: no sibling frames"},
	/* a notrack exemption no accept matches */
	{"untracked", {P29500}, ELIM_OPEN, "no ruleset read"},
	{"untracked", {P29500, .rules_a = true}, ELIM_OPEN,
	 "b's ruleset not read"},
	{"untracked", {P29500, .rules_a = true, .rules_b = true},
	 ELIM_GONE, "both rulesets read, no unaccepted exemption"},
	{"untracked",
	 {P29500, .rules_a = true, .rules_b = true, .legacy_b = true},
	 ELIM_OPEN, "b's iptables-legacy raw table is not read"},
	{"untracked",
	 {P29500, .rules_a = true, .rules_b = true, .untracked_b = true},
	 ELIM_KEPT, "b's exemption covers a, nothing accepts it"},
	/* a multipath route that picks a dead next hop (blind48c 04) */
	{"ecmp", {P29500}, ELIM_OPEN, "routed, nothing read"},
	{"ecmp", {P29500, .ecmp_a = true}, ELIM_KEPT,
	 "a's lookup toward b picks the dead hop"},
	{"ecmp", {P29500, .ecmp_b = true}, ELIM_KEPT,
	 "b's route toward a (a's replies fail both ways)"},
	{"ecmp", {P29500, .control_ok = true}, ELIM_GONE,
	 "the responders reached each other both ways"},
	{"ecmp", {ONLINK}, ELIM_NA, "one subnet: no next hop to pick"},
	/* a blackhole, unreachable or prohibit route */
	{"rtdrop", {P29500}, ELIM_OPEN, "no lookup recorded"},
	{"rtdrop", {P29500, .lookup_a = true}, ELIM_OPEN,
	 "b's lookup not recorded"},
	{"rtdrop", {P29500, .lookup_a = true, .lookup_b = true}, ELIM_GONE,
	 "both lookups answered with a route"},
	{"rtdrop", {ONLINK, .lookup_a = true, .rtdrop_b = true}, ELIM_KEPT,
	 "b's blackhole holds a's address, on-link too"},
	/* the path */
	{"path", {P29500}, ELIM_OPEN, "across subnets without the shape"},
	{"path", {P29500, INSIDE}, ELIM_KEPT,
	 "inside pairs reach the very port"},
	{"path", {P29500, INSIDE, .inside_fail = 1}, ELIM_GONE,
	 "the port fails inside a subnet too"},
	{"path",
	 {.a = "a", .b = "b", .net_a = "10.0.1.0/24", .net_b = "10.0.1.0/24",
	  .port = "29500/tcp", .inside_ok = 2},
	 ELIM_GONE, "one subnet, on-link: no box between"},
	/* an idle connection killed across the subnets: loss, MTU, the
	 * listener and each end's own tracking go by the idle facts */
	{"loss", {IDLE}, ELIM_GONE, "fresh connections pass: forgotten"},
	{"mtu", {IDLE}, ELIM_GONE, "the echo after the spell is small"},
	/* a queueing discipline (issue 48, blind48e 01): an end's own
	 * shaper kept, and with the MTUs equal no MTU is at fault; both
	 * read and none: gone; unread where large frames fail with equal
	 * MTUs: open (tc -s qdisc show); else not this table's */
	{"qdisc", {PAIR, .qdisc_a = true}, ELIM_KEPT, "a's scan shows one"},
	{"mtu", {PAIR, .qdisc_a = true, .mtu_eq = 1500}, ELIM_GONE,
	 "the MTUs are equal and a's qdisc drops full frames"},
	{"mtu", {PAIR, .qdisc_b = true}, ELIM_OPEN,
	 "a qdisc, but the MTUs unknown"},
	{"qdisc", {PAIR, .qdisc_read = true, .large_fail = true,
		   .mtu_eq = 1500}, ELIM_GONE, "both read, none drops"},
	{"qdisc", {PAIR, .large_fail = true, .mtu_eq = 1500}, ELIM_OPEN,
	 "unread, large frames fail, MTUs equal"},
	{"qdisc", {PAIR, .large_fail = true}, ELIM_NA,
	 "unread, the MTUs unknown"},
	{"qdisc", {P29500}, ELIM_NA, "nothing size-dependent"},
	{"listener", {IDLE}, ELIM_GONE, "the idle connection was accepted"},
	{"conntrack-b", {IDLE}, ELIM_OPEN, "nothing read of b"},
	{"conntrack-b", {IDLE, .rules_b = true}, ELIM_GONE,
	 "b's ruleset read, no blocks"},
	{"conntrack-b", {IDLE, .rules_b = true, .tracked_b = true}, ELIM_OPEN,
	 "b's ruleset has blocks"},
	{"conntrack-b",
	 {IDLE, .rules_b = true, .tracked_b = true, KEPT_B},
	 ELIM_GONE, "an idle connection of b's lived on"},
	{"conntrack-a",
	 {PAIR, .port = "7471/tcp", .control_ok = true, .rules_b = true,
	  .tracked_b = true, KEPT_B},
	 ELIM_NA, "no idle failure: the tracking rows do not apply"},
};

/* Case _i of row_cases: the row comes to its state. */
START_TEST(row_states)
{
	const struct row_case *c = &row_cases[_i];
	enum elim_state got = state(c->row, &c->ev);

	ck_assert_msg(got == c->want, "case %d, %s (%s): state %d, want %d",
		      _i, c->row, c->why, (int)got, (int)c->want);
}
END_TEST

/* The router that resets 20000-65535 between the subnets: every node's
 * own hypothesis goes, the path alone is kept. */
START_TEST(middlebox_only_path_left)
{
	struct elim_ev e = ev();
	struct elim_out o;
	int path = elim_row_of("path");
	char why[400];

	e.rules_a = e.rules_b = e.control_ok = e.reset = true;
	e.listener_ok = true;
	strcpy(e.listener_fact, "c reaches b's 29500/tcp");
	e.inside_ok = 3;
	strcpy(e.inside_fact, "c reaches b's 29500/tcp inside 10.0.2.0/24");
	ck_assert_uint_eq(elim_run(&e, &o), 1);
	ck_assert_uint_eq(o.kept, 1);
	ck_assert_int_eq(o.state[path], ELIM_KEPT);
	/* a node's own rule beside it: both kept, nothing open */
	e.drops_b = true;
	ck_assert_uint_eq(elim_run(&e, &o), 2);
	ck_assert_uint_eq(o.kept, 2);
	/* the probe of a row names the nodes and the port */
	elim_fill(elim_rows(&(size_t){0})[path].probe, &e, why, sizeof(why));
	ck_assert_str_eq(why,
			 "traceroute -T -p 29500 b on a (the last hop that "
			 "answers)");
	/* {ifa}: a's interface toward b, "IF" unknown */
	elim_fill("tc -s qdisc show dev {ifa} on {a}", &e, why, sizeof(why));
	ck_assert_str_eq(why, "tc -s qdisc show dev IF on a");
	strcpy(e.if_a, "lan0");
	elim_fill("tc -s qdisc show dev {ifa} on {a}", &e, why, sizeof(why));
	ck_assert_str_eq(why, "tc -s qdisc show dev lan0 on a");
}
END_TEST

/* The idle probe's decider: killed is a fault with its evidence and the
 * "idle" object in the peer's entry; alive is the object alone;
 * untested adds nothing. */
START_TEST(idle_decider)
{
	struct idle_result r = {IDLE_KILLED, 5003, 3000, 7471, ""};
	struct doc d;
	json_t *obj = json_object(), *f;

	ck_assert_int_eq(doc_init(&d, "netprobe", NULL), 0);
	ck_assert_int_eq(idle_decide(&r, "node03", "10.0.2.3", obj, &d), 0);
	f = json_array_get(json_object_get(d.root, "findings"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(f, "code")),
			 "idle-connection-killed");
	ck_assert_str_eq(json_string_value(json_object_get(
				 json_object_get(obj, "idle"), "state")),
			 "killed");
	r.state = IDLE_ALIVE;
	ck_assert_int_eq(idle_decide(&r, "node04", "10.0.2.4", obj, &d), 0);
	ck_assert_uint_eq(json_array_size(json_object_get(d.root, "findings")),
			  1);
	ck_assert_str_eq(json_string_value(json_object_get(
				 json_object_get(obj, "idle"), "state")),
			 "alive");
	r.state = IDLE_UNTESTED;
	json_object_del(obj, "idle");
	ck_assert_int_eq(idle_decide(&r, "node04", "10.0.2.4", obj, &d), 0);
	ck_assert_ptr_null(json_object_get(obj, "idle"));
	json_decref(obj);
	doc_free(&d);
}
END_TEST

/* A node's own ruleset as the elimination reads it: a drop limited to
 * one source drops only that source's; a drop policy passes what an
 * accept ahead of it lets through, and drops the rest. */
START_TEST(ruleset_drops)
{
	json_t *d = json_pack(
		"{s:{s:s, s:b, s:[{s:s, s:s, s:[s], s:s, s:s, s:[s]}]}}",
		"firewall", "backend", "nftables", "truncated", 0, "blocks",
		"kind", "rule", "proto", "tcp", "ports", "32768-60999",
		"verdict", "drop", "table", "t", "saddr", "10.0.0.7");
	json_t *u = json_pack(
		"{s:{s:s, s:[{s:s, s:s, s:[s], s:s}, {s:s, s:s, s:s}]}}",
		"firewall", "backend", "nftables", "blocks", "kind", "rule",
		"proto", "tcp", "ports", "7471", "verdict", "accept", "kind",
		"policy", "proto", "", "verdict", "drop");

	ck_assert_ptr_nonnull(d);
	ck_assert_ptr_nonnull(u);
	ck_assert(rd_rules_drop(d, 32770, "tcp", "10.0.0.7"));
	ck_assert(!rd_rules_drop(d, 32770, "tcp", "10.0.0.1"));
	ck_assert(!rd_rules_drop(d, 32770, "udp", "10.0.0.7"));
	ck_assert(!rd_rules_drop(d, 29500, "tcp", "10.0.0.7"));
	/* an unknown source: only a block of every source matches */
	ck_assert(!rd_rules_drop(d, 32770, "tcp", ""));
	ck_assert(!rd_rules_drop(u, 7471, "tcp", "10.0.0.1"));
	ck_assert(rd_rules_drop(u, 29500, "tcp", "10.0.0.1"));
	json_decref(d);
	json_decref(u);
}
END_TEST

/* The mesh's retry probe (issue 48): the failed port 0 of 5 while the
 * responder's port passed 5 of 5, in turns, eliminates loss, and so do
 * refusals among the failed port's tries; an accept of the failed port,
 * a control connect lost, or too few tries leave it open. b's own netprobe holding the port eliminates "nothing
 * listens". */
START_TEST(retry_and_held_rows)
{
	struct elim_ev e = ev();
	struct elim_out o;
	int loss = elim_row_of("loss");

	ck_assert_int_eq(state("loss", &e), ELIM_OPEN);
	e.retry_tries = e.retry_ctl_tries = e.retry_ctl_answered = 5;
	strcpy(e.retry_fact, "a connected to b's 29500/tcp 0 of 5 times and "
			     "to its responder's 7471/tcp 5 of 5 times, in "
			     "turns");
	ck_assert_int_eq(state("loss", &e), ELIM_GONE);
	elim_run(&e, &o);
	ck_assert_msg(strstr(o.why[loss], "0 of 5 times") != NULL &&
			      strstr(o.why[loss], "retry probe") != NULL,
		      "%s", o.why[loss]);
	e.retry_answered = 1; /* the port accepted once: not a rule alone */
	ck_assert_int_eq(state("loss", &e), ELIM_OPEN);
	/* the one answer a refusal, the rest silent (an ICMP rate limit,
	 * t_hop's icmp pass on a loaded machine): loss gives no answer */
	e.retry_refused = 1;
	ck_assert_int_eq(state("loss", &e), ELIM_GONE);
	e.retry_answered = 2; /* one refused, one accepted */
	ck_assert_int_eq(state("loss", &e), ELIM_OPEN);
	e.retry_answered = e.retry_refused = 0;
	e.retry_ctl_answered = 4; /* the control lost one: loss is there */
	ck_assert_int_eq(state("loss", &e), ELIM_OPEN);
	e.retry_ctl_answered = e.retry_tries = e.retry_ctl_tries = 2;
	ck_assert_int_eq(state("loss", &e), ELIM_OPEN);
	e = ev();
	ck_assert_int_eq(state("listener", &e), ELIM_OPEN);
	e.held_b = true;
	ck_assert_int_eq(state("listener", &e), ELIM_GONE);
}
END_TEST

/* Loads the documents of fixture folder name into set, each peer's
 * "retry" object dropped when strip is "retry" (as a netprobe without
 * the retry probe writes them), its "refused" count when "refused" (as
 * one that counted refusals as accepts), nothing when NULL. */
static void load_fixture(struct report_set *set, const char *name,
			 const char *strip)
{
	char dir[512], path[800];
	DIR *d;
	struct dirent *de;
	int n = 0;

	snprintf(dir, sizeof(dir), "%s/%s", FIXDIR, name);
	d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL && n < 64) {
		json_t *doc, *p;
		size_t i;
		char *txt;

		if (strstr(de->d_name, ".json") == NULL)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		doc = json_load_file(path, 0, NULL);
		ck_assert_ptr_nonnull(doc);
		json_array_foreach(json_object_get(doc, "peers"), i, p)
			if (strip != NULL && strcmp(strip, "retry") == 0)
				json_object_del(p, "retry");
			else if (strip != NULL)
				json_object_del(json_object_get(p, "retry"),
						strip);
		txt = json_dumps(doc, 0);
		ck_assert_ptr_nonnull(txt);
		ck_assert_int_eq(report_load_buffer(set, de->d_name, txt,
						    strlen(txt)),
				 0);
		free(txt);
		json_decref(doc);
		n++;
	}
	closedir(d);
	ck_assert_int_gt(n, 1);
}

/* A router that drops (no reset) 20000-65535 between two subnets, a
 * generated cluster's real documents (gen.sh's mbox-drop): without the
 * retry probe loss stays open on every pair and the report cannot tell
 * (16 undecided pairs, main's); with it, loss goes, the path alone is
 * left and the report names the box, its why-not line the probe's. */
START_TEST(retry_decides_path)
{
	struct report_set set = {0}, old = {0};
	struct report_model *m, *mo;
	const json_t *k, *v;
	size_t i;
	bool line = false;

	load_fixture(&set, "mbox-drop", NULL);
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->ncauses, 1);
	k = m->causes[0].cause;
	ck_assert_str_eq(rj_str(k, "id"), "path:10.231.30.254");
	json_array_foreach(rj_arr(k, "evidence"), i, v)
		line |= strncmp(rj_strd(v, "fact", ""),
				"why not loss on the link: ", 26) == 0 &&
			strstr(rj_strd(v, "fact", ""), "retry probe") != NULL;
	ck_assert(line);
	load_fixture(&old, "mbox-drop", "retry");
	mo = report_build(&old);
	ck_assert_ptr_nonnull(mo);
	ck_assert_uint_eq(mo->ncauses, 16);
	for (i = 0; i < mo->ncauses; i++)
		ck_assert_str_eq(rj_str(mo->causes[i].cause, "kind"),
				 "undecided");
	report_model_free(m);
	report_model_free(mo);
	report_set_free(&set);
	report_set_free(&old);
}
END_TEST

/* A router whose conntrack forgets idle connections between
 * 10.231.30.0/24 and 10.231.31.0/24, with node02's own firewall dropping
 * 29500 beside it (gen.sh seed 117 with GEN48_DRAW=1, its real
 * documents). The hop probes of 10.231.31.0/24's members toward node02's
 * 29500 end at node02's own distance (its firewall, not a box): they
 * name their own first hop, 10.231.31.254, which is no evidence of where
 * the box is. The path cause is named as the first subnet's side knows
 * the router, its gateway 10.231.30.254 (main's named it by the other
 * side's 10.231.31.254); the other side's address is in its words. */
START_TEST(path_named_by_first_side)
{
	struct report_set set = {0};
	struct report_model *m;
	const json_t *k = NULL;

	load_fixture(&set, "mbox-idle-hop", NULL);
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	for (size_t i = 0; i < m->ncauses; i++)
		if (strcmp(rj_strd(m->causes[i].cause, "kind", ""), "path") ==
		    0)
			k = m->causes[i].cause;
	ck_assert_ptr_nonnull(k);
	ck_assert_str_eq(rj_str(k, "id"), "path:10.231.30.254");
	ck_assert_msg(strstr(rj_strd(k, "summary", ""), "10.231.31.254") !=
			      NULL,
		      "%s", rj_strd(k, "summary", ""));
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* The ids of the causes model m holds, comma-joined, into buf. */
static void cause_ids(const struct report_model *m, char *buf, size_t len)
{
	size_t l = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < m->ncauses && l < len; i++)
		l += (size_t)snprintf(buf + l, len - l, "%s%s", i ? "," : "",
				      rj_strd(m->causes[i].cause, "id", ""));
}

/* t_hop's icmp pass on a loaded machine (CI, 2026-12-07): r2 refuses
 * with ICMP admin-prohibited, its ICMP errors rate-limited, so the retry
 * probe's connects to the failed port were refused once or twice and
 * silent the rest. A refusal is an answer, which loss never gives: the
 * pairs join the path cause. Read as an older netprobe counted them
 * (each refusal an accept), loss stays open on two pairs, undecided. */
START_TEST(retry_refusal_no_loss)
{
	struct report_set set = {0}, old = {0};
	struct report_model *m, *mo;
	char ids[400];

	load_fixture(&set, "hop-refused", NULL);
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	cause_ids(m, ids, sizeof(ids));
	ck_assert_str_eq(ids, "path:10.231.86.2");
	load_fixture(&old, "hop-refused", "refused");
	mo = report_build(&old);
	ck_assert_ptr_nonnull(mo);
	cause_ids(mo, ids, sizeof(ids));
	ck_assert_msg(strstr(ids, "undecided:") != NULL, "%s", ids);
	report_model_free(m);
	report_model_free(mo);
	report_set_free(&set);
	report_set_free(&old);
}
END_TEST

/* The path cause of one of its fixtures into *k (the only cause). */
static struct report_model *only_path(struct report_set *set,
				      const char *name, const json_t **k)
{
	struct report_model *m;

	load_fixture(set, name, NULL);
	m = report_build(set);
	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->ncauses, 1);
	*k = m->causes[0].cause;
	ck_assert_str_eq(rj_strd(*k, "kind", ""), "path");
	return m;
}

/* Two routers in a row (t_hop: A - r1 - r2 - B), r2 refusing with ICMP,
 * its ICMP errors rate-limited hard. Every walk went silent past r1:
 * r2's silence, not a drop at r1. With the path crossing two boxes and
 * no walk pinning one, the cause names the subnets, not r1 (main's
 * named r1, the gateway, and put the fix there); its words name both
 * gateways to look at, and it has no command to paste. */
START_TEST(path_unpinned_names_no_gateway)
{
	struct report_set set = {0};
	struct report_model *m;
	const json_t *k;
	const char *fix;

	m = only_path(&set, "hop-ratelimit", &k);
	ck_assert_str_eq(rj_str(k, "id"),
			 "path:10.231.84.0/24<->10.231.85.0/24");
	fix = rj_strd(json_object_get(k, "fix"), "text", "");
	ck_assert_msg(strstr(fix, "could not tell") != NULL &&
			      strstr(fix, "10.231.84.254, 10.231.85.254") !=
				      NULL,
		      "%s", fix);
	ck_assert_uint_eq(json_object_size(json_object_get(
				  json_object_get(k, "fix"), "commands")),
			  0);
	ck_assert_ptr_null(strstr(rj_strd(k, "summary", ""), "10.231.84.254"));
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* The same box with some refusals caught: two walks from r1's side went
 * silent past r1 (rate-limited), two others got r2's refusal at TTL 3.
 * A refusal that names its sender outranks a silence: r2, not r1. */
START_TEST(path_answer_outranks_silence)
{
	struct report_set set = {0};
	struct report_model *m;
	const json_t *k;

	m = only_path(&set, "hop-ratelimit-mixed", &k);
	ck_assert_str_eq(rj_str(k, "id"), "path:10.231.86.2");
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* The mesh's hop probe (issue 48): a walk that saw the answer come from
 * a box before the peer eliminates that peer's own firewall and keeps
 * the path, with no pair inside a subnet to compare; a walk that saw it
 * at the peer's own distance decides nothing; a refusal from the path
 * eliminates loss; a rule of the peer's own that drops stays shown. */
START_TEST(hop_rows)
{
	struct elim_ev e = {P29500, .hop_box_a = 1,
			    .hop_fact_a = "the hop probe from a: a reset at TTL "
					  "2, before b"};
	struct elim_out o;

	elim_run(&e, &o);
	ck_assert_int_eq(o.state[elim_row_of("firewall-b")], ELIM_GONE);
	ck_assert_str_eq(o.why[elim_row_of("firewall-b")], e.hop_fact_a);
	ck_assert_int_eq(o.state[elim_row_of("firewall-a")], ELIM_OPEN);
	ck_assert_int_eq(o.state[elim_row_of("path")], ELIM_KEPT);
	ck_assert_str_eq(o.why[elim_row_of("path")], e.hop_fact_a);
	/* b's walk toward a: a's own firewall instead */
	e = (struct elim_ev){P29500, .hop_box_b = 1, .hop_fact_b = "x"};
	ck_assert_int_eq(state("firewall-a", &e), ELIM_GONE);
	ck_assert_int_eq(state("firewall-b", &e), ELIM_OPEN);
	/* at the peer's own distance, or cannot tell: nothing decided */
	for (int box = -2; box <= 0; box++) {
		e = (struct elim_ev){P29500, .hop_box_a = box,
				     .hop_box_b = box};
		ck_assert_int_eq(state("firewall-b", &e), ELIM_OPEN);
		ck_assert_int_eq(state("path", &e), ELIM_OPEN);
	}
	/* a refusal from the path is an answer: no loss; its silence
	 * decides nothing about loss (the retry probe does) */
	e = (struct elim_ev){P29500, .hop_box_a = 1, .hop_answered_a = true,
			    .hop_fact_a = "x"};
	ck_assert_int_eq(state("loss", &e), ELIM_GONE);
	e.hop_answered_a = false;
	ck_assert_int_eq(state("loss", &e), ELIM_OPEN);
	/* b's own rule that drops is shown, whatever the walk says */
	e = (struct elim_ev){P29500, .drops_b = true, .hop_box_a = 1};
	ck_assert_int_eq(state("firewall-b", &e), ELIM_KEPT);
}
END_TEST

Suite *suite_report_elim(void)
{
	Suite *s = suite_create("report_elim");
	TCase *tc = tcase_create("elim");

	tcase_add_loop_test(tc, row_states, 0,
			    (int)(sizeof(row_cases) / sizeof(row_cases[0])));
	tcase_add_test(tc, middlebox_only_path_left);
	tcase_add_test(tc, idle_decider);
	tcase_add_test(tc, ruleset_drops);
	tcase_add_test(tc, retry_and_held_rows);
	tcase_add_test(tc, retry_decides_path);
	tcase_add_test(tc, hop_rows);
	tcase_add_test(tc, path_named_by_first_side);
	tcase_add_test(tc, retry_refusal_no_loss);
	tcase_add_test(tc, path_unpinned_names_no_gateway);
	tcase_add_test(tc, path_answer_outranks_silence);
	suite_add_tcase(s, tc);
	return s;
}
