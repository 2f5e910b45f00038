/* netprobe explain --job's sources: RAS's JSON answer and monitor stream
 * (tests/explain/ras, written as NCCL's client_support.cc writes them),
 * the text answer's MISMATCH lines, the stragglers with one look and
 * two, a host's link changes, and the joined verdict. */
#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "decide/jobverdict.h"
#include "decide/ras_parse.h"
#include "decide/ras_straggle.h"
#include "kernel/linkfacts.h"
#include "probe/ras.h"
#include "unitfix.h"

static struct ras_state st0, st1;
static struct ras_straggler sg[RAS_MAX_STRAGGLERS];

#define RAS_DIR "tests/explain/ras/"

static void load(const char *name, struct ras_state *st)
{
	char *t = unitfix_text(RAS_DIR "%s", name);

	ck_assert(ras_answer_is_json(t));
	ck_assert_int_eq(ras_parse_json(t, st), 0);
	free(t);
}

START_TEST(json_answer_parsed)
{
	load("nccl2292-stopped-1.json", &st0);
	ck_assert_str_eq(st0.nccl_version, "2.29.2");
	ck_assert_uint_eq(st0.ncomms, 1);
	ck_assert_str_eq(st0.comms[0].id, "(f1e2d3c4b5a69788)");
	/* the rank behind, then the leaders of its collective */
	ck_assert_uint_eq(st0.ncounts, 2);
	ck_assert_str_eq(st0.counts[0].op, "AllReduce");
	ck_assert_str_eq(st0.counts[0].node, "10.231.68.2");
	ck_assert_int_eq(st0.counts[0].rank, 3);
	ck_assert_uint_eq(st0.counts[0].count, 12);
	ck_assert_str_eq(st0.counts[1].op, "AllReduce");
	ck_assert_int_eq(st0.counts[1].rank, -1);
	ck_assert_int_eq(st0.counts[1].nranks, 3);
	ck_assert_uint_eq(st0.counts[1].count, 13);
	ck_assert_str_eq(st0.comms[0].what, "MISMATCH");
	ck_assert_int_eq(ras_parse_json("NCCL version 2.28.3\n", &st0), -1);
	ck_assert_int_eq(ras_parse_json("{\"a\": 1}", &st0), -1);
}
END_TEST

START_TEST(json_dead_rank)
{
	load("nccl2292-dead.json", &st0);
	ck_assert_int_eq(st0.ndead, 1);
	ck_assert_uint_eq(st0.nprocs, 1);
	ck_assert_int_eq(st0.procs[0].kind, RAS_PROC_DEAD);
	ck_assert_int_eq(st0.procs[0].rank, 3);
	ck_assert_int_eq(st0.timeouts, 2);
}
END_TEST

/* The answers a real NCCL 2.28.9 gave on the lent GPU host: JSON after
 * SET FORMAT json, and the text one; one rank, nothing behind. */
START_TEST(device_recordings)
{
	char *t = unitfix_text(RAS_DIR "nccl2289-device-status.json");

	ck_assert(ras_answer_is_json(t));
	ck_assert_int_eq(ras_parse_json(t, &st0), 0);
	ck_assert_str_eq(st0.nccl_version, "2.28.9");
	ck_assert_uint_eq(st0.ncomms, 0); /* no errors: not listed */
	ck_assert_uint_eq(st0.ncounts, 0); /* all level: nothing kept */
	ck_assert_uint_eq(st0.nprocs, 0);
	ck_assert_uint_eq(ras_stragglers(&st0, NULL, sg, RAS_MAX_STRAGGLERS),
			  0);
	free(t);
	t = unitfix_text(RAS_DIR "nccl2289-device-status.txt");
	ck_assert(!ras_answer_is_json(t));
	ck_assert_int_eq(ras_parse(t, &st0), 0);
	ck_assert_str_eq(st0.nccl_version, "2.28.9");
	ck_assert_uint_eq(st0.nprocs, 0);
	ck_assert_uint_eq(st0.ncounts, 0);
	free(t);
}
END_TEST

/* One look: rank 3 is behind, and it alone (stopped or slow unknown). */
START_TEST(straggler_one_look)
{
	load("nccl2292-stopped-1.json", &st0);
	ck_assert_uint_eq(ras_stragglers(&st0, NULL, sg, RAS_MAX_STRAGGLERS),
			  1);
	ck_assert_int_eq(sg[0].kind, STRAGGLE_BEHIND);
	ck_assert_int_eq(sg[0].rank, 3);
	ck_assert_uint_eq(sg[0].count, 12);
	ck_assert_uint_eq(sg[0].ahead, 13);
	ck_assert_int_eq(sg[0].nahead, 3);
	load("nccl2292-healthy.json", &st0);
	ck_assert_uint_eq(ras_stragglers(&st0, NULL, sg, RAS_MAX_STRAGGLERS),
			  0);
}
END_TEST

/* Two looks: a count that stayed is stopped; one that moved but fell
 * further behind is slow; one that kept its distance keeps up. */
START_TEST(straggler_stopped_or_slow)
{
	load("nccl2292-stopped-1.json", &st0);
	load("nccl2292-stopped-1.json", &st1);
	ck_assert_uint_eq(ras_stragglers(&st1, &st0, sg, RAS_MAX_STRAGGLERS),
			  1);
	ck_assert_int_eq(sg[0].kind, STRAGGLE_STOPPED);
	load("nccl2292-slow-1.json", &st0);
	load("nccl2292-slow-2.json", &st1);
	ck_assert_uint_eq(ras_stragglers(&st1, &st0, sg, RAS_MAX_STRAGGLERS),
			  1);
	ck_assert_int_eq(sg[0].kind, STRAGGLE_SLOW);
	ck_assert_uint_eq(sg[0].moved, 42);
	ck_assert(straggle_suspect(sg[0].kind));
	/* one behind each time: a healthy job's ranks, no suspect */
	load("nccl2292-keeping-2.json", &st1);
	ck_assert_uint_eq(ras_stragglers(&st1, &st0, sg, RAS_MAX_STRAGGLERS),
			  1);
	ck_assert_int_eq(sg[0].kind, STRAGGLE_KEEPING_UP);
	ck_assert(!straggle_suspect(sg[0].kind));
	/* level once (not listed), behind now: a look alone */
	load("nccl2292-healthy.json", &st0);
	load("nccl2292-stopped-1.json", &st1);
	ck_assert_uint_eq(ras_stragglers(&st1, &st0, sg, RAS_MAX_STRAGGLERS),
			  1);
	ck_assert_int_eq(sg[0].kind, STRAGGLE_BEHIND);
	/* level but listed by the leaders' group, behind now, unmoved */
	load("nccl2292-slow-1.json", &st0);
	st0.counts[0].count = 400;
	load("nccl2292-stopped-1.json", &st1);
	st1.counts[0].count = 400;
	st1.counts[1].count = 401;
	ck_assert_uint_eq(ras_stragglers(&st1, &st0, sg, RAS_MAX_STRAGGLERS),
			  1);
	ck_assert_int_eq(sg[0].kind, STRAGGLE_STOPPED);
	/* behind once, level now: no suspect (the whole communicator is
	 * level, so nothing of it is kept) */
	load("nccl2292-slow-1.json", &st0);
	load("nccl2292-healthy.json", &st1);
	ck_assert_uint_eq(ras_stragglers(&st1, &st0, sg, RAS_MAX_STRAGGLERS),
			  0);
	/* behind once, level now beside another rank behind: caught up */
	load("nccl2292-slow-1.json", &st0);
	load("nccl2292-stopped-1.json", &st1);
	st1.counts[0].rank = 2; /* rank 2 behind now, rank 3 level */
	ck_assert_uint_eq(ras_stragglers(&st1, &st0, sg, RAS_MAX_STRAGGLERS),
			  2);
	ck_assert_int_eq(sg[1].kind, STRAGGLE_CAUGHT_UP);
	ck_assert_int_eq(sg[1].rank, 3);
	ck_assert_uint_eq(sg[1].count, 13);
}
END_TEST

/* The text answer's MISMATCH block (rasClientRunComms, VERBOSE). */
START_TEST(text_mismatch_stragglers)
{
	static const char t[] =
		"NCCL version 2.26.2+cuda12.8 compiled with CUDA 12.8\n"
		"Warnings\n========\n\n"
		"#0-0 (f1e2d3c4b5a69788) MISMATCH\n"
		"  Communicator ranks have different AllReduce operation "
		"counts\n"
		"  30 ranks have launched up to operation 461\n"
		"  2 ranks have launched up to operation 460\n"
		"  Rank 36 -- GPU 4 managed by process 90 on node h5\n"
		"  Rank 37 -- GPU 5 managed by process 91 on node h5\n"
		"\n";

	ck_assert_int_eq(ras_parse(t, &st0), 0);
	ck_assert_uint_eq(st0.ncounts, 4);
	ck_assert_int_eq(st0.counts[1].nranks, 0);
	ck_assert_uint_eq(ras_stragglers(&st0, NULL, sg, RAS_MAX_STRAGGLERS),
			  2);
	ck_assert_int_eq(sg[0].rank, 36);
	ck_assert_int_eq(sg[1].rank, 37);
	ck_assert_str_eq(sg[1].node, "h5");
	ck_assert_uint_eq(sg[1].count, 460);
	ck_assert_int_eq(sg[1].nahead, 30);
	ck_assert_int_eq(ras_parse("NCCL version 2.26.2\n#0-0 (00000000000000"
				   "ff) MISMATCH\n  Communicator ranks have "
				   "different Broadcast operation counts\n"
				   "  3 ranks have launched up to operation 9\n"
				   "  Rank 0 has launched up to operation 8 -- "
				   "GPU 0 managed by process 7 on node h1\n",
				   &st0), 0);
	ck_assert_uint_eq(ras_stragglers(&st0, NULL, sg, RAS_MAX_STRAGGLERS),
			  1);
	ck_assert_int_eq(sg[0].rank, 0);
}
END_TEST

START_TEST(monitor_events)
{
	struct ras_event ev[4];
	char *t = unitfix_text(RAS_DIR "nccl2292-monitor.json");

	size_t used;

	ck_assert_uint_eq(ras_parse_events(t, ev, 4, &used), 2);
	ck_assert_uint_eq(used, strlen(t));
	ck_assert_str_eq(ev[0].event, "PEER_DEAD");
	ck_assert_str_eq(ev[0].when, "2026-12-06 11:02:13");
	ck_assert_str_eq(ev[0].node, "10.231.68.2");
	ck_assert_int_eq(ev[0].pid, 202);
	free(t);
	ck_assert_uint_eq(ras_parse_events("[2026-12-06 11:02:13] PEER_DEAD: "
		"Process 77 on node h5 managing GPU 5 \n[2026-12-06 11:0",
		ev, 4, &used), 1);
	ck_assert_uint_eq(used, 71); /* the partial line stays */
	ck_assert_str_eq(ev[0].node, "h5");
	ck_assert_int_eq(ev[0].pid, 77);
	/* an event then a partial object across lines: only the first
	 * is read */
	ck_assert_uint_eq(ras_parse_events("{\"event\": \"PEER_NEW\"}\n{\n"
					   "  \"timestamp\": \"x\",\n", ev, 4,
					   &used), 1);
	ck_assert_uint_eq(used, 22);
}
END_TEST

/* A flap, a speed drop and link_downed's rise, each with its time. */
START_TEST(link_changes)
{
	static struct linkfacts a, b;
	struct lf_change c[8];
	size_t n;

	a.at_ms = 1000;
	b.at_ms = 2000;
	a.nlinks = b.nlinks = 1;
	snprintf(a.links[0].name, sizeof(a.links[0].name), "eth0");
	b.links[0] = a.links[0];
	a.links[0].carrier = 1;
	b.links[0].carrier = 0;
	a.links[0].speed_mbps = 400000;
	b.links[0].speed_mbps = 200000;
	a.nports = b.nports = 1;
	snprintf(a.ports[0].dev, sizeof(a.ports[0].dev), "mlx5_5");
	a.ports[0].port = 1;
	a.ports[0].state = 4;
	a.ports[0].rate_gbps = 400;
	b.ports[0] = a.ports[0];
	b.ports[0].rate_gbps = 200;
	b.ports[0].ctr[0] = 1;
	n = linkfacts_diff(&a, &b, c, 8);
	ck_assert_uint_eq(n, 4);
	ck_assert_str_eq(c[0].text, "lost its carrier (link down)");
	ck_assert_int_eq(c[0].at_ms, 2000);
	ck_assert_str_eq(c[1].text, "went from 400000 to 200000 Mb/s");
	ck_assert_str_eq(c[2].subject, "mlx5_5 port 1");
	ck_assert_str_eq(c[2].text, "went from 400 to 200 Gb/s");
	ck_assert_str_eq(c[3].text, "link_downed rose by 1 (to 1)");
	ck_assert_uint_eq(linkfacts_diff(&a, &a, c, 8), 0);
	ck_assert_uint_eq(linkfacts_now(&b, c, 8), 2);
}
END_TEST

/* w: writes text to root/path, making its folders. */
static void w(const char *root, const char *path, const char *text)
{
	char p[512], cmd[600];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, path);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", p);
	ck_assert_int_eq(system(cmd), 0);
	f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* Two looks at a recorded node through the sysroot: its NIC lost its
 * carrier and its InfiniBand port fell to 200 Gb/s with link_downed up
 * by one; each change is found, and one look alone tells what it can. */
START_TEST(link_facts_sysroot)
{
	char root[] = "/tmp/np-linkfacts-XXXXXX", cmd[64];
	static struct linkfacts a, b;
	struct lf_change c[16];
	struct sysroot sr;
	const char *pt = "sys/class/infiniband/mlx5_5/ports/1/";
	char p[128];

	ck_assert_ptr_nonnull(mkdtemp(root));
	w(root, "sys/class/net/eth0/ifindex", "2\n");
	w(root, "sys/class/net/eth0/flags", "0x1003\n");
	w(root, "sys/class/net/eth0/type", "1\n");
	w(root, "sys/class/net/eth0/mtu", "1500\n");
	w(root, "sys/class/net/eth0/address", "02:00:00:00:00:05\n");
	w(root, "sys/class/net/eth0/operstate", "up\n");
	w(root, "sys/class/net/eth0/carrier", "1\n");
	w(root, "sys/class/net/eth0/speed", "400000\n");
	w(root, "sys/class/net/eth0/carrier_changes", "2\n");
	snprintf(p, sizeof(p), "%sstate", pt);
	w(root, p, "4: ACTIVE\n");
	snprintf(p, sizeof(p), "%srate", pt);
	w(root, p, "400 Gb/sec (4X NDR)\n");
	snprintf(p, sizeof(p), "%scounters/link_downed", pt);
	w(root, p, "0\n");
	snprintf(p, sizeof(p), "%scounters/symbol_error", pt);
	w(root, p, "0\n");
	ck_assert_int_eq(sysroot_init(&sr, root), 0);
	ck_assert_int_eq(linkfacts_read(&a, &sr, 1000), 0);
	ck_assert_uint_eq(a.nlinks, 1);
	ck_assert_uint_eq(a.nports, 1);
	ck_assert_int_eq(a.ports[0].rate_gbps, 400);
	ck_assert_uint_eq(linkfacts_now(&a, c, 16), 0); /* healthy: silent */
	w(root, "sys/class/net/eth0/carrier", "0\n");
	w(root, "sys/class/net/eth0/operstate", "down\n");
	w(root, "sys/class/net/eth0/carrier_changes", "3\n");
	snprintf(p, sizeof(p), "%srate", pt);
	w(root, p, "200 Gb/sec (4X HDR)\n");
	snprintf(p, sizeof(p), "%scounters/link_downed", pt);
	w(root, p, "1\n");
	ck_assert_int_eq(linkfacts_read(&b, &sr, 2000), 0);
	ck_assert_uint_eq(linkfacts_diff(&a, &b, c, 16), 3);
	ck_assert_str_eq(c[0].subject, "eth0");
	ck_assert_str_eq(c[0].text, "lost its carrier (link down)");
	ck_assert_str_eq(c[1].text, "went from 400 to 200 Gb/s");
	ck_assert_str_eq(c[2].text, "link_downed rose by 1 (to 1)");
	ck_assert_int_eq(c[2].at_ms, 2000);
	ck_assert_uint_eq(linkfacts_now(&b, c, 16), 2);
	ck_assert_str_eq(c[1].text, "link_downed is 1 (since the counters "
			 "were cleared)");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* The heaviest suspect leads; its host's changes decide the action. */
START_TEST(verdict_joined)
{
	static struct job_verdict v;
	struct jv_suspect s = {"ras", 37, "h5", "5", 91, JV_W_STOPPED,
			       "stopped at AllReduce #460", "", false};
	struct jv_suspect t = {"ras", 2, "h1", "2", 12, JV_W_SLOW,
			       "is slow", "", false};

	ck_assert_int_eq(jv_suspect(&v, &t), 0);
	ck_assert_int_eq(jv_suspect(&v, &s), 0);
	jv_decide(&v);
	ck_assert_ptr_nonnull(strstr(v.headline, "rank 37 (host h5, GPU 5)"));
	ck_assert_ptr_nonnull(strstr(v.headline, "were not read"));
	ck_assert_ptr_nonnull(strstr(v.action, "py-spy dump --pid 91"));
	ck_assert_int_eq(jv_event(&v, 0, "", "fr", "h5", "never arrived"), 0);
	ck_assert_int_eq(jv_event(&v, 5000, "", "host", "h5", "eth0 down"),
			 0);
	jv_host(&v, "h5", true, "its eth0 lost its carrier at 00:00:05");
	jv_decide(&v);
	ck_assert_int_eq(v.suspects[0].weight, JV_W_STOPPED + JV_W_LINK);
	ck_assert_ptr_nonnull(strstr(v.headline, "eth0 lost its carrier"));
	ck_assert_str_eq(v.action, "drain h5 or reseat the link");
	ck_assert_int_eq(v.events[0].at_ms, 5000); /* timed entries first */
	/* a second source naming the same rank on the same host adds */
	struct jv_suspect f = {"fr", 37, "h5", "5", 91, JV_W_STOPPED,
			       "never arrived at all_reduce #460631", "",
			       false};

	ck_assert_int_eq(jv_suspect(&v, &f), 0);
	ck_assert_int_eq(v.suspects[0].weight,
			 2 * JV_W_STOPPED + JV_W_LINK);
	ck_assert_ptr_nonnull(strstr(v.suspects[0].what, "never arrived"));
	/* unreachable, links unread: check it there, no drain */
	memset(&v, 0, sizeof(v));
	ck_assert_int_eq(jv_suspect(&v, &s), 0);
	jv_probe(&v, "h5", false, "Connection timed out");
	jv_decide(&v);
	ck_assert_ptr_nonnull(strstr(v.headline, "h5 is not reachable from "
				     "here (Connection timed out)"));
	ck_assert_ptr_nonnull(strstr(v.action, "unreachable from here"));
}
END_TEST

/* Reads one command line from fd into buf. */
static bool read_cmd(int fd, char *buf, size_t len, const char *want)
{
	ssize_t n = read(fd, buf, len - 1);

	if (n <= 0)
		return false;
	buf[n] = '\0';
	return strncasecmp(buf, want, strlen(want)) == 0;
}

/* NCCL's side (client_support.cc): handshake, TIMEOUT, then SET FORMAT
 * (taken by 2.28.7+, "ERROR: Unknown command" before), then the status
 * or MONITOR (taken by 2.29+). Two clients, then exit. */
static void fake_service(int lfd, bool json, bool monitor)
{
	static const char js[] = "{\n  \"nccl_version\": \"2.28.9\",\n"
		"  \"communicators\": [\n  ]\n}\n";
	static const char tx[] = "NCCL version 2.26.2+cuda12.8\nErrors\n";
	char buf[256];

	for (int k = 0; k < 2; k++) {
		int fd = accept(lfd, NULL, NULL);

		if (fd < 0 || !read_cmd(fd, buf, sizeof(buf), "CLIENT "))
			_exit(1);
		(void)!write(fd, "SERVER PROTOCOL 2\n", 18);
		if (!read_cmd(fd, buf, sizeof(buf), "TIMEOUT "))
			_exit(2);
		(void)!write(fd, "OK\n", 3);
		if (!read_cmd(fd, buf, sizeof(buf), "SET FORMAT json"))
			_exit(3);
		if (json)
			(void)!write(fd, "OK\n", 3);
		else
			(void)!write(fd, "ERROR: Unknown command set format "
				     "json\n", 39);
		if (read_cmd(fd, buf, sizeof(buf), "VERBOSE STATUS")) {
			(void)!write(fd, json ? js : tx, json ? sizeof(js) - 1
							     : sizeof(tx) - 1);
		} else if (strncasecmp(buf, "MONITOR", 7) == 0) {
			static const char ev[] = "OK\n[2026-12-06 11:02:13] "
						 "PEER_DEAD: 10.0.0.5<1>\n";

			if (monitor)
				(void)!write(fd, ev, sizeof(ev) - 1);
			else
				(void)!write(fd, "ERROR: Unknown command "
					     "MONITOR\n", 31);
		}
		close(fd);
	}
	_exit(0);
}

/* The client asks for JSON and takes text from an older service; it
 * opens the monitor stream where there is one and says -2 where not. */
static void ask_fake(bool json, bool monitor)
{
	struct sockaddr_in a;
	struct ras_ask q = {2000, 1, true, 0};
	char ps[16], why[256], rest[256], *ans = NULL;
	int lfd = unitfix_listen(8, &a), st, fd;
	bool got_json = !json;
	pid_t pid;

	snprintf(ps, sizeof(ps), "%u", ntohs(a.sin_port));
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		fake_service(lfd, json, monitor);
	close(lfd);
	ck_assert_msg(ras_ask_status("127.0.0.1", ps, &q, &ans, &got_json,
				     why, sizeof(why)) == 0, "%s", why);
	ck_assert(got_json == json);
	ck_assert(ras_answer_is_json(ans) == json);
	free(ans);
	fd = ras_monitor_open("127.0.0.1", ps, &q, &got_json, rest,
			      sizeof(rest), why, sizeof(why));
	if (monitor) {
		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(ras_monitor_read(fd, rest, sizeof(rest), 500),
				 1);
		ck_assert_ptr_nonnull(strstr(rest, "PEER_DEAD"));
		close(fd);
	} else {
		ck_assert_int_eq(fd, -2);
		ck_assert_ptr_nonnull(strstr(why, "MONITOR not taken"));
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

START_TEST(client_formats)
{
	ask_fake(true, true);   /* 2.29+ */
	ask_fake(true, false);  /* 2.28.7 to 2.28.x */
	ask_fake(false, false); /* 2.24 to 2.28.6 */
}
END_TEST

/* A port that accepts and never answers: the overall deadline holds,
 * whatever the tries and NCCL's collection time would allow. */
START_TEST(client_deadline)
{
	struct sockaddr_in a;
	char ps[16], why[256], *ans = NULL;
	int lfd = unitfix_listen(8, &a);
	struct ras_ask q = {1500, 600, true, 0};
	bool js;
	long long t0;

	snprintf(ps, sizeof(ps), "%u", ntohs(a.sin_port));
	t0 = ras_now_ms();
	q.deadline_ms = t0 + 400;
	ck_assert_int_eq(ras_ask_status("127.0.0.1", ps, &q, &ans, &js, why,
					sizeof(why)), -1);
	ck_assert_int_lt(ras_now_ms() - t0, 1000);
	ck_assert_ptr_null(ans);
	close(lfd);
}
END_TEST

/* A source that names no host (torch's Flight Recorder: ranks only)
 * joins the suspect of its rank that RAS named with an address, in
 * either order, and its weight adds; another rank stays apart. */
START_TEST(hostless_source_joins_its_rank)
{
	static struct job_verdict v;
	struct jv_suspect fr = {.source = "fr", .rank = 1, .pid = -1,
				.weight = JV_W_STOPPED,
				.what = "never arrived at all_reduce #6"};
	struct jv_suspect ras = {.source = "ras", .rank = 1,
				 .host = "10.231.0.2", .pid = -1,
				 .weight = JV_W_STOPPED,
				 .what = "stopped at AllReduce #6"};
	struct jv_suspect other = fr;

	for (int order = 0; order < 2; order++) {
		memset(&v, 0, sizeof(v));
		ck_assert_int_eq(jv_suspect(&v, order ? &ras : &fr), 0);
		ck_assert_int_eq(jv_suspect(&v, order ? &fr : &ras), 0);
		ck_assert_uint_eq(v.nsuspects, 1);
		ck_assert_int_eq(v.suspects[0].weight, 2 * JV_W_STOPPED);
		ck_assert_str_eq(v.suspects[0].host, "10.231.0.2");
		jv_decide(&v);
		ck_assert_ptr_nonnull(strstr(v.headline, "rank 1 (host "
						 "10.231.0.2"));
	}
	other.rank = 2;
	ck_assert_int_eq(jv_suspect(&v, &other), 0);
	ck_assert_uint_eq(v.nsuspects, 2);
	/* the dumps alone: the verdict says no source named the host */
	memset(&v, 0, sizeof(v));
	ck_assert_int_eq(jv_suspect(&v, &fr), 0);
	jv_decide(&v);
	ck_assert_ptr_nonnull(strstr(v.headline, "no source named its host"));
	ck_assert_ptr_nonnull(strstr(v.action, "rank 1's process"));
}
END_TEST

Suite *suite_ras_job(void)
{
	Suite *s = suite_create("ras_job");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, json_answer_parsed);
	tcase_add_test(tc, hostless_source_joins_its_rank);
	tcase_add_test(tc, json_dead_rank);
	tcase_add_test(tc, device_recordings);
	tcase_add_test(tc, straggler_one_look);
	tcase_add_test(tc, straggler_stopped_or_slow);
	tcase_add_test(tc, text_mismatch_stragglers);
	tcase_add_test(tc, monitor_events);
	tcase_add_test(tc, link_changes);
	tcase_add_test(tc, link_facts_sysroot);
	tcase_add_test(tc, verdict_joined);
	tcase_add_test(tc, client_formats);
	tcase_add_test(tc, client_deadline);
	suite_add_tcase(s, tc);
	return s;
}
