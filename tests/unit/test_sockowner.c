/* Who holds a port (kernel/sockowner.h), over a recorded sysroot; and a
 * reset from a port the mesh's responder holds read as a firewall's. */
#include <check.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decide/portfind.h"
#include "kernel/sockowner.h"

static const char *tcp_rows =
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when "
    "retrnsmt   uid  timeout inode\n"
    "   0: 0100007F:1770 00000000:0000 0A 00000000:00000000 00:00000000 "
    "00000000     0        0 1062 1 0000000000000000 100 0 0 10 0\n"
    "   1: 00000000:733C 00000000:0000 0A 00000000:00000000 00:00000000 "
    "00000000     0        0 4242 1 0000000000000000 100 0 0 10 0\n"
    "   2: 0100007F:96A6 0100007F:733C 01 00000000:00000000 00:00000000 "
    "00000000     0        0 0 3\n";

/* Writes text to root/rel, creating its directories. */
static void put(const char *root, const char *rel, const char *text)
{
	char path[512], *s;
	FILE *fp;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	for (s = path + strlen(root) + 1; (s = strchr(s, '/')) != NULL; s++) {
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
	fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	fclose(fp);
}

START_TEST(parse_rows)
{
	uint16_t port = 0;
	unsigned long inode = 0;
	char addr[48];
	const char *row = strchr(tcp_rows, '\n') + 1;

	ck_assert_int_eq(sockowner_parse_line(tcp_rows, false, &port, &inode,
	                                      addr, sizeof(addr)),
	                 0);
	ck_assert_int_eq(sockowner_parse_line(row, false, &port, &inode, addr,
	                                      sizeof(addr)),
	                 1);
	ck_assert_uint_eq(port, 6000);
	ck_assert_uint_eq(inode, 1062);
	ck_assert_str_eq(addr, "127.0.0.1");
	ck_assert_int_eq(sockowner_parse_line("   5: garbage", false, &port,
	                                      &inode, addr, sizeof(addr)),
	                 -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(find_owner)
{
	char root[] = "/tmp/np23-sockowner.XXXXXX", link[600], cmd[600];
	struct sysroot sr;
	struct sock_owner o;

	ck_assert_ptr_nonnull(mkdtemp(root));
	put(root, "/proc/net/tcp", tcp_rows);
	put(root, "/proc/77/comm", "torchrun\n");
	put(root, "/proc/self/comm", "x\n");
	snprintf(link, sizeof(link), "%s/proc/77/fd", root);
	mkdir(link, 0755);
	strcat(link, "/3");
	ck_assert_int_eq(symlink("socket:[4242]", link), 0);
	ck_assert_int_eq(sysroot_init(&sr, root), 0);
	ck_assert_int_eq(sockowner_find(&sr, 29500, &o), 0);
	ck_assert_int_eq(o.pid, 77);
	ck_assert_str_eq(o.comm, "torchrun");
	ck_assert_str_eq(o.addr, "0.0.0.0");
	/* 6000 listens, but no process holds inode 1062: not named */
	ck_assert_int_eq(sockowner_find(&sr, 6000, &o), 0);
	ck_assert_int_eq(o.pid, 0);
	ck_assert_int_eq(sockowner_find(&sr, 29400, &o), 1);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* A reset from a port the peer's mesh responder holds is a firewall's
 * reject, with the commands that open it; without the hold, a service
 * that does not run. */
START_TEST(held_reset)
{
	struct port_result r = {0};
	struct ports_target t = {"nodeb", "10.231.0.2", true, 0, 0, NULL,
	                         NULL, false, true, NULL};
	struct doc d;
	json_t *f;
	const char *sum, *fix;

	r.port = 29500;
	r.proto = IPPROTO_TCP;
	r.state = PORT_CLOSED;
	snprintf(r.reason, sizeof(r.reason), "rst");
	ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
	ck_assert_int_eq(ports_decide(&d, &t, &r, 1, NULL, 0), 0);
	f = json_array_get(d.findings, 0);
	sum = json_string_value(json_object_get(f, "summary"));
	fix = json_string_value(json_object_get(f, "fix"));
	ck_assert_ptr_nonnull(strstr(sum, "so a firewall rejects them"));
	ck_assert_ptr_nonnull(strstr(fix, "tcp dport { 29500 } accept"));
	doc_free(&d);
	t.held = false;
	ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
	ck_assert_int_eq(ports_decide(&d, &t, &r, 1, NULL, 0), 0);
	f = json_array_get(d.findings, 0);
	sum = json_string_value(json_object_get(f, "summary"));
	ck_assert_ptr_nonnull(strstr(sum, "nothing listens"));
	doc_free(&d);
}
END_TEST

Suite *suite_sockowner(void)
{
	Suite *s = suite_create("sockowner");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, parse_rows);
	tcase_add_test(tc, find_owner);
	tcase_add_test(tc, held_reset);
	suite_add_tcase(s, tc);
	return s;
}
