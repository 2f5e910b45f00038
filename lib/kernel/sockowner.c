/* The process holding a TCP listener (sockowner.h): /proc/net/tcp{,6}
 * give the socket's inode, /proc/PID/fd the process that holds it. */
#include "kernel/sockowner.h"

#include "base/parse.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TCP_LISTEN_STATE 0x0A /* TCP_LISTEN in include/net/tcp_states.h */
#define SO_MAX_ROWS 1000000   /* rows read per table */
#define SO_MAX_DIRENTS 65536  /* processes, and descriptors per process */

/* The kernel's %08X words of the local address, as text. */
static void hex_addr(const char *hex, bool v6, char *out, size_t len)
{
	uint8_t a[16];
	size_t words = v6 ? 4 : 1;

	for (size_t i = 0; i < words; i++) {
		char w[9];
		uint32_t x;

		memcpy(w, hex + 8 * i, 8);
		w[8] = '\0';
		x = (uint32_t)strtoul(w, NULL, 16);
		memcpy(a + 4 * i, &x, 4);
	}
	if (inet_ntop(v6 ? AF_INET6 : AF_INET, a, out, (socklen_t)len) == NULL)
		snprintf(out, len, "?");
}

/* See sockowner.h. The row: "sl: LOCAL:PORT REM:PORT ST tx:rx tr:tm
 * retr uid timeout inode ...". */
int sockowner_parse_line(const char *line, bool v6, uint16_t *port,
                         unsigned long *inode, char *addr, size_t addrlen)
{
	char local[40], rem[48];
	unsigned p, st;
	unsigned long ino;
	size_t want = v6 ? 32 : 8;
	int n;

	while (*line == ' ')
		line++;
	if (strncmp(line, "sl", 2) == 0)
		return 0;
	n = sscanf(line,
	           "%*u: %39[0-9A-Fa-f]:%x %47s %x %*s %*s %*s %*u "
	           "%*u %lu",
	           local, &p, rem, &st, &ino);
	if (n != 5 || strlen(local) != want || p > 65535) {
		errno = EINVAL;
		return -1;
	}
	if (st != TCP_LISTEN_STATE)
		return 0;
	*port = (uint16_t)p;
	*inode = ino;
	if (addr != NULL)
		hex_addr(local, v6, addr, addrlen);
	return 1;
}

/* The inode of port's listener in one table; 1 none, -1 unreadable. */
static int find_inode(const struct sysroot *sr, const char *path, bool v6,
                      uint16_t port, unsigned long *inode, char *addr,
                      size_t addrlen)
{
	char full[PATH_MAX], line[512];
	FILE *fp;
	int rc = 1;

	if (sysroot_path(sr, path, full, sizeof(full)) < 0)
		return -1;
	fp = fopen(full, "re");
	if (fp == NULL)
		return -1;
	for (long i = 0; i < SO_MAX_ROWS && fgets(line, sizeof(line), fp);
	     i++) {
		uint16_t p;

		if (sockowner_parse_line(line, v6, &p, inode, addr, addrlen) ==
		        1 &&
		    p == port) {
			rc = 0;
			break;
		}
	}
	fclose(fp);
	return rc;
}

/* True when one of pid's descriptors is socket:[inode]. */
static bool pid_holds(const struct sysroot *sr, const char *pid,
                      const char *want)
{
	char dir[PATH_MAX], rel[128], link[64];
	struct dirent *e;
	bool found = false;
	DIR *dp;

	snprintf(rel, sizeof(rel), "/proc/%.16s/fd", pid);
	if (sysroot_path(sr, rel, dir, sizeof(dir)) < 0 ||
	    (dp = opendir(dir)) == NULL)
		return false;
	for (int i = 0; !found && i < SO_MAX_DIRENTS && (e = readdir(dp));
	     i++) {
		ssize_t n;

		if (e->d_name[0] == '.')
			continue;
		snprintf(rel, sizeof(rel), "/proc/%.16s/fd/%.16s", pid,
		         e->d_name);
		n = sysroot_readlink(sr, rel, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		found = strcmp(link, want) == 0;
	}
	closedir(dp);
	return found;
}

/* See sockowner.h. */
int sockowner_find(const struct sysroot *sr, uint16_t port,
                   struct sock_owner *o)
{
	char dir[PATH_MAX], want[48], rel[128];
	unsigned long inode = 0;
	struct dirent *e;
	DIR *dp;
	int rc;

	memset(o, 0, sizeof(*o));
	rc = find_inode(sr, "/proc/net/tcp", false, port, &inode, o->addr,
	                sizeof(o->addr));
	if (rc < 0)
		return -1;
	if (rc == 1 && find_inode(sr, "/proc/net/tcp6", true, port, &inode,
	                          o->addr, sizeof(o->addr)) != 0)
		return 1;
	if (inode == 0 || sysroot_path(sr, "/proc", dir, sizeof(dir)) < 0 ||
	    (dp = opendir(dir)) == NULL)
		return 0;
	snprintf(want, sizeof(want), "socket:[%lu]", inode);
	for (int i = 0; i < SO_MAX_DIRENTS && (e = readdir(dp)); i++) {
		const char *why;
		long long pid;

		if (!isdigit((unsigned char)e->d_name[0]) ||
		    parse_num(e->d_name, 1, INT_MAX, &pid, &why) < 0 ||
		    !pid_holds(sr, e->d_name, want))
			continue;
		o->pid = (int)pid;
		snprintf(rel, sizeof(rel), "/proc/%.16s/comm", e->d_name);
		if (sysroot_read_line(sr, rel, o->comm, sizeof(o->comm)) < 0)
			o->comm[0] = '\0';
		break;
	}
	closedir(dp);
	return 0;
}
