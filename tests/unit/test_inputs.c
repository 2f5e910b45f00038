/* Inputs and outputs a careless user or a hostile peer hands us: the
 * terminal escaping of names, a FIFO where a file is expected (report and
 * sysroot), duplicate snapshots of one node, wrong JSON types named by
 * field, and the output file kinds (issue 22). */
#include <check.h>
#include <errno.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "base/outfile.h"
#include "base/sysroot.h"
#include "base/termsafe.h"
#include "kernel/nl.h"
#include "report.h"
#include "serve/serve.h"
#include "serve/serve_guard.h"
#include "serve/serve_int.h"
#include "wire/client.h"
#include "wire/client_conn.h"
#include "unitfix.h"

START_TEST(termsafe_escapes_controls)
{
	char out[128], in2[64];
	const char in[] = "eth\x1b]0;owned\x07 x\x1b[2J\x7f\n\tok";

	termsafe_escape(in, strlen(in), false, out, sizeof(out));
	ck_assert_str_eq(out,
			 "eth\\x1b]0;owned\\x07 x\\x1b[2J\\x7f\n\tok");
	/* a colour passes when colour is on; a cursor move does not */
	strcpy(in2, "\x1b[1;31mred\x1b[0m\x1b[2J");
	termsafe_escape(in2, strlen(in2), true, out, sizeof(out));
	ck_assert_str_eq(out, "\x1b[1;31mred\x1b[0m\\x1b[2J");
	/* an ESC at the very end is escaped, not held */
	termsafe_escape("a\x1b", 2, true, out, sizeof(out));
	ck_assert_str_eq(out, "a\\x1b");
	/* truncated like snprintf, the length still whole */
	ck_assert_uint_eq(termsafe_escape("\x01\x02", 2, false, out, 5), 8);
	ck_assert_str_eq(out, "\\x01");
}
END_TEST

START_TEST(termsafe_stream_holds_split_sequences)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len), *fp;

	ck_assert_ptr_nonnull(mem);
	fp = termsafe_open(mem, true);
	ck_assert_ptr_nonnull(fp);
	setvbuf(fp, NULL, _IONBF, 0); /* every fputs a write of its own */
	fputs("a\x1b", fp);
	fputs("[3", fp);
	fputs("1mb\x1b", fp);
	fputs("]2;t\x07", fp);
	ck_assert_int_eq(fclose(fp), 0);
	fclose(mem);
	ck_assert_str_eq(buf, "a\x1b[31mb\\x1b]2;t\\x07");
	free(buf);
}
END_TEST

/* A private directory for one test. */
static char *tmpdir(void)
{
	static char dir[64];

	snprintf(dir, sizeof(dir), "/tmp/np-unit-in-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	return dir;
}

START_TEST(sysroot_fifo_does_not_hang)
{
	char *dir = tmpdir(), p[256], buf[64];
	struct sysroot sr;
	time_t t0 = time(NULL);

	snprintf(p, sizeof(p), "%s/proc", dir);
	ck_assert_int_eq(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/proc/meminfo", dir);
	ck_assert_int_eq(mkfifo(p, 0600), 0);
	ck_assert_int_eq(sysroot_init(&sr, dir), 0);
	ck_assert_int_lt(sysroot_read(&sr, "/proc/meminfo", buf, sizeof(buf)),
			 0);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_lt(time(NULL) - t0, 3);
	ck_assert_str_eq(sysroot_odd_kind(&sr, "/proc/meminfo"), "a FIFO");
	ck_assert_ptr_null(sysroot_odd_kind(&sr, "/proc/absent"));
	unlink(p);
	/* a FIFO for proc/net/route fails the route read, named as such */
	snprintf(p, sizeof(p), "%s/proc/net", dir);
	ck_assert_int_eq(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/proc/net/route", dir);
	ck_assert_int_eq(mkfifo(p, 0600), 0);
	{
		struct route_info ri[4];
		size_t n = 9;

		ck_assert_int_lt(route_defaults(&sr, ri, 4, &n), 0);
		ck_assert_int_eq(errno, EINVAL);
		ck_assert_str_eq(sysroot_odd_kind(&sr, "/proc/net/route"),
				 "a FIFO");
	}
	unlink(p);
	snprintf(p, sizeof(p), "%s/proc/net", dir);
	rmdir(p);
	snprintf(p, sizeof(p), "%s/proc", dir);
	rmdir(p);
	rmdir(dir);
}
END_TEST

START_TEST(report_fifo_is_skipped_by_name)
{
	char *dir = tmpdir(), p[256];
	struct report_set set = {0};

	snprintf(p, sizeof(p), "%s/doc.json", dir);
	ck_assert_int_eq(mkfifo(p, 0600), 0);
	ck_assert_int_eq(report_load_path(&set, p), 0);
	ck_assert_uint_eq(set.nin, 0);
	ck_assert_uint_eq(set.nskip, 1);
	ck_assert_str_eq(set.skip[0].why, "not a regular file (a FIFO)");
	report_set_free(&set);
	/* the same FIFO met in `report DIR`: named and counted too */
	memset(&set, 0, sizeof(set));
	ck_assert_int_eq(report_load_path(&set, dir), 0);
	ck_assert_uint_eq(set.nin, 0);
	ck_assert_uint_eq(set.nskip, 1);
	ck_assert_str_eq(set.skip[0].path, p);
	ck_assert_str_eq(set.skip[0].why, "not a regular file (a FIFO)");
	report_set_free(&set);
	unlink(p);
	rmdir(dir);
}
END_TEST

#define HDR "\"schema\":\"netprobe/1\",\"tool\":\"netprobe\","

START_TEST(report_wrong_types_named)
{
	static const struct {
		const char *doc, *why;
	} cases[] = {
	    {"{" HDR "\"host\":\"a\",\"interfaces\":{}}",
	     "'interfaces' is not an array"},
	    {"{" HDR "\"host\":\"a\",\"interfaces\":[{\"name\":7}]}",
	     "'interfaces[0].name' is of another type, not a string"},
	    {"{" HDR "\"host\":\"a\",\"interfaces\":[{\"name\":\"e\"},3]}",
	     "'interfaces[1]' is not an object"},
	    {"{" HDR "\"host\":\"a\",\"interfaces\":[{\"name\":\"e\","
	     "\"addresses\":[{\"address\":1}]}]}",
	     "'interfaces[0].addresses[0]' is not an object with a string "
	     "'address'"},
	    {"{" HDR "\"host\":5}", "'host' is not a string"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct report_set set = {0};

		ck_assert_int_eq(report_load_buffer(&set, "x.json",
						    cases[i].doc,
						    strlen(cases[i].doc)),
				 0);
		ck_assert_uint_eq(set.nin, 0);
		ck_assert_uint_eq(set.nskip, 1);
		ck_assert_str_eq(set.skip[0].why, cases[i].why);
		report_set_free(&set);
	}
}
END_TEST

/* Two scans of node a (started t1 and t2) and a heartbeat of it. */
static void load_dups(struct report_set *set)
{
	static const char *const docs[] = {
	    "{" HDR "\"command\":\"scan\",\"host\":\"a\","
	    "\"started\":\"2026-01-02T00:00:00Z\"}",
	    "{" HDR "\"command\":\"heartbeat\",\"host\":\"a\"}",
	    "{" HDR "\"command\":\"scan\",\"host\":\"a\","
	    "\"started\":\"2026-01-01T00:00:00Z\"}",
	    "{" HDR "\"command\":\"heartbeat\",\"host\":\"a\"}",
	};
	static const char *const names[] = {"one", "hb1", "two", "hb2"};

	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(report_load_buffer(set, names[i], docs[i],
						    strlen(docs[i])),
				 0);
	ck_assert_uint_eq(set->nin, 4);
}

START_TEST(report_duplicates_named_and_chosen)
{
	struct report_set set = {0};
	char why[512];

	load_dups(&set);
	ck_assert_int_eq(report_dedupe(&set, REPORT_DUP_REFUSE, NULL, why,
				       sizeof(why)),
			 -1);
	ck_assert_ptr_nonnull(strstr(why, "'one' and 'two' are both the "
					  "scan of node 'a'"));
	ck_assert_ptr_nonnull(strstr(why, "--allow-duplicates"));
	ck_assert_uint_eq(set.nin, 4);
	ck_assert_int_eq(report_dedupe(&set, REPORT_DUP_LAST, NULL, why,
				       sizeof(why)),
			 0);
	ck_assert_uint_eq(set.nin, 3); /* heartbeats are per peer: kept */
	ck_assert_str_eq(set.in[0].path, "two");
	report_set_free(&set);

	load_dups(&set);
	ck_assert_int_eq(report_dedupe(&set, REPORT_DUP_NEWEST, NULL, why,
				       sizeof(why)),
			 0);
	ck_assert_str_eq(set.in[0].path, "one");
	ck_assert_uint_eq(set.nin, 3);
	report_set_free(&set);

	load_dups(&set);
	ck_assert_int_eq(report_dedupe(&set, REPORT_DUP_FIRST, NULL, why,
				       sizeof(why)),
			 0);
	ck_assert_str_eq(set.in[0].path, "one");
	report_set_free(&set);
}
END_TEST

/* Issue 31: two scans that share a hostname and no address are two
 * nodes (cloned images): not refused, the second named HOST@ADDRESS,
 * a hostname-shared warning in both. The same addresses stay one node's
 * two snapshots, refused as before. */
START_TEST(report_one_name_two_nodes)
{
	static const char *const docs[] = {
	    "{" HDR "\"command\":\"scan\",\"host\":\"gpu\",\"findings\":[],"
	    "\"interfaces\":[{\"name\":\"eth0\",\"addresses\":[{\"address\":"
	    "\"10.231.9.1\",\"family\":\"inet\",\"prefixlen\":24}]}]}",
	    "{" HDR "\"command\":\"scan\",\"host\":\"gpu\",\"findings\":[],"
	    "\"interfaces\":[{\"name\":\"eth0\",\"addresses\":[{\"address\":"
	    "\"10.231.9.2\",\"family\":\"inet\",\"prefixlen\":24}]}]}",
	};
	struct report_set set = {0};
	char why[512];

	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(report_load_buffer(&set, i ? "b" : "a",
						    docs[i], strlen(docs[i])),
				 0);
	ck_assert_int_eq(report_dedupe(&set, REPORT_DUP_REFUSE, NULL, why,
				       sizeof(why)),
			 0);
	ck_assert_uint_eq(set.nin, 2);
	ck_assert_str_eq(rj_str(set.in[1].doc, "host"), "gpu@10.231.9.2");
	ck_assert_str_eq(rj_str(json_array_get(rj_arr(set.in[0].doc,
						      "findings"),
					       0),
				"code"),
			 "hostname-shared");
	report_set_free(&set);
	/* one address but two machine ids: two machines */
	{
		static const char *const mid[] = {
		    "{" HDR "\"command\":\"scan\",\"host\":\"gpu\","
		    "\"findings\":[],\"identity\":{\"machine_id\":\"aa\"},"
		    "\"interfaces\":[{\"name\":\"eth0\",\"addresses\":[{"
		    "\"address\":\"10.231.9.1\",\"family\":\"inet\"}]}]}",
		    "{" HDR "\"command\":\"scan\",\"host\":\"gpu\","
		    "\"findings\":[],\"identity\":{\"machine_id\":\"bb\"},"
		    "\"interfaces\":[{\"name\":\"eth0\",\"addresses\":[{"
		    "\"address\":\"10.231.9.1\",\"family\":\"inet\"}]}]}",
		};

		for (int i = 0; i < 2; i++)
			ck_assert_int_eq(report_load_buffer(&set, i ? "b" : "a",
							    mid[i],
							    strlen(mid[i])),
					 0);
		ck_assert_int_eq(report_dedupe(&set, REPORT_DUP_REFUSE, NULL,
					       why, sizeof(why)),
				 0);
		ck_assert_uint_eq(set.nin, 2);
		report_set_free(&set);
	}
	/* one address: one node scanned twice, refused */
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(report_load_buffer(&set, i ? "b" : "a",
						    docs[0], strlen(docs[0])),
				 0);
	ck_assert_int_eq(report_dedupe(&set, REPORT_DUP_REFUSE, NULL, why,
				       sizeof(why)),
			 -1);
	report_set_free(&set);
}
END_TEST

/* capture -w drops root before it closes: its file is written in place,
 * new or old, so no rename in a directory root owns is needed. */
START_TEST(outfile_in_place)
{
	char *dir = tmpdir(), p[256];
	struct outfile_opts oo = {.in_place = true};
	struct outfile o;
	struct stat st, st2;

	snprintf(p, sizeof(p), "%s/cap.pcap", dir);
	ck_assert_int_eq(outfile_open(&o, p, &oo), 0);
	ck_assert(o.created);
	ck_assert_str_eq(o.tmp, "");
	ck_assert_int_eq(stat(p, &st), 0); /* there already, before close */
	fputs("one\n", o.fp);
	ck_assert_int_eq(outfile_close(&o), 0);
	ck_assert_int_eq(outfile_open(&o, p, &oo), 0);
	ck_assert_str_eq(o.tmp, "");
	fputs("two\n", o.fp);
	ck_assert_int_eq(outfile_close(&o), 0);
	ck_assert_int_eq(stat(p, &st2), 0);
	ck_assert_uint_eq(st.st_ino, st2.st_ino); /* the same file */
	ck_assert_int_eq(st2.st_size, 4);
	oo.no_clobber = true;
	ck_assert_int_eq(outfile_open(&o, p, &oo), -1);
	ck_assert_int_eq(errno, EEXIST);
	unlink(p);
	rmdir(dir);
}
END_TEST

START_TEST(outfile_kinds)
{
	char *dir = tmpdir(), p[256], q[256];
	const char *in[1];
	struct outfile_opts oo = {0};
	struct outfile o;
	struct stat st, st2;
	FILE *fp;

	/* a mode 600 file keeps its mode and is replaced (a new inode) */
	snprintf(p, sizeof(p), "%s/secret", dir);
	fp = fopen(p, "w");
	fputs("old\n", fp);
	fclose(fp);
	chmod(p, 0600);
	stat(p, &st);
	ck_assert_int_eq(outfile_open(&o, p, NULL), 0);
	fputs("new\n", o.fp);
	ck_assert_int_eq(outfile_close(&o), 0);
	stat(p, &st2);
	ck_assert_uint_eq(st2.st_mode & 07777, 0600);
	ck_assert_uint_ne(st.st_ino, st2.st_ino);
	/* a hard link is written in place: both names stay one file */
	snprintf(q, sizeof(q), "%s/link", dir);
	ck_assert_int_eq(link(p, q), 0);
	ck_assert_int_eq(outfile_open(&o, q, NULL), 0);
	fputs("both\n", o.fp);
	ck_assert_int_eq(outfile_close(&o), 0);
	stat(p, &st);
	stat(q, &st2);
	ck_assert_uint_eq(st.st_ino, st2.st_ino);
	/* no clobber, and an input never an output */
	oo.no_clobber = true;
	ck_assert_int_eq(outfile_open(&o, p, &oo), -1);
	ck_assert_int_eq(errno, EEXIST);
	ck_assert_ptr_nonnull(strstr(o.why, "--no-clobber"));
	in[0] = q;
	oo.no_clobber = false;
	oo.inputs = in;
	oo.ninputs = 1;
	ck_assert_int_eq(outfile_open(&o, p, &oo), -1);
	ck_assert_ptr_nonnull(strstr(o.why, "it is also an input"));
	unlink(q);
	/* a failed write leaves the old file and no temporary one (a file
	 * of one link: the others are written in place) */
	ck_assert_int_eq(outfile_open(&o, p, NULL), 0);
	fputs("half", o.fp);
	outfile_abort(&o);
	fp = fopen(p, "r");
	ck_assert_ptr_nonnull(fgets(q, sizeof(q), fp));
	fclose(fp);
	ck_assert_str_eq(q, "both\n");
	unlink(p);
	ck_assert_int_eq(rmdir(dir), 0); /* nothing else left behind */
}
END_TEST

/* A stopped node 0: the member's wait is what it says it waited, not the
 * per-call timeout (it said "within 2s" after 95 s). */
START_TEST(wait_reports_the_real_wait)
{
	struct sockaddr_in sa;
	int lfd = unitfix_listen(4, &sa);
	struct np_client c;
	size_t len;

	ck_assert_int_eq(client_connect(&c, "127.0.0.1", ntohs(sa.sin_port),
					100000),
			 0);
	ck_assert_int_eq(client_recv_frame(&c, &len,
					   mono_now_us() + 700000),
			 -1);
	ck_assert_int_eq(c.code, CLIENT_E_TIMEOUT);
	ck_assert_msg(strstr(c.err, "within 0.7") != NULL, "%s", c.err);
	client_close(&c);
	close(lfd);
}
END_TEST

/* One address from "10.231.0.N". */
static void addr_of(int n, struct sockaddr_storage *ss)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(0x0ae70000u | (uint32_t)n);
	sin->sin_port = htons(40000);
}

/* Admits and adopts one client from address n. Returns sv_admit's. */
static int admit(struct server *s, int n, const char **why)
{
	struct sockaddr_storage ss;
	int sv[2];

	addr_of(n, &ss);
	if (sv_admit(s, &ss, why) < 0)
		return -1;
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0,
				    sv),
			 0);
	close(sv[1]);
	ck_assert_int_eq(sv_adopt(s, sv[0], &ss, sizeof(struct sockaddr_in)),
			 0);
	return 0;
}

/* One address never holds more than its share; a full table makes room
 * by evicting a silent unauthenticated client; the deadlines fire. */
START_TEST(serve_guard_caps_and_deadlines)
{
	struct serve_opts o;
	struct server *s;
	const char *why;
	char err[256];
	long long next, now = mono_now_us();
	struct conn c = {0};

	serve_opts_init(&o);
	o.port = 0;
	o.bind = "127.0.0.1";
	o.max_clients = 16;
	s = serve_start(&o, err, sizeof(err));
	ck_assert_msg(s != NULL, "%s", err);
	ck_assert_uint_eq(sv_addr_cap(s), 4);
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(admit(s, 1, &why), 0);
	ck_assert_int_eq(admit(s, 1, &why), -1);
	ck_assert_str_eq(why, "too many connections from this address");
	for (int i = 0; i < 12; i++)
		ck_assert_int_eq(admit(s, 2 + i / 4, &why), 0);
	ck_assert_uint_eq(s->nconns, 16);
	/* full: a new address gets the place of a silent one */
	ck_assert_int_eq(admit(s, 9, &why), 0);
	ck_assert_uint_eq(s->nconns, 16);
	/* full of clients being served: a newcomer is refused, nobody
	 * goes */
	for (unsigned i = 0; i < 16; i++) {
		s->conns[i]->frames = s->conns[i]->requests = 3;
		s->conns[i]->frame_us = mono_now_us();
	}
	ck_assert_int_eq(admit(s, 10, &why), -1);
	ck_assert_str_eq(why, "too many clients: the table is full");
	ck_assert_uint_eq(s->nconns, 16);
	serve_free(s);

	/* the deadlines of one connection */
	c.accepted_us = c.last_us = now - 6000000;
	next = now + 1000000;
	ck_assert_ptr_nonnull(sv_conn_due(&c, now, &next));
	c.frames = 1;
	c.last_us = now;
	c.partial_since_us = now - 6000000; /* a byte a second for 6 s */
	ck_assert_str_eq(sv_conn_due(&c, now, &next), "a frame left unfinished for 5 s");
	c.partial_since_us = now - 1000000;
	next = now + 10000000;
	ck_assert_ptr_null(sv_conn_due(&c, now, &next));
	ck_assert_int_eq(next, c.partial_since_us + SERVE_FRAME_S * 1000000LL);
}
END_TEST

/* A finding whose text holds ']' ("=]32768") made the cause decider loop
 * for ever (found by fuzz_report); Check's timeout fails a regression. */
START_TEST(report_bracket_in_text_terminates)
{
	static const char doc[] =
	    "{" HDR "\"command\":\"scan\",\"host\":\"a\",\"findings\":"
	    "[{\"code\":\"ephemeral-range-blocked\",\"severity\":\"fault\","
	    "\"summary\":\"range =]32768 [b] ]\",\"evidence\":[{\"fact\":"
	    "\"x ]] y\",\"source\":\"s\"}]}]}";
	struct report_set set = {0};
	struct report_model *m;

	ck_assert_int_eq(report_load_buffer(&set, "a.json", doc, strlen(doc)),
			 0);
	ck_assert_uint_eq(set.nin, 1);
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

Suite *suite_inputs(void)
{
	Suite *s = suite_create("inputs");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, termsafe_escapes_controls);
	tcase_add_test(tc, termsafe_stream_holds_split_sequences);
	tcase_add_test(tc, sysroot_fifo_does_not_hang);
	tcase_add_test(tc, report_fifo_is_skipped_by_name);
	tcase_add_test(tc, report_wrong_types_named);
	tcase_add_test(tc, report_duplicates_named_and_chosen);
	tcase_add_test(tc, outfile_kinds);
	tcase_add_test(tc, outfile_in_place);
	tcase_add_test(tc, wait_reports_the_real_wait);
	tcase_add_test(tc, serve_guard_caps_and_deadlines);
	tcase_add_test(tc, report_bracket_in_text_terminates);
	tcase_add_test(tc, report_one_name_two_nodes);
	suite_add_tcase(s, tc);
	return s;
}
