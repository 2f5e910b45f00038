/* Unit tests for the client library against a real responder forked on
 * loopback, and against hostile peers: every call ends by its deadline. */
#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "commands.h"
#include "serve/serve.h"
#include "serve/serve_int.h"
#include "serve/serve_limits.h"
#include "wire/client.h"
#include "wire/client_mesh.h"
#include "unitfix.h"

static pid_t server_pid;
static unsigned server_port;

/* A free loopback TCP port (racy, but only in this test). */
static unsigned free_port(void)
{
	struct sockaddr_in sa = {.sin_family = AF_INET};
	socklen_t sl = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	unsigned p;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, sl), 0);
	getsockname(fd, (struct sockaddr *)&sa, &sl);
	p = ntohs(sa.sin_port);
	close(fd);
	return p;
}

/* A listening socket on loopback; its port through *port. */
static int listener(unsigned *port)
{
	struct sockaddr_in sa;
	int fd = unitfix_listen(8, &sa);

	*port = ntohs(sa.sin_port);
	return fd;
}

static void start_server(const char *token_file)
{
	char pbuf[16];

	server_port = free_port();
	snprintf(pbuf, sizeof(pbuf), "%u", server_port);
	server_pid = fork();
	ck_assert_int_ge(server_pid, 0);
	if (server_pid == 0) {
		char a0[] = "serve", a1[] = "-p", a3[] = "-b",
		     a4[] = "127.0.0.1", a5[] = "-k", tf[64];
		char *argv[] = {a0, a1, pbuf, a3, a4, a5, tf, NULL};

		snprintf(tf, sizeof(tf), "%s", token_file ? token_file : "");
		if (!freopen("/dev/null", "w", stderr))
			_exit(3);
		_exit(cmd_serve(token_file ? 7 : 5, argv));
	}
	for (int i = 0; i < 100; i++) {
		struct np_client c;
		int rc =
		    client_open(&c, "127.0.0.1", server_port, 200000, NULL);

		client_close(&c);
		if (rc == 0)
			return;
		usleep(20000);
	}
	ck_abort_msg("responder did not start");
}

/* Stops the responder; it must exit 0 on SIGTERM. */
static void stop_server(void)
{
	int st;

	kill(server_pid, SIGTERM);
	ck_assert_int_eq(waitpid(server_pid, &st, 0), server_pid);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 0);
}

START_TEST(peer_spec)
{
	char h[64], err[128];
	unsigned p;

	ck_assert_int_eq(client_parse_peer("a.b:99", 7470, h, sizeof(h), &p,
	                                   err, sizeof(err)),
	                 0);
	ck_assert_str_eq(h, "a.b");
	ck_assert_uint_eq(p, 99);
	ck_assert_int_eq(client_parse_peer("10.0.0.1", 7470, h, sizeof(h), &p,
	                                   err, sizeof(err)),
	                 0);
	ck_assert_uint_eq(p, 7470);
	ck_assert_int_eq(client_parse_peer("[fe80::1]:80", 7470, h, sizeof(h),
	                                   &p, err, sizeof(err)),
	                 0);
	ck_assert_str_eq(h, "fe80::1");
	ck_assert_uint_eq(p, 80);
	ck_assert_int_eq(client_parse_peer("fe80::1", 7470, h, sizeof(h), &p,
	                                   err, sizeof(err)),
	                 0);
	ck_assert_str_eq(h, "fe80::1");
	ck_assert_int_eq(
	    client_parse_peer("h:0", 1, h, sizeof(h), &p, err, sizeof(err)),
	    -1);
	ck_assert_str_eq(err, "invalid port '0'");
	ck_assert_int_eq(
	    client_parse_peer("h:70000", 1, h, sizeof(h), &p, err, sizeof(err)),
	    -1);
	ck_assert_int_eq(
	    client_parse_peer("h:x", 1, h, sizeof(h), &p, err, sizeof(err)),
	    -1);
	ck_assert_int_eq(
	    client_parse_peer(":80", 1, h, sizeof(h), &p, err, sizeof(err)),
	    -1);
	ck_assert_int_eq(
	    client_parse_peer("[::1", 1, h, sizeof(h), &p, err, sizeof(err)),
	    -1);
}
END_TEST

START_TEST(against_responder)
{
	struct np_client c;
	char addr[64], reasons[2][CLIENT_REASON_MAX];
	unsigned port, lo, hi, lport;
	long long rtt, rtts[2];
	uint16_t ports[2], eph[4];
	bool opened[2];
	size_t ne;
	enum port_state st[2], ust;
	char reason[CLIENT_REASON_MAX];
	int lfd;

	start_server(NULL);
	ck_assert_int_eq(
	    client_open(&c, "127.0.0.1", server_port, 1000000, NULL), 0);
	ck_assert_int_eq(c.hello.proto_version, PROTO_VERSION);
	ck_assert_int_eq(c.hello.max_ports, 16);
	ck_assert_int_eq(client_reflect(&c, addr, sizeof(addr), &port), 0);
	ck_assert_str_eq(addr, "127.0.0.1");
	ck_assert_uint_eq(port, c.local_port);
	ck_assert_int_eq(client_echo_tcp(&c, "abc", 3, &rtt), 0);
	ck_assert_int_ge(rtt, 0);
	ports[0] = (uint16_t)free_port();
	ports[1] = (uint16_t)server_port; /* the responder's own port */
	ck_assert_int_eq(
	    client_listen(&c, PROTO_TCP, ports, 2, 2000000, opened), 0);
	ck_assert(opened[0] && opened[1]);
	ck_assert_int_eq(client_listen_ephemeral(&c, PROTO_UDP, 2, 2000000, eph,
	                                         &ne, &lo, &hi),
	                 0);
	ck_assert_uint_ge(ne, 1);
	ck_assert_uint_gt(hi, 0);
	ck_assert_int_eq(
	    client_udp_probe("127.0.0.1", eph[0], 1000000, &ust, reason, NULL),
	    0);
	ck_assert_int_eq(ust, PORT_OPEN);
	ck_assert_str_eq(reason, "responder");
	ck_assert_int_eq(client_udp_probe("127.0.0.1", server_port, 1000000,
	                                  &ust, reason, NULL),
	                 0);
	ck_assert_int_eq(ust, PORT_OPEN);
	/* connect-back: one port we listen on, one nobody does */
	lfd = listener(&lport);
	ports[0] = (uint16_t)lport;
	ports[1] = (uint16_t)free_port();
	ck_assert_int_eq(client_connect_back(&c, PROTO_TCP, ports, 2, 1000000,
	                                     st, reasons, rtts),
	                 0);
	ck_assert_int_eq(st[0], PORT_OPEN);
	ck_assert_str_eq(reasons[0], "syn-ack");
	ck_assert_int_eq(st[1], PORT_CLOSED);
	ck_assert_str_eq(reasons[1], "rst");
	close(lfd);
	/* limits without a token: 17 ports refused with a clear error */
	{
		uint16_t many[17];
		bool op[17];

		for (int i = 0; i < 17; i++)
			many[i] = (uint16_t)(40000 + i);
		ck_assert_int_eq(
		    client_listen(&c, PROTO_TCP, many, 17, 1000000, op), -1);
		ck_assert_int_eq(c.code, CLIENT_E_REFUSED);
		ck_assert_ptr_nonnull(strstr(c.err, "at most 16 ports"));
	}
	/* UDP connect-back is refused, the connection survives */
	ck_assert_int_eq(client_connect_back(&c, PROTO_UDP, ports, 1, 100000,
	                                     st, reasons, NULL),
	                 -1);
	ck_assert_int_eq(client_echo_tcp(&c, "x", 1, &rtt), 0);
	client_close(&c);
	stop_server();
}
END_TEST

/* Raw bytes to the responder; it must close that connection and keep
 * serving others. */
static void send_raw(const void *p, size_t n)
{
	struct sockaddr_in sa = {.sin_family = AF_INET,
	                         .sin_port = htons((uint16_t)server_port)};
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	char junk[256];
	struct timeval tv = {2, 0};

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	send(fd, p, n, MSG_NOSIGNAL);
	shutdown(fd, SHUT_WR);
	while (recv(fd, junk, sizeof(junk), 0) > 0)
		;
	close(fd);
}

/* client_set_source (netprobe mesh --bind): every connection leaves from
 * the address set, and the responder sees that one; another family's
 * peer, or NULL, leaves the choice to the kernel again. */
START_TEST(source_address)
{
	struct np_client c;
	char addr[64];
	unsigned port;

	start_server(NULL);
	ck_assert_int_eq(client_set_source("gpu1"), -1);
	ck_assert_int_eq(client_set_source("127.0.3.7"), 0);
	ck_assert_int_eq(
	    client_open(&c, "127.0.0.1", server_port, 1000000, NULL), 0);
	ck_assert_str_eq(c.local_addr, "127.0.3.7");
	ck_assert_int_eq(client_reflect(&c, addr, sizeof(addr), &port), 0);
	ck_assert_str_eq(addr, "127.0.3.7");
	client_close(&c);
	ck_assert_int_eq(client_set_source("::1"), 0);
	ck_assert_int_eq(
	    client_open(&c, "127.0.0.1", server_port, 1000000, NULL), 0);
	ck_assert_str_eq(c.local_addr, "127.0.0.1");
	client_close(&c);
	ck_assert_int_eq(client_set_source(NULL), 0);
	ck_assert_int_eq(
	    client_open(&c, "127.0.0.1", server_port, 1000000, NULL), 0);
	ck_assert_str_eq(c.local_addr, "127.0.0.1");
	client_close(&c);
	stop_server();
}
END_TEST

START_TEST(responder_survives_bad_input)
{
	struct np_client c;
	uint8_t f[64];
	long long rtt;

	start_server(NULL);
	send_raw("GET / HTTP/1.0\r\n\r\n", 18);
	proto_hdr_encode(f, PROTO_ECHO, 0, 60000); /* too large for TCP */
	send_raw(f, PROTO_HDR_LEN);
	proto_hdr_encode(f, PROTO_LISTEN, 0, 3); /* malformed listen */
	memset(f + PROTO_HDR_LEN, 0xff, 3);
	send_raw(f, PROTO_HDR_LEN + 3);
	proto_hdr_encode(f, PROTO_HELLO, 0, 40); /* truncated */
	send_raw(f, PROTO_HDR_LEN + 5);
	proto_hdr_encode(f, PROTO_REFLECT_REPLY, 0, 0); /* wrong direction */
	send_raw(f, PROTO_HDR_LEN);
	proto_hdr_encode(f, PROTO_AUTH_RESPONSE, 0, 32); /* no challenge */
	send_raw(f, PROTO_HDR_LEN + 32);
	ck_assert_int_eq(
	    client_open(&c, "127.0.0.1", server_port, 1000000, NULL), 0);
	ck_assert_int_eq(client_echo_tcp(&c, "still here", 10, &rtt), 0);
	client_close(&c);
	stop_server();
}
END_TEST

START_TEST(token_auth)
{
	char tok[] = "/tmp/np-test-tokenXXXXXX", bad[] = "/tmp/np-bad-XXXXXX";
	int fd = mkstemp(tok), fd2 = mkstemp(bad);
	struct np_client c;
	uint16_t p = 40123;
	bool op;

	ck_assert_int_eq(write(fd, "correct horse battery\n", 22), 22);
	ck_assert_int_eq(write(fd2, "wrong horse battery\n", 20), 20);
	close(fd);
	close(fd2);
	start_server(tok);
	ck_assert_int_eq(
	    client_open(&c, "127.0.0.1", server_port, 1000000, tok), 0);
	ck_assert(c.authed);
	ck_assert_int_eq(c.hello.max_ports, PROTO_MAX_PORTS);
	ck_assert(c.hello.flags & PROTO_HELLO_AUTHED);
	client_close(&c);
	ck_assert_int_eq(
	    client_open(&c, "127.0.0.1", server_port, 1000000, bad), -1);
	ck_assert_int_eq(c.code, CLIENT_E_REFUSED);
	ck_assert_uint_eq(c.err_code, PROTO_E_AUTH_FAILED);
	client_close(&c);
	/* without a token: hello and echo work, listen needs the token */
	ck_assert_int_eq(
	    client_open(&c, "127.0.0.1", server_port, 1000000, NULL), 0);
	ck_assert(c.hello.flags & PROTO_HELLO_AUTH);
	ck_assert_int_eq(client_listen(&c, PROTO_TCP, &p, 1, 1000000, &op), -1);
	ck_assert_uint_eq(c.err_code, PROTO_E_AUTH_REQUIRED);
	client_close(&c);
	stop_server();
	unlink(tok);
	unlink(bad);
}
END_TEST

START_TEST(silent_peer_bounded)
{
	struct np_client c;
	unsigned port;
	int lfd = listener(&port);
	long long t0 = mono_now_us();

	/* the kernel completes the handshake; nobody ever answers */
	ck_assert_int_eq(client_open(&c, "127.0.0.1", port, 300000, NULL), -1);
	ck_assert_int_lt(mono_now_us() - t0, 1000000);
	ck_assert_int_eq(c.code, CLIENT_E_PROTOCOL);
	ck_assert_ptr_nonnull(strstr(c.err, "sent no hello"));
	client_close(&c);
	close(lfd);
}
END_TEST

START_TEST(foreign_peer)
{
	struct np_client c;
	unsigned port;
	int lfd = listener(&port);
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fd = accept(lfd, NULL, NULL);
		char b[64];

		recv(fd, b, sizeof(b), 0);
		send(fd, "HTTP/1.1 400 Bad Request\r\n\r\n", 28, 0);
		sleep(1);
		_exit(0);
	}
	ck_assert_int_eq(client_open(&c, "127.0.0.1", port, 1000000, NULL), -1);
	ck_assert_int_eq(c.code, CLIENT_E_PROTOCOL);
	ck_assert_msg(strstr(c.err, "does not speak netprobe protocol (got "
	                            "'HTTP/1.1 400 Bad Request')"),
	              "%s", c.err);
	client_close(&c);
	close(lfd);
	waitpid(pid, NULL, 0);
}
END_TEST

START_TEST(unreachable_and_unresolvable)
{
	struct np_client c;
	enum port_state st;
	char reason[CLIENT_REASON_MAX];

	ck_assert_int_eq(
	    client_open(&c, "no-such-host.invalid", 7470, 500000, NULL), -1);
	ck_assert_int_eq(c.code, CLIENT_E_RESOLVE);
	ck_assert_ptr_nonnull(strstr(c.err, "cannot resolve"));
	client_close(&c);
	ck_assert_int_eq(
	    client_open(&c, "127.0.0.1", free_port(), 500000, NULL), -1);
	ck_assert_int_eq(c.code, CLIENT_E_CONNECT);
	client_close(&c);
	ck_assert_int_eq(client_udp_probe("127.0.0.1", free_port(), 300000, &st,
	                                  reason, NULL),
	                 0);
	ck_assert_int_eq(st, PORT_CLOSED);
	ck_assert_int_eq(client_udp_probe("no-such-host.invalid", 1, 300000,
	                                  &st, reason, NULL),
	                 0);
	ck_assert_int_eq(st, PORT_RESOLVE);
}
END_TEST

/* The MTU echo the path probe relies on: bytes received and the MTU of
 * the interface the probe came in on (lo here). */
START_TEST(udp_mtu_probe)
{
	struct sockaddr_in sa = {.sin_family = AF_INET};
	uint8_t out[1000] = {0}, in[64];
	struct proto_mtu_reply m;
	struct proto_hdr h;
	const char *why;
	struct timeval tv = {2, 0};
	int fd = socket(AF_INET, SOCK_DGRAM, 0), df = IP_PMTUDISC_DO;
	ssize_t n;
	FILE *fp;
	unsigned lo_mtu = 0;

	start_server(NULL);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sa.sin_port = htons((uint16_t)server_port);
	setsockopt(fd, IPPROTO_IP, IP_MTU_DISCOVER, &df, sizeof(df));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	ck_assert_int_eq(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	proto_hdr_encode(out, PROTO_MTU_PROBE, 0, sizeof(out) - PROTO_HDR_LEN);
	out[PROTO_HDR_LEN + 3] = 77; /* seq */
	ck_assert_int_eq(send(fd, out, sizeof(out), 0), (ssize_t)sizeof(out));
	n = recv(fd, in, sizeof(in), 0);
	ck_assert_int_eq(n, PROTO_HDR_LEN + 12);
	ck_assert_int_eq(proto_hdr_decode(in, (size_t)n, &h, &why), 0);
	ck_assert_int_eq(h.type, PROTO_MTU_REPLY);
	ck_assert_int_eq(
	    proto_mtu_reply_decode(in + PROTO_HDR_LEN, 12, &m, &why), 0);
	ck_assert_uint_eq(m.seq, 77);
	ck_assert_uint_eq(m.bytes, sizeof(out));
	fp = fopen("/sys/class/net/lo/mtu", "r");
	if (fp) {
		ck_assert_int_eq(fscanf(fp, "%u", &lo_mtu), 1);
		fclose(fp);
		ck_assert_uint_eq(m.ifmtu, lo_mtu);
	}
	/* a truncated probe gets no answer; the responder keeps going */
	send(fd, out, PROTO_HDR_LEN + 2, 0);
	proto_hdr_encode(out, PROTO_REFLECT, 0, 0);
	send(fd, out, PROTO_HDR_LEN, 0);
	n = recv(fd, in, sizeof(in), 0);
	ck_assert_int_eq(n, PROTO_HDR_LEN + 7);
	ck_assert_int_eq(in[5], PROTO_REFLECT_REPLY);
	close(fd);
	stop_server();
}
END_TEST

/* The responder as the mesh rendezvous will run it (serve.h): started,
 * polled from a loop of the caller's, freed; a port taken is an error
 * with its reason, and an idle poll ends by its max_ms. */
START_TEST(serve_embedded)
{
	struct serve_opts o;
	struct server *s, *s2;
	struct np_client c;
	char err[256];
	long long t0, rtt;
	pid_t pid;
	int st;

	serve_opts_init(&o);
	ck_assert_uint_eq(o.port, PROTO_DEFAULT_PORT);
	ck_assert_uint_eq(o.max_clients, 1024);
	o.port = free_port();
	o.bind = "127.0.0.1";
	s = serve_start(&o, err, sizeof(err));
	ck_assert_msg(s != NULL, "%s", err);
	s2 = serve_start(&o, err, sizeof(err));
	ck_assert_ptr_null(s2);
	ck_assert_msg(strstr(err, "cannot listen on tcp port"), "%s", err);
	t0 = mono_now_us();
	ck_assert_int_eq(serve_poll(s, 20, NULL), 0);
	ck_assert_int_lt(mono_now_us() - t0, 2000000);
	serve_free(s);
	serve_free(NULL);
	o.bind = "no-such-host.invalid";
	ck_assert_ptr_null(serve_start(&o, err, sizeof(err)));
	ck_assert_msg(strstr(err, "invalid bind address"), "%s", err);
	/* a child runs the loop, bounded to about 10 s; we talk to it */
	o.bind = "127.0.0.1";
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* Check's handler would pass SIGTERM on to the whole group */
		signal(SIGTERM, SIG_DFL);
		if (!freopen("/dev/null", "w", stderr))
			_exit(3);
		s = serve_start(&o, err, sizeof(err));
		if (!s)
			_exit(2);
		for (int i = 0; i < 200; i++)
			if (serve_poll(s, 50, NULL) < 0)
				_exit(2);
		serve_free(s);
		_exit(0);
	}
	for (int i = 0; i < 100; i++) {
		if (client_open(&c, "127.0.0.1", o.port, 200000, NULL) == 0)
			break;
		client_close(&c);
		usleep(20000);
	}
	ck_assert_int_ge(c.fd, 0);
	ck_assert_int_eq(client_echo_tcp(&c, "embedded", 8, &rtt), 0);
	client_close(&c);
	kill(pid, SIGTERM);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
}
END_TEST

/* A child polling a responder on loopback port, a mesh member's when
 * member (it counts refused JOINs), for about 10 s; waits until it
 * answers. Returns its pid. */
static pid_t holder_start(unsigned port, bool member)
{
	struct serve_opts o;
	struct np_client c;
	pid_t pid;

	serve_opts_init(&o);
	o.port = port;
	o.bind = "127.0.0.1";
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		atomic_uint joins = 0;
		char err[256];
		struct server *s;

		signal(SIGTERM, SIG_DFL);
		if (member)
			o.joins_refused = &joins;
		if (!freopen("/dev/null", "w", stderr) ||
		    (s = serve_start(&o, err, sizeof(err))) == NULL)
			_exit(2);
		for (int i = 0; i < 200; i++)
			if (serve_poll(s, 50, NULL) < 0)
				_exit(2);
		serve_free(s);
		_exit(0);
	}
	for (int i = 0; i < 100; i++) {
		int rc = client_open(&c, "127.0.0.1", port, 200000, NULL);

		client_close(&c);
		if (rc == 0)
			return pid;
		usleep(20000);
	}
	ck_abort_msg("responder did not start");
	return pid;
}

/* Ends a holder_start child. */
static void holder_stop(pid_t pid)
{
	int st;

	kill(pid, SIGTERM);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
}

/* Serve and the mesh name each other (issue 44): a second responder on a
 * held port fails with EADDRINUSE, and the holder is named with its pid
 * and which netprobe it is by its HELLO (a mesh member's says flag 0x8);
 * a member whose node 0 answers as serve is told so. */
START_TEST(port_holder_named)
{
	struct serve_opts o;
	struct np_client c;
	char err[256], who[128], want[64];
	unsigned port = free_port();
	pid_t pid = holder_start(port, false);

	serve_opts_init(&o);
	o.port = port;
	o.bind = "127.0.0.1";
	errno = 0;
	ck_assert_ptr_null(serve_start(&o, err, sizeof(err)));
	ck_assert_int_eq(errno, EADDRINUSE);
	ck_assert_int_eq(serve_holder_find("127.0.0.1", port, who, sizeof(who)),
	                 SERVE_HOLDER_SERVE);
	snprintf(want, sizeof(want), "netprobe serve (pid %d)", (int)pid);
	ck_assert_str_eq(who, want);
	ck_assert_int_eq(client_mesh_open(&c, "127.0.0.1", port, 2000000), -1);
	ck_assert_int_eq(c.code, CLIENT_E_PROTOCOL);
	ck_assert_msg(strstr(c.err, "answers as netprobe serve") &&
	                  strstr(c.err, "the mesh's default is 7471"),
	              "%s", c.err);
	ck_assert_uint_eq(c.hello.flags & PROTO_HELLO_MEMBER, 0);
	client_close(&c);
	holder_stop(pid);

	pid = holder_start(port, true);
	ck_assert_int_eq(serve_holder_find(NULL, port, who, sizeof(who)),
	                 SERVE_HOLDER_MESH);
	snprintf(want, sizeof(want), "netprobe mesh (pid %d)", (int)pid);
	ck_assert_str_eq(who, want);
	ck_assert_int_eq(client_mesh_open(&c, "127.0.0.1", port, 2000000), -1);
	ck_assert_msg(strstr(c.err, "answers as a netprobe mesh member"), "%s",
	              c.err);
	client_close(&c);
	holder_stop(pid);
	ck_assert_uint_ne(PROTO_MESH_DEFAULT_PORT, PROTO_DEFAULT_PORT);
}
END_TEST

/* The responder's limits: a bucket's burst then its rate; a grant per
 * token state, and heavy requests refused above their rate. */
START_TEST(serve_limits)
{
	struct bucket b = {0};
	struct server *s = calloc(1, sizeof(*s));
	struct conn *c = calloc(1, sizeof(*c));
	struct sv_grant g;
	const char *msg = NULL;
	int ok = 0, code = 0;

	ck_assert_ptr_nonnull(s);
	ck_assert_ptr_nonnull(c);
	for (int i = 0; i < 20; i++)
		ok += sv_bucket_take(&b, 5, 10, 1000000);
	ck_assert_int_eq(ok, 10);
	ck_assert(!sv_bucket_take(&b, 5, 10, 1100000));
	ck_assert(sv_bucket_take(&b, 5, 10, 1300000)); /* 0.3 s: 1.5 more */
	ck_assert(!sv_bucket_take(&b, 5, 10, 1300000));
	ck_assert_int_eq(sv_grant(s, c, &g, &msg), 0);
	ck_assert_uint_eq(g.max_ports, SERVE_OPEN_PORTS);
	ck_assert_uint_eq(g.max_life_ms, SERVE_OPEN_LIFE_MS);
	ck_assert_uint_eq(g.max_cb_ms, SERVE_OPEN_CB_MS);
	s->have_key = true;
	ck_assert_int_eq(sv_grant(s, c, &g, &msg), PROTO_E_AUTH_REQUIRED);
	ck_assert_ptr_nonnull(strstr(msg, "needs a token"));
	c->authed = true;
	ck_assert_int_eq(sv_grant(s, c, &g, &msg), 0);
	ck_assert_uint_eq(g.max_ports, PROTO_MAX_PORTS);
	ck_assert_uint_eq(g.max_cb_ms, SERVE_AUTH_CB_MS);
	for (int i = 0; i < 100 && !code; i++)
		code = sv_grant(s, c, &g, &msg);
	ck_assert_int_eq(code, PROTO_E_LIMIT);
	ck_assert_str_eq(msg, "too many requests");
	free(c);
	free(s);
}
END_TEST

Suite *suite_client(void)
{
	Suite *s = suite_create("client");
	TCase *tc = tcase_create("client");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, peer_spec);
	tcase_add_test(tc, against_responder);
	tcase_add_test(tc, responder_survives_bad_input);
	tcase_add_test(tc, token_auth);
	tcase_add_test(tc, silent_peer_bounded);
	tcase_add_test(tc, foreign_peer);
	tcase_add_test(tc, unreachable_and_unresolvable);
	tcase_add_test(tc, udp_mtu_probe);
	tcase_add_test(tc, serve_embedded);
	tcase_add_test(tc, port_holder_named);
	tcase_add_test(tc, serve_limits);
	tcase_add_test(tc, source_address);
	suite_add_tcase(s, tc);
	return s;
}
