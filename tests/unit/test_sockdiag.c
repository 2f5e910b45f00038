/* Unit tests for the live listener table through sock_diag
 * (kernel/sockdiag.h): a listener on 127.0.0.1 and one on every address
 * are found with their address and port, sockinfo_listeners judges them
 * as before, and the /proc/net/tcp files (copied into a recorded tree)
 * list the same two. */
#include "kernel/sockdiag.h"

#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

/* A listener on addr (IPv4, network order), port 0; returns its fd and
 * *port. */
static int listen4(uint32_t addr, uint16_t *port)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr = {addr}};
	socklen_t sl = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	ck_assert_int_eq(listen(fd, 4), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&a, &sl), 0);
	*port = ntohs(a.sin_port);
	return fd;
}

/* sockdiag_listeners' callback into a table. */
static int add(void *arg, const struct sock_listener *l)
{
	struct sock_table *t = arg;

	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		void *v = realloc(t->v, cap * sizeof(*t->v));

		if (v == NULL)
			return -1;
		t->v = v;
		t->cap = cap;
	}
	t->v[t->n++] = *l;
	return 0;
}

/* True when t holds an IPv4 listener on addr:port. */
static bool has4(const struct sock_table *t, uint32_t addr, uint16_t port)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].family == AF_INET && t->v[i].port == port &&
		    memcmp(t->v[i].addr, &addr, 4) == 0)
			return true;
	return false;
}

/* Copies the live /proc/net/tcp into dir/proc/net/tcp. */
static void copy_proc(const char *dir)
{
	char path[256], buf[65536];
	FILE *in, *out;
	size_t n;

	snprintf(path, sizeof(path), "%s/proc", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/net", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/net/tcp", dir);
	in = fopen("/proc/net/tcp", "r");
	out = fopen(path, "w");
	ck_assert_ptr_nonnull(in);
	ck_assert_ptr_nonnull(out);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		ck_assert_uint_eq(fwrite(buf, 1, n, out), n);
	fclose(in);
	fclose(out);
}

START_TEST(listeners_found)
{
	struct sock_table t = {0}, live = {0}, rec = {0};
	uint32_t lo = htonl(INADDR_LOOPBACK), any = htonl(INADDR_ANY);
	uint16_t plo, pany;
	int a = listen4(lo, &plo), b = listen4(any, &pany);
	char dir[] = "/tmp/np-sockdiag-XXXXXX";
	struct sysroot sr;

	if (sockdiag_listeners(add, &t) < 0 && errno == EPROTONOSUPPORT) {
		close(a);
		close(b);
		return; /* a kernel without inet_diag: /proc serves */
	}
	ck_assert(has4(&t, lo, plo));
	ck_assert(has4(&t, any, pany));
	ck_assert_int_eq(sysroot_init(&sr, NULL), 0);
	ck_assert_int_eq(sockinfo_listeners(&sr, &live), 0);
	ck_assert_int_eq(sockinfo_binding(&live, plo), SOCK_BIND_LOOPBACK_ONLY);
	ck_assert_int_eq(sockinfo_binding(&live, pany), SOCK_BIND_REACHABLE);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	copy_proc(dir);
	ck_assert_int_eq(sysroot_init(&sr, dir), 0);
	ck_assert_int_eq(sockinfo_listeners(&sr, &rec), 0);
	ck_assert(has4(&rec, lo, plo));
	ck_assert(has4(&rec, any, pany));
	close(a);
	close(b);
	sockinfo_free(&t);
	sockinfo_free(&live);
	sockinfo_free(&rec);
	{
		static const char *const parts[] = {"/proc/net/tcp",
		                                    "/proc/net", "/proc", ""};
		char path[300];

		for (size_t i = 0; i < 4; i++) {
			snprintf(path, sizeof(path), "%s%s", dir, parts[i]);
			ck_assert_int_eq(remove(path), 0);
		}
	}
}
END_TEST

Suite *suite_sockdiag(void)
{
	Suite *s = suite_create("sockdiag");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, listeners_found);
	suite_add_tcase(s, tc);
	return s;
}
