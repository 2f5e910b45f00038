/* netprobe report: the elimination table (reports/elim.c, issue 48). Each
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

/* A pair a (10.0.1.0/24) -> b (10.0.2.0/24) whose 29500/tcp failed, with
 * no evidence either way. */
static struct elim_ev ev(void)
{
	struct elim_ev e;

	memset(&e, 0, sizeof(e));
	strcpy(e.a, "a");
	strcpy(e.b, "b");
	strcpy(e.net_a, "10.0.1.0/24");
	strcpy(e.net_b, "10.0.2.0/24");
	strcpy(e.gw_a, "10.0.1.254");
	strcpy(e.gw_b, "10.0.2.254");
	strcpy(e.port, "29500/tcp");
	return e;
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

START_TEST(firewall_rows)
{
	struct elim_ev e = ev();

	ck_assert_int_eq(state("firewall-b", &e), ELIM_OPEN);
	e.rules_b = true;
	ck_assert_int_eq(state("firewall-b", &e), ELIM_GONE);
	e.drops_b = true; /* a rule that drops wins over "read" */
	ck_assert_int_eq(state("firewall-b", &e), ELIM_KEPT);
	ck_assert_int_eq(state("firewall-a", &e), ELIM_OPEN);
	e.rules_a = true;
	ck_assert_int_eq(state("firewall-a", &e), ELIM_GONE);
}
END_TEST

START_TEST(route_nat_rows)
{
	struct elim_ev e = ev();

	ck_assert_int_eq(state("route-a", &e), ELIM_OPEN);
	ck_assert_int_eq(state("nat", &e), ELIM_OPEN);
	e.control_ok = true;
	ck_assert_int_eq(state("route-a", &e), ELIM_GONE);
	ck_assert_int_eq(state("route-b", &e), ELIM_GONE);
	ck_assert_int_eq(state("nat", &e), ELIM_GONE);
	e.route_b = true;
	ck_assert_int_eq(state("route-b", &e), ELIM_KEPT);
	e.nat = true;
	ck_assert_int_eq(state("nat", &e), ELIM_KEPT);
}
END_TEST

START_TEST(loss_mtu_conflict_listener_rows)
{
	struct elim_ev e = ev();

	ck_assert_int_eq(state("loss", &e), ELIM_OPEN);
	e.reset = true;
	ck_assert_int_eq(state("loss", &e), ELIM_GONE);
	e.lossy = true;
	ck_assert_int_eq(state("loss", &e), ELIM_KEPT);
	ck_assert_int_eq(state("mtu", &e), ELIM_GONE);
	e.port[0] = '\0';
	ck_assert_int_eq(state("mtu", &e), ELIM_OPEN);
	ck_assert_int_eq(state("conflict", &e), ELIM_GONE);
	e.conflict = true;
	ck_assert_int_eq(state("conflict", &e), ELIM_KEPT);
	ck_assert_int_eq(state("listener", &e), ELIM_OPEN);
	e.listener_ok = true;
	strcpy(e.listener_fact, "c reaches b's 29500/tcp");
	ck_assert_int_eq(state("listener", &e), ELIM_GONE);
}
END_TEST

START_TEST(path_row)
{
	struct elim_ev e = ev();

	/* across subnets without the shape: open */
	ck_assert_int_eq(state("path", &e), ELIM_OPEN);
	/* inside pairs reach the very port: kept */
	e.inside_ok = 2;
	strcpy(e.inside_fact, "c reaches b's 29500/tcp inside 10.0.2.0/24");
	ck_assert_int_eq(state("path", &e), ELIM_KEPT);
	/* the port fails inside a subnet too: gone */
	e.inside_fail = 1;
	ck_assert_int_eq(state("path", &e), ELIM_GONE);
	/* one subnet, on-link: no box between */
	e = ev();
	strcpy(e.net_b, e.net_a);
	e.gw_a[0] = e.gw_b[0] = '\0';
	e.inside_ok = 2;
	ck_assert_int_eq(state("path", &e), ELIM_GONE);
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
}
END_TEST

/* An idle connection killed across the subnets: loss, MTU, the
 * listener and each end's own tracking go by the idle facts; an end
 * whose ruleset drops something and keeps no idle connection alive
 * stays open. */
START_TEST(idle_rows)
{
	struct elim_ev e = ev();

	strcpy(e.port, "7471/tcp");
	e.idle_killed = e.control_ok = true;
	ck_assert_int_eq(state("loss", &e), ELIM_GONE);
	ck_assert_int_eq(state("mtu", &e), ELIM_GONE);
	ck_assert_int_eq(state("listener", &e), ELIM_GONE);
	/* nothing read of b: its tracking stays open */
	ck_assert_int_eq(state("conntrack-b", &e), ELIM_OPEN);
	e.rules_b = true;
	ck_assert_int_eq(state("conntrack-b", &e), ELIM_GONE);
	e.tracked_b = true;
	ck_assert_int_eq(state("conntrack-b", &e), ELIM_OPEN);
	strcpy(e.kept_b, "c's idle connection to b lived on");
	ck_assert_int_eq(state("conntrack-b", &e), ELIM_GONE);
	/* no idle failure: the tracking rows do not apply */
	e.idle_killed = false;
	ck_assert_int_eq(state("conntrack-a", &e), ELIM_NA);
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
 * responder's port passed 5 of 5, in turns, eliminates loss; any answer
 * from the failed port, a control connect lost, or too few tries leave
 * it open. b's own netprobe holding the port eliminates "nothing
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
	e.retry_answered = 1; /* the port answered once: not a rule alone */
	ck_assert_int_eq(state("loss", &e), ELIM_OPEN);
	e.retry_answered = 0;
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
 * "retry" object dropped when strip (as a netprobe without the retry
 * probe writes them). */
static void load_fixture(struct report_set *set, const char *name,
			 bool strip)
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
			if (strip)
				json_object_del(p, "retry");
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

	load_fixture(&set, "mbox-drop", false);
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
	load_fixture(&old, "mbox-drop", true);
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

Suite *suite_report_elim(void)
{
	Suite *s = suite_create("report_elim");
	TCase *tc = tcase_create("elim");

	tcase_add_test(tc, firewall_rows);
	tcase_add_test(tc, route_nat_rows);
	tcase_add_test(tc, loss_mtu_conflict_listener_rows);
	tcase_add_test(tc, path_row);
	tcase_add_test(tc, middlebox_only_path_left);
	tcase_add_test(tc, idle_rows);
	tcase_add_test(tc, idle_decider);
	tcase_add_test(tc, ruleset_drops);
	tcase_add_test(tc, retry_and_held_rows);
	tcase_add_test(tc, retry_decides_path);
	suite_add_tcase(s, tc);
	return s;
}
