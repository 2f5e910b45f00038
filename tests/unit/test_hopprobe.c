/* The hop probe (lib/probe/hopprobe.c, issue 48). Without a network: the
 * error queue's messages built in memory (time-exceeded and prohibited,
 * IPv4 and IPv6, with their senders; a local error and no control
 * message are no ICMP answer). On loopback, either family: the peer is
 * one hop away, its open port answers at TTL 1 and a closed one resets
 * there, at the peer's own distance (no box before it). The verdict over
 * walks built in memory: a reset or silence before the peer's distance,
 * a refusal from another address, and what cannot be told. A router's
 * time-exceeded needs namespaces: tests/lab/t_hop.sh. */
#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <linux/errqueue.h>
#include <netinet/icmp6.h>
#include <netinet/in.h>
#include <netinet/ip_icmp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "probe/hopprobe.h"

/* A control buffer holding one RECVERR message: ee then the offender. */
struct errbuf {
	union {
		char buf[CMSG_SPACE(sizeof(struct sock_extended_err) +
		                    sizeof(struct sockaddr_in6))];
		struct cmsghdr align;
	} u;
	struct msghdr msg;
};

/* Builds in b one error queue message of origin, ICMP type and code,
 * from offender (a numeric address; NULL: none), as the kernel queues
 * it for a socket of family fam. */
static void build(struct errbuf *b, int fam, int origin, int type, int code,
                  const char *offender)
{
	struct cmsghdr *cm;
	struct sock_extended_err *ee;
	struct sockaddr *off;
	size_t olen = fam == AF_INET6 ? sizeof(struct sockaddr_in6)
	                              : sizeof(struct sockaddr_in);

	memset(b, 0, sizeof(*b));
	b->msg.msg_control = b->u.buf;
	b->msg.msg_controllen = CMSG_SPACE(sizeof(*ee) + olen);
	cm = CMSG_FIRSTHDR(&b->msg);
	cm->cmsg_level = fam == AF_INET6 ? SOL_IPV6 : SOL_IP;
	cm->cmsg_type = fam == AF_INET6 ? IPV6_RECVERR : IP_RECVERR;
	cm->cmsg_len = CMSG_LEN(sizeof(*ee) + olen);
	ee = (struct sock_extended_err *)CMSG_DATA(cm);
	ee->ee_errno = EHOSTUNREACH;
	ee->ee_origin = (unsigned char)origin;
	ee->ee_type = (unsigned char)type;
	ee->ee_code = (unsigned char)code;
	off = SO_EE_OFFENDER(ee);
	if (offender == NULL)
		off->sa_family = AF_UNSPEC;
	else if (fam == AF_INET6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)off;

		s6->sin6_family = AF_INET6;
		ck_assert_int_eq(inet_pton(AF_INET6, offender, &s6->sin6_addr),
		                 1);
	} else {
		struct sockaddr_in *s4 = (struct sockaddr_in *)off;

		s4->sin_family = AF_INET;
		ck_assert_int_eq(inet_pton(AF_INET, offender, &s4->sin_addr),
		                 1);
	}
}

START_TEST(parse_errqueue)
{
	struct errbuf b;
	struct hop_step st;

	build(&b, AF_INET, SO_EE_ORIGIN_ICMP, ICMP_TIME_EXCEEDED, 0,
	      "10.231.30.254");
	ck_assert_int_eq(hop_parse_errqueue(&b.msg, &st), 1);
	ck_assert_int_eq(st.answer, HOP_TIMEX);
	ck_assert_str_eq(st.from, "10.231.30.254");
	ck_assert_int_eq(st.icmp_type, ICMP_TIME_EXCEEDED);

	/* nft's "reject with icmp admin-prohibited" on a router */
	build(&b, AF_INET, SO_EE_ORIGIN_ICMP, ICMP_DEST_UNREACH,
	      ICMP_PKT_FILTERED, "10.231.31.254");
	ck_assert_int_eq(hop_parse_errqueue(&b.msg, &st), 1);
	ck_assert_int_eq(st.answer, HOP_UNREACH);
	ck_assert_str_eq(st.from, "10.231.31.254");
	ck_assert_int_eq(st.icmp_code, ICMP_PKT_FILTERED);

	build(&b, AF_INET6, SO_EE_ORIGIN_ICMP6, ICMP6_TIME_EXCEEDED, 0,
	      "fd84:30::fe");
	ck_assert_int_eq(hop_parse_errqueue(&b.msg, &st), 1);
	ck_assert_int_eq(st.answer, HOP_TIMEX);
	ck_assert_str_eq(st.from, "fd84:30::fe");

	build(&b, AF_INET6, SO_EE_ORIGIN_ICMP6, ICMP6_DST_UNREACH,
	      ICMP6_DST_UNREACH_ADMIN, "fd84:31::fe");
	ck_assert_int_eq(hop_parse_errqueue(&b.msg, &st), 1);
	ck_assert_int_eq(st.answer, HOP_UNREACH);
	ck_assert_str_eq(st.from, "fd84:31::fe");

	/* an ICMP error without a sender is still an answer */
	build(&b, AF_INET, SO_EE_ORIGIN_ICMP, ICMP_TIME_EXCEEDED, 0, NULL);
	ck_assert_int_eq(hop_parse_errqueue(&b.msg, &st), 1);
	ck_assert_str_eq(st.from, "");

	/* a local error is no hop's answer; nor is no control message */
	build(&b, AF_INET, SO_EE_ORIGIN_LOCAL, 0, 0, NULL);
	ck_assert_int_eq(hop_parse_errqueue(&b.msg, &st), 0);
	b.msg.msg_controllen = 0;
	ck_assert_int_eq(hop_parse_errqueue(&b.msg, &st), 0);
}
END_TEST

/* Step ttl of walk w: answer a from from. */
static void step(struct hop_walk *w, int ttl, enum hop_answer a,
                 const char *from)
{
	w->steps[ttl - 1].answer = a;
	snprintf(w->steps[ttl - 1].from, sizeof(w->steps[0].from), "%s", from);
	w->nsteps = ttl;
	if (a == HOP_TIMEX) {
		w->last_hop_ttl = ttl;
		snprintf(w->last_hop, sizeof(w->last_hop), "%s", from);
	} else if (a != HOP_SILENT) {
		w->answer = a;
		w->answer_ttl = ttl;
		snprintf(w->answer_from, sizeof(w->answer_from), "%s", from);
	}
}

/* Two routers between a (10.0.1.1) and the peer 10.0.2.1: the control
 * port answers at TTL 3. */
static void two_routers(struct hop_result *r)
{
	memset(r, 0, sizeof(*r));
	step(&r->control, 1, HOP_TIMEX, "10.0.1.254");
	step(&r->control, 2, HOP_TIMEX, "10.0.9.2");
	step(&r->control, 3, HOP_OPEN, "");
	step(&r->port, 1, HOP_TIMEX, "10.0.1.254");
}

START_TEST(decide_walks)
{
	struct hop_result r;

	/* a reset at TTL 2, where the second router answers for the
	 * control port: a box after hop 1, before the peer */
	two_routers(&r);
	step(&r.port, 2, HOP_RESET, "");
	hop_decide(&r, "10.0.2.1");
	ck_assert_int_eq(r.path_len, 3);
	ck_assert_int_eq(r.box_before_peer, 1);
	ck_assert_str_eq(r.hop, "10.0.1.254");

	/* a reset at the peer's own distance: the peer or the last box */
	two_routers(&r);
	step(&r.port, 2, HOP_TIMEX, "10.0.9.2");
	step(&r.port, 3, HOP_RESET, "");
	hop_decide(&r, "10.0.2.1");
	ck_assert_int_eq(r.box_before_peer, 0);
	ck_assert_str_eq(r.hop, "10.0.9.2");

	/* a refusal (ICMP prohibited) names its sender */
	two_routers(&r);
	step(&r.port, 2, HOP_TIMEX, "10.0.9.2");
	step(&r.port, 3, HOP_UNREACH, "10.0.2.254");
	hop_decide(&r, "10.0.2.1");
	ck_assert_int_eq(r.box_before_peer, 1);
	ck_assert_str_eq(r.hop, "10.0.2.254");
	/* ... the peer's own refusal is its own */
	two_routers(&r);
	step(&r.port, 2, HOP_TIMEX, "10.0.9.2");
	step(&r.port, 3, HOP_UNREACH, "10.0.2.1");
	hop_decide(&r, "10.0.2.1");
	ck_assert_int_eq(r.box_before_peer, 0);

	/* silence at TTL 2, where the second router answers for the
	 * control port: dropped after hop 1 */
	two_routers(&r);
	step(&r.port, 2, HOP_SILENT, "");
	step(&r.port, 3, HOP_SILENT, "");
	r.port.answer = HOP_SILENT;
	hop_decide(&r, "10.0.2.1");
	ck_assert_int_eq(r.box_before_peer, 1);
	ck_assert_str_eq(r.hop, "10.0.1.254");

	/* silence where the peer would answer: cannot tell */
	two_routers(&r);
	step(&r.port, 2, HOP_TIMEX, "10.0.9.2");
	step(&r.port, 3, HOP_SILENT, "");
	step(&r.port, 4, HOP_SILENT, "");
	r.port.answer = HOP_SILENT;
	hop_decide(&r, "10.0.2.1");
	ck_assert_int_eq(r.box_before_peer, -1);
	ck_assert_str_eq(r.hop, "10.0.9.2");

	/* no control walk answered: a reset cannot be placed */
	memset(&r, 0, sizeof(r));
	step(&r.port, 1, HOP_TIMEX, "10.0.1.254");
	step(&r.port, 2, HOP_RESET, "");
	hop_decide(&r, "10.0.2.1");
	ck_assert_int_eq(r.path_len, 0);
	ck_assert_int_eq(r.box_before_peer, -1);
}
END_TEST

/* A TCP listener on the loopback of family fam (a free port), its port
 * into *port; -1 when that family has no loopback here. */
static int listener(int fam, uint16_t *port)
{
	struct sockaddr_storage ss = {0};
	socklen_t l = fam == AF_INET6 ? sizeof(struct sockaddr_in6)
	                              : sizeof(struct sockaddr_in);
	int fd = socket(fam, SOCK_STREAM, 0);

	ck_assert_int_ge(fd, 0);
	ss.ss_family = (sa_family_t)fam;
	if (fam == AF_INET6)
		((struct sockaddr_in6 *)&ss)->sin6_addr = in6addr_loopback;
	else
		((struct sockaddr_in *)&ss)->sin_addr.s_addr =
		    htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&ss, l) < 0) {
		close(fd);
		return -1;
	}
	ck_assert_int_eq(listen(fd, 16), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&ss, &l), 0);
	*port = ntohs(fam == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
	                              : ((struct sockaddr_in *)&ss)->sin_port);
	return fd;
}

/* The walk on fam's loopback toward addr: a closed port resets at TTL 1,
 * where the open control port answers too. */
static void loopback(int fam, const char *addr)
{
	struct hop_result r;
	uint16_t open_port, shut;
	int a = listener(fam, &open_port), b;

	if (a < 0)
		return; /* no loopback of this family here */
	b = listener(fam, &shut);
	ck_assert_int_ge(b, 0);
	close(b); /* nothing listens there now: a reset */
	ck_assert_int_eq(
	    hop_probe(addr, shut, open_port, 4, mono_now_us() + 10000000LL, &r),
	    0);
	ck_assert_int_eq(r.control.answer, HOP_OPEN);
	ck_assert_int_eq(r.control.answer_ttl, 1);
	ck_assert_int_eq(r.port.answer, HOP_RESET);
	ck_assert_int_eq(r.port.answer_ttl, 1);
	ck_assert_int_eq(r.port.nsteps, 1);
	ck_assert_int_eq(r.path_len, 1);
	ck_assert_int_eq(r.box_before_peer, 0);
	ck_assert_str_eq(r.hop, "");
	close(a);
}

START_TEST(loopback_both_families)
{
	loopback(AF_INET, "127.0.0.1");
	loopback(AF_INET6, "::1");
}
END_TEST

START_TEST(bad_address_and_deadline)
{
	struct hop_result r;

	errno = 0;
	ck_assert_int_eq(
	    hop_probe("node02", 29500, 7471, 4, mono_now_us() + 1000000LL, &r),
	    -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_nonnull(strstr(r.err, "node02"));
	/* a deadline already past: nothing tried, nothing decided */
	ck_assert_int_eq(
	    hop_probe("::1", 29500, 7471, 4, mono_now_us() - 1, &r), 0);
	ck_assert_int_eq(r.port.nsteps, 0);
	ck_assert_int_eq(r.control.nsteps, 0);
	ck_assert_int_eq(r.box_before_peer, -1);
	ck_assert_str_eq(hop_answer_name(HOP_TIMEX), "time-exceeded");
}
END_TEST

Suite *suite_hopprobe(void)
{
	Suite *s = suite_create("hopprobe");
	TCase *tc = tcase_create("hop");

	tcase_add_test(tc, parse_errqueue);
	tcase_add_test(tc, decide_walks);
	tcase_add_test(tc, loopback_both_families);
	tcase_add_test(tc, bad_address_and_deadline);
	suite_add_tcase(s, tc);
	return s;
}
