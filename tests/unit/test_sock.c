/* Unit tests for the socket waits (base/sock.h), on loopback only: a
 * wait that sees its event, one whose deadline passes, one a signal
 * interrupts; a connect that succeeds, one to a port nobody listens on,
 * one to a listener whose backlog is full (its SYN dropped: only the
 * deadline ends it), and the same with signals arriving meanwhile. */
#include "base/sock.h"

#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "base/monoclock.h"

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/* SIGALRM every 10 ms, without SA_RESTART: each one interrupts poll. */
static void alarms_start(void)
{
	struct sigaction sa;
	struct itimerval it = {{0, 10000}, {0, 10000}};

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGALRM, &sa, NULL), 0);
	alarms = 0;
	ck_assert_int_eq(setitimer(ITIMER_REAL, &it, NULL), 0);
}

static void alarms_stop(void)
{
	struct itimerval off = {{0, 0}, {0, 0}};

	ck_assert_int_eq(setitimer(ITIMER_REAL, &off, NULL), 0);
	signal(SIGALRM, SIG_DFL);
}

/* A loopback TCP socket bound to an ephemeral port, listening with
 * backlog when backlog >= 0; its address in *sa. */
static int bound(int backlog, struct sockaddr_in *sa)
{
	socklen_t sl = sizeof(*sa);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	ck_assert_int_ge(fd, 0);
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)sa, sl), 0);
	if (backlog >= 0)
		ck_assert_int_eq(listen(fd, backlog), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)sa, &sl), 0);
	return fd;
}

static int nb_socket(void)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	ck_assert_int_ge(fd, 0);
	return fd;
}

/* sock_connect to sa within timeout_us; the socket through *fd. */
static int try_connect(const struct sockaddr_in *sa, long long timeout_us,
                       int *fd)
{
	*fd = nb_socket();
	return sock_connect(*fd, (const struct sockaddr *)sa, sizeof(*sa),
	                    mono_now_us() + timeout_us);
}

START_TEST(wait_ready)
{
	int p[2];
	int r;

	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_eq(write(p[1], "x", 1), 1);
	r = sock_wait(p[0], POLLIN, mono_now_us() + 5000000);
	ck_assert(r & POLLIN);
	/* a passed deadline still reports what is ready now */
	ck_assert(sock_wait(p[0], POLLIN, 0) & POLLIN);
	close(p[0]);
	close(p[1]);
}
END_TEST

START_TEST(wait_expires)
{
	long long t0 = mono_now_us(), dt;
	int p[2];

	ck_assert_int_eq(pipe(p), 0);
	errno = 0;
	ck_assert_int_eq(sock_wait(p[0], POLLIN, t0 + 50000), 0);
	ck_assert_int_eq(errno, ETIMEDOUT);
	dt = mono_now_us() - t0;
	ck_assert_int_ge(dt, 50000);
	ck_assert_int_lt(dt, 5000000);
	close(p[0]);
	close(p[1]);
}
END_TEST

/* Signals every 10 ms neither end the wait early nor make it fail. */
START_TEST(wait_eintr)
{
	long long t0, dt;
	int p[2], r;

	ck_assert_int_eq(pipe(p), 0);
	alarms_start();
	t0 = mono_now_us();
	r = sock_wait(p[0], POLLIN, t0 + 150000);
	dt = mono_now_us() - t0;
	alarms_stop();
	ck_assert_int_eq(r, 0);
	ck_assert_int_ge(dt, 150000);
	ck_assert_int_ge(alarms, 2);
	close(p[0]);
	close(p[1]);
}
END_TEST

START_TEST(connect_ok)
{
	struct sockaddr_in sa;
	int l = bound(8, &sa), fd, c;

	ck_assert_int_eq(try_connect(&sa, 5000000, &fd), 0);
	ck_assert_int_eq(sock_error(fd), 0);
	ck_assert(sock_connect_done(fd));
	c = accept(l, NULL, NULL);
	ck_assert_int_ge(c, 0);
	close(c);
	close(fd);
	close(l);
}
END_TEST

/* A port bound and not listening answers a SYN with a reset; kept bound,
 * so nothing else can listen there meanwhile. */
START_TEST(connect_refused)
{
	struct sockaddr_in sa;
	int b = bound(-1, &sa), fd;

	errno = 0;
	ck_assert_int_eq(try_connect(&sa, 5000000, &fd), -1);
	ck_assert_int_eq(errno, ECONNREFUSED);
	close(fd);
	close(b);
}
END_TEST

/* Backlog 0 holds one connection not yet accepted; the next SYN is
 * dropped, so that connect is still in flight at its deadline. */
static void expires(bool with_signals)
{
	struct sockaddr_in sa;
	int l = bound(0, &sa), first, fd, r;
	long long t0, dt;

	ck_assert_int_eq(try_connect(&sa, 5000000, &first), 0);
	if (with_signals)
		alarms_start();
	t0 = mono_now_us();
	errno = 0;
	r = try_connect(&sa, 200000, &fd);
	dt = mono_now_us() - t0;
	if (with_signals) {
		alarms_stop();
		ck_assert_int_ge(alarms, 2);
	}
	ck_assert_int_eq(r, SOCK_EXPIRED);
	ck_assert_int_eq(errno, ETIMEDOUT);
	ck_assert_int_ge(dt, 200000);
	ck_assert_int_lt(dt, 5000000);
	/* still connecting: neither finished nor in error */
	ck_assert(!sock_connect_done(fd));
	ck_assert_int_eq(sock_error(fd), 0);
	close(fd);
	close(first);
	close(l);
}

START_TEST(connect_expires)
{
	expires(false);
}
END_TEST

START_TEST(connect_expires_eintr)
{
	expires(true);
}
END_TEST

/* A connect left in flight, settled later by the caller (the scanners'
 * way): done once the reset came, and SO_ERROR says which. */
START_TEST(connect_start_ok)
{
	struct sockaddr_in sa;
	int l = bound(8, &sa), fd = nb_socket(), r;

	r = sock_connect_start(fd, (struct sockaddr *)&sa, sizeof(sa));
	ck_assert(r == 0 || r == 1);
	ck_assert(sock_wait(fd, POLLOUT, mono_now_us() + 5000000) & POLLOUT);
	ck_assert(sock_connect_done(fd));
	ck_assert_int_eq(sock_error(fd), 0);
	close(fd);
	close(l);
}
END_TEST

START_TEST(connect_done_refused)
{
	struct sockaddr_in sa;
	int b = bound(-1, &sa), fd = nb_socket(), r;

	r = sock_connect_start(fd, (struct sockaddr *)&sa, sizeof(sa));
	ck_assert_int_ne(r, 0);
	if (r == 1) {
		ck_assert(sock_wait(fd, POLLOUT, mono_now_us() + 5000000) > 0);
		ck_assert(sock_connect_done(fd));
		ck_assert_int_eq(sock_error(fd), ECONNREFUSED);
		/* reading SO_ERROR cleared it */
		ck_assert_int_eq(sock_error(fd), 0);
	} else {
		ck_assert_int_eq(errno, ECONNREFUSED);
	}
	ck_assert_int_eq(sock_error(-1), EBADF);
	close(fd);
	close(b);
}
END_TEST

Suite *suite_sock(void)
{
	Suite *s = suite_create("sock");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, wait_ready);
	tcase_add_test(tc, wait_expires);
	tcase_add_test(tc, wait_eintr);
	tcase_add_test(tc, connect_ok);
	tcase_add_test(tc, connect_refused);
	tcase_add_test(tc, connect_expires);
	tcase_add_test(tc, connect_expires_eintr);
	tcase_add_test(tc, connect_start_ok);
	tcase_add_test(tc, connect_done_refused);
	suite_add_tcase(s, tc);
	return s;
}
