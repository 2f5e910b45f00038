/* The local socket table read from /proc/net/tcp{,6}: which TCP ports have
 * a listener, and on which addresses. */
#include "kernel/sockinfo.h"

#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define TCP_LISTEN_STATE 0x0A /* TCP_LISTEN in include/net/tcp_states.h */
#define SOCKINFO_MAX_LINES 1000000 /* bound on the rows read per file */

/* Parses n hex digits into *v; false when any is not hex. */
static bool hexn(const char *s, size_t n, uint32_t *v)
{
	uint32_t x = 0;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else
			return false;
		x = x << 4 | d;
	}
	*v = x;
	return true;
}

/*
 * The kernel prints each 32-bit word of the address as %08X of its value
 * in host memory order, so copying the parsed words back into memory gives
 * the address in network order on the machine that wrote the file.
 */
int sockinfo_parse_line(const char *line, int family,
			struct sock_listener *out)
{
	size_t words = family == AF_INET6 ? 4 : 1;
	const char *p = line;
	uint32_t w, port, st;

	while (*p == ' ')
		p++;
	if (strncmp(p, "sl", 2) == 0)
		return 0;
	p = strchr(p, ':');
	if (p == NULL)
		goto bad;
	p++;
	while (*p == ' ')
		p++;
	memset(out, 0, sizeof(*out));
	out->family = family;
	for (size_t i = 0; i < words; i++) {
		if (!hexn(p + 8 * i, 8, &w))
			goto bad;
		memcpy(out->addr + 4 * i, &w, 4);
	}
	p += 8 * words;
	if (*p != ':' || !hexn(p + 1, 4, &port))
		goto bad;
	p += 5;
	if (*p != ' ')
		goto bad;
	/* remote address:port, then the state */
	p++;
	if (strlen(p) < 8 * words + 5 + 3)
		goto bad;
	p += 8 * words + 5;
	if (*p != ' ' || !hexn(p + 1, 2, &st))
		goto bad;
	out->port = (uint16_t)port;
	return st == TCP_LISTEN_STATE ? 1 : 0;
bad:
	errno = EINVAL;
	return -1;
}

/* Appends one listener, growing the array. */
static int table_add(struct sock_table *t, const struct sock_listener *l)
{
	if (t->n == t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 64;
		struct sock_listener *nv = realloc(t->v, ncap * sizeof(*nv));

		if (nv == NULL) {
			errno = ENOMEM;
			return -1;
		}
		t->v = nv;
		t->cap = ncap;
	}
	t->v[t->n++] = *l;
	return 0;
}

/* Reads one file; a malformed row is skipped, as a changed format should
 * cost one row, not the table. */
static int read_file(const struct sysroot *sr, const char *path, int family,
		     struct sock_table *t)
{
	char line[512];
	struct sock_listener l;
	FILE *fp;
	int rc = 0, fd;

	fd = sysroot_open(sr, path);
	if (fd < 0)
		return -1;
	fp = fdopen(fd, "re");
	if (fp == NULL) {
		close(fd);
		return -1;
	}
	for (long i = 0; i < SOCKINFO_MAX_LINES &&
			 fgets(line, sizeof(line), fp) != NULL;
	     i++) {
		if (sockinfo_parse_line(line, family, &l) == 1 &&
		    table_add(t, &l) < 0) {
			rc = -1;
			break;
		}
	}
	if (rc == 0 && ferror(fp)) {
		errno = EIO;
		rc = -1;
	}
	fclose(fp);
	return rc;
}

/* Both tables; tcp6 may be missing on a kernel without IPv6. */
int sockinfo_listeners(const struct sysroot *sr, struct sock_table *t)
{
	if (read_file(sr, "/proc/net/tcp", AF_INET, t) < 0)
		return -1;
	if (read_file(sr, "/proc/net/tcp6", AF_INET6, t) < 0 &&
	    errno != ENOENT)
		return -1;
	return 0;
}

/* Loopback in either family, IPv4-mapped included. */
bool sockinfo_is_loopback(int family, const uint8_t *a)
{
	static const uint8_t lo6[16] = {[15] = 1};
	static const uint8_t mapped[12] = {[10] = 0xff, [11] = 0xff};

	if (family == AF_INET)
		return a[0] == 127;
	if (memcmp(a, lo6, 16) == 0)
		return true;
	return memcmp(a, mapped, 12) == 0 && a[12] == 127;
}

/* Any listener off loopback makes the port reachable. */
enum sock_binding sockinfo_binding(const struct sock_table *t, uint16_t port)
{
	bool any = false;

	for (size_t i = 0; i < t->n; i++) {
		if (t->v[i].port != port)
			continue;
		if (!sockinfo_is_loopback(t->v[i].family, t->v[i].addr))
			return SOCK_BIND_REACHABLE;
		any = true;
	}
	return any ? SOCK_BIND_LOOPBACK_ONLY : SOCK_BIND_NONE;
}

/* Frees the rows and zeroes the table. */
void sockinfo_free(struct sock_table *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}
