/* Host limits (issue 48): the sysctls and counters read through a
 * sysroot, the nftables limit rules parsed from `nft -j list ruleset`,
 * and the decider on the nodes that must and must not raise
 * port-range-narrow, somaxconn-low and conn-rate-limit. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/decide_hostlim.h"
#include "kernel/hostlim.h"
#include "unitfix.h"

static const unsigned ports[] = {29400, 29500};

/* A sysroot fixture's limits, its ruleset parsed when rules is set. */
static void load(struct host_limits *l, const char *tree, const char *rules)
{
	struct sysroot sr;
	char dir[512];

	snprintf(dir, sizeof(dir), SRCDIR "/tests/fixtures/hostlim/%s", tree);
	ck_assert_int_eq(sysroot_init(&sr, dir), 0);
	hostlim_collect(&sr, l);
	if (rules != NULL) {
		char *t = unitfix_text("tests/fixtures/hostlim/%s", rules);

		ck_assert_int_eq(hostlim_parse_nft(t, l), 0);
		free(t);
	}
}

/* Runs the decider for nodes; returns how many findings of code. */
static int count(const struct host_limits *l, int nodes, const char *code,
                 struct doc *d)
{
	struct hl_need n = {nodes, ports, 2};
	size_t i;
	json_t *f;
	int c = 0;

	ck_assert_int_eq(doc_init(d, "netprobe", "scan"), 0);
	ck_assert_int_eq(decide_host_limits(l, &n, d), 0);
	json_array_foreach(d->findings, i, f)
		if (code == NULL ||
		    strcmp(json_string_value(json_object_get(f, "code")),
		           code) == 0)
			c++;
	return c;
}

START_TEST(netstat_counters)
{
	const char *t = "TcpExt: SyncookiesSent ListenOverflows ListenDrops\n"
	                "TcpExt: 3 17 19\n"
	                "IpExt: ListenOverflows\nIpExt: 99\n";
	long long v;

	ck_assert_int_eq(hostlim_netstat(t, "ListenOverflows", &v), 0);
	ck_assert_int_eq(v, 17);
	ck_assert_int_eq(hostlim_netstat(t, "ListenDrops", &v), 0);
	ck_assert_int_eq(v, 19);
	ck_assert_int_eq(hostlim_netstat(t, "Listen", &v), -1);
	ck_assert_int_eq(hostlim_netstat("IpExt: a\nIpExt: 1\n", "a", &v), -1);
}
END_TEST

START_TEST(sysroot_debian_silent)
{
	struct host_limits l;
	struct doc d;

	load(&l, "debian", "healthy.json");
	ck_assert_int_eq(l.port_lo, 32768);
	ck_assert_int_eq(l.port_hi, 60999);
	ck_assert_int_eq(l.somaxconn, 4096);
	ck_assert_int_eq(l.syncookies, 1);
	ck_assert_int_eq(l.listen_overflows, 0);
	ck_assert_int_eq(l.ct[0], 432000);
	ck_assert_int_eq(l.ct[1], -1); /* not recorded */
	/* ICMP, SSH and a generous limit on 29500 are recorded, the chain
	 * no hook reaches is not */
	ck_assert_uint_eq(l.nrules, 4);
	ck_assert_str_eq(l.rules[0].proto, "icmp");
	ck_assert_uint_eq(l.rules[2].lo[0], 22);
	/* Debian's defaults and those rules: nothing, at 2 or 16 nodes */
	ck_assert_int_eq(count(&l, 2, NULL, &d), 0);
	doc_free(&d);
	ck_assert_int_eq(count(&l, 16, NULL, &d), 0);
	doc_free(&d);
}
END_TEST

START_TEST(narrow_range)
{
	struct host_limits l;
	struct doc d;

	load(&l, "narrow", NULL);
	ck_assert_int_eq(count(&l, 4, "port-range-narrow", &d), 1);
	ck_assert_str_eq(unitfix_finding_cmd(&d, "port-range-narrow"),
	                 "sysctl -w net.ipv4.ip_local_port_range=\"32768 "
	                 "60999\"");
	doc_free(&d);
	/* 256 ports is no longer narrow, nor a deliberately narrowed
	 * range of 1,000 (t_scan_peer's 40000-40999): without a count of
	 * what the job opens, only a range no job fits is an alarm */
	l.port_lo = 40000;
	l.port_hi = 40255;
	ck_assert_int_eq(count(&l, 4, "port-range-narrow", &d), 0);
	doc_free(&d);
	l.port_hi = 40999;
	ck_assert_int_eq(count(&l, 4, "port-range-narrow", &d), 0);
	doc_free(&d);
	l.port_hi = 40254; /* 255 */
	ck_assert_int_eq(count(&l, 4, "port-range-narrow", &d), 1);
	doc_free(&d);
	l.port_lo = -1; /* unread: cannot tell, silent */
	ck_assert_int_eq(count(&l, 4, "port-range-narrow", &d), 0);
	doc_free(&d);
}
END_TEST

START_TEST(backlog_below_nodes)
{
	struct host_limits l;
	struct doc d;
	char *ev;

	load(&l, "narrow", NULL);
	ck_assert_int_eq(l.listen_overflows, 37);
	ck_assert_int_eq(l.listen_drops, 41);
	/* 4 < 5 nodes; the listener it holds down is evidence */
	l.listeners_read = true;
	l.nlisteners = 1;
	snprintf(l.listeners[0].addr, sizeof(l.listeners[0].addr), "::");
	l.listeners[0].port = 29500;
	l.listeners[0].backlog = 4;
	ck_assert_int_eq(count(&l, 5, "somaxconn-low", &d), 1);
	ev = json_dumps(json_object_get(json_array_get(d.findings, 1),
	                                "evidence"),
	                0);
	ck_assert_ptr_nonnull(strstr(ev, "listener :: port 29500: backlog 4"));
	free(ev);
	ck_assert_str_eq(unitfix_finding_cmd(&d, "somaxconn-low"),
	                 "sysctl -w net.core.somaxconn=4096");
	doc_free(&d);
	/* 4 for 2 nodes, but the counters show overflows: 4 < 2 * 8 */
	ck_assert_int_eq(count(&l, 2, "somaxconn-low", &d), 1);
	doc_free(&d);
	/* overflows counted since boot, none while the peers connected:
	 * enough for the nodes, silent */
	l.overflows_rise = l.drops_rise = 0;
	ck_assert_int_eq(count(&l, 2, "somaxconn-low", &d), 0);
	doc_free(&d);
	/* they rose during the run: raised */
	l.overflows_rise = 3;
	ck_assert_int_eq(count(&l, 2, "somaxconn-low", &d), 1);
	doc_free(&d);
	/* no overflow and enough for the nodes: silent */
	l.listen_overflows = l.listen_drops = 0;
	l.overflows_rise = l.drops_rise = -1;
	ck_assert_int_eq(count(&l, 2, "somaxconn-low", &d), 0);
	doc_free(&d);
	/* the old default, 128, on 64 nodes with no overflow: silent */
	l.somaxconn = 128;
	ck_assert_int_eq(count(&l, 64, "somaxconn-low", &d), 0);
	doc_free(&d);
}
END_TEST

START_TEST(rate_limits)
{
	struct host_limits l;
	struct doc d;
	const char *cmd;

	load(&l, "debian", "limits.json");
	ck_assert_uint_eq(l.nrules, 8);
	ck_assert_int_eq(l.rules[3].kind, HL_LIMIT);
	ck_assert(l.rules[3].new_only);
	ck_assert(l.rules[3].over);
	ck_assert_uint_eq(l.rules[3].burst, 4);
	ck_assert(l.rules[5].per_source);
	ck_assert_int_eq(l.rules[6].kind, HL_CT_COUNT);
	ck_assert_str_eq(l.rules[6].verdict, "reject");
	ck_assert_uint_eq(hostlim_rate_milli(&l.rules[2]), 50); /* 3/minute */
	/* SYN limit (6), dports 29400/29500 (8), per source (9), ct count
	 * per source (11), ct count over 100 for 4 nodes (12); never the
	 * ICMP ones (3, 4) or SSH's (5) */
	ck_assert_int_eq(count(&l, 4, "conn-rate-limit", &d), 5);
	cmd = unitfix_finding_cmd(&d, "conn-rate-limit");
	ck_assert_str_eq(cmd, "nft delete rule inet t input handle 6");
	doc_free(&d);
	/* ct count over 1000 is room enough for 4 nodes' 256 */
	l.rules[7].value = 1000;
	ck_assert_int_eq(count(&l, 4, "conn-rate-limit", &d), 4);
	doc_free(&d);
}
END_TEST

START_TEST(rule_not_understood)
{
	struct host_limits l;
	struct doc d;
	struct hl_rule *r;

	memset(&l, 0, sizeof(l));
	l.port_lo = 32768;
	l.port_hi = 60999;
	l.somaxconn = -1;
	l.nrules = 1;
	r = &l.rules[0];
	snprintf(r->family, sizeof(r->family), "inet");
	snprintf(r->table, sizeof(r->table), "t");
	snprintf(r->chain, sizeof(r->chain), "input");
	r->handle = 7;
	r->kind = HL_LIMIT;
	r->value = 1;
	snprintf(r->per, sizeof(r->per), "second");
	r->over = true;
	snprintf(r->verdict, sizeof(r->verdict), "drop");
	ck_assert_int_eq(count(&l, 4, "conn-rate-limit", &d), 1);
	doc_free(&d);
	/* a match this parser does not read: cannot tell, silent */
	r->other = true;
	ck_assert_int_eq(count(&l, 4, "conn-rate-limit", &d), 0);
	doc_free(&d);
	/* accepted under the limit: the rule drops nothing itself */
	r->other = false;
	r->over = false;
	snprintf(r->verdict, sizeof(r->verdict), "accept");
	ck_assert_int_eq(count(&l, 4, "conn-rate-limit", &d), 0);
	doc_free(&d);
	/* a limit on a port outside the job's and the ephemeral range */
	r->over = true;
	snprintf(r->verdict, sizeof(r->verdict), "drop");
	r->nranges = 1;
	r->lo[0] = r->hi[0] = 8080;
	ck_assert_int_eq(count(&l, 4, "conn-rate-limit", &d), 0);
	doc_free(&d);
	/* a range that reaches into the ephemeral range */
	r->hi[0] = 33000;
	ck_assert_int_eq(count(&l, 4, "conn-rate-limit", &d), 1);
	doc_free(&d);
}
END_TEST

START_TEST(iptables_rules)
{
	const char *t =
	    "# Generated by iptables-nft-save v1.8.9 (nf_tables)\n"
	    "*filter\n:INPUT ACCEPT [0:0]\n"
	    "-A INPUT -p tcp -m tcp --dport 22 -m conntrack --ctstate NEW "
	    "-m hashlimit --hashlimit-above 3/min --hashlimit-name ssh -j "
	    "DROP\n"
	    "-A INPUT -p tcp -m tcp --dport 29500 --tcp-flags FIN,SYN,RST,ACK "
	    "SYN -m hashlimit --hashlimit-above 2/sec --hashlimit-burst 3 "
	    "--hashlimit-mode srcip --hashlimit-name x -j DROP\n"
	    "-A INPUT -p tcp -m connlimit --connlimit-above 4 --connlimit-mask "
	    "32 --connlimit-saddr -j REJECT --reject-with "
	    "icmp-port-unreachable\n"
	    "-A INPUT -p tcp --syn -m limit --limit 5/sec -j ACCEPT\n"
	    "-A INPUT -p icmp -m hashlimit --hashlimit-above 1/sec "
	    "--hashlimit-name i -j DROP\n"
	    "COMMIT\n*nat\n-A INPUT -p tcp -m limit --limit 1/s -j DROP\n";
	struct host_limits l;
	struct doc d;

	memset(&l, 0, sizeof(l));
	l.port_lo = 32768;
	l.port_hi = 60999;
	l.somaxconn = l.listen_overflows = -1;
	/* iptables-nft: -m limit is nft's own limit, left to its JSON */
	ck_assert_uint_eq(hostlim_parse_iptables(t, "iptables-nft", true, &l),
	                  4);
	ck_assert_uint_eq(l.rules[1].handle, 2);
	ck_assert(l.rules[1].per_source);
	ck_assert(l.rules[1].new_only);
	ck_assert_str_eq(l.rules[1].per, "second");
	ck_assert_int_eq(l.rules[2].kind, HL_CT_COUNT);
	ck_assert_str_eq(l.rules[3].proto, "icmp");
	/* SSH's and ICMP's: nothing; 29500's and the connlimit's: each */
	ck_assert_int_eq(count(&l, 4, "conn-rate-limit", &d), 2);
	ck_assert_str_eq(unitfix_finding_cmd(&d, "conn-rate-limit"),
	                 "iptables-nft -D INPUT -p tcp -m tcp --dport 29500 "
	                 "--tcp-flags FIN,SYN,RST,ACK SYN -m hashlimit "
	                 "--hashlimit-above 2/sec --hashlimit-burst 3 "
	                 "--hashlimit-mode srcip --hashlimit-name x -j DROP");
	doc_free(&d);
	/* iptables-legacy: -m limit too (an accept: no finding) */
	l.nrules = 0;
	ck_assert_uint_eq(
	    hostlim_parse_iptables(t, "iptables-legacy", false, &l), 5);
}
END_TEST

START_TEST(limits_json)
{
	struct host_limits l;
	json_t *o;

	load(&l, "narrow", "limits.json");
	o = hostlim_to_json(&l);
	ck_assert_ptr_nonnull(o);
	ck_assert_int_eq(json_integer_value(json_array_get(
	                     json_object_get(o, "ip_local_port_range"), 1)),
	                 40015);
	ck_assert_int_eq(json_integer_value(json_object_get(o, "somaxconn")),
	                 4);
	ck_assert(json_is_null(json_object_get(o, "tcp_max_syn_backlog")));
	ck_assert_int_eq(json_integer_value(json_object_get(
	                     json_object_get(o, "conntrack"),
	                     "tcp_timeout_established")),
	                 300);
	ck_assert_uint_eq(json_array_size(json_object_get(o, "rules")), 8);
	/* a recorded tree: no sock_diag, the backlogs unread */
	ck_assert(json_is_null(json_object_get(o, "listeners")));
	json_decref(o);
	l.listeners_read = true;
	l.nlisteners = 1;
	snprintf(l.listeners[0].addr, sizeof(l.listeners[0].addr), "0.0.0.0");
	l.listeners[0].port = 29500;
	l.listeners[0].backlog = 4;
	o = hostlim_to_json(&l);
	ck_assert_int_eq(json_integer_value(json_object_get(
	                     json_array_get(json_object_get(o, "listeners"), 0),
	                     "backlog")),
	                 4);
	json_decref(o);
}
END_TEST

Suite *suite_hostlim(void)
{
	Suite *s = suite_create("hostlim");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, netstat_counters);
	tcase_add_test(tc, sysroot_debian_silent);
	tcase_add_test(tc, narrow_range);
	tcase_add_test(tc, backlog_below_nodes);
	tcase_add_test(tc, rate_limits);
	tcase_add_test(tc, rule_not_understood);
	tcase_add_test(tc, iptables_rules);
	tcase_add_test(tc, limits_json);
	suite_add_tcase(s, tc);
	return s;
}
