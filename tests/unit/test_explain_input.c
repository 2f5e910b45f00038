/* netprobe explain against hostile input, the whole command run in a
 * child: a RAS port that answers one byte that is not UTF-8, a log whose
 * cause holds such a byte, a log holding BEL, OSC, DCS and C1 controls,
 * and a log whose later, different failure follows thousands of repeats;
 * and the kept matches' bound on distinct signatures. */
#include <check.h>
#include <fcntl.h>
#include <jansson.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "decide/explain.h"
#include "doc/logmatch.h"
#include "unitfix.h"

#define RUN_BOUND_S 60 /* a child still running then is killed: a failure */
#define OUT_MAX (1 << 20)

/* Runs `netprobe explain ARGS` in a child, its standard output into out
 * (NUL-terminated, cut at cap). Returns its exit status, or -1 when it
 * did not exit by itself within RUN_BOUND_S. */
static int run_explain(const char *const *args, char *out, size_t cap)
{
	char path[] = "/tmp/np-explain-XXXXXX";
	int fd = mkstemp(path), st;
	ssize_t n;
	pid_t pid;

	ck_assert_int_ge(fd, 0);
	unlink(path);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char *argv[16];
		int argc = 0, nul = open("/dev/null", O_WRONLY);

		alarm(RUN_BOUND_S);
		for (; args[argc] != NULL && argc < 15; argc++)
			argv[argc] = (char *)args[argc];
		argv[argc] = NULL;
		if (dup2(fd, 1) < 0 || nul < 0 || dup2(nul, 2) < 0)
			_exit(99);
		n = cmd_explain(argc, argv);
		fflush(stdout);
		_exit((int)n);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	n = pread(fd, out, cap - 1, 0);
	close(fd);
	ck_assert_int_ge(n, 0);
	out[n] = '\0';
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A file of the given bytes; its name in path. */
static void write_log(char *path, const char *bytes, size_t n)
{
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, bytes, n), (ssize_t)n);
	close(fd);
}

/* A port that is no RAS service: to every connection (at most six, as
 * many as the client tries) it answers one byte, 0xff, then closes. */
static pid_t one_byte_service(unsigned short *port)
{
	struct sockaddr_in a;
	int lfd = unitfix_listen(8, &a);
	pid_t pid;

	*port = ntohs(a.sin_port);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		alarm(RUN_BOUND_S);
		for (int i = 0; i < 6; i++) {
			char buf[256];
			int fd = accept(lfd, NULL, NULL);

			if (fd < 0)
				_exit(1);
			(void)!read(fd, buf, sizeof(buf));
			(void)!write(fd, "\xff", 1);
			close(fd);
		}
		_exit(0);
	}
	close(lfd);
	return pid;
}

/* Ends the service child (SIGKILL: Check's SIGTERM handler, which the
 * child inherits, would take the test's whole process group with it). */
static void stop(pid_t pid)
{
	int st;

	kill(pid, SIGKILL);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
}

/* The document's causes' codes, space-separated, into buf; the document
 * must parse (valid JSON, so valid UTF-8). */
static json_t *parse_doc(const char *out, char *codes, size_t len)
{
	json_error_t e;
	json_t *d = json_loads(out, 0, &e), *c;
	size_t i;

	ck_assert_msg(d != NULL, "not JSON: %s: %.200s", e.text, out);
	codes[0] = '\0';
	json_array_foreach(json_object_get(d, "causes"), i, c)
		snprintf(codes + strlen(codes), len - strlen(codes), "%s ",
			 json_string_value(json_object_get(c, "code")));
	return d;
}

START_TEST(ras_answers_one_byte_not_utf8)
{
	static char out[OUT_MAX];
	char ras[32], codes[256];
	const char *log = SRCDIR "/tests/explain/dmesg-neigh.log";
	unsigned short port;
	pid_t sv = one_byte_service(&port);
	json_t *d;
	const char *why;

	snprintf(ras, sizeof(ras), "127.0.0.1:%u", port);
	/* the log's cause printed, the RAS port's failure said: exit 1 */
	ck_assert_int_eq(run_explain((const char *[]){"explain", "--no-probe",
			 "--ras", ras, log, NULL}, out, sizeof(out)), 1);
	ck_assert_ptr_nonnull(strstr(out, "fault neighbour-table-overflow"));
	ck_assert_ptr_nonnull(strstr(out, "not a NCCL RAS service"));
	ck_assert_int_eq(run_explain((const char *[]){"explain", "--no-probe",
			 "--json", "--ras", ras, log, NULL}, out,
			 sizeof(out)), 1);
	stop(sv);
	d = parse_doc(out, codes, sizeof(codes));
	ck_assert_str_eq(codes, "neighbour-table-overflow ");
	why = json_string_value(json_object_get(json_object_get(d, "job"),
						"why"));
	ck_assert_ptr_nonnull(why);
	ck_assert_ptr_nonnull(strstr(why, "answered '\xef\xbf\xbd'"));
	json_decref(d);
}
END_TEST

START_TEST(log_cause_not_utf8)
{
	static char out[OUT_MAX];
	static const char line[] = "RuntimeError: [enforce fail at ../third_"
		"party/gloo/gloo/transport/tcp/device.cc:83] ifa != nullptr. "
		"Unable to find address for: ^e\xfft0\n";
	char path[] = "/tmp/np-explain-log-XXXXXX", codes[256];
	const char *why;
	json_t *d;

	write_log(path, line, sizeof(line) - 1);
	ck_assert_int_eq(run_explain((const char *[]){"explain", "--no-probe",
			 path, NULL}, out, sizeof(out)), 1);
	ck_assert_ptr_nonnull(strstr(out, "fault gloo-ifname-syntax"));
	ck_assert_int_eq(run_explain((const char *[]){"explain", "--no-probe",
			 "--json", path, NULL}, out, sizeof(out)), 1);
	unlink(path);
	d = parse_doc(out, codes, sizeof(codes));
	ck_assert_str_eq(codes, "gloo-ifname-syntax ");
	why = json_string_value(json_object_get(
		json_array_get(json_object_get(d, "causes"), 0), "why"));
	ck_assert_ptr_nonnull(why);
	ck_assert_ptr_nonnull(strstr(why, "'^e\xef\xbf\xbdt0'"));
	json_decref(d);
}
END_TEST

START_TEST(log_controls_escaped)
{
	static char out[OUT_MAX];
	static const char line[] = "\x1b]0;owned\x07[12345.678901] neighbour: "
		"arp_cache: neighbor table overflow! \x1bP+q\x1b\\ \x9b" "2J "
		"\xc2\x9d" "0;t\x07 \x1b_apc\x1b\\ \x07\n";
	char path[] = "/tmp/np-explain-log-XXXXXX";

	write_log(path, line, sizeof(line) - 1);
	ck_assert_int_eq(run_explain((const char *[]){"explain", "--no-probe",
			 path, NULL}, out, sizeof(out)), 1);
	unlink(path);
	ck_assert_ptr_nonnull(strstr(out, "fault neighbour-table-overflow"));
	/* the line is shown, every control in it escaped */
	ck_assert_ptr_nonnull(strstr(out, "\\x1b]0;owned\\x07[12345.678901]"));
	for (const unsigned char *p = (const unsigned char *)out; *p; p++)
		ck_assert_msg(*p == '\n' || (*p >= 0x20 && *p != 0x7f &&
			      (*p < 0x80 || *p > 0x9f || p[-1] >= 0xc3)),
			      "control byte 0x%02x at %zu", *p,
			      (size_t)(p - (const unsigned char *)out));
	ck_assert_ptr_null(strstr(out, "\xc2\x9d"));
}
END_TEST

START_TEST(file_name_escaped)
{
	static char out[OUT_MAX];
	const char *msg;
	json_t *d, *err;
	char codes[64];

	ck_assert_int_eq(run_explain((const char *[]){"explain", "--no-probe",
			 "--json", "/nonexistent/np-\x1b]0;t\x07\xff.log",
			 NULL}, out, sizeof(out)), 2);
	d = parse_doc(out, codes, sizeof(codes));
	err = json_array_get(json_object_get(d, "errors"), 0);
	msg = json_string_value(json_object_get(err, "message"));
	ck_assert_ptr_nonnull(msg);
	ck_assert_ptr_nonnull(strstr(msg, "cannot read '/nonexistent/np-"
				     "\\x1b]0;t\\x07\xef\xbf\xbd.log'"));
	json_decref(d);
}
END_TEST

/* The neighbour table's overflow 2,100 times, then Gloo given NCCL's
 * syntax once, then the overflow 10 times more. */
static char *repeats_log(size_t *len)
{
	static const char neigh[] = "[12345.678901] neighbour: arp_cache: "
		"neighbor table overflow!\n";
	static const char gloo[] = "RuntimeError: [enforce fail at ../third_"
		"party/gloo/gloo/transport/tcp/device.cc:83] ifa != nullptr. "
		"Unable to find address for: ^eth0\n";
	size_t n = 2110 * (sizeof(neigh) - 1) + sizeof(gloo) - 1, o = 0;
	char *b = malloc(n + 1);

	ck_assert_ptr_nonnull(b);
	for (int i = 0; i < 2110; i++) {
		if (i == 2100) {
			memcpy(b + o, gloo, sizeof(gloo) - 1);
			o += sizeof(gloo) - 1;
		}
		memcpy(b + o, neigh, sizeof(neigh) - 1);
		o += sizeof(neigh) - 1;
	}
	*len = o;
	return b;
}

START_TEST(later_failure_after_repeats)
{
	static char out[OUT_MAX];
	char path[] = "/tmp/np-explain-log-XXXXXX", codes[256];
	size_t n;
	char *log = repeats_log(&n);
	json_t *d, *lg, *rep;

	write_log(path, log, n);
	free(log);
	ck_assert_int_eq(run_explain((const char *[]){"explain", "--no-probe",
			 path, NULL}, out, sizeof(out)), 1);
	ck_assert_ptr_nonnull(strstr(out, "fault gloo-ifname-syntax"));
	ck_assert_ptr_nonnull(strstr(out, "kernel-neigh-overflow: 2110 times, "
				     "62 of them repeats not listed"));
	ck_assert_int_eq(run_explain((const char *[]){"explain", "--no-probe",
			 "--json", path, NULL}, out, sizeof(out)), 1);
	unlink(path);
	d = parse_doc(out, codes, sizeof(codes));
	ck_assert_str_eq(codes, "neighbour-table-overflow gloo-ifname-syntax ");
	lg = json_object_get(d, "log");
	ck_assert_int_eq(json_integer_value(json_object_get(lg, "matched")),
			 2111);
	ck_assert_int_eq(json_integer_value(json_object_get(lg,
			 "matches_dropped")), 62);
	ck_assert_int_eq(json_array_size(json_object_get(lg, "matches")),
			 2049);
	ck_assert_int_eq(json_array_size(json_object_get(lg, "repeated")), 1);
	rep = json_array_get(json_object_get(lg, "repeated"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(rep, "signature")),
			 "kernel-neigh-overflow");
	ck_assert_int_eq(json_integer_value(json_object_get(rep, "count")),
			 2110);
	ck_assert_int_eq(json_integer_value(json_object_get(rep,
			 "not_listed")), 62);
	ck_assert_int_eq(json_integer_value(json_object_get(rep,
			 "first_line")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(rep,
			 "last_line")), 2111);
	json_decref(d);
}
END_TEST

/* Past the matches kept whole: a new signature is kept up to the bound
 * on distinct ones, then counted; a settings echo that changes back is
 * kept, so the last value the log holds still counts. */
START_TEST(distinct_bound_and_settings)
{
	static const char *const set[] = {
		"node1:1:1 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment "
		"to eth0",
		"node1:1:1 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment "
		"to ib0",
	};
	struct logmatcher m;
	struct explain_log lg;
	struct logmatch a, b, x;
	const char *bad = NULL;
	size_t start = 0;
	long line = 0;

	memset(&lg, 0, sizeof(lg));
	ck_assert_int_eq(logmatch_init(&m, &bad), 0);
	ck_assert_int_eq(logmatch_line(&m, set[0], &start, &a), 1);
	start = 0;
	ck_assert_int_eq(logmatch_line(&m, set[1], &start, &b), 1);
	for (int i = 0; i < EXPLAIN_MAX_HITS; i++)
		ck_assert_int_eq(explain_log_add(&lg, &a, 0, ++line), 0);
	/* eth0, ib0, eth0 again: the change back is no repeat to drop */
	ck_assert_int_eq(explain_log_add(&lg, &b, 0, ++line), 0);
	ck_assert_int_eq(explain_log_add(&lg, &a, 0, ++line), 0);
	ck_assert_str_eq(explain_setting(&lg, "NCCL_SOCKET_IFNAME"), "eth0");
	ck_assert_int_eq(explain_log_add(&lg, &a, 0, ++line), 0);
	ck_assert_uint_eq(lg.nhits, EXPLAIN_MAX_HITS + 2);
	ck_assert_int_eq(lg.hits[0].seen, EXPLAIN_MAX_HITS + 2);
	ck_assert_int_eq(lg.hits[0].unkept, 1);
	ck_assert_int_eq(lg.hits[0].last_line, line);
	/* new values until the bound, then only counted */
	x = b;
	for (int i = 0; i < EXPLAIN_MAX_DISTINCT; i++) {
		snprintf(x.fields[1].value, sizeof(x.fields[1].value), "v%d",
			 i);
		ck_assert_int_eq(explain_log_add(&lg, &x, 0, ++line), 0);
	}
	ck_assert_uint_eq(lg.nhits, EXPLAIN_MAX_DISTINCT);
	ck_assert_int_eq(lg.distinct_dropped, EXPLAIN_MAX_HITS + 2);
	ck_assert_int_eq(lg.matched, EXPLAIN_MAX_HITS + 3 +
			 EXPLAIN_MAX_DISTINCT);
	explain_log_free(&lg);
	logmatch_free(&m);
}
END_TEST

Suite *suite_explain_input(void)
{
	Suite *s = suite_create("explain_input");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, RUN_BOUND_S * 2);
	tcase_add_test(tc, ras_answers_one_byte_not_utf8);
	tcase_add_test(tc, log_cause_not_utf8);
	tcase_add_test(tc, log_controls_escaped);
	tcase_add_test(tc, file_name_escaped);
	tcase_add_test(tc, later_failure_after_repeats);
	tcase_add_test(tc, distinct_bound_and_settings);
	suite_add_tcase(s, tc);
	return s;
}
