/* The /metrics endpoint's admission (metrics_http.c) on hand-made seats:
 * the per-address cap, who gives way when the table is full, and that a
 * client being answered never does; and that the server out of
 * descriptors waits instead of spinning, then serves the client queued. */
#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "metrics/metrics_http.h"

/* The key of 127.0.0.N, as the server makes it. */
static void key_of(int n, unsigned char k[16])
{
	memset(k, 0, 16);
	k[10] = k[11] = 0xff;
	k[12] = 127;
	k[15] = (unsigned char)n;
}

/* Seat i taken by 127.0.0.N, accepted at acc, reading its head or not. */
static void sit(struct metrics_seat *s, size_t i, int n, long long acc,
                bool reading)
{
	s[i].used = true;
	s[i].reading = reading;
	key_of(n, s[i].key);
	s[i].accepted_us = acc;
}

/* One address holds at most a quarter of the seats; others still get a
 * free one. */
START_TEST(per_address_cap)
{
	struct metrics_seat s[METRICS_CLIENTS] = {0};
	unsigned char a[16], b[16];
	bool evict = true;

	key_of(1, a);
	key_of(2, b);
	for (size_t i = 0; i < METRICS_ADDR_CAP; i++)
		sit(s, i, 1, 100 + (long long)i, true);
	ck_assert_int_eq(metrics_admit(s, METRICS_CLIENTS, a, &evict), -1);
	ck_assert(!evict);
	ck_assert_int_eq(metrics_admit(s, METRICS_CLIENTS, b, &evict),
	                 METRICS_ADDR_CAP);
	ck_assert(!evict);
}
END_TEST

/* A full table: the newcomer takes the seat of the oldest client still
 * reading, of the address holding most; a client being answered never
 * gives way; nor does an address holding less than two more than the
 * newcomer's. */
START_TEST(full_table_evicts)
{
	struct metrics_seat s[METRICS_CLIENTS] = {0};
	unsigned char k[16];
	bool evict = false;
	size_t i = 0;

	/* addresses 1 to 3 hold 4 each, 4 holds 3, 5 holds 1 */
	for (int a = 1; a <= 3; a++)
		for (int j = 0; j < 4; j++, i++)
			sit(s, i, a, 1000 - (long long)i, true);
	for (int j = 0; j < 3; j++, i++)
		sit(s, i, 4, 10, true);
	sit(s, i++, 5, 5, true);
	ck_assert_uint_eq(i, METRICS_CLIENTS);
	/* the oldest of the addresses holding 4 is seat 11 (address 3) */
	key_of(9, k);
	ck_assert_int_eq(metrics_admit(s, METRICS_CLIENTS, k, &evict), 11);
	ck_assert(evict);
	/* being answered: never evicted */
	s[11].reading = false;
	ck_assert_int_eq(metrics_admit(s, METRICS_CLIENTS, k, &evict), 10);
	ck_assert(evict);
	for (size_t j = 0; j < METRICS_CLIENTS; j++)
		s[j].reading = false;
	ck_assert_int_eq(metrics_admit(s, METRICS_CLIENTS, k, &evict), -1);
	ck_assert(!evict);
	for (size_t j = 0; j < METRICS_CLIENTS; j++)
		s[j].reading = true;
	/* address 4 holds 3: no one holds 5 or more, no swap */
	key_of(4, k);
	ck_assert_int_eq(metrics_admit(s, METRICS_CLIENTS, k, &evict), -1);
	ck_assert(!evict);
	/* address 5 holds 1: one holding 4 gives way */
	key_of(5, k);
	ck_assert_int_ge(metrics_admit(s, METRICS_CLIENTS, k, &evict), 0);
	ck_assert(evict);
}
END_TEST

/* Seconds of CPU this process used. */
static double cpu_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return -1;
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/* The child of emfile_waits: 0 when the server, out of descriptors with
 * a client queued, used under 0.1 s of CPU in a second and served that
 * client once descriptors were free; else which step failed. */
static int emfile_child(void)
{
	static int held[512];
	struct sockaddr_in sa = {.sin_family = AF_INET};
	struct timespec sec = {1, 0};
	struct rlimit rl = {256, 256};
	struct pollfd p;
	struct metrics_http *m;
	char err[256], got[64] = "";
	size_t n = 0;
	double cpu;
	int c;

	m = metrics_http_start("0", err, sizeof(err));
	if (m == NULL || metrics_http_publish(m, "a 1\n", 4) < 0) {
		fprintf(stderr, "%s\n", m ? "no memory" : err);
		return 2;
	}
	sa.sin_port = htons((unsigned short)metrics_http_port(m));
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c < 0 || setrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 3;
	while (n < sizeof(held) / sizeof(held[0]) &&
	       (held[n] = open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0)
		n++;
	if (n == sizeof(held) / sizeof(held[0]) || errno != EMFILE)
		return 4;
	/* the kernel completes the handshake; accept(2) gets EMFILE */
	if (connect(c, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return 5;
	cpu = cpu_s();
	nanosleep(&sec, NULL);
	cpu = cpu_s() - cpu;
	if (cpu > 0.1) {
		fprintf(stderr, "spun %.2f s of CPU in 1 s\n", cpu);
		return 1;
	}
	for (size_t i = 0; i < 8 && i < n; i++)
		close(held[--n]);
	if (send(c, "GET /metrics HTTP/1.0\r\n\r\n", 25, MSG_NOSIGNAL) != 25)
		return 6;
	p = (struct pollfd){.fd = c, .events = POLLIN};
	if (poll(&p, 1, 3000) != 1 || recv(c, got, sizeof(got) - 1, 0) <= 0 ||
	    strncmp(got, "HTTP/1.1 200", 12) != 0)
		return 7;
	close(c);
	metrics_http_stop(m);
	return 0;
}

/* Out of descriptors, accept(2) fails while the listener stays readable:
 * the server must wait, not spin, and serve the queued client after. */
START_TEST(emfile_waits)
{
	pid_t pid = fork();
	int status = -1;

	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(emfile_child());
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

Suite *suite_metrics_http(void)
{
	Suite *s = suite_create("metrics_http");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, per_address_cap);
	tcase_add_test(tc, full_table_evicts);
	tcase_add_test(tc, emfile_waits);
	tcase_set_timeout(tc, 20);
	suite_add_tcase(s, tc);
	return s;
}
