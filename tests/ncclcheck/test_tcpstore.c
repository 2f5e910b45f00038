/* Unit tests for the torch store client against a small server here that
 * speaks torch 2's protocol (validation word, SET, CHECK, GET), and the
 * key rank 0 publishes under. */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "bootstrap/bootstrap.h"
#include "suites.h"
#include "bootstrap/tcpstore.h"

struct fake {
	int lfd;
	char key[128], val[128];
	bool set, bad_magic;
	int conns;
};

/* Reads a u64 length and that many bytes. */
static int get_bytes(int fd, char *buf, size_t max, long long dl)
{
	uint64_t l;

	if (sc_read_full(fd, &l, 8, dl) < 0 || l >= max ||
	    sc_read_full(fd, buf, l, dl) < 0)
		return -1;
	buf[l] = '\0';
	return (int)l;
}

/* Serves connections one at a time until three seconds pass. */
static void *serve(void *arg)
{
	struct fake *f = arg;
	long long end = mono_now_us() + 3000000;

	while (mono_now_us() < end && f->conns < 8) {
		int fd = accept(f->lfd, NULL, NULL);
		unsigned char q;
		uint32_t magic;

		if (fd < 0)
			continue;
		f->conns++;
		if (sc_read_full(fd, &q, 1, end) < 0 || q != 0 ||
		    sc_read_full(fd, &magic, 4, end) < 0 ||
		    magic != NC_STORE_MAGIC) {
			f->bad_magic = true;
			close(fd);
			continue;
		}
		while (sc_read_full(fd, &q, 1, end) == 0) {
			char k[128], v[128];
			uint64_t n;

			if (q == 1) { /* SET */
				if (get_bytes(fd, k, sizeof(k), end) < 0 ||
				    get_bytes(fd, v, sizeof(v), end) < 0)
					break;
				snprintf(f->key, sizeof(f->key), "%s", k);
				snprintf(f->val, sizeof(f->val), "%s", v);
				f->set = true;
			} else if (q == 5) { /* CHECK */
				unsigned char r;

				if (sc_read_full(fd, &n, 8, end) < 0 || n != 1 ||
				    get_bytes(fd, k, sizeof(k), end) < 0)
					break;
				r = f->set && strcmp(k, f->key) == 0 ? 0 : 1;
				sc_write_full(fd, &r, 1, end);
			} else if (q == 3) { /* GET */
				if (get_bytes(fd, k, sizeof(k), end) < 0)
					break;
				n = strlen(f->val);
				sc_write_full(fd, &n, 8, end);
				sc_write_full(fd, f->val, n, end);
			} else {
				break;
			}
		}
		close(fd);
	}
	return NULL;
}

START_TEST(set_then_get)
{
	struct fake f = { 0 };
	pthread_t th;
	int port = 0;
	char err[256], got[64];
	long long dl = mono_now_us() + 2000000;

	f.lfd = sc_listen("127.0.0.1", 0, &port);
	ck_assert_int_ge(f.lfd, 0);
	pthread_create(&th, NULL, serve, &f);
	/* nothing published yet: the wait ends at its deadline */
	ck_assert_int_eq(nc_store_get("127.0.0.1", port, "k", got, sizeof(got),
				      mono_now_us() + 200000, err, sizeof(err)),
			 -1);
	ck_assert_ptr_nonnull(strstr(err, "was not set in time"));
	ck_assert_int_eq(nc_store_set("127.0.0.1", port, "ncclcheck/hub/r/0",
				      "10.0.0.1 41234", 14, dl, err,
				      sizeof(err)), 0);
	ck_assert_int_eq(nc_store_get("127.0.0.1", port, "ncclcheck/hub/r/0",
				      got, sizeof(got), dl, err, sizeof(err)),
			 14);
	ck_assert_str_eq(got, "10.0.0.1 41234");
	ck_assert(!f.bad_magic);
	shutdown(f.lfd, SHUT_RDWR);
	close(f.lfd);
	pthread_join(th, NULL);
}
END_TEST

START_TEST(nobody_there)
{
	char err[256];
	int port = 0, fd = sc_listen("127.0.0.1", 0, &port);

	close(fd); /* the port is free again: refused */
	ck_assert_int_eq(nc_store_set("127.0.0.1", port, "k", "v", 1,
				      mono_now_us() + 500000, err, sizeof(err)),
			 -1);
	ck_assert_ptr_nonnull(strstr(err, "cannot reach torch's store"));
}
END_TEST

START_TEST(key)
{
	char k[128];

	nc_store_key("abc", "2", k, sizeof(k));
	ck_assert_str_eq(k, "ncclcheck/hub/abc/2");
	nc_store_key(NULL, "", k, sizeof(k));
	ck_assert_str_eq(k, "ncclcheck/hub/none/0");
}
END_TEST

Suite *suite_nc_tcpstore(void)
{
	Suite *s = suite_create("nc_tcpstore");
	TCase *tc = tcase_create("loopback");

	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, set_then_get);
	tcase_add_test(tc, nobody_there);
	tcase_add_test(tc, key);
	suite_add_tcase(s, tc);
	return s;
}
