/* Unit tests for Prometheus's text exposition format (base/promtext.h):
 * names, label escaping, HELP and TYPE lines, values, and the textfile
 * written whole through a rename: two writers at once, links planted at
 * the temporary name, the target's mode and owner kept. */
#include "base/promtext.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/monoclock.h"

START_TEST(names)
{
	ck_assert(prom_name_ok("netprobe_peer_rtt_seconds"));
	ck_assert(prom_name_ok("a:b_c9"));
	ck_assert(!prom_name_ok("9lives"));
	ck_assert(!prom_name_ok("net-probe"));
	ck_assert(!prom_name_ok(""));
	ck_assert(prom_label_ok("peer"));
	ck_assert(!prom_label_ok("__name__"));
	ck_assert(!prom_label_ok("a:b"));
}
END_TEST

START_TEST(family_and_samples)
{
	struct prom_buf b;
	const char *lab[] = {"peer", "n\"1\\x\ny", "skip", NULL, "q", "0.5",
	                     NULL};

	prom_init(&b);
	ck_assert_int_eq(prom_family(&b, "netprobe_x_total", "counter",
	                             "a \\ help\nline \"q\""),
	                 0);
	ck_assert_int_eq(prom_sample(&b, "netprobe_x_total", NULL, 3), 0);
	ck_assert_int_eq(prom_sample(&b, "netprobe_x_total", lab, 0.25), 0);
	ck_assert_str_eq(b.p,
	                 "# HELP netprobe_x_total a \\\\ help\\nline \"q\"\n"
	                 "# TYPE netprobe_x_total counter\n"
	                 "netprobe_x_total 3\n"
	                 "netprobe_x_total{peer=\"n\\\"1\\\\x\\ny\","
	                 "q=\"0.5\"} 0.25\n");
	ck_assert(!b.oom && !b.bad);
	prom_free(&b);
}
END_TEST

/* prom_metric is prom_family and one prom_sample. */
START_TEST(one_sample_family)
{
	struct prom_buf b;
	const char *lab[] = {"node", "n1", NULL};

	prom_init(&b);
	ck_assert_int_eq(prom_metric(&b, "netprobe_y", "gauge", "h", lab, 2),
	                 0);
	ck_assert_str_eq(b.p, "# HELP netprobe_y h\n# TYPE netprobe_y gauge\n"
	                      "netprobe_y{node=\"n1\"} 2\n");
	ck_assert_int_eq(prom_metric(&b, "bad name", "gauge", "h", NULL, 1),
	                 -1);
	ck_assert(b.bad);
	prom_free(&b);
}
END_TEST

/* A histogram's series: cumulative buckets with le labels after the
 * series' own, +Inf holding the total, then _sum and _count; bad bounds
 * and an "le" of the caller's are refused. */
START_TEST(histogram)
{
	struct prom_buf b;
	const char *lab[] = {"n", "a", "skip", NULL, "p", "b", NULL};
	const char *le_lab[] = {"le", "1", NULL};
	const double le[] = {5e-05, 0.001, 0.25};
	const double down[] = {0.001, 0.001};
	const unsigned long long n[] = {2, 0, 3};

	prom_init(&b);
	ck_assert_int_eq(prom_family(&b, "x", "histogram", "h"), 0);
	ck_assert_int_eq(prom_histogram(&b, "x", lab, le, n, 3, 0.5,
	                                6),
	                 0);
	ck_assert_int_eq(prom_histogram(&b, "x", NULL, le, n, 0, 0, 0),
	                 0);
	ck_assert_str_eq(b.p,
	                 "# HELP x h\n# TYPE x histogram\n"
	                 "x_bucket{n=\"a\",p=\"b\",le=\"5e-05\"} 2\n"
	                 "x_bucket{n=\"a\",p=\"b\",le=\"0.001\"} 2\n"
	                 "x_bucket{n=\"a\",p=\"b\",le=\"0.25\"} 5\n"
	                 "x_bucket{n=\"a\",p=\"b\",le=\"+Inf\"} 6\n"
	                 "x_sum{n=\"a\",p=\"b\"} 0.5\n"
	                 "x_count{n=\"a\",p=\"b\"} 6\n"
	                 "x_bucket{le=\"+Inf\"} 0\n"
	                 "x_sum 0\n"
	                 "x_count 0\n");
	ck_assert(!b.oom && !b.bad);
	ck_assert_int_eq(prom_histogram(&b, "x", le_lab, le, n, 3, 0,
	                                5),
	                 -1);
	ck_assert(b.bad);
	b.bad = false;
	ck_assert_int_eq(prom_histogram(&b, "x", NULL, down, n, 2, 0,
	                                5),
	                 -1);
	ck_assert(b.bad);
	b.bad = false;
	/* a total below the buckets' sum would make +Inf fall */
	ck_assert_int_eq(prom_histogram(&b, "x", NULL, le, n, 3, 0, 4),
	                 -1);
	ck_assert(b.bad);
	prom_free(&b);
}
END_TEST

START_TEST(bad_names)
{
	struct prom_buf b;
	const char *lab[] = {"__x", "v", NULL};

	prom_init(&b);
	ck_assert_int_eq(prom_family(&b, "x-y", "gauge", "h"), -1);
	ck_assert(b.bad);
	prom_free(&b);
	ck_assert_int_eq(prom_family(&b, "x", "meter", "h"), -1);
	ck_assert(b.bad);
	prom_free(&b);
	ck_assert_int_eq(prom_sample(&b, "x", lab, 1), -1);
	ck_assert(b.bad);
	prom_free(&b);
}
END_TEST

START_TEST(values)
{
	char v[40];

	ck_assert_str_eq(prom_value(0, v, sizeof(v)), "0");
	ck_assert_str_eq(prom_value(-12, v, sizeof(v)), "-12");
	ck_assert_str_eq(prom_value(1e15, v, sizeof(v)), "1000000000000000");
	ck_assert_str_eq(prom_value(0.1, v, sizeof(v)), "0.1");
	ck_assert_str_eq(prom_value(0.000123, v, sizeof(v)), "0.000123");
	ck_assert_str_eq(prom_value(NAN, v, sizeof(v)), "NaN");
	ck_assert_str_eq(prom_value(INFINITY, v, sizeof(v)), "+Inf");
	ck_assert_str_eq(prom_value(-INFINITY, v, sizeof(v)), "-Inf");
	ck_assert(strtod(prom_value(1.0 / 3, v, sizeof(v)), NULL) == 1.0 / 3);
	ck_assert_str_eq(prom_value(1e300, v, sizeof(v)), "1e+300");
}
END_TEST

/* How many temporary files (a name starting with a dot) dir holds. */
static int stray_temps(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) != NULL)
		n += e->d_name[0] == '.' && strcmp(e->d_name, ".") != 0 &&
		     strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

/* Reads path whole into buf (NUL-terminated). Returns the length, or -1
 * with errno set. */
static ssize_t slurp(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t n = 0;
	ssize_t r;

	if (fd < 0)
		return -1;
	while (n + 1 < cap && (r = read(fd, buf + n, cap - 1 - n)) > 0)
		n += (size_t)r;
	close(fd);
	buf[n] = '\0';
	return (ssize_t)n;
}

/* Monotonic seconds: the writers' and the reader's bounds. */
static double mono_s(void)
{
	return (double)mono_now_us() / 1e6;
}

#define TW_BYTES 16384 /* each writer's text */
#define TW_ROUNDS 4000 /* each writer's writes, at most */
#define TW_SECONDS 2.0 /* and for at most this long */

/* One writer: its own text, again and again. Exits 1 when a write
 * failed. */
static void tw_writer(const char *dir, char fill)
{
	static char text[TW_BYTES];
	char why[256];
	double end = mono_s() + TW_SECONDS;
	int bad = 0;

	memset(text, fill, sizeof(text));
	text[sizeof(text) - 1] = '\n';
	for (int i = 0; i < TW_ROUNDS && mono_s() < end; i++)
		bad |= prom_textfile_write(dir, "two.prom", text, sizeof(text),
		                           why, sizeof(why)) < 0;
	_exit(bad);
}

/* Two processes write one directory's file while this one reads it: every
 * reading is one writer's whole text (a shared temporary name cut 857 of
 * 217,071 readings short in issue 45), and no write fails. */
START_TEST(textfile_two_writers)
{
	static char got[TW_BYTES * 2];
	char dir[] = "/tmp/np-prom-XXXXXX", path[128];
	pid_t w[2];
	int status, done = 0, readings = 0, cut = 0, failed = 0;
	double end;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/two.prom", dir);
	for (int i = 0; i < 2; i++) {
		w[i] = fork();
		ck_assert_int_ge(w[i], 0);
		if (w[i] == 0)
			tw_writer(dir, i ? 'b' : 'a');
	}
	end = mono_s() + TW_SECONDS + 10;
	while (done < 2 && mono_s() < end) {
		ssize_t n = slurp(path, got, sizeof(got));

		if (n >= 0) {
			readings++;
			cut += n != TW_BYTES || got[TW_BYTES - 1] != '\n' ||
			       strspn(got, got[0] == 'b' ? "b" : "a") !=
			           TW_BYTES - 1;
		} else {
			ck_assert_int_eq(errno, ENOENT);
		}
		for (int i = 0; i < 2; i++)
			if (w[i] > 0 &&
			    waitpid(w[i], &status, WNOHANG) == w[i]) {
				failed += !WIFEXITED(status) ||
				          WEXITSTATUS(status) != 0;
				w[i] = 0;
				done++;
			}
	}
	ck_assert_int_eq(done, 2);
	ck_assert_int_gt(readings, 0);
	ck_assert_msg(cut == 0, "%d of %d readings cut short", cut, readings);
	ck_assert_int_eq(failed, 0);
	ck_assert_int_eq(stray_temps(dir), 0);
	unlink(path);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* A hard link and a symlink planted at the name the temporary file had
 * (".NAME.tmp") are neither written through nor in the way: the file
 * they point at keeps its text, and the write succeeds. */
START_TEST(textfile_planted_links)
{
	char dir[] = "/tmp/np-prom-XXXXXX", victim[128], hard[128],
	     soft[128], path[128], why[256], got[64];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	snprintf(hard, sizeof(hard), "%s/.a.prom.tmp", dir);
	snprintf(soft, sizeof(soft), "%s/.b.prom.tmp", dir);
	{
		FILE *f = fopen(victim, "w");

		ck_assert_ptr_nonnull(f);
		ck_assert_int_ge(fputs("keep\n", f), 0);
		ck_assert_int_eq(fclose(f), 0);
	}
	ck_assert_int_eq(link(victim, hard), 0);
	ck_assert_int_eq(symlink(victim, soft), 0);
	ck_assert_int_eq(prom_textfile_write(dir, "a.prom", "a 1\n", 4, why,
	                                     sizeof(why)),
	                 0);
	ck_assert_int_eq(slurp(victim, got, sizeof(got)), 5);
	ck_assert_str_eq(got, "keep\n");
	ck_assert_int_eq(prom_textfile_write(dir, "b.prom", "b 2\n", 4, why,
	                                     sizeof(why)),
	                 0);
	ck_assert_int_eq(slurp(victim, got, sizeof(got)), 5);
	ck_assert_str_eq(got, "keep\n");
	snprintf(path, sizeof(path), "%s/a.prom", dir);
	ck_assert_int_eq(slurp(path, got, sizeof(got)), 4);
	ck_assert_str_eq(got, "a 1\n");
	ck_assert_int_eq(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/b.prom", dir);
	ck_assert_int_eq(slurp(path, got, sizeof(got)), 4);
	ck_assert_str_eq(got, "b 2\n");
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(stray_temps(dir), 2); /* the planted two, untouched */
	unlink(hard);
	unlink(soft);
	unlink(victim);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* A new file is 0644 whatever the umask; a rewrite keeps the file's mode,
 * and as root its owner and group. */
START_TEST(textfile_mode_owner)
{
	char dir[] = "/tmp/np-prom-XXXXXX", path[128], why[256];
	struct stat st;
	mode_t um = umask(077);
	int rc;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/m.prom", dir);
	rc = prom_textfile_write(dir, "m.prom", "a 1\n", 4, why, sizeof(why));
	umask(um);
	ck_assert_int_eq(rc, 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0644);
	ck_assert_int_eq(chmod(path, 0640), 0);
	if (geteuid() == 0)
		ck_assert_int_eq(chown(path, 65534, 65534), 0);
	ck_assert_int_eq(prom_textfile_write(dir, "m.prom", "a 2\n", 4, why,
	                                     sizeof(why)),
	                 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0640);
	if (geteuid() == 0) {
		ck_assert_int_eq(st.st_uid, 65534);
		ck_assert_int_eq(st.st_gid, 65534);
	}
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

START_TEST(textfile)
{
	char dir[] = "/tmp/np-prom-XXXXXX", path[128], why[256], got[64];
	FILE *f;
	size_t n;
	struct stat st;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(prom_textfile_write(dir, "netprobe.prom", "a 1\n", 4,
	                                     why, sizeof(why)),
	                 0);
	ck_assert_int_eq(prom_textfile_write(dir, "netprobe.prom", "b 2\n", 4,
	                                     why, sizeof(why)),
	                 0);
	snprintf(path, sizeof(path), "%s/netprobe.prom", dir);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(got, 1, sizeof(got) - 1, f);
	got[n] = '\0';
	fclose(f);
	ck_assert_str_eq(got, "b 2\n");
	ck_assert_int_eq(stray_temps(dir), 0);
	snprintf(path, sizeof(path), "%s/.netprobe.prom.tmp", dir);
	ck_assert_int_eq(stat(path, &st), -1);
	snprintf(path, sizeof(path), "%s/netprobe.prom", dir);
	unlink(path);
	ck_assert_int_eq(prom_textfile_write(dir, "x/y.prom", "", 0, why,
	                                     sizeof(why)),
	                 -1);
	/* removed at the end of a watch; a file already gone is no error */
	ck_assert_int_eq(prom_textfile_write(dir, "netprobe.prom", "c 3\n", 4,
	                                     why, sizeof(why)),
	                 0);
	ck_assert_int_eq(prom_textfile_remove(dir, "netprobe.prom", why,
	                                      sizeof(why)),
	                 0);
	ck_assert_int_eq(stat(path, &st), -1);
	ck_assert_int_eq(prom_textfile_remove(dir, "netprobe.prom", why,
	                                      sizeof(why)),
	                 0);
	ck_assert_int_eq(prom_textfile_remove(dir, "x/y.prom", why,
	                                      sizeof(why)),
	                 -1);
	rmdir(dir);
	ck_assert_int_eq(prom_textfile_remove(dir, "n.prom", why,
	                                      sizeof(why)),
	                 0);
	ck_assert_int_eq(prom_textfile_write(dir, "n.prom", "a 1\n", 4, why,
	                                     sizeof(why)),
	                 -1);
	ck_assert_ptr_nonnull(strstr(why, "cannot write"));
}
END_TEST

Suite *suite_promtext(void)
{
	Suite *s = suite_create("promtext");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, names);
	tcase_add_test(tc, family_and_samples);
	tcase_add_test(tc, one_sample_family);
	tcase_add_test(tc, histogram);
	tcase_add_test(tc, bad_names);
	tcase_add_test(tc, values);
	tcase_add_test(tc, textfile);
	suite_add_tcase(s, tc);
	tc = tcase_create("textfile");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, textfile_two_writers);
	tcase_add_test(tc, textfile_planted_links);
	tcase_add_test(tc, textfile_mode_owner);
	suite_add_tcase(s, tc);
	return s;
}
