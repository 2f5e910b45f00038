/* The retry probe (lib/probe/retryprobe.c, issue 48) on loopback: a port
 * that refuses is answered (a reset is no silence) and counted refused,
 * a listening one answered and not refused;
 * an address that does not parse is refused with EINVAL; no connect is
 * started past the deadline. Silence itself needs a namespace's drop
 * rule: tests/gen/gen.sh's mbox-drop. */
#include <check.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "probe/retryprobe.h"
#include "unitfix.h"

/* A TCP listener on 127.0.0.1 (a free port); its port into *port. */
static int listener(uint16_t *port)
{
	struct sockaddr_in a;
	int fd = unitfix_listen(16, &a);

	*port = ntohs(a.sin_port);
	return fd;
}

START_TEST(answered_both)
{
	struct retry_result r;
	uint16_t open_port, shut;
	int a = listener(&open_port), b = listener(&shut);

	close(b); /* nothing listens there now: a reset */
	ck_assert_int_eq(retry_probe("127.0.0.1", shut, open_port,
	                             mono_now_us() + 10000000LL, &r),
	                 0);
	ck_assert_int_eq(r.tries, RETRY_TRIES);
	ck_assert_int_eq(r.answered, RETRY_TRIES);
	/* the reset counted as a refusal, the listener's accepts not */
	ck_assert_int_eq(r.refused, RETRY_TRIES);
	ck_assert_int_eq(r.ctl_tries, RETRY_TRIES);
	ck_assert_int_eq(r.ctl_answered, RETRY_TRIES);
	ck_assert_uint_eq(r.port, shut);
	ck_assert_uint_eq(r.control, open_port);
	close(a);
}
END_TEST

START_TEST(bad_address_and_deadline)
{
	struct retry_result r;

	errno = 0;
	ck_assert_int_eq(
	    retry_probe("node02", 29500, 7471, mono_now_us() + 1000000LL, &r),
	    -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_nonnull(strstr(r.err, "node02"));
	/* a deadline already past: nothing tried */
	ck_assert_int_eq(retry_probe("::1", 29500, 7471, mono_now_us() - 1, &r),
	                 0);
	ck_assert_int_eq(r.tries, 0);
	ck_assert_int_eq(r.ctl_tries, 0);
}
END_TEST

Suite *suite_retryprobe(void)
{
	Suite *s = suite_create("retryprobe");
	TCase *tc = tcase_create("retry");

	tcase_add_test(tc, answered_both);
	tcase_add_test(tc, bad_address_and_deadline);
	suite_add_tcase(s, tc);
	return s;
}
