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

#include "kernel/sockdiag.h"

#define TCP_LISTEN_STATE 0x0A /* TCP_LISTEN in include/net/tcp_states.h */
#define TCP_SYN_RECV_STATE 0x03 /* TCP_SYN_RECV: a request, half open */
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

/* Parses words 32-bit words of an address, then ":PORT" (4 hex digits),
 * into addr and *port; returns the position after it, or NULL. The kernel
 * prints each word as %08X of its value in host memory order, so copying
 * the parsed words back into memory gives the address in network order on
 * the machine that wrote the file. */
static const char *parse_end(const char *p, size_t words, uint8_t *addr,
			     uint16_t *port)
{
	uint32_t w, v;

	for (size_t i = 0; i < words; i++) {
		if (!hexn(p + 8 * i, 8, &w))
			return NULL;
		memcpy(addr + 4 * i, &w, 4);
	}
	p += 8 * words;
	if (*p != ':' || !hexn(p + 1, 4, &v))
		return NULL;
	*port = (uint16_t)v;
	return p + 5;
}

/* "  sl  local_address rem_address   st tx_queue:rx_queue tr:tm->when
 * retrnsmt ...": the fields up to retrnsmt, each checked. */
int sockinfo_parse_row(const char *line, int family, struct sock_row *out)
{
	size_t words = family == AF_INET6 ? 4 : 1;
	const char *p = line;
	uint32_t st, retr;

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
	if (strlen(p) < 2 * (8 * words + 5) + 4 ||
	    (p = parse_end(p, words, out->laddr, &out->lport)) == NULL ||
	    *p != ' ' ||
	    (p = parse_end(p + 1, words, out->raddr, &out->rport)) == NULL ||
	    *p != ' ' || !hexn(p + 1, 2, &st))
		goto bad;
	out->state = st;
	/* " tx:rx tr:when retrnsmt": older rows may end early, as the
	 * listener table never needed them */
	p += 3;
	if (sscanf(p, " %*8x:%*8x %*2x:%*8x %8x", &retr) == 1)
		out->retrans = retr;
	return 1;
bad:
	errno = EINVAL;
	return -1;
}

/* A row in LISTEN, as a listener. */
int sockinfo_parse_line(const char *line, int family,
			struct sock_listener *out)
{
	struct sock_row r;
	int rc = sockinfo_parse_row(line, family, &r);

	if (rc <= 0)
		return rc;
	memset(out, 0, sizeof(*out));
	out->family = family;
	memcpy(out->addr, r.laddr, sizeof(out->addr));
	out->port = r.lport;
	return r.state == TCP_LISTEN_STATE ? 1 : 0;
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

/* Calls row() for every row of one file, until it returns < 0; a
 * malformed row is skipped, as a changed format should cost one row, not
 * the table. */
static int read_file(const struct sysroot *sr, const char *path, int family,
		     int (*row)(const struct sock_row *, void *), void *arg)
{
	char line[512];
	struct sock_row r;
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
		if (sockinfo_parse_row(line, family, &r) == 1 &&
		    row(&r, arg) < 0) {
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

/* Both files; tcp6 may be missing on a kernel without IPv6. */
static int read_both(const struct sysroot *sr,
		     int (*row)(const struct sock_row *, void *), void *arg)
{
	if (read_file(sr, "/proc/net/tcp", AF_INET, row, arg) < 0)
		return -1;
	if (read_file(sr, "/proc/net/tcp6", AF_INET6, row, arg) < 0 &&
	    errno != ENOENT)
		return -1;
	return 0;
}

/* read_both's row for the listener table. */
static int listener_row(const struct sock_row *r, void *arg)
{
	struct sock_listener l = {.family = r->family, .port = r->lport};

	if (r->state != TCP_LISTEN_STATE)
		return 0;
	memcpy(l.addr, r->laddr, sizeof(l.addr));
	return table_add(arg, &l);
}

/* sockdiag_listeners' callback: one listener into the table. */
static int diag_add(void *arg, const struct sock_listener *l)
{
	return table_add(arg, l);
}

/* See sockinfo.h. On the live system the kernel's sock_diag lists the
 * listeners alone (a mesh of hundreds of members on one host reads this
 * for every local peer, and /proc/net/tcp prints every socket); a
 * recorded tree, or a kernel that refuses sock_diag, is read from its
 * files. */
int sockinfo_listeners(const struct sysroot *sr, struct sock_table *t)
{
	size_t n0 = t->n;

	if (sr->dir[0] == '\0' && sockdiag_listeners(diag_add, t) == 0)
		return 0;
	t->n = n0; /* what a failed dump added is read again */
	return read_both(sr, listener_row, t);
}

/* What sockinfo_synrecv looks for, and how many it found. */
struct synrecv_want {
	uint8_t v4[4];   /* the peer as IPv4, when it is one */
	uint8_t v6[16];  /* else as IPv6 */
	bool is_v4;
	uint16_t lport;
	unsigned min_retrans;
	int n;
};

/* The 4 bytes of an IPv4 address in a row: itself, or IPv4-mapped. */
static const uint8_t *row_v4(int family, const uint8_t *a)
{
	static const uint8_t mapped[12] = {[10] = 0xff, [11] = 0xff};

	if (family == AF_INET)
		return a;
	return memcmp(a, mapped, 12) == 0 ? a + 12 : NULL;
}

/* read_both's row for sockinfo_synrecv. */
static int synrecv_row(const struct sock_row *r, void *arg)
{
	struct synrecv_want *w = arg;
	const uint8_t *a4;

	if (r->state != TCP_SYN_RECV_STATE || r->lport != w->lport ||
	    r->retrans < w->min_retrans)
		return 0;
	if (w->is_v4) {
		a4 = row_v4(r->family, r->raddr);
		if (a4 != NULL && memcmp(a4, w->v4, 4) == 0)
			w->n++;
	} else if (r->family == AF_INET6 && memcmp(r->raddr, w->v6, 16) == 0) {
		w->n++;
	}
	return 0;
}

/* See sockinfo.h. */
int sockinfo_synrecv(const struct sysroot *sr, int family, const void *peer,
		     uint16_t lport, unsigned min_retrans)
{
	struct synrecv_want w = {.lport = lport, .min_retrans = min_retrans};
	const uint8_t *a4;

	if (family == AF_INET) {
		memcpy(w.v4, peer, 4);
		w.is_v4 = true;
	} else if ((a4 = row_v4(AF_INET6, peer)) != NULL) {
		memcpy(w.v4, a4, 4);
		w.is_v4 = true;
	} else {
		memcpy(w.v6, peer, 16);
	}
	if (read_both(sr, synrecv_row, &w) < 0)
		return -1;
	return w.n;
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
