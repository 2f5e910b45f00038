/* Unit tests for port classification (errno and ICMP), the socket table
 * parser, the findings decider, the JSON port objects and a loopback
 * scan. */
#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "doc/doc.h"
#include "probe/portrun.h"
#include "decide/portfind.h"
#include "probe/portscan.h"
#include "probe/synretry.h"
#include "kernel/sockinfo.h"
#include "kernel/fwrules.h"
#include "fwfixture.h"
#include "base/sysroot.h"
#include "unitfix.h"

/* Classifies one outcome; checks state and reason. */
static void cls(struct conn_outcome c, enum port_state want,
		const char *reason)
{
	char buf[40];

	ck_assert_int_eq(portscan_classify(&c, buf, sizeof(buf)), want);
	ck_assert_str_eq(buf, reason);
}

START_TEST(classify_errno)
{
	cls((struct conn_outcome){0}, PORT_OPEN, "syn-ack");
	cls((struct conn_outcome){.err = ECONNREFUSED}, PORT_CLOSED, "rst");
	cls((struct conn_outcome){.timed_out = true}, PORT_FILTERED,
	    "timeout");
	cls((struct conn_outcome){.err = ETIMEDOUT}, PORT_FILTERED,
	    "timeout");
	cls((struct conn_outcome){.err = ENETUNREACH}, PORT_UNREACHABLE,
	    "no route");
	cls((struct conn_outcome){.err = EHOSTUNREACH}, PORT_UNREACHABLE,
	    "host unreachable");
	cls((struct conn_outcome){.err = EPERM}, PORT_PROHIBITED,
	    "local firewall");
}
END_TEST

/* ICMP wins over errno: code 13 and code 1 both read EHOSTUNREACH. */
START_TEST(classify_icmp)
{
	struct conn_outcome c = {.err = EHOSTUNREACH, .icmp = true,
				 .icmp_type = 3};

	c.icmp_code = 13;
	cls(c, PORT_PROHIBITED, "icmp type 3 code 13");
	c.icmp_code = 1;
	cls(c, PORT_UNREACHABLE, "icmp type 3 code 1");
	c.icmp_code = 0;
	cls(c, PORT_UNREACHABLE, "icmp type 3 code 0");
	c.icmp_code = 10;
	cls(c, PORT_PROHIBITED, "icmp type 3 code 10");
	c.icmp_code = 9;
	cls(c, PORT_PROHIBITED, "icmp type 3 code 9");
	c.icmp_code = 3;
	c.err = ECONNREFUSED;
	cls(c, PORT_CLOSED, "icmp type 3 code 3");
	c.icmp_type = 11;
	c.icmp_code = 0;
	cls(c, PORT_UNREACHABLE, "icmp type 11 code 0");
	/* an ICMP read at the deadline (a soft error) still decides */
	c = (struct conn_outcome){.timed_out = true, .icmp = true,
				  .icmp_type = 3, .icmp_code = 13};
	cls(c, PORT_PROHIBITED, "icmp type 3 code 13");
	c = (struct conn_outcome){.icmp = true, .icmp6 = true,
				  .icmp_type = 1, .icmp_code = 1};
	cls(c, PORT_PROHIBITED, "icmp6 type 1 code 1");
	c.icmp_code = 4;
	cls(c, PORT_CLOSED, "icmp6 type 1 code 4");
	c.icmp_code = 3;
	cls(c, PORT_UNREACHABLE, "icmp6 type 1 code 3");
	c.icmp_code = 0;
	cls(c, PORT_UNREACHABLE, "icmp6 type 1 code 0");
}
END_TEST

START_TEST(sock_lines)
{
	struct sock_listener l;
	const char *v4 = "   0: 0100007F:1770 00000000:0000 0A 00000000:"
			 "00000000 00:00000000 00000000     0        0 1062 1";
	const char *est = "   2: 0100007F:96A6 0100007F:1770 01 00000000:"
			  "00000000 00:00000000 00000000     0        0 0 3";

	ck_assert_int_eq(sockinfo_parse_line(v4, AF_INET, &l), 1);
	ck_assert_uint_eq(l.port, 6000);
	ck_assert_uint_eq(l.addr[0], 127);
	ck_assert_uint_eq(l.addr[3], 1);
	ck_assert(sockinfo_is_loopback(AF_INET, l.addr));
	ck_assert_int_eq(sockinfo_parse_line(est, AF_INET, &l), 0);
	ck_assert_int_eq(sockinfo_parse_line("  sl  local_address", AF_INET,
					     &l),
			 0);
	ck_assert_int_eq(sockinfo_parse_line("   5: garbage", AF_INET, &l),
			 -1);
	ck_assert_int_eq(sockinfo_parse_line("   5: 0100007F:17", AF_INET, &l),
			 -1);
	ck_assert_int_eq(sockinfo_parse_line("", AF_INET, &l), -1);
}
END_TEST

/* Half-open connections: rows recorded from a kernel holding SYN-RECV
 * requests of a peer that never answered our SYN-ACK. */
START_TEST(sock_synrecv)
{
	struct sysroot sr;
	struct sock_row r;
	const uint8_t b[4] = {10, 231, 30, 2}, far[4] = {10, 231, 30, 9};
	const uint8_t m4[4] = {10, 231, 250, 2};
	uint8_t mapped[16] = {[10] = 0xff, [11] = 0xff, 10, 231, 250, 2};
	struct in6_addr v6;
	const char *req = "   6: 011EE70A:1F40 021EE70A:9C46 03 00000000:"
			  "00000000 01:00000097 00000002     0        0 0 0 "
			  "00000000fb4304f6";

	ck_assert_int_eq(sockinfo_parse_row(req, AF_INET, &r), 1);
	ck_assert_uint_eq(r.state, 3);
	ck_assert_uint_eq(r.lport, 8000);
	ck_assert_uint_eq(r.rport, 0x9C46);
	ck_assert_uint_eq(r.retrans, 2);
	ck_assert_mem_eq(r.raddr, b, 4);
	ck_assert_int_eq(sysroot_init(&sr, SRCDIR "/tests/fixtures/ports"), 0);
	/* one answered twice, one not yet resent, one on another port */
	ck_assert_int_eq(sockinfo_synrecv(&sr, AF_INET, b, 8000, 1), 1);
	ck_assert_int_eq(sockinfo_synrecv(&sr, AF_INET, b, 8000, 0), 2);
	ck_assert_int_eq(sockinfo_synrecv(&sr, AF_INET, b, 2385, 1), 1);
	ck_assert_int_eq(sockinfo_synrecv(&sr, AF_INET, far, 8000, 0), 0);
	ck_assert_int_eq(sockinfo_synrecv(&sr, AF_INET, b, 8001, 0), 0);
	/* a dual-stack listener's IPv4 request sits in tcp6, mapped */
	ck_assert_int_eq(sockinfo_synrecv(&sr, AF_INET, m4, 8000, 1), 1);
	ck_assert_int_eq(sockinfo_synrecv(&sr, AF_INET6, mapped, 8000, 1), 1);
	ck_assert_int_eq(inet_pton(AF_INET6, "fd00:231:250::2", &v6), 1);
	ck_assert_int_eq(sockinfo_synrecv(&sr, AF_INET6, &v6, 8000, 1), 1);
	ck_assert_int_eq(sockinfo_synrecv(&sr, AF_INET6, &v6, 8000, 2), 0);
}
END_TEST

START_TEST(sock_table)
{
	struct sysroot sr;
	struct sock_table t = {0};

	ck_assert_int_eq(sysroot_init(&sr, SRCDIR "/tests/fixtures/ports"), 0);
	ck_assert_int_eq(sockinfo_listeners(&sr, &t), 0);
	ck_assert_uint_eq(t.n, 8);
	ck_assert_int_eq(sockinfo_binding(&t, 22), SOCK_BIND_REACHABLE);
	ck_assert_int_eq(sockinfo_binding(&t, 6000), SOCK_BIND_LOOPBACK_ONLY);
	ck_assert_int_eq(sockinfo_binding(&t, 8080), SOCK_BIND_REACHABLE);
	ck_assert_int_eq(sockinfo_binding(&t, 7000), SOCK_BIND_LOOPBACK_ONLY);
	ck_assert_int_eq(sockinfo_binding(&t, 7001), SOCK_BIND_LOOPBACK_ONLY);
	ck_assert_int_eq(sockinfo_binding(&t, 7002), SOCK_BIND_REACHABLE);
	ck_assert_int_eq(sockinfo_binding(&t, 38566), SOCK_BIND_NONE);
	sockinfo_free(&t);
	ck_assert_int_eq(sysroot_init(&sr, SRCDIR "/tests/fixtures"), 0);
	ck_assert_int_eq(sockinfo_listeners(&sr, &t), -1);
	sockinfo_free(&t);
}
END_TEST

/* A result as the scan would leave it. */
static struct port_result res(uint16_t port, uint8_t proto,
			      enum port_state st, const char *reason,
			      uint8_t flags)
{
	struct port_result r = {.port = port, .proto = proto, .state = st,
				.flags = flags, .rtt_us = -1};

	snprintf(r.reason, sizeof(r.reason), "%s", reason);
	return r;
}

/* The fix text of the finding with code, or "". */
static const char *fix_of(const struct doc *d, const char *code)
{
	size_t i;
	json_t *f;

	json_array_foreach(d->findings, i, f) {
		if (strcmp(json_string_value(json_object_get(f, "code")),
			   code) == 0)
			return json_string_value(json_object_get(f, "fix"));
	}
	return "";
}

START_TEST(decide_outbound)
{
	struct port_result r[] = {
		res(22, IPPROTO_TCP, PORT_OPEN, "syn-ack", 0),
		res(29500, IPPROTO_TCP, PORT_FILTERED, "timeout", 0),
		res(29501, IPPROTO_TCP, PORT_FILTERED, "timeout", 0),
		res(4789, IPPROTO_UDP, PORT_FILTERED, "timeout", 0),
		res(6379, IPPROTO_TCP, PORT_CLOSED, "rst", 0),
		res(8265, IPPROTO_TCP, PORT_PROHIBITED, "icmp type 3 code 13",
		    0),
	};
	struct ports_target t = {"hostb", "10.231.0.2", false, 0, 0, NULL,
				 NULL, false, false, NULL};
	struct doc d;

	ck_assert_int_eq(doc_init(&d, "netprobe", "ports"), 0);
	ck_assert_int_eq(ports_decide(&d, &t, r, 6, NULL, 0), 0);
	ck_assert(doc_has_finding(&d, "port-filtered"));
	ck_assert(doc_has_finding(&d, "port-closed"));
	ck_assert(doc_has_finding(&d, "port-prohibited"));
	ck_assert(!doc_has_finding(&d, "host-unreachable"));
	ck_assert(!doc_has_finding(&d, "inbound-blocked"));
	/* hostb's ruleset is not read here: no guessed table */
	ck_assert_ptr_null(strstr(fix_of(&d, "port-filtered"), "inet filter"));
	ck_assert_ptr_nonnull(strstr(
		fix_of(&d, "port-filtered"),
		"With nftables, cannot tell which table drops 29500-29501/tcp, "
		"4789/udp, because 10.231.0.2's ruleset is read only on "
		"10.231.0.2: run `nft -a list ruleset` on 10.231.0.2 as root "
		"and insert an accept before the rule that drops them (nft "
		"insert rule FAMILY TABLE CHAIN position HANDLE tcp dport { "
		"29500-29501 } accept; udp dport { 4789 } accept)"));
	ck_assert_ptr_null(strchr(fix_of(&d, "port-filtered"), '|'));
	ck_assert_ptr_nonnull(strstr(fix_of(&d, "port-filtered"),
				     "ufw allow 29500:29501/tcp; "
				     "ufw allow 4789/udp"));
	ck_assert_ptr_nonnull(strstr(
		fix_of(&d, "port-filtered"),
		"firewall-cmd --permanent --add-port=29500-29501/tcp "
		"--add-port=4789/udp && firewall-cmd --reload"));
	ck_assert_ptr_nonnull(strstr(fix_of(&d, "port-prohibited"),
				     "tcp dport { 8265 }"));
	ck_assert_int_eq(d.nfault, 3);
	ck_assert(!ports_all_open(r, 6));
	ck_assert(ports_all_open(r, 1));
	doc_free(&d);
}
END_TEST

START_TEST(decide_loopback_and_unreachable)
{
	struct port_result r[] = {
		res(6000, IPPROTO_TCP, PORT_CLOSED, "rst", 0),
		res(22, IPPROTO_TCP, PORT_UNREACHABLE, "no route", 0),
	};
	struct ports_target t = {"10.231.0.2", "10.231.0.2", false, 0, 0, NULL,
				 NULL, false, false, NULL};
	struct doc d;

	r[0].loopback_only = true;
	ck_assert_int_eq(doc_init(&d, "netprobe", "ports"), 0);
	ck_assert_int_eq(ports_decide(&d, &t, r, 2, NULL, 0), 0);
	ck_assert(doc_has_finding(&d, "listener-loopback-only"));
	ck_assert(!doc_has_finding(&d, "port-closed"));
	ck_assert(doc_has_finding(&d, "host-unreachable"));
	ck_assert_ptr_nonnull(
		strstr(fix_of(&d, "host-unreachable"), "ip route get"));
	doc_free(&d);
}
END_TEST

/* This host's ruleset (fixture owntable: a drop in table inet np23_drop
 * beside Debian's empty inet filter) as the scan's firewall object. */
static json_t *owntable(void)
{
	return fw_fixture_ruleset("owntable.json");
}

/* Connect-back failures are fixed on this host against its ruleset: the
 * table, chain and rule that drop, never `inet filter`; ports nothing
 * there drops, and a ruleset that could not be read, say they cannot
 * tell, with no guessed command. */
START_TEST(decide_inbound_ruleset)
{
	struct port_result out[] = {
		res(7470, IPPROTO_TCP, PORT_OPEN, "syn-ack", 0),
	};
	struct port_result in[] = {
		res(29500, IPPROTO_TCP, PORT_FILTERED, "timeout", 0),
		res(7000, IPPROTO_TCP, PORT_FILTERED, "timeout", 0),
	};
	json_t *rs = owntable(), *unread;
	struct ports_target t = {"hostb", "10.231.0.2", true, 0, 0, NULL,
				 NULL, false, false, rs};
	const char *fix;
	struct doc d;

	ck_assert_int_eq(doc_init(&d, "netprobe", "ports"), 0);
	ck_assert_int_eq(ports_decide(&d, &t, out, 1, in, 2), 0);
	fix = fix_of(&d, "inbound-blocked");
	ck_assert_ptr_nonnull(strstr(
		fix, "on this host open them, with nftables: `nft insert rule "
		     "inet np23_drop input position 5 tcp dport 29500 "
		     "accept`. With nftables, cannot tell which table drops "
		     "7000/tcp, because no rule or drop policy of this host's "
		     "ruleset drops them"));
	ck_assert_ptr_null(strstr(fix, "inet filter"));
	/* neither ufw nor firewalld runs here */
	ck_assert_ptr_null(strstr(fix, "ufw"));
	ck_assert_ptr_null(strstr(fix, "firewall-cmd"));
	doc_free(&d);

	unread = json_pack("{s:n, s:b, s:b, s:b, s:[]}", "backend", "ufw", 0,
			   "firewalld", 0, "truncated", 0, "blocks");
	t.ruleset = unread;
	ck_assert_int_eq(doc_init(&d, "netprobe", "ports"), 0);
	ck_assert_int_eq(ports_decide(&d, &t, out, 1, in, 2), 0);
	fix = fix_of(&d, "inbound-blocked");
	ck_assert_ptr_nonnull(strstr(
		fix, "on this host open them. With nftables, cannot tell which "
		     "table drops 7000, 29500/tcp, because the ruleset could "
		     "not be read (nft -j list ruleset needs root, and nft): "
		     "run `nft -a list ruleset` as root"));
	ck_assert_ptr_null(strstr(fix, "nft insert rule inet"));
	ck_assert_ptr_nonnull(strstr(fix, "With ufw: `ufw allow 7000/tcp; "
					  "ufw allow 29500/tcp`"));
	doc_free(&d);
	json_decref(unread);
	json_decref(rs);
}
END_TEST

/* Fixed ports pass, ephemeral samples time out: one finding for the
 * range, not port-filtered; connect-back failures: inbound-blocked. */
/* A connect-back whose SYN this host answered in vain (SYN-RECV here):
 * reply-blocked names the peer's side; inbound-blocked, whose fix would
 * open this host's firewall for nothing, is not raised for it. */
START_TEST(decide_reply_blocked)
{
	struct port_result out[] = {
		res(8000, IPPROTO_TCP, PORT_OPEN, "syn-ack", 0),
	};
	struct port_result in[] = {
		res(8000, IPPROTO_TCP, PORT_FILTERED, "syn-ack unanswered", 0),
		res(2377, IPPROTO_TCP, PORT_FILTERED, "timeout", 0),
	};
	struct ports_target t = {"hostb", "10.231.0.2", true, 32768, 60999,
				 NULL, NULL, false, false, NULL};
	struct doc d;
	const char *fix;

	in[0].synack_lost = true;
	ck_assert_int_eq(doc_init(&d, "netprobe", "ports"), 0);
	ck_assert_int_eq(ports_decide(&d, &t, out, 1, in, 1), 0);
	ck_assert(doc_has_finding(&d, "reply-blocked"));
	ck_assert(!doc_has_finding(&d, "inbound-blocked"));
	fix = fix_of(&d, "reply-blocked");
	ck_assert_ptr_nonnull(strstr(fix, "on 10.231.0.2, accept the replies"));
	ck_assert_ptr_nonnull(strstr(fix, "ephemeral range (32768-60999)"));
	ck_assert_ptr_nonnull(strstr(fix, "ct state established,related"));
	/* nothing to paste on this host: no command that opens a port */
	ck_assert_ptr_null(strstr(fix, "nft insert"));
	ck_assert_ptr_null(strstr(fix, "ufw allow"));
	doc_free(&d);

	/* beside a port this host drops: each its own finding */
	ck_assert_int_eq(doc_init(&d, "netprobe", "ports"), 0);
	ck_assert_int_eq(ports_decide(&d, &t, out, 1, in, 2), 0);
	ck_assert(doc_has_finding(&d, "reply-blocked"));
	ck_assert(doc_has_finding(&d, "inbound-blocked"));
	ck_assert_ptr_null(strstr(fix_of(&d, "inbound-blocked"), "8000"));
	ck_assert_ptr_nonnull(strstr(fix_of(&d, "inbound-blocked"), "2377"));
	doc_free(&d);
}
END_TEST

START_TEST(decide_ephemeral_inbound)
{
	uint8_t ef = PSPEC_F_SAMPLE | PSPEC_F_EPHEMERAL;
	struct port_result out[] = {
		res(29500, IPPROTO_TCP, PORT_OPEN, "syn-ack", 0),
		res(32768, IPPROTO_TCP, PORT_FILTERED, "timeout", ef),
		res(32769, IPPROTO_TCP, PORT_FILTERED, "timeout", ef),
		res(60998, IPPROTO_TCP, PORT_FILTERED, "timeout", ef),
		res(60999, IPPROTO_TCP, PORT_FILTERED, "timeout", ef),
	};
	struct port_result in[] = {
		res(29500, IPPROTO_TCP, PORT_FILTERED, "timeout", 0),
	};
	struct ports_target t = {"hostb", "10.231.0.2", true, 0, 0, NULL,
				 NULL, false, false, NULL};
	struct doc d;

	ck_assert_int_eq(doc_init(&d, "netprobe", "ports"), 0);
	ck_assert_int_eq(ports_decide(&d, &t, out, 5, in, 1), 0);
	ck_assert(doc_has_finding(&d, "ephemeral-range-blocked"));
	ck_assert(!doc_has_finding(&d, "port-filtered"));
	ck_assert(doc_has_finding(&d, "inbound-blocked"));
	ck_assert_ptr_nonnull(strstr(fix_of(&d, "ephemeral-range-blocked"),
				     "tcp dport { 32768-60999 } accept"));
	/* one sentence per firewall, never '|'-joined alternatives */
	ck_assert_ptr_null(strchr(fix_of(&d, "ephemeral-range-blocked"), '|'));
	ck_assert_ptr_nonnull(strstr(fix_of(&d, "ephemeral-range-blocked"),
				     "With ufw: `ufw allow 32768:60999/tcp`."));
	ck_assert_ptr_nonnull(
		strstr(fix_of(&d, "inbound-blocked"), "on this host"));
	doc_free(&d);

	/* the responder's range wins over the samples' ends, which move in
	 * when the range's end ports are busy (netprobe mesh holds them) */
	t.eph_lo = 32000;
	t.eph_hi = 61000;
	ck_assert_int_eq(doc_init(&d, "netprobe", "ports"), 0);
	ck_assert_int_eq(ports_decide(&d, &t, out, 5, NULL, 0), 0);
	ck_assert_ptr_nonnull(strstr(fix_of(&d, "ephemeral-range-blocked"),
				     "tcp dport { 32000-61000 } accept"));
	doc_free(&d);
	t.eph_lo = t.eph_hi = 0;

	/* nothing fixed passed (no responder): plain port-filtered */
	t.responder = false;
	ck_assert_int_eq(doc_init(&d, "netprobe", "ports"), 0);
	ck_assert_int_eq(ports_decide(&d, &t, out + 1, 4, NULL, 0), 0);
	ck_assert(!doc_has_finding(&d, "ephemeral-range-blocked"));
	ck_assert(doc_has_finding(&d, "port-filtered"));
	doc_free(&d);
}
END_TEST

START_TEST(json_port)
{
	struct port_result r = res(4789, IPPROTO_UDP, PORT_UNKNOWN,
				   "no responder", 0);
	json_t *o = portscan_json_port(&r);

	ck_assert_ptr_nonnull(o);
	ck_assert_int_eq(json_integer_value(json_object_get(o, "port")),
			 4789);
	ck_assert_str_eq(json_string_value(json_object_get(o, "proto")),
			 "udp");
	ck_assert_str_eq(json_string_value(json_object_get(o, "state")),
			 "unknown");
	ck_assert_str_eq(json_string_value(json_object_get(o, "reason")),
			 "no responder");
	ck_assert(json_is_null(json_object_get(o, "rtt_us")));
	json_decref(o);
}
END_TEST

/* A port the responder held answers "reachable (responder)", never
 * "open": nothing but the test's own listener runs there. A held port
 * that did not answer keeps its state; a service's port stays "open". */
START_TEST(json_port_held)
{
	struct port_result r = res(10002, IPPROTO_TCP, PORT_OPEN, "responder",
				   PSPEC_F_SAMPLE);
	struct port_result f = res(10003, IPPROTO_TCP, PORT_FILTERED,
				   "timeout", PSPEC_F_SAMPLE);
	struct port_result s = res(6379, IPPROTO_TCP, PORT_OPEN, "syn-ack", 0);
	json_t *o;

	r.held = f.held = true;
	ck_assert_str_eq(portscan_state_name(&r), "reachable");
	ck_assert_str_eq(portscan_state_name(&f), "filtered");
	ck_assert_str_eq(portscan_state_name(&s), "open");
	o = portscan_json_port(&r);
	ck_assert_ptr_nonnull(o);
	ck_assert_str_eq(json_string_value(json_object_get(o, "state")),
			 "reachable");
	ck_assert_str_eq(json_string_value(json_object_get(o, "reason")),
			 "responder");
	ck_assert(json_is_true(json_object_get(o, "held")));
	json_decref(o);
	o = portscan_json_port(&s);
	ck_assert_str_eq(json_string_value(json_object_get(o, "state")),
			 "open");
	ck_assert(json_is_false(json_object_get(o, "held")));
	json_decref(o);
	/* the exit status: reachable passes like open */
	ck_assert(ports_all_open(&r, 1));
}
END_TEST

/* A port of loopback just bound and freed: nothing listens there, so a
 * connection to it is refused. */
static uint16_t lo_freed_port(void)
{
	struct sockaddr_in sa = {.sin_family = AF_INET};
	socklen_t l = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&sa, &l), 0);
	close(fd);
	return ntohs(sa.sin_port);
}

/* A listener and a freed port on loopback: open and closed, quickly. */
START_TEST(scan_loopback)
{
	struct sockaddr_in sa;
	struct port_result r[3];
	struct portscan_opts o = {1000000, 4};
	int lfd;
	uint16_t open_port, closed_port;

	lfd = unitfix_listen(8, &sa);
	open_port = ntohs(sa.sin_port);
	closed_port = lo_freed_port();
	r[0] = res(open_port, IPPROTO_TCP, PORT_UNKNOWN, "", 0);
	r[1] = res(closed_port, IPPROTO_TCP, PORT_UNKNOWN, "", 0);
	r[2] = res(53, IPPROTO_UDP, PORT_UNKNOWN, "", 0);
	r[0].pending = r[1].pending = r[2].pending = true;
	ck_assert_int_eq(portscan_tcp((struct sockaddr *)&sa, sizeof(sa), r,
				      3, &o),
			 0);
	ck_assert_int_eq(r[0].state, PORT_OPEN);
	ck_assert_str_eq(r[0].reason, "syn-ack");
	ck_assert_int_ge(r[0].rtt_us, 0);
	ck_assert_int_eq(r[1].state, PORT_CLOSED);
	ck_assert_str_eq(r[1].reason, "rst");
	ck_assert(!r[0].pending && !r[1].pending);
	ck_assert(r[2].pending); /* UDP is not portscan_tcp's */
	ck_assert_int_eq(r[2].state, PORT_UNKNOWN);
	close(lfd);
	ck_assert_int_ge(portscan_fd_budget(), 1);
}
END_TEST

/* A lost SYN is retried once past the kernel's retransmission time; an
 * answer (RST, ICMP) stands; an attempt that already covered the
 * retransmission is not repeated. */
START_TEST(syn_retry)
{
	struct sockaddr_in sa;
	struct port_result r[3];
	struct portscan_opts o = {1000000, 4};
	int lfd;

	ck_assert(synretry_lost(PORT_FILTERED, "timeout"));
	ck_assert(!synretry_lost(PORT_FILTERED, "icmp type 3 code 13"));
	ck_assert(!synretry_lost(PORT_CLOSED, "rst"));
	ck_assert(!synretry_lost(PORT_OPEN, "syn-ack"));
	ck_assert_int_eq(synretry_timeout(1000000), SYNRETRY_US);
	ck_assert_int_gt(SYNRETRY_US, SYNRETRY_RTO_US);
	ck_assert_int_eq(synretry_timeout(SYNRETRY_US), 0);
	ck_assert_int_eq(synretry_timeout(2000000), 0);

	lfd = unitfix_listen(8, &sa);
	/* as the first attempt left them: the open port's SYN was lost */
	r[0] = res(ntohs(sa.sin_port), IPPROTO_TCP, PORT_FILTERED, "timeout",
	           0);
	r[1] = res(9, IPPROTO_TCP, PORT_CLOSED, "rst", 0);
	r[2] = res(9, IPPROTO_TCP, PORT_PROHIBITED, "icmp type 3 code 13", 0);
	for (int i = 0; i < 3; i++)
		r[i].attempts = 1;
	ck_assert_int_eq(synretry_tcp((struct sockaddr *)&sa, sizeof(sa), r, 3,
	                              &o),
	                 1);
	ck_assert_int_eq(r[0].state, PORT_OPEN);
	ck_assert_int_eq(r[0].attempts, 2);
	ck_assert_int_eq(r[1].state, PORT_CLOSED);
	ck_assert_int_eq(r[1].attempts, 1);
	ck_assert_int_eq(r[2].attempts, 1);

	/* a first attempt of 2 s already carried the kernel's retry */
	r[0] = res(ntohs(sa.sin_port), IPPROTO_TCP, PORT_FILTERED, "timeout",
	           0);
	r[0].attempts = 1;
	o.timeout_us = 2000000;
	ck_assert_int_eq(synretry_tcp((struct sockaddr *)&sa, sizeof(sa), r, 1,
	                              &o),
	                 0);
	ck_assert_int_eq(r[0].state, PORT_FILTERED);
	close(lfd);
}
END_TEST

/* The whole run on loopback with no responder: TCP verdicts, UDP and
 * sample ports unknown, the missing responder recorded as an error. */
START_TEST(run_no_responder)
{
	struct sockaddr_in sa;
	struct ports_run_opts o = {1000000, 8, 0, true, NULL};
	struct port_list pl;
	struct portspec_err e;
	struct ports_run r;
	struct doc d;
	char spec[64];
	int lfd;

	lfd = unitfix_listen(8, &sa);
	/* the responder's port: one just freed, so the connect is refused */
	o.resp_port = lo_freed_port();
	snprintf(spec, sizeof(spec), "%u,53/udp,ray",
		 (unsigned)ntohs(sa.sin_port));
	port_list_init(&pl);
	ck_assert_int_eq(portspec_parse(spec, &pl, &e), 0);
	ck_assert_int_eq(doc_init(&d, "netprobe", "ports"), 0);
	ck_assert_int_eq(ports_run("127.0.0.1", &pl, &o, &r, &d), 0);
	ck_assert(!r.responder);
	ck_assert(r.local_target);
	ck_assert_str_eq(r.addr, "127.0.0.1");
	ck_assert_int_eq(r.out[0].state, PORT_OPEN);
	ck_assert_int_eq(r.out[1].state, PORT_UNKNOWN);
	ck_assert_str_eq(r.out[1].reason, "no responder");
	for (size_t i = 0; i < r.nout; i++)
		if (r.out[i].flags & PSPEC_F_SAMPLE)
			ck_assert_str_eq(r.out[i].reason, "no responder");
	/* --both-ways with no responder: inbound listed, all unknown */
	ck_assert_uint_eq(r.nin, pl.n - 1);
	ck_assert_int_eq(r.in[0].state, PORT_UNKNOWN);
	ck_assert_int_eq(d.nerror, 1);
	ports_run_free(&r);
	port_list_free(&pl);
	doc_free(&d);
	close(lfd);
}
END_TEST

Suite *suite_portscan(void)
{
	Suite *s = suite_create("portscan");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, classify_errno);
	tcase_add_test(tc, classify_icmp);
	tcase_add_test(tc, sock_lines);
	tcase_add_test(tc, sock_table);
	tcase_add_test(tc, sock_synrecv);
	tcase_add_test(tc, decide_outbound);
	tcase_add_test(tc, decide_loopback_and_unreachable);
	tcase_add_test(tc, decide_ephemeral_inbound);
	tcase_add_test(tc, decide_reply_blocked);
	tcase_add_test(tc, decide_inbound_ruleset);
	tcase_add_test(tc, json_port);
	tcase_add_test(tc, json_port_held);
	tcase_add_test(tc, scan_loopback);
	tcase_add_test(tc, syn_retry);
	tcase_add_test(tc, run_no_responder);
	suite_add_tcase(s, tc);
	return s;
}
