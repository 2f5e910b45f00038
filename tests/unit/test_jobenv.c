/* Unit tests for the frameworks' variables parsed by their own rules
 * (NCCL_COMM_ID, NCCL_SOCKET_IFNAME lists, MASTER_ADDR, comma lists) and
 * for the ephemeral port range parser. */
#include "kernel/jobenv.h"
#include "kernel/portrange.h"
#include "base/sysroot.h"

#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

/* The three forms NCCL's bootstrap names in its error message. */
START_TEST(comm_id_forms)
{
	struct nccl_comm_id id;
	char a[INET6_ADDRSTRLEN];

	ck_assert_int_eq(nccl_comm_id_parse("10.231.0.5:29500", &id), 0);
	ck_assert(!id.bracketed);
	ck_assert_str_eq(id.host, "10.231.0.5");
	ck_assert_int_eq(id.port, 29500);
	ck_assert_int_eq(id.family, AF_INET);
	inet_ntop(AF_INET, id.addr, a, sizeof(a));
	ck_assert_str_eq(a, "10.231.0.5");

	ck_assert_int_eq(nccl_comm_id_parse("[fd00::5]:29500", &id), 0);
	ck_assert(id.bracketed);
	ck_assert_str_eq(id.host, "fd00::5");
	ck_assert_str_eq(id.scope, "");
	ck_assert_int_eq(id.port, 29500);
	ck_assert_int_eq(id.family, AF_INET6);

	ck_assert_int_eq(nccl_comm_id_parse("master-0:29500", &id), 0);
	ck_assert_str_eq(id.host, "master-0");
	ck_assert_int_eq(id.port, 29500);
	ck_assert_int_eq(id.family, AF_UNSPEC);
}
END_TEST

/* NCCL cuts the unbracketed host at the first ':' or ',', and takes the
 * IPv6 address up to the last '%' before ']'. */
START_TEST(comm_id_colons)
{
	struct nccl_comm_id id;

	/* a bare IPv6 address is a host "fd00" to NCCL, not an address */
	ck_assert_int_eq(nccl_comm_id_parse("fd00::5:29500", &id), 0);
	ck_assert_str_eq(id.host, "fd00");
	ck_assert_int_eq(id.family, AF_UNSPEC);
	ck_assert_int_eq(id.port, 0);

	ck_assert_int_eq(nccl_comm_id_parse("10.0.0.1:1:2", &id), 0);
	ck_assert_str_eq(id.host, "10.0.0.1");
	ck_assert_int_eq(id.port, 1);

	ck_assert_int_eq(nccl_comm_id_parse("10.0.0.1", &id), 0);
	ck_assert_int_eq(id.port, -1);
	ck_assert_int_eq(id.family, AF_INET);

	ck_assert_int_eq(nccl_comm_id_parse("10.0.0.1,10.0.0.2:5", &id), 0);
	ck_assert_str_eq(id.host, "10.0.0.1");
	ck_assert_int_eq(id.port, -1);

	ck_assert_int_eq(nccl_comm_id_parse(",10.0.0.2:5", &id), 0);
	ck_assert_str_eq(id.host, "10.0.0.2");
	ck_assert_int_eq(id.port, 5);

	ck_assert_int_eq(nccl_comm_id_parse("[fe80::1%eth0]:29500", &id), 0);
	ck_assert_str_eq(id.host, "fe80::1");
	ck_assert_str_eq(id.scope, "eth0");
	ck_assert_int_eq(id.family, AF_INET6);
	ck_assert_int_eq(id.port, 29500);

	ck_assert_int_eq(nccl_comm_id_parse("[fe80::1]", &id), 0);
	ck_assert_int_eq(id.port, -1);

	/* not an address: NCCL goes on with an unset one */
	ck_assert_int_eq(nccl_comm_id_parse("[master]:1", &id), 0);
	ck_assert_int_eq(id.family, AF_UNSPEC);
}
END_TEST

/* What NCCL refuses with "Invalid NCCL_COMM_ID". */
START_TEST(comm_id_rejected)
{
	struct nccl_comm_id id;
	char longhost[300];

	ck_assert_int_eq(nccl_comm_id_parse(NULL, &id), -1);
	ck_assert_int_eq(nccl_comm_id_parse("", &id), -1);
	ck_assert_int_eq(nccl_comm_id_parse("x", &id), -1);
	ck_assert_int_eq(nccl_comm_id_parse(":29500", &id), -1);
	ck_assert_int_eq(nccl_comm_id_parse("::1", &id), -1);
	ck_assert_int_eq(nccl_comm_id_parse(",,", &id), -1);
	ck_assert_int_eq(nccl_comm_id_parse("[fd00::5:29500", &id), -1);
	ck_assert_int_eq(
	    nccl_comm_id_parse("[fe80::1%averyveryverylongname]:1", &id), -1);
	memset(longhost, 'a', sizeof(longhost) - 1);
	longhost[sizeof(longhost) - 1] = '\0';
	ck_assert_int_eq(nccl_comm_id_parse(longhost, &id), -1);
}
END_TEST

/* A resolved name goes back into NCCL_COMM_ID's form. */
START_TEST(comm_id_format)
{
	unsigned char a4[4] = {10, 231, 0, 5}, a6[16] = {0xfd};
	char buf[64];

	ck_assert_int_eq(nccl_comm_id_format(AF_INET, a4, 29500, buf,
					     sizeof(buf)),
			 0);
	ck_assert_str_eq(buf, "10.231.0.5:29500");
	ck_assert_int_eq(nccl_comm_id_format(AF_INET6, a6, 1, buf,
					     sizeof(buf)),
			 0);
	ck_assert_str_eq(buf, "[fd00::]:1");
	ck_assert_int_eq(nccl_comm_id_format(AF_INET, a4, -1, buf,
					     sizeof(buf)),
			 0);
	ck_assert_str_eq(buf, "10.231.0.5");
	ck_assert_int_eq(nccl_comm_id_format(AF_INET, a4, 1, buf, 8), -1);
	ck_assert_int_eq(nccl_comm_id_format(AF_UNIX, a4, 1, buf,
					     sizeof(buf)),
			 -1);
}
END_TEST

/* NCCL's parseStringList: ports, empty entries, long prefixes, max. */
START_TEST(iflist)
{
	struct nccl_netif l[4];
	char longname[100];

	ck_assert_int_eq(nccl_iflist_parse(NULL, l, 4), 0);
	ck_assert_int_eq(nccl_iflist_parse("", l, 4), 0);
	ck_assert_int_eq(nccl_iflist_parse("eth0:5000,,ib:x,:7,lo", l, 4), 3);
	ck_assert_str_eq(l[0].prefix, "eth0");
	ck_assert_int_eq(l[0].port, 5000);
	ck_assert_str_eq(l[1].prefix, "ib");
	ck_assert_int_eq(l[1].port, 0);
	ck_assert_str_eq(l[2].prefix, "lo");
	ck_assert_int_eq(l[2].port, -1);
	ck_assert_int_eq(nccl_iflist_parse("a,b,c,d,e", l, 2), 2);
	ck_assert_str_eq(l[1].prefix, "b");
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	ck_assert_int_eq(nccl_iflist_parse(longname, l, 4), 1);
	ck_assert_uint_eq(strlen(l[0].prefix), NCCL_IF_PREFIX - 1);
}
END_TEST

/* Literal comma lists (GLOO_SOCKET_IFNAME, Open MPI's lists). */
START_TEST(list_split)
{
	struct env_entry e[4];

	ck_assert_int_eq(env_list_split(NULL, e, 4), 0);
	ck_assert_int_eq(env_list_split("eth0,,=eth1:2,10.0.0.0/8", e, 4), 3);
	ck_assert_str_eq(e[0].s, "eth0");
	ck_assert_str_eq(e[1].s, "=eth1:2");
	ck_assert_str_eq(e[2].s, "10.0.0.0/8");
	ck_assert_int_eq(env_list_split("a,b,c", e, 2), 2);
}
END_TEST

/* Numeric IPv4 or IPv6, else a name; unset and empty are nothing. */
START_TEST(master_addr)
{
	unsigned char a[16];
	int family = 0;

	ck_assert_int_eq(master_addr_parse(NULL, &family, a), -1);
	ck_assert_int_eq(master_addr_parse("", &family, a), -1);
	ck_assert_int_eq(master_addr_parse("127.0.0.1", &family, a), 1);
	ck_assert_int_eq(family, AF_INET);
	ck_assert_int_eq(a[0], 127);
	ck_assert_int_eq(master_addr_parse("::1", &family, a), 1);
	ck_assert_int_eq(family, AF_INET6);
	ck_assert_int_eq(master_addr_parse("node-0", &family, a), 0);
	ck_assert_int_eq(master_addr_parse("[::1]", &family, a), 0);
}
END_TEST

/* ip_local_port_range as the file holds it, and what is refused. */
START_TEST(port_range)
{
	unsigned lo = 0, hi = 0;

	ck_assert_int_eq(port_range_parse("32768\t60999\n", &lo, &hi), 0);
	ck_assert_uint_eq(lo, 32768);
	ck_assert_uint_eq(hi, 60999);
	ck_assert_int_eq(port_range_parse("1024 65535", &lo, &hi), 0);
	errno = 0;
	ck_assert_int_eq(port_range_parse("60999 32768", &lo, &hi), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(port_range_parse("32768", &lo, &hi), -1);
	ck_assert_int_eq(port_range_parse("0 10", &lo, &hi), -1);
	ck_assert_int_eq(port_range_parse("1 70000", &lo, &hi), -1);
	ck_assert_int_eq(port_range_parse("1 2 x", &lo, &hi), -1);
	ck_assert_int_eq(port_range_parse("", &lo, &hi), -1);
}
END_TEST

/* Writes text at root/proc/sys/net/ipv4/ip_local_port_range. */
static void put_range(const char *root, const char *text)
{
	static const char *const dirs[] = {"/proc", "/proc/sys",
					   "/proc/sys/net",
					   "/proc/sys/net/ipv4"};
	char p[256];
	FILE *fp;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(p, sizeof(p), "%s%s", root, dirs[i]);
		mkdir(p, 0755);
	}
	snprintf(p, sizeof(p), "%s%s", root, PORT_RANGE_PATH);
	fp = fopen(p, "w");
	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	fclose(fp);
}

/* Read through a sysroot: the file, a bad file, no file. */
START_TEST(port_range_read_sysroot)
{
	char root[64], p[256];
	struct sysroot sr;
	unsigned lo = 0, hi = 0;

	snprintf(root, sizeof(root), "/tmp/np-portrange-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
	ck_assert_int_eq(sysroot_init(&sr, root), 0);
	errno = 0;
	ck_assert_int_eq(port_range_read(&sr, &lo, &hi), -1);
	ck_assert_int_eq(errno, ENOENT);
	put_range(root, "32768\t60999\n");
	ck_assert_int_eq(port_range_read(&sr, &lo, &hi), 0);
	ck_assert_uint_eq(lo, 32768);
	ck_assert_uint_eq(hi, 60999);
	put_range(root, "60999 32768\n");
	ck_assert_int_eq(port_range_read(&sr, &lo, &hi), -1);
	ck_assert_int_eq(errno, EINVAL);
	snprintf(p, sizeof(p), "%s%s", root, PORT_RANGE_PATH);
	unlink(p);
	for (int i = 0; i < 4; i++) {
		char *slash = strrchr(p, '/');

		*slash = '\0';
		rmdir(p);
	}
	rmdir(root);
}
END_TEST

/* A recorded environment is read from the sysroot, never from the live
 * process: the live NCCL_SOCKET_IFNAME must not leak into a replay. */
START_TEST(record_from_sysroot)
{
	static const char rec[] =
	    "A=1\0NCCL_SOCKET_IFNAME==eth1\0NCCL_SOCKET_IFNAME=x\0"
	    "WORLD_SIZE=16\0LOCAL_WORLD_SIZE=8\0MASTER_ADDR=10.231.4.1";
	static struct env_record r;
	struct sysroot sr;
	struct scan_env e;

	setenv("NCCL_SOCKET_IFNAME", "live0", 1);
	ck_assert_int_eq(
	    sysroot_init(&sr, SRCDIR "/tests/fixtures/sysroot/k8s-pod"), 0);
	ck_assert_int_eq(env_record_read(&sr, &r), 0);
	ck_assert_str_eq(env_record_get(&r, "KUBERNETES_SERVICE_HOST"),
	                 "10.96.0.1");
	ck_assert_ptr_null(env_record_get(&r, "KUBERNETES"));
	ck_assert_ptr_null(env_record_get(&r, "NCCL_SOCKET_IFNAME"));
	scan_env_from_record(&r, &e);
	ck_assert_ptr_null(e.nccl_socket_ifname);
	unsetenv("NCCL_SOCKET_IFNAME");

	/* entries as the kernel writes them; the first of a name wins and
	 * a last one without its NUL still counts */
	memcpy(r.buf, rec, sizeof(rec));
	r.len = sizeof(rec) - 1;
	scan_env_from_record(&r, &e);
	ck_assert_str_eq(e.nccl_socket_ifname, "=eth1");
	ck_assert_str_eq(e.master_addr, "10.231.4.1");
	ck_assert_int_eq(e.nodes, 2);
	ck_assert_ptr_null(e.gloo_socket_ifname);

	/* no file: an error, and nothing set */
	ck_assert_int_eq(
	    sysroot_init(&sr, SRCDIR "/tests/fixtures/sysroot/wsl2-nat"), 0);
	ck_assert_int_eq(env_record_read(&sr, &r), 0);
	ck_assert_int_eq(sysroot_init(&sr, SRCDIR "/tests"), 0);
	ck_assert_int_eq(env_record_read(&sr, &r), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_ptr_null(env_record_get(&r, "HOME"));
}
END_TEST

/* setEnvFile (src/misc/param.cc): split at the first '=', nothing trimmed,
 * '#' in column one a comment, CR LF line ends, the first value wins. */
START_TEST(nccl_conf_lines)
{
	struct nccl_conf c;

	memset(&c, 0, sizeof(c));
	nccl_conf_parse("# pinned by netprobe report\n"
	                "NCCL_SOCKET_IFNAME==eth1\r\n"
	                "NCCL_SOCKET_IFNAME=eth9\n"
	                " NCCL_SOCKET_FAMILY=AF_INET6\n"
	                "NCCL_COMM_ID=10.0.0.1:2=9\n"
	                "NCCL_DEBUG=INFO\n",
	                "/etc/nccl.conf", &c);
	ck_assert_str_eq(c.ifname, "=eth1");
	ck_assert_str_eq(c.ifname_from, "/etc/nccl.conf");
	ck_assert_str_eq(c.family, ""); /* " NCCL_..." is another name */
	ck_assert_str_eq(c.comm_id, "10.0.0.1:2=9");
	/* a later file fills only what is still unset */
	nccl_conf_parse("NCCL_SOCKET_IFNAME=eth2\nNCCL_SOCKET_FAMILY=AF_INET",
	                "/root/.nccl.conf", &c);
	ck_assert_str_eq(c.ifname, "=eth1");
	ck_assert_str_eq(c.family, "AF_INET");
	ck_assert_str_eq(c.family_from, "/root/.nccl.conf");
}
END_TEST

/* The files under the environment: NCCL_CONF_FILE before /etc/nccl.conf,
 * and a variable set in the environment left as it is. */
START_TEST(nccl_conf_files)
{
	char root[] = "/tmp/np-conf-XXXXXX", p[512];
	struct sysroot sr;
	struct nccl_conf c;
	struct nccl_env env = {0};
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(root));
	snprintf(p, sizeof(p), "%s/etc", root);
	ck_assert_int_eq(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/etc/nccl.conf", root);
	f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs("NCCL_SOCKET_IFNAME==eth1\nNCCL_COMM_ID=10.0.0.1:29500\n", f);
	fclose(f);
	snprintf(p, sizeof(p), "%s/my.conf", root);
	f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs("NCCL_SOCKET_IFNAME==ib0\n", f);
	fclose(f);
	ck_assert_int_eq(sysroot_init(&sr, root), 0);
	ck_assert_int_eq(setenv("NCCL_CONF_FILE", "/my.conf", 1), 0);
	env.comm_id = "10.9.9.9:1";
	nccl_env_apply_conf(&env, &sr, &c);
	ck_assert_str_eq(env.socket_ifname, "=ib0");
	ck_assert_str_eq(c.ifname_from, "/my.conf");
	ck_assert_str_eq(env.comm_id, "10.9.9.9:1");
	ck_assert_ptr_null(env.socket_family);
	unsetenv("NCCL_CONF_FILE");
	memset(&env, 0, sizeof(env));
	nccl_env_apply_conf(&env, &sr, &c);
	ck_assert_str_eq(env.socket_ifname, "=eth1");
	ck_assert_str_eq(env.comm_id, "10.0.0.1:29500");
	unlink(p);
	snprintf(p, sizeof(p), "%s/etc/nccl.conf", root);
	unlink(p);
	snprintf(p, sizeof(p), "%s/etc", root);
	rmdir(p);
	rmdir(root);
}
END_TEST

Suite *suite_jobenv(void)
{
	Suite *s = suite_create("jobenv");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, comm_id_forms);
	tcase_add_test(tc, comm_id_colons);
	tcase_add_test(tc, comm_id_rejected);
	tcase_add_test(tc, comm_id_format);
	tcase_add_test(tc, iflist);
	tcase_add_test(tc, list_split);
	tcase_add_test(tc, master_addr);
	tcase_add_test(tc, port_range);
	tcase_add_test(tc, port_range_read_sysroot);
	tcase_add_test(tc, record_from_sysroot);
	tcase_add_test(tc, nccl_conf_lines);
	tcase_add_test(tc, nccl_conf_files);
	suite_add_tcase(s, tc);
	return s;
}
